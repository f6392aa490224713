#!/usr/bin/env python3
"""The balancing check's own test (k8s_check.check_balancing): a caller naming a headless
Service and one of its ports passes; naming the ordinary ClusterIP Service (balanced per
connection) or a port the Service lacks fails by name; URLs of things not rendered here
are left alone. Needs PyYAML (deploy/k8s-check.sh runs it with its venv's python)."""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import k8s_check as kc  # noqa: E402


class Report:
    def __init__(self):
        self.errors = []

    def error(self, where, message):
        self.errors.append((where, message))


def service(name, headless):
    spec = {"ports": [{"name": "grpc", "port": 50053}]}
    if headless:
        spec["clusterIP"] = "None"
    return {"kind": "Service", "metadata": {"name": name}, "spec": spec}


def caller(**env):
    containers = [{"name": "wallet", "env": [{"name": k, "value": v} for k, v in env.items()]}]
    return {"kind": "Deployment", "metadata": {"name": "wallet"},
            "spec": {"template": {"spec": {"containers": containers}}}}


def errors(*docs):
    rep = Report()
    kc.check_balancing("t", list(docs), rep)
    return [message for _, message in rep.errors]


SERVICES = [service("catalog", False), service("catalog-replicas", True)]


class Balancing(unittest.TestCase):
    def test_a_headless_service_and_its_port_pass(self):
        self.assertEqual(errors(*SERVICES, caller(QUIRE_CATALOG_URL="http://catalog-replicas:50053")), [])

    def test_the_cluster_ip_service_fails(self):
        found = errors(*SERVICES, caller(QUIRE_CATALOG_URL="http://catalog:50053"))
        self.assertEqual(len(found), 1)
        self.assertIn("not headless", found[0])

    def test_a_port_the_service_lacks_fails(self):
        found = errors(*SERVICES, caller(QUIRE_CATALOG_URL="http://catalog-replicas:9"))
        self.assertEqual(found, ["port 9 is not a port of Service/catalog-replicas"])

    def test_each_address_of_a_list_is_checked(self):
        url = "http://catalog-replicas:50053,http://catalog:50053"
        self.assertEqual(len(errors(*SERVICES, caller(QUIRE_CATALOG_URL=url))), 1)

    def test_what_is_not_rendered_here_is_left_alone(self):
        outside = caller(QUIRE_SMTP_URL="http://mail:25", QUIRE_OTHER="http://catalog:50053")
        self.assertEqual(errors(*SERVICES, outside), [])


if __name__ == "__main__":
    unittest.main()
