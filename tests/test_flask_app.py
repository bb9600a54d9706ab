"""The app's Flask class answers as Flask does: the same URL adapters, the same functions called.

:class:`web_api.flask_app.ServiceFlask` works out the host of a request's URL adapter once per form
of the host, and whether a function is a coroutine once per function. Both are only worth having
if nothing changes: each case below is made by Flask's own :meth:`~flask.Flask.create_url_adapter`
and by the app's, and the two adapters must agree in every attribute werkzeug gives them.
"""

from __future__ import annotations

import pytest
from flask import Flask
from werkzeug.exceptions import BadHost
from werkzeug.test import EnvironBuilder

from web_api import create_app
from web_api.flask_app import ServiceFlask

ADAPTER_FIELDS = ("server_name", "script_name", "subdomain", "url_scheme", "path_info", "default_method",
                  "query_args", "websocket")

CASES = [
    {"path": "/v1/adjudicate", "method": "POST"},
    {"path": "/v1/variants", "headers": {"Host": "Example.ORG:80"}},
    {"path": "/v1/variants", "headers": {"Host": "example.org:8080"}},
    {"path": "/v1/variants", "base_url": "https://example.org:443/"},
    {"path": "/v1/variants", "base_url": "https://example.org:8443/"},
    {"path": "/v1/variants", "headers": {"Host": "[::1]:8000"}},
    {"path": "/v1/variants", "headers": {"Host": "bücher.example"}},  # IDNA
    {"path": "/v1/variants", "headers": {"Host": "bad host\u00ff"}},  # characters a host cannot have
    {"path": "/v1/variants", "headers": {"Host": ""}},
    {"path": "/v1/variants", "headers": {"Host": "a" * 64 + ".example"}},  # a label IDNA refuses: BadHost
    {"path": "/v1/variants", "query_string": "lang=sv&words=none"},
    {"path": "/web/sk\u00e4rm", "headers": {"Host": "127.0.0.1"}},  # a non-ASCII path, as WSGI carries it
    {"path": "/v1/rules", "base_url": "http://localhost/prefix/"},  # an app mounted below a script name
    {"path": "/v1/rules", "headers": {"Connection": "keep-alive, Upgrade", "Upgrade": "websocket"}},
]


def _environ(case: dict) -> dict:
    return EnvironBuilder(**case).get_environ()


def _without_host_header(environ: dict) -> dict:
    environ = dict(environ)
    environ.pop("HTTP_HOST", None)
    return environ


def _adapter_or_error(app: Flask, environ: dict):
    request = app.request_class(environ)
    try:
        adapter = app.create_url_adapter(request)
    except BadHost as e:
        return ("BadHost", e.code), request.__dict__.get("host")
    return tuple(getattr(adapter, f) for f in ADAPTER_FIELDS), request.host


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c['path']} {c.get('headers') or c.get('base_url') or ''}")
@pytest.mark.parametrize("host_header", [True, False], ids=["Host", "no Host"])
def test_url_adapter_is_flasks(case, host_header):
    flask_app, service_app = Flask(__name__), ServiceFlask(__name__)
    environ = _environ(case) if host_header else _without_host_header(_environ(case))
    expected = _adapter_or_error(flask_app, dict(environ))
    assert _adapter_or_error(service_app, dict(environ)) == expected
    assert _adapter_or_error(service_app, dict(environ)) == expected  # again, from what was worked out once


def test_unix_socket_server_gives_flasks_host():
    environ = _without_host_header(_environ({"path": "/healthz"}))
    environ.update(SERVER_NAME="/run/referee.sock", SERVER_PORT="")
    assert _adapter_or_error(ServiceFlask(__name__), dict(environ)) == _adapter_or_error(Flask(__name__), dict(environ))


@pytest.mark.parametrize("setting", [{"SERVER_NAME": "referee.example"}, {"TRUSTED_HOSTS": ["referee.example"]}])
def test_host_settings_take_flasks_own_way(setting):
    """Where the host decides routing or is checked, Flask works it out itself, as it would."""
    environ = _environ({"path": "/v1/rules", "headers": {"Host": "other.example"}})
    flask_app, service_app = Flask(__name__), ServiceFlask(__name__)
    flask_app.config.update(setting)
    service_app.config.update(setting)
    flask_result = flask_app.request_context(dict(environ)).request.routing_exception
    service_result = service_app.request_context(dict(environ)).request.routing_exception
    assert type(service_result) is type(flask_result)


def test_routing_still_matches_through_the_adapter():
    client = create_app({"TESTING": True}).test_client()
    assert client.get("/v1/rules", headers={"Host": "Referee.Example:80"}).status_code == 200
    missing = client.get("/v1/nowhere")
    assert missing.status_code == 404 and missing.content_type == "application/problem+json"


def test_ensure_sync_returns_plain_functions_as_they_are_and_remembers():
    app = ServiceFlask(__name__)

    def view():
        return "x"

    assert app.ensure_sync(view) is view
    assert app.ensure_sync(view) is view
    assert view in app._synced


def test_ensure_sync_still_wraps_coroutines(monkeypatch):
    """An ``async def`` goes through ``async_to_sync`` as in Flask, on every call after the first too."""
    app = ServiceFlask(__name__)
    wrapped = []

    def fake_async_to_sync(func):
        def run(*args, **kwargs):  # the coroutine driven by hand: another test's event loop may be running
            coroutine = func(*args, **kwargs)
            try:
                coroutine.send(None)
            except StopIteration as done:
                return done.value
            raise AssertionError("the view awaited something")
        wrapped.append(func)
        return run

    monkeypatch.setattr(app, "async_to_sync", fake_async_to_sync)

    async def view():
        return "from a coroutine"

    first, second = app.ensure_sync(view), app.ensure_sync(view)
    assert first is second and first is not view
    assert first() == "from a coroutine"
    assert wrapped == [view]


def test_unhashable_callables_are_asked_each_time():
    class Unhashable:
        __hash__ = None

        def __call__(self):
            return 1

    app = ServiceFlask(__name__)
    func = Unhashable()
    assert app.ensure_sync(func) is func
    assert not app._synced


def test_the_app_is_the_service_flask():
    assert isinstance(create_app({"TESTING": True}), ServiceFlask)

