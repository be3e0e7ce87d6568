"""Failure is per item (fixlore.rules.unread): a permanent 500 on one issue's comments and one on
a PR's files, served by the real replay server on loopback, costs those items only. Every other
line of the case export is the clean run's; the items are named in run.json, on stderr and in
the digest's methods section; an issue whose fix the gap leaves open is never "no fix evidence"."""

from __future__ import annotations

import json
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import httpx2
import pytest

from fixlore.core.errors import FixloreError
from fixlore.core.model import Case
from fixlore.replay.faults import FaultPlan, parse_spec
from fixlore.replay.server import ReplayServer
from fixlore.rules.unread import Unread, case_gaps, fix_unknown, parse_label, unjudged

from conftest import clean_and_faulty_sources, fixlore_here

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"
# #95's official answer is in its comments; its fix !145 merged after the close and names it in the PR,
# so the fix stands without the comments (a fix merged after the close is still the fix, issue #23);
# #35 has no fix PR and its official answer is in its comments: without them its fix is unknown;
# #104's fix is named by closing keywords in its PRs, so it stands without the comments;
# !61's files are what #33's linked !60 is compared with to find it unrelated.
FAULTS = "500=*/issues/95/comments,500=*/issues/104/comments,500=*/pulls/61/files,500=*/issues/35/comments"
AFFECTED = {("demo-infra/cluster-agent", 95), ("demo-ai/modelkit", 104), ("demo-ai/infer-serve", 33),
            ("demo-ai/infer-serve", 35)}


# ---------- the rule

def test_labels_round_trip_and_say_where_the_item_lives():
    assert Unread("issue", "o/r", 104, "comments").label("o/r") == "issues/104/comments"
    assert Unread("pull", "o/other", 5, "files").label("o/r") == "o/other/pulls/5/files"
    assert parse_label("o/other/pulls/5/files") == Unread("pull", "o/other", 5, "files")
    assert parse_label("issues/104/comments", "o/r") == Unread("issue", "o/r", 104, "comments")
    assert parse_label("issues/104/nonsense") is None and parse_label("pulls/x/files") is None
    assert case_gaps(["links", "comments"], {("o/r", 61): ["files"]}, "o/r", 104) == [
        "issues/104/comments", "issues/104/links", "pulls/61/files"]


def test_what_a_gap_leaves_open():
    # without a merged fix, a part that may name one leaves the fix unknown ...
    assert fix_unknown(["issues/9/comments"], has_landed_fix=False) == "fix unknown: comments unreadable"
    assert fix_unknown(["issues/9/events", "pulls/3/commits"], False) == "fix unknown: events, pulls/3 commits unreadable"
    # ... a merged fix stands whatever is missing, and files never name a fix
    assert fix_unknown(["issues/9/comments"], has_landed_fix=True) == ""
    assert fix_unknown(["pulls/3/files"], has_landed_fix=False) == ""
    assert unjudged(["issues/9/comments", "pulls/3/files"]) == ["pulls/3"]


def test_unread_is_exported_only_when_there_is_some_and_read_back():
    plain = Case("o/r", 1)
    assert "unread" not in plain.to_export()          # a clean run's lines are unchanged
    gappy = Case("o/r", 2, unread=["issues/2/comments"])
    assert Case.from_export(gappy.to_export()).unread == ["issues/2/comments"]
    assert Case.from_export(plain.to_export()).unread == []


# ---------- the permanent fault of the replay server

def test_a_path_fault_never_heals_and_touches_nothing_else():
    with ReplayServer(DEMO, faults="500=*/issues/101/comments") as srv, httpx2.Client(base_url=srv.base_url) as c:
        codes = [c.get("/repos/demo-ai/modelkit/issues/101/comments").status_code for _ in range(5)]
        assert codes == [500] * 5                    # no streak limit: the endpoint is broken for good
        assert c.get("/repos/demo-ai/modelkit/issues/102/comments").status_code == 200
        assert c.get("/repos/demo-ai/modelkit/issues/101").status_code == 200
        assert srv.stats()["faults_injected"] == {"500": 5}


@pytest.mark.parametrize("spec, message", [("boom=*/x", "unknown kind"), ("500=issues", "path pattern")])
def test_bad_path_faults(spec, message):
    with pytest.raises(FixloreError, match=message):
        parse_spec(spec)


def test_a_path_fault_only_where_its_kind_applies():
    plan = FaultPlan("repeat-page=*/issues", seed=0)
    assert plan.choose(1, "/api/v5/repos/o/r/issues?page=1", {"500"}) is None
    assert plan.choose(2, "/api/v5/repos/o/r/issues?page=2", {"repeat-page"}) == "repeat-page"


# ---------- the whole run

def _run(out: Path, faults: str | None, tmp: Path, world: Path = DEMO) -> subprocess.CompletedProcess:
    config = tmp / "fast.toml"
    # a failing request gives up after one retry, its wait compressed tenfold (time_scale: the
    # replay server's quotas and the client's pauses alike): about a tenth of a second
    config.write_text("max_attempts = 2\ntime_scale = 10\n", encoding="utf-8")
    cmd = ["run", "--world", str(world), "--out", str(out), "--quiet", "--config", str(config)]
    if faults:
        cmd += ["--faults", faults]
    return fixlore_here(*cmd, env={"NO_COLOR": "1", "COLUMNS": "200"})


def _lines(out: Path) -> dict[tuple[str, int], str]:
    rows = {}
    for line in (out / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        rows[(case["repo"], case["number"])] = line
    return rows


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("items")
    clean = _run(tmp / "clean", None, tmp)
    assert clean.returncode == 0, clean.stderr[-2000:]
    faulty = _run(tmp / "faulty", FAULTS, tmp)
    return tmp / "clean", tmp / "faulty", faulty


def test_every_other_item_is_the_clean_runs(runs):
    clean_out, faulty_out, _ = runs
    clean, faulty = _lines(clean_out), _lines(faulty_out)
    assert set(clean) == set(faulty)
    changed = {key for key in clean if clean[key] != faulty[key]}
    assert changed <= AFFECTED
    assert ("demo-infra/cluster-agent", 95) in changed and ("demo-ai/modelkit", 104) in changed
    for key in set(clean) - AFFECTED:
        assert "unread" not in json.loads(faulty[key])


def test_the_affected_items_say_what_they_lack_and_conclude_nothing_from_it(runs):
    clean_out, faulty_out, _ = runs
    clean, faulty = _lines(clean_out), _lines(faulty_out)
    c95 = json.loads(faulty[("demo-infra/cluster-agent", 95)])
    assert c95["unread"] == ["issues/95/comments"]
    clean95 = json.loads(clean[("demo-infra/cluster-agent", 95)])
    assert clean95["funnel"] == "selected"
    # the answer lived in the unread comments: it is gone, and nothing stands in for it ...
    assert [e["kind"] for e in clean95["evidence"]] == ["answer"] and c95["evidence"] != clean95["evidence"]
    # ... while the fix that merged after the close, named by its PR, stands: the fix is known
    assert [(f["number"], f["state"]) for f in c95["pending_fix"]] == [
        (f["number"], f["state"]) for f in clean95["pending_fix"]] == [(145, "merged")]
    assert c95["drop_reason"] != "fix_unknown" and "fix unknown" not in c95.get("timing_note", "")
    c35 = json.loads(faulty[("demo-ai/infer-serve", 35)])
    assert json.loads(clean[("demo-ai/infer-serve", 35)])["funnel"] == "selected"
    assert c35["unread"] == ["issues/35/comments"] and not c35["fix"] and not c35.get("pending_fix")
    assert c35["drop_reason"] == "fix_unknown" and c35["funnel"] == "analysis"
    c104 = json.loads(faulty[("demo-ai/modelkit", 104)])
    assert c104["unread"] == ["issues/104/comments"]
    # its fix is named by the PRs' closing keywords: a merged fix stands without the comments
    assert [f["number"] for f in c104["fix"]] == [f["number"] for f in json.loads(clean[("demo-ai/modelkit", 104)])["fix"]]
    assert c104["drop_reason"] != "no_fix_evidence"
    c33 = json.loads(faulty[("demo-ai/infer-serve", 33)])
    assert c33["unread"] == ["pulls/61/files"]
    assert "linked_unrelated" not in c33["traps"]       # not judged: the files compared are missing
    assert all(json.loads(line)["drop_reason"] != "no_fix_evidence" or "unread" not in json.loads(line)
               for line in faulty.values())


def test_the_items_are_named_in_run_json_on_stderr_and_in_the_digest(runs):
    _, faulty_out, proc = runs
    assert proc.returncode == 6, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    info = json.loads((faulty_out / "run.json").read_text(encoding="utf-8"))
    harvest = next(s["summary"] for s in info["stages"] if s["name"] == "harvest")
    assert harvest["unreadable"] == [] and harvest["repos_unreadable"] == 0     # no repo was lost
    assert {(i["repo"], i["kind"], i["number"], i["part"]) for i in harvest["unread_items"]} == {
        ("demo-infra/cluster-agent", "issue", 95, "comments"), ("demo-ai/modelkit", "issue", 104, "comments"),
        ("demo-ai/infer-serve", "pull", 61, "files"), ("demo-ai/infer-serve", "issue", 35, "comments")}
    assert harvest["items_unreadable"] == 4
    assert "could not read all of demo-infra/cluster-agent#95: comments" in proc.stderr
    assert "could not read all of demo-ai/infer-serve PR 61: files" in proc.stderr
    assert "4 issue(s) or PR(s) could not be read in full (exit 6)" in proc.stderr
    en = (faulty_out / "digest.en.md").read_text(encoding="utf-8")
    zh = (faulty_out / "digest.zh.md").read_text(encoding="utf-8")
    assert "**Read in part**: 4 issues or PRs could not be read in full" in en
    assert "cluster-agent#95" in en.split("**Read in part**")[1].split("\n")[0]
    assert "the fix is unknown, never counted as no fix evidence" in en
    unjudged_note = en.split("Whether a linked change is unrelated was not judged")[1].split("\n")[0]
    assert "infer-serve#33" in unjudged_note and "files of [!61]" in unjudged_note
    assert "could not be read:" not in en                # no repo is said to be unread
    assert "**逐条未读全**" in zh and "修复未知" in zh
    drops = next(line for line in en.splitlines() if line.startswith("- **Honest drops**"))
    assert "fix unknown" in drops and "no fix evidence" not in drops.split("fix unknown")[1].split(")")[0]


def test_a_rerun_without_the_fault_reads_the_items_and_forgets_them(runs, tmp_path):
    import shutil

    clean_out, faulty_out, _ = runs
    again = tmp_path / "again"
    shutil.copytree(faulty_out, again)
    proc = _run(again, None, tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _lines(again) == _lines(clean_out)
    info = json.loads((again / "run.json").read_text(encoding="utf-8"))
    harvest = next(s["summary"] for s in info["stages"] if s["name"] == "harvest")
    assert harvest["unread_items"] == []


# ---------- each source reads each part on its own

@pytest.mark.parametrize("world, faults, issue_repo, issue_no, pull_no, lost_issue, lost_pull", [
    (DEMO, "500=*/issues/101/operate_logs,500=*/pulls/201/commits", "demo-ai/modelkit", 101, 201, "events",
     ("commits",)),
    # on GitHub PR 10 is issue 10: its conversation is /issues/10/comments, so the PR loses its comments too
    (ROOT / "worlds" / "github-mini", "500=*/issues/10/comments,500=*/pulls/10/files", "minilab/widgets", 10, 10,
     "comments", ("files", "comments")),
])
def test_a_source_keeps_the_parts_it_read(world, faults, issue_repo, issue_no, pull_no, lost_issue, lost_pull):
    with clean_and_faulty_sources(world, faults) as (clean, faulty):
        issue = clean.get_issue(issue_repo, issue_no)
        pull = clean.get_pull(issue_repo, pull_no)
        whole, part = clean.issue_detail(issue), faulty.issue_detail(issue)
        assert whole.unread == {} and set(part.unread) == {lost_issue}
        assert part.unread[lost_issue].endpoint.endswith({"events": "operate_logs"}.get(lost_issue, lost_issue))
        for name in ("comments", "events", "links"):
            if name != lost_issue:
                assert getattr(part, name) == getattr(whole, name)
        assert getattr(part, lost_issue) == [] and getattr(whole, lost_issue)
        pwhole, ppart = clean.pull_detail(pull), faulty.pull_detail(pull)
        assert pwhole.unread == {} and set(ppart.unread) == set(lost_pull)
        for name in ("files", "commits", "links", "events", "comments"):
            if name not in lost_pull:
                assert getattr(ppart, name) == getattr(pwhole, name)
        assert all(getattr(ppart, name) == [] and getattr(pwhole, name) for name in lost_pull)


# ---------- the store keeps what it had of an unread part, and asks again

def test_a_part_read_later_replaces_and_an_unread_part_keeps_what_was_stored(tmp_path):
    from datetime import timedelta

    from fixlore.core import model as m
    from fixlore.sources.base import IssueDetail, PullDetail
    from fixlore.sources.responses import ApiError
    from fixlore.store import Store

    store = Store.open(f"sqlite:///{tmp_path / 's.db'}")
    t1 = datetime(2026, 9, 18, tzinfo=timezone(timedelta(hours=8)))
    t2 = t1 + timedelta(hours=1)
    issue = m.Issue(repo="o/r", number=5, title="t", body="b", state="closed", created_at=t1, updated_at=t1,
                    closed_at=t1)
    first = IssueDetail(comments=[m.Comment("o/r", "issue", 5, "c1", "a", "see !7", t1)],
                        events=[m.Event("o/r", "issue", 5, "e1", m.EV_CLOSED, "bot", t1)],
                        links=[m.Link("o/r", 5, "o/r", 7, "issue_pulls")])
    with store.writer() as w:
        w.upsert_issues([issue])
        w.save_issue_detail(issue, first)
    issue.updated_at = t2                      # changed since: asked again, and the comments fail
    failed = ApiError("/repos/{owner}/{repo}/issues/{number}/comments", "retries", "kept failing: HTTP 500")
    again = IssueDetail(events=[m.Event("o/r", "issue", 5, "e2", m.EV_CLOSED, "bot", t2)],
                        links=[m.Link("o/r", 5, "o/r", 8, "operate_log")], unread={"comments": failed})
    with store.writer() as w:
        w.upsert_issues([issue])
        w.save_issue_detail(issue, again)
    store.record_item_failure("o/r", "issue", 5, "comments", failed.endpoint, failed.status, failed.message)
    corpus = store.load_corpus()
    assert [c.id for c in corpus.comments] == ["c1"]                 # what was read before stays
    assert [e.id for e in corpus.events] == ["e2"]                   # a part read now replaces
    assert {lk.pull_number for lk in corpus.links} == {7, 8}         # links only added to
    assert corpus.unread == {("issue", "o/r", 5): ["comments"]}
    assert store.issue_bookkeeping("o/r")[5]["details_for"] is None  # not done: asked again
    store.record_item_failure("o/r", "issue", 5, "comments", failed.endpoint, failed.status, failed.message)
    assert store.item_failures()[0]["attempts"] == 2
    store.clear_item_failures("o/r", "issue", 5, keep=())
    assert store.load_corpus().unread == {}

    pull = m.Pull("o/r", 7, "fix", "Fixes #5", "merged", t1, t1, t1, None)
    with store.writer() as w:
        w.save_pull_detail(pull, PullDetail(pull=pull, files=[m.FileChange("o/r", 7, "a.py", "modified", 1, 1, "@@")]))
        w.save_pull_detail(pull, PullDetail(pull=pull, commits=[m.Commit("o/r", 7, "abc", "fix")],
                                            unread={"files": failed}))
    assert [f.filename for f in store.load_corpus().files] == ["a.py"]
    assert store.pull_details_for([("o/r", 7)])[("o/r", 7)] is None   # read in part: asked again


def test_the_status_of_a_case_with_an_open_fix_question_is_fix_unknown():
    from fixlore.core.model import FixRef
    from fixlore.serve.views import status_of

    when = datetime(2026, 9, 18, tzinfo=timezone.utc)
    assert status_of(Case("o/r", 1, funnel="rank", unread=["issues/1/comments"])) == "fix_unknown"
    assert status_of(Case("o/r", 1, funnel="rank", unread=["pulls/3/files"])) == "no_fix_found"
    merged = FixRef("o/r", 3, "fix", state="merged", merged_at=when)
    assert status_of(Case("o/r", 1, funnel="rank", fix=[merged], unread=["issues/1/comments"])) == "fixed"


def test_a_pr_list_that_cannot_be_read_leaves_its_repos_fixes_unknown_and_nothing_else(runs, tmp_path):
    """The PR list is the repo's, not an item's: its loss is the repo's failure, and every issue
    of the repo carries it (the PRs' own text is where most fixes name their issue)."""
    clean_out, _, _ = runs
    out = tmp_path / "pulls"
    proc = _run(out, "500=*/demo-ai/modelkit/pulls", tmp_path)
    assert proc.returncode == 6 and "1 repo(s) could not be read" in proc.stderr
    clean, faulty = _lines(clean_out), _lines(out)
    for key in clean:
        if key[0] != "demo-ai/modelkit":
            assert faulty[key] == clean[key]
            continue
        case = json.loads(faulty[key])
        assert case["unread"] == ["pulls"] and case["drop_reason"] != "no_fix_evidence"
        if case["funnel"] == "analysis":
            assert case["drop_reason"] == "fix_unknown"
    assert json.loads(faulty[("demo-ai/modelkit", 101)])["drop_reason"] == "fix_unknown"
    en = (out / "digest.en.md").read_text(encoding="utf-8")
    assert "1 of 4 repos were read in part: demo-ai/modelkit" in en and "could not be read:" not in en
    again = _run(out, None, tmp_path)                  # the list reads again: the gap is gone
    assert again.returncode == 0, again.stderr[-2000:]
    assert _lines(out) == clean


def test_on_github_a_thread_that_cannot_be_read_leaves_that_issue_open_and_no_other(tmp_path):
    """github-mini: #104's fix is cited only in its comments, #102's link also travels in its
    timeline; their comments and timeline answer 500 for good."""
    world = ROOT / "worlds" / "github-mini"
    clean_proc = _run(tmp_path / "clean", None, tmp_path, world)
    assert clean_proc.returncode == 0, clean_proc.stderr[-2000:]
    proc = _run(tmp_path / "faulty", "500=*/issues/104/comments,500=*/issues/102/timeline", tmp_path, world)
    assert proc.returncode == 6 and "could not read all of minilab/widgets#104: comments" in proc.stderr
    clean, faulty = _lines(tmp_path / "clean"), _lines(tmp_path / "faulty")
    affected = {("minilab/widgets", 102), ("minilab/widgets", 104)}
    assert {k for k in clean if clean[k] != faulty[k]} <= affected
    c104 = json.loads(faulty[("minilab/widgets", 104)])
    assert json.loads(clean[("minilab/widgets", 104)])["fix"] and not c104["fix"]
    assert c104["unread"] == ["issues/104/comments"] and c104["drop_reason"] == "fix_unknown"
    assert c104["timing_note"] == "fix unknown: comments unreadable"
    c102 = json.loads(faulty[("minilab/widgets", 102)])
    assert c102["unread"] == ["issues/102/events"] and c102["fix"] == json.loads(clean[("minilab/widgets", 102)])["fix"]
