"""The federation's Kubernetes manifests (issue 49, point 1) are valid YAML and say what the
issue asks: CloudNativePG with a read replica for the public pages, several stateless nodes
with no session affinity, every setting a node reads named as `FederationSettings` reads it."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from tableside.federation import config

K8S = Path(__file__).resolve().parents[2] / "infra" / "k8s"


def documents(name: str) -> list[dict]:
    return [d for d in yaml.safe_load_all((K8S / name).read_text()) if d]


def test_every_manifest_is_valid_yaml_with_a_kind() -> None:
    for path in sorted(K8S.glob("*.yaml")):
        assert all("kind" in d and "apiVersion" in d for d in documents(path.name)), path


def test_the_federation_runs_on_cloudnativepg_with_replicas_and_stateless_nodes() -> None:
    kinds = {d["kind"]: d for d in documents("federation.yaml")}
    assert kinds["Cluster"]["apiVersion"].startswith("postgresql.cnpg.io/")
    assert kinds["Cluster"]["spec"]["instances"] >= 2
    assert kinds["Deployment"]["spec"]["replicas"] >= 2
    assert kinds["Service"]["spec"].get("sessionAffinity", "None") == "None"
    env = kinds["Deployment"]["spec"]["template"]["spec"]["containers"][0]["env"]
    named = {e["name"] for e in env if e["name"].startswith("TABLESIDE_FEDERATION_")}
    read = set(re.findall(r'get\("([A-Z_]+)"\)', Path(config.__file__).read_text()))
    assert named <= {f"TABLESIDE_FEDERATION_{n}" for n in read}, named
    urls = {e["name"]: e.get("value", "") for e in env}
    assert "-ro:" in urls["TABLESIDE_FEDERATION_READ_URL"]
    assert "-rw:" in urls["TABLESIDE_FEDERATION_DATABASE_URL"]
