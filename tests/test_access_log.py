"""The service's access logger writes the line gunicorn's own would, for every atom and for our format.

:class:`web_api.access_log.AccessLogger` works out only the atoms a format names; each line below
is formatted both ways, from the same response, request, environ and time, and must be the same.
"""

from __future__ import annotations

import base64
import logging
import runpy
from datetime import timedelta
from pathlib import Path

import pytest
from gunicorn.config import Config
from gunicorn.glogging import Logger

from web_api.access_log import AccessLogger, LazyAtoms

ROOT = Path(__file__).resolve().parent.parent
BASIC = "hlutrsmUqHbBfaTDMLp"
OUR_FORMAT = runpy.run_path(str(ROOT / "gunicorn.conf.py"))["access_log_format"]
FORMATS = [
    OUR_FORMAT,
    Config().access_log_format,  # gunicorn's default
    " ".join(f"%({a})s" for a in BASIC),
    '%({X-Request-ID}o)s %({x-request-id}O)s %({content-type}o)s %({set-cookie}o)s %({missing}o)s',
    '%({user-agent}i)s %({USER-AGENT}i)s %({x-twice}i)s %({missing}i)s',
    '%({request_method}e)s %({Path_Info}e)s %({canasta.lang}e)s %({missing}e)s',
    '%(nope)s %({nope})s %({}i)s %(h)s',
]


class _Response:
    def __init__(self, status, headers, sent):
        self.status, self.headers, self.sent = status, headers, sent


class _Request:
    def __init__(self, headers):
        self.headers = headers


def _cases():
    headers = [("Content-Type", "application/json"), ("X-Request-ID", "abc-123"), ("Set-Cookie", 'a="b"'),
               ("Set-Cookie", "c=d")]
    request = _Request([("HOST", "127.0.0.1"), ("USER-AGENT", 'curl/8 "quoted"'), ("X-TWICE", "one"),
                        ("X-TWICE", "two")])
    environ = {"REQUEST_METHOD": "POST", "RAW_URI": "/v1/adjudicate?lang=sv", "SERVER_PROTOCOL": "HTTP/1.1",
               "PATH_INFO": "/v1/adjudicate", "QUERY_STRING": "lang=sv", "REMOTE_ADDR": "10.0.0.7",
               "HTTP_USER_AGENT": 'curl/8 "quoted"', "HTTP_REFERER": "https://example.org/",
               "HTTP_AUTHORIZATION": "Basic " + base64.b64encode(b"anna:secret").decode(),
               "canasta.lang": "sv", "path_info": "a later entry of the same name, lower-cased"}
    yield _Response("200 OK", headers, 5234), request, environ, timedelta(seconds=1, microseconds=234567)
    yield _Response(404, [], None), _Request([]), {"REQUEST_METHOD": "GET", "RAW_URI": "/x",
                                                  "SERVER_PROTOCOL": "HTTP/1.0"}, timedelta(microseconds=9)
    yield _Response("413 Content Too Large", {"Content-Type": "application/problem+json"}, 0), \
        [("CONTENT-LENGTH", "999999")], {"REQUEST_METHOD": "POST", "RAW_URI": "/v1/score",
                                         "SERVER_PROTOCOL": "HTTP/1.1"}, timedelta(0)


@pytest.fixture
def loggers(monkeypatch):
    monkeypatch.setattr(Logger, "now", lambda self: "[02/Dec/2026:04:05:06 +0000]")  # one clock for both
    return Logger(Config()), AccessLogger(Config())


@pytest.mark.parametrize("fmt", FORMATS)
def test_lines_are_gunicorns(loggers, fmt):
    gunicorn, ours = loggers
    for resp, req, environ, took in _cases():
        expected = fmt % gunicorn.atoms_wrapper_class(gunicorn.atoms(resp, req, environ, took))
        assert fmt % LazyAtoms(ours, resp, req, environ, took) == expected


def test_logged_through_logging_as_gunicorn_logs_it(loggers, monkeypatch):
    """The line reaches the access log's handlers as a record formatted like gunicorn's."""
    gunicorn, ours = loggers
    written = {}
    for name, log in (("gunicorn", gunicorn), ("ours", ours)):
        records = []
        log.access_log.handlers = [logging.Handler()]
        log.access_log.handlers[0].emit = records.append
        log.access_log.setLevel(logging.INFO)
        log.access_log.propagate = False
        log.cfg.set("accesslog", "-")
        monkeypatch.setattr(log, "_access_log_enabled", True, raising=False)
        for resp, req, environ, took in _cases():
            log.access(resp, req, environ, took)
        written[name] = [r.getMessage() for r in records]
    assert written["ours"] == written["gunicorn"] and len(written["ours"]) == 3


def test_the_service_logs_with_it():
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert conf["logger_class"] == "web_api.access_log.AccessLogger"
