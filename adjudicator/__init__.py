"""Canasta Referee's rules engine: rulings, scores and comparisons cited from each variant's own text.

A library first (no Flask, no HTTP)::

    from adjudicator import load_all, ruling_request, rule, render, summary

    variants = load_all()                      # every variants/*.yaml, each citation verified
    request = ruling_request(payload, variants)  # JSON in the API's shape -> typed objects
    ruling = rule(request.situation, request.action, request.rules)
    ruling.verdict, [f.rule for f in ruling.failed()], summary(ruling, "en")

The typed pieces: :class:`Situation`, :class:`Action` in; :class:`Ruling` with its
:class:`Finding` s, score sheets and a :class:`Comparison` out; the errors of
:mod:`adjudicator.model.errors`; one question at a time in :mod:`adjudicator.predicates`;
every legal move of a situation from :func:`legal_moves`.

The wings, each importing only those below it: ``model`` (typed values), ``words``
(catalogue, rendering), ``variants`` (the rulebook loader), ``rules`` (rule()),
``options`` (legal_moves()), ``scoring``, ``compare``; ``input`` (the JSON parser,
the one wing that loads marshmallow) stands at the edge, so its names here are
loaded on first use: ``import adjudicator.rules`` parses nothing.
"""

import sys
from importlib import import_module
from types import ModuleType

# Where each public name lives. Nothing is imported until a name is first asked for (PEP 562): ``import
# adjudicator.variants`` (the service's start-up: every variant loaded and its citations checked) loads the
# rulebook loader alone, not the rules, the options search, the scores and the comparisons it does not use yet;
# the first ruling imports those, once. ``tests/test_startup.py`` holds every name of ``__all__`` reachable here.
WHERE = {
    "Comparison": "compare.comparison", "compare": "compare.comparison",
    "apply_house_rules": ("input.house_rules", "apply"),
    "Action": "model.actions", "Add": "model.actions",
    "CardError": "model.cards", "parse_card": ("model.cards", "parse"),
    "ActionType": "model.enums", "Status": "model.enums", "Verdict": "model.enums",
    "AdjudicatorError": "model.errors", "ImpossibleInput": "model.errors", "MalformedRequest": "model.errors",
    "RuleIllegal": "model.errors", "RuleNotStated": "model.errors", "UnknownVariant": "model.errors",
    "Finding": "model.findings", "Ruling": "model.findings",
    "Side": "model.situation", "Situation": "model.situation",
    "Option": "options.listing", "OptionGroup": "options.listing", "Options": "options.listing",
    "legal_moves": "options.listing",
    "Replay": "replay", "replay": ("replay", "replay"),
    "rule": "rules.engine",
    "check_table": "rules.table_check", "table_problems": "rules.table_check",
    "GameSheet": "scoring", "RoundSheet": "scoring", "score": ("scoring", "score"),
    "Variant": "variants", "load_all": "variants",
    "render": "words.render", "summary": "words.render",
    # the parser's names: the input wing is the one that loads marshmallow
    "ruling_request": "input.parse", "options_request": "input.parse", "score_request": "input.parse",
    "compare_request": "input.parse", "adjudicate": "input.payloads", "score_payload": "input.payloads",
    "replay_request": "input.replay_log", "replay_payload": "input.payloads",
}
AT_THE_EDGE = {name: where for name, where in WHERE.items() if isinstance(where, str) and where.startswith("input.")}


def __getattr__(name: str):
    """A public name, imported from its module when first asked for (PEP 562) and kept here after."""
    where = WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, attribute = where if isinstance(where, tuple) else (where, name)
    value = getattr(import_module(f"{__name__}.{module}"), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(WHERE))


class _Package(ModuleType):
    """This package: ``adjudicator.compare`` and ``adjudicator.replay`` are the functions, not the wings of the same
    names. Python sets a wing as the package's attribute when the wing is first imported, which would hide the
    function asked for later; the function keeps its name, as when this package imported it at once."""

    def __setattr__(self, name: str, value: object) -> None:
        if name in WHERE and isinstance(value, ModuleType):  # a wing named like a public name
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


__all__ = ["Action", "ActionType", "Add", "AdjudicatorError", "CardError", "Comparison", "Finding", "GameSheet",
           "ImpossibleInput", "MalformedRequest", "Option", "OptionGroup", "Options", "RoundSheet", "Ruling",
           "RuleIllegal", "RuleNotStated", "Side", "Situation", "Status", "UnknownVariant", "Variant", "Verdict",
           "adjudicate", "apply_house_rules", "check_table", "compare", "compare_request", "legal_moves", "load_all",
           "options_request", "parse_card", "render", "Replay", "replay", "replay_payload", "replay_request", "rule",
           "ruling_request", "score", "score_payload",
           "score_request", "summary", "table_problems"]
