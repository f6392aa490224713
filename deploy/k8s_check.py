#!/usr/bin/env python3
"""Offline checks of Quire's rendered Kubernetes manifests (called by deploy/k8s-check.sh).

    k8s_check.py [--k8s-version 1.31] NAME=RENDERED.yaml ...
    k8s_check.py compose deploy/docker/compose.yaml

For every rendered overlay it checks, and reports every failure before exiting non-zero:
- each document against the Kubernetes OpenAPI schema of the given version, strictly
  (kubernetes-validate, bundled schemas, no cluster); custom resources against the fields
  Quire relies on (Strimzi and CloudNativePG resources are also validated against their
  full schemas by deploy/k8s-schemas/validate.mjs; Prometheus Operator and External
  Secrets ones only here);
- the rules of DESIGN.md section 8 for every workload: non-root, read-only root
  filesystem, no capabilities, RuntimeDefault seccomp, requests and limits, probes (gRPC
  ones for gRPC services), pinned images;
- that names and labels meet: Services, PDBs, HPAs and network policies select pods that
  exist; ConfigMaps and Secrets that pods use are rendered or come from an ExternalSecret;
  CloudNativePG roles' password Secrets exist;
- that every stateless service (the gateway and the gRPC services) has an HPA and a PDB,
  and that no Deployment an HPA scales sets `replicas`;
- that no Ingress path can reach /metrics or /readyz, nor any admin port;
- that every alert has a severity, a summary and a runbook entry that exists;
- the PostgreSQL connection budget at the HPAs' maximum (pools x replicas against the
  pooler and max_connections, each role's limit) and that no service's pods sync before
  its migrate Job (deploy/k8s_budget.py);
- that the Kafka topics are the ones the local broker gets (deploy/local/infra.sh) and
  that no service creates topics itself (QUIRE_KAFKA_CREATE_TOPICS=false), and
  that the prod overlay renders no Secret (its secrets are external).

The `compose` form checks deploy/docker/compose.yaml: every service it depends on exists,
each image built from the Dockerfile names a SERVICE the Dockerfile knows, every Quire
service (gateway, auth, wallet, catalog, chat, manuscript) and its migrate job is there,
the collector's traces go to a store that runs without a profile (Jaeger), and the
observability profile's services and mounts are in place.
"""
import argparse
import base64
import re
import sys
from pathlib import Path

import yaml

import k8s_traces
from k8s_budget import check_database_budget, check_rollout_order

ROOT = Path(__file__).resolve().parent.parent
WORKLOADS = {"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob"}
# What the operators make pods for: selectors on these labels select pods no template here
# describes.
OPERATOR_LABELS = ("strimzi.io/", "cnpg.io/")
# The stateless services: each scales with an HPA and has a PDB.
STATELESS = ("gateway", "auth", "wallet", "catalog", "chat", "manuscript")
# The paths only the kubelet and Prometheus may reach, never a public Ingress.
PRIVATE_PATHS = ("/metrics", "/readyz")

# Custom resources: the fields Quire relies on, as dotted paths that must be present
# ("a|b": either one).
CUSTOM_REQUIRED = {
    ("kafka.strimzi.io/v1", "Kafka"): ["spec.kafka.listeners", "spec.entityOperator.topicOperator"],
    ("kafka.strimzi.io/v1", "KafkaNodePool"): ["metadata.labels.strimzi.io/cluster", "spec.replicas", "spec.roles", "spec.storage.type"],
    ("kafka.strimzi.io/v1", "KafkaTopic"): ["metadata.labels.strimzi.io/cluster", "spec.topicName", "spec.partitions", "spec.replicas"],
    ("postgresql.cnpg.io/v1", "Cluster"): ["spec.instances", "spec.imageName", "spec.storage.size", "spec.bootstrap.initdb.database", "spec.managed.roles"],
    ("postgresql.cnpg.io/v1", "Database"): ["spec.cluster.name", "spec.name", "spec.owner", "spec.schemas"],
    ("postgresql.cnpg.io/v1", "Pooler"): ["spec.cluster.name", "spec.instances", "spec.type", "spec.pgbouncer.poolMode", "spec.pgbouncer.parameters"],
    ("monitoring.coreos.com/v1", "ServiceMonitor"): ["spec.selector", "spec.endpoints"],
    ("monitoring.coreos.com/v1", "PrometheusRule"): ["spec.groups"],
    ("external-secrets.io/v1", "ExternalSecret"): ["spec.secretStoreRef.name", "spec.target.name", "spec.data|spec.dataFrom"],
}


class Report:
    def __init__(self):
        self.errors = []
        self.warnings = []
        self.notes = []

    def error(self, where, msg):
        self.errors.append(f"{where}: {msg}")

    def warn(self, where, msg):
        self.warnings.append(f"{where}: {msg}")

    def note(self, where, msg):
        """A figure a check proved, printed with the result."""
        self.notes.append(f"{where}: {msg}")


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


def check_schema(name, docs, version, rep):
    import kubernetes_validate.utils as validator

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


def check_references(name, docs, rep, partial):
    """partial: base, whose Secrets the overlays provide."""
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

    # Network policies: a selector that names pods an operator makes (Strimzi's Kafka,
    # CloudNativePG's PostgreSQL) is fine; any other must select at least one of our pod
    # templates, or the path it opens leads nowhere.
    def strimzi(sel):
        return any(k.startswith(OPERATOR_LABELS) for k in (sel or {}).get("matchLabels", {}))

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
    # CloudNativePG reads each managed role's password from a basic-auth Secret whose
    # `username` is the role; the same Secret's `url` is the service's.
    for cluster in by_kind.get("Cluster", {}).values():
        for role in dig(cluster, "spec.managed.roles") or []:
            ref = (role.get("passwordSecret") or {}).get("name")
            where = f"{name}: Cluster/{cluster['metadata']['name']} role {role.get('name')}"
            if not ref:
                continue
            if ref not in secrets:
                rep.error(where, f"passwordSecret {ref} is not rendered")
                continue
            sec = by_kind.get("Secret", {}).get(ref)
            es = next((e for e in by_kind.get("ExternalSecret", {}).values() if e["spec"]["target"]["name"] == ref), None)
            stype = sec.get("type") if sec else dig(es, "spec.target.template.type")
            if stype != "kubernetes.io/basic-auth":
                rep.error(where, f"passwordSecret {ref} must be of type kubernetes.io/basic-auth (is {stype})")
            if sec is not None:
                user = (sec.get("data") or {}).get("username")
                user = base64.b64decode(user).decode() if user else (sec.get("stringData") or {}).get("username")
            else:
                user = dig(es, "spec.target.template.data.username")
            if user != role.get("name"):
                rep.error(where, f"passwordSecret {ref} has username {user!r}, not the role's name")
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
    # Strimzi owns the topics in Kubernetes: a service that created a missing one first,
    # with its own replication, would make every write fail under min.insync.replicas 2.
    for cm in (d for d in docs if d.get("kind") == "ConfigMap" and d["metadata"]["name"].startswith("quire-config")):
        if (cm.get("data") or {}).get("QUIRE_KAFKA_CREATE_TOPICS") != "false":
            rep.error(f"{name}: ConfigMap/{cm['metadata']['name']}", "must set QUIRE_KAFKA_CREATE_TOPICS=false (the topic operator creates the topics)")
    topics = {d["spec"].get("topicName", d["metadata"]["name"]) for d in docs if d.get("kind") == "KafkaTopic"}
    if not topics:
        return
    local = local_topics()
    if topics != local:
        rep.error(name, f"KafkaTopics {sorted(topics)} differ from deploy/local/infra.sh TOPICS {sorted(local)}")


def path_reaches(path, path_type, target):
    """Whether an Ingress path of the given type matches a request for `target`."""
    path = path or "/"
    if path_type == "Exact":
        return path == target
    # Prefix (and, conservatively, ImplementationSpecific: many controllers treat it as a
    # plain string prefix or a regular expression).
    if path_type == "ImplementationSpecific":
        # Whatever the controller makes of it (a prefix, a regular expression), it can
        # match no more than what starts with its literal head.
        head = re.split(r"[\\^$.*+?()\[\]{}|]", path)[0]
        return target.startswith(head)
    prefix = path.rstrip("/")
    return prefix == "" or target == prefix or target.startswith(prefix + "/")


def check_ingress(name, docs, rep):
    """No Ingress path may reach /metrics or /readyz, nor any admin port."""
    services = {d["metadata"]["name"]: d for d in docs if d.get("kind") == "Service"}
    pods = [pod_spec_of(d) for d in docs if pod_spec_of(d) is not None]

    def container_ports(selector):
        out = []
        for tmpl in pods:
            if label_match({"matchLabels": selector}, (tmpl.get("metadata") or {}).get("labels") or {}):
                for c in (tmpl.get("spec") or {}).get("containers") or []:
                    out += c.get("ports") or []
        return out

    def admin_backend(backend, where):
        svc_ref = (backend or {}).get("service")
        if not svc_ref:
            return
        svc = services.get(svc_ref.get("name"))
        if svc is None:
            rep.error(where, f"backend Service {svc_ref.get('name')} is not rendered")
            return
        want = svc_ref.get("port") or {}
        port = next((p for p in svc["spec"].get("ports") or []
                     if ("name" in want and p.get("name") == want["name"])
                     or ("number" in want and p.get("port") == want["number"])), None)
        if port is None:
            rep.error(where, f"backend port {want} is not a port of Service {svc['metadata']['name']}")
            return
        target = port.get("targetPort", port.get("port"))
        cports = container_ports(svc["spec"].get("selector") or {})
        cport = next((c for c in cports if c.get("name") == target or c.get("containerPort") == target), None)
        names = {port.get("name"), (cport or {}).get("name")}
        if "admin" in names or "metrics" in names:
            rep.error(where, f"backend {svc['metadata']['name']}:{port.get('name') or port.get('port')} is an admin (metrics/readiness) port")

    for ing in (d for d in docs if d.get("kind") == "Ingress"):
        where = f"{name}: Ingress/{ing['metadata']['name']}"
        spec = ing.get("spec") or {}
        if spec.get("defaultBackend"):
            rep.error(where, "has a defaultBackend: every path, /metrics and /readyz included, would reach it")
            admin_backend(spec["defaultBackend"], where)
        for rule in spec.get("rules") or []:
            for p in (rule.get("http") or {}).get("paths") or []:
                pw = f"{where} path {p.get('path')} ({p.get('pathType')})"
                for target in PRIVATE_PATHS:
                    if path_reaches(p.get("path"), p.get("pathType"), target):
                        rep.error(pw, f"would route {target} to the backend; route only the public paths")
                admin_backend(p.get("backend"), pw)


def check_alerts(name, docs, rep):
    """Every alert has a severity, a summary and a runbook entry that exists."""
    for d in docs:
        if d.get("kind") != "PrometheusRule":
            continue
        for group in d["spec"].get("groups") or []:
            for rule in group.get("rules") or []:
                if "alert" not in rule:
                    continue
                where = f"{name}: PrometheusRule/{d['metadata']['name']} alert {rule['alert']}"
                ann = rule.get("annotations") or {}
                if not (rule.get("labels") or {}).get("severity"):
                    rep.error(where, "has no severity label")
                if not ann.get("summary"):
                    rep.error(where, "has no summary")
                path, _, anchor = (ann.get("runbook_url") or "").partition("#")
                runbook = ROOT / path if path else None
                if runbook is None or not runbook.is_file():
                    rep.error(where, f"its runbook_url {ann.get('runbook_url')!r} names no file of the repository")
                    continue
                headings = {h.strip().lower() for h in re.findall(r"^## (.+)$", runbook.read_text(), re.M)}
                if anchor != rule["alert"].lower() or anchor not in headings:
                    rep.error(where, f"its runbook_url anchor {anchor!r} is no entry of {path} (## {rule['alert']})")


def check_scaling(name, docs, rep):
    """Every stateless service has an HPA and a PDB; no HPA target sets replicas."""
    deployments = {d["metadata"]["name"]: d for d in docs if d.get("kind") == "Deployment"}
    hpas = {}
    for h in (d for d in docs if d.get("kind") == "HorizontalPodAutoscaler"):
        ref = h["spec"]["scaleTargetRef"]
        if ref.get("kind") == "Deployment":
            hpas[ref["name"]] = h
        if h.get("apiVersion") != "autoscaling/v2":
            rep.error(f"{name}: HorizontalPodAutoscaler/{h['metadata']['name']}", "use autoscaling/v2")
        lo, hi = h["spec"].get("minReplicas", 1), h["spec"]["maxReplicas"]
        if lo > hi:
            rep.error(f"{name}: HorizontalPodAutoscaler/{h['metadata']['name']}", f"minReplicas {lo} > maxReplicas {hi}")
    pdbs = [d for d in docs if d.get("kind") == "PodDisruptionBudget"]
    for svc in STATELESS:
        dep = deployments.get(svc)
        if dep is None:
            rep.error(name, f"Deployment/{svc} is not rendered")
            continue
        if svc not in hpas:
            rep.error(f"{name}: Deployment/{svc}", "a stateless service needs a HorizontalPodAutoscaler")
        labels = (dep["spec"]["template"].get("metadata") or {}).get("labels") or {}
        if not any(label_match(p["spec"].get("selector"), labels) for p in pdbs):
            rep.error(f"{name}: Deployment/{svc}", "a stateless service needs a PodDisruptionBudget")
    for dname, h in hpas.items():
        dep = deployments.get(dname)
        if dep is not None and "replicas" in dep["spec"]:
            rep.error(f"{name}: Deployment/{dname}",
                      f"sets replicas: {dep['spec']['replicas']}, which fights HorizontalPodAutoscaler/{h['metadata']['name']} on every apply")


def check_compose(path, rep):
    """deploy/docker/compose.yaml: references, services, the Dockerfile's SERVICE values."""
    where = str(Path(path))
    try:
        compose = yaml.safe_load(Path(path).read_text())
    except yaml.YAMLError as e:
        rep.error(where, f"not YAML: {e}")
        return
    services = compose.get("services") or {}
    dockerfile = (ROOT / "deploy/docker/Dockerfile").read_text()
    known = set(re.findall(r"^FROM \S+ AS model-(\S+)$", dockerfile, re.M)) - {"none"}
    for svc in STATELESS:
        if svc not in services:
            rep.error(where, f"service {svc} is missing")
        if svc != "gateway" and f"{svc}-migrate" not in services:
            rep.error(where, f"service {svc}-migrate is missing")
    for sname, svc in services.items():
        sw = f"{where}: {sname}"
        deps = svc.get("depends_on") or {}
        for dep in deps if isinstance(deps, (dict, list)) else []:
            if dep not in services:
                rep.error(sw, f"depends on {dep}, which is not a service")
            elif not isinstance(deps, list):
                dprof = set(services[dep].get("profiles") or [])
                if dprof and not dprof <= set(svc.get("profiles") or []) and deps[dep].get("required", True):
                    rep.error(sw, f"depends on {dep}, which runs only with profile(s) {sorted(dprof)}")
        build = svc.get("build")
        if isinstance(build, dict):
            arg = (build.get("args") or {}).get("SERVICE")
            if build.get("dockerfile") == "deploy/docker/Dockerfile" and arg not in known:
                rep.error(sw, f"builds SERVICE={arg!r}, which deploy/docker/Dockerfile has no model-{arg} stage for (it knows {sorted(known)})")
        for vol in svc.get("volumes") or []:
            src = vol.split(":", 1)[0] if isinstance(vol, str) else (vol.get("source") or "")
            if src.startswith("."):
                # Files another change provides may not be there yet; a missing one is
                # reported, not fatal, so that the mount can land first.
                if not (Path(path).parent / src).resolve().exists():
                    rep.warn(sw, f"mounts {src}, which does not exist (yet)")
            elif src and src not in (compose.get("volumes") or {}):
                rep.error(sw, f"mounts volume {src}, which is not declared under volumes:")
    obs = {n for n, s in services.items() if "observability" in (s.get("profiles") or [])}
    for need in ("prometheus", "grafana"):
        if need not in obs:
            rep.error(where, f"the observability profile has no {need} service")
    # Traces are kept with or without the profile: the collector exports them to Jaeger.
    if "jaeger" not in services or services["jaeger"].get("profiles"):
        rep.error(where, "jaeger must be a service without a profile (the collector's traces go to it)")
    k8s_traces.check_compose(where, compose, Path(path).parent, rep)


def check_balancing(name, docs, rep):
    """A service's callers reach its replicas, not one virtual address: every QUIRE_*_URL
    that names a rendered Service names a headless one (clusterIP: None) and one of its
    ports, so quire_kit::upstream balances each call over the pods its DNS answer lists
    (a ClusterIP balances per connection, and a caller holds one)."""
    services = {d["metadata"]["name"]: d for d in docs if d.get("kind") == "Service"}
    for doc in docs:
        tmpl = pod_spec_of(doc)
        if tmpl is None:
            continue
        for c in (tmpl.get("spec") or {}).get("containers") or []:
            for env in c.get("env") or []:
                key, value = env.get("name", ""), env.get("value")
                if not (key.startswith("QUIRE_") and key.endswith("_URL") and isinstance(value, str)):
                    continue
                for one in value.split(","):
                    m = re.fullmatch(r"http://([a-z0-9-]+):(\d+)", one.strip())
                    if not m or m.group(1) not in services:
                        continue
                    svc = services[m.group(1)]
                    where = f"{name}: {doc['kind']}/{doc['metadata']['name']} {key}"
                    if (svc.get("spec") or {}).get("clusterIP") != "None":
                        rep.error(where, f"names Service/{m.group(1)}, which is not headless: calls would be balanced per connection")
                    ports = {p.get("port") for p in (svc.get("spec") or {}).get("ports") or []}
                    if int(m.group(2)) not in ports:
                        rep.error(where, f"port {m.group(2)} is not a port of Service/{m.group(1)}")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "compose":
        rep = Report()
        check_compose(sys.argv[2], rep)
        for w in rep.warnings:
            print(f"warning: {w}")
        for e in rep.errors:
            print(f"error: {e}")
        print(f"k8s_check compose: {len(rep.errors)} errors, {len(rep.warnings)} warnings")
        return 1 if rep.errors else 0
    ap = argparse.ArgumentParser()
    ap.add_argument("--k8s-version", default="1.31")
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
        check_schema(name, docs, args.k8s_version, rep)
        # base (and a component rendered on base alone) leaves tags and Secrets to the
        # overlays
        partial = name == "base" or name.startswith("component-")
        check_workloads(name, docs, rep, strict_images=name.endswith("prod"),
                        check_images=not partial)
        check_references(name, docs, rep, partial)
        check_topics(name, docs, rep)
        check_ingress(name, docs, rep)
        check_scaling(name, docs, rep)
        check_balancing(name, docs, rep)
        check_alerts(name, docs, rep)
        check_database_budget(name, docs, rep)
        check_rollout_order(name, docs, rep)
        k8s_traces.check_rendered(name, docs, rep)
        if name.endswith("prod") and any(d["kind"] == "Secret" for d in docs):
            rep.error(name, "renders a Secret; production secrets come from ExternalSecrets")
    for n in rep.notes:
        print(f"budget: {n}")
    for w in rep.warnings:
        print(f"warning: {w}")
    for e in rep.errors:
        print(f"error: {e}")
    print(f"k8s_check: {total} documents in {len(args.rendered)} renders (Kubernetes {args.k8s_version} schemas): "
          f"{len(rep.errors)} errors, {len(rep.warnings)} warnings")
    return 1 if rep.errors else 0


if __name__ == "__main__":
    sys.exit(main())
