"""The page's files as served (web_api/page.py), and the rules they keep for a strict CSP.

These need no browser: they use the Flask test client and read web/ directly.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"


def test_index_is_served_at_root(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert response.headers["Cache-Control"] == "no-cache"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert b"<title>Canasta Referee</title>" in response.data


@pytest.mark.parametrize("name,mimetype", [("app.js", "text/javascript"), ("style.css", "text/css"),
                                           ("icon.svg", "image/svg+xml")])
def test_static_files_are_served_with_their_types(client, name, mimetype):
    response = client.get(f"/web/{name}")
    assert response.status_code == 200
    assert response.mimetype == mimetype


@pytest.mark.parametrize("path", ["/web/nope.js", "/web/../app.py", "/web/%2e%2e/app.py", "/web/"])
def test_missing_or_outside_files_are_404_problems(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


def test_every_file_the_page_loads_exists():
    html = (WEB / "index.html").read_text(encoding="utf-8")
    for ref in re.findall(r'(?:src|href)="/web/([^"]+)"', html):
        assert (WEB / ref).is_file(), ref


def test_no_inline_script_style_or_handler():
    """`default-src 'self'` forbids inline scripts, style attributes, inline handlers and eval."""
    html = (WEB / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "an inline <script>"
    assert "<style" not in html, "an inline <style>"
    assert not re.search(r"\sstyle=", html), "a style attribute"
    assert not re.search(r"\son[a-z]+=", html, re.I), "an inline event handler"
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//", html), "a file from another host"
    for js in WEB.glob("*.js"):
        code = js.read_text(encoding="utf-8")
        for pattern in (r"\beval\(", r"new Function\(", r"\.innerHTML\s*=", r"setAttribute\(\s*'style'",
                        r"setTimeout\(\s*['\"]", r"https?://(?!canasta-referee\.example)"):
            assert not re.search(pattern, code), f"{js.name}: {pattern}"
