#!/usr/bin/env python3
"""The trace-export check's own test: the repository's collector config passes against a
render with Jaeger's Service and against compose, and each way of losing the traces (the
debug exporter alone, no traces pipeline, a store not deployed, a store only a compose
profile starts, an undefined exporter) fails by name. Needs PyYAML (deploy/k8s-check.sh
runs it with its virtual environment's python)."""

import sys
import tempfile
import unittest
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import k8s_traces as kt  # noqa: E402

COLLECTOR = HERE / "otel/collector.yaml"


class Rep:
    def __init__(self):
        self.errors = []

    def error(self, where, msg):
        self.errors.append(f"{where}: {msg}")


def repo_config():
    return yaml.safe_load(COLLECTOR.read_text())


def render(config, services=(("jaeger", 4317), ("otel-collector", 4317))):
    docs = [{"kind": "ConfigMap", "metadata": {"name": "otel-collector-config-abc123"},
             "data": {"collector.yaml": yaml.safe_dump(config)}}]
    for name, port in services:
        docs.append({"kind": "Service", "metadata": {"name": name}, "spec": {"ports": [{"port": port}]}})
    return docs


def check(config, **kw):
    rep = Rep()
    kt.check_rendered("prod", render(config, **kw), rep)
    return rep.errors


def check_compose(config, jaeger_profiles=None):
    rep = Rep()
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "otel").mkdir()
        (Path(tmp) / "otel/collector.yaml").write_text(yaml.safe_dump(config))
        (Path(tmp) / "docker").mkdir()
        jaeger = {"image": "jaegertracing/jaeger:2.20.0"}
        if jaeger_profiles:
            jaeger["profiles"] = jaeger_profiles
        compose = {"services": {
            "otel-collector": {"volumes": ["../otel/collector.yaml:/etc/otelcol/collector.yaml:ro"]},
            "jaeger": jaeger,
        }}
        kt.check_compose("compose.yaml", compose, Path(tmp) / "docker", rep)
    return rep.errors


def debug_only(config):
    config["service"]["pipelines"]["traces"]["exporters"] = ["debug"]
    return config


class TraceExport(unittest.TestCase):
    def test_the_repository_config_keeps_the_traces_in_jaeger(self):
        self.assertEqual(check(repo_config()), [])
        self.assertEqual(check_compose(repo_config()), [])

    def test_traces_sent_to_the_debug_exporter_alone_are_refused(self):
        errors = check(debug_only(repo_config()))
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("exports traces only to ['debug']", errors[0])
        self.assertIn("exports traces only to ['debug']", check_compose(debug_only(repo_config()))[0])

    def test_debug_beside_a_store_is_fine(self):
        config = repo_config()
        config["service"]["pipelines"]["traces"]["exporters"] = ["otlp/jaeger", "debug"]
        self.assertEqual(check(config), [])

    def test_a_collector_without_a_traces_pipeline_is_refused(self):
        config = repo_config()
        del config["service"]["pipelines"]["traces"]
        self.assertIn("has no traces pipeline", check(config)[0])

    def test_a_store_that_is_not_rendered_is_refused(self):
        errors = check(repo_config(), services=(("otel-collector", 4317),))
        self.assertIn("no Service of that name is rendered", errors[0])
        errors = check(repo_config(), services=(("jaeger", 16686),))
        self.assertIn("has no port 4317", errors[0])

    def test_a_store_that_only_a_compose_profile_starts_is_refused(self):
        errors = check_compose(repo_config(), jaeger_profiles=["observability"])
        self.assertIn("runs only with profile(s) ['observability']", errors[0])

    def test_an_exporter_the_config_does_not_define_is_refused(self):
        config = repo_config()
        config["service"]["pipelines"]["traces"]["exporters"] = ["otlp/tempo"]
        errors = check(config)
        self.assertTrue(any("names exporter otlp/tempo, which exporters: does not define" in e for e in errors), errors)

    def test_endpoints_are_read_with_or_without_a_scheme(self):
        self.assertEqual(kt.endpoint_host_port("jaeger:4317"), ("jaeger", 4317))
        self.assertEqual(kt.endpoint_host_port("http://jaeger.quire.svc:4317"), ("jaeger.quire.svc", 4317))
        self.assertEqual(kt.endpoint_host_port("dns:///jaeger:4317"), ("jaeger", 4317))
        self.assertEqual(kt.endpoint_host_port("jaeger"), (None, None))


if __name__ == "__main__":
    unittest.main(verbosity=1)
