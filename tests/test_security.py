"""The HTTP layer under abuse: body caps, security headers, CORS, request ids, safe YAML, no traces.

Most tests use the Flask test client on apps built by the real factory. Three go further:

* the streamed-body 413 runs the WSGI app with ``wsgi.input_terminated`` and no
  Content-Length, exactly as gunicorn hands a chunked body to it;
* ``test_gunicorn_*`` start the real server (``gunicorn -c gunicorn.conf.py app:app``) on a
  free port and read its access log;
* ``test_page_runs_under_the_served_csp`` loads the page in Debian's Chromium with the
  Content-Security-Policy the app itself sends (tests/e2e replaces it with its own).
"""

from __future__ import annotations

import ast
import http.client
import io
import json
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest
from flask import Blueprint
from werkzeug.test import EnvironBuilder, run_wsgi_app

from web_api import DEFAULT_MAX_CONTENT_LENGTH, create_app
from web_api.problems import PROBLEM_BASE
from web_api.request_id import MAX_LENGTH
from adjudicator.variants import load_all
from adjudicator.words.render import words
from adjudicator.input.shape import MAX_ROUNDS

MAX_CARDS = max(v.deck_size for v in load_all().values())  # the largest loaded deck caps every card list
from web_api.security import API_CSP, PAGE_CSP, parse_origins

ROOT = Path(__file__).resolve().parent.parent
PROBLEM = "application/problem+json"
CHROMIUM = Path("/usr/bin/chromium")
ALLOWED = "https://referee.example.org"
ALLOWED_2 = "http://localhost:5173"
HEX32 = re.compile(r"[0-9a-f]{32}")

ADJUDICATE = {"variant": "sv-classic", "situation": {"player": {"hand": ["9H", "9S"]}}, "action": {"type": "draw"}}
ROUND = {"variant": "sv-classic", "players": 4,
         "teams": [{"name": "A", "melded_points": 300, "natural_canastas": 1, "went_out": True},
                   {"name": "B", "melded_points": 100}]}


def assert_problem(resp, status: int, slug: str | None = None) -> dict:
    assert resp.status_code == status, resp.get_data(as_text=True)[:500]
    assert resp.mimetype == PROBLEM
    body = json.loads(resp.get_data(as_text=True))
    assert body["status"] == status and body["title"] and body["detail"]
    if slug is not None:
        assert body["type"] == PROBLEM_BASE + slug, body
    assert body["request_id"] == resp.headers["X-Request-ID"]
    return body


@pytest.fixture
def cors_client():
    return create_app({"TESTING": True, "CORS_ALLOWED_ORIGINS": f"{ALLOWED}, {ALLOWED_2}"}).test_client()


@pytest.fixture
def boom_app():
    """A production-like app (not TESTING) with a throwaway route that crashes."""
    app = create_app()
    bp = Blueprint("boom", __name__)

    @bp.route("/v1/_boom", methods=["GET", "POST"])
    def boom():
        raise RuntimeError("secret-internal-detail in /srv/app/web_api/thing.py line 42")

    app.register_blueprint(bp)
    return app


def post_json(client, path, body, **kwargs):
    return client.post(path, data=json.dumps(body), content_type="application/json", **kwargs)


def streamed(app, path: str, body: bytes, headers: dict | None = None):
    """POST ``body`` with no Content-Length, the way gunicorn passes a chunked request on."""
    environ = EnvironBuilder(path=path, method="POST", content_type="application/json",
                             headers=headers or {}).get_environ()
    environ.pop("CONTENT_LENGTH", None)
    environ["wsgi.input"] = io.BytesIO(body)
    environ["wsgi.input_terminated"] = True
    chunks, status, headers_out = run_wsgi_app(app, environ)
    data = b"".join(chunks)
    return int(status.split()[0]), headers_out, data


def sized_body(n: int) -> bytes:
    """A JSON object of exactly ``n`` bytes (a schema-valid round padded with spaces)."""
    base = json.dumps(ROUND).encode()
    assert len(base) <= n
    return base + b" " * (n - len(base))


# ==============================================================================================
# 1. Request bodies: byte cap, list caps, nesting


def test_default_body_cap_is_256_kib(app):
    assert DEFAULT_MAX_CONTENT_LENGTH == 256 * 1024
    assert app.config["MAX_CONTENT_LENGTH"] == 256 * 1024


def test_largest_legitimate_game_fits_under_the_default_cap(client):
    """200 rounds (the schema's cap), every card of the 108-card deck listed in every round."""
    suits = "HSDC"

    def two_decks(rank):
        return [rank + s for s in suits] * 2

    deck = [c for r in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2") for c in two_decks(r)]
    deck += ["JK"] * 4 + ["3C", "3S"] * 2  # the four red threes are counted as red_threes

    def one_round(i):
        canasta = two_decks("K")[:7]
        hand = list(deck)
        for card in canasta:
            hand.remove(card)
        out = {"name": "AB"[i % 2], "melds": [canasta], "hand": [], "red_threes": 2, "went_out": True}
        stuck = {"name": "BA"[i % 2], "hand": hand, "red_threes": 2}
        return {"teams": [out, stuck] if i % 2 == 0 else [stuck, out]}

    game = {"variant": "sv-classic", "players": 4, "rounds": [one_round(i) for i in range(MAX_ROUNDS)]}
    assert len(deck) == 104 and len(game["rounds"][0]["teams"][1]["hand"]) + 7 == 104
    body = json.dumps(game).encode()
    assert 100_000 < len(body) < DEFAULT_MAX_CONTENT_LENGTH * 0.7, len(body)
    resp = client.post("/v1/score", data=body, content_type="application/json")
    assert resp.status_code == 200, resp.get_data(as_text=True)[:500]
    assert len(resp.get_json()["rounds"]) == MAX_ROUNDS


@pytest.mark.parametrize("path", ["/v1/adjudicate", "/v1/score", "/v1/compare"])
def test_body_over_the_cap_is_a_413_problem(client, path):
    body = b'{"variant": "' + b"x" * DEFAULT_MAX_CONTENT_LENGTH + b'"}'
    resp = client.post(path, data=body, content_type="application/json", headers={"X-Request-ID": "big-1"})
    problem = assert_problem(resp, 413)
    assert problem["request_id"] == "big-1" and problem["instance"] == path
    assert f"{DEFAULT_MAX_CONTENT_LENGTH:,}" in problem["detail"]  # the number as people read it
    assert resp.headers["Cache-Control"] == "no-store"
    assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_body_cap_boundary_with_content_length():
    client = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 1000}).test_client()
    assert client.post("/v1/score", data=sized_body(1000), content_type="application/json").status_code == 200
    assert_problem(client.post("/v1/score", data=sized_body(1001), content_type="application/json"), 413)


def test_streamed_body_over_the_cap_is_413_without_content_length():
    """A chunked body has no Content-Length: werkzeug only cuts it at the cap, so the app must notice."""
    app = create_app({"TESTING": True, "MAX_CONTENT_LENGTH": 1000})
    status, headers, data = streamed(app, "/v1/score", sized_body(1000))
    assert status == 200, data[:300]
    # 1001 bytes whose first 1000 are a valid object: a silent cut would accept it
    status, headers, data = streamed(app, "/v1/score", sized_body(1001), {"X-Request-ID": "chunky"})
    assert status == 413, data[:300]
    assert headers["Content-Type"] == PROBLEM
    problem = json.loads(data)
    assert problem["type"] == PROBLEM_BASE + "request-entity-too-large"
    assert problem["request_id"] == headers["X-Request-ID"] == "chunky"
    status, _, _ = streamed(app, "/v1/adjudicate", b'{"variant": "' + b"y" * 50_000 + b'"}')
    assert status == 413


def test_body_cap_from_the_environment(monkeypatch):
    monkeypatch.setenv("CANASTA_MAX_CONTENT_LENGTH", "2048")
    app = create_app()
    assert app.config["MAX_CONTENT_LENGTH"] == 2048
    assert create_app({"MAX_CONTENT_LENGTH": 4096}).config["MAX_CONTENT_LENGTH"] == 4096  # config wins
    assert_problem(app.test_client().post("/v1/score", data=sized_body(2049), content_type="application/json"), 413)


@pytest.mark.parametrize("value", ["lots", "-1", "0", "1.5"])
def test_bad_body_cap_in_the_environment_stops_start_up(monkeypatch, value):
    monkeypatch.setenv("CANASTA_MAX_CONTENT_LENGTH", value)
    with pytest.raises(ValueError, match="CANASTA_MAX_CONTENT_LENGTH"):
        create_app()


@pytest.mark.parametrize("path,body,pointer", [
    ("/v1/adjudicate", {**ADJUDICATE, "situation": {"player": {"hand": ["9H"] * (MAX_CARDS + 1)}}},
     "/situation/player/hand"),
    ("/v1/adjudicate", {**ADJUDICATE, "situation": {"discard_pile": ["5C"] * (MAX_CARDS + 1)}}, "/situation/discard_pile"),
    ("/v1/adjudicate", {**ADJUDICATE, "action": {"type": "meld", "melds": [["5C", "5D", "5H"]] * (MAX_CARDS + 1)}},
     "/action/melds"),
    ("/v1/score", {"variant": "sv-classic", "teams": [{"name": "A", "melds": [["KH"] * (MAX_CARDS + 1)]}]},
     "/teams/0/melds/0"),
    ("/v1/score", {"variant": "sv-classic", "teams": [{"name": "A", "hand": ["4C"] * (MAX_CARDS + 1)}]},
     "/teams/0/hand"),
    ("/v1/score", {"variant": "sv-classic", "rounds": [{"teams": [{"name": "A"}]}] * (MAX_ROUNDS + 1)}, "/rounds"),
    ("/v1/compare", {"situation": {"player": {"hand": ["9H"] * (MAX_CARDS + 1)}}, "action": {"type": "draw"}},
     "/situation/player/hand"),
])
def test_over_long_list_is_422_with_a_pointer(client, path, body, pointer):
    problem = assert_problem(post_json(client, path, body), 422, "validation-failed")
    assert pointer in [e["pointer"] for e in problem["errors"]], problem["errors"]


def test_a_whole_deck_is_at_the_cap_and_one_more_card_is_over_it(client):
    deck = [r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "HSDC"] * 2
    deck += ["JK"] * 6  # da-ludo's 110 cards
    assert len(deck) == MAX_CARDS
    # in the hand: a pile holding red threes above its first card is a table that cannot happen
    body = {"variant": "da-ludo", "situation": {"player": {"hand": deck}}, "action": {"type": "draw"}}
    assert post_json(client, "/v1/adjudicate", body).status_code == 200
    body["situation"]["player"]["hand"].append("JK")
    problem = assert_problem(post_json(client, "/v1/adjudicate", body), 422, "validation-failed")
    assert problem["errors"] == [{"pointer": "/situation/player/hand", "detail": "Longer than maximum length 110."}]


def _nest(depth: int, kind: str) -> str:
    return ("[" * depth + "1" + "]" * depth) if kind == "list" else ('{"a":' * depth + "1" + "}" * depth)


@pytest.mark.parametrize("kind", ["list", "object"])
@pytest.mark.parametrize("depth", [2_000, 20_000, 40_000])
def test_deeply_nested_body_is_400_not_a_crash(client, kind, depth):
    body = _nest(depth, kind).encode()
    assert len(body) < DEFAULT_MAX_CONTENT_LENGTH
    problem = assert_problem(client.post("/v1/adjudicate", data=body, content_type="application/json"),
                             400, "malformed-json")
    assert problem["errors"][0]["pointer"] == ""


@pytest.mark.parametrize("template", [
    '{"variant":"sv-classic","situation":{},"action":{"type":"draw"},"house_rules":{"wild.twos":%s}}',
    '{"variant":"sv-classic","situation":{"player":{"hand":%s}},"action":{"type":"draw"}}',
    '{"variant":"sv-classic","situation":{"team":%s},"action":{"type":"draw"}}',
    '{"variant":"sv-classic","rounds":[{"teams":%s}]}',
    '{"situation":{},"action":{"type":"draw"},"house_rules":{"x":%s}}',
])
@pytest.mark.parametrize("kind", ["list", "object"])
def test_deep_nesting_inside_members_never_crashes(client, template, kind):
    """Every depth from shallow to past the parser's limit: a 400 or a 422, never a 500."""
    path = "/v1/compare" if template.startswith('{"situation"') else (
        "/v1/score" if '"rounds"' in template else "/v1/adjudicate")
    for depth in (10, 100, 400, 700, 850, 900, 950, 990, 1000, 1100, 3000, 30_000):
        resp = client.post(path, data=(template % _nest(depth, kind)).encode(), content_type="application/json")
        assert resp.status_code in (400, 422), (depth, resp.status_code, resp.get_data(as_text=True)[:300])
        assert_problem(resp, resp.status_code)


# ==============================================================================================
# 2. Security headers and caching


EVERY_KIND_OF_RESPONSE = [
    ("GET", "/healthz", None, 200),
    ("GET", "/openapi.yaml", None, 200),
    ("GET", "/v1/variants", None, 200),
    ("GET", "/v1/variants/sv-classic", None, 200),
    ("GET", "/v1/variants/sv-classic/source", None, 200),
    ("GET", "/v1/rules", None, 200),
    ("GET", "/v1/matrix?format=csv", None, 200),
    ("GET", "/v1/matrix?format=xml", None, 400),
    ("POST", "/v1/adjudicate", ADJUDICATE, 200),
    ("POST", "/v1/score", ROUND, 200),
    ("POST", "/v1/adjudicate", {"variant": "sv-classic"}, 422),
    ("POST", "/v1/adjudicate", "not json", 415),
    ("POST", "/v1/adjudicate", b"{", 400),
    ("GET", "/v1/variants/nope", None, 404),
    ("GET", "/nope", None, 404),
    ("DELETE", "/v1/variants", None, 405),
    ("GET", "/", None, 200),
    ("GET", "/web/app.js", None, 200),
    ("GET", "/web/style.css", None, 200),
    ("GET", "/web/icon.svg", None, 200),
    ("GET", "/web/nope.js", None, 404),
    ("HEAD", "/", None, 200),
    ("OPTIONS", "/v1/variants", None, 200),
]


def send(client, method, path, body, headers=None):
    headers = dict(headers or {})
    if isinstance(body, dict):
        return client.open(path, method=method, data=json.dumps(body), content_type="application/json", headers=headers)
    if isinstance(body, bytes):
        return client.open(path, method=method, data=body, content_type="application/json", headers=headers)
    if isinstance(body, str):
        return client.open(path, method=method, data=body, content_type="text/plain", headers=headers)
    return client.open(path, method=method, headers=headers)


def is_page(path: str) -> bool:
    return path == "/" or path.startswith("/web/")


@pytest.mark.parametrize("method,path,body,status", EVERY_KIND_OF_RESPONSE)
def test_every_response_carries_the_security_headers(client, method, path, body, status):
    resp = send(client, method, path, body)
    assert resp.status_code == status, resp.get_data(as_text=True)[:300]
    h = resp.headers
    assert h["X-Content-Type-Options"] == "nosniff"
    assert h["Referrer-Policy"] == "no-referrer"
    assert h["X-Frame-Options"] == "DENY"
    assert h["Content-Security-Policy"] == (PAGE_CSP if is_page(path) else API_CSP)
    assert HEX32.fullmatch(h["X-Request-ID"])
    assert len(h.getlist("Content-Security-Policy")) == 1 and len(h.getlist("X-Content-Type-Options")) == 1


def directives(csp: str) -> dict[str, str]:
    return {d.strip().split(" ", 1)[0]: d.strip().split(" ", 1)[1] for d in csp.split(";") if d.strip()}


def test_page_policy_is_same_origin_only_and_unframeable(client):
    csp = directives(client.get("/").headers["Content-Security-Policy"])
    assert csp == {"default-src": "'self'", "script-src": "'self' 'wasm-unsafe-eval'", "frame-ancestors": "'none'",
                   "base-uri": "'none'", "form-action": "'self'", "object-src": "'none'"}
    # 'wasm-unsafe-eval' lets the offline engine's worker compile WebAssembly; no eval(), nothing inline
    assert not any("unsafe" in v.replace("'wasm-unsafe-eval'", "") or "*" in v or "http" in v for v in csp.values())
    api = directives(client.get("/v1/variants").headers["Content-Security-Policy"])
    assert api["default-src"] == "'none'" and api["frame-ancestors"] == "'none'"


REVALIDATED = ("/openapi.yaml", "/v1/variants", "/v1/variants/sv-classic", "/v1/variants/sv-classic/source",
               "/v1/matrix?format=csv")  # change only with the deployment: web_api.caching


@pytest.mark.parametrize("method,path,body,status", EVERY_KIND_OF_RESPONSE)
def test_cache_control(client, method, path, body, status):
    resp = send(client, method, path, body)
    cache = resp.headers.get("Cache-Control")
    if status >= 400:
        assert cache == "no-store"
    elif method in ("GET", "HEAD") and (path in REVALIDATED or is_page(path)):
        assert cache == "no-cache" and "ETag" in resp.headers  # revalidated, a 304 when unchanged
    else:
        assert cache == "no-store"


def test_no_static_route_beside_the_page(app):
    assert not [r.rule for r in app.url_map.iter_rules() if r.rule.startswith("/static")]


# ==============================================================================================
# 3. CORS


@pytest.mark.parametrize("path", ["/v1/variants", "/v1/matrix", "/openapi.yaml", "/healthz", "/v1/variants/nope"])
def test_allowed_origin_gets_cors_headers(cors_client, path):
    for origin in (ALLOWED, ALLOWED_2):
        resp = cors_client.get(path, headers={"Origin": origin})
        assert resp.headers["Access-Control-Allow-Origin"] == origin
        assert "Origin" in resp.vary
        assert resp.headers["Access-Control-Expose-Headers"] == "X-Request-ID"
        assert "Access-Control-Allow-Credentials" not in resp.headers


def test_allowed_origin_on_a_post_and_its_errors(cors_client):
    for body, status in ((ADJUDICATE, 200), ({"variant": "nope", **{k: ADJUDICATE[k] for k in ("situation", "action")}}, 404)):
        resp = post_json(cors_client, "/v1/adjudicate", body, headers={"Origin": ALLOWED})
        assert resp.status_code == status
        assert resp.headers["Access-Control-Allow-Origin"] == ALLOWED


@pytest.mark.parametrize("origin", ["https://evil.example", "https://referee.example.org.evil.example",
                                    "http://referee.example.org", "https://referee.example.org:444", "null",
                                    "https://referee.example.org/"])
def test_other_origins_get_no_cors_headers_but_an_answer(cors_client, origin):
    resp = cors_client.get("/v1/variants", headers={"Origin": origin})
    assert resp.status_code == 200  # the browser withholds it; curl could fetch it anyway
    assert not [k for k in resp.headers.keys() if k.lower().startswith("access-control-")]
    assert "Origin" in resp.vary  # a shared cache must not hand this answer to an allowed origin


def test_no_allow_list_means_no_cross_origin_access(client):
    resp = client.get("/v1/variants", headers={"Origin": ALLOWED})
    assert resp.status_code == 200
    assert not [k for k in resp.headers.keys() if k.lower().startswith("access-control-")]
    assert "Origin" not in resp.vary
    pre = client.options("/v1/score", headers={"Origin": ALLOWED, "Access-Control-Request-Method": "POST"})
    assert_problem(pre, 403, "cors-origin-not-allowed")


def test_same_origin_post_from_the_page_is_not_blocked(client):
    """Browsers send Origin on same-origin POSTs too; CORS is the browser's check, never a server refusal."""
    resp = post_json(client, "/v1/adjudicate", ADJUDICATE, headers={"Origin": "http://localhost"})
    assert resp.status_code == 200


@pytest.mark.parametrize("path,method", [("/v1/score", "POST"), ("/v1/adjudicate", "POST"), ("/v1/variants", "GET"),
                                         ("/openapi.yaml", "GET"), ("/healthz", "GET")])
def test_preflight_from_an_allowed_origin(cors_client, path, method):
    resp = cors_client.options(path, headers={"Origin": ALLOWED, "Access-Control-Request-Method": method,
                                              "Access-Control-Request-Headers": "content-type, x-request-id"})
    assert resp.status_code == 204
    assert resp.data == b"" and "Content-Type" not in resp.headers
    h = resp.headers
    assert h["Access-Control-Allow-Origin"] == ALLOWED
    assert h["Access-Control-Allow-Methods"] == "GET, POST, OPTIONS"
    assert h["Access-Control-Allow-Headers"] == "Content-Type, X-Request-ID"
    assert h["Access-Control-Max-Age"] == "600"
    assert "Origin" in resp.vary
    assert HEX32.fullmatch(h["X-Request-ID"])


def test_preflight_from_another_origin_is_a_403_problem(cors_client):
    resp = cors_client.options("/v1/score", headers={"Origin": "https://evil.example",
                                                     "Access-Control-Request-Method": "POST"})
    problem = assert_problem(resp, 403, "cors-origin-not-allowed")
    assert "evil" not in problem["detail"]
    assert not [k for k in resp.headers.keys() if k.lower().startswith("access-control-")]


def test_options_without_preflight_headers_keeps_the_allow_answer(cors_client):
    resp = cors_client.options("/v1/score")
    assert resp.status_code == 200 and set(resp.headers["Allow"].split(", ")) == {"POST", "OPTIONS"}
    resp = cors_client.options("/v1/score", headers={"Origin": ALLOWED})  # Origin alone is no preflight
    assert resp.status_code == 200 and "Access-Control-Allow-Methods" not in resp.headers
    for method in ("DELETE", "PUT", "PATCH"):
        resp = cors_client.open("/v1/score", method=method, headers={"Origin": ALLOWED})
        assert_problem(resp, 405, "method-not-allowed")
        assert "POST" in resp.headers["Allow"]
        assert resp.headers["Access-Control-Allow-Origin"] == ALLOWED  # so the page can read the problem


def test_preflight_outside_the_api_or_to_nothing(cors_client):
    headers = {"Origin": ALLOWED, "Access-Control-Request-Method": "GET"}
    page = cors_client.options("/", headers=headers)  # the page is not shared with other origins
    assert page.status_code == 200 and "Access-Control-Allow-Origin" not in page.headers
    assert_problem(cors_client.options("/v1/nope", headers=headers), 404, "not-found")


def test_allow_list_from_the_environment(monkeypatch):
    monkeypatch.setenv("CORS_ALLOWED_ORIGINS", f" {ALLOWED} ,, {ALLOWED_2},")
    client = create_app({"TESTING": True}).test_client()
    for origin in (ALLOWED, ALLOWED_2):
        assert client.get("/healthz", headers={"Origin": origin}).headers["Access-Control-Allow-Origin"] == origin
    override = create_app({"TESTING": True, "CORS_ALLOWED_ORIGINS": ["https://other.example"]}).test_client()
    assert "Access-Control-Allow-Origin" not in override.get("/healthz", headers={"Origin": ALLOWED}).headers
    monkeypatch.setenv("CORS_ALLOWED_ORIGINS", "")
    assert "Access-Control-Allow-Origin" not in create_app().test_client().get(
        "/healthz", headers={"Origin": ALLOWED}).headers


@pytest.mark.parametrize("bad", ["*", "null", "referee.example.org", "https://referee.example.org/",
                                 "https://referee.example.org/app", "ftp://referee.example.org",
                                 "https://*.example.org"])
def test_malformed_allow_list_stops_start_up(bad):
    with pytest.raises(ValueError, match="CORS_ALLOWED_ORIGINS"):
        create_app({"CORS_ALLOWED_ORIGINS": f"{ALLOWED},{bad}"})


def test_origins_parse_exactly():
    assert parse_origins(None) == frozenset() and parse_origins("") == frozenset() and parse_origins(" , ") == frozenset()
    assert parse_origins("HTTPS://Referee.Example.org:8443") == {"https://referee.example.org:8443"}
    assert parse_origins(["http://[::1]:8000", "http://127.0.0.1"]) == {"http://[::1]:8000", "http://127.0.0.1"}


# ==============================================================================================
# 4. X-Request-ID


@pytest.mark.parametrize("rid", ["abc", "A.b-c_9", "x" * MAX_LENGTH, uuid.uuid4().hex, str(uuid.uuid4())])
def test_a_sane_incoming_request_id_is_echoed(client, rid):
    assert client.get("/healthz", headers={"X-Request-ID": rid}).headers["X-Request-ID"] == rid
    problem = assert_problem(client.get("/v1/variants/nope", headers={"X-Request-ID": rid}), 404)
    assert problem["request_id"] == rid


@pytest.mark.parametrize("rid", ["", "x" * (MAX_LENGTH + 1), "a b", 'a"b', "a/b", "a,b", "a;b", "<script>",
                                 "ä", "a\tb", "%0d%0a", "1, 2"])
def test_an_insane_incoming_request_id_is_replaced(client, rid):
    resp = client.get("/v1/variants/nope", headers={"X-Request-ID": rid})
    assert HEX32.fullmatch(resp.headers["X-Request-ID"])
    assert uuid.UUID(hex=resp.headers["X-Request-ID"]).version == 4
    assert resp.get_json()["request_id"] == resp.headers["X-Request-ID"]


def test_generated_request_ids_differ(client):
    ids = {client.get("/healthz").headers["X-Request-ID"] for _ in range(50)}
    assert len(ids) == 50 and all(HEX32.fullmatch(i) for i in ids)


def test_request_id_on_every_error(cors_client, boom_app):
    headers = {"X-Request-ID": "err-1"}
    cases = [
        cors_client.get("/nope", headers=headers),
        cors_client.delete("/v1/variants", headers=headers),
        cors_client.post("/v1/score", data=b"x" * (DEFAULT_MAX_CONTENT_LENGTH + 1), content_type="application/json",
                         headers=headers),
        cors_client.post("/v1/score", data="a=b", content_type="application/x-www-form-urlencoded", headers=headers),
        cors_client.post("/v1/score", data=b"{", content_type="application/json", headers=headers),
        post_json(cors_client, "/v1/score", {"variant": "sv-classic"}, headers=headers),
        cors_client.options("/v1/score", headers={**headers, "Origin": "https://evil.example",
                                                  "Access-Control-Request-Method": "POST"}),
        boom_app.test_client().get("/v1/_boom", headers=headers),
    ]
    assert [r.status_code for r in cases] == [404, 405, 413, 415, 400, 422, 403, 500]
    for resp in cases:
        assert resp.headers["X-Request-ID"] == "err-1"
        assert assert_problem(resp, resp.status_code)["request_id"] == "err-1"


def test_request_id_is_per_request_even_inside_one_app_context(app):
    """``flask.g`` would be shared by requests made inside an outer app context; the id is not."""
    client = app.test_client()
    with app.app_context():
        first = client.get("/healthz").headers["X-Request-ID"]
        second = client.get("/healthz").headers["X-Request-ID"]
        third = client.get("/healthz", headers={"X-Request-ID": "mine"}).headers["X-Request-ID"]
    assert first != second and third == "mine"


# ==============================================================================================
# 5 and 6. A crash: generic 500, request id, trace only in the log


def test_crash_is_a_500_problem_without_a_trace(boom_app, caplog):
    client = boom_app.test_client()
    assert not boom_app.debug and not boom_app.testing
    with caplog.at_level(logging.ERROR, logger=boom_app.logger.name):
        resp = client.get("/v1/_boom", headers={"X-Request-ID": "crash-42"})
    problem = assert_problem(resp, 500, "internal-error")
    assert problem["request_id"] == "crash-42" and problem["instance"] == "/v1/_boom"
    assert set(problem) == {"type", "title", "status", "detail", "instance", "request_id"}
    text = resp.get_data(as_text=True)
    for leak in ("secret-internal-detail", "Traceback", "RuntimeError", 'File "', "/srv/", ".py", "line 42"):
        assert leak not in text, leak
    assert resp.headers["Cache-Control"] == "no-store"
    records = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert records, "the crash was not logged"
    logged = records[-1]
    assert "crash-42" in logged.getMessage() and "/v1/_boom" in logged.getMessage()
    assert logged.exc_info and "secret-internal-detail" in str(logged.exc_info[1])  # the trace goes to the log


def test_crash_in_a_post_view_under_testing_config_too(caplog):
    app = create_app({"TESTING": True})
    bp = Blueprint("boom2", __name__)

    @bp.post("/v1/_boom2")
    def boom2():
        {}["secret-key"]  # KeyError

    app.register_blueprint(bp)
    with caplog.at_level(logging.ERROR, logger=app.logger.name):
        resp = post_json(app.test_client(), "/v1/_boom2", {"a": 1})
    problem = assert_problem(resp, 500, "internal-error")
    assert "secret-key" not in resp.get_data(as_text=True) and "KeyError" not in resp.get_data(as_text=True)
    assert any(problem["request_id"] in r.getMessage() for r in caplog.records)


SAFE_LOADERS = frozenset({"SafeLoader", "CSafeLoader"})  # PyYAML's safe loader, in Python and in C (libyaml)
SAFE_CALLS = frozenset({"safe_load", "safe_load_all"})
LOADING_CALLS = frozenset({"load", "load_all"})  # safe only with a safe Loader
UNSAFE_NAMES = frozenset({"unsafe_load", "unsafe_load_all", "full_load", "full_load_all", "Loader", "CLoader",
                          "FullLoader", "CFullLoader", "UnsafeLoader", "CUnsafeLoader", "BaseLoader", "CBaseLoader"})
PYTHON_SOURCES = ["adjudicator", "web_api", "app.py", "bench", "scripts"]


def _names(node: ast.AST) -> set[str]:
    """Every name and attribute an expression mentions (``getattr(yaml, "CSafeLoader", yaml.SafeLoader)``: both)."""
    found = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
        elif isinstance(sub, ast.Constant) and isinstance(sub.value, str) and sub.value.isidentifier():
            found.add(sub.value)
    return found


def unsafe_yaml(source: str) -> list[tuple[int, str]]:
    """``(line, why)`` for each way ``source`` could read YAML with an unsafe loader.

    The rule: never an unsafe loader. ``safe_load``/``safe_load_all``, or ``load``/``load_all`` with a
    ``Loader`` that names only ``SafeLoader`` and ``CSafeLoader``; any mention of another loader
    (``Loader``, ``FullLoader``, ``UnsafeLoader``, their C forms) or of ``unsafe_load``/``full_load`` is a fault.
    """
    faults = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "yaml":
            faults += [(node.lineno, f"imports {a.name}") for a in node.names
                       if a.name in UNSAFE_NAMES or a.name in LOADING_CALLS]
        elif isinstance(node, ast.Attribute) and node.attr in UNSAFE_NAMES:
            faults.append((node.lineno, f"names {node.attr}"))
        elif isinstance(node, ast.Name) and node.id in UNSAFE_NAMES - {"Loader"}:
            faults.append((node.lineno, f"names {node.id}"))
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None
            if name in LOADING_CALLS and isinstance(func, ast.Attribute) and "yaml" in _names(func.value):
                # (a bare load() is yaml's only if imported from it: that import is a fault above)
                loader = [k.value for k in node.keywords if k.arg == "Loader"] + node.args[1:2]
                named = {n for n in _names(loader[0]) if n.endswith("Loader")} if loader else set()
                if not named or not named <= SAFE_LOADERS:
                    faults.append((node.lineno, f"{name}() without a safe Loader"))
    return faults


def python_sources() -> list[Path]:
    files = []
    for name in PYTHON_SOURCES:
        path = ROOT / name
        if path.is_file():
            files.append(path)
        elif path.is_dir():
            for f in sorted(path.rglob("*")):
                if not f.is_file() or "__pycache__" in f.parts:
                    continue
                if f.suffix == ".py" or (not f.suffix and f.read_bytes()[:64].startswith(b"#!") and
                                         b"python" in f.read_bytes()[:64]):
                    files.append(f)
    return files


@pytest.mark.parametrize("bad", [
    "yaml.load(fh)", "yaml.load(fh, Loader=yaml.Loader)", "yaml.unsafe_load(x)", "yaml.full_load(x)",
    "yaml.load_all(x)", "yaml.load(x, Loader=yaml.FullLoader)", "yaml.load(x, yaml.UnsafeLoader)",
    "yaml.load(x, Loader=getattr(yaml, 'CLoader', yaml.SafeLoader))", "from yaml import unsafe_load",
    "from yaml import load", "yaml.load(x, Loader=yaml.CFullLoader)", "yaml.load(x, Loader=loader)",
    "yaml.load_all(x, Loader=yaml.BaseLoader)"])
def test_the_yaml_rule_catches_unsafe_loaders(bad):
    assert unsafe_yaml(bad), bad


@pytest.mark.parametrize("good", [
    "yaml.safe_load(fh)", "yaml.safe_load_all(text)", "yaml.safe_dump(x)", "yaml.load(fh, Loader=yaml.CSafeLoader)",
    "yaml.load(fh, Loader=yaml.SafeLoader)", "yaml.load(fh, Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader))",
    "yaml.load_all(fh, yaml.CSafeLoader)", "json.load(fh)", "pickle_free.load(fh)"])
def test_the_yaml_rule_allows_safe_loaders(good):
    assert not unsafe_yaml(good), good


def test_yaml_is_never_read_with_an_unsafe_loader():
    files = python_sources()
    assert ROOT / "app.py" in files and any(f.parent.name == "adjudicator" for f in files)
    assert any(f.parent.name == "web_api" for f in files) and any(f.parent.name == "bench" for f in files)
    found = [f"{f.relative_to(ROOT)}:{line}: {why}" for f in files
             for line, why in unsafe_yaml(f.read_text(encoding="utf-8"))]
    assert not found, "YAML must be read with a safe loader only (SafeLoader, CSafeLoader):\n" + "\n".join(found)
    assert "CSafeLoader" in (ROOT / "adjudicator" / "variants.py").read_text(encoding="utf-8")


# ==============================================================================================
# The real server: gunicorn.conf.py's access log and a chunked body


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def gunicorn_server(tmp_path_factory):
    """``gunicorn -c gunicorn.conf.py app:app`` on a free port; yields (port, path of its output)."""
    port = free_port()
    log = tmp_path_factory.mktemp("gunicorn") / "out.log"
    env = {**os.environ, "PORT": str(port), "WEB_CONCURRENCY": "1", "CANASTA_MAX_CONTENT_LENGTH": "2000",
           "CORS_ALLOWED_ORIGINS": ALLOWED}
    env.pop("PYTHONPATH", None)
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "-b", f"127.0.0.1:{port}",
                                 "app:app"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120  # a loaded machine starts it slowly: a bound on a failed start, not a speed
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("gunicorn did not start:\n" + log.read_text(errors="replace"), pytrace=False)
            time.sleep(0.2)
        yield port, log
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def request(port, method, path, body=None, headers=None):
    """One request on a fresh connection; an iterator body is sent chunked (no Content-Length)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)  # a bound on a hang, not a speed
    chunked = body is not None and not isinstance(body, (str, bytes))
    conn.request(method, path, body=body, headers=headers or {}, encode_chunked=chunked)
    resp = conn.getresponse()
    data = resp.read()
    conn.close()
    return resp, data


def log_lines(log: Path, needle: str, timeout: float = 60) -> list[str]:
    """The log's lines with ``needle``, once there are any (waited for up to ``timeout`` s: a bound on a hang)."""
    deadline = time.monotonic() + timeout
    while True:
        lines = [ln for ln in log.read_text(errors="replace").splitlines() if needle in ln]
        if lines or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def test_gunicorn_access_log_names_the_request_id_and_never_the_body(gunicorn_server):
    port, log = gunicorn_server
    marker = "SECRET-BODY-MARKER-" + uuid.uuid4().hex[:8]
    resp, data = request(port, "POST", "/v1/score", json.dumps({"variant": "sv-classic", marker: 1}),
                         {"Content-Type": "application/json", "X-Request-ID": "gunicorn-rid-1",
                          "Cookie": "session=COOKIE-MARKER", "Authorization": "Bearer AUTH-MARKER"})
    assert resp.status == 422 and resp.getheader("X-Request-ID") == "gunicorn-rid-1"
    resp, _ = request(port, "GET", "/healthz", headers={"X-Request-ID": "bad id with spaces"})
    generated = resp.getheader("X-Request-ID")
    assert HEX32.fullmatch(generated)
    lines = log_lines(log, "rid=gunicorn-rid-1")
    assert len(lines) == 1 and '"POST /v1/score HTTP/1.1" 422' in lines[0], lines
    assert log_lines(log, f"rid={generated}"), "the generated id is logged"
    text = log.read_text(errors="replace")
    for secret in (marker, "COOKIE-MARKER", "AUTH-MARKER", "bad id with spaces"):
        assert secret not in text, secret


def test_gunicorn_chunked_body_over_the_cap_is_413(gunicorn_server):
    port, log = gunicorn_server

    def chunks(total):
        head = b'{"variant": "'
        yield head
        pad = total - len(head) - 2
        while pad > 0:
            step = min(pad, 500)
            yield b"z" * step
            pad -= step
        yield b'"}'

    resp, data = request(port, "POST", "/v1/score", chunks(5000),
                         {"Content-Type": "application/json", "Transfer-Encoding": "chunked",
                          "X-Request-ID": "chunked-big", "Origin": ALLOWED})
    assert resp.getheader("X-Request-ID") == "chunked-big"
    assert resp.status == 413, data[:300]
    assert resp.getheader("Content-Type") == PROBLEM
    problem = json.loads(data)
    assert problem["request_id"] == "chunked-big" and "2,000" in problem["detail"]
    assert resp.getheader("Access-Control-Allow-Origin") == ALLOWED
    small = json.dumps(ROUND).encode()
    resp, data = request(port, "POST", "/v1/score", iter([small[:20], small[20:]]),
                         {"Content-Type": "application/json", "Transfer-Encoding": "chunked"})
    assert resp.status == 200, data[:300]
    assert log_lines(log, "rid=chunked-big")


# ==============================================================================================
# The page in a browser, under the policy the app sends


BROWSER_SCRIPT = textwrap.dedent("""
    import json, sys
    from playwright.sync_api import sync_playwright, expect
    base, chromium = sys.argv[1], sys.argv[2]
    report = {"csp": [], "errors": [], "header": None, "framed": None}
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=args)
        page = browser.new_context(service_workers="block").new_page()
        page.set_default_timeout(60000)  # a bound on a hang (a navigation, the network going idle), not a speed
        def console(m):
            if "Content Security Policy" in m.text:
                report["csp"].append(m.text)
            elif m.type == "error":
                report["errors"].append(m.text)
        page.on("console", console)
        page.on("pageerror", lambda e: report["errors"].append(str(e)))
        response = page.goto(base + "/")
        report["header"] = response.headers.get("content-security-policy")
        expect(page.locator("html.ready")).to_have_count(1, timeout=60000)
        page.goto(base + "/#rules")
        expect(page.locator("#matrix-search")).to_have_count(1, timeout=60000)
        page.wait_for_load_state("networkidle")
        clean = {"csp": list(report["csp"]), "errors": list(report["errors"])}
        # the same page framed by another origin must not render (frame-ancestors 'none')
        framer = browser.new_context().new_page()
        framer.set_default_timeout(60000)
        blocked = []
        framer.on("console", lambda m: blocked.append(m.text))
        framer.set_content('<iframe id="f" src="' + base + '/"></iframe>')
        for _ in range(600):  # until Chromium says it refused the frame (a bound on a hang, not a speed)
            if any("frame-ancestors" in m for m in blocked):
                break
            framer.wait_for_timeout(100)
        report["framed"] = {"messages": blocked,
                            "rendered": framer.frames[-1].evaluate("() => !!document.querySelector('title')")
                            if len(framer.frames) > 1 and framer.frames[-1].url.startswith(base) else False}
        report.update(clean)
        browser.close()
    print(json.dumps(report))
""")


def test_page_runs_under_the_served_csp(live_server):
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash scripts/install-browser`", pytrace=False)
    done = subprocess.run([sys.executable, "-c", BROWSER_SCRIPT, live_server, str(CHROMIUM)], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["header"] == PAGE_CSP
    assert report["csp"] == [], report["csp"]
    assert report["errors"] == [], report["errors"]
    framed = report["framed"]
    assert not framed["rendered"], framed
    assert any("frame-ancestors" in m for m in framed["messages"]), framed


def test_too_deep_and_half_a_surrogate_are_said_in_the_readers_words(client):
    """orjson's own English never reaches a reader for the two faults the catalogue words."""
    deep = client.post("/v1/adjudicate?lang=sv", data=_nest(2_000, "list").encode(), content_type="application/json")
    half = client.post("/v1/adjudicate?lang=sv", data=b'{"variant": "no-pagat", "situ\\ud800": 1}',
                       content_type="application/json")
    for resp, key in ((deep, "detail.too_deep"), (half, "detail.surrogate")):
        problem = assert_problem(resp, 400, "malformed-json")
        assert problem["detail"] == words(key, "sv") == problem["errors"][0]["detail"]
