"""The framework behaviour the service's three shortcuts past Flask's and werkzeug's public interface rely on.

Each shortcut is kept because ``bench/internals_bench.py`` shows what it saves (issue 33); each rests on
something werkzeug does not promise, so it is pinned here: an upgrade that changes it fails these tests, not a
request.

* ``web_api.response.ServiceResponse`` hands the server werkzeug's own header list (``Headers._list``) where
  werkzeug's last copy of the headers would change nothing;
* ``web_api.security._append`` appends pairs checked once to ``Headers._list``;
* ``web_api.problems._plain_body`` reads a plain body straight from the server's stream and keeps it where
  werkzeug keeps a body it has read (``Request._cached_data``), so ``get_data`` and ``get_json`` find it.
"""

from __future__ import annotations

import io

import pytest
from flask import Response
from werkzeug.datastructures import Headers
from werkzeug.test import EnvironBuilder
from werkzeug.wrappers import Request

from web_api import problems, security
from web_api.response import ServiceResponse


# ----------------------------------------------------------------------------------------------
# Headers._list


def test_headers_keep_their_pairs_in_a_list_named_list_in_order():
    headers = Headers([("Content-Type", "application/json")])
    headers.add("X-One", "1")
    headers["Content-Length"] = "2"
    assert type(headers._list) is list
    assert headers._list == [("Content-Type", "application/json"), ("X-One", "1"), ("Content-Length", "2")]
    assert list(headers.items()) == headers._list and headers.to_wsgi_list() == headers._list


def test_pairs_appended_to_the_list_are_headers_like_any_other():
    headers = Headers([("Content-Type", "application/json")])
    security._append(headers, security._API_NO_STORE)
    public = Headers([("Content-Type", "application/json")])
    public.extend(security._API_NO_STORE)
    assert headers == public and headers.get("cache-control") == public.get("Cache-Control")
    assert headers.to_wsgi_list() == public.to_wsgi_list()
    assert all(type(name) is str and type(value) is str for name, value in headers._list)


# ----------------------------------------------------------------------------------------------
# ServiceResponse.get_wsgi_response


def _environ(method: str = "POST") -> dict:
    return EnvironBuilder(path="/v1/adjudicate", method=method, headers={"Host": "127.0.0.1"}).get_environ()


def _both(make, method: str = "POST"):
    ours, theirs = make(ServiceResponse), make(Response)
    mine = ServiceResponse.get_wsgi_response(ours, _environ(method))
    werkzeugs = Response.get_wsgi_response(theirs, _environ(method))
    return (mine[1], mine[2], b"".join(mine[0])), (werkzeugs[1], werkzeugs[2], b"".join(werkzeugs[0]))


ANSWERS = {
    "json": lambda cls: cls(b'{"verdict":"legal"}', mimetype="application/json"),
    "problem": lambda cls: cls(b'{"status":422}', status=422, mimetype="application/problem+json"),
    "location": lambda cls: cls(b"", status=302, headers={"Location": "/v1/variants"}),
    "content-location": lambda cls: cls(b"{}", headers={"Content-Location": "/x"}),
    "not modified": lambda cls: cls(b"{}", status=304, headers={"ETag": '"a"'}),
    "no content": lambda cls: cls(b"", status=204),
    "streamed": lambda cls: cls(iter([b"{", b"}"]), mimetype="application/json"),
    "informational": lambda cls: cls(b"", status=103),
}


@pytest.mark.parametrize("method", ["POST", "GET", "HEAD"])
@pytest.mark.parametrize("name", list(ANSWERS))
def test_the_response_class_sends_what_werkzeug_sends(name, method):
    mine, werkzeugs = _both(ANSWERS[name], method)
    assert mine == werkzeugs


def test_the_response_class_takes_its_shortcut_only_where_werkzeug_would_change_nothing():
    made = ANSWERS["json"](ServiceResponse)
    _app_iter, _status, headers = made.get_wsgi_response(_environ())
    assert headers == made.headers._list and headers is not made.headers._list  # a copy of the list, as is


# ----------------------------------------------------------------------------------------------
# Request._cached_data


def test_a_body_kept_where_werkzeug_keeps_a_body_it_read_is_the_body():
    request = Request(EnvironBuilder(method="POST", data=b'{"a": 1}', content_type="application/json").get_environ())
    assert "_cached_data" not in request.__dict__
    request._cached_data = b'{"b": 2}'
    assert request.get_data(cache=True) == b'{"b": 2}' and request.get_json() == {"b": 2}
    fresh = Request(EnvironBuilder(method="POST", data=b'{"a": 1}', content_type="application/json").get_environ())
    assert fresh.get_data(cache=True) == b'{"a": 1}' and fresh.__dict__["_cached_data"] == b'{"a": 1}'


@pytest.mark.parametrize("body", [b'{"variant": "sv-classic"}', b"{}", "{\"ord\": \"ø\"}".encode()])
def test_the_plain_read_gives_what_werkzeugs_read_gives(app, body):
    def read(plain: bool) -> tuple:
        environ = EnvironBuilder(path="/v1/adjudicate", method="POST", data=body,
                                 content_type="application/json").get_environ()
        environ["wsgi.input"] = io.BytesIO(body)
        with app.request_context(environ):
            if not plain:
                problems._plain_body, kept = (lambda: None), problems._plain_body
                try:
                    got = problems.json_body()
                finally:
                    problems._plain_body = kept
            else:
                got = problems.json_body()
            from flask import request
            return got, request.get_data(), request.get_json()
    assert read(True) == read(False)
