"""The engine's vocabularies are compared as their enums, not as strings (issue 33).

``Verdict``, ``ActionType`` and ``Status`` (:mod:`adjudicator.model.enums`) are ``str`` enums, so a comparison
with a plain string still works -- and a misspelt one (``ruling.verdict == "ilegal"``) quietly never matches.
Read from the source: no comparison of an action's type, a verdict or a status with a string literal, and the
rules dispatch by ``ActionType``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from adjudicator.model.enums import ActionType, Status, Verdict
from adjudicator.rules.engine import HANDLERS

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ROOT / "adjudicator"
WORDS = {m.value for enum in (ActionType, Status, Verdict) for m in enum}
FIELDS = {"type", "verdict", "status", "action", "shown_status"}  # the attributes that hold those vocabularies
# Files being changed by their owners now (issues 31 and 32): each is to use the enums when they are merged.
LEFT_TO_THEIR_OWNERS = {"adjudicator/rules/table_check.py", "adjudicator/rules/pile.py",
                        "adjudicator/rules/opening.py", "adjudicator/rules/judge.py", "adjudicator/rules/readings.py"}


def _holds_vocabulary(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr in FIELDS


def _literal_words(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & WORDS
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)} & WORDS
    return set()


def string_comparisons(source: str, name: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        if any(_holds_vocabulary(s) for s in sides) and any(_literal_words(s) for s in sides):
            found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_vocabulary_is_compared_as_a_string():
    found = [hit for path in sorted(ENGINE.rglob("*.py")) if str(path.relative_to(ROOT)) not in LEFT_TO_THEIR_OWNERS
             for hit in string_comparisons(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, "compare with the enum (Verdict, ActionType, Status), not a string:\n" + "\n".join(found)


def test_the_check_finds_what_it_looks_for():
    sample = ('if ruling.verdict == "illegal" or action.type in ("meld", "go_out"):\n    pass\n'
              'if entry.status != Status.STATED or group.kind == "meld" or name == "legal":\n    pass\n')
    assert string_comparisons(sample, "sample") == [
        "sample:1: ruling.verdict == 'illegal'", "sample:1: action.type in ('meld', 'go_out')"]


def test_the_rules_dispatch_by_action_type():
    assert set(HANDLERS) == set(ActionType) and all(type(k) is ActionType for k in HANDLERS)
