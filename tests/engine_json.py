"""The engine as the API shows it: typed results through the web layer's serializers, in English.

Tests of the rule matrix, scores and comparisons pin JSON answers (verdicts,
rule ids, citations, score lines). These helpers run the engine's own entry
points and put the typed results through :mod:`adjudicator.answers.serialize`, exactly as
the endpoints do, so the same tables hold for the library and for HTTP. An
engine error becomes the problem the API would answer with.
"""

from __future__ import annotations

from adjudicator.model import errors as engine_errors
from adjudicator.compare.comparison import compare as compare_typed
from adjudicator.input.payloads import adjudicate as adjudicate_typed
from adjudicator.input.parse import compare_request
from adjudicator.input.payloads import score_payload
from adjudicator.answers import serialize
from adjudicator.answers.phrases import register_phrases

register_phrases()  # the web layer's texts are part of the catalogue, as in the app

LANG = "en"


class InputError(Exception):
    """An engine error as the problem the API answers with (status, type slug, title, detail, errors)."""

    def __init__(self, error: engine_errors.AdjudicatorError):
        members = serialize.problem_members(error, LANG)
        super().__init__(members["detail"])
        self.engine_error = error
        self.status, self.type, self.title = members["status"], members["type"], members["title"]
        self.detail, self.errors = members["detail"], members["errors"]
        self.parameters = members.get("parameters")
        self.known = members.get("known")


class NotStatedError(InputError):
    """A rule-not-stated problem."""


class UnknownVariant(InputError):
    """An unknown-variant problem (404)."""


def _raise(error: engine_errors.AdjudicatorError):
    if isinstance(error, engine_errors.RuleNotStated):
        raise NotStatedError(error) from error
    if isinstance(error, engine_errors.UnknownVariant):
        raise UnknownVariant(error) from error
    raise InputError(error) from error


def adjudicate(payload: dict, variants: dict) -> dict:
    try:
        return serialize.ruling(adjudicate_typed(payload, variants), LANG)
    except engine_errors.AdjudicatorError as e:
        _raise(e)


def score(payload: dict, variants: dict) -> dict:
    try:
        return serialize.score(score_payload(payload, variants), LANG)
    except engine_errors.AdjudicatorError as e:
        _raise(e)


def compare(payload: dict, variants: dict) -> dict:
    try:
        return serialize.comparison(compare_typed(compare_request(payload, variants), variants), LANG)
    except engine_errors.AdjudicatorError as e:
        _raise(e)


def problem_of(error: InputError) -> dict:
    members = serialize.problem_members(error.engine_error, LANG)
    members.pop("known", None)
    return members


def matrix(variants: dict, differs: bool = False) -> dict:
    from adjudicator.compare.matrix import matrix as rows
    return serialize.matrix(list(variants), rows(variants, differs_only=differs), LANG)


def matrix_csv(variants: dict, differs: bool = False) -> str:
    from web_api.compare_api import matrix_csv as to_csv
    return to_csv(matrix(variants, differs))


def accepts(param) -> str:
    """What a house rule for ``param`` may hold, in words."""
    from adjudicator.words.render import render
    return render(param.accepts(), LANG)
