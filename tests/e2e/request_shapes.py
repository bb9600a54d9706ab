"""The bodies the phone page sends, held against the one statement of a request's shape.

Every browser test watches its pages (conftest.open_context): each body the page POSTs to the service, and
each it hands the engine on the phone (the worker's messages), must load under the marshmallow schemas that
check every request (adjudicator/input/shape.py) and be what openapi.yaml's request schemas (written from
them) allow. A member the page's request builders add that the schemas do not define fails the test that made
the page send it.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from adjudicator.input import shape
from adjudicator.model.errors import MalformedRequest
from adjudicator.variants import load_all

ROOT = Path(__file__).resolve().parents[2]
SPEC = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
REGISTRY = Registry().with_resource("urn:openapi", Resource.opaque(SPEC))
VARIANTS = load_all()
# POST path -> the kind shape.check takes (/v1/<kind>, or "batch"), and the request body's schema in openapi.yaml
KINDS = {path: ("batch" if path.endswith("/batch") else path.split("/")[2],
                op["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1])
         for path, op in SPEC["paths"].items() if "post" in op}
VALIDATORS = {path: Draft202012Validator({"$ref": f"urn:openapi#/components/schemas/{name}"}, registry=REGISTRY)
              for path, (_, name) in KINDS.items()}

# In the page, before its own scripts: each message the page posts to the engine's worker with a request body
# is told to the test too (window.__canastaSent, exposed by the test's context).
WORKER_BODIES = """(() => {
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && typeof message.path === 'string' && typeof message.body === 'string' && window.__canastaSent) {
      window.__canastaSent(message.path, message.body).catch(() => {});
    }
    return post.call(this, message, ...rest);
  };
})();"""


def refusals(path: str, text: str | None) -> list[str]:
    """What is wrong with a body the page sent to ``path`` (none for a path that takes no body)."""
    if path not in KINDS:
        return []
    kind, _ = KINDS[path]
    try:
        body = json.loads(text or "")
    except ValueError:
        return [f"{path}: the page sent a body that is not JSON: {text!r:.200}"]
    out = []
    try:
        shape.check(body, kind, VARIANTS)
    except MalformedRequest as refused:
        out.append(f"{path}: the request schemas refuse {[(i.pointer, i.message.key) for i in refused.issues]} "
                   f"in {text:.300}")
    errors = sorted(VALIDATORS[path].iter_errors(body), key=lambda e: list(e.path))
    if errors:
        out.append(f"{path}: openapi.yaml refuses {[(list(e.path), e.message[:120]) for e in errors[:3]]} "
                   f"in {text:.300}")
    return out
