#!/usr/bin/env python3
"""The dependency check's own test: the workspace as it is passes, and each kind of edge
the plan forbids, added on purpose to the workspace's real metadata, fails it by name."""

import copy
import json
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import architecture_check as ac  # noqa: E402

PLAN = ac.load_plan(ac.ROOT / "architecture.toml")
METADATA = ac.cargo_metadata(ac.ROOT)


def with_edge(src: str, dst: str, kind: str | None = None) -> dict:
    meta = copy.deepcopy(METADATA)
    for pkg in meta["packages"]:
        if pkg["name"] == src:
            pkg["dependencies"].append({"name": dst, "kind": kind, "req": "*"})
            return meta
    raise AssertionError(f"no crate {src}")


class DependencyRules(unittest.TestCase):
    def test_the_workspace_as_it_is_keeps_the_plan(self):
        self.assertEqual(ac.check(PLAN, METADATA), [])

    def assert_refused(self, src, dst, kind=None):
        problems = ac.check(PLAN, with_edge(src, dst, kind))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn(f"{src} (", problems[0])
        self.assertIn(f"-> {dst} (", problems[0])
        self.assertIn("forbidden", problems[0])

    def test_a_service_on_another_service_fails(self):
        self.assert_refused("quire-wallet", "quire-catalog")

    def test_a_service_on_another_in_its_tests_fails_too(self):
        self.assert_refused("quire-chat", "quire-manuscript", "dev")

    def test_a_library_on_a_service_fails(self):
        self.assert_refused("quire-analysis", "quire-chat")

    def test_kit_on_anything_but_proto_fails(self):
        self.assert_refused("quire-kit", "quire-bookfile")
        self.assertEqual(ac.check(PLAN, with_edge("quire-kit", "quire-proto")), [])

    def test_the_gateway_on_a_service_crate_fails_even_for_tests(self):
        self.assert_refused("quire-gateway", "quire-wallet", "dev")

    def test_a_crate_without_a_part_fails(self):
        meta = copy.deepcopy(METADATA)
        pkg = copy.deepcopy(next(p for p in meta["packages"] if p["name"] == "quire-kit"))
        pkg["name"], pkg["id"] = "quire-stray", "path+file:///stray#0.1.0"
        pkg["manifest_path"] = str(Path(meta["workspace_root"]) / "stray" / "Cargo.toml")
        meta["packages"].append(pkg)
        meta["workspace_members"].append(pkg["id"])
        problems = ac.check(PLAN, meta)
        self.assertTrue(any("quire-stray (stray) has no part" in p for p in problems), problems)

    def test_the_command_fails_on_a_forbidden_edge(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(with_edge("quire-catalog", "quire-auth"), f)
            f.flush()
            run = subprocess.run(
                [sys.executable, str(ac.ROOT / "deploy/architecture_check.py"), "--metadata", f.name],
                capture_output=True, text=True,
            )
        self.assertEqual(run.returncode, 1, run.stderr)
        self.assertIn("quire-catalog (service) -> quire-auth (service)", run.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=1)
