"""The app's Flask class: Flask, with what it works out again on every request worked out once.

A bare Flask request costs about 50 µs of the interpreter's time before a view does anything;
two of Flask's steps redo, on every request, work whose answer cannot change:

* :meth:`~flask.Flask.ensure_sync` is asked about every function Flask calls for a request (each
  hook, the view, the signals' receivers) and inspects the function's code flags each time to see
  whether it is a coroutine. A function does not become one later, so the answer is kept per
  function: the same functions are called, wrapped exactly as Flask wraps them (an ``async def``
  still goes through :meth:`~flask.Flask.async_to_sync`).
* :meth:`~flask.Flask.create_url_adapter` works out the request's host twice (werkzeug's
  ``get_host``, once in Flask and once in ``Map.bind_to_environ``), then lower-cases it and runs
  it through the IDNA codec. Those depend only on the scheme, the ``Host`` header and the
  server's name and port, of which a service sees a handful of forms, so they are worked out
  once per form; the adapter is then made with werkzeug's own :class:`~werkzeug.routing.MapAdapter`,
  from the same values ``bind_to_environ`` passes it. Where the app routes by host or
  subdomain, trusts only some hosts, or names its server, and for a WebSocket upgrade, Flask's
  own way is taken. ``tests/test_flask_app.py`` holds the two ways equal, attribute by attribute,
  over hosts, ports, IPv6, IDNA, bad hosts, script names and non-ASCII paths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask, Request
from werkzeug.routing import MapAdapter
from werkzeug.wsgi import get_host

_SYNC_MAX = 1024  # functions remembered; the app registers a few dozen, so this never fills in practice
_HOSTS_MAX = 256  # forms of the host remembered; a flood of new ones only clears the table


def _wsgi_string(environ: dict, name: str) -> str | None:
    """A WSGI string as werkzeug's routing reads it (latin-1 bytes as UTF-8), None when absent."""
    value = environ.get(name)
    if value is None or value.isascii():
        return value
    return value.encode("latin1").decode(errors="replace")


class ServiceFlask(Flask):
    """:class:`flask.Flask` with :meth:`ensure_sync` and the host of :meth:`create_url_adapter` worked out once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._synced: dict[Callable[..., Any], Callable[..., Any]] = {}
        self._hosts: dict[tuple, tuple[str, str]] = {}

    def ensure_sync(self, func: Callable[..., Any]) -> Callable[..., Any]:
        """Flask's answer for ``func`` (itself, or its ``async_to_sync`` wrapper), worked out on first use."""
        synced = self._synced
        try:
            return synced[func]
        except KeyError:
            pass
        except TypeError:  # an unhashable callable: ask each time, as Flask does
            return super().ensure_sync(func)
        made = super().ensure_sync(func)
        if len(synced) < _SYNC_MAX:
            synced[func] = made
        return made

    def _plain_routing(self) -> bool:
        """Whether routing ignores the host: no host or subdomain matching, no trusted hosts, no server name."""
        config = self.config
        return (config["TRUSTED_HOSTS"] is None and config["SERVER_NAME"] is None and not self.subdomain_matching
                and not self.url_map.host_matching and not self.url_map.default_subdomain)

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        """Flask's adapter for ``request``, with the host's forms worked out once (see the module's docstring)."""
        if request is None or request.trusted_hosts is not None or not self._plain_routing():
            return super().create_url_adapter(request)
        environ = request.environ
        connection = environ.get("HTTP_CONNECTION")
        if connection and "upgrade" in connection.lower():
            return super().create_url_adapter(request)  # a WebSocket's scheme is ws or wss: werkzeug's way
        scheme = environ["wsgi.url_scheme"]
        key = (scheme, environ.get("HTTP_HOST"), environ.get("SERVER_NAME"), environ.get("SERVER_PORT"))
        hit = self._hosts.get(key)
        if hit is None:
            host = get_host(environ)
            name, sep, port = host.lower().partition(":")
            try:
                name = name.encode("idna").decode("ascii")
            except UnicodeError:
                return super().create_url_adapter(request)  # werkzeug's BadHost, as Flask raises it
            if len(self._hosts) >= _HOSTS_MAX:
                self._hosts.clear()
            hit = self._hosts[key] = (host, f"{name}{sep}{port}")
        request.host = hit[0]  # as Flask sets it
        script_name = _wsgi_string(environ, "SCRIPT_NAME")
        path_info = _wsgi_string(environ, "PATH_INFO")
        return MapAdapter(self.url_map, hit[1], "/" if script_name is None else script_name, "", scheme,
                          "/" if path_info is None else path_info, environ["REQUEST_METHOD"],
                          _wsgi_string(environ, "QUERY_STRING"))
