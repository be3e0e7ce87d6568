"""Issue #23: a fix with no textual reference, read from the reporter's own PR that repeats the
report's command line or log (link.quoted_fix)."""

from dataclasses import replace

from hypothesis import given, strategies as st

from fixlore.core.model import Corpus
from fixlore.link import build_cases
from fixlore.link.quoted_fix import QUOTE_MIN_CHARS, _command_or_log, quoted_runs
from fixlore.link.strength import made_by

from test_link_builders import SINCE, issue, pull, t

_CMD = ("./bin/offline-websocket-server --port=6006 --num-work-threads=5 --provider=ascend "
        "--tokens=/data/paraformer/tokens.txt --max-batch-size=5")
_REPORT = f"The server crashes when a client connects.\n\n{_CMD}\n\nmain:93 Started!"


def _corpus(*, pr_body=f"鲲鹏 CPU，910A。客户端连接时服务崩溃。\n\n{_CMD}", pr_author="cn-tao", opened=t(18, 12),
            merged=t(19, 9), base="master", extra=(), closed=t(20, 10)):
    fix = replace(pull(7, "fix: 修复了 NPU 上下文导致的崩溃问题", body=pr_body, merged=merged, author=pr_author,
                       base_ref=base), created_at=opened)
    return Corpus(issues=[issue(5, "server crashes on NPU", body=_REPORT, author="cn-tao", created=t(18, 10),
                                closed=closed)],
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
    assert _case(_corpus(opened=t(21, 12), merged=t(21, 13), closed=t(22))).fix == []   # over three days after
    assert [f.number for f in _case(_corpus(opened=t(21, 9), merged=t(21, 13), closed=t(22))).fix] == [7]
    assert _case(_corpus(merged=t(21))).fix == []                                      # merged after the close
    mains = tuple(pull(n, "docs", merged=t(5), base_ref="master") for n in (90, 91))
    assert _case(_corpus(base="release/1.0", extra=mains)).fix == []                   # not the default branch
    assert _case(_corpus(pr_body=f"Fixes #3\n{_CMD}")).fix == []                       # it fixes another issue


def test_a_textual_reference_is_never_overruled():
    other = pull(8, "fix context", body="Fixes #5", merged=t(19, 10))
    c = _case(_corpus(extra=(other,)))
    assert [f.number for f in c.fix] == [8]
    assert all(s["kind"] != "quoted" for r in c.to_export()["candidates"] for s in r["signals"])


@given(st.text(max_size=300), st.text(max_size=300))
def test_the_quoted_runs_are_in_both_texts(a, b):
    fold = lambda s: " ".join(s.split())
    for run in quoted_runs(a, b, size=8):
        assert run in fold(a) and run in fold(b) and len(run) >= 8


@given(st.text(alphabet="abc xyz", max_size=80), st.text(alphabet="abc xyz", min_size=70, max_size=120),
       st.text(alphabet="abc xyz", max_size=80))
def test_a_run_written_into_both_is_found(before, common, after):
    common = " ".join(common.split())
    if len(common) < QUOTE_MIN_CHARS:
        return
    assert max(map(len, quoted_runs(f"{before}\n{common}\n{after}", f"PR: {common} done"))) >= QUOTE_MIN_CHARS


def test_a_long_body_costs_linear_time():
    import time
    log = "".join(f"step {i}: loss={i * 0.37:.3f} grad_norm={i % 7}\n" for i in range(3000))   # ~100 KB
    start = time.process_time()
    quoted_runs(log, log[::-1])
    quoted_runs("a" * 60_000, "a" * 60_000)
    assert time.process_time() - start < 5          # a quadratic matcher takes minutes here


def test_a_close_right_after_the_merge_keeps_the_quoted_fix():
    c = _case(_corpus(merged=t(20, 9, 59)))          # 60 s before the close: a timing signal joins
    assert [f.number for f in c.fix] == [7]
    row = next(r for r in c.to_export()["candidates"] if r["number"] == 7)
    assert made_by(row) == ("quoted", "quoted")


def test_an_environment_line_or_template_text_is_no_quote():
    env = "Environment: CANN 8.0.RC3, torch 2.1.0, torch_npu 2.1.0.post8, Python 3.10, Ubuntu 22.04 aarch64"
    corpus = _corpus(pr_body=f"Tested on:\n{env}")
    corpus.issues[0].body = f"Qwen2-VL hangs on 910B.\n{env}"
    assert _case(corpus).fix == []
    # a command line every report of the repository carries is the template's, not this report's
    others = [issue(40 + i, f"other {i}", body=f"{_CMD}\nother failure {i}", closed=t(20), author=f"u{i}")
              for i in range(2)]
    corpus = _corpus()
    corpus.issues.extend(others)
    assert _case(corpus).fix == []


def test_a_pr_opened_just_over_an_hour_before_the_report_is_not_its_own_fix():
    assert _case(_corpus(opened=t(18, 8, 59))).fix == []
    assert [f.number for f in _case(_corpus(opened=t(18, 9, 1))).fix] == [7]


def test_a_phrase_the_report_repeats_is_tried_at_each_place():
    phrase = "the websocket server crashes as soon as a python client connects to it"
    report = f"{phrase}.\nAgain: {phrase} --device npu:0 RuntimeError: aclrtSetDevice failed"
    change = f"fix: {phrase} --device npu:0 RuntimeError: aclrtSetDevice failed"
    assert any(_command_or_log(r) for r in quoted_runs(report, change))


def test_an_environment_dump_is_no_command_or_log():
    for line in ("## Environment - CANN: 8.0.RC3, torch 2.1.0", "Python version: 3.8.10 (default, Nov 22 2023)",
                 "CANN toolkit path /usr/local/Ascend/ascend-toolkit/latest", "Atlas 800T A2 -> 8x 910B3",
                 "# of NPUs: 8"):
        assert not _command_or_log(line), line
    for line in ("./bin/server --port=6006", "root@host:/opt/build# ./bin/server", "$ python run.py",
                 "RuntimeError: aclrtSetDevice failed"):
        assert _command_or_log(line), line
