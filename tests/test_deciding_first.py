"""Issue #42: the deciding reason first, for every verdict. A legal ruling leads with the rule that was in doubt
(da-ludo at 6,200 with seven kings: the canasta an opening needs from 6,000, not "it is a meld of kings"), and a
house rule that settled it is said as such; the reasons of every ruling start with those its verdict rests on.
Also the words of the take with a natural card and a wild card, in each language ("med en sjua och en joker")."""

from __future__ import annotations

import pytest

from adjudicator import load_all, rule
from adjudicator.answers import answer
from adjudicator.input.parse import ruling_request

VARIANTS = load_all()
KINGS = ["KC", "KD", "KH", "KS", "KC", "KD", "KH"]
OPENING = {"variant": "da-ludo", "action": {"type": "meld", "melds": [KINGS]},
           "situation": {"players": 4, "first_round": False, "stock_count": 30, "discard_pile": ["9D"],
                         "team": {"score": 6200, "melds": []}, "player": {"hand": KINGS + ["5C"]},
                         "turn": {"drew": "stock"}}}
TWOS = {"variant": "da-ludo", "action": {"type": "meld", "add": [{"to": "K", "cards": ["2C"]}]},
        "situation": {"players": 4, "first_round": False, "stock_count": 30, "discard_pile": ["9D"],
                      "team": {"score": 1000, "melds": [["KC", "KD", "KH"]]}, "player": {"hand": ["2C", "5C", "6D"]},
                      "turn": {"drew": "stock"}}, "house_rules": {"wild.twos": True}}


def ruled(body: dict, lang: str = "en") -> dict:
    out = answer("adjudicate", body, lang)
    assert out.status == 200, out.document
    return out.document


def test_the_library_says_which_passed_check_a_legal_ruling_rests_on():
    request = ruling_request(OPENING, VARIANTS)
    ruling = rule(request.situation, request.action, request.rules)
    assert ruling.verdict == "legal"
    assert ruling.lead().rule == "opening.canasta_required"
    assert [f.rule for f in ruling.deciding()] == ["opening.canasta_required"]


@pytest.mark.parametrize("lang, words", [("en", "must open with a canasta"), ("sv", "canasta"),
                                         ("nb", "canasta"), ("da", "canasta")])
def test_a_legal_opening_at_6200_leads_with_the_canasta_it_needs(lang, words):
    out = ruled(OPENING, lang)
    assert out["verdict"] == "legal"
    assert out["reasons"][0]["rule"] == "opening.canasta_required"
    first, rest = out["summary"].split(": ", 1)
    assert words in rest.split(". ", 1)[1], out["summary"]  # the sentence after "you may lay down these melds."
    assert out["reasons"][0]["explanation"] in out["summary"]


@pytest.mark.parametrize("lang, said", [("en", "Your house rule settles it"), ("sv", "Er husregel avgör det"),
                                        ("nb", "Husregelen deres avgjør det"), ("da", "Jeres husregel afgør det")])
def test_a_house_rule_that_settled_the_twos_is_said_as_such(lang, said):
    out = ruled(TWOS, lang)
    assert out["verdict"] == "legal"
    assert out["reasons"][0]["rule"] == "meld.same_rank"
    assert said in out["summary"]
    without = ruled({k: v for k, v in TWOS.items() if k != "house_rules"}, lang)
    assert without["verdict"] == "undetermined" and said not in without["summary"]


def test_an_undetermined_ruling_leads_with_its_open_point_and_never_says_not_assessed():
    out = ruled({k: v for k, v in TWOS.items() if k != "house_rules"})
    assert out["reasons"][0]["rule"] == "meld.same_rank" and out["reasons"][0]["passed"] is None
    for lang in ("en", "sv", "nb", "da"):
        said = str(ruled({k: v for k, v in TWOS.items() if k != "house_rules"}, lang)).lower()
        assert not any(w in said for w in ("not assessed", "inte bedömd", "ikke vurdert", "ikke vurderet"))


def test_an_illegal_ruling_leads_with_what_fails():
    body = dict(OPENING, situation=dict(OPENING["situation"], player={"hand": ["KC", "KD", "KH", "5C"]}),
                action={"type": "meld", "melds": [["KC", "KD", "KH"]]})
    out = ruled(body)
    assert out["verdict"] == "illegal" and out["reasons"][0]["passed"] is False


@pytest.mark.parametrize("lang, said", [("en", "with a seven and a joker"), ("sv", "med en sjua och en joker"),
                                        ("nb", "med en sjuer og en joker"), ("da", "med en 7'er og en joker")])
def test_the_take_with_a_natural_card_and_a_wild_card_names_both(lang, said):
    table = {"players": 4, "first_round": False, "stock_count": 30, "discard_pile": ["7H"],
             "team": {"score": 0, "opened": True}, "player": {"hand": ["7C", "KS", "KH", "KD", "5C", "9C", "JK"]},
             "turn": {"drew": None}}
    out = answer("options", {"variant": "sv-classic", "situation": table}, lang).document
    takes = [o["description"] for g in out["groups"] for o in g["options"]
             if o["message"]["key"] == "options.take_pile.natural_and_wild"]
    assert takes and all(said in t for t in takes), takes


def test_norwegian_says_jokerkort_and_one_word_for_the_discard_pile():
    """docs/glossary/nb.md: "jokerkort" (the text's own "jokerskort" only in its quotes), "kastebunken" (never the
    short "bunken", which the service keeps for a batch of requests)."""
    import re
    from pathlib import Path
    po = Path(__file__).parent.parent / "adjudicator/words/locale/nb/LC_MESSAGES/messages.po"
    said = [line for line in po.read_text(encoding="utf-8").splitlines() if line.startswith("msgstr")]
    assert not [line for line in said if "jokerskort" in line]
    assert not [line for line in said if re.search(r"(?<![a-zæøå])[Bb]unken(?![a-zæøå])", line)
                and "forespørs" not in line]


# --- the text's own word beside its quotes: sv-classic's "slängstapeln" -------------------------------------------

FROZEN_TAKE = {"variant": "sv-classic", "action": {"type": "take_pile", "with": ["9C", "9H"]},
               "situation": {"players": 4, "first_round": False, "stock_count": 30, "discard_pile": ["9D", "3C"],
                             "team": {"score": 1000, "melds": [["KC", "KD", "KH"]]},
                             "player": {"hand": ["9C", "9H", "5C"]}, "turn": {"drew": None}}}


@pytest.mark.parametrize("lang, note", [("en", "The text calls the pile “slängstapeln”."),
                                        ("sv", "Texten kallar kasthögen ”slängstapeln”."),
                                        ("nb", "Teksten kaller kastebunken «slängstapeln»."),
                                        ("da", "Teksten kalder bunken »slängstapeln«.")])
def test_a_ruling_quoting_slangstapeln_says_it_is_the_pile(client, lang, note):
    resp = client.post(f"/v1/adjudicate?lang={lang}", json=FROZEN_TAKE)
    assert resp.status_code == 200
    ruling = resp.get_json()
    assert ruling["own_words"] == [{"word": "pile", "text_word": "slängstapeln", "note": note}]
    quotes = [c["quote"] for r in ruling["reasons"] for c in r["citations"]]
    assert any("slängstapeln" in q for q in quotes)


def test_own_words_only_where_the_quotes_hold_them():
    other = dict(FROZEN_TAKE, variant="no-pagat")
    assert "own_words" not in ruled(other)
    draw = dict(FROZEN_TAKE, action={"type": "draw"})
    said = ruled(draw)
    assert ("own_words" in said) == any("slängstapeln" in c["quote"] for r in said["reasons"] for c in r["citations"])
    bare = answer("adjudicate", FROZEN_TAKE, "en", words=False).document
    assert bare["own_words"] == [{"word": "pile", "text_word": "slängstapeln"}]


def test_every_own_word_is_in_its_text_and_names_a_word_of_the_service():
    from adjudicator.variants import VariantError, _own_words
    from adjudicator.words.catalogue import WORDS
    for variant in VARIANTS.values():
        for code, own in variant.own_words:
            assert code in WORDS and own.lower() in variant.text.lower()
    assert dict(VARIANTS["sv-classic"].own_words) == {"pile": "slängstapeln"}
    with pytest.raises(VariantError):
        _own_words("x", "En text om kasthögen.", {"pile": "slängstapeln"})
