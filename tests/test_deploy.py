"""Structure of the Kubernetes manifests in ``deploy/``: kinds, probes, resources, security, wiring.

The manifests are parsed with ``yaml.safe_load_all``; no cluster is needed. When the optional
``kubernetes-validate`` package is installed, each document is also checked against the
Kubernetes OpenAPI schema.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
MANIFESTS = sorted(p for p in DEPLOY.glob("*.y*ml") if p.name != "kustomization.yaml") if DEPLOY.is_dir() else []
IMAGE_NAME = "canasta-referee"  # docs/image.md: docker build -t canasta-referee .
QUANTITY = re.compile(r"^\d+(\.\d+)?(m|Ki|Mi|Gi|Ti|k|M|G|T)?$")


def documents() -> list[dict]:
    docs = []
    for path in MANIFESTS:
        for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")):
            if doc is not None:
                docs.append(doc)
    return docs


DOCS = documents()


def of_kind(kind: str) -> list[dict]:
    return [d for d in DOCS if d.get("kind") == kind]


def one(kind: str) -> dict:
    found = of_kind(kind)
    assert len(found) == 1, f"expected one {kind}, found {len(found)}"
    return found[0]


def pod_spec() -> dict:
    return one("Deployment")["spec"]["template"]["spec"]


def container() -> dict:
    containers = pod_spec()["containers"]
    assert len(containers) == 1
    return containers[0]


def container_port(port) -> int:
    """A probe's or Service's port (a number or the name of a container port) as a number."""
    if isinstance(port, int):
        return port
    by_name = {p["name"]: p["containerPort"] for p in container()["ports"] if "name" in p}
    assert port in by_name, f"port {port!r} names no container port"
    return by_name[port]


def cpu_millis(quantity) -> float:
    text = str(quantity)
    assert QUANTITY.match(text), text
    return float(text[:-1]) if text.endswith("m") else float(text) * 1000


def mebibytes(quantity) -> float:
    text = str(quantity)
    assert QUANTITY.match(text), text
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024, "k": 1e3 / 2**20, "M": 1e6 / 2**20, "G": 1e9 / 2**20}
    for suffix, factor in units.items():
        if text.endswith(suffix):
            return float(text[: -len(suffix)]) * factor
    return float(text) / 2**20


def env() -> dict[str, str]:
    return {e["name"]: e.get("value") for e in container().get("env", [])}


# ----------------------------------------------------------------------------------------------


def test_manifests_exist_and_parse():
    assert MANIFESTS, "no YAML manifests in deploy/"
    assert DOCS
    for doc in DOCS:
        assert isinstance(doc, dict)
        assert doc.get("apiVersion") and doc.get("kind"), doc
        assert doc["metadata"]["name"]


def test_kinds_and_api_versions():
    versions = {d["kind"]: d["apiVersion"] for d in DOCS}
    assert versions["Deployment"] == "apps/v1"
    assert versions["Service"] == "v1"
    assert versions["HorizontalPodAutoscaler"] == "autoscaling/v2"
    if "PodDisruptionBudget" in versions:
        assert versions["PodDisruptionBudget"] == "policy/v1"
    for kind in ("Deployment", "Service", "HorizontalPodAutoscaler"):
        one(kind)


def test_no_secrets_or_state():
    """Stateless: no volumes that persist or share data, no StatefulSet, no Secret baked in."""
    kinds = {d["kind"] for d in DOCS}
    assert not kinds & {"StatefulSet", "PersistentVolumeClaim", "PersistentVolume", "Secret"}
    for volume in pod_spec().get("volumes", []):
        assert set(volume) <= {"name", "emptyDir"}, f"volume {volume['name']} is not an emptyDir"


def test_deployment_selector_matches_its_pod_labels():
    dep = one("Deployment")
    selector = dep["spec"]["selector"]["matchLabels"]
    labels = dep["spec"]["template"]["metadata"]["labels"]
    assert selector and selector.items() <= labels.items()


def test_image_is_pinned_and_consistent():
    images = [c["image"] for d in of_kind("Deployment")
              for c in d["spec"]["template"]["spec"]["containers"] + d["spec"]["template"]["spec"].get("initContainers", [])]
    assert images
    assert len(set(images)) == 1, images
    image = images[0]
    name, _, tag = image.rpartition("@")[0].rpartition(":") if "@" in image else image.rpartition(":")
    assert name.rsplit("/", 1)[-1] == IMAGE_NAME, image
    assert tag and tag != "latest", f"{image}: pin a version tag or digest"


def test_container_port_matches_the_image_and_gunicorn_default(monkeypatch):
    ports = container()["ports"]
    assert [p["containerPort"] for p in ports] == [8000]
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^EXPOSE\s+8000\b", dockerfile, flags=re.M)
    assert env().get("PORT", "8000") == "8000"
    monkeypatch.delenv("PORT", raising=False)
    assert runpy.run_path(str(ROOT / "gunicorn.conf.py"))["bind"].endswith(":8000")


@pytest.mark.parametrize("probe", ["readinessProbe", "livenessProbe"])
def test_probes_hit_healthz_on_the_container_port(probe):
    spec = container()[probe]
    assert spec["httpGet"]["path"] == "/healthz"
    assert container_port(spec["httpGet"]["port"]) == 8000
    assert spec.get("scheme", "HTTP") == "HTTP"
    assert 1 <= spec["timeoutSeconds"] <= spec["periodSeconds"]


def test_liveness_is_more_patient_than_readiness():
    ready, live = container()["readinessProbe"], container()["livenessProbe"]
    assert live["periodSeconds"] * live["failureThreshold"] > ready["periodSeconds"] * ready["failureThreshold"]


def test_resources_requests_and_limits():
    res = container()["resources"]
    for key in ("cpu", "memory"):
        assert key in res["requests"] and key in res["limits"], key
    assert cpu_millis(res["requests"]["cpu"]) <= cpu_millis(res["limits"]["cpu"])
    assert mebibytes(res["requests"]["memory"]) <= mebibytes(res["limits"]["memory"])
    assert mebibytes(res["limits"]["memory"]) >= 128  # a preloaded master plus two workers use about 55 MiB


def test_web_concurrency_is_set_and_fits_the_cpu_limit():
    workers = env().get("WEB_CONCURRENCY")
    assert workers is not None and workers.isdigit() and int(workers) >= 1
    limit = cpu_millis(container()["resources"]["limits"]["cpu"])
    # CPU-bound workers: more workers than CPUs of the limit only adds throttling and latency
    assert int(workers) <= max(1, limit // 1000)


def test_cors_allow_list_is_configured_by_env():
    assert "CORS_ALLOWED_ORIGINS" in env()
    assert env()["CORS_ALLOWED_ORIGINS"] != "*"


def test_runs_as_non_root_with_a_read_only_root_filesystem():
    pod = pod_spec().get("securityContext", {})
    ctr = container().get("securityContext", {})

    def setting(key):
        return ctr.get(key, pod.get(key))

    assert setting("runAsNonRoot") is True
    assert setting("runAsUser") not in (None, 0)
    assert ctr["readOnlyRootFilesystem"] is True
    assert ctr["allowPrivilegeEscalation"] is False
    assert ctr.get("privileged", False) is False
    assert "ALL" in ctr["capabilities"]["drop"]
    assert setting("seccompProfile") == {"type": "RuntimeDefault"}
    assert pod_spec().get("automountServiceAccountToken") is False


def test_run_as_user_is_the_images_user():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    match = re.search(r"useradd\b[^\n]*--uid\s+(\d+)", dockerfile)
    assert match, "the Dockerfile creates no user with a fixed uid"
    pod = pod_spec().get("securityContext", {})
    uid = container().get("securityContext", {}).get("runAsUser", pod.get("runAsUser"))
    assert uid == int(match.group(1))


def test_writable_temp_dir_for_the_read_only_root():
    mounts = {m["mountPath"]: m["name"] for m in container().get("volumeMounts", [])}
    assert "/tmp" in mounts
    volumes = {v["name"]: v for v in pod_spec().get("volumes", [])}
    assert "emptyDir" in volumes[mounts["/tmp"]]


def test_graceful_shutdown_fits_the_grace_period(monkeypatch):
    monkeypatch.delenv("PORT", raising=False)
    conf = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    pre_stop = container().get("lifecycle", {}).get("preStop", {})
    pre_stop_seconds = 0
    if "exec" in pre_stop:
        found = re.search(r"sleep\((\d+)\)", " ".join(pre_stop["exec"]["command"]))
        pre_stop_seconds = int(found.group(1)) if found else 0
    elif "sleep" in pre_stop:
        pre_stop_seconds = pre_stop["sleep"]["seconds"]
    assert pod_spec().get("terminationGracePeriodSeconds", 30) > pre_stop_seconds + conf["graceful_timeout"]


def test_service_selects_the_deployment_pods_on_the_container_port():
    svc = one("Service")
    labels = one("Deployment")["spec"]["template"]["metadata"]["labels"]
    assert svc["spec"]["selector"] and svc["spec"]["selector"].items() <= labels.items()
    assert svc["spec"].get("sessionAffinity", "None") == "None"  # stateless: no sticky sessions
    ports = svc["spec"]["ports"]
    assert ports
    for port in ports:
        assert container_port(port.get("targetPort", port["port"])) == 8000


def test_hpa_scales_the_deployment_on_cpu():
    hpa = one("HorizontalPodAutoscaler")
    dep = one("Deployment")
    ref = hpa["spec"]["scaleTargetRef"]
    assert (ref["apiVersion"], ref["kind"], ref["name"]) == ("apps/v1", "Deployment", dep["metadata"]["name"])
    assert 2 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    cpu = [m for m in hpa["spec"]["metrics"] if m["type"] == "Resource" and m["resource"]["name"] == "cpu"]
    assert len(cpu) == 1
    target = cpu[0]["resource"]["target"]
    assert target["type"] == "Utilization" and 0 < target["averageUtilization"] <= 100
    # a fixed replica count in the Deployment would be re-applied on every deploy and fight the HPA
    assert "replicas" not in dep["spec"]


def test_pdb_selects_the_deployment_pods():
    pdbs = of_kind("PodDisruptionBudget")
    assert pdbs, "a PodDisruptionBudget keeps replicas up through node drains"
    labels = one("Deployment")["spec"]["template"]["metadata"]["labels"]
    for pdb in pdbs:
        assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
        assert ("minAvailable" in pdb["spec"]) != ("maxUnavailable" in pdb["spec"])
        if "minAvailable" in pdb["spec"] and isinstance(pdb["spec"]["minAvailable"], int):
            assert pdb["spec"]["minAvailable"] < one("HorizontalPodAutoscaler")["spec"]["minReplicas"]


def test_names_and_labels_are_consistent():
    for doc in DOCS:
        assert doc["metadata"]["name"] == IMAGE_NAME
        assert doc["metadata"].get("labels", {}).get("app.kubernetes.io/name") == IMAGE_NAME


def test_manifests_match_the_kubernetes_schema():
    import kubernetes_validate as kv  # requirements-dev.txt: the manifests must validate, not be skipped

    for doc in DOCS:
        kv.validate(doc, "1.30", strict=True)
