"""One use-case layer answers for every edge: the service's views, the batch items, the phone's worker and the
command line all call :func:`adjudicator.answers.answer`, and the phone's module holds no glue of its own.

The answer is the service's document exactly (a 200's JSON, or the problem without what only HTTP knows), so
an edge cannot drift from another; these tests hold each edge to it over the same bodies.
"""

from __future__ import annotations

import ast
import copy
import json
import sys
from pathlib import Path

import pytest

from adjudicator.answers import KINDS, answer, answer_json, batch_item, decode, to_json, use_cases
from adjudicator.variants import load_all
from selfplay import play
from test_http_scoring import GAME, ROUND

ROOT = Path(__file__).resolve().parent.parent
PHONE = ROOT / "phone_engine" / "referee_local.py"
VARIANTS = load_all()
FROZEN_PILE = {
    "variant": "no-pagat",
    "situation": {"discard_pile": ["3H", "7C", "JK", "9D"], "turn": {"drew": None},
                  "team": {"score": 1600, "melds": [["KH", "KS", "KD"]], "red_threes": 1},
                  "player": {"hand": ["9H", "JK", "5C"]}},
    "action": {"type": "take_pile", "with": ["9H", "JK"]},
}
MELD = {"variant": "sv-classic", "situation": {"players": 4, "turn": {"drew": "stock"}, "stock_count": 40,
                                               "discard_pile": ["4C"], "team": {"score": 0, "melds": [["KH", "KS", "KD"]]},
                                               "player": {"hand": ["9H", "9S", "9D", "5C", "6D"]}},
        "action": {"type": "meld", "melds": [["9H", "9S", "9D"]]}}
OPTIONS = {k: v for k, v in MELD.items() if k != "action"}
COMPARE = {"situation": FROZEN_PILE["situation"], "action": FROZEN_PILE["action"]}
LOG = play(VARIANTS, "no-pagat", 3)

# (path the service and the phone answer at, kind, body, query the service reads for the same options, options)
CASES = [
    ("/v1/adjudicate", "adjudicate", FROZEN_PILE, {}, {}),
    ("/v1/adjudicate", "adjudicate", MELD, {"words": "none"}, {"words": False}),
    ("/v1/adjudicate", "adjudicate", {**MELD, "variant": "nope"}, {}, {}),
    ("/v1/adjudicate", "adjudicate", {**MELD, "action": {"type": "meld", "melds": [["9H", "XX"]]}}, {}, {}),
    ("/v1/score", "score", ROUND, {}, {}),
    ("/v1/score", "score", GAME, {}, {}),
    ("/v1/options", "options", OPTIONS, {"limit": "2", "offset": "1", "group": "meld"},
     {"limit": 2, "offset": 1, "group": "meld"}),
    ("/v1/options", "options", OPTIONS, {}, {}),
    ("/v1/options", "options", {**OPTIONS, "situation": {**OPTIONS["situation"], "team": {"score": 0, "melds": []},
                                                         "player": {"hand": ["4H", "4S", "5D", "5C", "6H", "JK", "2C"]}}},
     {"limit": "1000"}, {"limit": 1000}),
    ("/v1/compare", "compare", COMPARE, {"citations": "refs"}, {"citations": "refs"}),
    ("/v1/compare", "compare", {"teams": ROUND["teams"], "players": 4}, {}, {}),
    ("/v1/replay", "replay", LOG, {}, {}),
    ("/v1/adjudicate/batch", "batch", {"requests": [FROZEN_PILE, MELD, {"variant": "nope"}]}, {}, {}),
    ("/v1/score/batch", "score_batch", {"requests": [ROUND, {**ROUND, "teams": []}]}, {}, {}),
]
IDS = [f"{kind}-{i}" for i, (_path, kind, *_rest) in enumerate(CASES)]


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize("path,kind,body,query,options", CASES, ids=IDS)
def test_the_service_answers_what_the_use_case_answers(client, path, kind, body, query, options, lang):
    """Over HTTP the document is the library's, with only ``instance`` and ``request_id`` added to a problem."""
    said = answer(kind, copy.deepcopy(body), lang, variants=VARIANTS, **options)
    response = client.post(path, json=body, query_string={**query, "lang": lang})
    got = response.get_json()
    if said.status == 200 and kind in ("batch", "score_batch"):
        assert response.status_code == 200
    else:
        assert response.status_code == said.status
    if said.status != 200:
        assert response.mimetype == "application/problem+json"
        assert got.pop("instance") == path and got.pop("request_id")
    assert got == json.loads(to_json(said.document))


@pytest.mark.parametrize("path,kind,body,query,options", CASES, ids=IDS)
def test_a_document_is_plain_json_as_the_service_writes_it(path, kind, body, query, options):
    """What the command line and the phone write with the standard library is what orjson writes: no value in a
    document needs orjson's own conversions (a dataclass, an enum)."""
    orjson = pytest.importorskip("orjson")
    document = answer(kind, copy.deepcopy(body), "nb", variants=VARIANTS, **options).document
    assert json.loads(to_json(document)) == json.loads(orjson.dumps(document))
    assert to_json(document).encode("utf-8") == orjson.dumps(document)


@pytest.mark.parametrize("path,kind,body,query,options", CASES, ids=IDS)
def test_the_phone_answers_what_the_use_case_answers(path, kind, body, query, options):
    sys.path.insert(0, str(PHONE.parent))
    try:
        import referee_local
    finally:
        sys.path.remove(str(PHONE.parent))
    said = answer(kind, copy.deepcopy(body), "da", variants=VARIANTS)  # the service's defaults, a page of 20 options
    phone = json.loads(referee_local.answer(path, json.dumps(body), "da"))
    assert phone == {"status": said.status, "body": json.loads(to_json(said.document))}


def test_every_edge_calls_the_one_use_case(client, monkeypatch, capsys, tmp_path):
    """The view, a batch item, the phone's worker and the command line each reach the same function."""
    from adjudicator import cli
    sys.path.insert(0, str(PHONE.parent))
    try:
        import referee_local
    finally:
        sys.path.remove(str(PHONE.parent))
    calls = []
    real = use_cases._MADE["adjudicate"]

    def recorded(body, lang, asked):
        calls.append(body["variant"])
        return real(body, lang, asked)

    monkeypatch.setitem(use_cases._MADE, "adjudicate", recorded)
    assert client.post("/v1/adjudicate", json={**FROZEN_PILE, "variant": "no-pagat"}).status_code == 200
    client.post("/v1/adjudicate/batch", json={"requests": [{**MELD, "variant": "sv-gamerules"}]}).get_data()
    referee_local.answer("/v1/adjudicate", json.dumps({**MELD, "variant": "da-ludo"}), "en")
    written = tmp_path / "ruling.json"
    written.write_text(json.dumps({**MELD, "variant": "sv-classic"}), encoding="utf-8")
    cli.main(["rule", str(written)])
    capsys.readouterr()
    assert calls == ["no-pagat", "sv-gamerules", "da-ludo", "sv-classic"]


def test_the_phone_module_parses_and_serializes_nothing_itself():
    """Its only imports are the use-case layer (and the variants it loads once); it builds no document."""
    tree = ast.parse(PHONE.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported |= {f"{node.module}.{a.name}" for a in node.names}
    assert imported == {"__future__.annotations", "adjudicator.answers.use_cases.answer_json",
                        "adjudicator.answers.use_cases.to_json", "adjudicator.variants.load_all"}, imported
    answer_fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "answer")
    called = {n.func.id for n in ast.walk(answer_fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert called == {"answer_json", "to_json"}, called


def test_a_problem_has_no_instance_and_its_type_is_a_uri():
    said = answer("adjudicate", {**FROZEN_PILE, "variant": "nope"}, "nb", variants=VARIANTS)
    assert said.status == 404
    doc = said.document
    assert doc["type"] == "https://canasta-referee.example/problems/unknown-variant"
    assert "instance" not in doc and "request_id" not in doc
    assert doc["known"] == list(VARIANTS) and doc["errors"][0]["pointer"] == "/variant"


def test_a_batch_item_leaves_out_known():
    item = batch_item("adjudicate", {**FROZEN_PILE, "variant": "nope"}, "en", VARIANTS)
    assert item["problem"]["status"] == 404 and "known" not in item["problem"]
    assert batch_item("score", ROUND, "en", VARIANTS)["score"]["teams"][0]["name"] == "Vi"


def test_a_body_that_is_not_an_object_is_a_400():
    for body, kind in (([], "array"), ("x", "string"), (None, "null"), (3, "number"), (True, "boolean")):
        said = answer("score", body, "en")
        assert said.status == 400 and said.document["type"].endswith("/body-not-an-object")
        assert kind.replace("null", "empty") in said.document["detail"]


def test_an_unknown_kind_is_a_programming_error_and_an_unknown_path_a_404():
    with pytest.raises(ValueError, match="no such kind"):
        answer("adjudicat", FROZEN_PILE)
    said = answer_json("/v1/nope", "{}", "en")
    assert said.status == 404 and said.document["detail"] == "There is nothing at /v1/nope."


def test_a_language_the_words_do_not_speak_is_english():
    assert answer("adjudicate", FROZEN_PILE, "xx").document == answer("adjudicate", FROZEN_PILE, "en").document


def test_every_kind_is_answered():
    answered = {kind for _path, kind, *_ in CASES}
    assert answered == set(KINDS)


@pytest.mark.parametrize("text,pointer", [
    ('{"a": 1, "a": 2}', "/a"),
    ('{"x": [{"b": 1}, {"b": 1, "c": 2, "b": 3}]}', "/x/1/b"),
    ('{"a/b": {"~": 1, "~": 2}}', "/a~1b/~0"),
])
def test_json_text_that_names_a_member_twice_is_malformed_with_its_pointer(text, pointer):
    said = answer_json("adjudicate", text, "en")
    assert said.status == 400 and said.document["type"].endswith("/malformed-json")
    assert said.document["errors"][0]["pointer"] == pointer


@pytest.mark.parametrize("text", ["", "  ", "{", '{"a": NaN}', '{"a": Infinity}', b"\xff{}", "[" * 100_000])
def test_text_that_is_not_json_is_malformed(text):
    said = answer_json("adjudicate", text, "en")
    assert said.status == 400 and said.document["type"].endswith("/malformed-json")


def test_decode_reads_what_the_service_reads():
    assert decode('{"a": [1, {"b": "ø"}]}') == {"a": [1, {"b": "ø"}]}
    assert decode(b'{"a": 1}') == {"a": 1}
