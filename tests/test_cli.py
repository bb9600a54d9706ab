"""The command line (``python -m adjudicator``, the ``canasta-referee`` script): the service's JSON for files.

Each command prints exactly the document the service answers for the same body and language, and says
what it is by its exit status: 0 answered, 1 an illegal move (a ruling, a batch's ruling, a replay's
``first_illegal``), 2 bad input with the problem printed. (``tests/test_fresh_install.py`` runs the
console script that ``pip install .`` installs.)
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator import cli
from adjudicator.variants import load_all
from selfplay import play
from test_answers import FROZEN_PILE, MELD, OPTIONS
from test_http_scoring import ROUND

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = load_all()
LOG = play(VARIANTS, "sv-classic", 7)


def run(capsys, *argv) -> tuple[int, dict]:
    status = cli.main([str(a) for a in argv])
    out = capsys.readouterr().out
    assert out.endswith("\n") and out.count("\n") == 1, "one line of JSON"
    return status, json.loads(out)


def written(tmp_path: Path, body, name: str = "body.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(body), encoding="utf-8")
    return path


def served(client, path: str, body, **query) -> dict:
    got = client.post(path, json=body, query_string=query).get_json()
    got.pop("instance", None)
    got.pop("request_id", None)
    return got


@pytest.mark.parametrize("command,path,body,verdict_status", [
    ("rule", "/v1/adjudicate", FROZEN_PILE, 1),  # illegal
    ("rule", "/v1/adjudicate", MELD, 0),  # legal
    ("rule", "/v1/adjudicate", {**MELD, "situation": {**MELD["situation"], "turn": {}}}, 0),  # undetermined
    ("score", "/v1/score", ROUND, 0),
    ("options", "/v1/options", OPTIONS, 0),
    ("compare", "/v1/compare", {"situation": FROZEN_PILE["situation"], "action": FROZEN_PILE["action"]}, 0),
    ("replay", "/v1/replay", LOG, 0),
    ("rule", "/v1/adjudicate/batch", {"requests": [MELD, FROZEN_PILE]}, 1),
    ("rule", "/v1/adjudicate/batch", {"requests": [MELD, MELD]}, 0),
    ("score", "/v1/score/batch", {"requests": [ROUND]}, 0),
])
def test_each_command_prints_the_services_json(client, capsys, tmp_path, command, path, body, verdict_status):
    status, printed = run(capsys, command, written(tmp_path, body), "--lang", "sv")
    assert status == verdict_status
    query = {"lang": "sv"} if command != "options" else {"lang": "sv", "limit": 1000}
    if command == "options":
        status, printed = run(capsys, command, written(tmp_path, body), "--lang", "sv", "--limit", "1000")
    assert printed == served(client, path, body, **query)


def test_an_undetermined_ruling_is_answered(capsys, tmp_path):
    status, printed = run(capsys, "rule", written(tmp_path, {**MELD, "situation": {**MELD["situation"], "turn": {}}}))
    assert printed["verdict"] == "undetermined" and status == 0


def test_a_replay_with_an_illegal_move_exits_1(capsys, tmp_path):
    broken = copy.deepcopy(LOG)
    at = next(i for i, move in enumerate(broken["moves"]) if "action" in move)  # the first action (events before)
    seat = broken["moves"][at]["player"]
    broken["moves"][at] = {"player": (seat + 1) % broken["players"], "action": broken["moves"][at]["action"]}
    status, printed = run(capsys, "replay", written(tmp_path, broken))  # out of turn
    assert status == 1 and printed["first_illegal"]["index"] == at


@pytest.mark.parametrize("body,slug", [
    ({**MELD, "variant": "nope"}, "unknown-variant"),
    ({**MELD, "action": {"type": "meld", "melds": [["9H", "ZZ"]]}}, "impossible-input"),
    ([1, 2], "body-not-an-object"),
    ({"requests": [MELD, {"variant": "nope"}]}, None),  # a batch with a refused item
])
def test_bad_input_exits_2_with_the_problem(client, capsys, tmp_path, body, slug):
    status, printed = run(capsys, "rule", written(tmp_path, body))
    assert status == 2
    if slug is None:
        assert printed["results"][1]["problem"]["status"] == 422 and "ruling" in printed["results"][0]
        return
    assert printed["type"].endswith(f"/{slug}")
    if isinstance(body, dict):
        assert printed == served(client, "/v1/adjudicate", body)


@pytest.mark.parametrize("text,pointer", [("{", ""), ('{"variant": "sv-classic", "variant": "no-pagat"}', "/variant"),
                                          ("", "")])
def test_a_file_that_is_not_json_exits_2(capsys, tmp_path, text, pointer):
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    status, printed = run(capsys, "score", path)
    assert status == 2 and printed["type"].endswith("/malformed-json") and printed["errors"][0]["pointer"] == pointer


def test_a_file_that_cannot_be_read_exits_2(capsys, tmp_path):
    status, printed = run(capsys, "score", tmp_path / "absent.json")
    assert status == 2 and printed["type"].endswith("/malformed-request") and printed["status"] == 400


def test_the_language_is_the_flags_then_the_bodys_then_english(capsys, tmp_path):
    assert run(capsys, "rule", written(tmp_path, FROZEN_PILE))[1]["summary"].startswith("Not allowed")
    in_danish = written(tmp_path, {**FROZEN_PILE, "lang": "da"})
    assert run(capsys, "rule", in_danish)[1]["summary"].startswith("Ikke tilladt")
    assert run(capsys, "rule", in_danish, "--lang", "nb")[1]["summary"].startswith("Ikke lovlig")


def test_options_of_the_service_pass_through(capsys, tmp_path):
    _, lean = run(capsys, "rule", written(tmp_path, MELD), "--words", "none")
    assert "summary" not in lean and lean["verdict"] == "legal"
    _, page = run(capsys, "options", written(tmp_path, OPTIONS), "--group", "discard", "--limit", "1", "--offset", "1")
    assert [g["kind"] for g in page["groups"]] == ["discard"] and len(page["groups"][0]["options"]) == 1
    assert page["groups"][0]["offset"] == 1
    compare = {"situation": FROZEN_PILE["situation"], "action": FROZEN_PILE["action"]}
    _, refs = run(capsys, "compare", written(tmp_path, compare), "--citations", "refs")
    assert refs["citations"] and all("ref" in c for c in refs["results"][0]["ruling"]["deciding"])


def test_a_usage_error_exits_2(capsys):
    with pytest.raises(SystemExit) as exited:
        cli.main(["judge", "x.json"])
    assert exited.value.code == 2
    with pytest.raises(SystemExit) as exited:
        cli.main(["options", "x.json", "--limit", "0"])
    assert exited.value.code == 2
    capsys.readouterr()


def test_python_m_adjudicator_reads_standard_input_and_prints_utf8_whatever_the_locale():
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii", "PYTHONPATH": str(ROOT)}
    ran = subprocess.run([sys.executable, "-m", "adjudicator", "rule", "-", "--lang", "nb"], input=json.dumps(FROZEN_PILE).encode(),
                         capture_output=True, env=env, cwd=ROOT, timeout=120)
    assert ran.returncode == 1, ran.stderr.decode()
    printed = json.loads(ran.stdout.decode("utf-8"))
    assert printed["verdict"] == "illegal" and printed["deciding"][0]["quote"] == "én nier og en joker gjør ikke det."
    helped = subprocess.run([sys.executable, "-m", "adjudicator", "--help"], capture_output=True, text=True, env=env,
                            cwd=ROOT, timeout=60)
    assert helped.returncode == 0 and "Exit status" in helped.stdout


# ----------------------------------------------------------------------------------------------
# Bounded inputs (issue 45): at most the service's body limit, regular files or standard input only, never a wait,
# and usage errors in one line with exit 2 -- never a traceback


def run_cli(*argv, stdin=None, timeout: float = 120) -> subprocess.CompletedProcess:
    """``python -m adjudicator`` in a process of its own, standard input given (or none: /dev/null)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "adjudicator", *map(str, argv)], input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL, capture_output=True, env=env,
                          cwd=ROOT, timeout=timeout)


def problem_of(ran: subprocess.CompletedProcess) -> dict:
    assert ran.returncode == 2, ran.stderr.decode()
    assert b"Traceback" not in ran.stderr, ran.stderr.decode()
    lines = ran.stdout.decode("utf-8").splitlines()
    assert len(lines) == 1, lines
    return json.loads(lines[0])


@pytest.mark.parametrize("what", ["device", "fifo", "folder"])
def test_what_is_not_a_regular_file_is_refused_at_once(tmp_path, what):
    """/dev/zero is never read (it grew to 3.9 GB); a FIFO with no writer is refused, not waited on (the process's
    own timeout would fail the test); a folder is named as one."""
    path = {"device": Path("/dev/zero"), "folder": tmp_path}.get(what)
    if what == "fifo":
        path = tmp_path / "body.json"
        os.mkfifo(path)
    problem = problem_of(run_cli("rule", path))
    assert problem["status"] == 400 and problem["type"].endswith("/malformed-request")
    assert "pipe" in problem["detail"] and "-" in problem["detail"]


def test_a_file_longer_than_the_service_takes_is_refused_unread(tmp_path):
    from adjudicator.answers.limits import BATCH_BODY_BYTES, BODY_BYTES

    big = tmp_path / "big.json"
    with open(big, "wb") as f:  # sparse: its size is what counts, nothing of it is read
        f.truncate(BATCH_BODY_BYTES + 1)
    problem = problem_of(run_cli("rule", big))
    assert problem["status"] == 413 and f"{BATCH_BODY_BYTES:,}" in problem["detail"]
    with open(big, "wb") as f:
        f.truncate(BODY_BYTES + 1)  # a command that takes no batch: the single body's limit
    problem = problem_of(run_cli("options", big))
    assert problem["status"] == 413 and f"{BODY_BYTES:,}" in problem["detail"]
    single = written(tmp_path, {**MELD, "padding": " " * BODY_BYTES})  # a single ruling past its limit
    problem = problem_of(run_cli("rule", single))
    assert problem["status"] == 413 and f"{BODY_BYTES:,}" in problem["detail"]


def test_standard_input_is_read_up_to_the_limit_and_no_further():
    from adjudicator.answers.limits import BODY_BYTES

    problem = problem_of(run_cli("score", "-", stdin=b" " * (5 * BODY_BYTES)))
    assert problem["status"] == 413


def test_a_batch_may_be_as_long_as_the_services(tmp_path):
    from adjudicator.answers.limits import BODY_BYTES

    batch = {"requests": [MELD] * 1000}
    assert len(json.dumps(batch)) > BODY_BYTES  # longer than a single body, within a batch's
    ran = run_cli("rule", written(tmp_path, batch))
    assert ran.returncode == 0, ran.stdout[:300]
    assert len(json.loads(ran.stdout)["results"]) == 1000


@pytest.mark.parametrize("what", ["missing", "file", "fifo", "fifo inside"])
def test_a_bad_variants_folder_is_a_usage_error_in_one_line(tmp_path, what):
    folder = tmp_path / "rules"
    if what == "file":
        folder.write_text("not a folder")
    elif what == "fifo":
        os.mkfifo(folder)
    elif what == "fifo inside":
        folder.mkdir()
        os.mkfifo(folder / "x.yaml")  # read, it would wait for a writer for ever
    ran = run_cli("rule", written(tmp_path, MELD), "--variants", folder)
    assert ran.returncode == 2 and ran.stdout == b""
    said = ran.stderr.decode()
    assert said.count("\n") == 1 and said.startswith("canasta-referee: error: --variants") and "Traceback" not in said
    ran = subprocess.run([sys.executable, "-m", "adjudicator", "rule", str(written(tmp_path, MELD))],
                         capture_output=True, cwd=ROOT, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "CANASTA_VARIANTS_DIR": str(folder)})
    assert ran.returncode == 2 and ran.stderr.decode().count("\n") == 1 and b"Traceback" not in ran.stderr


def test_a_usage_error_is_one_line():
    for argv in (["judge", "x.json"], ["options", "x.json", "--limit", "0"], []):
        ran = run_cli(*argv)
        said = ran.stderr.decode()
        assert ran.returncode == 2 and said.count("\n") == 1 and said.startswith("canasta-referee: error:"), said


def test_bytes_that_are_not_utf8_are_named_by_their_offset(tmp_path):
    path = tmp_path / "latin1.json"
    raw = '{"variant": "sv-classic", "note": "bl\u00e5b\u00e6r"}'.encode("latin-1")
    path.write_bytes(raw)
    problem = problem_of(run_cli("rule", path, "--lang", "sv"))
    assert problem["type"].endswith("/malformed-json") and f" {raw.index(0xE5)} " in problem["detail"]
    assert "codec" not in problem["detail"] and "surrogate" not in problem["detail"]
