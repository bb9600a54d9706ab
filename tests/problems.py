"""Assertions on RFC 9457 problem responses, shared by the HTTP tests."""

from __future__ import annotations

from web_api.problems import PROBLEM_BASE

PROBLEM = "application/problem+json"


def assert_problem(resp, status: int, slug: str | None = None) -> dict:
    """The response is a problem+json with this status (and type slug); returns its body."""
    assert resp.status_code == status, resp.get_data(as_text=True)
    assert resp.mimetype == PROBLEM
    body = resp.get_json(force=True)
    assert body["status"] == status
    assert body["title"] and body["detail"]
    assert body["type"].startswith(PROBLEM_BASE)
    if slug is not None:
        assert body["type"] == PROBLEM_BASE + slug, body
    for err in body.get("errors", []):
        assert set(err) == {"pointer", "detail"}
    return body


def pointers(body: dict) -> list[str]:
    return [e["pointer"] for e in body.get("errors", [])]
