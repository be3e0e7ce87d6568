"""World loading: lazy objects, per-object files, and one clear error for a broken world."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from fixlore.core.errors import FixloreError
from fixlore.replay.world import World

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"


def test_demo_world_metadata_and_objects():
    w = World(DEMO)
    assert w.platform == "gitcode"
    assert w.snapshot_at.isoformat() == "2026-09-21T00:00:00+08:00"
    assert w.orgs == ["demo-ai", "demo-infra"]
    assert ("demo-ai", "modelkit") in w.repos()
    issue = w.issue("demo-ai", "modelkit", 101)
    assert issue["number"] == "101"
    assert [p["number"] for p in w.issue_file("demo-ai", "infer-serve", 31, "pulls")] == [57]
    assert w.issue_file("demo-ai", "modelkit", 111, "comments") is None  # absent file, not []
    assert w.pull("demo-ai", "modelkit", 201)["state"] == "merged"
    assert w.pull("demo-ai", "modelkit", 9999) is None
    assert w.issue("nobody", "nothing", 1) is None
    assert "docs/demo-ai/infer-serve/docs/prefix_cache.md" in w.docs()
    assert w.truth()["window"]["since"] == "2026-09-17T00:00:00+08:00"


def test_repo_lookup_is_case_insensitive_but_reports_the_stored_spelling():
    w = World(DEMO)
    assert w.canonical("Demo-AI", "ModelKit") == ("demo-ai", "modelkit")
    assert w.issue("Demo-AI", "ModelKit", 101)["number"] == "101"


def test_org_listing_keeps_model_repos_for_the_server_to_filter():
    listing = World(DEMO).org_repos("demo-ai")
    assert {r["repo_type"] for r in listing} == {"code", "model"}
    assert World(DEMO).org_repos("unknown-org") is None


def test_eager_load_reads_every_file():
    w = World(DEMO, eager=True)
    assert len(w._cache) > 100


def test_missing_world_folder(tmp_path):
    with pytest.raises(FixloreError, match="world not found"):
        World(tmp_path / "nope")


def test_folder_without_world_yaml(tmp_path):
    with pytest.raises(FixloreError, match="world.yaml is missing"):
        World(tmp_path)


@pytest.mark.parametrize("text, message", [
    ("platform: gitlab\nsnapshot_at: '2026-09-21T00:00:00Z'\n", "platform must be one of"),
    ("platform: github\n", "snapshot_at"),
    ("platform: [github\n", "not valid YAML"),
    ("- just\n- a list\n", "must be a mapping"),
])
def test_invalid_world_yaml(tmp_path, text, message):
    (tmp_path / "world.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(FixloreError, match=message):
        World(tmp_path)


def test_broken_json_file_is_reported_with_its_path(tmp_path):
    world = tmp_path / "w"
    shutil.copytree(DEMO, world)
    bad = world / "repos" / "demo-ai" / "modelkit" / "issues" / "101.json"
    bad.write_text("{not json", encoding="utf-8")
    lazy = World(world)  # lazy: nothing read yet
    with pytest.raises(FixloreError, match="101.json"):
        lazy.issue("demo-ai", "modelkit", 101)
    with pytest.raises(FixloreError, match="101.json"):
        World(world, eager=True)


def test_org_without_listing_file_is_built_from_repo_objects(tmp_path):
    world = tmp_path / "w"
    shutil.copytree(DEMO, world)
    (world / "orgs" / "demo-infra.json").unlink()
    listing = World(world).org_repos("demo-infra")
    assert sorted(r["path"] for r in listing) == ["cluster-agent", "commlib"]
    assert json.loads((world / "repos" / "demo-infra" / "commlib" / "repo.json").read_text())["path"] == "commlib"
