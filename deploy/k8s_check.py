#!/usr/bin/env python3
"""Offline checks of Quire's rendered Kubernetes manifests (called by deploy/k8s-check.sh).

    k8s_check.py [--k8s-version 1.31] [--no-schema] [--approximate] NAME=RENDERED.yaml ...

For every rendered overlay it checks, and reports every failure before exiting non-zero:
- each document against the Kubernetes OpenAPI schema of the given version, strictly
  (kubernetes-validate, bundled schemas, no cluster); custom resources (Strimzi, Prometheus
  Operator, External Secrets) against the few fields Quire relies on;
- the rules of DESIGN.md section 8 for every workload: non-root, read-only root
  filesystem, no capabilities, RuntimeDefault seccomp, requests and limits, probes (gRPC
  ones for gRPC services), pinned images;
- that names and labels meet: Services, PDBs, HPAs and network policies select pods that
  exist; ConfigMaps and Secrets that pods use are rendered or come from an ExternalSecret;
- that the Kafka topics are the ones the local broker gets (deploy/local/infra.sh), and
  that the prod overlay renders no Secret (its secrets are external).
--approximate (no kustomize available) keeps the checks that still hold on unpatched files.

    k8s_check.py render-approx DIR > out.yaml

is the stand-in for `kustomize build` where no kustomize exists: it checks that every file
a kustomization names exists and concatenates the resources, without patches or generators.
"""
import argparse
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob"}

# Custom resources: the fields Quire relies on, as dotted paths that must be present
# ("a|b": either one).
CUSTOM_REQUIRED = {
    ("kafka.strimzi.io/v1beta2", "Kafka"): ["spec.kafka.listeners", "spec.entityOperator.topicOperator"],
    ("kafka.strimzi.io/v1beta2", "KafkaNodePool"): ["metadata.labels.strimzi.io/cluster", "spec.replicas", "spec.roles", "spec.storage.type"],
    ("kafka.strimzi.io/v1beta2", "KafkaTopic"): ["metadata.labels.strimzi.io/cluster", "spec.topicName", "spec.partitions", "spec.replicas"],
    ("monitoring.coreos.com/v1", "ServiceMonitor"): ["spec.selector", "spec.endpoints"],
    ("external-secrets.io/v1", "ExternalSecret"): ["spec.secretStoreRef.name", "spec.target.name", "spec.data|spec.dataFrom"],
}


class Report:
    def __init__(self):
        self.errors = []
        self.warnings = []

    def error(self, where, msg):
        self.errors.append(f"{where}: {msg}")

    def warn(self, where, msg):
        self.warnings.append(f"{where}: {msg}")


def dig(obj, dotted):
    """Value at a dotted path; label keys may themselves hold dots, so try longest keys."""
    parts = dotted.split(".")
    cur = obj
    i = 0
    while i < len(parts):
        if not isinstance(cur, dict):
            return None
        for j in range(len(parts), i, -1):
            key = ".".join(parts[i:j])
            if key in cur:
                cur = cur[key]
                i = j
                break
        else:
            return None
    return cur


def load_docs(path):
    with open(path) as f:
        return [d for d in yaml.safe_load_all(f) if d]


def pod_spec_of(doc):
    kind = doc.get("kind")
    spec = doc.get("spec") or {}
    if kind == "CronJob":
        return ((spec.get("jobTemplate") or {}).get("spec") or {}).get("template")
    if kind in WORKLOADS:
        return spec.get("template")
    return None


def label_match(selector, labels):
    """A LabelSelector (matchLabels and matchExpressions) against a label map."""
    if selector is None:
        return False
    for k, v in (selector.get("matchLabels") or {}).items():
        if labels.get(k) != v:
            return False
    for expr in selector.get("matchExpressions") or []:
        key, op, values = expr["key"], expr["operator"], expr.get("values") or []
        if op == "In" and labels.get(key) not in values:
            return False
        if op == "NotIn" and labels.get(key) in values:
            return False
        if op == "Exists" and key not in labels:
            return False
        if op == "DoesNotExist" and key in labels:
            return False
    return True


def check_schema(name, docs, version, rep, use_schema):
    validator = None
    if use_schema:
        import kubernetes_validate.utils as kv

        validator = kv
    for doc in docs:
        where = f"{name}: {doc.get('kind')}/{(doc.get('metadata') or {}).get('name')}"
        for field in ("apiVersion", "kind", "metadata"):
            if field not in doc:
                rep.error(where, f"missing {field}")
        if not (doc.get("metadata") or {}).get("name"):
            rep.error(where, "missing metadata.name")
        key = (doc.get("apiVersion"), doc.get("kind"))
        if key in CUSTOM_REQUIRED:
            for path in CUSTOM_REQUIRED[key]:
                if all(dig(doc, p) is None for p in path.split("|")):
                    rep.error(where, f"custom resource lacks {path.replace('|', ' or ')}")
            continue
        if validator is None:
            continue
        try:
            validator.validate(doc, version, strict=True)
        except validator.SchemaNotFoundError:
            rep.error(where, f"no schema for {doc.get('apiVersion')} {doc.get('kind')} (a typo, or a CRD this check does not know)")
        except validator.ValidationError as e:
            path = "/".join(str(p) for p in e.absolute_path)
            rep.error(where, f"schema ({version}): {path}: {e.message}")


def check_workloads(name, docs, rep, strict_images, check_images):
    for doc in docs:
        tmpl = pod_spec_of(doc)
        if tmpl is None:
            continue
        kind = doc["kind"]
        where = f"{name}: {kind}/{doc['metadata']['name']}"
        spec = tmpl.get("spec") or {}
        labels = (tmpl.get("metadata") or {}).get("labels") or {}
        psc = spec.get("securityContext") or {}
        if psc.get("runAsNonRoot") is not True:
            rep.error(where, "pod securityContext.runAsNonRoot must be true")
        pod_seccomp = (psc.get("seccompProfile") or {}).get("type")
        if spec.get("automountServiceAccountToken") is not False:
            rep.warn(where, "automountServiceAccountToken is not false")
        inits = spec.get("initContainers") or []
        for c in inits + (spec.get("containers") or []):
            cw = f"{where} container {c.get('name')}"
            sc = c.get("securityContext") or {}
            if sc.get("allowPrivilegeEscalation") is not False:
                rep.error(cw, "securityContext.allowPrivilegeEscalation must be false")
            if sc.get("readOnlyRootFilesystem") is not True:
                rep.error(cw, "securityContext.readOnlyRootFilesystem must be true")
            if "ALL" not in ((sc.get("capabilities") or {}).get("drop") or []):
                rep.error(cw, "securityContext.capabilities.drop must hold ALL")
            if (sc.get("seccompProfile") or {}).get("type", pod_seccomp) != "RuntimeDefault":
                rep.error(cw, "seccompProfile must be RuntimeDefault (pod or container)")
            res = c.get("resources") or {}
            for part in ("requests", "limits"):
                for r in ("cpu", "memory"):
                    if r not in (res.get(part) or {}):
                        rep.error(cw, f"resources.{part}.{r} is missing")
            image = c.get("image") or ""
            tag = image.rsplit("/", 1)[-1]
            if check_images and "@" not in image and (":" not in tag or tag.endswith(":latest")):
                msg = f"image {image!r} has no pinned tag"
                (rep.error if strict_images else rep.warn)(cw, msg)
            # An init container runs to completion before the pod starts: the API server
            # refuses probes on it (a sidecar, restartPolicy Always, is a container).
            init = any(c is i for i in inits) and c.get("restartPolicy") != "Always"
            if kind in ("Deployment", "StatefulSet", "DaemonSet") and not init:
                if "readinessProbe" not in c or "livenessProbe" not in c:
                    rep.error(cw, "needs a readinessProbe and a livenessProbe")
                if labels.get("app.kubernetes.io/component") == "service":
                    if "grpc" not in (c.get("livenessProbe") or {}):
                        rep.error(cw, "a gRPC service's livenessProbe must use the grpc probe")


def check_references(name, docs, rep, approximate, partial):
    """approximate: unrendered files, labels not applied yet; partial: secrets come later."""
    if approximate:
        return
    pods = []  # (namespace, labels, where, pod spec)
    for doc in docs:
        tmpl = pod_spec_of(doc)
        if tmpl is not None:
            pods.append(((tmpl.get("metadata") or {}).get("labels") or {}, f"{doc['kind']}/{doc['metadata']['name']}", tmpl.get("spec") or {}))
    by_kind = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], {})[doc["metadata"]["name"]] = doc

    def selects_some(selector):
        return any(label_match(selector, labels) for labels, _, _ in pods)

    for svc in by_kind.get("Service", {}).values():
        sel = (svc.get("spec") or {}).get("selector")
        if sel and not selects_some({"matchLabels": sel}):
            rep.error(f"{name}: Service/{svc['metadata']['name']}", f"selector {sel} matches no pod template")
    for pdb in by_kind.get("PodDisruptionBudget", {}).values():
        if not selects_some(pdb["spec"].get("selector")):
            rep.error(f"{name}: PodDisruptionBudget/{pdb['metadata']['name']}", "selector matches no pod template")
    for hpa in by_kind.get("HorizontalPodAutoscaler", {}).values():
        ref = hpa["spec"]["scaleTargetRef"]
        if ref["name"] not in by_kind.get(ref["kind"], {}):
            rep.error(f"{name}: HorizontalPodAutoscaler/{hpa['metadata']['name']}", f"target {ref['kind']}/{ref['name']} is not rendered")

    # Network policies: a selector that names pods Strimzi makes is fine; any other must
    # select at least one of our pod templates, or the path it opens leads nowhere.
    def strimzi(sel):
        return any(k.startswith("strimzi.io/") for k in (sel or {}).get("matchLabels", {}))

    for np in by_kind.get("NetworkPolicy", {}).values():
        where = f"{name}: NetworkPolicy/{np['metadata']['name']}"
        spec = np["spec"]
        sel = spec.get("podSelector") or {}
        if sel and not strimzi(sel) and not selects_some(sel):
            rep.error(where, f"podSelector {sel} matches no pod template")
        for rule in (spec.get("ingress") or []) + (spec.get("egress") or []):
            for peer in (rule.get("from") or []) + (rule.get("to") or []):
                psel = peer.get("podSelector")
                if psel and "namespaceSelector" not in peer and not strimzi(psel) and not selects_some(psel):
                    rep.error(where, f"peer podSelector {psel} matches no pod template")

    if partial:
        return
    configmaps = set(by_kind.get("ConfigMap", {}))
    secrets = set(by_kind.get("Secret", {}))
    secrets |= {es["spec"]["target"]["name"] for es in by_kind.get("ExternalSecret", {}).values()}
    for labels, where, spec in pods:
        for c in (spec.get("initContainers") or []) + (spec.get("containers") or []):
            for ef in c.get("envFrom") or []:
                ref = ef.get("configMapRef") or ef.get("secretRef")
                pool = configmaps if "configMapRef" in ef else secrets
                if ref and not ref.get("optional") and ref["name"] not in pool:
                    rep.error(f"{name}: {where}", f"envFrom names {ref['name']}, which is not rendered")
            for env in c.get("env") or []:
                vf = env.get("valueFrom") or {}
                for kind, pool in (("configMapKeyRef", configmaps), ("secretKeyRef", secrets)):
                    ref = vf.get(kind)
                    if ref and not ref.get("optional") and ref["name"] not in pool:
                        rep.error(f"{name}: {where}", f"{env['name']} reads {kind} {ref['name']}, which is not rendered")
        for vol in spec.get("volumes") or []:
            if "secret" in vol and not vol["secret"].get("optional") and vol["secret"]["secretName"] not in secrets:
                rep.error(f"{name}: {where}", f"volume {vol['name']} mounts Secret {vol['secret']['secretName']}, which is not rendered")
            if "configMap" in vol and not vol["configMap"].get("optional") and vol["configMap"]["name"] not in configmaps:
                rep.error(f"{name}: {where}", f"volume {vol['name']} mounts ConfigMap {vol['configMap']['name']}, which is not rendered")


def local_topics():
    text = (ROOT / "deploy/local/infra.sh").read_text()
    m = re.search(r"^TOPICS=\(([^)]*)\)", text, re.M)
    return set(m.group(1).split()) if m else set()


def check_topics(name, docs, rep):
    topics = {d["spec"].get("topicName", d["metadata"]["name"]) for d in docs if d.get("kind") == "KafkaTopic"}
    if not topics:
        return
    local = local_topics()
    if topics != local:
        rep.error(name, f"KafkaTopics {sorted(topics)} differ from deploy/local/infra.sh TOPICS {sorted(local)}")


def render_approx(directory, rep, seen=None):
    """The resources of a kustomization (and its components), unpatched."""
    seen = seen if seen is not None else set()
    directory = Path(directory).resolve()
    if directory in seen:
        return []
    seen.add(directory)
    kfile = next((directory / n for n in ("kustomization.yaml", "kustomization.yml", "Kustomization") if (directory / n).exists()), None)
    if kfile is None:
        rep.error(str(directory), "no kustomization.yaml")
        return []
    k = yaml.safe_load(kfile.read_text()) or {}
    docs = []

    def need(rel):
        path = directory / rel
        if not path.exists():
            rep.error(str(kfile.relative_to(ROOT)), f"names {rel}, which does not exist")
        return path

    for rel in (k.get("resources") or []) + (k.get("components") or []):
        path = need(rel)
        if path.is_dir():
            docs += render_approx(path, rep, seen)
        elif path.exists():
            docs += load_docs(path)
    for patch in k.get("patches") or []:
        if isinstance(patch, dict) and "path" in patch:
            need(patch["path"])
    for gen in (k.get("configMapGenerator") or []) + (k.get("secretGenerator") or []):
        for rel in (gen.get("files") or []) + (gen.get("envs") or []):
            need(rel.split("=", 1)[-1])
    return docs


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "render-approx":
        rep = Report()
        docs = render_approx(sys.argv[2], rep)
        yaml.safe_dump_all(docs, sys.stdout, sort_keys=False)
        for e in rep.errors:
            print(f"error: {e}", file=sys.stderr)
        return 1 if rep.errors else 0
    ap = argparse.ArgumentParser()
    ap.add_argument("--k8s-version", default="1.31")
    ap.add_argument("--no-schema", action="store_true")
    ap.add_argument("--approximate", action="store_true")
    ap.add_argument("rendered", nargs="+", help="NAME=FILE")
    args = ap.parse_args()
    rep = Report()
    total = 0
    for item in args.rendered:
        name, _, path = item.partition("=")
        try:
            docs = load_docs(path)
        except yaml.YAMLError as e:
            rep.error(name, f"not YAML: {e}")
            continue
        total += len(docs)
        check_schema(name, docs, args.k8s_version, rep, not args.no_schema)
        # base leaves tags to the overlays; unrendered files have no tags yet
        check_workloads(name, docs, rep, strict_images=name.endswith("prod"),
                        check_images=name != "base" and not args.approximate)
        check_references(name, docs, rep, args.approximate, name == "base")
        check_topics(name, docs, rep)
        if name.endswith("prod") and any(d["kind"] == "Secret" for d in docs):
            rep.error(name, "renders a Secret; production secrets come from ExternalSecrets")
    for w in rep.warnings:
        print(f"warning: {w}")
    for e in rep.errors:
        print(f"error: {e}")
    schema = "no schema" if args.no_schema else f"Kubernetes {args.k8s_version} schemas"
    print(f"k8s_check: {total} documents in {len(args.rendered)} renders ({schema}): "
          f"{len(rep.errors)} errors, {len(rep.warnings)} warnings")
    return 1 if rep.errors else 0


if __name__ == "__main__":
    sys.exit(main())
