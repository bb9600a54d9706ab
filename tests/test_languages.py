"""The service's words in English, Swedish, Norwegian Bokmål and Danish.

* every message key renders in every language with sample arguments: no text missing,
  the same placeholders as the English, no English left, no code in the words;
* the rule matrix gives the same machine fields in every language;
* the language is negotiated per request (``lang``, the body's ``lang``, ``Accept-Language``),
  and every answer says ``Content-Language`` and ``Vary: Accept-Language``.
"""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from adjudicator.answers.phrases import register_phrases
from adjudicator.words.catalogue import ENGLISH
from adjudicator.model.messages import Card, Cards, Fact, Items, Message, Param, ParamValue, Rank, VariantRef, Word, msg
from adjudicator.model.requirement import Requirement
from adjudicator.words.render import LANGUAGES, LOCALE_DIR, render
from adjudicator.variants import load_all
from engine_json import LANG  # noqa: F401
from ruling_table import HOUSE_RULES, ROWS
from adjudicator.answers import serialize

register_phrases()  # the web layer's texts are part of the catalogue, as in the app

VARIANTS = load_all()
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
FORMATTER = string.Formatter()

# Keys whose words are the same in every language (a name, a format, a number).
SAME_EVERYWHERE = {"card.joker", "word.joker", "quote", "band.range", "compare.why", "compare.why_parameter",
                   "compare.variant_value", "compare.explanations", "shape.other", "score.team_total",
                   "reading.says", "reading.verdict", "house_rule.value", "rank.A", "rank.A.pl", "rank.JK",
                   "rank.JK.pl", "value.for_players", "value.band_points", "compare.headline_group", "compare.outcome",
                   "compare.outcome_if", "compare.why_choice", "compare.why_condition", "reading.where"}
# Codes that must never reach a player: parameter ids, pointers, card codes, raw JSON.
PARAM_ID = re.compile(r"\b(?:" + "|".join(sorted({k.split(".", 2)[1] for k in ENGLISH if k.startswith("param.")}))
                      + r")\.[a-z0-9_]+\b")
POINTER = re.compile(r"(?<![\w.])/(?:situation|action|teams|rounds|house_rules|variant)\b")
CARD_CODE = re.compile(r"\b(?:10|[2-9AKQJ])[SHDC]\b|\bJK\b")
RAW_JSON = re.compile(r"\b(?:true|false|null)\b|[{}\[\]\"]")


def placeholders(template: str) -> set[str]:
    return {f"{name}:{spec}" if spec else name for _, name, spec, _ in FORMATTER.parse(template) if name}


SAMPLES = {
    "subject": msg("subject.meld", index=1, cards=Cards(("9H", "9S", "JK"))), "cards": Cards(("9H", "10S", "JK")),
    "card": Card("QH"), "top": Card("9D"), "wild": Card("JK"), "rank": Rank("9"), "ranks": (Rank("Q"), Rank("2")),
    "parameter": Param("wild.twos"), "parameters": Items((Param("wild.twos"),), ", "),
    "fact": Fact("/situation/team/score"), "facts": Items((Fact("/situation/turn/drew"),), ", "),
    "variant": VariantRef("da-ludo", (("", "Canasta (Ludo.dk)"),)), "why": Items((msg("frozen.joker"),)),
    "requirement": Requirement(90, False, 1600, 1500, 2995), "how": Word("together"), "source": Word("stock"),
    "what": Word("open"), "where": Word("hand"), "value": ParamValue("wild.twos", True),
    "values": Items((ParamValue("pile.frozen_by", ["joker"]),), ", "), "status": Word("interpreted"),
    "example": msg("house_rule.value", parameter=Param("wild.twos"), value=ParamValue("wild.twos", True)),
    "reading": msg("reading.if", points=Items((msg("param.wild.twos.yes"),))), "says": msg("turn.drawn"),
    "readings": Items((msg("reading.says", reading=msg("reading.if", points=Items((msg("param.wild.twos.yes"),))),
                           says=msg("turn.drawn")),)),
    "points": 120, "verdict": Word("illegal"), "summary": "…", "reasons": Items((msg("frozen.joker"),)),
    "action": msg("action.take_pile"), "explanation": msg("turn.drawn"), "quotes": Items((msg("quote", text="…"),)),
    "house_rules": Items((msg("house_rule.value", parameter=Param("wild.twos"),
                              value=ParamValue("wild.twos", True)),)),
    "team": "Vi", "name": "Vi", "other": 1, "given": 3, "names": "Vi, De", "code": "ZZ", "text": "…",
    "problem": Word("band_order"), "reason": msg("value.not_bool"), "accepts": msg("type.bool"),
    "choices": Items((Word("frozen"), Word("allowed")), ", "), "kinds": "hint", "types": "draw, meld",
    "known": "da-ludo, sv-classic", "supported": "4", "items": Items((msg("turn.drawn"),)), "band": msg(
        "band.open", low=3000), "kind": Word("hint"), "teams": Items(("Vi", "De"), " & "), "path": "/x",
    "method": "PUT", "allowed": "GET, POST", "got": "text/plain", "sizes": (3, 4), "missing": Items((Fact(
        "/situation/turn/drew"),), ", "), "not_stated": Items((Param("wild.twos"),), ", "), "total": 5000,
    "target": 5000, "players": 4, "count": 2,
}


def sample_args(key: str) -> dict:
    english = ENGLISH[key]
    template = english if isinstance(english, str) else english[1]
    args = {}
    for name in {p.split(":")[0] for p in placeholders(template)}:
        args[name] = SAMPLES.get(name, 3)
    return args


def rendered(key: str, lang: str) -> str:
    return render(Message(key, sample_args(key)), lang)


def test_every_catalogue_is_complete_with_the_same_placeholders():
    for lang in TRANSLATED:
        path = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
        with open(path, "rb") as fh:
            catalogue = read_po(fh)
        entries = {m.context: m for m in catalogue if m.id}
        assert set(entries) == set(ENGLISH), f"{lang}: keys differ from the English"
        for key, entry in entries.items():
            assert "fuzzy" not in entry.flags, (lang, key)
            english = ENGLISH[key]
            if isinstance(english, tuple):  # the singular may leave out the count ("the other card")
                assert all(entry.string), (lang, key, "a plural form is empty")
                for form in entry.string:
                    counted = {p for p in placeholders(english[1]) if p.split(":")[0] != "count"}
                    assert counted <= placeholders(form) <= placeholders(english[1]), \
                        (lang, key, form)
            else:
                assert entry.string, (lang, key, "not translated")
                assert placeholders(entry.string) == placeholders(english), (lang, key, entry.string)
                assert entry.string.count("[[") == english.count("[["), (lang, key, "an optional part is lost")


def test_the_compiled_catalogues_are_the_translations():
    """The .mo files the service reads say what the .po files say (run scripts/translations after editing)."""
    for lang in TRANSLATED:
        folder = Path(LOCALE_DIR) / lang / "LC_MESSAGES"
        def entries(catalogue) -> dict:
            return {(m.context, m.id if isinstance(m.id, str) else m.id[0]):
                    m.string if isinstance(m.string, str) else list(m.string) for m in catalogue if m.id}

        with open(folder / "messages.po", "rb") as fh:
            po = entries(read_po(fh))
        with open(folder / "messages.mo", "rb") as fh:
            mo = entries(read_mo(fh))
        assert mo == po, f"{lang}: messages.mo is stale"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_key_renders_without_codes(lang):
    for key in ENGLISH:
        said = rendered(key, lang)
        assert said.strip(), (lang, key)
        for pattern in (PARAM_ID, POINTER, CARD_CODE):
            assert not pattern.search(said), (lang, key, said)
        if key not in ("shape.other", "quote"):
            assert not RAW_JSON.search(said), (lang, key, said)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_english_is_left(lang):
    left = [key for key in ENGLISH if key not in SAME_EVERYWHERE and rendered(key, lang) == rendered(key, "en")]
    assert not left, f"{lang}: still English: {left[:20]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_rule_matrix_gives_the_same_machine_fields_in_every_language(lang):
    from adjudicator import adjudicate
    from adjudicator.model.errors import AdjudicatorError

    def machine(ruling: dict) -> dict:
        return {"verdict": ruling["verdict"], "missing": ruling["missing"], "not_stated": ruling["not_stated"],
                "reasons": [(r["rule"], r["passed"], r["parameters"], r["citations"], r["message"])
                            for r in ruling["reasons"]],
                "interpretations": [(i["parameter"], i["status"], i["value"]) for i in ruling["interpretations"]],
                "deciding": ruling["deciding"]}

    for name, situation, action, _rule, _codes in ROWS:
        for vid in VARIANTS:
            try:
                ruling = adjudicate({"variant": vid, "situation": situation, "action": action,
                                     "house_rules": HOUSE_RULES.get(name)}, VARIANTS)
            except AdjudicatorError as e:
                assert serialize.problem_members(e, lang)["errors"][0]["pointer"] == \
                    serialize.problem_members(e, "en")["errors"][0]["pointer"]
                continue
            there, here = serialize.ruling(ruling, lang), serialize.ruling(ruling, "en")
            assert machine(there) == machine(here), (name, vid)
            assert there["summary"] != here["summary"], (name, vid, "the summary is in the language")


# --- negotiation over HTTP -------------------------------------------------------------------------

FROZEN = {"variant": "no-pagat",
          "situation": {"discard_pile": ["3H", "7C", "JK", "9D"], "team": {"score": 1600, "melds": [["KH", "KS", "KD"]]},
                        "player": {"hand": ["9H", "JK", "5C"]}, "turn": {"drew": None}},
          "action": {"type": "take_pile", "with": ["9H", "JK"]}}


def summary_in(client, lang_query=None, accept=None, body_lang=None):
    path = "/v1/adjudicate" + (f"?lang={lang_query}" if lang_query else "")
    body = dict(FROZEN, **({"lang": body_lang} if body_lang else {}))
    headers = {"Accept-Language": accept} if accept else {}
    resp = client.post(path, json=body, headers=headers)
    assert resp.status_code == 200
    return resp


@pytest.mark.parametrize("query, accept, body, expected", [
    (None, None, None, "en"),
    ("sv", None, None, "sv"),
    ("nb", "da", None, "nb"),
    ("no", None, None, "nb"),
    ("nn", None, None, "nb"),
    (None, "nb-NO", None, "nb"),
    (None, "da-DK,da;q=0.9,en;q=0.8", None, "da"),
    (None, "fr-FR, sv;q=0.5, en;q=0.3", None, "sv"),
    (None, "en;q=0.2, da;q=0.9", None, "da"),
    (None, "xx, yy;q=0.5", None, "en"),
    ("klingon", "sv-SE", None, "sv"),
    (None, "da", "sv", "sv"),
    ("da", None, "sv", "da"),
])
def test_language_negotiation(client, query, accept, body, expected):
    resp = summary_in(client, query, accept, body)
    assert resp.headers["Content-Language"] == expected
    assert "Accept-Language" in resp.headers.get("Vary", "")
    english = summary_in(client, "en").get_json()
    ruling = resp.get_json()
    assert ruling["verdict"] == english["verdict"] and ruling["reasons"][1]["rule"] == english["reasons"][1]["rule"]
    if expected != "en":
        assert ruling["summary"] != english["summary"]


@pytest.mark.parametrize("path", ["/v1/variants", "/v1/rules", "/v1/matrix", "/v1/variants/sv-classic",
                                  "/v1/variants/nope"])
def test_every_answer_says_its_language(client, path):
    resp = client.get(path, headers={"Accept-Language": "sv-SE"})
    assert resp.headers["Content-Language"] == "sv"
    assert "Accept-Language" in resp.headers.get("Vary", "")


def test_problems_speak_the_language(client):
    resp = client.post("/v1/adjudicate?lang=da", json={**FROZEN, "action": {"type": "take_pile", "with": ["9S"]}})
    problem = resp.get_json()
    assert resp.status_code == 422 and resp.headers["Content-Language"] == "da"
    english = client.post("/v1/adjudicate", json={**FROZEN, "action": {"type": "take_pile", "with": ["9S"]}}).get_json()
    assert problem["errors"][0]["pointer"] == english["errors"][0]["pointer"] == "/action/with/0"
    assert problem["title"] != english["title"] and problem["errors"][0]["detail"] != english["errors"][0]["detail"]


def test_variant_names_follow_the_language(client):
    names = {v["id"]: v["name"] for v in client.get("/v1/variants?lang=sv").get_json()["variants"]}
    assert names["sv-classic"] == "Klassisk canasta (svensk guide)"
    assert {v["id"] for v in client.get("/v1/variants?lang=da").get_json()["variants"]} == set(names)


# ----------------------------------------------------------------------------------------------
# The variant files' own words: descriptions and notes, in every language


def _texts(variant) -> list[tuple[str, str, dict[str, str]]]:
    """(where, English, {language: text}) for the description and every note of a variant."""
    out = [("description", variant.description, variant.descriptions)]
    for name, entry in variant.params.items():
        if entry.note:
            out.append((name, entry.note, dict(entry.notes)))
    return out


# a quoted fragment: "…", ”…”, «…», »…« (the quote marks differ by language; the words may not)
QUOTED = re.compile(r'"([^"]{4,})"|”([^”]{4,})”|«([^»]{4,})»|»([^«]{4,})«')


def _quotes(text: str) -> set[str]:
    return {next(g for g in m.groups() if g) for m in QUOTED.finditer(text)}


@pytest.mark.parametrize("vid", list(VARIANTS))
def test_every_note_and_description_is_in_every_language(vid):
    for where, english, translations in _texts(VARIANTS[vid]):
        assert set(translations) == set(TRANSLATED), f"{vid} {where}: translated into {sorted(translations)}"
        for lang, text in translations.items():
            assert text != english, f"{vid} {where} [{lang}] is the English"


@pytest.mark.parametrize("vid", list(VARIANTS))
def test_a_translated_note_quotes_the_document_word_for_word(vid):
    """The words a note quotes from the rule text stay the text's own, in every language."""
    variant = VARIANTS[vid]
    for where, english, translations in _texts(variant):
        from_source = {q for q in _quotes(english) if q in variant.text}
        for lang, text in translations.items():
            lost = {q for q in from_source if q not in text}
            assert not lost, f"{vid} {where} [{lang}] changes the document's words {sorted(lost)}"


@pytest.mark.parametrize("vid", list(VARIANTS))
def test_notes_and_descriptions_have_no_codes(vid):
    for where, english, translations in _texts(VARIANTS[vid]):
        for lang, text in {"en": english, **translations}.items():
            for pattern in (PARAM_ID, POINTER, re.compile(r"\b(?:true|false|null)\b|`")):
                found = pattern.search(text)
                assert not found, f"{vid} {where} [{lang}]: {found.group(0)!r} is a code, not words"


def test_notes_and_descriptions_follow_the_language(client):
    english = client.get("/v1/variants/da-ludo").get_json()
    danish = client.get("/v1/variants/da-ludo?lang=da").get_json()
    variant = VARIANTS["da-ludo"]
    assert english["description"] == variant.description
    assert danish["description"] == variant.descriptions["da"]
    notes = {p["name"]: p["note"] for p in danish["parameters"]}
    assert notes["wild.twos"] == dict(variant.params["wild.twos"].notes)["da"]
    row = next(r for r in client.get("/v1/matrix?lang=sv").get_json()["rows"] if r["parameter"] == "wild.twos")
    assert row["values"]["da-ludo"]["note"] == dict(variant.params["wild.twos"].notes)["sv"]
