"""A PR's comments are harvested over the platform API like its other parts (fixlore.rules.unread):
GitCode's /pulls/{n}/comments with each root's nested replies, GitHub's conversation (the PR's
issue number) and review comments; they reach the store as parent_kind "pull", and a failing
comments endpoint names the PR's ``comments`` unread, never an empty list."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from fixlore.sources.gitcode import pull_comments_flat

from conftest import clean_and_faulty_sources
from test_item_failures import _run      # a demo-speed `fixlore run`, faults optional

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
GITHUB_MINI = ROOT / "worlds" / "github-mini"


def test_gitcode_replies_are_comments_after_their_root():
    root = {"id": 1, "body": "a", "reply": [{"id": 2, "body": "b"}, "junk", {"id": 3, "body": "c"}]}
    assert [c["id"] for c in pull_comments_flat([root, None, {"id": 4, "reply": None}])] == [1, 2, 3, 4]


# demo's modelkit !210 has a tester's comment in pulls/210.comments.json; github-mini's PR 10 is
# issue 10 too, and its conversation is that comments.
@pytest.mark.parametrize("world, repo, number, fault, body", [
    (DEMO, "demo-ai/modelkit", 210, "500=*/pulls/210/comments", "MMLU 恢复到 -0.4"),
    (GITHUB_MINI, "minilab/widgets", 10, "500=*/pulls/10/comments", None),
])
def test_a_source_reads_a_prs_comments_or_names_them_unread(world, repo, number, fault, body):
    with clean_and_faulty_sources(world, fault) as (clean, faulty):
        pull = clean.get_pull(repo, number)
        whole, part = clean.pull_detail(pull), faulty.pull_detail(pull)
    assert whole.unread == {} and whole.comments
    assert {(c.repo, c.parent_kind, c.parent_number) for c in whole.comments} == {(repo, "pull", number)}
    if body:
        assert any(body in c.body for c in whole.comments)
    if clean.platform == "github":      # the conversation is the comments under the PR's number
        talk = json.loads((world / "repos" / repo / "issues" / f"{number}.comments.json").read_text("utf-8"))
        assert {c.id for c in whole.comments} >= {str(c["id"]) for c in talk}
    assert set(part.unread) == {"comments"} and part.unread["comments"].endpoint.endswith("/comments")
    assert part.comments == [] and "comments" not in part.raw
    for name in ("files", "commits", "links", "events"):
        assert getattr(part, name) == getattr(whole, name)


def _pull_comments(out: Path) -> set[tuple[str, int, str]]:
    with sqlite3.connect(out / "fixlore.db") as db:
        return {(r, n, b) for r, n, b in db.execute(
            "select repo, parent_number, body from comments where parent_kind = 'pull'")}


def _github_world(tmp: Path) -> Path:
    """github-mini with a conversation comment and a review comment on !97, a PR the harvest details
    (the bundled world has none on a detailed PR)."""
    import shutil

    world = tmp / "gh"
    shutil.copytree(GITHUB_MINI, world)
    user = {"login": "rev-iewer", "id": 7, "type": "User"}
    base = world / "repos" / "minilab" / "widgets"
    (base / "issues" / "97.comments.json").write_text(json.dumps([
        {"id": 9700001, "body": "Verified on macOS 14: the crash is gone.", "user": user,
         "author_association": "MEMBER", "created_at": "2025-07-20T10:00:00Z",
         "updated_at": "2025-07-20T10:00:00Z"}]), encoding="utf-8")
    (base / "pulls" / "97.comments.json").write_text(json.dumps([
        {"id": 9700002, "body": "This guard also covers the empty-list case.", "user": user,
         "author_association": "MEMBER", "path": "src/widgets/core.py", "position": 3,
         "created_at": "2025-07-20T11:00:00Z", "updated_at": "2025-07-20T11:00:00Z"}]), encoding="utf-8")
    return world


@pytest.mark.parametrize("platform", ["gitcode", "github"])
def test_a_harvest_stores_pr_comments_and_names_a_failing_endpoint(platform, tmp_path):
    if platform == "gitcode":
        world, repo, number, bodies = DEMO, "demo-ai/modelkit", 210, ["用这个分支验证过，MMLU 恢复到 -0.4。"]
    else:
        world, repo, number = _github_world(tmp_path), "minilab/widgets", 97
        bodies = ["Verified on macOS 14: the crash is gone.", "This guard also covers the empty-list case."]
    clean = _run(tmp_path / "clean", None, tmp_path, world)
    assert clean.returncode == 0, clean.stderr[-2000:]
    stored = {b for r, n, b in _pull_comments(tmp_path / "clean") if (r, n) == (repo, number)}
    assert stored == set(bodies)

    faulty = _run(tmp_path / "faulty", f"500=*/pulls/{number}/comments", tmp_path, world)
    assert faulty.returncode == 6, faulty.stderr[-2000:]
    info = json.loads((tmp_path / "faulty" / "run.json").read_text(encoding="utf-8"))
    harvest = next(s["summary"] for s in info["stages"] if s["name"] == "harvest")
    named = {(i["repo"], i["kind"], i["number"], i["part"]) for i in harvest["unread_items"]}
    assert (repo, "pull", number, "comments") in named
    assert all(part == "comments" and kind == "pull" for _, kind, _, part in named)
    assert not any((r, n) == (repo, number) for r, n, _ in _pull_comments(tmp_path / "faulty"))


def test_0011_asks_again_the_prs_detailed_before_their_comments_were_read(tmp_path):
    import sqlalchemy as sa
    from alembic import command

    from test_who_speaks_data import _store_at

    with _store_at(f"sqlite:///{tmp_path / 'm.db'}", "0010_search_live_issues", "gitcode") as (conn, cfg):
        for n, detailed in ((1, "2026-09-18 00:00:00.000000"), (2, "2026-09-18 00:00:00.000000"), (3, None)):
            conn.execute(sa.text("INSERT INTO pulls (id, repo, number, details_for) VALUES (:id, 'o/r', :n, :d)"),
                         {"id": f"o/r!{n}", "n": n, "d": detailed})
        conn.execute(sa.text("INSERT INTO comments (repo, parent_kind, parent_number, id, body) "
                             "VALUES ('o/r', 'pull', 2, 'c1', 'tested')"))
        command.upgrade(cfg, "0011_pull_comments")
        marks = dict(conn.execute(sa.text("SELECT number, details_for IS NOT NULL FROM pulls")).all())
        assert marks == {1: 0, 2: 1, 3: 0}         # !1 is asked again; !2's comments were stored
