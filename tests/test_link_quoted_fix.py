"""Issue #23: a fix with no textual reference, read from the reporter's own PR that repeats the
report's command line or log (link.quoted_fix)."""

from dataclasses import replace

from hypothesis import given, strategies as st

from fixlore.core.model import Corpus
from fixlore.link import build_cases
from fixlore.link.quoted_fix import QUOTE_MIN_CHARS, shared_run
from fixlore.link.strength import made_by

from test_link_builders import SINCE, issue, pull, t

_CMD = ("./bin/offline-websocket-server --port=6006 --num-work-threads=5 --provider=ascend "
        "--tokens=/data/paraformer/tokens.txt --max-batch-size=5")
_REPORT = f"The server crashes when a client connects.\n\n{_CMD}\n\nmain:93 Started!"


def _corpus(*, pr_body=f"鲲鹏 CPU，910A。客户端连接时服务崩溃。\n\n{_CMD}", pr_author="cn-tao", opened=t(18, 12),
            merged=t(19, 9), base="master", extra=()):
    fix = replace(pull(7, "fix: 修复了 NPU 上下文导致的崩溃问题", body=pr_body, merged=merged, author=pr_author,
                       base_ref=base), created_at=opened)
    return Corpus(issues=[issue(5, "server crashes on NPU", body=_REPORT, author="cn-tao", created=t(18, 10),
                                closed=t(20, 10))],
                  pulls=[fix, *extra])


def _case(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}[5]


def test_the_reporters_own_merged_pr_repeating_the_report_is_its_fix_with_no_evidence_kind():
    c = _case(_corpus())
    assert [(f.number, f.role) for f in c.fix] == [(7, "fix")] and c.evidence == [] and c.timing == "later"
    row = next(r for r in c.to_export()["candidates"] if r["number"] == 7)
    assert [s["kind"] for s in row["signals"]] == ["quoted"] and "--num-work-threads=5" in row["signals"][0]["detail"]
    assert made_by(row) == ("quoted", "quoted")


def test_no_link_without_each_condition():
    assert _case(_corpus(pr_author="maint")).fix == []                                 # someone else's PR
    assert _case(_corpus(pr_body="客户端连接时服务崩溃，设置线程上下文。")).fix == []       # nothing quoted
    assert _case(_corpus(opened=t(22))).fix == []                                      # days after the report
    assert _case(_corpus(merged=t(21))).fix == []                                      # merged after the close
    mains = tuple(pull(n, "docs", merged=t(5), base_ref="master") for n in (90, 91))
    assert _case(_corpus(base="release/1.0", extra=mains)).fix == []                   # not the default branch
    assert _case(_corpus(pr_body=f"Fixes #3\n{_CMD}")).fix == []                       # it fixes another issue


def test_a_textual_reference_is_never_overruled():
    other = pull(8, "fix context", body="Fixes #5", merged=t(19, 10))
    c = _case(_corpus(extra=(other,)))
    assert [f.number for f in c.fix] == [8]
    assert all(s["kind"] != "quoted" for r in c.to_export()["candidates"] for s in r["signals"])


@given(st.text(max_size=200), st.text(max_size=200))
def test_the_shared_run_is_in_both_texts(a, b):
    run = shared_run(a, b)
    fold = lambda s: " ".join(s.split())
    assert run in fold(a) and run in fold(b)


def test_a_short_common_phrase_is_no_quote():
    assert len(shared_run("it crashes when the client connects", "fix crash when the client connects")) < QUOTE_MIN_CHARS
