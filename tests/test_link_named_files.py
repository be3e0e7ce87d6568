"""Issue #23: a fix with no textual reference, read from the files the issue names and the merge
that changed them just before a "fixed on main" close; and `fixlore explain`'s "made by" column."""

from fixlore.core.model import Corpus
from fixlore.link import build_cases
from fixlore.link.named_files import named_files
from fixlore.link.strength import made_by

from test_link_builders import SINCE, comment, files, issue, pull, t

_BODY = ('Traceback (most recent call last):\n  File "/usr/lib/python3/site-packages/toolkit/worker/runner.py", '
         'line 40, in step\nKeyError: block_id')


def _corpus(*, body=_BODY, note="fixed on main, please pull", note_at=None, pr_files=("toolkit/worker/runner.py",),
            base="master", pr_body="", extra_pulls=(), extra_files=(), comments=None):
    pulls = [pull(101, "refactor block table", body=pr_body, merged=t(18, 9), base_ref=base), *extra_pulls]
    return Corpus(issues=[issue(100, "KeyError when resuming", body=body, closed=t(18, 12))],
                  pulls=pulls, files=[*files(101, *pr_files), *extra_files],
                  comments=comments if comments is not None else [comment(100, note, at=note_at or t(18, 12))])


def _case(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}[100]


def test_the_merge_that_changed_the_named_file_before_a_fixed_close_is_the_fix():
    c = _case(_corpus())
    assert [(f.number, f.role) for f in c.fix] == [(101, "fix")]
    row = next(r for r in c.to_export()["candidates"] if r["number"] == 101)
    assert [s["kind"] for s in row["signals"]] == ["files"] and "runner.py" in row["signals"][0]["detail"]
    assert made_by(row) == ("files", "files")


def test_chinese_note_and_a_dotted_module_name_the_same():
    body = "调用 toolkit.worker.runner 时报错 KeyError"
    assert _case(_corpus(body=body, note="已在主干修复")).fix[0].number == 101


def test_no_link_without_each_condition():
    assert _case(_corpus(note="can you share the log?")).fix == []                  # no fixed note
    assert _case(_corpus(pr_files=("toolkit/other/io.py",))).fix == []               # another file
    mains = tuple(pull(n, "docs", merged=t(5), base_ref="master") for n in (90, 91))
    assert _case(_corpus(base="release/1.0", extra_pulls=mains)).fix == []          # not the default branch
    assert _case(_corpus(body="it crashes on resume")).fix == []                     # the issue names no file
    assert _case(_corpus(pr_body="Fixes #7")).fix == []                              # it fixes another issue
    by_text = _case(_corpus(note="fixed by !101"))         # a note naming the PR: the textual route links it
    assert [s["kind"] for r in by_text.to_export()["candidates"] for s in r["signals"]] == ["comment"]
    later = pull(102, "tidy runner", merged=t(18, 11), base_ref="master")
    c = _case(_corpus(extra_pulls=(later,), extra_files=files(102, "toolkit/worker/runner.py")))
    assert [f.number for f in c.fix] == [102]                                        # only the nearest merge


def test_a_textual_reference_is_never_overruled():
    other = pull(102, "fix resume", body="Fixes #100", merged=t(18, 10), base_ref="master")
    c = _case(_corpus(extra_pulls=(other,)))
    assert [f.number for f in c.fix] == [102]
    assert all(s["kind"] != "files" for r in c.to_export()["candidates"] for s in r["signals"])


def test_named_files_reads_paths_modules_and_tracebacks_not_generic_names():
    got = named_files('see `vllm/worker/model_runner.py` and File "/x/site-packages/a/b.py", line 3; '
                      "vllm.attention.backends fails; __init__.py; version 1.2.3; www.example.com")
    assert {"vllm/worker/model_runner.py", "x/site-packages/a/b.py", "vllm/attention/backends.py"} <= got
    assert not any(p.endswith("__init__.py") or "example" in p or "1/2" in p for p in got)


def test_made_by_names_the_strongest_evidence():
    assert made_by({"signals": [{"kind": "mention"}, {"kind": "keyword"}]}) == ("strong", "keyword")
    assert made_by({"signals": [{"kind": "mention"}, {"kind": "timing"}]}) == ("medium", "mention + timing")
    assert made_by({"signals": [{"kind": "mention"}]}) == ("weak", "mention")
    assert made_by({"signals": [{"kind": "comment", "claim": True}]}) == ("cited", "comment")
    assert made_by({"signals": [{"kind": "linked"}], "unrelated": "background"})[0] == "refuted"
