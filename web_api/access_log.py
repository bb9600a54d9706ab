"""gunicorn's access log, with only the atoms the line names worked out (``logger_class`` in ``gunicorn.conf.py``).

For every request gunicorn's :class:`~gunicorn.glogging.Logger` builds a dictionary of all its
atoms -- nineteen of its own, one per request header, per response header and per WSGI environ
entry (some forty here, each name formatted and lower-cased) -- copies it into a
:class:`~gunicorn.glogging.SafeAtoms` that escapes every string, and then formats a line that
names seven of them: about 30 µs of a worker's time per request, some 5% of a ruling's whole
cost on the server. :class:`AccessLogger` hands the same line format a mapping that works out an
atom when the format asks for it, with gunicorn's own rules: the same values, ``"`` escaped in
strings, ``{name}i``/``{name}o``/``{name}e`` found case-insensitively (the last of repeated names
wins, as in gunicorn's dictionary), ``-`` for an atom that is not there. Any format gives the line
gunicorn would write; ``tests/test_access_log.py`` compares the two over every atom.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Iterator, Mapping
from datetime import timedelta
from typing import Any, Callable

from gunicorn.glogging import Logger


def _status(resp: Any) -> Any:
    status = resp.status
    return status.split(None, 1)[0] if isinstance(status, str) else status


def _sent(resp: Any) -> Any:
    return getattr(resp, "sent", None)


# gunicorn's own atoms (Logger.atoms), each from (logger, response, request, environ, request time)
_BASIC: dict[str, Callable[[Logger, Any, Any, dict, timedelta], Any]] = {
    "h": lambda log, resp, req, env, rt: env.get("REMOTE_ADDR", "-"),
    "l": lambda log, resp, req, env, rt: "-",
    "u": lambda log, resp, req, env, rt: log._get_user(env) or "-",
    "t": lambda log, resp, req, env, rt: log.now(),
    "r": lambda log, resp, req, env, rt: "%s %s %s" % (env["REQUEST_METHOD"], env["RAW_URI"], env["SERVER_PROTOCOL"]),
    "s": lambda log, resp, req, env, rt: _status(resp),
    "m": lambda log, resp, req, env, rt: env.get("REQUEST_METHOD"),
    "U": lambda log, resp, req, env, rt: env.get("PATH_INFO"),
    "q": lambda log, resp, req, env, rt: env.get("QUERY_STRING"),
    "H": lambda log, resp, req, env, rt: env.get("SERVER_PROTOCOL"),
    "b": lambda log, resp, req, env, rt: _sent(resp) is not None and str(resp.sent) or "-",
    "B": lambda log, resp, req, env, rt: _sent(resp),
    "f": lambda log, resp, req, env, rt: env.get("HTTP_REFERER", "-"),
    "a": lambda log, resp, req, env, rt: env.get("HTTP_USER_AGENT", "-"),
    "T": lambda log, resp, req, env, rt: rt.seconds,
    "D": lambda log, resp, req, env, rt: (rt.seconds * 1000000) + rt.microseconds,
    "M": lambda log, resp, req, env, rt: (rt.seconds * 1000) + int(rt.microseconds / 1000),
    "L": lambda log, resp, req, env, rt: "%d.%06d" % (rt.seconds, rt.microseconds),
    "p": lambda log, resp, req, env, rt: "<%s>" % os.getpid(),
}


def _pairs(headers: Any) -> Any:
    """Header pairs from a headers object or a list of pairs, as gunicorn reads them."""
    return headers.items() if hasattr(headers, "items") else headers


class LazyAtoms(Mapping):
    """The atoms of one access line, each worked out when the line's format names it (see the module)."""

    __slots__ = ("_log", "_resp", "_req", "_environ", "_time")

    def __init__(self, log: Logger, resp: Any, req: Any, environ: dict, request_time: timedelta) -> None:
        self._log, self._resp, self._req, self._environ, self._time = log, resp, req, environ, request_time

    def __getitem__(self, key: str) -> Any:
        if key.startswith("{"):
            value = self._named(key.lower())
        else:
            made = _BASIC.get(key)
            value = "-" if made is None else made(self._log, self._resp, self._req, self._environ, self._time)
        return value.replace('"', '\\"') if isinstance(value, str) else value

    def _named(self, key: str) -> Any:
        """A ``{name}i``, ``{name}o`` or ``{name}e`` atom: the last value whose lower-cased name matches."""
        if key.endswith("}i"):
            req = self._req
            pairs = _pairs(req.headers if hasattr(req, "headers") else req)
        elif key.endswith("}o"):
            pairs = _pairs(self._resp.headers)
        elif key.endswith("}e"):
            pairs = self._environ.items()
        else:
            return "-"
        name, found, value = key[1:-2], False, None
        for k, v in pairs:
            if k.lower() == name:
                found, value = True, v
        return value if found else "-"

    def __iter__(self) -> Iterator[str]:
        return iter(_BASIC)

    def __len__(self) -> int:
        return len(_BASIC)


class AccessLogger(Logger):
    """gunicorn's logger, with the access line's atoms worked out only as the format names them."""

    def access(self, resp: Any, req: Any, environ: dict, request_time: timedelta) -> None:
        if not self.access_log_enabled:
            return
        try:
            self.access_log.info(self.cfg.access_log_format, LazyAtoms(self, resp, req, environ, request_time))
        except Exception:  # noqa: BLE001 -- as gunicorn's own: a log line never fails a request
            self.error(traceback.format_exc())
