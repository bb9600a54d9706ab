"""The README and the pages of docs/ stay true: documentation that cannot go stale.

The README is one screen (the two commands, what the service is, one example, links); what it used to say at length
lives in docs/. Each claim a program can check is checked here: the python blocks run, the curl examples answer as
shown, the links lead to a page and a heading, the rule ids, the variants and the languages' example are the engine's
own, and no line is over 120 characters.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from test_infra import readme_commands

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.rglob("*.md"))]
WIDTH = 120
README_LINES = 60  # a phone's or a laptop's screen, scrolled once or twice


def text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def python_blocks() -> list[str]:
    """The ```python blocks of the README and of docs/, in the README's order of links (the library page first)."""
    return [block for page in PAGES for block in re.findall(r"```python\n(.*?)```", text(page), re.S)]


def test_the_library_examples_run_and_their_assertions_hold(capsys):
    blocks = python_blocks()
    assert blocks, "docs/library.md shows the library in a python block"
    for block in blocks:
        exec(compile(block, "docs", "exec"), {})
    assert "Kasthögen är frusen" in capsys.readouterr().out


def test_no_line_is_over_120_characters():
    commands = set(readme_commands())  # the two commands stay on one line each, as CI runs them
    long = [f"{page.relative_to(ROOT)}:{n}: {len(line)}" for page in PAGES
            for n, line in enumerate(text(page).splitlines(), 1) if len(line) > WIDTH and line not in commands]
    assert not long, long


def test_the_readme_fits_a_screen():
    lines = text(README).splitlines()
    assert len(lines) <= README_LINES, len(lines)
    assert len(re.findall(r"^```", text(README), re.M)) == 6, "the two commands and one example"


def slug(heading: str) -> str:
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    return {slug(h) for h in re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", text(page), flags=re.S), re.M)}


def links(page: Path) -> list[str]:
    prose = re.sub(r"```.*?```", "", text(page), flags=re.S)
    return [target for target in re.findall(r"\]\(([^)\s]+)\)", prose) if not re.match(r"[a-z]+:", target)]


def test_every_link_leads_to_a_page_and_a_heading():
    broken = []
    for page in PAGES:
        for target in links(page):
            path, _, anchor = target.partition("#")
            goal = (page.parent / path).resolve() if path else page
            if not goal.exists() or (anchor and (goal.is_dir() or anchor not in anchors(goal))):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_every_page_of_docs_is_reached_from_the_readme():
    reached, todo = set(), [README]
    while todo:
        page = todo.pop()
        for target in links(page):
            goal = (page.parent / target.partition("#")[0]).resolve()
            found = sorted(goal.glob("*.md")) if goal.is_dir() else [goal]
            todo += [p for p in found if p.suffix == ".md" and p not in reached and p.is_relative_to(DOCS)]
            reached.update(found)
    assert set(DOCS.rglob("*.md")) <= reached, set(DOCS.rglob("*.md")) - reached


def curl_examples() -> list[tuple[str, dict, str]]:
    """(page, body, what the comment below it shows) of each documented POST /v1/adjudicate."""
    found = []
    for page in PAGES:
        for body, shown in re.findall(r"curl -s localhost:8000/v1/adjudicate .*?-d '(\{.*?\})'\n((?:#.*\n)+)",
                                      text(page), re.S):
            found.append((page.name, json.loads(body), shown))
    return found


def test_the_readme_example_and_the_apis_answer_as_shown():
    from adjudicator.answers import answer

    examples = curl_examples()
    assert {page for page, _, _ in examples} >= {"README.md", "api.md"}
    for page, body, shown in examples:
        said = answer("adjudicate", body).document
        verdict = re.search(r'"verdict":"(\w+)"', shown).group(1)
        assert said["verdict"] == verdict, page
        for quote, start, end in re.findall(r'"quote":"([^"]+)","start":(\d+),"end":(\d+)', shown):
            assert any(c["quote"] == quote and (c["start"], c["end"]) == (int(start), int(end))
                       for c in said["deciding"]), (page, quote)
        assert said["summary"].startswith(re.search(r'"summary":"([^"(]+)', shown).group(1)), page


def list_items(page: Path) -> list[str]:
    """The page's top-level list items, each joined onto one line."""
    items = re.findall(r"^- (.*?)(?=\n- |\n\n|\n#|\Z)", text(page), re.S | re.M)
    return [re.sub(r"\s+", " ", item).strip() for item in items]


def test_the_rule_ids_page_lists_every_rule_with_its_words_and_parameters():
    from adjudicator.model.messages import msg
    from adjudicator.model.rule_ids import RULES
    from adjudicator.words.render import render

    listed = {}
    for item in list_items(DOCS / "rule-ids.md"):
        rule, checks, params = re.fullmatch(r"`([^`]+)`: (.*) Parameters: (.*)\.", item, re.S).groups()
        listed[rule] = (checks, tuple(re.findall(r"`([^`]+)`", params)))
    assert list(listed) == list(RULES)
    for rule, (checks, params) in listed.items():
        assert checks == render(msg(f"rule.{rule}"), "en"), rule
        assert params == RULES[rule], rule


def test_the_variants_page_names_each_variant_and_its_source(variants):
    items = {re.match(r"`([^`]+)`", item).group(1): item for item in list_items(DOCS / "variants.md")
             if re.match(r"`[a-z]+-[a-z]+`, ", item)}
    assert sorted(items) == sorted(variants)
    for vid, variant in variants.items():
        assert f"source document `{variant.seed_file}`, here `variants/{variant.source_file}`" in items[vid], vid


@pytest.mark.parametrize("lang", ["en", "sv", "nb", "da"])
def test_the_languages_page_shows_what_the_service_says(lang):
    from adjudicator.answers import answer

    body = next(body for page, body, _ in curl_examples() if page == "README.md")
    shown = next(item for item in list_items(DOCS / "languages.md") if item.startswith(f"**{lang}**: "))
    assert shown.removeprefix(f"**{lang}**: ") == answer("adjudicate", body, lang).document["summary"]
