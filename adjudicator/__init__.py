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

from importlib import import_module

from .compare.comparison import Comparison, compare
from .input.house_rules import apply as apply_house_rules
from .model.actions import Action, Add
from .model.cards import CardError, parse as parse_card
from .model.enums import ActionType, Status, Verdict
from .model.errors import (AdjudicatorError, ImpossibleInput, MalformedRequest, RuleIllegal, RuleNotStated,
                           UnknownVariant)
from .model.findings import Finding, Ruling
from .model.situation import Side, Situation
from .options.listing import Option, OptionGroup, Options, legal_moves
from .replay import Replay, replay
from .rules.engine import rule
from .rules.table_check import check_table, table_problems
from .scoring import GameSheet, RoundSheet, score
from .variants import Variant, load_all
from .words.render import render, summary

AT_THE_EDGE = {"ruling_request": "input.parse", "options_request": "input.parse", "score_request": "input.parse",
               "compare_request": "input.parse", "adjudicate": "input.payloads", "score_payload": "input.payloads",
               "replay_request": "input.replay_log", "replay_payload": "input.payloads"}


def __getattr__(name: str):
    """The parser's names, imported when first asked for (PEP 562)."""
    if name in AT_THE_EDGE:
        return getattr(import_module(f"{__name__}.{AT_THE_EDGE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Action", "ActionType", "Add", "AdjudicatorError", "CardError", "Comparison", "Finding", "GameSheet",
           "ImpossibleInput", "MalformedRequest", "Option", "OptionGroup", "Options", "RoundSheet", "Ruling",
           "RuleIllegal", "RuleNotStated", "Side", "Situation", "Status", "UnknownVariant", "Variant", "Verdict",
           "adjudicate", "apply_house_rules", "check_table", "compare", "compare_request", "legal_moves", "load_all",
           "options_request", "parse_card", "render", "Replay", "replay", "replay_payload", "replay_request", "rule",
           "ruling_request", "score", "score_payload",
           "score_request", "summary", "table_problems"]
