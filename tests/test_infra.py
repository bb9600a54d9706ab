"""Invariants of the deployment files: Dockerfile, gunicorn.conf.py, requirements.txt, .ci/run."""

from __future__ import annotations

import json
import os
import re
import runpy
from pathlib import Path


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
    """One base for every stage: the PYTHON_IMAGE build argument (docs/image.md: a base made from Debian's packages
    where the registry is out of reach), whose default is the pinned official image."""
    words = [w for w, _ in dockerfile_instructions()]
    args = [a for a in only("ARG") if a.startswith("PYTHON_IMAGE=")]
    assert len(args) == 1 and words.index("ARG") < words.index("FROM"), "ARG PYTHON_IMAGE=... before the first FROM"
    # a patch release, Debian 12, and the digest of that image: the same base on every build
    match = re.fullmatch(r"python:3\.11\.(\d+)-slim-bookworm@sha256:[0-9a-f]{64}", args[0].partition("=")[2])
    assert match, args[0]
    assert int(match.group(1)) >= 17, "3.11.17 or later (3.11.7 was a 2023 release)"
    # the first stage stands on it; every other stage (the builders and the last, which runs) on an earlier stage
    stages: list[str] = []
    for line in only("FROM"):
        image, _, alias = line.partition(" AS ")
        assert image.strip() in ("${PYTHON_IMAGE}", *stages) if stages else image.strip() == "${PYTHON_IMAGE}", line
        stages.append(alias.strip())
    assert all(stages[:-1]) and not stages[-1], "the builder stages are named; the last, which runs, is not"


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
    assert conf["timeout"] == 30  # also the deadline for a request body (web_api/workers.py)
    assert conf["keepalive"] == 5  # also the deadline for a request head (gunicorn's gevent worker)
    assert conf["accesslog"] == "-"
    assert "graceful_timeout" in conf
    assert conf["control_socket_disable"] is True


def test_gunicorn_reads_port_and_web_concurrency(monkeypatch):
    conf = load_gunicorn_conf(monkeypatch, PORT="9123", WEB_CONCURRENCY="5")
    assert conf["bind"] == "0.0.0.0:9123"
    assert conf["workers"] == 5


def test_gunicorn_access_log_has_no_request_body():
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    fmt = conf["access_log_format"]
    # gunicorn has no atom for bodies. Request headers stay out (the user agent is the
    # %(a)s atom); so do environ atoms. Response header atoms ({name}o) are allowed.
    assert not re.search(r"%\(\{[^}]+\}[ie]\)s", fmt)
    assert "%(a)s" in fmt
    # every response carries the request id the app checked or made, and the log names it
    assert "%({x-request-id}o)s" in fmt


def _pins(name: str) -> dict[str, tuple[str, list[str]]]:
    """``{name: (version, [hashes])}`` of a pip-compile'd requirements file (``name==v \\`` then hashes)."""
    text = (ROOT / name).read_text().replace("\\\n", " ")
    pins = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        spec, *options = line.split()
        match = re.fullmatch(r"([A-Za-z0-9._-]+)==([A-Za-z0-9.+!-]+)", spec)
        assert match, f"{name}: {line!r} is not an exact pin"
        hashes = [o.removeprefix("--hash=") for o in options if o.startswith("--hash=sha256:")]
        assert hashes and len(hashes) == len(options), f"{name}: {spec} needs sha256 hashes and nothing else"
        pins[match.group(1).lower().replace("_", "-")] = (match.group(2), hashes)
    return pins


def _inputs(name: str) -> dict[str, str]:
    """``{name: version}`` of the pins a ``requirements*.in`` file asks for (extras stripped)."""
    pins = {}
    for line in (ROOT / name).read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line and not line.startswith("-"):
            spec, version = line.split("==")
            pins[re.sub(r"\[.*\]", "", spec).lower().replace("_", "-")] = version
    return pins


def test_requirements_are_all_pinned_with_hashes():
    """What CI tested is what a user installs: every package, direct or not, pinned and hashed."""
    runtime, dev = _pins("requirements.txt"), _pins("requirements-dev.txt")
    assert {"flask", "marshmallow", "pyyaml", "gunicorn", "gevent"} <= set(runtime)
    # gunicorn's gevent worker imports `packaging` at boot; requirements.in asks for gunicorn[gevent]
    assert "packaging" in runtime
    assert {"pytest", "schemathesis", "hypothesis", "playwright"} <= set(dev)
    assert not set(runtime) & {"pytest", "schemathesis", "hypothesis", "playwright"}, "test tools stay out of the image"
    for package, pin in runtime.items():
        assert dev.get(package) == pin, f"the test set installs {package} as the service does"


def test_requirements_are_compiled_from_their_inputs():
    """requirements*.txt are pip-compile's output of requirements*.in, not edited by hand."""
    for source, compiled in (("requirements.in", "requirements.txt"), ("requirements-dev.in", "requirements-dev.txt"),
                             ("requirements-compile.in", "requirements-compile.txt")):
        pins = _pins(compiled)
        for package, version in _inputs(source).items():
            assert pins.get(package, ("missing",))[0] == version, f"{compiled}: {package} differs from {source}"
        assert "pip-compile" in (ROOT / compiled).read_text()
    assert "-r requirements.in" in (ROOT / "requirements-dev.in").read_text()
    # the suite compiles the engine with the very compiler the image's builder stage installs
    assert "-r requirements-compile.in" in (ROOT / "requirements-dev.in").read_text()
    dev = _pins("requirements-dev.txt")
    for package, pin in _pins("requirements-compile.txt").items():
        assert dev.get(package) == pin, f"the test set installs {package} as the image's builder does"


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^((?:bash scripts/install-[a-z]+ && )*python3 -m venv .+)$", text, flags=re.M)


def test_readme_starts_with_the_serve_and_test_commands():
    commands = readme_commands()
    assert len(commands) >= 2
    serve, test = commands[0], commands[1]
    assert "pip install" in serve and "-r requirements.txt" in serve and "gunicorn -c gunicorn.conf.py app:app" in serve
    assert "pip install" in test and "-r requirements-dev.txt" in test and "pytest" in test
    assert test.startswith("bash scripts/install-browser"), "the e2e tests need Debian's chromium"
    assert "bash scripts/install-compiler && " in test, "tests/test_compiled_engine.py needs a C compiler"


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


def dockerfile_env() -> dict[str, str]:
    """``ENV`` settings of the Dockerfile (``KEY=value`` form)."""
    out = {}
    for args in only("ENV"):
        for key, value in re.findall(r"(\w+)=(\"[^\"]*\"|\S+)", args):
            out[key] = value.strip('"')
    return out


def test_dockerfile_worker_count_matches_the_gunicorn_default(monkeypatch):
    conf = load_gunicorn_conf(monkeypatch)
    assert int(dockerfile_env()["WEB_CONCURRENCY"]) == conf["workers"]
    assert dockerfile_env()["PORT"] == "8000"
    assert dockerfile_env().get("PYTHONDONTWRITEBYTECODE") == "1"  # the root filesystem may be read-only


def test_gunicorn_worker_settings_are_the_benchmarked_ones(monkeypatch):
    """gevent workers (the service's subclass), one per core: see gunicorn.conf.py and notes/infra.md."""
    from gunicorn.util import load_class
    from gunicorn.workers.ggevent import GeventWorker

    from web_api.workers import ProblemGeventWorker

    conf = load_gunicorn_conf(monkeypatch)
    assert conf["worker_class"] == "web_api.workers.ProblemGeventWorker"
    assert load_class(conf["worker_class"]) is ProblemGeventWorker  # what gunicorn will load
    assert issubclass(ProblemGeventWorker, GeventWorker)
    assert conf.get("threads", 1) == 1
    assert conf["worker_connections"] >= 1000  # slow clients cost a greenlet each, not the worker
    assert conf["worker_tmp_dir"] in ("/dev/shm", None)  # nothing written to a read-only root filesystem
    assert conf["graceful_timeout"] < conf["timeout"]


def test_dockerignore_keeps_bench_and_deploy_out():
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {"bench", "deploy"} <= ignored


def test_image_code_is_owned_by_root_and_user_has_fixed_ids():
    """The service user cannot modify the code; Kubernetes' runAsUser can name its uid."""
    runs = " ".join(only("RUN"))
    assert re.search(r"useradd\b.*--uid\s+\d+", runs) and re.search(r"groupadd\b.*--gid\s+\d+", runs)
    copies = only("COPY")
    assert copies and not any("--chown" in c for c in copies)


def test_dockerfile_warms_bytecode_and_the_variant_cache_before_dropping_root():
    """The service starts without compiling its modules or parsing its variant files: both are done once at
    build time, as root, into places the service user can read (the root filesystem may be read-only)."""
    cache = dockerfile_env().get("CANASTA_CACHE_DIR")
    assert cache and cache.startswith("/app/")
    words = [w for w, _ in dockerfile_instructions()]
    last_user = max(i for i, w in enumerate(words) if w == "USER")
    warm = [i for i, (w, args) in enumerate(dockerfile_instructions())
            if w == "RUN" and "compileall" in args and 'import app' in args and "mkdir -m 0755" in args]
    assert warm and warm[-1] < last_user


def test_the_image_runs_the_engine_its_builder_stage_compiled():
    """The engine's C build (scripts/compile-engine) is made on the service's own base with the pinned, hashed
    compiler; the image takes only the extension modules, and its build fails unless its engine imports
    compiled. No compiled module comes from the build context."""
    froms = only("FROM")
    builder = [f for f in froms if f.endswith(" AS engine-compiled")]
    assert builder and builder[0].split()[0] == froms[-1].split()[0], "the same base: the modules fit its Python"
    runs = only("RUN")
    assert any("--require-hashes -r requirements-compile.txt" in r for r in runs)
    assert any("scripts/compile-engine /build" in r for r in runs)
    copies = only("COPY")
    compile_engine = runpy.run_path(str(ROOT / "scripts" / "compile-engine"))
    folders = {*compile_engine["COMPILED_PACKAGES"], *(m.parent for m in compile_engine["COMPILED_MODULES"])}
    for folder in folders:  # every folder the script compiles into reaches the image
        assert any(c.startswith("--from=engine-compiled") and f"/build/{folder}/*.so {folder}/" in c
                   for c in copies), folder
    assert any(c.startswith("--from=engine-compiled") and "__mypyc" in c for c in copies)
    words = [w for w, _ in dockerfile_instructions()]
    checked = [i for i, (w, args) in enumerate(dockerfile_instructions())
               if w == "RUN" and "scripts/compile-engine /app --check" in args]
    assert checked and checked[-1] < max(i for i, w in enumerate(words) if w == "USER")
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert "**/*.so" in ignored
