#!/usr/bin/env python3
"""The budget and rollout checks' own test: a small overlay that keeps both passes with the
figures worked out by hand, and each way of breaking them fails by name."""

import base64
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import k8s_budget as kb  # noqa: E402


class Rep:
    def __init__(self):
        self.errors, self.notes = [], []

    def error(self, where, msg):
        self.errors.append(f"{where}: {msg}")

    def note(self, where, msg):
        self.notes.append(f"{where}: {msg}")


def b64(text):
    return base64.b64encode(text.encode()).decode()


def service(name, wave="2"):
    return {
        "kind": "Deployment",
        "metadata": {"name": name, "annotations": {"argocd.argoproj.io/sync-wave": wave}},
        "spec": {"template": {"spec": {"containers": [{
            "name": name,
            "envFrom": [{"configMapRef": {"name": "quire-config"}}],
            "env": [
                {"name": "QUIRE_DB_SCHEMA", "value": name},
                {"name": "QUIRE_DATABASE_URL", "valueFrom": {"secretKeyRef": {"name": f"quire-{name}-db", "key": "url"}}},
            ],
        }]}}},
    }


def migrate_job(name, hook="Sync", wave="1"):
    return {
        "kind": "Job",
        "metadata": {"name": f"{name}-migrate", "annotations": {
            "argocd.argoproj.io/hook": hook, "argocd.argoproj.io/sync-wave": wave}},
        "spec": {"template": {"spec": {"containers": [{
            "name": "migrate",
            "env": [
                {"name": "QUIRE_DB_SCHEMA", "value": name},
                {"name": "QUIRE_DATABASE_URL", "valueFrom": {"secretKeyRef": {"name": f"quire-{name}-db", "key": "url"}}},
                {"name": "QUIRE_MIGRATE_DATABASE_URL", "valueFrom": {"secretKeyRef": {"name": f"quire-{name}-db", "key": "direct-url", "optional": True}}},
            ],
        }]}}},
    }


def overlay():
    """Two services of 4 replicas at most with pools of 10, one pooler of 2 pods x 15."""
    names = ("auth", "wallet")
    docs = [
        {"kind": "ConfigMap", "metadata": {"name": "quire-config"}, "data": {"QUIRE_DB_POOL_SIZE": "10"}},
        {"kind": "Cluster", "apiVersion": "postgresql.cnpg.io/v1", "metadata": {"name": "pg"}, "spec": {
            "instances": 3,
            "postgresql": {"parameters": {"max_connections": "80"}},
            "managed": {"roles": [
                {"name": n, "login": True, "connectionLimit": 40, "passwordSecret": {"name": f"quire-{n}-db"}}
                for n in names]}}},
        {"kind": "Database", "metadata": {"name": "quire"}, "spec": {
            "cluster": {"name": "pg"}, "schemas": [{"name": n, "owner": n} for n in names]}},
        {"kind": "Pooler", "metadata": {"name": "pg-pooler-rw"}, "spec": {
            "cluster": {"name": "pg"}, "instances": 2, "type": "rw",
            "pgbouncer": {"poolMode": "transaction", "parameters": {
                "max_client_conn": "100", "default_pool_size": "15", "max_prepared_statements": "100"}}}},
    ]
    for n in names:
        docs += [
            service(n),
            migrate_job(n),
            {"kind": "HorizontalPodAutoscaler", "spec": {"scaleTargetRef": {"kind": "Deployment", "name": n}, "maxReplicas": 4}},
            {"kind": "Secret", "metadata": {"name": f"quire-{n}-db"}, "data": {
                "url": b64(f"postgres://{n}:pw@pg-pooler-rw:5432/quire"),
                "direct-url": b64(f"postgres://{n}:pw@pg-rw:5432/quire")}},
        ]
    return docs


def find(docs, kind, name=None):
    return next(d for d in docs if d["kind"] == kind and (name is None or d["metadata"]["name"] == name))


def run(docs):
    rep = Rep()
    kb.check_database_budget("t", docs, rep)
    kb.check_rollout_order("t", docs, rep)
    return rep


class Budget(unittest.TestCase):
    def assertFails(self, docs, *words):
        errors = run(docs).errors
        self.assertTrue(errors, "the broken overlay passed")
        self.assertTrue(any(all(w in e for w in words) for e in errors), errors)

    def test_the_overlay_fits_with_the_figures_worked_by_hand(self):
        rep = run(overlay())
        self.assertEqual(rep.errors, [])
        # clients: 2 services x 4 replicas x 10 = 80 <= 100; server: 2 pods x 15 x 2 roles
        # + 2 migrate Jobs + 3 reserved + HEADROOM.
        self.assertIn("80 client connections", " ".join(rep.notes))
        self.assertIn(f"{60 + 2 + 3 + kb.HEADROOM} of max_connections 80", " ".join(rep.notes))

    def test_more_replicas_than_one_pooler_pod_takes(self):
        docs = overlay()
        find(docs, "HorizontalPodAutoscaler")["spec"]["maxReplicas"] = 8
        self.assertFails(docs, "120 client connections", "max_client_conn 100")

    def test_server_pools_past_max_connections(self):
        docs = overlay()
        find(docs, "Pooler")["spec"]["pgbouncer"]["parameters"]["default_pool_size"] = "20"
        self.assertFails(docs, "needs 95 connections", "max_connections 80")

    def test_a_role_past_its_connection_limit(self):
        docs = overlay()
        find(docs, "Cluster")["spec"]["managed"]["roles"][0]["connectionLimit"] = 30
        self.assertFails(docs, "role auth needs 31", "connectionLimit 30")

    def test_a_service_past_the_pooler(self):
        docs = overlay()
        find(docs, "Secret", "quire-auth-db")["data"]["url"] = b64("postgres://auth:pw@pg-rw:5432/quire")
        self.assertFails(docs, "Deployment/auth", "past the pooler")

    def test_a_schema_not_named_as_its_role(self):
        docs = overlay()
        find(docs, "Deployment", "auth")["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"] = "accounts"
        self.assertFails(docs, "Deployment/auth", "schema 'accounts'")

    def test_migrations_through_the_pooler(self):
        docs = overlay()
        find(docs, "Secret", "quire-auth-db")["data"]["direct-url"] = b64("postgres://auth:pw@pg-pooler-rw:5432/quire")
        self.assertFails(docs, "Job/auth-migrate", "not the primary pg-rw")

    def test_session_pooling(self):
        docs = overlay()
        find(docs, "Pooler")["spec"]["pgbouncer"]["poolMode"] = "session"
        self.assertFails(docs, "pools sessions")

    def test_no_pool_size_set(self):
        docs = overlay()
        find(docs, "ConfigMap")["data"] = {}
        self.assertFails(docs, "sets no QUIRE_DB_POOL_SIZE")


class RolloutOrder(unittest.TestCase):
    def test_pods_in_the_migrations_wave(self):
        docs = overlay()
        find(docs, "Deployment", "wallet")["metadata"]["annotations"] = {}
        errors = run(docs).errors
        self.assertEqual(len(errors), 1, errors)
        self.assertIn("Deployment/wallet: syncs in wave 0, not after Job/wallet-migrate", errors[0])

    def test_a_migrate_job_that_is_no_hook(self):
        docs = overlay()
        del find(docs, "Job", "auth-migrate")["metadata"]["annotations"]["argocd.argoproj.io/hook"]
        self.assertIn("is no PreSync or Sync hook", " ".join(run(docs).errors))

    def test_a_presync_hook_needs_no_wave(self):
        docs = overlay()
        job = find(docs, "Job", "auth-migrate")
        job["metadata"]["annotations"] = {"argocd.argoproj.io/hook": "PreSync"}
        find(docs, "Deployment", "auth")["metadata"]["annotations"] = {}
        self.assertEqual(run(docs).errors, [])

    def test_a_service_without_a_migrate_job(self):
        docs = [d for d in overlay() if d.get("metadata", {}).get("name") != "auth-migrate"]
        self.assertIn("Deployment/auth: no migrate Job", " ".join(run(docs).errors))


if __name__ == "__main__":
    unittest.main(verbosity=1)
