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
"""

from .model.actions import Action, Add
from .compare.comparison import Comparison, compare
from .rules.engine import adjudicate, rule
from .model.errors import AdjudicatorError, ImpossibleInput, MalformedRequest, RuleNotStated, UnknownVariant
from .model.findings import Finding, Ruling
from .input.house_rules import apply as apply_house_rules
from .options.listing import Option, OptionGroup, Options, legal_moves
from .input.parse import compare_request, options_request, ruling_request, score_request
from .words.render import render, summary
from .scoring import GameSheet, RoundSheet, score, score_payload
from .model.situation import Side, Situation
from .variants import Variant, load_all

__all__ = ["Action", "Add", "AdjudicatorError", "Comparison", "Finding", "GameSheet", "ImpossibleInput",
           "MalformedRequest", "Option", "OptionGroup", "Options", "RoundSheet", "Ruling", "RuleNotStated", "Side", "Situation", "UnknownVariant",
           "Variant", "adjudicate", "apply_house_rules", "compare", "compare_request", "legal_moves", "load_all", "options_request", "render",
           "rule",
           "ruling_request", "score", "score_payload", "score_request", "summary"]
