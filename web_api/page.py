"""The phone page: ``/`` serves ``web/index.html`` and ``/web/<file>`` the page's static files.

The page (``web/``) is plain HTML, CSS and JavaScript: no build step, nothing
fetched from another host, no inline scripts or styles, so it runs under a
``default-src 'self'`` Content-Security-Policy (set with the other security
headers in :mod:`web_api.security`). It talks only to this
service's ``/v1`` API. Files are revalidated on every load (``no-cache`` with
an ETag), so a deploy is seen at once and an unchanged file costs a 304.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, send_from_directory

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

bp = Blueprint("page", __name__)


def _static(name: str) -> Response:
    response = send_from_directory(WEB_DIR, name, max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/")
def index() -> Response:
    return _static("index.html")


@bp.get("/web/<path:name>")
def web_file(name: str) -> Response:
    # send_from_directory refuses paths that leave WEB_DIR and answers 404 for missing files.
    return _static(name)
