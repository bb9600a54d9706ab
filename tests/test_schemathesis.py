"""Property-based contract tests: every operation in openapi.yaml against the app, in process.

schemathesis v4 reads the hand-written spec, generates valid (positive) and invalid
(negative) requests, sends them through the WSGI app and runs every built-in check:
no 5xx, documented status codes, content types, headers and response schemas, valid
data accepted, invalid data rejected, 405 + Allow for undocumented methods.

The rules-engine operations (``/v1/adjudicate``, ``/v1/score``, ``/v1/compare``) are
the one refinement. Their schemas describe a request's *shape*; whether a well-shaped
situation or table can happen is for the engine to say (a card the action takes must be
in the hand, four players score as two teams, ...), and it answers a schema-valid but
impossible request with a 422 ``impossible-input`` or ``rule-not-stated`` problem. For
these operations the built-in "valid data accepted" check is replaced by
:func:`valid_shape_accepted`, which allows exactly those two engine answers and still
fails on anything else -- above all on a ``validation-failed`` problem, which would mean
the marshmallow schemas refuse a shape openapi.yaml allows.
"""

from __future__ import annotations

from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from web_api import create_app

ROOT = Path(__file__).resolve().parent.parent

app = create_app({"TESTING": True})

schema = schemathesis.openapi.from_path(ROOT / "openapi.yaml")
schema.app = app  # requests go through the WSGI app in process (no server, no network)
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
    max_examples=40,
    deterministic=True,  # reproducible in CI
)
schema.config.checks.update(included_check_names=["all"])
# Invalid data may also be refused for its size: a negative case that breaks a list's maxItems can pass the
# body cap (a 413 "request too large", documented on every POST), which is a rejection like any other.
_rejection = schema.config.checks.negative_data_rejection
_rejection.expected_statuses = [*_rejection.expected_statuses, "413"]

ENGINE_OPERATIONS = {("POST", "/v1/adjudicate"), ("POST", "/v1/score"), ("POST", "/v1/compare"), ("POST", "/v1/options"),
                     ("POST", "/v1/replay")}
ENGINE_REFUSALS = {"impossible-input", "rule-not-stated"}  # problem slugs for well-shaped but impossible input


def valid_shape_accepted(ctx, response, case):
    """Schema-valid data is answered (2xx), finds no variant (404), or is impossible under the rules (422)."""
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return None
    status = response.status_code
    if 200 <= status < 300 or status == 404:
        return None
    if status == 422:
        body = response.json()
        slug = str(body.get("type", "")).rsplit("/", 1)[-1] if isinstance(body, dict) else ""
        if slug in ENGINE_REFUSALS:
            return None
    raise AssertionError(f"schema-valid request refused with {status}: {response.text[:600]}")


@schema.parametrize()
@settings(deadline=None)
def test_api_conforms_to_openapi(case):
    # In process there is no HTTP client to undo a content coding, so ask for none (compression has its own
    # tests in tests/test_http_caching.py).
    headers = {"Accept-Encoding": "identity"}
    if (case.method.upper(), case.path) in ENGINE_OPERATIONS:
        case.call_and_validate(headers=headers, excluded_checks=[positive_data_acceptance],
                               additional_checks=[valid_shape_accepted])
    else:
        case.call_and_validate(headers=headers)


# /v1/replay's forms -- a round and a whole game, actions and each event -- each generated and answered as the
# spec says (the parametrized run above draws from all of them; this one makes sure each form is drawn).
REPLAY = schema["/v1/replay"]["POST"]
REPLAY_FORMS = ("round", "game", "action", "lay_out", "ask", "answer")


def _forms(body) -> set[str]:
    if not isinstance(body, dict):
        return set()
    moves = body.get("moves") if "rounds" not in body else [
        m for r in body["rounds"] if isinstance(r, dict) for m in r.get("moves") or []]
    return {"game" if "rounds" in body else "round"} | {
        m.get("event", "action") for m in moves or [] if isinstance(m, dict)}


def test_every_form_of_a_replay_log_is_generated_and_answered_as_documented():
    seen: set[str] = set()

    @settings(max_examples=30, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(case=REPLAY.as_strategy(generation_mode=GenerationMode.POSITIVE))
    def replayed(case):
        seen.update(_forms(case.body))
        case.call_and_validate(headers={"Accept-Encoding": "identity"}, excluded_checks=[positive_data_acceptance],
                               additional_checks=[valid_shape_accepted])

    replayed()
    assert seen >= set(REPLAY_FORMS), seen
