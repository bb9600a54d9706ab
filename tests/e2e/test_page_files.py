"""The page's files as served (web_api/page.py), and the rules they keep for a strict CSP.

They use the Flask test client and read web/ directly (the language packs are run in Chromium).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
IMMUTABLE = "public, max-age=31536000, immutable"


def refs(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/web/[^"]+)"', html)


def test_index_is_served_at_root_with_versioned_files(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    html = response.get_data(as_text=True)
    assert "<title>Canasta Referee</title>" in html
    files = refs(html)
    assert files, "the page loads no files"
    for url in files:
        assert re.search(r"\.[0-9a-f]{10}\.[a-z]+$", url), f"{url} carries no content hash"
    # The modules arrive as one module script (one request on a slow link), not twenty.
    assert len(re.findall(r'<script type="module" src="/web/app\.[0-9a-f]{10}\.js"></script>', html)) == 1, html
    assert len(re.findall(r"<script ", html)) == 1, html


def test_versioned_files_are_immutable_and_match_the_sources(client):
    html = client.get("/").get_data(as_text=True)
    for url in refs(html):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == IMMUTABLE, url
    bundle = next(u for u in refs(html) if u.endswith(".js"))
    body = client.get(bundle).get_data(as_text=True)
    for module in ("dom.js", "i18n/sv.js", "picker.js", "boot.js"):
        assert f"/* web/{module} */" in body, f"{module} is not in the bundle"


def test_a_stale_version_is_a_404_problem(client):
    response = client.get("/web/style.0123456789.css")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


def test_the_page_is_gzipped_when_the_browser_accepts_it(client):
    html = client.get("/").get_data(as_text=True)
    bundle = next(u for u in refs(html) if u.endswith(".js"))
    plain = client.get(bundle).get_data()
    packed = client.get(bundle, headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.get_data()) == plain
    assert len(packed.get_data()) < len(plain) / 3
    try:
        import brotli
    except ImportError:
        return  # brotli is optional: without it gzip is all there is
    smaller = client.get(bundle, headers={"Accept-Encoding": "gzip, br"})
    assert smaller.headers["Content-Encoding"] == "br"
    assert brotli.decompress(smaller.get_data()) == plain
    assert len(smaller.get_data()) < len(packed.get_data())


def test_unchanged_page_costs_a_304(client):
    first = client.get("/")
    again = client.get("/", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.get_data() == b""


@pytest.mark.parametrize("path", ["/", "/web/style.css", "/web/sw.js"])
def test_each_encoding_has_its_own_etag(client, path):
    """identity, gzip and br bodies are different bytes: each has its own strong ETag, each revalidates alone."""
    codings = ["identity", "gzip"]
    try:
        import brotli  # noqa: F401
        codings.append("br")
    except ImportError:
        pass
    tags = {}
    for coding in codings:
        first = client.get(path, headers={"Accept-Encoding": coding})
        assert first.headers.get("Content-Encoding", "identity") == coding, coding
        tags[coding] = first.headers["ETag"]
        assert not tags[coding].startswith("W/"), "a strong ETag: the bytes are exactly these"
        again = client.get(path, headers={"Accept-Encoding": coding, "If-None-Match": tags[coding]})
        assert again.status_code == 304, coding
    assert len(set(tags.values())) == len(codings), tags
    # A tag of one encoding does not revalidate another: the body is sent again, in the encoding asked for.
    crossed = client.get(path, headers={"Accept-Encoding": "gzip", "If-None-Match": tags["identity"]})
    assert crossed.status_code == 200 and crossed.headers["Content-Encoding"] == "gzip"


@pytest.mark.parametrize("name,mimetype", [("dom.js", "text/javascript"), ("style.css", "text/css"),
                                           ("icon.svg", "image/svg+xml"), ("i18n/da.js", "text/javascript")])
def test_plain_names_are_still_served_and_revalidated(client, name, mimetype):
    response = client.get(f"/web/{name}")
    assert response.status_code == 200
    assert response.mimetype == mimetype
    assert response.headers["Cache-Control"] == "no-cache"


def test_service_worker_controls_the_whole_page(client):
    response = client.get("/web/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    assert response.headers["Cache-Control"] == "no-cache"
    # It runs under the page's CSP (a worker is governed by its own script's CSP; the API's blocks fetch).
    assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")
    text = response.get_data(as_text=True)
    assert "__SHELL__" not in text and "__VERSION__" not in text and "__DATA_VERSION__" not in text
    shell = re.search(r"const SHELL = (\[.*?\]);", text).group(1)
    html = client.get("/").get_data(as_text=True)
    for url in refs(html):
        assert f'"{url}"' in shell, f"the worker does not keep {url}"


@pytest.mark.parametrize("path", ["/web/nope.js", "/web/../app.py", "/web/%2e%2e/app.py", "/web/", "/web/index.html"])
def test_missing_or_outside_files_are_404_problems(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


def test_every_file_the_page_loads_exists():
    html = (WEB / "index.html").read_text(encoding="utf-8")
    for ref in re.findall(r'(?:src|href|content)="/web/([^"]+)"', html):
        assert (WEB / ref).is_file(), ref


def test_no_inline_script_style_or_handler():
    """`default-src 'self'` forbids inline scripts, style attributes, inline handlers and eval."""
    html = (WEB / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline <script>"
    assert "<style" not in html, "an inline <style>"
    assert not re.search(r"\sstyle=", html), "a style attribute"
    assert not re.search(r"\son[a-z]+=", html, re.I), "an inline event handler"
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//", html), "a file from another host"
    for js in list(WEB.glob("*.js")) + list(WEB.glob("i18n/*.js")):
        code = js.read_text(encoding="utf-8")
        for pattern in (r"\beval\(", r"new Function\(", r"\.innerHTML\s*=", r"setAttribute\(\s*'style'",
                        r"setTimeout\(\s*['\"]", r"https?://(?!canasta-referee\.example)"):
            assert not re.search(pattern, code), f"{js.name}: {pattern}"


def test_every_language_has_every_string(ui_packs):
    p = ui_packs
    for lang in ("sv", "nb", "da"):
        assert set(p[lang]) == set(p["en"]), (lang, set(p["en"]) ^ set(p[lang]))
        same = [k for k, v in p[lang].items() if v == p["en"][k] and len(v) > 12]
        assert not same, f"{lang}: left in English: {same}"


def test_glossaries_exist_and_the_packs_use_their_words(ui_packs):
    """docs/glossary/<lang>.md names the word for each term; the page uses it."""
    p = ui_packs
    for lang in ("sv", "nb", "da"):
        path = WEB.parent / "docs" / "glossary" / f"{lang}.md"
        assert path.is_file(), f"{path} is missing"
        text = " ".join(p[lang].values()).lower()
        rows = re.findall(r"^\| ([a-z][^|]+?) \| \*\*([^*]+)\*\*", path.read_text(encoding="utf-8"), re.M)
        assert len(rows) >= 15, f"{path}: too few terms"
        for term, word in rows:
            assert word.lower() in text, f"{lang}: the glossary says {term!r} is {word!r}, but the page never uses it"


def test_glossary_quotes_are_verbatim_from_the_rule_texts():
    sources = WEB.parent / "variants" / "sources"
    for lang in ("sv", "nb", "da"):
        path = WEB.parent / "docs" / "glossary" / f"{lang}.md"
        rows = re.findall(r"^\| [a-z][^|]+\| [^|]+\| ([a-z-]+) \| “(.+)” \|$", path.read_text(encoding="utf-8"), re.M)
        assert len(rows) >= 15, path
        for variant, quote in rows:
            text = (sources / f"{variant}.txt").read_text(encoding="utf-8")
            assert quote in text, f"{path.name}: not in {variant}: {quote!r}"


def test_the_worker_changes_when_the_services_variants_change(tmp_path):
    """A new variant set means a new worker version, so phones drop the old rule data."""
    import shutil

    from web_api import create_app

    source = WEB.parent / "variants"
    shutil.copytree(source, tmp_path / "variants")
    (tmp_path / "variants" / "sv-gamerules.yaml").unlink()  # one variant fewer
    worker = {}
    for name, folder in (("all", source), ("fewer", tmp_path / "variants")):
        client = create_app({"TESTING": True, "VARIANTS_DIR": str(folder)}).test_client()
        text = client.get("/web/sw.js").get_data(as_text=True)
        worker[name] = re.search(r"const DATA_VERSION = \"([0-9a-f]+)\";", text).group(1)
    assert worker["all"] != worker["fewer"]
    again = create_app({"TESTING": True, "VARIANTS_DIR": str(source)}).test_client().get("/web/sw.js").get_data(as_text=True)
    assert f'const DATA_VERSION = "{worker["all"]}";' in again  # the same data, the same version


def test_the_engine_is_served_versioned_compressed_and_announced(client):
    """With the runtime installed (scripts/install-engine-runtime), the page learns where it is and how big."""
    import json
    from html import unescape

    from web_api.page import ENGINE_FILES, engine_dir

    if not all((engine_dir() / n).is_file() for n in ENGINE_FILES):
        pytest.fail("the offline engine is not installed: run `bash scripts/install-engine-runtime .venv/bin/python`",
                    pytrace=False)
    html = client.get("/").get_data(as_text=True)
    about = json.loads(unescape(re.search(r'<meta name="engine" content="([^"]+)">', html).group(1)))
    assert set(about["sizes"]) == set(ENGINE_FILES) | {"engine-worker.js"}  # the worker's script is kept with it
    wasm = client.get(about["base"] + "pyodide.asm.wasm", headers={"Accept-Encoding": "gzip, br"})
    assert wasm.status_code == 200 and wasm.mimetype == "application/wasm"
    assert wasm.headers["Cache-Control"] == IMMUTABLE
    assert wasm.headers.get("Content-Encoding") in ("br", "gzip")
    assert int(wasm.headers["Content-Length"]) < about["sizes"]["pyodide.asm.wasm"] / 2
    plain = client.get(about["base"] + "referee.zip")
    assert plain.mimetype == "application/zip" and len(plain.get_data()) == about["sizes"]["referee.zip"]
    assert client.get(about["base"] + "pyodide.mjs").mimetype == "text/javascript"
    assert client.get("/web/engine/0123456789ab/referee.zip").status_code == 404  # another version
    assert client.get(about["base"] + "package.json").status_code == 404  # only the engine's own files
    # The worker's script is one of the engine's files: the page starts it from the engine's versioned
    # path and keeps it in the engine's cache, so a new engine never runs an old script, nor the reverse.
    script = client.get(about["base"] + "engine-worker.js")
    assert script.status_code == 200 and script.mimetype == "text/javascript"
    assert script.headers["Cache-Control"] == IMMUTABLE
    assert script.get_data() == (WEB / "engine-worker.js").read_bytes()
    assert len(script.get_data()) == about["sizes"]["engine-worker.js"]
    assert "engine-worker" not in client.get("/web/sw.js").get_data(as_text=True)  # not in the first visit's shell
    # WebAssembly may be compiled by the page's worker; nothing else is loosened.
    csp = client.get("/").headers["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval';" in csp and "unsafe-eval'" not in csp.replace("'wasm-unsafe-eval'", "")


def test_the_engines_version_covers_its_worker_script():
    """A changed worker script is a new engine version: new URLs and a new cache, never the old script."""
    from web_api.page import ENGINE_FILES, _engine_stamp, _engine_version, engine_dir

    if not all((engine_dir() / n).is_file() for n in ENGINE_FILES):
        pytest.fail("the offline engine is not installed: run `bash scripts/install-engine-runtime .venv/bin/python`",
                    pytrace=False)
    script = (WEB / "engine-worker.js").read_bytes()
    engine = _engine_stamp()
    assert _engine_version(engine, script) == _engine_version(engine, script)
    assert _engine_version(engine, script + b"\n") != _engine_version(engine, script)


def test_without_the_engine_the_page_has_no_engine_meta(client, monkeypatch, tmp_path):
    monkeypatch.setenv("CANASTA_ENGINE_DIR", str(tmp_path))
    html = client.get("/").get_data(as_text=True)
    assert 'name="engine"' not in html
    assert client.get("/web/engine/0123456789ab/referee.zip").status_code == 404


def test_the_page_is_es_modules_with_imports_running_one_way():
    """Every page script is a module that imports what it uses; none writes a global; the graph has no cycle."""
    from web_api.page import ModuleError, bundle_modules

    files = {str(p.relative_to(WEB)): p.read_bytes() for p in WEB.rglob("*.js")}
    for name, data in files.items():
        text = data.decode("utf-8")
        assert "window.CanastaReferee" not in text and "(function () {" not in text, f"{name} is still a script"
        assert not re.search(r"^export\s+(let|var)\b", text, re.M), f"{name} exports a binding that changes"
    body, order = bundle_modules("boot.js", files)
    assert order[-1] == "boot.js" and {"settle.js", "score.js", "rules.js", "engine.js", "store.js"} <= set(order)
    for name in order:  # each module after what it imports
        for dep in re.findall(r"^import .* from '\./([^']+)';$", files[name].decode("utf-8"), re.M):
            target = str((Path(name).parent / dep)).lstrip("./") if "/" in name else dep
            assert order.index(target) < order.index(name), (name, dep)
    cyclic = {"a.js": b"import { b } from './b.js';\nexport const a = 1;\n",
              "b.js": b"import { a } from './a.js';\nexport const b = 2;\n"}
    with pytest.raises(ModuleError, match="circle"):
        bundle_modules("a.js", cyclic)


def test_the_bundle_is_sent_without_comment_lines_but_templates_keep_theirs():
    """The phone gets the code, the sources keep their comments; what looks like a comment in a template stays."""
    from web_api.page import without_comments

    source = ("// a line comment\nconst a = 1; // kept: code before it\n/** a block\n * of lines */\n"
              "/* x */ const b = 2;\n/* ends before code\n */ const c = 3;\nconst t = `\n// in a template\n`;\n")
    assert without_comments(source) == ("const a = 1; // kept: code before it\n/* x */ const b = 2;\n const c = 3;\n"
                                        "const t = `\n// in a template\n`;\n")
