import io
from datetime import timedelta

import pytest

from fixlore.core.errors import FixloreError
from fixlore.link import build_cases
from fixlore.link.audit import audit_timing, corpus_fetcher
from fixlore.edges.caseexport import read_cases_jsonl, write_cases_jsonl
from fixlore.core.model import Corpus

from test_link_builders import SINCE, issue, link, pull, t


def _corpus():
    close = t(18, 10, 0, 0)
    return Corpus(issues=[issue(1, "crash on start", closed=close), issue(2, "slow import", closed=t(19)),
                          issue(3, "question", closed=t(19))],
                  pulls=[pull(10, "fix crash", body="Fixes #1", merged=close),
                         pull(11, "lazy import", body="Fixes #2", merged=t(17))],
                  links=[link(2, 11)])


def test_audit_holds_against_the_same_source_and_records_on_cases():
    corpus = _corpus()
    cases, _ = build_cases(corpus, SINCE)
    result = audit_timing(cases, corpus_fetcher(corpus), sample_size=5)
    assert result.sampled == 2 and result.held == 2
    assert result.as_dict()["failed"] == [] and result.as_dict()["checked"] == 2
    by = {c.number: c for c in cases}
    assert by[1].audit["held"] is True and by[1].audit["ok"] is True
    assert any("merged_at" in check for check in by[1].audit["checks"])
    assert by[3].audit == {}


def test_audit_samples_hard_claims_first_and_reports_differences():
    corpus = _corpus()
    cases, _ = build_cases(corpus, SINCE)
    real = corpus_fetcher(corpus)

    def drifted(kind, repo, number):
        obj = real(kind, repo, number)
        if kind == "pull" and number == 10:
            return {"merged_at": (obj.merged_at + timedelta(minutes=5)).isoformat(), "state": "merged"}
        return obj

    result = audit_timing(cases, drifted, sample_size=1)
    assert result.sampled == 1 and result.details[0]["key"].endswith("#1")     # same_second first
    assert result.held == 0 and result.as_dict()["failed"] == [result.details[0]["key"]]


def test_audit_records_fetch_errors_without_failing_the_run():
    cases, _ = build_cases(_corpus(), SINCE)

    def broken(kind, repo, number):
        raise TimeoutError("stalled")

    result = audit_timing(cases, broken, sample_size=3)
    assert result.errors == 2 and result.held == 0
    assert all(c.audit.get("held") is None for c in cases if c.audit)


def test_export_roundtrip_keeps_every_key():
    cases, _ = build_cases(_corpus(), SINCE)
    buf = io.StringIO()
    assert write_cases_jsonl(cases, buf) == 3
    lines = buf.getvalue().splitlines()
    assert len(lines) == 3 and lines[0].startswith('{"repo":"')


def test_export_file_roundtrip_and_truth_keys(tmp_path):
    cases, _ = build_cases(_corpus(), SINCE)
    path = tmp_path / "out" / "cases.jsonl"
    write_cases_jsonl(cases, path)
    back = read_cases_jsonl(path)
    assert [c.to_export() for c in back] == [c.to_export() for c in sorted(cases, key=lambda c: (c.repo, c.number))]
    row = back[0].to_export()
    for key in ("repo", "number", "funnel", "drop_reason", "fix", "evidence", "timing", "lag_s", "traps",
                "kb_refs", "theme", "title", "url", "closed_at", "problem", "answer", "value"):
        assert key in row


def test_read_rejects_garbage(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"repo": "a/b", "number": 1}\nnot json\n', encoding="utf-8")
    with pytest.raises(FixloreError, match="bad.jsonl:2"):
        read_cases_jsonl(bad)
    with pytest.raises(FixloreError):
        read_cases_jsonl(tmp_path / "missing.jsonl")


@pytest.mark.parametrize("name", ["demo", "github-mini"])
def test_the_audit_fetches_through_the_source_get_issue_and_get_pull(name, tmp_path):
    """Each platform's Source answers one issue and one PR by number (no URL built by the audit)."""
    import json as _json
    from pathlib import Path

    from fixlore.link.audit import source_fetcher
    from fixlore.replay.server import ReplayServer
    from fixlore.sources import make_source
    from fixlore.sources.http import ApiClient

    world = Path(__file__).resolve().parents[1] / "worlds" / name
    issue_file = next(p for p in sorted((world / "repos").glob("*/*/issues/*.json")) if p.stem.isdigit())
    owner, repo = issue_file.parts[-4], issue_file.parts[-3]
    raw = _json.loads(issue_file.read_text("utf-8"))
    with ReplayServer(world) as srv:
        client = ApiClient(srv.base_url, "github" if name.startswith("github") else "gitcode", rate_limit=False)
        try:
            fetch = source_fetcher(make_source(client.platform, client))
            got = fetch("issue", f"{owner}/{repo}", int(issue_file.stem))
            missing = fetch("issue", f"{owner}/{repo}", 987654)
        finally:
            client.close()
    assert got is not None and got.number == int(issue_file.stem) and got.repo == f"{owner}/{repo}"
    from fixlore.core.timeutil import parse_time

    assert got.closed_at == parse_time(raw.get("closed_at") or raw.get("finished_at"))   # what the audit re-checks
    assert missing is None
