"""Compression (gzip, brotli) and revalidation (ETag, 304) of the app's answers.

See :mod:`web_api.compression` and :mod:`web_api.caching`. Uses Flask's test client on apps
built by the real factory; ``tests/test_hardening.py`` checks the bytes gunicorn sends.
"""

from __future__ import annotations

import gzip
import hashlib
import json

import pytest
from flask import Blueprint, Response, request

from web_api import caching, compression, create_app
from web_api.security import API_CSP

brotli = compression.brotli  # None when the brotli package is not installed

ADJUDICATE = {"variant": "sv-classic", "situation": {"player": {"hand": ["9H", "9S"]}}, "action": {"type": "draw"}}
COMPARE = {"situation": {"discard_pile": ["3H", "7C", "JK", "9D"], "player": {"hand": ["9H", "JK", "5C"]}},
           "action": {"type": "take_pile", "with": ["9H", "JK"]}}

REVALIDATED_GETS = ["/v1/variants", "/v1/variants/sv-classic", "/v1/variants/no-pagat/source", "/v1/matrix",
                    "/v1/matrix?format=csv", "/v1/matrix?differs=true", "/openapi.yaml"]


def decode(resp) -> bytes:
    coding = resp.headers.get("Content-Encoding")
    data = resp.get_data()
    if coding == "gzip":
        return gzip.decompress(data)
    if coding == "br":
        return brotli.decompress(data)
    assert coding is None, coding
    return data


def vary(resp) -> set[str]:
    return {v.strip().lower() for v in resp.headers.get("Vary", "").split(",") if v.strip()}


# ==============================================================================================
# Compression


@pytest.mark.parametrize("path", REVALIDATED_GETS + ["/v1/rules", "/"])
def test_gzip_round_trip_on_get(client, path):
    plain = client.get(path)
    zipped = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert plain.status_code == zipped.status_code == 200
    assert len(plain.get_data()) > compression.MIN_SIZE
    assert "Content-Encoding" not in plain.headers
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.get_data()) == plain.get_data()
    assert int(zipped.headers["Content-Length"]) == len(zipped.get_data()) < len(plain.get_data())
    assert "accept-encoding" in vary(plain) and "accept-encoding" in vary(zipped)  # caches keep them apart
    assert zipped.mimetype == plain.mimetype


@pytest.mark.parametrize("path,body", [("/v1/compare", COMPARE), ("/v1/adjudicate", ADJUDICATE)])
def test_gzip_round_trip_on_post(client, path, body):
    plain = client.post(path, json=body)
    zipped = client.post(path, json=body, headers={"Accept-Encoding": "gzip, deflate"})
    assert plain.status_code == zipped.status_code == 200
    assert len(plain.get_data()) > compression.MIN_SIZE
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(zipped.get_data())) == plain.get_json()
    assert int(zipped.headers["Content-Length"]) == len(zipped.get_data())
    assert zipped.headers["Cache-Control"] == "no-store" and "ETag" not in zipped.headers


@pytest.mark.skipif(compression.brotli is None, reason="brotli is not installed")
@pytest.mark.parametrize("path", ["/v1/variants/sv-classic", "/openapi.yaml", "/v1/matrix?format=csv"])
def test_brotli_round_trip_and_preference(client, path):
    plain = client.get(path).get_data()
    resp = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert resp.headers["Content-Encoding"] == "br"
    assert brotli.decompress(resp.get_data()) == plain
    assert int(resp.headers["Content-Length"]) == len(resp.get_data())
    post = client.post("/v1/compare", json=COMPARE, headers={"Accept-Encoding": "br"})
    assert post.headers["Content-Encoding"] == "br"
    assert json.loads(brotli.decompress(post.get_data())) == client.post("/v1/compare", json=COMPARE).get_json()


@pytest.mark.parametrize("accept,expected", [
    ("gzip;q=1, br;q=0.5", "gzip"),
    ("br;q=0, gzip", "gzip"),
    ("gzip;q=0", None),
    ("identity", None),
    ("deflate", None),
    ("*", "br"),
    ("br, gzip", "br"),
    ("GZIP", "gzip"),
])
def test_the_coding_follows_accept_encoding(client, accept, expected):
    if compression.brotli is None and expected == "br":
        expected = "gzip"
    resp = client.get("/v1/variants/sv-classic", headers={"Accept-Encoding": accept})
    assert resp.headers.get("Content-Encoding") == expected
    assert json.loads(decode(resp)) == client.get("/v1/variants/sv-classic").get_json()


def test_small_answers_are_not_compressed(client):
    for resp in (client.get("/healthz", headers={"Accept-Encoding": "gzip, br"}),
                 client.get("/v1/variants/nope", headers={"Accept-Encoding": "gzip, br"})):
        assert len(resp.get_data()) <= compression.MIN_SIZE
        assert "Content-Encoding" not in resp.headers
        assert "accept-encoding" not in vary(resp)
        resp.get_json()  # plain JSON


def test_no_accept_encoding_means_no_compression(client):
    for path in REVALIDATED_GETS:
        resp = client.get(path)
        assert "Content-Encoding" not in resp.headers
        assert int(resp.headers["Content-Length"]) == len(resp.get_data())


@pytest.fixture
def odd_app():
    """The real app plus routes that answer what the API never does: an image, an encoded body, a stream."""
    app = create_app({"TESTING": True})
    bp = Blueprint("odd", __name__)
    big_text = ("word " * 1000).encode()

    @bp.get("/v1/_png")
    def png():
        return Response(b"\x89PNG" + bytes(range(256)) * 20, mimetype="image/png")

    @bp.get("/v1/_encoded")
    def encoded():
        return Response(gzip.compress(big_text), mimetype="text/plain", headers={"Content-Encoding": "gzip"})

    @bp.get("/v1/_stream")
    def stream():
        return Response((b"line %d\n" % i for i in range(500)), mimetype="text/plain")

    @bp.get("/v1/_no_transform")
    def no_transform():
        return Response(big_text, mimetype="text/plain", headers={"Cache-Control": "no-transform"})

    @bp.get("/v1/_problem")
    def big_problem():
        errors = [{"pointer": f"/x/{i}", "detail": "not a card"} for i in range(60)]
        return Response(json.dumps({"type": "about:blank", "status": 422, "errors": errors}), status=422,
                        mimetype="application/problem+json")

    app.register_blueprint(bp)
    return app


def test_never_compress_what_is_compressed_streamed_or_no_transform(odd_app):
    client = odd_app.test_client()
    png = client.get("/v1/_png", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in png.headers and png.get_data().startswith(b"\x89PNG")
    encoded = client.get("/v1/_encoded", headers={"Accept-Encoding": "gzip, br"})
    assert encoded.headers.getlist("Content-Encoding") == ["gzip"]
    assert gzip.decompress(encoded.get_data()).startswith(b"word word")  # compressed once, not twice
    stream = client.get("/v1/_stream", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in stream.headers and stream.get_data().startswith(b"line 0\n")
    keep = client.get("/v1/_no_transform", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in keep.headers


def test_a_large_error_is_compressed_and_stays_no_store(odd_app):
    resp = odd_app.test_client().get("/v1/_problem", headers={"Accept-Encoding": "gzip"})
    assert resp.status_code == 422 and resp.headers["Content-Encoding"] == "gzip"
    assert len(json.loads(gzip.decompress(resp.get_data()))["errors"]) == 60
    assert resp.headers["Cache-Control"] == "no-store"


def test_page_files_are_compressed_once(client):
    """The page's own code may gzip its files; either way a file is encoded at most once and decodes intact."""
    for path in ("/", "/web/style.css"):
        plain = client.get(path)
        assert plain.status_code == 200 and len(plain.get_data()) > compression.MIN_SIZE, path
        for accept in ("gzip", "br", "gzip, br"):
            resp = client.get(path, headers={"Accept-Encoding": accept})
            assert len(resp.headers.getlist("Content-Encoding")) <= 1
            assert decode(resp) == plain.get_data(), (path, accept)
            assert int(resp.headers["Content-Length"]) == len(resp.get_data())


# ==============================================================================================
# ETags and 304


def test_revalidated_endpoints_are_get_routes_of_the_app(app):
    endpoints = {rule.endpoint: rule for rule in app.url_map.iter_rules()}
    for name in caching.REVALIDATED:
        assert name in endpoints, f"{name} is not a route any more: update web_api.caching.REVALIDATED"
        assert "GET" in endpoints[name].methods


@pytest.mark.parametrize("path", REVALIDATED_GETS)
def test_etag_and_304_round_trip(client, path):
    first = client.get(path)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert etag == f'W/"{hashlib.sha256(first.get_data()).hexdigest()[:32]}"'  # the hash of the body sent
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == etag and again.headers["Cache-Control"] == "no-cache"
    assert again.headers["X-Content-Type-Options"] == "nosniff" and again.headers["Content-Security-Policy"] == API_CSP
    assert vary(again) == vary(first)
    other = client.get(path, headers={"If-None-Match": 'W/"0123456789abcdef0123456789abcdef"'})
    assert other.status_code == 200 and other.get_data() == first.get_data()
    listed = client.get(path, headers={"If-None-Match": f'"nope", {etag}'})
    assert listed.status_code == 304


def test_etags_differ_with_the_body(client):
    tags = {path: client.get(path).headers["ETag"] for path in REVALIDATED_GETS + ["/v1/variants/da-ludo"]}
    assert len(set(tags.values())) == len(tags), tags
    assert client.get("/v1/matrix?format=csv", headers={"If-None-Match": tags["/v1/matrix"]}).status_code == 200


def test_compressed_and_plain_answers_revalidate_each_other(client):
    zipped = client.get("/openapi.yaml", headers={"Accept-Encoding": "gzip"})
    plain = client.get("/openapi.yaml")
    assert zipped.headers["ETag"] == plain.headers["ETag"] and zipped.headers["ETag"].startswith('W/"')
    assert client.get("/openapi.yaml", headers={"If-None-Match": zipped.headers["ETag"]}).status_code == 304
    not_modified = client.get("/openapi.yaml", headers={"If-None-Match": plain.headers["ETag"],
                                                         "Accept-Encoding": "gzip"})
    assert not_modified.status_code == 304 and not_modified.get_data() == b""
    assert "accept-encoding" in vary(not_modified)


def test_head_has_the_get_headers(client):
    get = client.get("/v1/variants/sv-classic", headers={"Accept-Encoding": "gzip"})
    head = client.head("/v1/variants/sv-classic", headers={"Accept-Encoding": "gzip"})
    assert head.status_code == 200 and head.get_data() == b""
    for name in ("ETag", "Content-Encoding", "Content-Length", "Cache-Control", "Vary"):
        assert head.headers[name] == get.headers[name], name
    assert client.head("/v1/variants/sv-classic", headers={"If-None-Match": get.headers["ETag"]}).status_code == 304


def test_errors_on_revalidated_endpoints_are_not_tagged(client):
    for resp in (client.get("/v1/variants/nope"), client.get("/v1/variants/nope/source"),
                 client.get("/v1/matrix?format=xml"), client.get("/v1/matrix?differs=maybe")):
        assert resp.status_code in (400, 404)
        assert "ETag" not in resp.headers and resp.headers["Cache-Control"] == "no-store"
    unknown = client.get("/v1/variants/nope", headers={"If-None-Match": "*"})
    assert unknown.status_code == 404


def test_other_answers_stay_no_store_without_etag(client):
    for resp in (client.get("/healthz"), client.get("/v1/rules"), client.post("/v1/adjudicate", json=ADJUDICATE)):
        assert resp.status_code == 200
        assert resp.headers["Cache-Control"] == "no-store" and "ETag" not in resp.headers


def test_a_language_dependent_body_keeps_its_vary_and_gets_its_own_etag(monkeypatch):
    """Whatever a view's body comes to depend on, its Vary survives and its ETag follows the body."""
    app = create_app({"TESTING": True})
    bp = Blueprint("lang", __name__)

    @bp.get("/v1/_words")
    def words():
        lang = request.headers.get("Accept-Language", "en")[:2]
        resp = Response(json.dumps({"lang": lang, "words": [lang * 3] * 400}), mimetype="application/json")
        resp.vary.add("Accept-Language")
        return resp

    app.register_blueprint(bp)
    monkeypatch.setattr(caching, "REVALIDATED", caching.REVALIDATED | {"lang.words"})
    client = app.test_client()
    sv = client.get("/v1/_words", headers={"Accept-Language": "sv", "Accept-Encoding": "gzip"})
    da = client.get("/v1/_words", headers={"Accept-Language": "da", "Accept-Encoding": "gzip"})
    assert vary(sv) >= {"accept-language", "accept-encoding"}
    assert sv.headers["ETag"] != da.headers["ETag"]
    # a cache that revalidates its Swedish copy for a Danish reader gets the Danish body, not a 304
    swap = client.get("/v1/_words", headers={"Accept-Language": "da", "If-None-Match": sv.headers["ETag"]})
    assert swap.status_code == 200 and swap.get_json()["lang"] == "da"
    same = client.get("/v1/_words", headers={"Accept-Language": "sv", "If-None-Match": sv.headers["ETag"]})
    assert same.status_code == 304 and vary(same) >= {"accept-language", "accept-encoding"}


def test_compressed_bodies_of_tagged_answers_are_remembered(client, monkeypatch):
    calls = []
    real = compression.encode
    monkeypatch.setattr(compression, "encode", lambda data, coding, level: calls.append(level) or real(data, coding,
                                                                                                       level))
    monkeypatch.setattr(compression, "_REMEMBERED", compression._Remembered(8, 1 << 20))
    first = client.get("/v1/variants/sv-classic", headers={"Accept-Encoding": "gzip"})
    second = client.get("/v1/variants/sv-classic", headers={"Accept-Encoding": "gzip"})
    assert first.get_data() == second.get_data()
    assert calls == [compression.HIGH_LEVEL["gzip"]]  # compressed once, hard
    client.post("/v1/compare", json=COMPARE, headers={"Accept-Encoding": "gzip"})
    client.post("/v1/compare", json=COMPARE, headers={"Accept-Encoding": "gzip"})
    assert calls[1:] == [compression.FAST_LEVEL["gzip"]] * 2  # new every time: fast, not remembered
