"""Start-up: ``import app`` loads and verifies the variants and leaves the rest of the engine to its first answer;
the server's master loads that before it forks its workers.

What start-up costs is measured, not asserted (``bench/http_bench.py``: start-up and the first request; BENCHMARKS.md).
These tests hold what keeps it cheap and what keeps the server's first requests fast: a module of the web layer
that imports the engine at its top (or a package that imports its wings at once) puts the rules back into every
start and fails here, and a config without the master's ``when_ready`` leaves each worker to load the engine for
itself. Each check runs in a fresh interpreter: this one has the engine loaded by the other tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# What the first answer loads, and start-up does not: the rules, the options search, the scores, the comparisons,
# the replays, the parser with marshmallow, the answers' documents
LOADED_AT_THE_FIRST_ANSWER = ("adjudicator.rules.engine", "adjudicator.options.listing", "adjudicator.scoring",
                              "adjudicator.compare.comparison", "adjudicator.replay", "adjudicator.input.parse",
                              "adjudicator.input.shape", "adjudicator.answers.use_cases",
                              "adjudicator.answers.serialize", "marshmallow")


def fresh(code: str) -> dict:
    """What ``code`` (run in a new interpreter at the repository root) printed last, read as JSON."""
    ran = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout.strip().splitlines()[-1])


def test_import_app_loads_the_variants_and_leaves_the_engine_to_its_first_answer():
    seen = fresh("import json, sys, app; from web_api.variants_api import VARIANTS_KEY\n"
                 f"heavy = {LOADED_AT_THE_FIRST_ANSWER!r}\n"
                 "before = [m for m in heavy if m in sys.modules]\n"
                 "client = app.app.test_client()\n"
                 "ok = client.post('/v1/adjudicate', json={'variant': 'sv-classic', 'situation': {},"
                 " 'action': {'type': 'draw'}}).status_code\n"
                 "print(json.dumps({'variants': sorted(app.app.extensions[VARIANTS_KEY]), 'before': before, 'ok': ok,"
                 " 'after': [m for m in heavy if m not in sys.modules]}))")
    assert seen["variants"] == ["da-ludo", "no-pagat", "sv-classic", "sv-gamerules"]  # loaded and verified
    assert seen["before"] == []
    assert seen["ok"] == 200 and seen["after"] == []  # the first answer loaded the rest


def test_the_servers_master_loads_the_engine_and_freezes_it_before_it_forks():
    """gunicorn calls ``when_ready`` in the master after preloading the app and before the first fork."""
    seen = fresh("import gc, json, runpy, sys, types, app\n"
                 f"heavy = {LOADED_AT_THE_FIRST_ANSWER!r}\n"
                 "conf = runpy.run_path('gunicorn.conf.py')\n"
                 "server = types.SimpleNamespace(cfg=types.SimpleNamespace(preload_app=conf['preload_app']),"
                 " app=types.SimpleNamespace(wsgi=lambda: app.app))\n"
                 "frozen = gc.get_freeze_count()\n"
                 "conf['when_ready'](server)\n"
                 "print(json.dumps({'missing': [m for m in heavy if m not in sys.modules],"
                 " 'frozen': gc.get_freeze_count() - frozen}))")
    assert seen["missing"] == []
    assert seen["frozen"] > 0  # what the engine loaded is out of the collector's reach, as app.py does for the rest


def test_loading_the_engine_leaves_another_app_alone():
    """The benchmark's floor (bare Flask) runs under the same gunicorn config: the hook loads no engine into it."""
    seen = fresh("import json, sys, flask; from web_api import load_engine\n"
                 "load_engine(flask.Flask('floor'))\n"
                 f"print(json.dumps([m for m in {LOADED_AT_THE_FIRST_ANSWER!r} if m in sys.modules]))")
    assert seen == []


@pytest.mark.parametrize("first", ["nothing", "the wings"])
def test_every_name_of_the_library_is_its_modules_own(first):
    """``adjudicator`` imports its names when first asked for: each is the object of the module it names, and
    ``compare`` and ``replay`` stay the functions when their wings (``adjudicator.compare``, ``adjudicator.replay``)
    were imported first."""
    wings = "import adjudicator.compare.comparison, adjudicator.replay, adjudicator.scoring\n"
    wings = wings if first == "the wings" else ""
    seen = fresh("import importlib, json, adjudicator\n" + wings +
                 "wrong = []\n"
                 "for name in adjudicator.__all__:\n"
                 "    where = adjudicator.WHERE[name]\n"
                 "    module, attribute = where if isinstance(where, tuple) else (where, name)\n"
                 "    own = getattr(importlib.import_module('adjudicator.' + module), attribute)\n"
                 "    if getattr(adjudicator, name) is not own: wrong.append(name)\n"
                 "print(json.dumps({'wrong': wrong, 'compare': callable(adjudicator.compare),"
                 " 'replay': callable(adjudicator.replay),"
                 " 'listed': sorted(set(adjudicator.__all__) - set(dir(adjudicator)))}))")
    assert seen == {"wrong": [], "compare": True, "replay": True, "listed": []}


def test_every_public_name_has_a_home():
    import adjudicator

    assert set(adjudicator.__all__) == set(adjudicator.WHERE)


def test_the_phones_archive_holds_every_module_an_answer_loads():
    """``scripts/build-engine-archive`` ships the modules it finds by following import statements from the phone's
    entry points; a name imported when first asked for (``adjudicator/__init__.py``) is no statement, so the phone
    names the module it runs. Every module of the engine that answers load is in the archive."""
    seen = fresh("import json, sys; sys.path.insert(0, 'phone_engine')\n"
                 "from importlib.machinery import SourceFileLoader\n"
                 "builder = SourceFileLoader('build_engine_archive', 'scripts/build-engine-archive').load_module()\n"
                 "shipped = set(builder.engine_modules())\n"
                 "import referee_local\n"
                 "body = {'variant': 'sv-classic', 'situation': {}, 'action': {'type': 'draw'}}\n"
                 "for path in referee_local.ROUTES:\n"
                 "    referee_local.answer(path, json.dumps(body), 'sv')\n"
                 "print(json.dumps(sorted(m for m in sys.modules\n"
                 "                        if m.startswith('adjudicator') and m not in shipped)))")
    assert seen == []
