"""Rules of the link stage one by one: stale notices, storms, deferred fixes, answers, GitHub linking."""

from datetime import timedelta

from fixlore.link import LinkConfig, build_cases
from fixlore.link.closes import Close, close_storms
from fixlore.rules.bots import STALE_NOTICE, is_bot
from fixlore.core.model import EV_CLOSED, Corpus

from test_link_builders import REPO, SINCE, comment, event, issue, link, pull, t


def _by(corpus, **cfg):
    cases, _ = build_cases(corpus, SINCE, LinkConfig(**cfg) if cfg else None)
    return {c.number: c for c in cases}


def test_stale_notice_wording():
    for text in ("This issue has had no activity for 4 days and will be closed.", "Closing as stale",
                 "此 issue 处于「已解决」状态 4 天以上且无新的更新，机器人自动关闭。", "该 issue 已 4 天无更新，将自动关闭"):
        assert STALE_NOTICE.search(text), text
    for text in ("生成期间长时间没有数据时 SSE 连接被断开", "合入后自动关闭", "no activity on the device, then it crashes"):
        assert not STALE_NOTICE.search(text), text


def test_stale_notice_in_the_words_people_and_bots_write():
    for text in ("一周无反馈，关闭", "长时间未回复，先关闭了，有问题可以重新打开", "两个月没有进展，关闭此 issue",
                 "暂无反馈，关闭", "Close due to inactivity.", "Closing this as there has been no response.",
                 "Closing: no reply from the author.", "This issue has been automatically closed.",
                 "This issue has not had recent activity and will be closed.",
                 "Closing for lack of response."):
        assert STALE_NOTICE.search(text), text
    for text in ("This issue was automatically closed by the merge of #12.",
                 "This issue will be automatically closed when the PR merges.", "已在 #12 中修复，关闭",
                 "无反馈的情况下 SSE 连接被断开", "responses are slow after closing the pool"):
        assert not STALE_NOTICE.search(text), text


def test_a_bot_closing_the_ticket_it_opened_is_not_a_stale_close():
    corpus = Corpus(issues=[issue(7, "[CI] nightly failed", author="ci-bot", closed=t(19), closed_by="ci-bot"),
                            issue(8, "crash on load", author="alice", closed=t(19), closed_by="ci-bot")])
    cases = _by(corpus)
    assert "stale_close" not in cases[7].traps
    assert "stale_close" in cases[8].traps


def test_bot_names():
    assert is_bot("ascend-robot") and is_bot("stale[bot]") and is_bot("ci-bot") and is_bot("cann-ci")
    assert not is_bot("liutao_tc") and not is_bot("cilia") and not is_bot("")


def test_person_closing_with_an_idle_reason_is_not_a_stale_process():
    corpus = Corpus(issues=[issue(568, "[RFC] streaming loader", closed=t(19, 10, 12))],
                    comments=[comment(568, "RFC 内容不完整且长期未更新，关闭。", author="maint", at=t(19, 10, 11))])
    c = _by(corpus)[568]
    assert "stale_close" not in c.traps and c.timing == "no_fix"


def test_human_warning_days_before_the_close_after_silence_is_stale():
    corpus = Corpus(issues=[issue(5, "hang at step 3000", closed=t(19), created=t(1))],
                    pulls=[pull(6, "fix hang", body="Fixes #5", merged=t(2))],
                    comments=[comment(5, "No activity for 10 days; this will be closed in 3 days.", author="maint",
                                      at=t(16))])
    c = _by(corpus)[5]
    assert c.timing == "stale" and "stale_close" in c.traps and c.lag_s == 17 * 86400


def test_storm_is_three_closes_by_one_actor_within_ten_minutes():
    closes = [Close(f"o/r#{i}", "sweeper", t(18, 16, 9 + i * 2), False) for i in range(3)]
    closes += [Close("o/r#9", "sweeper", t(18, 17), False), Close("o/r#8", "other", t(18, 16, 10), False)]
    notes = close_storms(closes, LinkConfig())
    assert set(notes) == {"o/r#0", "o/r#1", "o/r#2"} and "3 issues" in notes["o/r#0"]
    pair = [Close("o/r#1", "a", t(20, 9, 41), False), Close("o/r#2", "a", t(20, 9, 44), False)]
    assert close_storms(pair, LinkConfig()) == {}


def test_storm_window_is_inclusive_and_exact_across_equal_time_zones():
    from datetime import datetime, timezone

    cfg = LinkConfig()
    # Equal offsets held by distinct tzinfo objects (as after unpickling) and another zone for the same instants.
    east = [timezone(timedelta(hours=8)) for _ in range(3)]
    base = datetime(2026, 9, 18, 16, 0, tzinfo=east[0])
    at = [base, base.replace(tzinfo=east[1]) + timedelta(seconds=cfg.storm_window_s // 2),
          (base + timedelta(seconds=cfg.storm_window_s)).astimezone(timezone.utc)]
    closes = [Close(f"o/r#{i}", "sweeper", a, False) for i, a in reversed(list(enumerate(at)))]
    assert set(close_storms(closes, cfg)) == {"o/r#0", "o/r#1", "o/r#2"}
    late = at[:2] + [base.replace(tzinfo=east[2]) + timedelta(seconds=cfg.storm_window_s, microseconds=1)]
    assert close_storms([Close(f"o/r#{i}", "sweeper", a, False) for i, a in enumerate(late)], cfg) == {}
    naive = [datetime(2026, 9, 18, 16, 0) + timedelta(seconds=k * 100) for k in range(3)]
    assert len(close_storms([Close(f"o/r#{i}", "bot", a, False) for i, a in enumerate(naive)], cfg)) == 3


def test_storm_counts_closes_outside_the_window_too():
    corpus = Corpus(issues=[issue(1, "old one", closed=SINCE - timedelta(minutes=2), closed_by="sweeper", updated=t(1),
                                  author="erin"),
                            issue(2, "old two", closed=SINCE - timedelta(minutes=1), closed_by="sweeper", updated=t(1),
                                  author="frank"),
                            issue(3, "new one", closed=SINCE + timedelta(minutes=1), closed_by="sweeper")])
    cases = _by(corpus)
    assert set(cases) == {3} and cases[3].traps == ["close_storm"]


def test_answer_deferring_to_another_ticket_closed_before_its_fix_merged():
    corpus = Corpus(issues=[issue(1165, "rootinfo is mounted read-only", closed=t(18, 10, 25)),
                            issue(1167, "default rootinfo mount breaks UB training", closed=t(18, 20, 31))],
                    pulls=[pull(4691, "remove default rootinfo mount", merged=t(18, 20, 31))],
                    links=[link(1167, 4691)],
                    comments=[comment(1165, "只读挂载是安全默认；宿主机修改后同步进容器。另外同主题的 #1167 会在 26.2.0 删除默认挂载。",
                                      author="maint", at=t(17))])
    c = _by(corpus)[1165]
    assert c.fix == [] and c.timing == "before_merge" and c.traps == ["closed_before_merge"]
    assert "#1167" in c.trap_notes["closed_before_merge"] and [f.number for f in c.pending_fix] == [4691]


def test_duplicate_pointer_is_not_a_deferred_fix():
    corpus = Corpus(issues=[issue(127, "build failed", closed=t(18, 9)), issue(122, "build failed too", closed=t(18, 21))],
                    pulls=[pull(1469, "fix build", body="Fixes #122", merged=t(18, 21))],
                    comments=[comment(127, "重复问题，见 #122", author="maint")])
    assert _by(corpus)[127].timing == "no_fix"


def test_comment_citing_the_change_alone_makes_a_fix():
    corpus = Corpus(issues=[issue(543, "chunk_mbs doc conflicts", closed=t(20))],
                    pulls=[pull(3022, "docs fix", merged=t(9))],
                    comments=[comment(543, "文档随 !3022 修改", author="doc-owner", at=t(10))])
    c = _by(corpus)[543]
    assert [f.number for f in c.fix] == [3022] and [e.kind for e in c.evidence] == ["comment"] and c.timing == "later"


def test_wip_citation_is_not_a_fix_and_not_pending():
    corpus = Corpus(issues=[issue(315, "profiling data missing", closed=t(18))],
                    pulls=[pull(837, "quality gate for the database", state="open")],
                    comments=[comment(315, "另外我们在做质量门禁（!837，WIP），后续附报告", author="maint")])
    c = _by(corpus)[315]
    assert c.fix == [] and c.pending_fix == [] and c.traps == []


def test_answer_evidence_skips_closing_notes_refusals_and_canned_replies():
    canned = "请检查 LD_LIBRARY_PATH 是否包含 CANN 的 lib64 目录。"
    titles = {1: "which Megatron versions work", 2: "please add a DeepSpeed backend", 3: "import fails after install",
              4: "FlashAttention errors in a container", 5: "Add op crashes on 310P"}
    corpus = Corpus(issues=[issue(n, title, closed=t(18)) for n, title in titles.items()],
                    comments=[comment(1, "已答复，关闭。", author="m"), comment(2, "不在规划内，不受理。", author="m"),
                              comment(3, canned, author="m", cid="x3"), comment(4, canned, author="m", cid="x4"),
                              comment(5, canned, author="m", cid="x5")])
    cases = _by(corpus)
    assert all(c.evidence == [] for c in cases.values())
    corpus.comments.append(comment(1, "当前支持 core_r0.12 ~ core_r0.13。", author="m", cid="y1"))
    assert [e.kind for e in _by(corpus)[1].evidence] == ["answer"]


def test_a_bare_request_to_confirm_is_no_answer():
    """Handing the question back ("please confirm tp/pp match") is an ask, like "please provide the
    log"; "确认" as an acknowledgment, or a request with the explanation, stays an answer."""
    asks = {1: "请确认转换时 tp/pp 与训练一致。", 2: "Could you confirm the CANN version you run?",
            3: "确认是问题，是 rank 表没有同步导致的。", 4: "请确认版本：8.0 起 aclnn 接口改名了，旧脚本要改用新名字"}
    corpus = Corpus(issues=[issue(n, closed=t(18)) for n in asks],
                    comments=[comment(n, text, author="m") for n, text in asks.items()])
    cases = _by(corpus)
    assert [cases[n].evidence for n in (1, 2)] == [[], []]
    assert [[e.kind for e in cases[n].evidence] for n in (3, 4)] == [["answer"], ["answer"]]


def test_answer_is_kept_only_on_analysis_candidates():
    corpus = Corpus(issues=[issue(1, "question one", closed=t(18)), issue(2, "question two", closed=t(18))],
                    comments=[comment(1, "当前支持 core_r0.12 ~ core_r0.13，详见发布说明。", author="m"),
                              comment(2, "当前支持 core_r0.12 ~ core_r0.14 版本，详见文档。", author="m")])
    from fixlore.rules.funnel import FunnelConfig
    cases, _ = build_cases(corpus, SINCE, LinkConfig(funnel=FunnelConfig(rank_top_k=1)))
    kinds = {c.number: [e.kind for e in c.evidence] for c in cases}
    assert sorted(kinds.values()) == [[], ["answer"]]


def test_conclude_all_off_keeps_only_candidates_and_storms():
    from fixlore.rules.funnel import FunnelConfig
    corpus = Corpus(issues=[issue(1, "rich report", closed=t(18), body="steps to reproduce\nTraceback\nversion 1.2" * 5),
                            issue(2, "x", closed=t(18), body="")],
                    pulls=[pull(10, "fix", body="Fixes #1", merged=t(18)), pull(11, "fix 2", body="Fixes #2", merged=t(18))])
    cases, _ = build_cases(corpus, SINCE, LinkConfig(funnel=FunnelConfig(rank_top_k=1), conclude_all=False))
    by = {c.number: c for c in cases}
    assert by[1].provisional and [f.number for f in by[1].fix] == [10]
    assert by[2].funnel == "rank" and by[2].fix == [] and by[2].timing == "no_fix" and by[2].candidates


def test_github_connected_pr_closed_by_its_commit_is_linked_evidence():
    from fixlore.core.model import Commit
    gh = "octo/lib"
    corpus = Corpus(platform="github",
                    issues=[issue(102, "dark theme tokens", closed=t(18, 12, 0, 1), repo=gh)],
                    pulls=[pull(103, "Dark theme tokens", body="Adds the dark token set", merged=t(18, 12), repo=gh)],
                    commits=[Commit(gh, 103, "0b1f7164d0aa", "dark tokens")],
                    events=[event(102, "other", repo=gh, at=t(15), event="connected"),
                            event(102, EV_CLOSED, repo=gh, at=t(18, 12, 0, 1), actor="mara", commit_id="0b1f7164d0aa")])
    c = _by(corpus)[102]
    assert [f.number for f in c.fix] == [103] and {e.kind for e in c.evidence} == {"linked", "auto_close"}
