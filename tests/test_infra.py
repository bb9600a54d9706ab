"""Invariants of the deployment files: Dockerfile, gunicorn.conf.py, requirements.txt, .ci/run."""

from __future__ import annotations

import json
import os
import re
import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, with line continuations joined and comments dropped."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    text = re.sub(r"\\\n", " ", text)
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def only(instr: str) -> list[str]:
    return [args for word, args in dockerfile_instructions() if word == instr]


def test_dockerfile_base_is_a_pinned_slim_python_311():
    froms = only("FROM")
    assert len(froms) == 1
    image = froms[0].split()[0]
    assert re.fullmatch(r"python:3\.11\.\d+-slim(-[a-z]+)?(@sha256:[0-9a-f]{64})?", image), image


def test_dockerfile_runs_as_a_non_root_user():
    users = only("USER")
    assert users, "no USER instruction"
    assert users[-1].split(":")[0] not in ("root", "0")
    words = [w for w, _ in dockerfile_instructions()]
    # the final USER comes after every RUN, so nothing runs as root afterwards
    assert max(i for i, w in enumerate(words) if w == "RUN") < max(i for i, w in enumerate(words) if w == "USER")


def test_dockerfile_installs_pinned_requirements_without_cache():
    runs = " ".join(only("RUN"))
    assert "pip install" in runs and "--no-cache-dir" in runs and "-r requirements.txt" in runs


def test_dockerfile_healthcheck_uses_python_urllib_not_curl():
    checks = only("HEALTHCHECK")
    assert len(checks) == 1
    check = checks[0]
    assert "curl" not in check and "wget" not in check
    cmd = json.loads(check[check.index("CMD") + 3:].strip())
    assert cmd[:2] == ["python", "-c"]
    assert "urllib.request" in cmd[2] and "/healthz" in cmd[2]
    compile(cmd[2], "<healthcheck>", "exec")


def test_dockerfile_cmd_is_exec_form_gunicorn():
    cmds = only("CMD")
    assert len(cmds) == 1
    assert json.loads(cmds[0]) == ["gunicorn", "-c", "gunicorn.conf.py", "app:app"]
    assert "8000" in only("EXPOSE")[0].split()


def test_dockerignore_keeps_the_image_lean_but_complete():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".git", ".venv", "tests"} <= ignored
    for needed in ("app.py", "web_api", "adjudicator", "variants", "openapi.yaml", "gunicorn.conf.py",
                   "requirements.txt"):
        assert needed not in ignored


def load_gunicorn_conf(monkeypatch, **env) -> dict:
    for name in ("PORT", "WEB_CONCURRENCY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_gunicorn_defaults(monkeypatch):
    conf = load_gunicorn_conf(monkeypatch)
    assert conf["bind"] == "0.0.0.0:8000"
    assert conf["workers"] == 2
    assert conf["preload_app"] is True
    assert conf["timeout"] == 30
    assert conf["accesslog"] == "-"
    assert "graceful_timeout" in conf and "keepalive" in conf
    assert conf["control_socket_disable"] is True


def test_gunicorn_reads_port_and_web_concurrency(monkeypatch):
    conf = load_gunicorn_conf(monkeypatch, PORT="9123", WEB_CONCURRENCY="5")
    assert conf["bind"] == "0.0.0.0:9123"
    assert conf["workers"] == 5


def test_gunicorn_access_log_has_no_request_body():
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    # gunicorn has no atom for bodies; headers other than the user agent stay out too
    assert not re.search(r"%\(\{[^}]+\}i\)s", conf["access_log_format"])


def test_requirements_are_all_pinned():
    lines = [ln.strip() for ln in (ROOT / "requirements.txt").read_text().splitlines()]
    reqs = [ln for ln in lines if ln and not ln.startswith("#")]
    assert reqs
    for line in reqs:
        assert re.fullmatch(r"[A-Za-z0-9._\[\],-]+==[A-Za-z0-9.+!-]+", line), line
    names = {ln.split("==")[0].lower() for ln in reqs}
    assert {"flask", "marshmallow", "pyyaml", "gunicorn", "pytest", "schemathesis"} <= names


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^(python3 -m venv .+)$", text, flags=re.M)


def test_readme_starts_with_the_serve_and_test_commands():
    commands = readme_commands()
    assert len(commands) >= 2
    serve, test = commands[0], commands[1]
    assert "pip install" in serve and "-r requirements.txt" in serve and "gunicorn -c gunicorn.conf.py app:app" in serve
    assert "pip install" in test and "-r requirements.txt" in test and "pytest" in test


def test_ci_runs_the_readme_test_command():
    ci = ROOT / ".ci" / "run"
    assert os.access(ci, os.X_OK)
    text = ci.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash") or text.startswith("#!/bin/bash")
    assert "set -euo pipefail" in text
    test_command = readme_commands()[1]
    assert test_command in text.splitlines()


def test_app_module_exposes_the_wsgi_app():
    from flask import Flask

    module = runpy.run_path(str(ROOT / "app.py"))
    assert isinstance(module["app"], Flask)
    assert module["app"].test_client().get("/healthz").status_code == 200
