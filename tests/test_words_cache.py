"""The words made once per message value (adjudicator.words.render) are never another message's words.

``render.said`` and ``said_and_code`` keep each message's words and machine form under a key made
from its value. Values Python holds equal but a reader is told differently (``1``, ``True`` and
``1.0``; a list and a tuple; a rank and a word of the same letters; a card and a list of that one
card) must get keys of their own, or one answer would carry the words of another.
"""

from __future__ import annotations

import pytest

from adjudicator.model.errors import AdjudicatorError
from adjudicator.model.messages import (Card, Cards, Fact, Items, Message, Param, ParamValue, Rank, VariantRef, Word, msg,
                                       said_of)
from adjudicator.words import render as word_cache
from adjudicator.words.render import render
from adjudicator.answers.phrases import register_phrases

ALIKE_TO_PYTHON = [
    1, True, 1.0, 0, False, "1", None,
    [1, 2], (1, 2),
    Rank("K"), Word("K"), "K", Card("KH"), Cards(("KH",)), Cards(("KH", "KS")),
    Param("wild.twos"), Fact("/situation/team/score"), VariantRef("sv-classic", (("", "Klassisk"),)),
    VariantRef("sv-classic", (("", "Annan"),)),
    Items((Rank("K"), Rank("Q"))), Items((Rank("K"), Rank("Q")), " / "),
    ParamValue("wild.twos", True), ParamValue("wild.twos", 1),
    msg("detail.empty_body"), msg("detail.no_media_type"),
]


@pytest.fixture(scope="module", autouse=True)
def _phrases():
    register_phrases()  # the problem texts used below join the catalogue, as create_app does


def _message(value):
    return msg("detail.query_number", name="limit", low=1, high=2, given=value)


@pytest.mark.parametrize("lang", ["en", "sv", "nb", "da"])
def test_each_value_keeps_its_own_words_and_form(lang):
    messages = [_message(v) for v in ALIKE_TO_PYTHON]
    for m in messages:  # every value is made once, so a shared key would hand out the first one's words
        word_cache.said_and_code(m, lang)
    for value, m in zip(ALIKE_TO_PYTHON, messages):
        words, form = word_cache.said_and_code(m, lang)
        assert words == render(m, lang), value
        assert form == m.code(), value
        assert word_cache.said(m, lang) == render(m, lang), value


def test_the_values_are_told_apart_where_python_holds_them_equal():
    """The test above means something only if these values are said differently."""
    said = {render(_message(v), "en") for v in (1, True, 1.0)}
    assert len(said) == 3
    assert render(_message(Rank("K")), "en") != render(_message(Word("K")), "en")
    assert render(_message([1, 2]), "en") != render(_message((1, 2)), "en")
    assert _message(Card("KH")).code() != _message(Cards(("KH",))).code()


def test_equal_values_share_one_key():
    """A message made again with equal arguments is found, not made again: the key stands for the value."""
    first = word_cache.said_and_code(_message(Items((Rank("K"), Card("KH"), Param("wild.twos")))), "en")
    again = word_cache.said_and_code(_message(Items((Rank("K"), Card("KH"), Param("wild.twos")))), "en")
    assert again[0] is first[0] and again[1] is first[1]
    assert word_cache.said_and_code(_message(Items((Rank("K"), Card("KH"), Param("wild.twos")))), "sv")[0] != first[0]


def _messages_within(value, out: list) -> list:
    """Every message in ``value`` (a message, its arguments, items and sequences, all the way down)."""
    if isinstance(value, Message):
        out.append(value)
        for arg in value.args.values():
            _messages_within(arg, out)
    elif isinstance(value, Items):
        for item in value.items:
            _messages_within(item, out)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _messages_within(item, out)
    return out


def test_what_a_message_is_said_as_is_kept_in_it_and_made_from_its_fields_alone():
    """The words' key of a message (:func:`said_of`) is kept in the message once its words are asked (a summary
    says its nested messages again and again). It is made from the key and arguments alone: for every message
    the table's rulings say in words, nested ones too, the kept key is the key of a message made afresh from
    them -- and it is what the words are found by, so two messages said alike share words and no other do."""
    from adjudicator.answers import answer  # noqa: PLC0415
    from adjudicator.input.parse import ruling_request  # noqa: PLC0415
    from adjudicator.rules.engine import rule  # noqa: PLC0415
    from adjudicator.variants import load_all  # noqa: PLC0415
    from ruling_table import payloads  # noqa: PLC0415

    variants = load_all()
    found: list = []
    for body in payloads(sorted(variants))[:120]:
        try:
            request = ruling_request(body, variants)
            ruled = rule(request.situation, request.action, request.rules)
        except AdjudicatorError:
            continue
        answer("adjudicate", body, "sv", variants=variants)  # the words asked: each message's key kept
        for m in [f.message for f in ruled.findings] + list(ruled.consequences):
            _messages_within(m, found)
    assert len(found) > 500
    for m in found:
        word_cache.said(m, "en")
        afresh = Message(m.key, dict(m.args))
        assert said_of(m) == said_of(afresh), m.key
        assert word_cache.said(afresh, "en") is word_cache.said(m, "en")
    # nothing else goes into the key: an argument said otherwise (True, 1) is another key, other words
    assert said_of(_message(True)) != said_of(_message(1)) != said_of(_message(1.0))
