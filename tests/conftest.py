"""Shared fixtures: a Flask app built by the real factory, and its test client."""

from __future__ import annotations

import sys
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
