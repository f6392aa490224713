"""Two checks of a rendered overlay that need the whole picture (called by k8s_check.py):

- the PostgreSQL connection budget: what the services' pools ask for at the HPAs'
  maximum, against the pooler and the server (`check_database_budget`);
- the rollout order: no service's pods before its migrate Job (`check_rollout_order`).

Both read only the rendered documents; what they prove is written where the numbers live
(k8s/components/postgres/pooler.yaml, k8s/base/*-migrate.yaml).
"""
import base64
from urllib.parse import urlsplit

# Connections PostgreSQL keeps beside the clients': the superusers' reserved ones are
# `superuser_reserved_connections` (default 3); this much more stays free for people at a
# psql prompt and the operator's exporters.
HEADROOM = 10
# What quire-kit uses when QUIRE_DB_POOL_SIZE is not set (crates/kit/src/config.rs): the
# check insists on the setting rather than assume it.
POOL_SIZE_VAR = "QUIRE_DB_POOL_SIZE"
HOOK_PHASES = {"PreSync": 0, "Sync": 1}


def _int(value, default=None):
    try:
        return int(str(value).strip('"'))
    except (TypeError, ValueError):
        return default


def _annotations(doc):
    return (doc.get("metadata") or {}).get("annotations") or {}


def _containers(doc):
    spec = doc.get("spec") or {}
    template = spec.get("template") or {}
    return ((template.get("spec") or {}).get("containers")) or []


def _env(container, configmaps):
    """A container's environment as far as the render tells it: its envFrom ConfigMaps,
    then its own values (which win, as in Kubernetes), then its Secret references as
    (secret, key)."""
    values, secrets = {}, {}
    for source in container.get("envFrom") or []:
        ref = source.get("configMapRef") or {}
        values.update((configmaps.get(ref.get("name")) or {}))
    for var in container.get("env") or []:
        if "value" in var:
            values[var["name"]] = var["value"]
        ref = ((var.get("valueFrom") or {}).get("secretKeyRef")) or {}
        if ref:
            secrets[var["name"]] = (ref.get("name"), ref.get("key"))
    return values, secrets


def _secret_values(docs):
    """Secret name -> {key: value} for rendered Secrets and ExternalSecret templates."""
    out = {}
    for d in docs:
        if d.get("kind") == "Secret":
            data = {k: base64.b64decode(v).decode(errors="replace") for k, v in (d.get("data") or {}).items()}
            data.update(d.get("stringData") or {})
            out[d["metadata"]["name"]] = data
        elif d.get("kind") == "ExternalSecret":
            target = (d.get("spec") or {}).get("target") or {}
            data = ((target.get("template") or {}).get("data")) or {}
            out[target.get("name") or d["metadata"]["name"]] = data
    return out


def _host(url):
    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _db_clients(docs):
    """The Deployments and Jobs that reach PostgreSQL: (doc, env values, secret refs)."""
    configmaps = {d["metadata"]["name"]: d.get("data") or {} for d in docs if d.get("kind") == "ConfigMap"}
    for d in docs:
        if d.get("kind") not in ("Deployment", "Job"):
            continue
        for c in _containers(d):
            values, secrets = _env(c, configmaps)
            if "QUIRE_DATABASE_URL" in secrets:
                yield d, values, secrets


def _hpa_max(docs):
    return {
        h["spec"]["scaleTargetRef"]["name"]: h["spec"]["maxReplicas"]
        for h in docs
        if h.get("kind") == "HorizontalPodAutoscaler" and h["spec"]["scaleTargetRef"].get("kind") == "Deployment"
    }


def check_database_budget(name, docs, rep):
    """Every pool at its HPA's maximum fits the pooler and the server, and each role's
    limit; services reach the server through the pooler, migrate Jobs directly; behind a
    transaction pooler each service's schema is its role's own (see pooler.yaml)."""
    clusters = [d for d in docs if d.get("kind") == "Cluster" and d.get("apiVersion", "").startswith("postgresql.cnpg.io/")]
    if not clusters:
        return  # a managed server: its limits are not in the manifests
    for cluster in clusters:
        _check_cluster_budget(name, docs, cluster, rep)


def _check_cluster_budget(name, docs, cluster, rep):
    cname = cluster["metadata"]["name"]
    where = f"{name}: Cluster/{cname}"
    params = (cluster["spec"].get("postgresql") or {}).get("parameters") or {}
    max_connections = _int(params.get("max_connections"))
    if max_connections is None:
        rep.error(where, "sets no max_connections: the connection budget cannot be proved")
        return
    reserved = _int(params.get("superuser_reserved_connections"), 3) + HEADROOM
    poolers = [
        p for p in docs
        if p.get("kind") == "Pooler" and (p["spec"].get("cluster") or {}).get("name") == cname
        and p["spec"].get("type", "rw") == "rw"
    ]
    roles = {
        r["name"]: r for r in (cluster["spec"].get("managed") or {}).get("roles") or []
        if r.get("login") and r.get("ensure", "present") == "present"
    }
    role_by_secret = {(r.get("passwordSecret") or {}).get("name"): n for n, r in roles.items()}
    secrets = _secret_values(docs)
    hpa_max = _hpa_max(docs)
    schemas = {
        s["name"]: s.get("owner")
        for d in docs if d.get("kind") == "Database" and (d["spec"].get("cluster") or {}).get("name") == cname
        for s in d["spec"].get("schemas") or []
    }
    pooler_hosts = {p["metadata"]["name"] for p in poolers}
    direct_host = f"{cname}-rw"

    pooled_clients = 0
    direct = {}  # role -> server connections taken directly
    pooled_roles = set()
    for doc, values, refs in _db_clients(docs):
        kind, dname = doc["kind"], doc["metadata"]["name"]
        dw = f"{name}: {kind}/{dname}"
        secret, key = refs["QUIRE_DATABASE_URL"]
        role = role_by_secret.get(secret)
        if role is None:
            rep.error(dw, f"reads its database URL from Secret {secret}, which no role of Cluster/{cname} takes its password from")
            continue
        url = (secrets.get(secret) or {}).get(key)
        if kind == "Job":
            # A migrate Job: one connection, to the primary when it is given one.
            migrate = refs.get("QUIRE_MIGRATE_DATABASE_URL")
            if poolers and migrate is None:
                rep.error(dw, "has no QUIRE_MIGRATE_DATABASE_URL: its session lock cannot go through a transaction pooler")
            elif poolers and secret in secrets:
                murl = secrets[secret].get(migrate[1])
                if murl is None or _host(murl) != direct_host:
                    rep.error(dw, f"migrates through {_host(murl) if murl else 'nothing'} ({migrate[0]}/{migrate[1]}), not the primary {direct_host}")
            direct[role] = direct.get(role, 0) + 1
            continue
        pool = _int(values.get(POOL_SIZE_VAR))
        if pool is None:
            rep.error(dw, f"sets no {POOL_SIZE_VAR}: the connection budget cannot be proved")
            continue
        replicas = hpa_max.get(dname, doc["spec"].get("replicas", 1))
        host = _host(url) if url else None
        pooled = host in pooler_hosts if host else bool(poolers)
        if poolers and host and not pooled:
            rep.error(dw, f"connects to {host}, past the pooler {sorted(pooler_hosts)}")
        if pooled:
            pooled_clients += replicas * pool
            pooled_roles.add(role)
            schema = values.get("QUIRE_DB_SCHEMA")
            if schema != role or schemas.get(schema) != role:
                rep.error(dw, f"uses schema {schema!r} as role {role!r}: behind the pooler the schema must be the role's own, named as the role (its search_path option is dropped there)")
        else:
            direct[role] = direct.get(role, 0) + replicas * pool

    server = sum(direct.values()) + reserved
    per_role = dict(direct)
    for p in poolers:
        pw = f"{name}: Pooler/{p['metadata']['name']}"
        pg = (p["spec"].get("pgbouncer") or {})
        pparams = pg.get("parameters") or {}
        instances = _int(p["spec"].get("instances"), 1)
        pool_size = _int(pparams.get("default_pool_size"), 20)
        max_client = _int(pparams.get("max_client_conn"), 100)
        if pg.get("poolMode", "session") != "transaction":
            rep.error(pw, "pools sessions: every client would hold a server connection, as without a pooler")
        if pooled_roles and _int(pparams.get("max_prepared_statements"), 0) <= 0:
            rep.error(pw, "max_prepared_statements is 0: the services' named prepared statements fail in transaction mode")
        if pooled_clients > max_client:
            rep.error(pw, f"the services' pools at their HPAs' maximum hold {pooled_clients} client connections, more than one pooler pod takes (max_client_conn {max_client})")
        for role in pooled_roles:
            per_role[role] = per_role.get(role, 0) + instances * pool_size
        server += instances * pool_size * len(pooled_roles)
        rep.note(name, f"Pooler/{p['metadata']['name']}: {pooled_clients} client connections at the HPAs' maximum <= {max_client} per pod; "
                 f"{instances} x {pool_size} server connections x {len(pooled_roles)} roles")
    if server > max_connections:
        rep.error(where, f"needs {server} connections at the HPAs' maximum (pooler, migrate Jobs, direct clients, {reserved} reserved) against max_connections {max_connections}")
    else:
        rep.note(name, f"Cluster/{cname}: {server} of max_connections {max_connections} at the HPAs' maximum ({reserved} reserved)")
    for role, need in sorted(per_role.items()):
        limit = _int(roles[role].get("connectionLimit"), -1)
        if limit >= 0 and need > limit:
            rep.error(where, f"role {role} needs {need} connections, over its connectionLimit {limit}")


def check_rollout_order(name, docs, rep):
    """Under Argo CD every service's Deployment syncs after the migrate Job of its schema
    (a PreSync hook, or a Sync hook of an earlier wave); every service has such a Job."""
    jobs = {}
    for doc, values, refs in _db_clients(docs):
        if doc["kind"] == "Job":
            jobs.setdefault(refs["QUIRE_DATABASE_URL"][0], []).append(doc)
    for doc, values, refs in _db_clients(docs):
        if doc["kind"] != "Deployment":
            continue
        dw = f"{name}: Deployment/{doc['metadata']['name']}"
        secret = refs["QUIRE_DATABASE_URL"][0]
        migrates = jobs.get(secret) or []
        if not migrates:
            rep.error(dw, f"no migrate Job uses its database (Secret {secret})")
            continue
        dwave = _int(_annotations(doc).get("argocd.argoproj.io/sync-wave"), 0)
        for job in migrates:
            ann = _annotations(job)
            hook = ann.get("argocd.argoproj.io/hook")
            jw = f"Job/{job['metadata']['name']}"
            if hook not in HOOK_PHASES:
                rep.error(dw, f"{jw} is no PreSync or Sync hook: Argo CD would not wait for it")
                continue
            jwave = _int(ann.get("argocd.argoproj.io/sync-wave"), 0)
            if hook == "Sync" and dwave <= jwave:
                rep.error(dw, f"syncs in wave {dwave}, not after {jw} (Sync hook, wave {jwave}): new pods could meet the old schema")
