"""A typed result a library caller edits leaves the next result as it was (issue 44, break 1, and its kin).

The engine hands out what it keeps: a message made once per reading, a variant's values in an interpretation,
citations. A library caller that edited ``message.args`` inside a returned :class:`~adjudicator.Ruling` once
changed the next da-ludo ruling (the reading's message was kept in ``rules/readings.py``, and ``Message.args`` was
a plain dict); one that edited an interpretation's value edited the variant itself. Now what a result holds is
immutable all the way down -- frozen dataclasses, tuples, and :class:`~adjudicator.model.frozen.FrozenDict` /
``FrozenList`` where a mapping or a list is what a reader expects -- so the edit is refused where it is made.

These tests take a result of each kind, try every change a caller could make on every public part of it (an item
set or added, a member set or added, an attribute set), then ask again: the second result says, in every
language and form, what the first said before it was edited.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import pytest

from adjudicator.answers import serialize
from adjudicator.compare.comparison import compare
from adjudicator.input.parse import compare_request, options_request, ruling_request, score_request
from adjudicator.options.listing import legal_moves
from adjudicator.rules.engine import rule
from adjudicator.scoring import score
from adjudicator.variants import load_all
from test_answers import FROZEN_PILE, MELD, OPTIONS
from test_http_scoring import GAME, ROUND

VARIANTS = load_all()
EDITED = "edited by a caller"
# da-ludo reads "may twos be wild?" two ways: the ruling is decided across the readings, each said in words
ACROSS = {"variant": "da-ludo",
          "situation": {"players": 4, "first_round": False, "discard_pile": ["2C", "5C", "9D"], "turn": {"drew": None},
                        "team": {"score": 0, "melds": [["KH", "KS", "KD"]]}, "player": {"hand": ["9H", "9S", "4C"]}},
          "action": {"type": "take_pile", "with": ["9H", "9S"]}}
TWO_IN_PILE = {"variant": "da-ludo",
               "situation": {"discard_pile": ["5C", "2C", "9D"], "turn": {"drew": None},
                             "team": {"score": 0, "melds": [["KH", "KS", "KD"]]},
                             "player": {"hand": ["9H", "9S", "4C"]}},
               "action": {"type": "take_pile", "with": ["9H", "9S"]}}


def edit_everything(result) -> tuple[int, int]:
    """Try to change every public part of ``result``: each item and member set, one added, each attribute of an
    object set. Returns how many changes were made and how many refused."""
    made = refused = 0
    seen: set[int] = set()
    stack = [result]
    while stack:
        node = stack.pop()
        if id(node) in seen or isinstance(node, (str, bytes, int, float, bool, type(None))):
            continue
        seen.add(id(node))
        edits = []
        if isinstance(node, dict):
            stack.extend(node.values())
            edits = [lambda k=k: node.__setitem__(k, EDITED) for k in list(node)] + [lambda: node.update(x=1)]
        elif isinstance(node, list):
            stack.extend(node)
            edits = [lambda i=i: node.__setitem__(i, EDITED) for i in range(len(node))] + [lambda: node.append(1)]
        elif isinstance(node, (tuple, frozenset, set)):
            stack.extend(node)
        else:
            names = [f.name for f in dataclasses.fields(node)] if dataclasses.is_dataclass(node) else \
                [n for n in getattr(node, "__dict__", {}) if not n.startswith("_")]
            stack.extend(getattr(node, n) for n in names)
            edits = [lambda n=n: setattr(node, n, EDITED) for n in names]
        for edit in edits:
            try:
                edit()
                made += 1
            except (TypeError, AttributeError):  # a frozen dataclass refuses with FrozenInstanceError
                refused += 1
    return made, refused


def said(document_of) -> str:
    """Everything a result says, in every language, with and without words."""
    return json.dumps([document_of(lang) for lang in ("en", "sv", "nb", "da")], sort_keys=True, default=repr)


def _ruled(body: dict):
    request = ruling_request(copy.deepcopy(body), VARIANTS)
    return rule(request.situation, request.action, request.rules)


def _ruling_said(ruling) -> str:
    return said(lambda lang: [serialize.ruling(ruling, lang), serialize.ruling(ruling, lang, words=False)])


def _check(make, document) -> None:
    first = make()
    pristine = document(first)
    made, refused = edit_everything(first)
    assert made + refused, "nothing to edit: the walk found no part of the result"
    assert document(make()) == pristine, "an edit to a returned result reached the next result"


@pytest.mark.parametrize("body", [ACROSS, TWO_IN_PILE, FROZEN_PILE, MELD], ids=["across", "two", "frozen", "meld"])
def test_a_ruling_edited_by_its_caller_leaves_the_next_ruling_as_it_was(body):
    _check(lambda: _ruled(body), _ruling_said)


def test_a_message_of_a_returned_ruling_refuses_an_edit():
    """The issue's own edit: ``message.args`` inside a ruling decided across readings (each reading in words)."""
    ruling = _ruled(ACROSS)
    assert ruling.readings, "the table is ruled under each reading of wild.twos"
    for finding in ruling.findings:
        with pytest.raises(TypeError):
            finding.message.args["edited"] = True
    for reading in ruling.readings:
        for message in reading.messages:
            with pytest.raises(TypeError):
                message.args.clear()


def test_an_interpretation_edited_by_its_caller_leaves_the_variant_as_it_was():
    """An interpretation's value is the variant's own value: a list or a mapping in it refuses an edit."""
    ruling = _ruled(FROZEN_PILE)
    values = [i.value for i in ruling.interpretations if isinstance(i.value, (list, dict))]
    for rules in VARIANTS.values():
        values += [e.value for e in rules.params.values() if isinstance(e.value, (list, dict))]
    assert values
    for value in values:
        with pytest.raises(TypeError):
            value.append(1) if isinstance(value, list) else value.update(x=1)


@pytest.mark.parametrize("body", [ROUND, GAME], ids=["round", "game"])
def test_a_score_sheet_edited_by_its_caller_leaves_the_next_as_it_was(body):
    def make():
        return score(score_request(copy.deepcopy(body), VARIANTS), VARIANTS)
    _check(make, lambda sheet: said(lambda lang: serialize.score(sheet, lang)))


def test_options_edited_by_their_caller_leave_the_next_listing_as_it_was():
    def make():
        request = options_request(copy.deepcopy(OPTIONS), VARIANTS)
        return legal_moves(request.situation, request.rules)
    _check(make, lambda listed: said(lambda lang: serialize.options(listed, lang)))


@pytest.mark.parametrize("body", [{k: v for k, v in ACROSS.items() if k != "variant"},
                                  {"teams": ROUND["teams"], "players": 4}], ids=["ruling", "score"])
def test_a_comparison_edited_by_its_caller_leaves_the_next_as_it_was(body):
    def make():
        return compare(compare_request(copy.deepcopy(body), VARIANTS), VARIANTS)
    _check(make, lambda compared: said(lambda lang: serialize.comparison(compared, lang)))
