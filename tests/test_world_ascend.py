"""The Ascend 2026-09 world: reproducible, and every figure of seed digest 16 holds in the generated files."""
from __future__ import annotations

import json
import re
import sys
from datetime import datetime
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from worldgen.ascend.generate import generate  # noqa: E402

COMMITTED = ROOT / "worlds" / "ascend-2026-09"
SINCE = datetime.fromisoformat("2026-09-17T00:00:00+08:00")

AUTO_CHAINS = {("Ascend/msmodeling", n) for n in (410, 411, 443)} | {("Ascend/MindSpeed-MM", n) for n in (520, 720, 621, 716, 357)} \
    | {("Ascend/mind-cluster", n) for n in (1185, 1184, 1174, 1167, 1172, 1162)} | {("Ascend/MindIE-Motor", n) for n in (631, 643)} \
    | {("Ascend/memfabric_hybrid", n) for n in (472, 478, 485)}
ANALYSIS_DROPS = {
    ("Ascend/msmodeling", 363): "not_adopted", ("Ascend/msmodeling", 441): "not_adopted",
    ("Ascend/MindSpeed-MM", 542): "merged_into_other", ("Ascend/MindSpeed-MM", 568): "no_fix_evidence",
    ("Ascend/mind-cluster", 1183): "internal_process", ("Ascend/msmodelslim", 478): "not_a_problem",
    ("Ascend/msmodelslim", 480): "no_fix_evidence", ("Ascend/MindSpeed-Bridge", 42): "consultation_only",
    ("Ascend/MindSpeed-Bridge", 55): "not_adopted", ("Ascend/MindSpeed-Bridge", 76): "env_workaround",
    ("Ascend/MindSpeed-Bridge", 84): "fix_pending", ("Ascend/MindSpeed-Bridge", 85): "no_fix_evidence",
    ("Ascend/MindIE-Motor", 635): "self_answered",
}
SELECTED_PER_REPO = {"Ascend/msmodeling": 11, "Ascend/MindSpeed-MM": 12, "Ascend/mind-cluster": 13, "Ascend/msmodelslim": 7,
                     "Ascend/MindSpeed-Bridge": 1, "Ascend/MindIE-Motor": 2, "Ascend/memfabric_hybrid": 4}
FUNNEL = {"selected": 50, "analysis": 13, "rank": 180, "noise": 38}


def t(s):
    return datetime.fromisoformat(s)


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    out = tmp_path_factory.mktemp("world")
    generate(str(out))
    return out


class W:
    def __init__(self, root: Path):
        self.root = root
        self.truth = yaml.safe_load((root / "truth.yaml").read_text(encoding="utf-8"))

    def j(self, rel):
        return json.loads((self.root / rel).read_text(encoding="utf-8"))

    def has(self, rel):
        return (self.root / rel).exists()

    def issue(self, repo, n, part=""):
        return self.j(f"repos/{repo}/issues/{n}{part}.json")

    def pull(self, repo, n, part=""):
        return self.j(f"repos/{repo}/pulls/{n}{part}.json")

    def issues(self):
        if not hasattr(self, "_issues"):
            self._issues = [(p.parts[-4] + "/" + p.parts[-3], json.loads(p.read_text(encoding="utf-8")))
                            for p in sorted(self.root.glob("repos/*/*/issues/*.json")) if p.name.count(".") == 1]
        return self._issues

    def entry(self, repo, n):
        return next(e for e in self.truth["issues"] if e["repo"] == repo and e["number"] == n)

    def closer(self, repo, n):
        closes = [e for e in self.issue(repo, n, ".events") if e["action_type"] == "closed"]
        return max(closes, key=lambda e: t(e["created_at"]))["user"]["login"]


@pytest.fixture(scope="module")
def w(world):
    return W(world)


def test_regeneration_is_byte_identical_to_the_committed_world(world):
    generated = sorted(p.relative_to(world) for p in world.rglob("*") if p.is_file())
    committed = sorted(p.relative_to(COMMITTED) for p in COMMITTED.rglob("*") if p.is_file() and p.name != "README.md"
                       or (p.is_file() and p.parent != COMMITTED))
    assert generated == committed
    for rel in generated:
        assert (world / rel).read_bytes() == (COMMITTED / rel).read_bytes(), rel
    assert (COMMITTED / "README.md").exists()


def test_world_yaml_and_size(w):
    wy = yaml.safe_load((w.root / "world.yaml").read_text(encoding="utf-8"))
    assert wy["platform"] == "gitcode" and wy["orgs"] == ["cann", "Ascend"] and wy["rank_top_k"] == 63
    assert wy["snapshot_at"] == "2026-09-21T00:00:00+08:00"
    assert sum(p.stat().st_size for p in w.root.rglob("*") if p.is_file()) < 40 * 1024 * 1024


def test_orgs_hold_187_repos_in_gitcode_shape(w):
    repos = w.j("orgs/cann.json") + w.j("orgs/Ascend.json")
    assert len(repos) == 187 == len({r["full_name"] for r in repos})
    slim = next(r for r in repos if r["full_name"] == "Ascend/msmodelslim")
    assert slim["path"] == "msmodelslim" and slim["name"] == "MindStudio-ModelSlim" and slim["namespace"]["path"] == "Ascend"
    for r in repos:
        assert w.has(f"repos/{r['full_name']}/repo.json")


def test_1019_issues_closed_since_the_window_start(w):
    closed = [i for _, i in w.issues() if i["finished_at"] and t(i["finished_at"]) >= SINCE]
    assert len(closed) == 1019
    assert all(i["state"] == "closed" and isinstance(i["number"], str) for i in closed)


def test_funnel_counts_match_the_seed(w):
    counts = {}
    for e in w.truth["issues"]:
        counts[e["funnel"]] = counts.get(e["funnel"], 0) + 1
    for stage, n in FUNNEL.items():
        assert counts[stage] == n, stage
    cheap = sum(counts[s] for s in ("unresolved", "internal", "cve", "empty_title"))
    assert cheap == 738
    assert 281 - 38 == counts["selected"] + counts["analysis"] + counts["rank"] == 243
    in_window = sum(v for k, v in counts.items() if k != "window")
    assert in_window == 1019


def test_selected_and_analysis_drops(w):
    sel = [e for e in w.truth["issues"] if e["funnel"] == "selected"]
    per_repo = {}
    for e in sel:
        per_repo[e["repo"]] = per_repo.get(e["repo"], 0) + 1
    assert per_repo == SELECTED_PER_REPO
    drops = {(e["repo"], e["number"]): e["drop_reason"] for e in w.truth["issues"] if e["funnel"] == "analysis"}
    assert drops == ANALYSIS_DROPS
    assert sum(1 for e in sel if e["kb_refs"]) == 37


def test_truth_covers_every_issue_updated_in_the_window_and_points_at_files(w):
    keyed = {(e["repo"], e["number"]) for e in w.truth["issues"]}
    updated = {(repo, int(i["number"])) for repo, i in w.issues() if t(i["updated_at"]) >= SINCE}
    assert keyed == updated
    for e in w.truth["issues"]:
        assert w.has(f"repos/{e['repo']}/issues/{e['number']}.json")
        for f in e["fix"]:
            assert w.has(f"repos/{f['repo']}/pulls/{f['number']}.json")
            assert w.pull(f["repo"], f["number"])["state"] == "merged"
        for doc in e["kb_refs"]:
            assert (w.root / doc).is_file(), doc


def _lag(w, repo, n, prs):
    close = t(w.issue(repo, n)["finished_at"])
    return min(((close - t(w.pull(repo, p)["merged_at"])).total_seconds() for p in prs), key=abs)


def test_auto_close_chains(w):
    chains = {(e["repo"], e["number"]): e for e in w.truth["issues"] if e["funnel"] == "selected" and "auto_close" in e["evidence"]}
    assert set(chains) == AUTO_CHAINS
    lags = sorted(_lag(w, r, n, [f["number"] for f in e["fix"]]) for (r, n), e in chains.items())
    assert sum(1 for x in lags if abs(x) <= 1) == 14
    assert [x for x in lags if abs(x) > 1] == sorted(x for x in lags if 55 <= x <= 180) and len([x for x in lags if abs(x) > 1]) == 5
    assert _lag(w, "Ascend/msmodeling", 411, [850]) == 55
    assert 100 <= _lag(w, "Ascend/msmodeling", 410, [850]) <= 140
    assert all(e["lag_s"] == round(_lag(w, r, n, [f["number"] for f in e["fix"]])) for (r, n), e in chains.items())


def test_backports_and_the_16_minute_close(w):
    b = w.pull("Ascend/msmodeling", 856)
    assert b["base"]["ref"].startswith("release/") and b["state"] == "merged"
    assert _lag(w, "Ascend/msmodeling", 438, [856]) == 16 * 60
    assert w.entry("Ascend/msmodeling", 438)["timing"] == "minutes"
    e443 = w.entry("Ascend/msmodeling", 443)
    assert {(f["number"], f["role"]) for f in e443["fix"]} == {(870, "fix"), (873, "backport")}
    assert w.pull("Ascend/msmodeling", 873)["base"]["ref"].startswith("release/")


def test_stale_closes(w):
    for repo, n, days, pr in (("Ascend/msmodelslim", 447, 22, 810), ("Ascend/MindSpeed-Bridge", 41, 34, 55)):
        lag = _lag(w, repo, n, [pr])
        assert int(lag // 86400) == days
        assert w.closer(repo, n).endswith("-robot")
        close = t(w.issue(repo, n)["finished_at"])
        notices = [c for c in w.issue(repo, n, ".comments") if c["user"]["login"].endswith("-robot") and t(c["created_at"]) < close]
        assert notices and (close - t(notices[0]["created_at"])).days >= 4
        e = w.entry(repo, n)
        assert e["timing"] == "stale" and "stale_close" in e["traps"]
    batch = [n for n in (390, 403, 405, 412, 430)]
    for n in batch:
        e = w.entry("Ascend/msmodeling", n)
        merged = t(w.pull("Ascend/msmodeling", e["fix"][0]["number"])["merged_at"])
        closed = t(w.issue("Ascend/msmodeling", n)["finished_at"])
        assert datetime(2026, 9, 8).date() <= merged.date() <= datetime(2026, 9, 16).date()
        assert closed.date() in (datetime(2026, 9, 17).date(), datetime(2026, 9, 18).date())
        assert e["timing"] == "stale"


def test_close_ten_hours_before_the_same_topic_merge_is_not_back_filled(w):
    closed = t(w.issue("Ascend/mind-cluster", 1165)["finished_at"])
    merged = t(w.pull("Ascend/mind-cluster", 4691)["merged_at"])
    assert 9.5 * 3600 <= (merged - closed).total_seconds() <= 10.5 * 3600
    e = w.entry("Ascend/mind-cluster", 1165)
    assert e["fix"] == [] and e["timing"] == "before_merge" and e["traps"] == ["closed_before_merge"] and e["lag_s"] is None


def _closes_between(w, lo, hi):
    out = []
    for repo, i in w.issues():
        if i["finished_at"] and lo <= t(i["finished_at"]) <= hi:
            out.append((repo, int(i["number"]), t(i["finished_at"]), w.closer(repo, int(i["number"]))))
    return out


def test_close_storms(w):
    bot = _closes_between(w, t("2026-09-18T13:39:56+08:00"), t("2026-09-18T13:40:00+08:00"))
    assert len(bot) >= 3 and len({c[3] for c in bot}) == 1 and bot[0][3].endswith("-robot")
    assert (max(c[2] for c in bot) - min(c[2] for c in bot)).total_seconds() <= 4
    manual = [c for c in _closes_between(w, t("2026-09-18T16:09:00+08:00"), t("2026-09-18T16:14:59+08:00"))
              if c[0] == "Ascend/mind-cluster"]
    assert len(manual) >= 3 and len({c[3] for c in manual}) == 1 and not manual[0][3].endswith("-robot")
    mm = sorted((c for c in _closes_between(w, t("2026-09-20T06:00:00+08:00"), t("2026-09-20T12:00:00+08:00"))
                 if c[0] == "Ascend/MindSpeed-MM"), key=lambda c: c[2])
    pairs = [(a, b) for a, b in zip(mm, mm[1:]) if a[3] == b[3] and (b[2] - a[2]).total_seconds() <= 240]
    assert [(a[1], b[1]) for a, b in pairs] == [(543, 589)]
    stormed = {(e["repo"], e["number"]) for e in w.truth["issues"] if "close_storm" in e["traps"]}
    assert stormed == {(c[0], c[1]) for c in bot + manual}


def test_fix_pr_states_and_traps(w):
    st = lambda repo, n: w.pull(repo, n)["state"]  # noqa: E731
    assert st("Ascend/MindSpeed-MM", 3054) == "open" and "fix_not_landed" in w.entry("Ascend/MindSpeed-MM", 536)["traps"]
    assert (st("Ascend/msmodelslim", 826), st("Ascend/msmodelslim", 883)) == ("closed", "open")
    assert "fix_not_landed" in w.entry("Ascend/msmodelslim", 446)["traps"]
    assert (st("Ascend/MindSpeed-Bridge", 54), st("Ascend/MindSpeed-Bridge", 55)) == ("closed", "merged")
    assert any("PR#54" in c["body"] for c in w.issue("Ascend/MindSpeed-Bridge", 41, ".comments"))
    assert "claimed_unmerged" in w.entry("Ascend/MindSpeed-Bridge", 41)["traps"]
    assert (st("Ascend/MindSpeed-MM", 2948), st("Ascend/MindSpeed-MM", 3109)) == ("closed", "merged")
    linked = w.issue("Ascend/MindIE-Motor", 631, ".pulls")
    assert [p["number"] for p in linked] == [1008] and linked[0]["state"] == "open" and "merged_at" not in linked[0]
    assert "#647" in w.pull("Ascend/MindIE-Motor", 1008)["body"] and "986" in w.pull("Ascend/MindIE-Motor", 1008)["body"]
    assert [f["number"] for f in w.entry("Ascend/MindIE-Motor", 631)["fix"]] == [986]
    closed_unmerged = next(p for p in w.issue("Ascend/msmodelslim", 446, ".pulls") if p["number"] == 826)
    assert "closed_at" in closed_unmerged and "merged_at" not in closed_unmerged
    e441 = w.entry("Ascend/msmodeling", 441)
    assert "linked_unrelated" in e441["traps"] and e441["fix"] == []
    assert w.pull("Ascend/msmodeling", 861)["state"] == "merged"
    assert {i["number"] for i in w.pull("Ascend/msmodeling", 850, ".issues")} == {"410", "411"}
    assert {i["number"] for i in w.pull("Ascend/MindSpeed-MM", 3157, ".issues")} == {"520", "542"}
    for repo, n in (("Ascend/msmodeling", 410), ("Ascend/msmodeling", 411), ("Ascend/MindSpeed-MM", 520)):
        assert "one_pr_many_issues" in w.entry(repo, n)["traps"]


def test_special_carriers(w):
    for repo, n, pr in (("Ascend/msmodeling", 390, 795), ("Ascend/msmodeling", 403, 791), ("Ascend/msmodeling", 430, 825),
                        ("Ascend/MindSpeed-MM", 621, 2983), ("Ascend/MindIE-Motor", 643, 1000)):
        assert re.search(rf"(Closes|Fixes) #{n}\b", w.pull(repo, pr)["body"])
    for repo, n, pr in (("Ascend/msmodelslim", 558, 958), ("Ascend/msmodelslim", 567, 976),
                        ("Ascend/memfabric_hybrid", 472, 1309), ("Ascend/memfabric_hybrid", 478, 1315)):
        assert str(n) in w.pull(repo, pr)["head"]["ref"]
        assert "branch_name" in w.entry(repo, n)["evidence"]
    assert w.pull("Ascend/msmodelslim", 958)["head"]["ref"] == "bugfix/issue558"
    assert w.pull("Ascend/memfabric_hybrid", 1309)["head"]["ref"].startswith("fix/ha-")
    assert w.pull("Ascend/memfabric_hybrid", 1315)["head"]["ref"].startswith("fix/acclink-")
    assert any("PR#826" in c["body"] for c in w.issue("Ascend/msmodelslim", 446, ".comments"))
    assert any("PR#919" in c["body"] for c in w.issue("Ascend/msmodelslim", 540, ".comments"))
    answers = [(r, n) for r, n in (("Ascend/msmodeling", 315), ("Ascend/msmodeling", 279), ("Ascend/MindSpeed-MM", 643),
                                   ("Ascend/MindSpeed-MM", 550), ("Ascend/MindSpeed-MM", 574), ("Ascend/MindSpeed-MM", 589),
                                   ("Ascend/mind-cluster", 1153), ("Ascend/mind-cluster", 1155), ("Ascend/mind-cluster", 1165),
                                   ("Ascend/mind-cluster", 1175), ("Ascend/memfabric_hybrid", 479))]
    for r, n in answers:
        assert w.entry(r, n)["evidence"] == ["answer"] and w.entry(r, n)["fix"] == []


def test_evidence_kinds_are_backed_by_the_data(w):
    """Every evidence kind in truth can be read from the files (a general linker has something to find)."""
    for e in w.truth["issues"]:
        repo, n = e["repo"], e["number"]
        fixes = [f["number"] for f in e["fix"]]
        issue_url = f"https://gitcode.com/{repo}/issues/{n}"
        if "keyword" in e["evidence"]:
            texts = []
            for p in fixes:
                pr = w.pull(repo, p)
                texts += [pr["title"], pr["body"]] + [c["commit"]["message"] for c in w.pull(repo, p, ".commits")]
            assert any(re.search(rf"#{n}\b", x) or issue_url in x for x in texts), (repo, n)
        if "branch_name" in e["evidence"]:
            assert any(str(n) in w.pull(repo, p)["head"]["ref"] for p in fixes), (repo, n)
        if "linked" in e["evidence"]:
            linked = {p["number"] for p in w.issue(repo, n, ".pulls")}
            assert linked & set(fixes), (repo, n)
        bodies = " ".join(c["body"] for c in w.issue(repo, n, ".comments")) if w.has(f"repos/{repo}/issues/{n}.comments.json") else ""
        if "comment" in e["evidence"]:
            assert any(re.search(rf"(!|#|PR ?){p}\b", bodies) for p in fixes), (repo, n)
        elif e["funnel"] in ("selected", "analysis"):
            # and the converse: a comment citing the fix PR ("!795", "PR#826", "PR 55") is evidence
            assert not any(re.search(rf"(?:!|PR ?#?){p}\b", bodies) for p in fixes), (repo, n)
        if "backport" in e["evidence"]:
            assert any(f["role"] == "backport" for f in e["fix"])


def test_cheap_stage_signals_are_readable_and_absent_from_the_pool(w):
    rejected = {"已拒绝", "已取消", "REJECTED", "CANCELED"}
    unresolved_labels = {"duplicate", "invalid", "wontfix", "重复", "无效"}
    internal_labels = {"internal", "内部", "内部测试", "code-review", "检视意见", "review"}

    def signals(i):
        labels = {x["name"] for x in i["labels"]}
        return {
            "unresolved": i["issue_state"] in rejected or bool(labels & unresolved_labels),
            "internal": i["issue_type"] in ("任务", "Task") or bool(labels & internal_labels),
            "cve": bool(re.search(r"CVE-\d{4}-\d{4,}", i["title"])),
            "empty_title": i["title"].strip() == "",
        }

    stage = {(e["repo"], e["number"]): e["funnel"] for e in w.truth["issues"]}
    for repo, i in w.issues():
        f = stage.get((repo, int(i["number"])))
        if f is None or f == "window":
            continue
        s = signals(i)
        if f in ("unresolved", "internal", "cve", "empty_title"):
            assert s[f], (repo, i["number"], f)
        else:
            assert not any(s.values()), (repo, i["number"], f)


def test_floods(w):
    noise = [(e["repo"], e["number"]) for e in w.truth["issues"] if e["funnel"] == "noise"]
    titles = [w.issue(r, n)["title"] for r, n in noise]
    assert sum("API一致性任务" in x for x in titles) >= 10 and sum("请忽略" in x for x in titles) >= 5
    plain = [(r, n) for (r, n), x in zip(noise, titles) if "API一致性任务" not in x and "请忽略" not in x]
    authors = {w.issue(r, n)["user"]["login"] for r, n in plain}
    assert len(plain) >= 3 and len(authors) == 1


def test_gitcode_quirks(w):
    pr = w.pull("Ascend/msmodeling", 795)
    assert pr["html_url"].endswith("/merge_requests/795") and pr.get("merged") is None and pr["merged_at"]
    assert w.pull("Ascend/MindSpeed-MM", 3054)["merged_at"] == ""
    i = w.issue("Ascend/msmodeling", 390)
    assert i["number"] == "390" and i["finished_at"].endswith("+08:00") and "closed_at" not in i
    log = w.issue("Ascend/msmodeling", 405, ".events")
    assert any(e["action_type"] == "add_issue_mr_link" and e["head"]["ref"] for e in log)
    assert all("update_at" in e and isinstance(e["issue_id"], str) for e in log)
    item = w.pull("Ascend/msmodeling", 850, ".issues")[0]
    assert "issue_created_at" in item and isinstance(item["number"], str)
    opened = [i for _, i in w.issues() if i["state"] == "open"]
    assert opened and all(i["finished_at"] == "" for i in opened)
