"""The timing audit reuses an earlier run's check when nothing it compared can have changed
(link/audit.py), fetches again otherwise, and says which checks were reused and when they were
made: in run.json and in the digest's disclosure. A no-change re-run fetches no single issue or
PR, and its case export is the same byte for byte."""

from __future__ import annotations

import dataclasses
import json
from datetime import timedelta

import pytest

from fixlore.settings.config import Settings
from fixlore.cli.commands import main
from fixlore.link import build_cases
from fixlore.link.audit import audit_timing, corpus_fetcher, corpus_seen, prior_checks, reusable
from fixlore.core.model import Corpus

from test_link_builders import SINCE, issue, link, pull, t


def _corpus() -> Corpus:
    close = t(18, 10, 0, 0)
    return Corpus(issues=[issue(1, "crash on start", closed=close), issue(2, "slow import", closed=t(19)),
                          issue(3, "question", closed=t(19))],
                  pulls=[pull(10, "fix crash", body="Fixes #1", merged=close),
                         pull(11, "lazy import", body="Fixes #2", merged=t(17))],
                  links=[link(2, 11)])


class Counting:
    """A fetch over a corpus that counts what it was asked."""

    def __init__(self, corpus: Corpus) -> None:
        self.inner, self.asked = corpus_fetcher(corpus), []

    def __call__(self, kind, repo, number):
        self.asked.append((kind, number))
        return self.inner(kind, repo, number)


def _first(corpus: Corpus):
    cases, _ = build_cases(corpus, SINCE)
    fetch = Counting(corpus)
    result = audit_timing(cases, fetch, sample_size=5, prior={}, seen=corpus_seen(corpus), run_id=1)
    return cases, result, fetch


def _again(corpus: Corpus, first_result, skip=frozenset()):
    cases, _ = build_cases(corpus, SINCE)
    fetch = Counting(corpus)
    summary = {**first_result.as_dict(), "via": "source"}
    result = audit_timing(cases, fetch, sample_size=5, prior=prior_checks(summary), seen=corpus_seen(corpus, skip),
                          run_id=2)
    return cases, result, fetch


def test_a_first_audit_fetches_every_sampled_item_and_remembers_what_it_saw():
    cases, result, fetch = _first(_corpus())
    assert sorted(fetch.asked) == [("issue", 1), ("issue", 2), ("pull", 10), ("pull", 11)]
    assert result.reused == 0 and result.as_dict()["reused"] == 0
    detail = next(d for d in result.details if d["key"].endswith("#1"))
    assert detail["claim"]["pull"].endswith("!10") and detail["claim"]["closed_at"].endswith("+00:00")
    assert detail["seen"]["issue"] is not None and detail["seen"]["pull"] is not None
    assert detail["checked_in_run"] == 1 and detail["checked_at"]


def test_an_unchanged_world_reuses_every_check_and_the_cases_carry_the_same_audit():
    corpus = _corpus()
    first_cases, first, _ = _first(corpus)
    cases, result, fetch = _again(corpus, first)
    assert fetch.asked == []
    assert result.reused == result.sampled == result.held == 2
    assert [c.audit for c in cases] == [c.audit for c in first_cases]
    assert [c.to_export() for c in cases] == [c.to_export() for c in first_cases]
    for detail in result.details:
        assert detail["reused"] is True and detail["checked_in_run"] == 1     # the run whose API check it rests on
    # a third run reuses the reused check and still names the run that asked the API
    third = audit_timing(build_cases(corpus, SINCE)[0], Counting(corpus), 5,
                         prior=prior_checks({**result.as_dict(), "via": "source"}), seen=corpus_seen(corpus), run_id=3)
    assert third.reused == 2 and {d["checked_in_run"] for d in third.details} == {1}


def test_an_issue_updated_since_its_check_is_fetched_again():
    corpus = _corpus()
    _, first, _ = _first(corpus)
    corpus.issues[0] = dataclasses.replace(corpus.issues[0], updated_at=corpus.issues[0].updated_at + timedelta(hours=1))
    _, result, fetch = _again(corpus, first)
    assert ("issue", 1) in fetch.asked and ("pull", 10) in fetch.asked
    assert ("issue", 2) not in fetch.asked and result.reused == 1


def test_a_pull_updated_since_its_check_is_fetched_again():
    corpus = _corpus()
    _, first, _ = _first(corpus)
    corpus.pulls[1] = dataclasses.replace(corpus.pulls[1], updated_at=corpus.pulls[1].updated_at + timedelta(days=1))
    _, result, fetch = _again(corpus, first)
    assert sorted(fetch.asked) == [("issue", 2), ("pull", 11)] and result.reused == 1


def test_a_changed_claim_is_checked_again_even_with_the_same_updated_at():
    corpus = _corpus()
    _, first, _ = _first(corpus)
    # the linker now times case 1 against another close (same updated_at: the store was rebuilt, say)
    corpus.issues[0] = dataclasses.replace(corpus.issues[0], closed_at=corpus.issues[0].closed_at + timedelta(seconds=1))
    _, result, fetch = _again(corpus, first)
    assert ("issue", 1) in fetch.asked


def test_a_failed_or_erred_check_is_never_reused():
    corpus = _corpus()
    cases, _ = build_cases(corpus, SINCE)
    real = corpus_fetcher(corpus)

    def drifted(kind, repo, number):
        obj = real(kind, repo, number)
        if kind == "pull" and number == 10:
            return dataclasses.replace(obj, merged_at=obj.merged_at + timedelta(minutes=5))
        if kind == "issue" and number == 2:
            raise TimeoutError("stalled")
        return obj

    first = audit_timing(cases, drifted, 5, prior={}, seen=corpus_seen(corpus), run_id=1)
    assert first.failed == 1 and first.errors == 1
    _, result, fetch = _again(corpus, first)
    assert sorted(fetch.asked) == [("issue", 1), ("issue", 2), ("pull", 10), ("pull", 11)] and result.reused == 0


def test_a_repo_this_run_could_not_read_proves_nothing_unchanged():
    corpus = _corpus()
    _, first, _ = _first(corpus)
    _, result, fetch = _again(corpus, first, skip=frozenset({corpus.issues[0].repo}))
    assert len(fetch.asked) == 4 and result.reused == 0


def test_reusable_needs_a_known_updated_at_on_both_sides():
    claim = {"closed_at": "2026-09-18T02:00:00+00:00", "pull": "o/r!1", "merged_at": "2026-09-18T02:00:00+00:00"}
    prior = {"held": True, "claim": claim, "seen": {"issue": "2026-09-19T00:00:00+00:00", "pull": None}}
    assert not reusable(prior, claim, {"issue": "2026-09-19T00:00:00+00:00", "pull": None})
    prior["seen"]["pull"] = "2026-09-18T02:00:00+00:00"
    assert reusable(prior, claim, {"issue": "2026-09-19T00:00:00+00:00", "pull": "2026-09-18T02:00:00+00:00"})
    assert not reusable({**prior, "held": None}, claim, dict(prior["seen"]))
    assert not reusable(None, claim, dict(prior["seen"]))


def test_an_audit_of_the_store_against_itself_is_no_memory():
    assert prior_checks({"via": "store", "details": [{"key": "o/r#1", "held": True}]}) == {}
    assert prior_checks({"via": "source", "details": [{"key": "o/r#1", "held": True}]}) == {"o/r#1": {"key": "o/r#1",
                                                                                                    "held": True}}


def test_the_checks_of_a_stopped_run_are_its_rerun_s_own_work_not_reused():
    """A run stopped (Ctrl-C, killed) and rerun is one job: the checks it made are carried into
    the rerun as its harvest is, so its digest reads as a clean run's; a finished run's are reused."""
    corpus = _corpus()
    first_cases, first, _ = _first(corpus)
    summary = {**first.as_dict(), "via": "source"}
    cases = build_cases(corpus, SINCE)[0]
    fetch = Counting(corpus)
    carried = audit_timing(cases, fetch, 5, prior=prior_checks(summary), seen=corpus_seen(corpus), run_id=2,
                           resumed={1})
    assert fetch.asked == [] and carried.reused == 0 and carried.held == carried.sampled == 2
    assert all(d.get("resumed") is True and "reused" not in d and d["checked_in_run"] == 1 for d in carried.details)
    assert [c.to_export() for c in cases] == [c.to_export() for c in first_cases]
    # the next run after the rerun finished: the same checks are now an earlier run's, reused
    later = audit_timing(build_cases(corpus, SINCE)[0], Counting(corpus), 5, seen=corpus_seen(corpus), run_id=3,
                         prior=prior_checks({**carried.as_dict(), "via": "source"}), resumed=set())
    assert later.reused == 2


def test_the_store_names_the_unfinished_runs_a_run_resumes(tmp_path):
    from fixlore.store import Store

    store = Store.open(f"sqlite:///{tmp_path / 'fixlore.db'}")
    try:
        ids = []
        for status in ("ok", "interrupted", "ok", "interrupted", "died"):
            rid = store.start_run({})
            store.finish_run(rid, status, {})
            ids.append(rid)
        now = store.start_run({})
        assert store.resumed_runs(now) == {ids[3], ids[4]}      # back to the last run that finished
        assert store.resumed_runs(ids[2]) == {ids[1]}
        assert store.resumed_runs(ids[0]) == set()
        # a series edition's run finished, but the edition was never recorded: the job did not finish
        edition = store.start_run({})
        store.finish_run(edition, "ok", {"series": {"name": "demo", "number": 1}})
        assert store.resumed_runs(edition + 1) == {edition, now, ids[3], ids[4]}    # `now` never finished
    finally:
        store.close()


def test_the_store_gives_back_the_newest_ok_stage_summary_before_a_run(tmp_path):
    from fixlore.store import Store

    store = Store.open(f"sqlite:///{tmp_path / 'fixlore.db'}")
    try:
        assert store.latest_stage_summary("link") is None
        ids = []
        for n, status in ((1, "ok"), (2, "ok"), (3, "failed")):
            rid = store.start_run({})
            store.finish_run(rid, "ok", {"stages": [{"name": "link", "status": status, "summary": {"n": n}}]})
            ids.append(rid)
        assert store.latest_stage_summary("link") == {"n": 2, "run": ids[1]}
        assert store.latest_stage_summary("link", before_run=ids[1]) == {"n": 1, "run": ids[0]}
        assert store.latest_stage_summary("kb") is None
    finally:
        store.close()


def _run(world, out) -> dict:
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--world", str(world), "--out", str(out), "-q"])
    assert exit_info.value.code == 0
    return json.loads((out / "run.json").read_text(encoding="utf-8"))


def _audit(run: dict) -> dict:
    return next(s for s in run["stages"] if s["name"] == "link")["summary"]["audit"]


def test_a_no_change_rerun_fetches_no_single_issue_or_pr_and_writes_the_same_export(tmp_path):
    from test_hostile_world import ROOT

    out = tmp_path / "out"
    first = _run(ROOT / "worlds" / "demo", out)
    export = (out / "cases.jsonl").read_bytes()
    singles = ("/repos/{owner}/{repo}/issues/{number}", "/repos/{owner}/{repo}/pulls/{number}")
    assert all(first["requests"]["by_endpoint"].get(e, 0) > 0 for e in singles)
    assert _audit(first)["checked"] > 0 and _audit(first)["reused"] == 0
    second = _run(ROOT / "worlds" / "demo", out)
    assert not any(second["requests"]["by_endpoint"].get(e, 0) for e in singles)
    audit = _audit(second)
    assert audit["reused"] == audit["checked"] == _audit(first)["checked"] and audit["passed"] == audit["checked"]
    assert (out / "cases.jsonl").read_bytes() == export
    digest = (out / "digest.en.md").read_text(encoding="utf-8")
    assert f"{audit['reused']} of them checked by an earlier run" in digest
    assert "沿用前次运行" in (out / "digest.zh.md").read_text(encoding="utf-8")


class _Source:
    """A platform source over a corpus that counts the single issues and PRs it is asked for."""

    def __init__(self, corpus: Corpus) -> None:
        self.fetch = Counting(corpus)

    def get_issue(self, repo, number):
        return self.fetch("issue", repo, number)

    def get_pull(self, repo, number):
        return self.fetch("pull", repo, number)


def _stage_run(corpus: Corpus, earlier: dict | None, results: dict, failures=()):
    from fixlore.link import stage as link_stage
    from fixlore.settings.runcontext import RunContext

    from test_link_stage import FakeStore

    store = FakeStore(corpus)
    store.latest_stage_summary = lambda stage, before_run=None: earlier
    store.failures = lambda repos=None: [{"repo": r} for r in failures]
    store.resumed_runs = lambda run_id=None: set()          # the earlier run finished
    source = _Source(corpus)
    ctx = RunContext(store=store, settings=Settings(rank_top_k=5).resolved(), out_dir=None, since=SINCE,
                     run_id=2, source=source)
    ctx.results.update(results)
    return link_stage.run(ctx)["audit"], source.fetch.asked


def test_the_link_stage_reuses_only_after_this_runs_listing_of_readable_repos():
    corpus = _corpus()
    first, asked = _stage_run(corpus, None, {"harvest": {"unreadable": []}})
    assert first["via"] == "source" and first["checked"] == 2 and first["reused"] == 0 and len(asked) == 4
    again, asked = _stage_run(corpus, {"audit": first, "run": 1}, {"harvest": {"unreadable": []}})
    assert again["reused"] == 2 and asked == []
    # no harvest in this run (`run --stage link`): nothing was listed, so nothing is known unchanged
    alone, asked = _stage_run(corpus, {"audit": first, "run": 1}, {})
    assert alone["reused"] == 0 and len(asked) == 4
    repo = corpus.issues[0].repo
    unread, asked = _stage_run(corpus, {"audit": first, "run": 1}, {"harvest": {"unreadable": [{"repo": repo}]}})
    assert unread["reused"] == 0 and len(asked) == 4
    failing, asked = _stage_run(corpus, {"audit": first, "run": 1}, {"harvest": {"unreadable": []}}, failures=[repo])
    assert failing["reused"] == 0 and len(asked) == 4
