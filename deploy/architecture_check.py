#!/usr/bin/env python3
"""Holds the workspace to the plan in architecture.toml.

Reads the workspace's crates and their dependencies (normal, dev and build) from
`cargo metadata --no-deps` (or a saved copy of its JSON: --metadata FILE), maps each
crate to its part in architecture.toml by its folder, and fails, saying which, on:
- a crate of the workspace that has no part (every crate says what it is for);
- a part that names no crate (the plan stays current);
- an edge between two Quire crates that a rule forbids.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_plan(path: Path) -> dict:
    plan = tomllib.loads(path.read_text())
    kinds = plan.get("kinds", {})
    for rel, part in plan.get("parts", {}).items():
        if part.get("kind") not in kinds:
            raise SystemExit(f"{path.name}: part {rel} has unknown kind {part.get('kind')!r}")
        if not part.get("what"):
            raise SystemExit(f"{path.name}: part {rel} does not say what it is for")
    for rule in plan.get("rule", []):
        for k in [rule.get("from"), *rule.get("to", []), *rule.get("only", [])]:
            if k not in kinds:
                raise SystemExit(f"{path.name}: a rule names unknown kind {k!r}")
        if ("to" in rule) == ("only" in rule):
            raise SystemExit(f"{path.name}: the rule from {rule['from']} needs one of to, only")
    return plan


def cargo_metadata(root: Path) -> dict:
    out = subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        cwd=root, check=True, capture_output=True, text=True,
    )
    return json.loads(out.stdout)


def forbidden(plan: dict, src_kind: str, dst_kind: str) -> str | None:
    """The reason an edge from src_kind to dst_kind is forbidden, or None."""
    for rule in plan.get("rule", []):
        if rule["from"] != src_kind:
            continue
        if "to" in rule and dst_kind in rule["to"]:
            return rule["why"]
        if "only" in rule and dst_kind not in rule["only"]:
            return rule["why"]
    return None


def check(plan: dict, metadata: dict) -> list[str]:
    root = Path(metadata["workspace_root"])
    members = set(metadata.get("workspace_members", []))
    parts = plan.get("parts", {})
    by_name: dict[str, str] = {}  # crate name -> part path
    problems: list[str] = []
    packages = [p for p in metadata["packages"] if p["id"] in members]
    for pkg in packages:
        rel = Path(pkg["manifest_path"]).parent.relative_to(root).as_posix()
        rel = "." if rel == "" else rel
        if rel not in parts:
            problems.append(f"{pkg['name']} ({rel}) has no part in architecture.toml: add a line saying what it is for")
            continue
        by_name[pkg["name"]] = rel
    for rel in parts:
        if rel not in by_name.values():
            problems.append(f"architecture.toml names {rel}, which is no crate of the workspace")
    for pkg in packages:
        src = by_name.get(pkg["name"])
        if src is None:
            continue
        src_kind = parts[src]["kind"]
        for dep in pkg.get("dependencies", []):
            dst = by_name.get(dep["name"])
            if dst is None:
                continue  # not a Quire crate
            dst_kind = parts[dst]["kind"]
            why = forbidden(plan, src_kind, dst_kind)
            if why:
                kind = dep.get("kind") or "normal"
                problems.append(
                    f"{pkg['name']} ({src_kind}) -> {dep['name']} ({dst_kind}), a {kind} dependency: "
                    f"forbidden, {why}"
                )
    return problems


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plan", type=Path, default=ROOT / "architecture.toml")
    ap.add_argument("--metadata", type=Path, help="cargo metadata JSON instead of running cargo")
    args = ap.parse_args(argv)
    plan = load_plan(args.plan)
    metadata = json.loads(args.metadata.read_text()) if args.metadata else cargo_metadata(ROOT)
    problems = check(plan, metadata)
    for p in problems:
        print(f"architecture: {p}", file=sys.stderr)
    n = len([p for p in metadata["packages"] if p["id"] in set(metadata["workspace_members"])])
    if problems:
        print(f"architecture: {len(problems)} problem(s) in {n} crates", file=sys.stderr)
        return 1
    print(f"architecture: {n} crates, every dependency as architecture.toml allows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
