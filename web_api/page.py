"""The phone page: ``/`` serves ``web/index.html`` and ``/web/<file>`` the page's static files.

The page (``web/``) is plain HTML, CSS and JavaScript with no build step, nothing
fetched from another host and no inline scripts or styles, so it runs under a
``default-src 'self'`` Content-Security-Policy (set in :mod:`web_api.security`).

What this module adds on the way out, so a phone on a slow link loads little:

* **One script instead of twenty.** ``index.html`` lists the page's small modules
  between ``<!-- bundle app.js -->`` and ``<!-- /bundle -->``; they are served
  joined, in that order, as one file. On a 400 ms round trip every extra wave of
  requests costs a visible pause (browsers open six connections per host).
* **Versioned URLs.** Every ``/web/`` reference in the page becomes
  ``/web/<stem>.<hash>.<ext>``, where the hash is of the content. Those URLs never
  change meaning, so they are ``public, max-age=31536000, immutable``. A hash that
  is not the current one is a 404 (the service worker keeps whole versions).
  ``/`` and the plain ``/web/<file>`` names stay ``no-cache`` with an ETag, one per encoding
  (identity, gzip and br bodies each have their own, so a revalidation never mixes them up).
* **Compression.** The page's own files are compressed once per content, at the highest level
  (brotli 11 when the ``brotli`` package is installed and the browser accepts it, else gzip 9;
  :mod:`web_api.compression` chooses and remembers),
  so the service's general compression (which leaves encoded answers alone) has nothing to redo.
* **The service worker** is ``/web/sw.js``: a page path, so it runs under the page's
  CSP (a worker is governed by the CSP of its own script response, and the API's
  ``default-src 'none'`` would block its fetches). ``Service-Worker-Allowed: /`` lets
  it control ``/``. Its text carries the list of versioned files and a version that
  changes with them and with the service's rule data, so a deploy with new files
  or new variants installs a new worker, which caches afresh and drops the old caches.
"""

from __future__ import annotations

import hashlib
import json
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request

from . import compression
from .caching import REVALIDATE

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
IMMUTABLE = "public, max-age=31536000, immutable"
SERVICE_WORKER = "sw.js"
PAGE_LEVEL = {"br": 11, "gzip": 9}  # the page's files are few and fixed: compressed once, as small as can be

_BUNDLE = re.compile(r"<!-- bundle (\S+) -->(.*?)<!-- /bundle -->", re.S)
_SCRIPT = re.compile(r'<script src="/web/([^"]+)" defer></script>')
_REF = re.compile(r'((?:src|href|content)=")/web/([^"#?]+)(")')
_HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{10})\.(?P<ext>[a-z0-9]+)$")
_TYPES = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml", "html": "text/html",
          "json": "application/json", "webmanifest": "application/manifest+json", "png": "image/png"}

bp = Blueprint("page", __name__)


def _digest(data: bytes, n: int = 10) -> str:
    return hashlib.sha256(data).hexdigest()[:n]


def _hashed_name(name: str, data: bytes) -> str:
    stem, dot, ext = name.rpartition(".")
    return f"{stem}.{_digest(data)}.{ext}" if dot else f"{name}.{_digest(data)}"


@dataclass
class Assets:
    """The page's files as served: bundles joined, names versioned, index and worker rendered."""

    stamp: tuple
    files: dict[str, bytes] = field(default_factory=dict)  # name (relative to web/) -> bytes as served
    hashed: dict[str, str] = field(default_factory=dict)  # name -> versioned name
    index: bytes = b""
    worker_template: str = ""
    tags: dict[int, str] = field(default_factory=dict)  # id(body) -> its ETag: each body hashed once
    worker: bytes | None = None  # rendered on first request (it needs the app's rule data)

    def tag(self, data: bytes) -> str:
        hit = self.tags.get(id(data))
        if hit is None:
            hit = self.tags[id(data)] = _digest(data, 20)
        return hit


def _stamp() -> tuple:
    files = []
    for p in WEB_DIR.rglob("*"):
        st = p.stat()
        if stat.S_ISREG(st.st_mode):
            files.append((str(p.relative_to(WEB_DIR)), st.st_mtime_ns, st.st_size))
    return tuple(sorted(files))


def _build(stamp: tuple) -> Assets:
    assets = Assets(stamp)
    for name, _, _ in stamp:
        assets.files[name] = (WEB_DIR / name).read_bytes()
    html = assets.files["index.html"].decode("utf-8")

    def bundle(match: re.Match) -> str:
        target, block = match.group(1), match.group(2)
        parts = []
        for src in _SCRIPT.findall(block):
            # Each module is an IIFE ending in a newline; the comment names it for a stack trace reader.
            parts.append(f"/* web/{src} */\n".encode() + assets.files[src].rstrip(b"\n") + b"\n")
        assets.files[target] = b"".join(parts)
        return f'<script src="/web/{target}" defer></script>'

    html = _BUNDLE.sub(bundle, html)
    worker = assets.files.pop(SERVICE_WORKER, b"").decode("utf-8")
    for name, data in assets.files.items():
        if name != "index.html":
            assets.hashed[name] = _hashed_name(name, data)
    html = _REF.sub(lambda m: f"{m.group(1)}/web/{assets.hashed.get(m.group(2), m.group(2))}{m.group(3)}", html)
    assets.index = html.encode("utf-8")
    assets.worker_template = worker
    return assets


def assets() -> Assets:
    """The current assets, rebuilt when a file in web/ changes (one stat per file)."""
    stamp = _stamp()
    key = "canasta.page_assets"
    cached = current_app.extensions.get(key)
    if cached is None or cached.stamp != stamp:
        cached = _build(stamp)
        current_app.extensions[key] = cached
    return cached


def _data_version() -> str:
    """A fingerprint of the rule data the worker caches (/v1/variants and /v1/matrix as served).

    Worked out once per process from the API's own answers, so it follows whatever
    the service serves; a new variant file or catalogue change means a new worker.
    """
    key = "canasta.page_data_version"
    if key not in current_app.extensions:
        client = current_app.test_client()
        parts = [client.get(path).get_data() for path in ("/v1/variants", "/v1/matrix")]
        current_app.extensions[key] = _digest(b"\0".join(parts), 12)
    return current_app.extensions[key]


def _shell(a: Assets) -> list[str]:
    """What the worker stores on install: the page and every file it may load (not the bundled modules)."""
    bundled = set()
    for block in _BUNDLE.finditer(a.files["index.html"].decode("utf-8")):
        bundled.update(_SCRIPT.findall(block.group(2)))
    keep = [n for n in a.hashed if n not in bundled and n != "index.html"]
    return ["/"] + sorted(f"/web/{a.hashed[n]}" for n in keep)


def _worker(a: Assets) -> bytes:
    if a.worker is None:
        a.worker = _render_worker(a)
    return a.worker


def _render_worker(a: Assets) -> bytes:
    shell = _shell(a)
    version = _digest("\n".join(shell + [_data_version()]).encode(), 12)
    text = (a.worker_template
            .replace("'__VERSION__'", json.dumps(version))
            .replace("'__DATA_VERSION__'", json.dumps(_data_version()))
            .replace("['__SHELL__']", json.dumps(shell)))
    return text.encode("utf-8")


def _send(a: Assets, data: bytes, mimetype: str, cache: str, etag: bool) -> Response:
    response = Response(status=200, mimetype=mimetype)
    if mimetype.startswith("text/") or mimetype.endswith(("json", "+xml")):
        response.charset = "utf-8"
    response.headers["Cache-Control"] = cache
    response.vary.add("Accept-Encoding")
    tag = a.tag(data)
    coding = compression.choose_coding(request.accept_encodings) if len(data) > compression.MIN_SIZE else None
    if etag:
        # One ETag per encoding: the gzip and the brotli bodies are different bytes, and a cache
        # that revalidates one must not be told it holds the other (RFC 9110, 8.8.3).
        own = f"{tag}-{coding}" if coding else tag
        response.set_etag(own)
        if request.if_none_match.contains(own):
            response.status_code = 304
            return response
    if coding:
        response.set_data(compression.remembered(tag, data, coding, PAGE_LEVEL[coding]))
        response.headers["Content-Encoding"] = coding
    else:
        response.set_data(data)
    return response


def _type_of(name: str) -> str:
    return _TYPES.get(name.rpartition(".")[2], "application/octet-stream")


@bp.get("/")
def index() -> Response:
    a = assets()
    return _send(a, a.index, "text/html", REVALIDATE, etag=True)


@bp.get("/web/<path:name>")
def web_file(name: str) -> Response:
    a = assets()
    if name == SERVICE_WORKER:
        response = _send(a, _worker(a), "text/javascript", REVALIDATE, etag=True)
        response.headers["Service-Worker-Allowed"] = "/"
        return response
    match = _HASHED.match(name)
    if match:
        plain = f"{match['stem']}.{match['ext']}"
        if a.hashed.get(plain) != name:
            abort(404)  # an old version: the page that asked for it is itself out of date
        return _send(a, a.files[plain], _type_of(plain), IMMUTABLE, etag=False)
    if name == "index.html" or name not in a.files or ".." in name.split("/"):
        abort(404)
    return _send(a, a.files[name], _type_of(name), REVALIDATE, etag=True)
