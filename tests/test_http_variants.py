"""HTTP tests for the variant endpoints, the service endpoints and the shared error machinery."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import yaml
from flask import Blueprint, jsonify
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from marshmallow import Schema, ValidationError, fields

from adjudicator.model.errors import RuleNotStated, UnknownVariant, issue
from engine_json import accepts
from adjudicator.model.parameters import PARAMETERS
from adjudicator.variants import STATUSES, VariantError, load_all
from web_api import create_app
from adjudicator.model.errors import MalformedRequest
from adjudicator.words.render import render, words
from adjudicator.input.shape import issues_of
from adjudicator.input.shape_fields import StrictBoolean, StrictInteger, StrictString
from web_api.problems import json_body
from problems import PROBLEM, PROBLEM_BASE, assert_problem, pointers  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent

# The seed documents each variant is built from (shared/seeds/README.md).
SEED_FILES = {
    "sv-classic": "000_1f52410dae51c12f.txt",
    "no-pagat": "001_2fc192ac4da65819.txt",
    "da-ludo": "002_93829238aa3b1211.txt",
    "sv-gamerules": "003_3539fbbd078257f2.txt",
}
SUMMARY_KEYS = {"id", "name", "short_name", "language", "source_file", "description", "players_supported", "target_score"}

VARIANTS = load_all()
VARIANT_IDS = list(VARIANTS)




# ----------------------------------------------------------------------------------------------
# Start-up


def test_create_app_fails_loudly_without_variants(tmp_path):
    with pytest.raises(VariantError):
        create_app({"TESTING": True, "VARIANTS_DIR": str(tmp_path)})


def test_create_app_fails_loudly_on_a_wrong_citation(tmp_path):
    variant = VARIANTS[VARIANT_IDS[0]]
    src_dir = ROOT / "variants"
    data = yaml.safe_load((src_dir / f"{variant.id}.yaml").read_text(encoding="utf-8"))
    (tmp_path / "sources").mkdir()
    (tmp_path / data["source"]).write_text(variant.text, encoding="utf-8")
    cite = next(e["cite"][0] for e in data["parameters"].values() if e.get("cite"))
    cite["start"] += 1
    (tmp_path / "broken.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    with pytest.raises(VariantError, match="does not match the source"):
        create_app({"TESTING": True, "VARIANTS_DIR": str(tmp_path)})


# ----------------------------------------------------------------------------------------------
# Service endpoints


def test_healthz_counts_loaded_variants(client):
    resp = client.get("/healthz")
    assert resp.status_code == 200
    assert resp.get_json() == {"status": "ok", "variants": len(VARIANTS)}


def test_openapi_is_served_verbatim(client):
    resp = client.get("/openapi.yaml")
    assert resp.status_code == 200
    assert resp.mimetype == "application/yaml"
    assert resp.data == (ROOT / "openapi.yaml").read_bytes()
    spec = yaml.safe_load(resp.data)
    assert spec["openapi"].startswith("3.1")
    for path in ("/healthz", "/openapi.yaml", "/v1/variants", "/v1/variants/{variant_id}",
                 "/v1/variants/{variant_id}/source"):
        assert "get" in spec["paths"][path]


# ----------------------------------------------------------------------------------------------
# /v1/variants


def test_list_has_every_loaded_variant(client):
    resp = client.get("/v1/variants")
    assert resp.status_code == 200
    assert resp.mimetype == "application/json"
    listed = resp.get_json()["variants"]
    assert [v["id"] for v in listed] == VARIANT_IDS
    for item in listed:
        assert set(item) == SUMMARY_KEYS | {"rules_version"}  # the listing names each variant's rules version (links)
        variant = VARIANTS[item["id"]]
        assert item["name"] == variant.ref.name("en")
        assert item["language"] == variant.language
        assert item["players_supported"] == variant.players_supported
        assert item["target_score"] == {str(k): v for k, v in (variant.value("game.target") or {}).items()}
        assert all(isinstance(v, int) for v in item["target_score"].values())
        if item["id"] in SEED_FILES:
            assert item["source_file"] == SEED_FILES[item["id"]]


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_detail_has_every_catalogue_parameter(client, variant_id):
    resp = client.get(f"/v1/variants/{variant_id}")
    assert resp.status_code == 200
    body = resp.get_json()
    assert SUMMARY_KEYS | {"parameters"} == set(body)
    assert body["id"] == variant_id
    params = body["parameters"]
    assert [p["name"] for p in params] == [p.name for p in PARAMETERS]
    for entry, param in zip(params, PARAMETERS):
        assert entry["status"] in STATUSES
        assert entry["type"] == param.type
        assert entry["description"] == words(f"param.{param.name}.about")
        assert entry["question"] == words(f"param.{param.name}")
        assert entry["accepts"] == accepts(param)
        assert entry["overridable"] is True
        if entry["status"] == "stated":
            assert entry["citations"], f"{param.name} is stated without a citation"
        else:
            assert entry["note"], f"{param.name} is {entry['status']} without a note"
        if entry["status"] == "not_stated":
            assert entry["value"] is None


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_every_citation_is_the_source_at_its_offsets(client, variant_id):
    source = client.get(f"/v1/variants/{variant_id}/source")
    assert source.status_code == 200
    assert source.headers["Content-Type"] == "text/plain; charset=utf-8"
    text = source.data.decode("utf-8")
    assert text == VARIANTS[variant_id].text

    detail = client.get(f"/v1/variants/{variant_id}").get_json()
    count = 0
    for entry in detail["parameters"]:
        for cite in entry["citations"]:
            assert set(cite) == {"variant", "language", "section", "quote", "start", "end"}
            assert cite["variant"] == variant_id
            assert cite["language"] == detail["language"]
            assert 0 <= cite["start"] < cite["end"] <= len(text)
            assert text[cite["start"]:cite["end"]] == cite["quote"], entry["name"]
            if cite["section"]:
                assert cite["section"] in text[:cite["start"] + len(cite["section"])].splitlines()
            count += 1
    assert count > 0


@pytest.mark.parametrize("path", ["/v1/variants/no-such-variant", "/v1/variants/no-such-variant/source",
                                  "/v1/variants/SV-CLASSIC"])
def test_unknown_variant_is_a_404_problem_listing_known_ids(client, path):
    body = assert_problem(client.get(path), 404, "unknown-variant")
    assert body["known"] == VARIANT_IDS
    assert body["instance"] == path
    for vid in VARIANT_IDS:
        assert vid in body["detail"]


# ----------------------------------------------------------------------------------------------
# Generic HTTP errors


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH"])
@pytest.mark.parametrize("path", ["/v1/variants", f"/v1/variants/{VARIANT_IDS[0]}", "/healthz", "/openapi.yaml"])
def test_wrong_method_is_405_problem_with_allow(client, method, path):
    resp = client.open(path, method=method, data=b"{}", content_type="application/json")
    body = assert_problem(resp, 405, "method-not-allowed")
    allow = {m.strip() for m in resp.headers["Allow"].split(",")}
    assert "GET" in allow and method not in allow
    assert method in body["detail"]


def test_unknown_path_is_404_problem(client):
    body = assert_problem(client.get("/no/such/thing"), 404, "not-found")
    assert body["instance"] == "/no/such/thing"


def test_head_of_unknown_path_is_404_problem_without_body(client):
    resp = client.head("/no/such/thing")
    assert resp.status_code == 404
    assert resp.mimetype == PROBLEM
    assert resp.data == b""


def test_head_of_variant_list_is_200(client):
    resp = client.head("/v1/variants")
    assert resp.status_code == 200
    assert resp.data == b""


def test_instance_is_a_uri_reference_even_for_odd_paths(client):
    body = assert_problem(client.get("/v1/variants/a b%C3%A5"), 404)
    assert body["instance"] == "/v1/variants/a%20b%C3%A5"


# ----------------------------------------------------------------------------------------------
# The helpers later POST endpoints use: json_body, strict fields, validation problems, engine errors


class ItemSchema(Schema):
    rank = StrictString(required=True)
    count = StrictInteger(required=True)


class ProbeSchema(Schema):
    n = StrictInteger(required=True)
    b = StrictBoolean()
    s = StrictString()
    items = fields.List(fields.Nested(ItemSchema))


@pytest.fixture
def probe_client():
    app = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 200_000})
    bp = Blueprint("probe", __name__, url_prefix="/_probe")

    @bp.post("/echo")
    def echo():
        return jsonify(json_body())

    @bp.post("/validate")
    def validate():
        try:
            return jsonify(ProbeSchema().load(json_body()))
        except ValidationError as error:
            raise MalformedRequest(issues_of(error.messages)) from None

    @bp.get("/boom")
    def boom():
        raise RuntimeError("secret internal detail")

    @bp.get("/not-stated")
    def not_stated():
        raise RuleNotStated([issue("/house_rules", "score.end_unjudged")], ["score.going_out"])

    @bp.get("/engine-unknown-variant")
    def engine_unknown_variant():
        raise UnknownVariant("xx", ["a", "b"])

    app.register_blueprint(bp)
    return app.test_client()


def test_json_body_accepts_an_object(probe_client):
    resp = probe_client.post("/_probe/echo", json={"a": [1, 2.5, None, "å"]})
    assert resp.status_code == 200
    assert resp.get_json() == {"a": [1, 2.5, None, "å"]}
    resp = probe_client.post("/_probe/echo", data=b'{"a": 1}', content_type="application/merge-patch+json")
    assert resp.status_code == 200


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", "application/jsonx"])
def test_json_body_415_when_not_json(probe_client, content_type):
    kwargs = {"data": b'{"a": 1}'}
    if content_type:
        kwargs["content_type"] = content_type
    resp = probe_client.post("/_probe/echo", **kwargs)
    assert_problem(resp, 415, "unsupported-media-type")
    assert resp.headers["Accept-Post"] == "application/json"


@pytest.mark.parametrize("payload", [b"", b"   ", b"{", b"{'a': 1}", b'{"a": NaN}', b'{"a": Infinity}',
                                     b"\xff\xfe{}", b'{"a": "\xc3"}', b"[" * 100_000, b"1" * 5000,
                                     b'{"a": 1} x'])
def test_json_body_400_when_not_parseable(probe_client, payload):
    resp = probe_client.post("/_probe/echo", data=payload, content_type="application/json")
    body = assert_problem(resp, 400, "malformed-json")
    assert body["errors"][0]["pointer"] == ""


@pytest.mark.parametrize("payload", [b"[]", b"[{}]", b'"x"', b"1", b"true", b"null"])
def test_json_body_400_when_not_an_object(probe_client, payload):
    resp = probe_client.post("/_probe/echo", data=payload, content_type="application/json")
    body = assert_problem(resp, 400, "body-not-an-object")
    assert body["errors"] == [{"pointer": "", "detail": body["errors"][0]["detail"]}]


def test_json_body_413_when_too_large(probe_client):
    resp = probe_client.post("/_probe/echo", data=b'{"a": "' + b"x" * 300_000 + b'"}', content_type="application/json")
    assert_problem(resp, 413)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(payload=st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
def test_json_body_never_fails_on_any_bytes(probe_client, payload):
    resp = probe_client.post("/_probe/echo", data=payload, content_type="application/json")
    assert resp.status_code in (200, 400)
    if resp.status_code == 400:
        assert resp.mimetype == PROBLEM


def test_strict_fields_accept_exact_json_types(probe_client):
    resp = probe_client.post("/_probe/validate", json={"n": 2.0, "b": False, "s": "x",
                                                       "items": [{"rank": "K", "count": 3}]})
    assert resp.status_code == 200
    data = resp.get_json()
    assert data == {"n": 2, "b": False, "s": "x", "items": [{"rank": "K", "count": 3}]}
    assert isinstance(data["n"], int)


@pytest.mark.parametrize("body,pointer", [
    ({"n": "2"}, "/n"),
    ({"n": 2.5}, "/n"),
    ({"n": True}, "/n"),
    ({"n": None}, "/n"),
    ({}, "/n"),
    ({"n": 1, "b": 1}, "/b"),
    ({"n": 1, "b": "true"}, "/b"),
    ({"n": 1, "s": 5}, "/s"),
    ({"n": 1, "s": ["x"]}, "/s"),
    ({"n": 1, "items": "x"}, "/items"),
    ({"n": 1, "items": [{"rank": "K", "count": 1}, {"rank": "Q", "count": "2"}]}, "/items/1/count"),
    ({"n": 1, "items": [{"rank": "K", "count": 1, "suit": "x"}]}, "/items/0/suit"),
    ({"n": 1, "extra": 1}, "/extra"),
])
def test_strict_fields_reject_with_a_pointer(probe_client, body, pointer):
    resp = probe_client.post("/_probe/validate", json=body)
    problem = assert_problem(resp, 422, "validation-failed")
    assert pointer in [e["pointer"] for e in problem["errors"]]


def test_issues_of_builds_escaped_pointers():
    messages = {"a/b": {"~x": ["bad"]}, "list": {0: {"_schema": ["whole item"]}, 3: ["Unknown field."]},
                "_schema": ["top"]}
    errors = [{"pointer": i.pointer, "detail": render(i.message)} for i in issues_of(messages)]
    assert {"pointer": "/a~1b/~0x", "detail": "bad"} in errors
    assert {"pointer": "/list/0", "detail": "whole item"} in errors
    assert {"pointer": "/list/3", "detail": "This field is unknown."} in errors
    assert {"pointer": "", "detail": "top"} in errors
    assert [i.message.key for i in issues_of({"x": ["Longer than maximum length 3."]})] == ["shape.too_long"]


def test_crash_is_a_generic_500_problem_and_is_logged(probe_client, caplog):
    with caplog.at_level(logging.ERROR):
        resp = probe_client.get("/_probe/boom")
    body = assert_problem(resp, 500, "internal-error")
    text = resp.get_data(as_text=True)
    assert "secret internal detail" not in text and "Traceback" not in text
    assert "errors" not in body
    assert any("secret internal detail" in (r.exc_text or "") or
               (r.exc_info and "secret internal detail" in str(r.exc_info[1])) for r in caplog.records)


def test_engine_input_errors_become_problems(probe_client):
    body = assert_problem(probe_client.get("/_probe/not-stated"), 422, "rule-not-stated")
    assert body["parameters"] == ["score.going_out"]
    assert body["errors"] == [{"pointer": "/house_rules", "detail": "the end of the game cannot be judged"}]

    body = assert_problem(probe_client.get("/_probe/engine-unknown-variant"), 404, "unknown-variant")
    assert body["known"] == ["a", "b"]
    assert body["errors"][0]["pointer"] == "/variant"
