"""The engine the Docker image runs: compiled to C by mypyc (scripts/compile-engine lists the modules).

Compiled code enforces the annotations at run time (a value of another type is a ``TypeError``, a 500
to a client), so the compiled engine is a build of its own and is tested as one: the suite runs again
in a copy of the project whose engine imports compiled. Left out of that second run: the browser
tests (the page's offline engine is the pure-Python package under Pyodide, and its online answers come
from the same service code tested here), the fresh installs (they build new environments from the
requirement files, not from this copy), the image (built from the checkout, its engine compiled in its own
stage), the check that the parsers read what the request schemas define (it watches the parsers' reads through
Python's own dict methods, which compiled code goes past; what the source reads is the same either way) and this
file.
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# the packages scripts/compile-engine compiles, as it lists them
SCRIPT = runpy.run_path(str(ROOT / "scripts" / "compile-engine"))
COMPILED, LEFT_AS_PYTHON, MODULES = SCRIPT["COMPILED_PACKAGES"], SCRIPT["LEFT_AS_PYTHON"], SCRIPT["COMPILED_MODULES"]
# A bound on a hang, not a speed: mypyc and the C compiler took over 10 minutes on 2 cores at load 10-25 (a whole
# run of the README's test command beside other test runs), where they take a few minutes on a quiet machine.
COMPILE_PATIENCE = 1800
NOT_AGAIN = ("tests/e2e", "tests/test_fresh_install.py", "tests/test_image.py", "tests/test_compiled_engine.py",
             "tests/test_openapi_requests.py")


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    """A copy of the project with its engine compiled, as the image's builder stage makes it."""
    root = tmp_path_factory.mktemp("compiled") / "app"
    made = subprocess.run([sys.executable, "scripts/compile-engine", str(root), "--copy-from", str(ROOT)], cwd=ROOT,
                          capture_output=True, text=True, timeout=COMPILE_PATIENCE)
    assert made.returncode == 0, made.stdout + made.stderr
    return root


def test_a_git_checkout_is_never_compiled_in_place():
    """A compiled module left in a checkout would shadow the source someone edits next."""
    refused = subprocess.run([sys.executable, "scripts/compile-engine", str(ROOT)], cwd=ROOT, capture_output=True,
                             text=True, timeout=60)
    assert refused.returncode != 0 and "git checkout" in refused.stderr
    assert not list((ROOT / "adjudicator" / "rules").glob("*.so"))


def test_every_engine_module_runs_compiled(compiled):
    modules = sorted(".".join(p.relative_to(compiled).with_suffix("").parts)
                     for package in COMPILED for p in (compiled / package).glob("*.py")
                     if p.name != "__init__.py" and p.relative_to(compiled) not in LEFT_AS_PYTHON)
    modules += [".".join(m.with_suffix("").parts) for m in MODULES]
    assert {"adjudicator.rules.engine", "adjudicator.rules.judge", "adjudicator.words.render",
            "adjudicator.input.parse", "adjudicator.answers.serialize"} <= set(modules)
    for name in modules:
        path = compiled.joinpath(*name.split("."))
        assert list(path.parent.glob(f"{path.name}.*.so")), f"{name} was not compiled"
    probe = ("import importlib, json; print(json.dumps({n: importlib.import_module(n).__file__"
             f" for n in {modules!r}}}))")
    ran = subprocess.run([sys.executable, "-c", probe], cwd=compiled, capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert all(path.endswith(".so") for path in json.loads(ran.stdout).values()), ran.stdout
    # and --check says so, as the image's last build step asks it
    checked = subprocess.run([sys.executable, "scripts/compile-engine", str(compiled), "--check"], cwd=ROOT,
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr


def test_the_suite_passes_against_the_compiled_engine(compiled):
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-x",
               *(f"--ignore={path}" for path in NOT_AGAIN)]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    # a bound on a hang, not a speed: the suite took 25 minutes at load 8-19 on 2 cores (CI's own 90 minutes bound
    # the whole run)
    ran = subprocess.run(command, cwd=compiled, capture_output=True, text=True, timeout=3600, env=env)
    tail = "\n".join(ran.stdout.splitlines()[-40:])
    assert ran.returncode == 0, tail
    assert " passed" in tail and " failed" not in tail, tail
