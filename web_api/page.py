"""The phone page: ``/`` serves ``web/index.html`` and ``/web/<file>`` the page's static files.

The page (``web/``) is plain HTML, CSS and JavaScript with no build step, nothing
fetched from another host and no inline scripts or styles, so it runs under a
``default-src 'self'`` Content-Security-Policy (set in :mod:`web_api.security`).

What this module adds on the way out, so a phone on a slow link loads little:

* **One script instead of twenty.** The page is ES modules (``web/*.js``, each importing what it
  uses; ``web/boot.js`` is the entry). ``index.html`` names the entry between
  ``<!-- bundle app.js -->`` and ``<!-- /bundle -->``; it is served as one module script holding
  the whole import graph (:func:`bundle_modules`), because on a 400 ms round trip every wave of
  module requests costs a visible pause. Each module keeps its own scope (a block), its imports
  become reads of the modules before it, so the page still has no global name. The modules
  themselves stay servable as they are, for reading and debugging.
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
* **The offline engine** (when ``scripts/install-engine-runtime`` has put it in
  ``phone_engine/build/``): Pyodide's core and the project's archive, served from
  ``/web/engine/<version>/<file>`` (the version is a hash of all of them: ``immutable``), each
  in the smaller of its precompressed forms the browser accepts. The page learns the version,
  the files' sizes and their bytes on the wire (to say how long keeping them takes) from a
  ``<meta name="engine">`` this module adds to ``index.html``;
  without the engine there is no such meta, and the page says it rules online only.
"""

from __future__ import annotations

import hashlib
import html as html_escape
import json
import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request
from werkzeug.wsgi import wrap_file

from . import compression
from .caching import REVALIDATE

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
ENGINE_DIR = Path(__file__).resolve().parent.parent / "phone_engine" / "build"
ENGINE_FILES = ("pyodide.mjs", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
                "referee.zip")
IMMUTABLE = "public, max-age=31536000, immutable"
SERVICE_WORKER = "sw.js"
ENGINE_WORKER = "engine-worker.js"  # the offline engine's Web Worker: served and kept with the engine
# Loaded only when asked (a Send: web/sending.js), so not fetched on install; the worker keeps them once used.
LAZY = ("share.js", "vendor/uqr/index.mjs", "vendor/uqr/LICENSE")
PAGE_LEVEL = {"br": 11, "gzip": 9}  # the page's files are few and fixed: compressed once, as small as can be

_BUNDLE = re.compile(r"<!-- bundle (\S+) -->(.*?)<!-- /bundle -->", re.S)
_SCRIPT = re.compile(r'<script type="module" src="/web/([^"]+)"></script>')
_IMPORT = re.compile(r"^import\s+(?:\{([^}]*)\}|(\w+))\s+from\s+'(\./[^']+)';[ \t]*$", re.M)
_EXPORT_DECL = re.compile(r"^export\s+((?:async\s+)?function\*?|const|class)\s+(\w+)", re.M)
_EXPORT_LIST = re.compile(r"^export\s+\{([^}]*)\};[ \t]*$", re.M)
_EXPORT_DEFAULT = re.compile(r"^export\s+default\s+", re.M)
_REF = re.compile(r'((?:src|href|content)=")/web/([^"#?]+)(")')
_HASHED = re.compile(r"^(?P<stem>.+)\.(?P<hash>[0-9a-f]{10})\.(?P<ext>[a-z0-9]+)$")
_TYPES = {"js": "text/javascript", "mjs": "text/javascript", "wasm": "application/wasm", "zip": "application/zip",
          "css": "text/css", "svg": "image/svg+xml", "html": "text/html",
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
    engine: str = ""  # the offline engine's version ("" when it is not installed)
    engine_sizes: dict[str, int] = field(default_factory=dict)  # its files' sizes, for the page's progress bar
    engine_wire: dict[str, int] = field(default_factory=dict)  # its bytes on the wire, brotli and gzip: the page's estimate
    bundled: list[str] = field(default_factory=list)  # the modules the bundle holds (not cached on their own)

    def tag(self, data: bytes) -> str:
        hit = self.tags.get(id(data))
        if hit is None:
            hit = self.tags[id(data)] = _digest(data, 20)
        return hit


def engine_dir() -> Path:
    return Path(os.environ.get("CANASTA_ENGINE_DIR") or ENGINE_DIR)


def _engine_stamp() -> tuple:
    """The engine's files as (name, mtime, size), or () when any is missing (not installed)."""
    out = []
    for name in ENGINE_FILES:
        try:
            st = (engine_dir() / name).stat()
        except OSError:
            return ()
        out.append((name, st.st_mtime_ns, st.st_size))
    return tuple(out)


def _stamp() -> tuple:
    files = []
    for p in WEB_DIR.rglob("*"):
        st = p.stat()
        if stat.S_ISREG(st.st_mode):
            files.append((str(p.relative_to(WEB_DIR)), st.st_mtime_ns, st.st_size))
    return (tuple(sorted(files)), _engine_stamp())


def _engine_version(engine: tuple, worker_script: bytes) -> str:
    """A hash of the engine's bytes and its worker's script: the same in every process and on every machine."""
    h = hashlib.sha256(worker_script)
    for name, _, _ in engine:
        with open(engine_dir() / name, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
    return h.hexdigest()[:12]


class ModuleError(ValueError):
    """A page module the bundler cannot take (a form of import or export it does not know, a cycle)."""


def _module_var(name: str) -> str:
    return "__" + re.sub(r"\W", "_", name)


def _module_parts(name: str, text: str) -> tuple[list[str], str]:
    """A module's dependencies, and its body with imports read from them and exports collected."""
    folder = name.rpartition("/")[0]
    deps: list[str] = []

    def resolve(spec: str) -> str:
        parts = [p for p in (folder.split("/") if folder else []) + spec.split("/") if p not in ("", ".")]
        return "/".join(parts)

    def imported(m: re.Match) -> str:
        dep = resolve(m.group(3))
        deps.append(dep)
        if m.group(2):
            return f"const {m.group(2)} = {_module_var(dep)}.default;"
        names = ", ".join(f"{a.strip()}: {b.strip()}" if " as " in n else n.strip()
                          for n in m.group(1).split(",") if n.strip() for a, _, b in [n.partition(" as ")])
        return f"const {{ {names} }} = {_module_var(dep)};"

    body = _IMPORT.sub(imported, text)
    exported: list[str] = [m.group(2) for m in _EXPORT_DECL.finditer(body)]
    body = _EXPORT_DECL.sub(lambda m: f"{m.group(1)} {m.group(2)}", body)

    def listed(m: re.Match) -> str:
        for n in m.group(1).split(","):
            local, _, public = n.strip().partition(" as ")
            if local:
                exported.append(f"{public}: {local}" if public else local)
        return ""

    body = _EXPORT_LIST.sub(listed, body)
    if _EXPORT_DEFAULT.search(body):
        body = _EXPORT_DEFAULT.sub("const __default = ", body, count=1)
        exported.append("default: __default")
    if re.search(r"^\s*(import|export)\b", body, re.M):
        raise ModuleError(f"web/{name}: an import or export the page's bundler does not know")
    return deps, f"{body.rstrip()}\nObject.assign({_module_var(name)}, {{ {', '.join(exported)} }});\n"


def without_comments(text: str) -> str:
    """The module without its comment lines: a line that is only a ``//`` comment, and a ``/* ... */`` that
    begins and ends lines of its own. The sources keep their comments (they say why); the phone is sent
    the code (about an eighth of the bundle as sent). Lines inside a template literal (an odd count of
    backticks before them) are kept as written, and so is a comment with code before it on its line."""
    out: list[str] = []
    in_template = False
    in_block = False
    for line in text.splitlines(keepends=True):
        bare = line.strip()
        if in_block:
            if "*/" in line:
                in_block = False
                rest = line[line.index("*/") + 2:]
                if rest.strip():
                    out.append(rest)  # code after the comment's end stays
            continue
        if not in_template:
            if bare.startswith("//"):
                continue
            if bare.startswith("/*"):
                if "*/" not in bare:
                    in_block = True
                    continue
                if bare.endswith("*/") and bare.index("*/") == len(bare) - 2:
                    continue
        out.append(line)
        if line.count("`") % 2:
            in_template = not in_template
    return "".join(out)


def bundle_modules(entry: str, files: dict[str, bytes]) -> tuple[bytes, list[str]]:
    """The import graph from ``entry`` as one module script, dependencies first; and the modules in it.

    Imports run one way (a cycle is refused): each module runs once, after what it imports, in its
    own block, so its names stay its own; ``export let`` (a binding that changes) is not allowed.
    """
    order: list[str] = []
    parts: dict[str, str] = {}
    visiting: set[str] = set()

    def visit(name: str, chain: tuple) -> None:
        if name in parts:
            return
        if name in visiting:
            raise ModuleError("web/ modules import each other in a circle: " + " -> ".join(chain + (name,)))
        if name not in files:
            raise ModuleError(f"web/{chain[-1] if chain else name} imports web/{name}, which does not exist")
        visiting.add(name)
        deps, body = _module_parts(name, without_comments(files[name].decode("utf-8")))
        for dep in deps:
            visit(dep, chain + (name,))
        visiting.discard(name)
        parts[name] = body
        order.append(name)

    visit(entry, ())
    out = ["const " + ", ".join(f"{_module_var(n)} = {{}}" for n in order) + ";\n"]
    out += [f"/* web/{n} */\n{{\n{parts[n]}}}\n" for n in order]
    return "".join(out).encode("utf-8"), order


def _build(stamp: tuple) -> Assets:
    assets = Assets(stamp)
    web, engine = stamp
    for name, _, _ in web:
        assets.files[name] = (WEB_DIR / name).read_bytes()
    html = assets.files["index.html"].decode("utf-8")
    worker_script = assets.files.get(ENGINE_WORKER, b"")
    if engine:
        assets.engine = _engine_version(engine, worker_script)
        assets.engine_sizes = {name: size for name, _, size in engine} | {ENGINE_WORKER: len(worker_script)}
        assets.engine_wire = {coding: sum(_sent_size(name, size, suffix) for name, _, size in engine)
                              + len(compression.remembered(assets.tag(worker_script), worker_script, coding, PAGE_LEVEL[coding]))
                              for coding, suffix in (("br", "br"), ("gzip", "gz")) if coding in PAGE_LEVEL}
        html = html.replace("</head>", _engine_meta(assets) + "\n</head>", 1)

    def bundle(match: re.Match) -> str:
        target, block = match.group(1), match.group(2)
        entries = _SCRIPT.findall(block)
        if len(entries) != 1:
            raise ModuleError(f"index.html: the {target} bundle names {len(entries)} entry modules, not one")
        assets.files[target], assets.bundled = bundle_modules(entries[0], assets.files)
        return f'<script type="module" src="/web/{target}"></script>'

    html = _BUNDLE.sub(bundle, html)
    worker = assets.files.pop(SERVICE_WORKER, b"").decode("utf-8")
    for name, data in assets.files.items():
        if name != "index.html":
            assets.hashed[name] = _hashed_name(name, data)
    html = _REF.sub(lambda m: f"{m.group(1)}/web/{assets.hashed.get(m.group(2), m.group(2))}{m.group(3)}", html)
    assets.index = html.encode("utf-8")
    assets.worker_template = worker
    return assets


def _sent_size(name: str, size: int, suffix: str) -> int:
    """An engine file's bytes as sent in one encoding: its precompressed form's, else its own (as _engine_file sends)."""
    try:
        return (engine_dir() / f"{name}.{suffix}").stat().st_size
    except OSError:
        return size


def _engine_meta(a: Assets) -> str:
    about = {"base": f"/web/engine/{a.engine}/", "version": a.engine, "sizes": a.engine_sizes, "wire": a.engine_wire}
    return f'<meta name="engine" content="{html_escape.escape(json.dumps(about, separators=(",", ":")))}">'


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
    """What the worker stores on install: the page and every file it may load (not the bundled modules).

    Nor the offline engine's worker script: it is served and kept with the engine (web/engine.js), so
    a first visit does not carry it, nor a server without the engine.
    """
    bundled = set(a.bundled)
    keep = [n for n in a.hashed if n not in bundled and n not in ("index.html", ENGINE_WORKER) and n not in LAZY]
    return ["/"] + sorted(f"/web/{a.hashed[n]}" for n in keep)


def _worker(a: Assets) -> bytes:
    if a.worker is None:
        a.worker = _render_worker(a)
    return a.worker


def _render_worker(a: Assets) -> bytes:
    shell = _shell(a)
    version = _digest("\n".join(shell + [_data_version(), a.engine]).encode(), 12)
    text = (a.worker_template
            .replace("'__VERSION__'", json.dumps(version))
            .replace("'__DATA_VERSION__'", json.dumps(_data_version()))
            .replace("'__ENGINE__'", json.dumps(a.engine))
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


def _engine_file(a: Assets, version: str, name: str) -> Response:
    """One file of the offline engine, in the smallest form the browser accepts (precompressed at set-up).

    Its worker's script (web/engine-worker.js) is one of them: the engine's version covers its bytes,
    as the script and the files it starts belong together.
    """
    if not a.engine or version != a.engine or name not in a.engine_sizes:
        abort(404)
    if name == ENGINE_WORKER:
        return _send(a, a.files[ENGINE_WORKER], "text/javascript", IMMUTABLE, etag=False)
    path = engine_dir() / name
    coding = compression.choose_coding(request.accept_encodings)
    if coding and (engine_dir() / f"{name}.{'br' if coding == 'br' else 'gz'}").is_file():
        path = engine_dir() / f"{name}.{'br' if coding == 'br' else 'gz'}"
    else:
        coding = None
    fh = open(path, "rb")  # closed by the WSGI server with the response
    response = Response(wrap_file(request.environ, fh), mimetype=_type_of(name), direct_passthrough=True)
    response.content_length = path.stat().st_size
    response.headers["Cache-Control"] = IMMUTABLE
    response.vary.add("Accept-Encoding")
    if coding:
        response.headers["Content-Encoding"] = coding
    return response


@bp.get("/web/<path:name>")
def web_file(name: str) -> Response:
    a = assets()
    parts = name.split("/")
    if len(parts) == 3 and parts[0] == "engine":
        return _engine_file(a, parts[1], parts[2])
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
