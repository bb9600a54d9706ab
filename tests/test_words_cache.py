"""The words made once per message value (adjudicator.words.render) are never another message's words.

``render.said`` and ``said_and_code`` keep each message's words and machine form under a key made
from its value. Values Python holds equal but a reader is told differently (``1``, ``True`` and
``1.0``; a list and a tuple; a rank and a word of the same letters; a card and a list of that one
card) must get keys of their own, or one answer would carry the words of another.
"""

from __future__ import annotations

import pytest

from adjudicator.model.messages import Card, Cards, Fact, Items, Param, ParamValue, Rank, VariantRef, Word, msg
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
