"""The Docker image, built from this checkout and run: what the Dockerfile promises, checked in the container.

These machines reach Debian's mirror but no image registry, so the image is built on a base made from
Debian's own packages (``scripts/local-base-image``: it installs Docker and debootstrap when missing, starts
dockerd when none answers, and makes or reuses the base) with the Dockerfile's ``PYTHON_IMAGE`` build
argument, exactly as docs/image.md tells a user without the registry. The build context is the checkout itself,
as ``docker build .`` sends it: ``.dockerignore`` must keep environments, node_modules and build outputs out.

Then one container runs as ``deploy/`` runs it (read-only root filesystem, a tmpfs at /tmp, no capabilities)
and is asked for its health, a ruling, a score and the page, each answered as the library in this process
answers it; its processes are checked to be the service user's, its engine the compiled one (extension
modules, mapped into the server), its variant parse cache filled at build time and only read, and the
offline engine's files served. A second container, started as docs/image.md's ``docker run`` starts it, is
stopped with SIGTERM within the deployment's grace period and must exit by itself, cleanly.

Where no Docker daemon can be had, the test fails with the script's reason: it never skips.

Time: cold (a fresh machine: Docker and debootstrap installed, the base made, every stage built) about 14
CPU-minutes, most of it in the compile stage (gcc on mypyc's C) and the Node stage (Debian's npm); in wall
time 16 minutes on two cores shared at load 6, 31 in a clean clone's .ci/run at load 7-12. With the base and
the layers of an earlier run, under a minute. The build's stages stay tagged (``canasta-referee-test:<stage>``,
about 1.3 GB with the base) as the next run's cache, each run replacing the last run's images, so nothing
accumulates; the containers are removed.
"""

from __future__ import annotations

import html
import json
import re
import runpy
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
REPOSITORY = "canasta-referee-test"  # one tag per build stage, replaced by each run: the next run's layer cache
SERVICE_TAG = f"{REPOSITORY}:service"
SERVICE_UID = 10001  # the Dockerfile's useradd --uid
BASE_DEADLINE_S = 1800  # installing Docker and debootstrap, and debootstrap itself, on a cold machine
BUILD_DEADLINE_S = 2400  # every stage, cold: apt, pip, npm and mypyc compiling the engine on two busy cores
START_DEADLINE_S = 240  # the service's start, on two busy cores: a bound on a failed start, not a speed

FROZEN_PILE = {
    "variant": "no-pagat",
    "situation": {"discard_pile": ["3H", "7C", "JK", "9D"], "turn": {"drew": None},
                  "team": {"score": 1600, "melds": [["KH", "KS", "KD"]], "red_threes": 1},
                  "player": {"hand": ["9H", "JK", "5C"]}},
    "action": {"type": "take_pile", "with": ["9H", "JK"]},
}
ROUND = {
    "variant": "sv-classic", "players": 4,
    "teams": [{"name": "Vi", "melds": [["KH", "KS", "KD", "KC", "KH", "KS", "KD"]], "hand": ["5C"],
               "went_out": True},
              {"name": "De", "melds": [["QH", "QS", "QD"]], "hand": ["JK", "5H"]}],
}


def docker(*args: str, timeout: float = 120, check: bool = True) -> subprocess.CompletedProcess:
    done = subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        pytest.fail(f"docker {' '.join(args[:3])} ... failed ({done.returncode}):\n{done.stdout[-3000:]}"
                    f"\n{done.stderr[-3000:]}")
    return done


def image_id(tag: str) -> str | None:
    done = docker("image", "inspect", "--format", "{{.Id}}", tag, check=False)
    return done.stdout.strip() if done.returncode == 0 else None


def dockerfile_stages() -> list[str]:
    """The Dockerfile's named stages, in order."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    return re.findall(r"^FROM\s+\S+\s+AS\s+([\w.-]+)\s*$", text, flags=re.M | re.I)


@pytest.fixture(scope="module")
def base_image() -> str:
    """The Debian base, made (or found) by the script docs/image.md names; a failure here fails the test."""
    try:
        made = subprocess.run(["bash", str(ROOT / "scripts" / "local-base-image")], capture_output=True,
                              text=True, timeout=BASE_DEADLINE_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"scripts/local-base-image did not finish within {BASE_DEADLINE_S} s")
    if made.returncode != 0:
        pytest.fail(f"no Docker base image: scripts/local-base-image failed:\n{made.stderr[-4000:]}")
    name = made.stdout.strip()
    assert re.fullmatch(r"[\w.-]+:[\w.-]+", name), f"the script printed no image name: {made.stdout!r}"
    assert image_id(name), f"the script named {name}, which Docker does not have"
    return name


@pytest.fixture(scope="module")
def image(base_image) -> str:
    """The image, built from the checkout on the Debian base. Every stage is tagged, so that its layers stay
    as the next run's cache (a builder stage's last image would otherwise be left dangling); the images the
    tags held before, and tags of stages the Dockerfile no longer has, are removed."""
    stages = [*dockerfile_stages(), "service"]
    replaced = []
    try:
        for stage in stages:
            tag = f"{REPOSITORY}:{stage}"
            before = image_id(tag)
            target = [] if stage == "service" else ["--target", stage]
            docker("build", "--build-arg", f"PYTHON_IMAGE={base_image}", *target, "-t", tag, str(ROOT),
                   timeout=BUILD_DEADLINE_S)
            if before and before != image_id(tag):
                replaced.append(before)
    finally:
        listed = docker("image", "ls", "--format", "{{.Tag}}", REPOSITORY, check=False).stdout.split()
        gone = [f"{REPOSITORY}:{tag}" for tag in listed if tag not in stages]
        # the last image first: an old stage image may be the parent of a later stage's
        for old in [*gone, *reversed(replaced)]:
            docker("rmi", old, check=False)
    return SERVICE_TAG


def container_address(name: str) -> str:
    address = docker("inspect", "--format", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
                     name).stdout.strip()
    assert address, f"container {name} has no IP address"
    return f"http://{address}:8000"


def fetch(url: str, body: dict | None = None, headers: dict | None = None) -> tuple[int, dict, bytes]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={**({"Content-Type": "application/json"} if data else {}),
                                                             **(headers or {})})
    with urllib.request.urlopen(request, timeout=60) as answer:  # a bound on a hang, not a speed
        return answer.status, dict(answer.headers), answer.read()


def wait_for_health(name: str) -> str:
    url = container_address(name)
    deadline = time.monotonic() + START_DEADLINE_S
    while time.monotonic() < deadline:
        state = docker("inspect", "--format", "{{.State.Running}}", name).stdout.strip()
        if state != "true":
            pytest.fail(f"the container stopped at start:\n{docker('logs', name, check=False).stderr[-3000:]}")
        try:
            status, _, raw = fetch(f"{url}/healthz")
            if status == 200:
                return url
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    pytest.fail(f"no /healthz within {START_DEADLINE_S} s:\n{docker('logs', name, check=False).stderr[-3000:]}")


def run_container(image: str, *options: str) -> str:
    name = f"canasta-referee-test-{uuid.uuid4().hex[:10]}"
    docker("run", "-d", "--name", name, *options, image)
    return name


@pytest.fixture(scope="module")
def service(image):
    """A container run as deploy/ runs it: read-only root, /tmp a tmpfs, no capabilities, no new privileges."""
    name = run_container(image, "--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL",
                         "--security-opt", "no-new-privileges")
    try:
        yield {"name": name, "url": wait_for_health(name)}
    finally:
        docker("rm", "-f", name, check=False)


def in_container(service: dict, *command: str) -> str:
    return docker("exec", service["name"], *command).stdout


def local_answer(method: str, path: str, body: dict | None = None):
    """The same request answered in this process, by the checkout's code (the engine as Python)."""
    from web_api import create_app

    client = create_app().test_client()
    return client.open(path, method=method, json=body)


def test_the_container_answers_health_a_ruling_a_score_and_the_page(service):
    url = service["url"]
    status, _, raw = fetch(f"{url}/healthz")
    assert (status, json.loads(raw)) == (200, {"status": "ok", "variants": 4})
    status, _, raw = fetch(f"{url}/v1/adjudicate", FROZEN_PILE)
    ruling = json.loads(raw)
    assert status == 200 and ruling["verdict"] == "illegal"
    assert ruling["deciding"][0]["quote"] == "én nier og en joker gjør ikke det."
    # one truth: the compiled engine in the image answers as the checkout's Python does here, word for word
    assert ruling == local_answer("POST", "/v1/adjudicate", FROZEN_PILE).get_json()
    status, _, raw = fetch(f"{url}/v1/score", ROUND)
    score = json.loads(raw)
    assert status == 200 and score["variant"] == "sv-classic"
    assert score == local_answer("POST", "/v1/score", ROUND).get_json()
    status, headers, page = fetch(f"{url}/", headers={"Accept-Encoding": "identity"})
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    # and the image's own HEALTHCHECK, run as Docker runs it, finds it healthy
    check = json.loads(docker("inspect", "--format", "{{json .Config.Healthcheck.Test}}", service["name"]).stdout)
    assert check[0] == "CMD"
    docker("exec", service["name"], *check[1:])
    assert page.startswith(b"<!doctype html>") and b'<meta name="service-worker" content="/web/sw.js">' in page


def test_every_process_of_the_service_is_the_service_user_not_root(service):
    listed = docker("top", service["name"], "-eo", "uid,pid,args").stdout.splitlines()[1:]
    processes = [line.split(None, 2) for line in listed if line.strip()]
    gunicorn = [p for p in processes if "gunicorn" in p[2]]
    assert len(gunicorn) >= 3, listed  # the master and its two workers
    assert {int(p[0]) for p in processes} == {SERVICE_UID}, listed


def test_the_server_runs_the_compiled_engine(service):
    """Every module scripts/compile-engine compiles imports as an extension module in the image, and every
    process of the server has mypyc's library, which holds their code, mapped."""
    compile_engine = runpy.run_path(str(ROOT / "scripts" / "compile-engine"))
    names = [".".join(m.with_suffix("").parts) for m in compile_engine["modules"](ROOT)]
    assert {"adjudicator.rules.engine", "adjudicator.input.parse", "adjudicator.answers.serialize"} <= set(names)
    code = ("import importlib, json, sys; "
            "print(json.dumps({n: type(importlib.import_module(n).__loader__).__name__ for n in sys.argv[1:]}))")
    loaders = json.loads(in_container(service, "python", "-c", code, *names))
    assert {n for n, loader in loaders.items() if loader != "ExtensionFileLoader"} == set(), loaders
    # (a module imported by another of its group is set up inside that library, without its own small .so)
    code = ("import json, pathlib; maps = {}\n"
            "for p in pathlib.Path('/proc').glob('[0-9]*'):\n"
            "    argv = (p / 'cmdline').read_bytes().split(b'\\0')\n"
            "    if len(argv) > 1 and argv[1].endswith(b'/gunicorn'): maps[p.name] = (p / 'maps').read_text()\n"
            "print(json.dumps(maps))")
    server = json.loads(in_container(service, "python", "-c", code))
    assert len(server) >= 3, server.keys()  # the master and its two workers
    for process, mapped in server.items():
        assert re.search(r" /app/\w+__mypyc\.cpython-[\w-]+\.so$", mapped, flags=re.M), process
        # and the small .so of a compiled module the Python code imports (which one: the answers' use cases, or
        # another, as the imports between the engine's modules change)
        assert re.search(r" /app/adjudicator/\S+\.cpython-[\w-]+\.so$", mapped, flags=re.M), process


def test_the_variant_parse_cache_is_filled_at_build_time_and_only_read(service):
    """The service user finds every variant file's parse in the root-owned cache (so PyYAML is never imported)
    and cannot change it; serving writes nothing there."""
    before = in_container(service, "ls", "-lnA", "--time-style=+%s", "/app/.cache")
    folder = in_container(service, "stat", "-c", "%u %a", "/app/.cache").split()
    assert folder == ["0", "755"], folder
    files = [line.split() for line in before.splitlines()[1:]]
    assert len(files) >= 4 and all(f[2] == "0" and f[0] == "-rw-r--r--" for f in files), before
    code = ("import sys; from adjudicator.variants import load_all; n = len(load_all()); "
            "print(n, 'yaml' in sys.modules)")
    assert in_container(service, "python", "-c", code).split() == ["4", "False"]
    refused = docker("exec", service["name"], "touch", "/app/.cache/x", check=False)
    assert refused.returncode != 0
    fetch(f"{service['url']}/v1/adjudicate", FROZEN_PILE)
    assert in_container(service, "ls", "-lnA", "--time-style=+%s", "/app/.cache") == before


def test_the_offline_engine_files_are_served(service):
    """The page names the offline engine (built in the image's Node stage) and every file of it is served."""
    _, _, page = fetch(f"{service['url']}/", headers={"Accept-Encoding": "identity"})
    found = re.search(rb'<meta name="engine" content="([^"]*)"', page)
    assert found, "the page names no offline engine"
    about = json.loads(html.unescape(found.group(1).decode()))
    assert about["version"], "the image's page says the offline engine is not installed"
    assert {"referee.zip", "pyodide.asm.wasm"} <= set(about["sizes"]), about
    for name, size in about["sizes"].items():
        status, headers, raw = fetch(f"{service['url']}{about['base']}{name}", headers={"Accept-Encoding": "identity"})
        assert status == 200 and len(raw) == size, name


def test_the_image_holds_the_checkout_without_its_environments_and_builds(service):
    """.dockerignore: the checkout's .venv, node_modules, tests and build outputs stay out of the image; its
    extension modules are the builder stage's, one for each compiled module, and no other."""
    listing = set(in_container(service, "ls", "-A", "/app").split())
    assert {"app.py", "adjudicator", "web_api", "variants", "web", "phone_engine"} <= listing
    assert not listing & {".venv", ".git", "tests", "bench", ".pytest_cache", "deploy"}, listing
    assert in_container(service, "find", "/app", "-name", "node_modules") == ""
    compile_engine = runpy.run_path(str(ROOT / "scripts" / "compile-engine"))
    expected = {m.with_suffix("").as_posix() for m in compile_engine["modules"](ROOT)}
    found = in_container(service, "find", "/app", "-name", "*.so").split()
    stems = {re.sub(r"\.cpython-[\w-]+\.so$", "", path.removeprefix("/app/")) for path in found}
    assert {s for s in stems if "__mypyc" not in s} == expected
    assert len(found) == len(expected) + 1  # and mypyc's shared library


def test_sigterm_stops_the_readme_container_cleanly_within_the_grace_period(image):
    """As Kubernetes stops a pod of deploy/: its preStop command, then SIGTERM, and a kill only when the grace
    period is over (``docker stop --time``). The container must have exited by itself, with gunicorn's own
    shutdown."""
    manifest = next(d for d in yaml.safe_load_all((ROOT / "deploy" / "canasta-referee.yaml").read_text())
                    if d and d.get("kind") == "Deployment")
    pod = manifest["spec"]["template"]["spec"]
    grace, pre_stop = pod["terminationGracePeriodSeconds"], pod["containers"][0]["lifecycle"]["preStop"]["exec"]
    name = run_container(image)  # as docs/image.md runs it (docker run -p 8000:8000 canasta-referee), port aside
    try:
        url = wait_for_health(name)
        fetch(f"{url}/v1/adjudicate", FROZEN_PILE)
        docker("exec", name, *pre_stop["command"], timeout=grace)
        docker("stop", "--time", str(grace), name, timeout=grace + 60)
        state = json.loads(docker("inspect", "--format", "{{json .State}}", name).stdout)
        logs = docker("logs", name).stderr
        assert state["ExitCode"] == 0 and not state["OOMKilled"], (state, logs[-2000:])
        assert "Handling signal: term" in logs and "Shutting down: Master" in logs, logs[-2000:]
        assert "Traceback" not in logs and "[ERROR]" not in logs, logs[-2000:]
    finally:
        docker("rm", "-f", name, check=False)
