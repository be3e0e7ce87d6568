from datetime import timedelta

from fixlore.rules.funnel import FunnelConfig
from fixlore.link import LinkConfig, analysis_candidates, build_cases
from fixlore.core.model import EV_CLOSED, EV_CROSS_REF, EV_LINKED, REASON_NOT_PLANNED, Commit, Corpus, Repo

from test_link_builders import REPO, SINCE, comment, event, files, issue, link, pull, t


def _cases(corpus, **cfg):
    cases, counts = build_cases(corpus, SINCE, LinkConfig(**cfg) if cfg else None)
    return {c.number: c for c in cases}, counts


def _kinds(case):
    return sorted({e.kind for e in case.evidence})


def _fix(case):
    return [(f.repo, f.number, f.role) for f in case.fix]


def test_keyword_and_same_second_auto_close():
    close = t(18, 10, 12, 3)
    corpus = Corpus(issues=[issue(390, "MoE topk not split with shared-expert-tp", closed=close)],
                    pulls=[pull(795, "align routing with token slices", body="Closes #390", merged=close)],
                    links=[link(390, 795)])
    cases, _ = _cases(corpus)
    c = cases[390]
    assert _fix(c) == [(REPO, 795, "fix")]
    assert c.timing == "same_second" and c.lag_s == 0
    assert _kinds(c) == ["auto_close", "keyword", "linked"]
    assert any("Closes #390" in e.detail for e in c.evidence if e.kind == "keyword")
    assert c.traps == []


def test_branch_name_and_minutes():
    corpus = Corpus(issues=[issue(558, "weight conversion lacks get_model_type", closed=t(18, 11, 0))],
                    pulls=[pull(958, "adapter check", head_ref="bugfix/issue558", merged=t(18, 10, 30))])
    c = _cases(corpus)[0][558]
    assert _fix(c) == [(REPO, 958, "fix")]
    assert c.timing == "minutes" and c.lag_s == 1800
    assert _kinds(c) == ["branch_name", "minutes"]


def test_later_close_has_a_timing_note_but_no_timing_evidence():
    corpus = Corpus(issues=[issue(5, "crash on start", closed=t(19))],
                    pulls=[pull(6, "fix crash", body="Fixes #5", merged=t(17))])
    c = _cases(corpus)[0][5]
    assert c.timing == "later" and c.lag_s == 2 * 86400
    assert _kinds(c) == ["keyword"]
    assert "lag 172800s" in c.timing_note


def test_linked_pr_about_another_issue_is_unrelated():
    corpus = Corpus(
        issues=[issue(631, "kv-conductor cpu_blocks inflated after HBM lookup", closed=t(18, 20, 10, 39),
                      body="cpu blocks count doubles when instance dp alignment missing in hbm lookup"),
                issue(647, "heartbeat timeout on cross pod controller", closed=t(19))],
        pulls=[pull(1008, "controller heartbeat endpoint id", body="Fixes #647. endpoint set built from global id",
                    merged=t(17)),
               pull(986, "align HBM lookup by instance/dp", body="Fixes #631", merged=t(18, 20, 10, 39))],
        links=[link(631, 1008), link(631, 986)])
    c = _cases(corpus)[0][631]
    assert _fix(c) == [(REPO, 986, "fix")]
    assert "linked_unrelated" in c.traps
    assert "#647" in c.trap_notes["linked_unrelated"]
    assert "fix_not_landed" not in c.traps


def test_open_linked_pr_about_another_issue_is_no_trap_and_no_fix():
    corpus = Corpus(issues=[issue(5, "cpu blocks inflated", closed=t(18))],
                    pulls=[pull(9, "heartbeat endpoints", body="Fixes #7", state="open")], links=[link(5, 9)])
    c = _cases(corpus)[0][5]
    assert c.fix == [] and c.traps == [] and c.timing == "no_fix"


def test_linked_pr_touching_none_of_the_named_identifiers_is_unrelated():
    corpus = Corpus(issues=[issue(441, "rename --optix-mode to --search-mode", closed=t(18, 18, 30),
                                  body="`--optix-mode` is not intuitive; please rename it to `--search-mode`")],
                    pulls=[pull(861, "refactor: unify round logging", body="print candidates, pruned and elapsed per round",
                                merged=t(18, 18, 27))],
                    links=[link(441, 861)], files=files(861, "tuner/round_logger.py"))   # the diff is the evidence
    c = _cases(corpus)[0][441]
    assert c.fix == [] and c.traps == ["linked_unrelated"] and "--optix-mode" in c.trap_notes["linked_unrelated"]


def test_comment_citing_a_closed_unmerged_pr_is_a_trap_and_the_real_fix_wins():
    corpus = Corpus(
        issues=[issue(41, "thd loss spikes to 21", closed=t(19))],
        pulls=[pull(54, "mask dtype", state="closed", closed=t(5)),
               pull(55, "use bool attention mask", body="Fixes #41", merged=t(5, 12))],
        comments=[comment(41, "该问题已由 PR 54 修复合入", author="maint", at=t(6))])
    c = _cases(corpus)[0][41]
    assert _fix(c) == [(REPO, 55, "fix")]
    assert "claimed_unmerged" in c.traps and "!54" in c.trap_notes["claimed_unmerged"]
    assert "fix_not_landed" not in c.traps


def test_open_fix_pr_means_fix_not_landed():
    corpus = Corpus(issues=[issue(536, "packing leaks across documents", closed=t(18))],
                    pulls=[pull(3054, "document-aware packing", body="Fixes #536")])
    c = _cases(corpus)[0][536]
    assert c.fix == [] and c.timing == "no_fix" and c.lag_s is None
    assert c.traps == ["fix_not_landed"]
    assert [f.number for f in c.pending_fix] == [3054]


def test_close_before_merge_is_not_back_filled():
    corpus = Corpus(issues=[issue(1165, "rootinfo mounted read only", closed=t(18, 9))],
                    pulls=[pull(4691, "remove default mount", body="关联 #1165", merged=t(18, 19))],
                    comments=[comment(1165, "ascend-docker-runtime 出于安全默认以只读方式挂载默认项，请在宿主机修改后同步进容器，"
                                            "vim 需配置 set backupcopy=yes", author="hujianrong", at=t(18, 8))])
    c = _cases(corpus)[0][1165]
    assert c.fix == [] and c.timing == "before_merge" and c.lag_s is None
    assert c.traps == ["closed_before_merge"]
    assert "not back-filled" in c.trap_notes["closed_before_merge"]
    assert _kinds(c) == ["answer"]


def test_stale_bot_close_uses_merge_time():
    merged = t(5) - timedelta(days=20)
    corpus = Corpus(
        issues=[issue(447, "OOM when quantizing 397B", closed=t(18), closed_by="ascend-robot")],
        pulls=[pull(810, "fix OOM", body="fix #447", merged=merged)],
        comments=[comment(447, "This issue has had no activity for 4 days and will be closed.", author="ascend-robot",
                          at=t(18) - timedelta(minutes=1))])
    c = _cases(corpus)[0][447]
    assert c.timing == "stale" and c.lag_s == int((t(18) - merged).total_seconds())
    assert c.traps == ["stale_close"]
    assert "ascend-robot" in c.trap_notes["stale_close"]


def test_bot_auto_close_right_after_merge_is_not_stale():
    close = t(18, 10, 0, 5)
    corpus = Corpus(issues=[issue(1, "crash", closed=close, closed_by="ci-bot")],
                    pulls=[pull(2, "fix crash", body="Fixes #1", merged=close - timedelta(seconds=5))])
    c = _cases(corpus)[0][1]
    assert c.timing == "auto_close" and c.traps == []


def test_close_storm_over_all_closes():
    corpus = Corpus(issues=[issue(10 + i, f"distinct problem number {i} alpha", closed=t(18, 13, 39, 56 + i),
                                  closed_by="sweeper", author=f"user{i}") for i in range(3)]
                    + [issue(20, "unrelated slow close", closed=t(18, 16), closed_by="sweeper")],
                    comments=[comment(10 + i, "root cause: wrong config key, fixed by updating docs for you", author="m")
                              for i in range(3)])
    cases, _ = _cases(corpus)
    for n in (10, 11, 12):
        assert "close_storm" in cases[n].traps and "3 issues" in cases[n].trap_notes["close_storm"]
    assert "close_storm" not in cases[20].traps


def _three_closes_by(closer, openers):
    return Corpus(issues=[issue(10 + i, f"distinct problem number {i} alpha", closed=t(18, 13, 39, 56 + i),
                                closed_by=closer, author=o) for i, o in enumerate(openers)])


def test_closing_ones_own_issues_is_not_a_storm():
    # an author withdrawing three of their own reports in a row, beside two others' issues
    cases, _ = _cases(_three_closes_by("carol", ["carol", "Carol", "carol"]))
    assert all("close_storm" not in cases[10 + i].traps for i in range(3))
    # two own closes and one other's: only one close counts, below the three of a storm
    cases, _ = _cases(_three_closes_by("carol", ["carol", "dave", "carol"]))
    assert all("close_storm" not in cases[10 + i].traps for i in range(3))


def test_a_storm_needs_issues_of_two_openers():
    cases, _ = _cases(_three_closes_by("sweeper", ["erin", "erin", "erin"]))
    assert all("close_storm" not in cases[10 + i].traps for i in range(3))
    cases, _ = _cases(_three_closes_by("sweeper", ["erin", "frank", "erin"]))
    assert all("close_storm" in cases[10 + i].traps for i in range(3))


def test_merges_closing_their_issues_in_a_row_are_not_a_storm():
    issues = [issue(10 + i, f"bug {i}", closed=t(18, 10, 0, 10 * i), closed_by="maint") for i in range(4)]
    pulls = [pull(100 + i, f"fix {i}", body=f"Fixes #{10 + i}", merged=t(18, 10, 0, 10 * i)) for i in range(4)]
    cases, _ = _cases(Corpus(issues=issues, pulls=pulls))
    assert all("close_storm" not in cases[10 + i].traps for i in range(4))


def test_one_pr_many_issues():
    close = t(18, 12)
    corpus = Corpus(issues=[issue(410, "pkill kills itself", closed=close + timedelta(minutes=2)),
                            issue(411, "health probe sends inference", closed=close + timedelta(seconds=55))],
                    pulls=[pull(850, "self exclusion and log based health", body="Fixes #410, fixes #411", merged=close)])
    cases, _ = _cases(corpus)
    assert cases[410].traps == ["one_pr_many_issues"] and "#411" in cases[410].trap_notes["one_pr_many_issues"]
    assert cases[411].timing == "auto_close" and cases[411].lag_s == 55
    assert cases[410].timing == "auto_close" and cases[410].lag_s == 120


def test_backport_twin_on_release_branch():
    close = t(18, 12)
    corpus = Corpus(
        repos=[Repo(platform="gitcode", full_name=REPO, owner="Ascend", name="toolkit", default_branch="master")],
        issues=[issue(443, "Qwen3-Next regressions", closed=close)],
        pulls=[pull(870, "fix Qwen3-Next access path", body="Fixes #443", merged=close),
               pull(873, "[26.2.0] fix Qwen3-Next access path", base_ref="26.2.0", merged=close + timedelta(hours=2)),
               pull(874, "unrelated docs change", base_ref="26.2.0", merged=close + timedelta(hours=3))])
    c = _cases(corpus)[0][443]
    assert _fix(c) == [(REPO, 870, "fix"), (REPO, 873, "backport")]
    assert "backport" in _kinds(c) and c.timing == "same_second"


def test_answer_without_code_change_and_no_fix_timing():
    corpus = Corpus(issues=[issue(550, "GRPO weight transfer error", closed=t(18))],
                    comments=[comment(550, "RL 系列模型及特性已整体迁移至 verl 仓维护，GRPO 训练建议直接改用 verl，本仓不再跟进 RL 特性。",
                                      author="maint")])
    c = _cases(corpus)[0][550]
    assert c.fix == [] and c.timing == "no_fix" and _kinds(c) == ["answer"]


def test_comment_naming_merged_pr_is_comment_evidence():
    corpus = Corpus(issues=[issue(520, "README triton version mismatch", closed=t(18, 9, 0, 0))],
                    pulls=[pull(3157, "align README", merged=t(17))],
                    comments=[comment(520, "已由 PR !3157 修复并合入", author="maint", at=t(17, 12))])
    c = _cases(corpus)[0][520]
    assert _fix(c) == [(REPO, 3157, "fix")] and "comment" in _kinds(c)


def test_cause_cited_in_comment_is_not_a_fix_when_a_real_fix_exists():
    corpus = Corpus(issues=[issue(405, "SP replay all_reduce left", closed=t(18))],
                    pulls=[pull(754, "internal copy region v2", merged=t(1)), pull(797, "matcher ignores bookkeeping",
                                                                                   body="Fixes #405", merged=t(17))],
                    comments=[comment(405, "!754 引入的 copy 使 matcher 误判；!797 已修复合入", author="maint")])
    c = _cases(corpus)[0][405]
    assert _fix(c) == [(REPO, 797, "fix")]


def test_github_quirks_pr_items_state_reason_commit_close_cross_ref():
    gh = "octo/lib"
    corpus = Corpus(
        platform="github",
        issues=[issue(1, "parser crash on empty input", closed=t(18, 10), repo=gh),
                issue(2, "feature idea", closed=t(18), repo=gh, state_reason=REASON_NOT_PLANNED),
                issue(3, "the PR itself", closed=t(18), repo=gh, is_pull=True),
                issue(4, "slow import", closed=t(18, 11), repo=gh)],
        pulls=[pull(3, "handle empty input", repo=gh, merged=t(18, 10), merge_commit_sha="abc1234def"),
               pull(5, "lazy import of heavy deps", repo=gh, merged=t(18, 11), body="speeds up import")],
        commits=[Commit(repo=gh, pull_number=3, sha="abc1234def", message="handle empty input")],
        events=[event(1, EV_CLOSED, repo=gh, at=t(18, 10), actor="dev", commit_id="abc1234def"),
                event(4, EV_CROSS_REF, repo=gh, at=t(18, 9), pull=5, pull_repo=gh)],
        comments=[comment(4, "done in #5, merged", repo=gh, author="dev")])
    cases, counts = build_cases(corpus, SINCE)
    by = {c.number: c for c in cases}
    assert 3 not in by
    assert by[2].funnel == "unresolved"
    assert [(f.number, f.role) for f in by[1].fix] == [(3, "fix")] and "keyword" in {e.kind for e in by[1].evidence}
    assert by[1].closed_by == "dev"
    assert [f.number for f in by[4].fix] == [5]


def test_gitcode_operate_log_link_event():
    corpus = Corpus(issues=[issue(7, "volcano type check missing", closed=t(18, 9))],
                    pulls=[pull(4656, "add volcanoType check for volcano shared device", merged=t(15))],
                    events=[event(7, EV_LINKED, at=t(14), pull=4656)])
    c = _cases(corpus)[0][7]
    assert _fix(c) == [(REPO, 4656, "fix")] and _kinds(c) == ["linked"]


def test_cross_repo_fork_pr_uses_base_repo():
    corpus = Corpus(issues=[issue(9, "bind address fails", closed=t(18, 9))],
                    pulls=[pull(1315, "listen on own ip:port", repo="Ascend/other", head_repo="someone/other",
                                body="Fixes https://gitcode.com/Ascend/toolkit/issues/9", merged=t(18, 9))])
    c = _cases(corpus)[0][9]
    assert _fix(c) == [("Ascend/other", 1315, "fix")] and c.timing == "same_second"


def test_funnel_counts_ranking_and_provisional_marker():
    titles = ["loss diverges after resume", "parquet reader fails", "LoRA save writes full model",
              "etcd double leader", "bind address not available"]
    pool = [issue(100 + i, titles[i], closed=t(18),
                  # each report's own lines (a line two reports share is the template's: link.value)
                  body=f"steps to reproduce ({i}), version CANN 8.{i}:\n"
                       + "".join(f"run t{i}.sh on n{k}: RuntimeError\n" for k in range(i + 1)))
            for i in range(5)]
    corpus = Corpus(issues=pool + [issue(1, "old", closed=t(1), updated=t(18)), issue(2, "open one"),
                                   issue(3, "dup", closed=t(18), labels=["duplicate"]),
                                   issue(4, "task", closed=t(18), issue_type="任务"),
                                   issue(5, "CVE-2024-1234", closed=t(18)), issue(6, "   ", closed=t(18)),
                                   issue(7, "API一致性任务 x", closed=t(18))])
    cases, counts = build_cases(corpus, SINCE, FunnelConfig(rank_top_k=2))
    assert counts.as_dict()["pool"] == 5
    assert (counts.considered, counts.window, counts.closed_in_window, counts.unresolved, counts.internal,
            counts.cve, counts.empty_title, counts.after_filters, counts.noise, counts.pool,
            counts.analysis_candidates, counts.rank) == (12, 2, 10, 1, 1, 1, 1, 6, 1, 5, 2, 3)
    chosen = analysis_candidates(cases)
    assert len(chosen) == 2 and all(c.funnel == "selected" and c.provisional for c in chosen)
    assert {c.number for c in chosen} == {103, 104}          # the richest bodies rank first
    assert all(0.0 <= c.value <= 1.0 for c in cases)
    assert sum(c.funnel == "rank" for c in cases) == 3
