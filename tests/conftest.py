"""Shared fixtures: a Flask app built by the real factory, and its test client."""

from __future__ import annotations

import logging
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # so `pytest` works from any directory, not only `python -m pytest`
    sys.path.insert(0, str(ROOT))

from web_api import create_app  # noqa: E402


@pytest.fixture
def app():
    return create_app({"TESTING": True})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture(scope="session")
def variants():
    """The four shipped variants, loaded and verified once."""
    from adjudicator.variants import load_all

    return load_all()


@pytest.fixture(scope="session")
def live_server():
    """The real app (create_app) on 127.0.0.1:<free port>, in a thread; yields its base URL.

    Shared by the browser tests (tests/e2e) and the security test that loads the page in Chromium.
    """
    from werkzeug.serving import WSGIRequestHandler, make_server

    from web_api import create_app

    class QuietHandler(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):  # keep the test output to test results
            pass

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    # One app serves every page of the session, in this process: a heavy request over the two slots may wait its
    # turn for as long as a loaded machine keeps the others working (a bound on a hang, not the service's 10 s,
    # after which it would be a 503 the page reports as an error: tests/test_budgets_admission.py tests that).
    app = create_app({"HEAVY_WAIT": 300.0})
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="e2e-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)
