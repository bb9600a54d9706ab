"""What a new user installs is what we test: the README's serve command and ``pip install .``, each in a
clean environment built from nothing but the project's own files.

The rest of the suite runs in the test environment (``requirements-dev.txt``), which brings along
packages the service never asks for (pytest pulls in ``packaging``, for one). A dependency the
service forgets is then invisible to every other test, and the README's serve command dies at
boot on a new machine. So these tests copy the checkout (its tracked and new files, nothing
ignored: no ``.venv``), run the README's serve command there exactly as written, on a free port,
and ask it for its health and a ruling; and install the package with ``pip install .`` into a new
virtual environment and use it from another folder. pip's download cache may be used; nothing is
preinstalled.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from test_infra import readme_commands
from test_readme import python_blocks

ROOT = Path(__file__).resolve().parent.parent

# How long the installs and the start may take before the test gives up: generous, since the
# point is whether the command works, not how fast (pip, on a cold cache, downloads ~15 MB).
START_DEADLINE_S = 240
FROZEN_PILE = {
    "variant": "no-pagat",
    "situation": {"discard_pile": ["3H", "7C", "JK", "9D"], "turn": {"drew": None},
                  "team": {"score": 1600, "melds": [["KH", "KS", "KD"]], "red_threes": 1},
                  "player": {"hand": ["9H", "JK", "5C"]}},
    "action": {"type": "take_pile", "with": ["9H", "JK"]},
}


def serve_command() -> str:
    command = readme_commands()[0]
    assert "gunicorn -c gunicorn.conf.py app:app" in command, "the README's first command starts the service"
    return command


def checkout_files() -> list[str]:
    """The checkout's files as a clone would have them, plus new ones not yet committed."""
    listing = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                             capture_output=True, check=True).stdout.decode("utf-8")
    return [name for name in listing.split("\0") if name and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def clean_copy(tmp_path_factory) -> Path:
    """A copy of the checkout without any environment, cache or build output in it."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.fail("the fresh-install tests copy the checkout with git ls-files; run them in a git checkout")
    target = tmp_path_factory.mktemp("fresh") / "canasta-referee"
    for name in checkout_files():
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, destination)
    return target


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def clean_environment() -> dict[str, str]:
    """The caller's environment without anything that points Python at the test environment."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    venv_bin = str(Path(sys.prefix) / "bin")
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    return env


def fetch(url: str, body: dict | None = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(request, timeout=60) as answer:  # a bound on a hang: a fresh start answers cold
        return answer.status, json.loads(answer.read())


def test_the_readme_serve_command_serves_rulings_from_requirements_txt_alone(clean_copy):
    port = free_port()
    env = clean_environment() | {"PORT": str(port), "WEB_CONCURRENCY": "1"}
    log = clean_copy.parent / "serve.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(["bash", "-c", serve_command()], cwd=clean_copy, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START_DEADLINE_S
        health = None
        while time.monotonic() < deadline and server.poll() is None:
            try:
                health = fetch(f"http://127.0.0.1:{port}/healthz")
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.5)
        output = log.read_text(encoding="utf-8", errors="replace")[-4000:]
        assert health is not None, f"the service did not answer (exit code {server.poll()}):\n{output}"
        assert health == (200, {"status": "ok", "variants": 4})
        status, ruling = fetch(f"http://127.0.0.1:{port}/v1/adjudicate", FROZEN_PILE)
        assert status == 200 and ruling["verdict"] == "illegal"
        assert ruling["deciding"][0]["quote"] == "én nier og en joker gjør ikke det."
        installed = subprocess.run([str(clean_copy / ".venv/bin/python"), "-m", "pip", "list", "--format=json"],
                                   capture_output=True, check=True, env=clean_environment()).stdout
        names = {p["name"].lower() for p in json.loads(installed)}
        assert "pytest" not in names, "the serve command installed the test extras"
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
                server.wait()


def test_pip_install_gives_the_library_with_its_rulebooks_from_any_folder(clean_copy, tmp_path):
    venv = tmp_path / "venv"
    env = clean_environment()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env)
    python = str(venv / "bin" / "python")
    installed = subprocess.run([python, "-m", "pip", "install", "-q", str(clean_copy)], capture_output=True,
                               text=True, env=env, cwd=tmp_path)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    listed = subprocess.run([python, "-c", "from adjudicator.variants import load_all; print(sorted(load_all()))"],
                            capture_output=True, text=True, env=env, cwd=elsewhere)
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.strip() == "['da-ludo', 'no-pagat', 'sv-classic', 'sv-gamerules']"
    # the package, not the checkout, is what was imported
    where = subprocess.run([python, "-c", "import adjudicator; print(adjudicator.__file__)"], capture_output=True,
                           text=True, env=env, cwd=elsewhere, check=True).stdout
    assert str(venv) in where
    # the library's examples (docs/library.md) run as written against the installed package
    blocks = python_blocks()
    assert blocks
    example = subprocess.run([python, "-c", "\n".join(blocks)], capture_output=True, text=True, env=env,
                             cwd=elsewhere)
    assert example.returncode == 0, example.stderr
    assert "Kasthögen är frusen" in example.stdout
    # the command line it installs answers as the service does, from any folder: exit 1 for an illegal ruling
    body = elsewhere / "ruling.json"
    body.write_text(json.dumps(FROZEN_PILE), encoding="utf-8")
    ruled = subprocess.run([str(venv / "bin" / "canasta-referee"), "rule", body.name, "--lang", "nb"],
                           capture_output=True, env=env, cwd=elsewhere)
    assert ruled.returncode == 1, ruled.stderr.decode()
    printed = json.loads(ruled.stdout.decode("utf-8"))
    assert printed["verdict"] == "illegal" and printed["deciding"][0]["quote"] == "én nier og en joker gjør ikke det."
    scored = subprocess.run([python, "-m", "adjudicator", "score", "-"], input=b'{"variant": "nope"}',
                            capture_output=True, env=env, cwd=elsewhere)
    assert scored.returncode == 2 and json.loads(scored.stdout)["status"] == 404, scored.stderr.decode()
    # the web service is not part of the library
    web = subprocess.run([python, "-c", "import web_api"], capture_output=True, text=True, env=env, cwd=elsewhere)
    assert web.returncode != 0

