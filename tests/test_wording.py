"""Words a native speaker would write: classes of machine-made wording, caught over every matrix ruling.

Each row of the rule matrix is ruled under every variant and worded in all four languages (summary,
explanations, consequences, open points); the classes below must not occur anywhere in them.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from adjudicator.model import errors as engine_errors
from adjudicator.words.catalogue import ENGLISH
from adjudicator.input.payloads import adjudicate
from adjudicator.model.messages import Cards, Rank, msg
from adjudicator.words.render import render, text
from adjudicator.variants import load_all
from ruling_table import HOUSE_RULES, ROWS
from adjudicator.answers import serialize

LANGS = ("en", "sv", "nb", "da")
NORDIC = ("sv", "nb", "da")
VARIANTS = load_all()
ROOT = Path(__file__).resolve().parent.parent
# a sentence that starts where the last one did not end: "... you show 1 This holds either way"
RUN_ON = re.compile(r"[a-zåäöæø0-9♠♥♦♣] (?:This|Whichever|Not|Det|Dette|Hur|Uansett|Uanset|Inte|Ikke|Du|You)\b")
# the same condition twice in a row: "if twos are wild: if twos are wild: ..."
REPEATED = re.compile(r"\b((?:if|om|hvis) [^:;]{5,}): \1\b")
CARD_CODE = re.compile(r"(?<![\w/])(?:10|[2-9AJQK])[SHDC](?!\w)|\bJK\b")
# a capitalised card name inside a Nordic sentence ("plus Joker")
CAPITAL_JOKER = re.compile(r"[a-zåäöæø,] Joker\b")


@lru_cache(maxsize=None)
def corpus() -> tuple[tuple[str, str, str], ...]:
    """(language, row name, text) for every sentence of every matrix ruling in every language."""
    out = []
    for name, situation, action, _, _ in ROWS:
        for vid in VARIANTS:
            payload = {"variant": vid, "situation": situation, "action": action,
                       "house_rules": HOUSE_RULES.get(name)}
            try:
                ruling = adjudicate(payload, VARIANTS)
            except engine_errors.AdjudicatorError:
                continue
            for lang in LANGS:
                said = serialize.ruling(ruling, lang)
                texts = [said["summary"], *(r["explanation"] for r in said["reasons"]), *said["consequences"]]
                for point in said.get("open_points", ()):
                    texts += [point["question"], *(c["label"] for c in point["choices"])]
                out += [(lang, name, t) for t in texts]
    return tuple(out)


def _hits(pattern: re.Pattern, langs=LANGS) -> list:
    return sorted({(lang, name, t) for lang, name, t in corpus() if lang in langs and pattern.search(t)})[:5]


def test_the_corpus_covers_every_language():
    assert {lang for lang, _, _ in corpus()} == set(LANGS) and len(corpus()) > 2000


def test_no_sentence_runs_on_from_one_that_did_not_end():
    assert not _hits(RUN_ON)


def test_no_condition_is_said_twice_in_a_row():
    assert not _hits(REPEATED)


def test_no_card_code_in_the_words():
    assert not _hits(CARD_CODE)


def test_no_capitalised_card_name_inside_a_nordic_sentence():
    assert not _hits(CAPITAL_JOKER, NORDIC)


@pytest.mark.parametrize("lang", LANGS)
def test_a_rank_is_named_where_a_rank_is_meant(lang):
    """Black threes mixed with queens: "med damer", not "med Q♥"."""
    said = render(msg("black_three.mixed", subject=msg("subject.meld", index=1, cards=Cards(("3C", "3S", "QH"))),
                      card=None, rank=Rank("Q")), lang)
    tail = said.split(")", 1)[1]
    assert text("rank.Q.pl", lang) in tail and "♥" not in tail


COUNTED = {  # messages whose small counts are running text: said in words
    "meld.min_cards": {"count": 2, "least": 3}, "meld.min_naturals": {"count": 1, "least": 2},
    "meld.max_wilds": {"count": 4, "cap": 3}, "go_out.canastas": {"count": 0, "need": 1},
    "consequence.take_rest": {"count": 3}, "pile.frozen_pair_short": {"count": 1, "shown": 1},
    "pile.frozen_pair_short_wild": {"count": 0, "shown": 0}, "error.too_many_jokers": {"limit": 4, "count": 4},
    "error.too_many_copies": {"limit": 2, "count": 2}, "replay.replacement_count": {"count": 2},
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", sorted(COUNTED))
def test_small_counts_are_words_not_digits(lang, key):
    args = {"subject": msg("subject.meld", index=1, cards=Cards(("9H",))), "why": msg("frozen.joker"),
            "rank": Rank("9"), "wilds": Cards(("JK",)), "variant": "X", "card": None, **COUNTED[key]}
    said = render(msg(key, **args), lang)
    said = said.split(")", 1)[-1] if said.startswith(text("subject.meld", lang)[:4]) else said
    # a digit that is a count, not a card (9♥) or a Danish rank written as its text writes it (9'ere)
    assert not re.search(r"(?<![♠♥♦♣\w])[0-9]\b(?![♠♥♦♣'])", said), said


NOT_ASSESSED = re.compile(r"\bprøvd\b|\bprøvet\b|\bprövat\b", re.I)


@pytest.mark.parametrize("lang", NORDIC)
def test_not_checked_is_not_assessed(lang):
    """"ikke prøvd" (not tried) is not what a referee says of a check it did not weigh."""
    po = (ROOT / "adjudicator" / "words" / "locale" / lang / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    page = (ROOT / "web" / "i18n" / f"{lang}.js").read_text(encoding="utf-8")
    strings = [line for line in po.splitlines() if line.startswith("msgstr")]
    assert not [s for s in strings if NOT_ASSESSED.search(s)]
    assert not NOT_ASSESSED.search(page)


def test_danish_top_card_has_its_article():
    """"Vælg det øverste kort", never "Vælg øverste kort"."""
    po = (ROOT / "adjudicator" / "words" / "locale" / "da" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    page = (ROOT / "web" / "i18n" / "da.js").read_text(encoding="utf-8")
    bare = re.compile(r"(?<!det )(?<!bunkens )(?<!Det )(?<!intet )\bøverste kort")
    assert not [line for line in po.splitlines() if line.startswith("msgstr") and bare.search(line)]
    assert not bare.search(page)


@pytest.mark.parametrize("lang", NORDIC)
def test_no_colloquial_or_calqued_openers(lang):
    """"Det her afhænger af" and "Ert bord avgör" are not what a rule book says."""
    for key in ("reading.depends", "reading.whichever", "open_point.question", "check.missing"):
        said = text(key, lang)
        assert not re.search(r"\bDet her\b|\bErt bord\b|\bBordet deres\b|\bJeres bord\b", said), (key, said)


def test_a_figure_read_two_ways_is_said_as_a_person_would():
    """da-ludo's opening below zero: "if the first meld below zero needs 50", not "if the rules give 50 for"."""
    labels = [t for lang, name, t in corpus() if name == "open below zero with three aces" and lang == "sv"]
    assert any("första utläggningen vid minuspoäng kräver" in t for t in labels), labels
    assert not any("reglerna anger" in t for t in labels)


def test_every_english_template_ends_its_sentences():
    """Templates that are whole sentences end with a full stop, so that joined sentences never run on."""
    for key in ("reading.whichever", "reading.depends"):
        assert ENGLISH[key].endswith(".")


@pytest.mark.parametrize("lang,queen,jack", [("en", "Q♥", "J♣"), ("sv", "D♥", "Kn♣"), ("nb", "D♥", "Kn♣"),
                                             ("da", "D♥", "B♣")])
def test_court_cards_carry_the_letters_of_the_language(lang, queen, jack):
    assert render(msg("subject.meld", index=1, cards=Cards(("QH", "JC", "KS"))), lang).endswith(
        f"({queen} {jack} K♠)")


def test_a_comparison_says_the_deciding_difference_first():
    """"Why they differ" opens with a rule whose own parameters differ, never with one that is the same
    everywhere ("These rules are the same in every variant ...")."""
    from adjudicator.compare.comparison import compare
    from adjudicator.input.parse import compare_request

    seen = 0
    for name, situation, action, _, _ in ROWS:
        try:
            asked = compare_request({"situation": situation, "action": action,
                                     "house_rules": HOUSE_RULES.get(name)}, VARIANTS)
            differences = compare(asked, VARIANTS).differences
        except engine_errors.AdjudicatorError:  # a table no variant can rule on
            continue
        flags = [bool(d.differing) for d in differences]
        assert flags == sorted(flags, reverse=True), (name, [d.rule for d in differences])
        seen += any(flags) and not all(flags)
    assert seen, "some comparison mixes differing and same-everywhere rules"
