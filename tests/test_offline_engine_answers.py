"""The phone's engine, exactly as built for the page, answers as the service does.

``scripts/build-engine-archive`` cuts the standard library to what the engine loads, ships every
source without its docstrings, Babel's data cut to what the engine reads, and the page's worker starts
the engine from a memory snapshot of its first start. This holds all of it to the service: one Node
process (``phone_engine/answers.mjs``) runs the page's own worker code (``web/engine-worker.js``) on
the built files in ``phone_engine/build`` and answers the rule matrix (``tests/ruling_table.py``,
every row under every variant, in all four languages), "what may I do?" for every other row and the
comparison of every row, and the scoring tables (``tests/test_scoring.py``, in all four languages, and the
score matrix of ``tests/ruling_table.py`` under every variant) -- first as the engine
started afresh (every tenth question), then all of them as the engine started from its snapshot.
Each answer must equal the service's to the same body (its status and its JSON; the service's
``instance`` and ``request_id``, which only the web layer adds, left out).

This fails, never skips, when Node or the built engine is missing: the README's test command
installs both (``bash scripts/install-engine-runtime``). Node runs Pyodide many times faster than a
browser, so this is the wide check; tests/e2e/test_engine_offline.py checks the page's own path.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
import test_scoring
from ruling_cases import SHIPPED
from ruling_table import ROWS, SCORE_ROWS, payloads

from web_api.page import ENGINE_DIR

LANGUAGES = ("en", "sv", "nb", "da")
RUNNER = ENGINE_DIR.parent / "answers.mjs"
HINT = "run `bash scripts/install-engine-runtime .venv/bin/python` (Node.js, Pyodide and the built engine)"
WEB_ONLY = ("instance", "request_id")  # problem members the web layer adds


def questions() -> list[dict]:
    """The rule matrix, the options and comparisons of its rows, and the scoring tables."""
    out = []
    matrix = payloads(SHIPPED)
    for lang in LANGUAGES:
        out += [{"path": "/v1/adjudicate", "body": body, "lang": lang} for body in matrix]
    for i, body in enumerate(matrix[::2]):  # the listing is the dearest answer: every other row is enough
        out.append({"path": "/v1/options", "body": {"variant": body["variant"], "situation": body["situation"]},
                    "lang": LANGUAGES[i % len(LANGUAGES)]})
    for i, (_name, situation, action, _rule, _codes) in enumerate(ROWS):
        out.append({"path": "/v1/compare", "body": {"situation": situation, "action": action},
                    "lang": LANGUAGES[i % len(LANGUAGES)]})
    for _name, variant, players, house, teams, _expected in test_scoring.CASES:
        body = {"variant": variant, "teams": teams}
        if players is not None:
            body["players"] = players
        if house:
            body["house_rules"] = house
        out += [{"path": "/v1/score", "body": body, "lang": lang} for lang in LANGUAGES]
    for i, (_name, players, teams, _expected) in enumerate(SCORE_ROWS):  # scores across readings (issue 43)
        out += [{"path": "/v1/score", "body": {"variant": vid, "players": players, "teams": teams},
                 "lang": LANGUAGES[(i + j) % len(LANGUAGES)]} for j, vid in enumerate(SHIPPED)]
    return out


@pytest.fixture(scope="module")
def phone_answers(tmp_path_factory):
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        pytest.fail(f"Node.js is missing, so the phone's engine cannot be run: {HINT}", pytrace=False)
    if not (ENGINE_DIR / "referee.zip").is_file():
        pytest.fail(f"the phone's engine is not built ({ENGINE_DIR}): {HINT}", pytrace=False)
    asked = questions()
    file = tmp_path_factory.mktemp("phone") / "questions.json"
    file.write_text(json.dumps(asked), encoding="utf-8")
    done = subprocess.run([node, str(RUNNER), str(ENGINE_DIR), str(file)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"the phone's engine did not run under Node:\n{done.stderr[-3000:]}"
    said = json.loads(done.stdout)
    return asked, said


def service_answer(client, question: dict) -> dict:
    response = client.post(f"{question['path']}?lang={question['lang']}", json=question["body"])
    body = response.get_json()
    for member in WEB_ONLY:
        body.pop(member, None)
    return {"status": response.status_code, "body": body}


def first_difference(one, other, at: str = "") -> tuple[str, object, object]:
    """Where two JSON values first differ (a pointer), and what each holds there."""
    if isinstance(one, dict) and isinstance(other, dict):
        for key in list(dict.fromkeys([*one, *other])):
            if one.get(key, ...) != other.get(key, ...):
                if key in one and key in other:
                    return first_difference(one[key], other[key], f"{at}/{key}")
                return f"{at}/{key}", one.get(key, "(absent)"), other.get(key, "(absent)")
    if isinstance(one, list) and isinstance(other, list) and len(one) == len(other):
        for i, (a, b) in enumerate(zip(one, other)):
            if a != b:
                return first_difference(a, b, f"{at}/{i}")
    return at or "/", one, other


def differences(client, asked, answers, every: int = 1) -> list[str]:
    out = []
    for i in range(0, len(asked), every):
        question, phone = asked[i], json.loads(answers[i])
        expected = service_answer(client, question)
        if phone != expected:
            at, mine, theirs = first_difference(phone, expected)
            out.append(f"{question['path']} ({question['lang']}) {json.dumps(question['body'])[:300]}\n"
                       f"  first difference at {at}:\n"
                       f"  phone:   {json.dumps(mine, ensure_ascii=False)[:600]}\n"
                       f"  service: {json.dumps(theirs, ensure_ascii=False)[:600]}")
    return out


def test_the_phone_started_from_its_snapshot_answers_as_the_service_does(phone_answers, client):
    asked, said = phone_answers
    assert len(said["restored"]) == len(asked) > 1500
    wrong = differences(client, asked, said["restored"])
    assert not wrong, f"{len(wrong)} of {len(asked)} answers differ from the service's, e.g.:\n" + "\n".join(wrong[:5])


def test_the_phone_started_afresh_answers_as_the_service_does(phone_answers, client):
    asked, said = phone_answers
    wrong = differences(client, asked, said["fresh"], every=10)
    assert not wrong, f"{len(wrong)} answers differ from the service's, e.g.:\n" + "\n".join(wrong[:5])
