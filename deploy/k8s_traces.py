"""Where the OpenTelemetry collector sends the traces (called by deploy/k8s_check.py).

A collector whose traces pipelines end in the `debug` exporter alone prints each batch
and loses it: an on-call engineer then has no trace to open. For every rendered overlay
that carries the collector's config (the ConfigMap otel-collector-config) and for
deploy/docker/compose.yaml's collector, this checks that every traces pipeline exports to
at least one exporter that keeps them, that each such exporter is defined, and that an
OTLP exporter's endpoint names a store that is deployed beside it (a Service with that
port; in compose, a service that runs without a profile).
"""

import re

import yaml

# Exporters that keep nothing: they print (debug, and its old name logging) or drop (nop).
KEEP_NOTHING = {"debug", "logging", "nop"}
COLLECTOR_CONFIGMAP = "otel-collector-config"
COLLECTOR_FILE = "collector.yaml"


def exporter_type(name):
    """`otlp/jaeger` is an exporter of type otlp named jaeger."""
    return name.split("/", 1)[0]


def trace_pipelines(config):
    pipelines = ((config or {}).get("service") or {}).get("pipelines") or {}
    return {name: p or {} for name, p in pipelines.items() if exporter_type(name) == "traces"}


def endpoint_host_port(endpoint):
    """`jaeger:4317`, `http://jaeger:4317` or `dns:///jaeger:4317` -> ("jaeger", 4317)."""
    m = re.match(r"^(?:[a-z]+:/*)?([^/:]+):(\d+)/?$", endpoint or "")
    return (m.group(1), int(m.group(2))) if m else (None, None)


def check_collector_config(where, config, rep, reachable):
    """reachable(host, port) -> None when a store answers there, else why not."""
    pipelines = trace_pipelines(config)
    if not pipelines:
        rep.error(where, "the collector has no traces pipeline: the services' spans go nowhere")
        return
    defined = (config.get("exporters") or {})
    for pname, pipeline in pipelines.items():
        pw = f"{where} pipeline {pname}"
        exporters = pipeline.get("exporters") or []
        keeping = [e for e in exporters if exporter_type(e) not in KEEP_NOTHING]
        if not keeping:
            rep.error(pw, f"exports traces only to {exporters or 'nothing'}: they are printed and lost; "
                          "export them to the trace store (otlp/jaeger)")
        for e in exporters:
            if e not in defined:
                rep.error(pw, f"names exporter {e}, which exporters: does not define")
        for e in keeping:
            settings = defined.get(e) or {}
            if exporter_type(e) not in ("otlp", "otlp_grpc", "otlphttp", "otlp_http"):
                continue
            host, port = endpoint_host_port(settings.get("endpoint"))
            if host is None:
                rep.error(pw, f"exporter {e} has no host:port endpoint ({settings.get('endpoint')!r})")
                continue
            why = reachable(host, port)
            if why:
                rep.error(pw, f"exporter {e} sends to {host}:{port}, {why}")


def check_rendered(name, docs, rep):
    """The collector config of one render against the Services rendered beside it."""
    services = {}
    for d in docs:
        if d.get("kind") == "Service":
            services[d["metadata"]["name"]] = {p.get("port") for p in (d.get("spec") or {}).get("ports") or []}

    def reachable(host, port):
        svc = host.split(".", 1)[0]
        if svc not in services:
            return "but no Service of that name is rendered"
        if port not in services[svc]:
            return f"but Service {svc} has no port {port} (it has {sorted(services[svc])})"
        return None

    for d in docs:
        if d.get("kind") != "ConfigMap" or not d["metadata"]["name"].startswith(COLLECTOR_CONFIGMAP):
            continue
        where = f"{name}: ConfigMap/{d['metadata']['name']}"
        text = (d.get("data") or {}).get(COLLECTOR_FILE)
        if text is None:
            rep.error(where, f"has no {COLLECTOR_FILE}")
            continue
        try:
            config = yaml.safe_load(text)
        except yaml.YAMLError as e:
            rep.error(where, f"{COLLECTOR_FILE} is not YAML: {e}")
            continue
        check_collector_config(where, config, rep, reachable)


def check_compose(where, compose, compose_dir, rep):
    """compose's otel-collector: the config file it mounts, against compose's services."""
    services = compose.get("services") or {}
    collector = services.get("otel-collector")
    if collector is None:
        rep.error(where, "has no otel-collector service")
        return
    mount = next((v.split(":")[0] for v in collector.get("volumes") or []
                  if isinstance(v, str) and v.split(":")[0].endswith(".yaml")), None)
    if mount is None:
        rep.error(f"{where}: otel-collector", "mounts no config file")
        return
    path = (compose_dir / mount).resolve()
    try:
        config = yaml.safe_load(path.read_text())
    except (OSError, yaml.YAMLError) as e:
        rep.error(f"{where}: otel-collector", f"cannot read its config {mount}: {e}")
        return

    def reachable(host, _port):
        if host not in services:
            return "but compose has no service of that name"
        if services[host].get("profiles"):
            return f"which runs only with profile(s) {services[host]['profiles']}: without them each batch is lost"
        return None

    check_collector_config(f"{where}: otel-collector ({mount})", config, rep, reachable)
