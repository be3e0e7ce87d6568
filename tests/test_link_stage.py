import json

from typer.testing import CliRunner

from fixlore.settings.config import Settings
from fixlore.cli.commands import app
from fixlore.funnel import stage as funnel_stage
from fixlore.link import build_cases
from fixlore.link import stage as link_stage
from fixlore.core.model import Corpus
from fixlore.settings.runcontext import RunContext

from test_link_builders import SINCE, issue, pull, t


class FakeStore:
    def __init__(self, corpus):
        self.corpus, self.saved, self.stages = corpus, [], {}

    def load_corpus(self, repos=None):
        return self.corpus

    def save_linked_cases(self, cases, run_id=None):
        self.saved = list(cases)
        return len(self.saved)

    def issues(self):
        return list(self.corpus.issues)

    def writer(self):
        store = self

        class W:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return False

            def set_funnel_stages(self, verdicts):
                store.stages.update(verdicts)

        return W()


def _corpus():
    close = t(18, 10)
    return Corpus(issues=[issue(1, "crash on start", closed=close), issue(2, "task", closed=t(18), issue_type="任务"),
                          issue(3, "open one")],
                  pulls=[pull(10, "fix crash", body="Fixes #1", merged=close)])


def test_link_stage_saves_cases_and_reports_funnel_timing_and_audit():
    store = FakeStore(_corpus())
    ctx = RunContext(store=store, settings=Settings(rank_top_k=5).resolved(), out_dir=None, since=SINCE,
                     run_id=7)
    summary = link_stage.run(ctx)
    assert len(store.saved) == 3 and ctx.info["funnel"]["closed_in_window"] == 2
    assert summary["funnel"]["internal"] == 1 and summary["analysis_candidates"] == 1
    assert summary["timing"] == {"same_second": 1}
    assert summary["audit"]["checked"] == 1 and summary["audit"]["passed"] == 1 and summary["audit"]["via"] == "store"


def test_funnel_stage_records_cheap_stages():
    store = FakeStore(_corpus())
    ctx = RunContext(store=store, settings=Settings(rank_top_k=None).resolved(), out_dir=None, since=SINCE)
    summary = funnel_stage.run(ctx)
    assert store.stages == {("Ascend/toolkit", 1): "pool", ("Ascend/toolkit", 2): "internal",
                            ("Ascend/toolkit", 3): "window"}
    assert summary["pool"] == 1 and summary["closed_in_window"] == 2


def test_export_reads_cases_saved_in_a_sqlite_store(tmp_path):
    from fixlore.store import Store

    url = f"sqlite:///{tmp_path / 'fixlore.db'}"
    store = Store.open(url)
    cases, _ = build_cases(_corpus(), SINCE)
    store.save_cases(cases)
    store.close()
    out = tmp_path / "cases.jsonl"
    res = CliRunner().invoke(app, ["export", "cases", "--db", url, "--out", str(out)])
    assert res.exit_code == 0, res.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    first = json.loads(lines[0])["fix"][0]
    assert (first["repo"], first["number"]) == ("Ascend/toolkit", 10)


def test_export_needs_a_source():
    res = CliRunner().invoke(app, ["export", "cases"])
    assert res.exit_code != 0
