"""A run works out the cheap funnel once and reads the corpus once; the stages consume both."""

from __future__ import annotations

import json
from pathlib import Path

from fixlore.settings.config import Settings
from fixlore.funnel import stage as funnel_stage
from fixlore.harvest import harvester
from fixlore.harvest import stage as harvest_stage
from fixlore.link import build as link_build
from fixlore.link import stage as link_stage
from fixlore.settings.runcontext import RunContext
from fixlore.store import Store

from test_link_builders import SINCE
from test_link_stage import FakeStore, _corpus

DEMO = Path(__file__).resolve().parents[1] / "worlds" / "demo"


def test_the_stages_take_the_funnel_verdict_they_are_handed():
    store = FakeStore(_corpus())
    # a verdict the cheap funnel would not give (#1 is a plain user issue, fixed in the window)
    given = {"Ascend/toolkit#1": "cve", "Ascend/toolkit#2": "internal", "Ascend/toolkit#3": "window"}
    ctx = RunContext(store=store, settings=Settings(rank_top_k=5).resolved(), out_dir=None, since=SINCE,
                     funnel=dict(given))
    counted = funnel_stage.run(ctx)
    assert store.stages == {}, "a verdict handed on is the harvester's, already stored"
    assert counted["cve"] == 1 and counted["pool"] == 0 and counted["considered"] == 3
    link_stage.run(ctx)
    assert {c.key: c.funnel for c in store.saved} == given
    assert not any(c.provisional for c in store.saved)


def test_without_a_harvest_the_funnel_stage_works_the_verdict_out_and_link_reads_it():
    store = FakeStore(_corpus())
    ctx = RunContext(store=store, settings=Settings(rank_top_k=5).resolved(), out_dir=None, since=SINCE)
    funnel_stage.run(ctx)
    assert ctx.funnel == {"Ascend/toolkit#1": "pool", "Ascend/toolkit#2": "internal", "Ascend/toolkit#3": "window"}
    assert store.stages[("Ascend/toolkit", 1)] == "pool"


def test_a_whole_run_works_out_the_funnel_once_and_reads_the_corpus_once(tmp_path, monkeypatch):
    from fixlore.pipeline import RunRequest, run_pipeline

    calls = {"funnel": 0, "corpus after the harvest": 0}
    harvested: list[bool] = []
    real_harvest, real_load = harvest_stage.harvest, Store.load_corpus

    def harvest(*args, **kwargs):
        report = real_harvest(*args, **kwargs)
        harvested.append(True)
        return report

    def load_corpus(self, repos=None, **kwargs):
        if harvested:             # the harvester reads one repository's corpus at a time while it works
            calls["corpus after the harvest"] += 1
        return real_load(self, repos, **kwargs)

    for module in (harvester, funnel_stage, link_build):
        real = module.cheap_funnel

        def counted(*args, _real=real, **kwargs):
            calls["funnel"] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(module, "cheap_funnel", counted)
    monkeypatch.setattr(harvest_stage, "harvest", harvest)
    monkeypatch.setattr(Store, "load_corpus", load_corpus)
    info = run_pipeline(RunRequest(world=DEMO, out=tmp_path / "out"))
    assert [s["name"] for s in info["stages"]] == ["harvest", "funnel", "link", "kb", "analyse", "compose", "serve"]
    assert calls == {"funnel": 1, "corpus after the harvest": 1}
    run = json.loads((tmp_path / "out" / "run.json").read_text("utf-8"))
    harvest_counts = run["stages"][0]["summary"]["funnel"]
    funnel_counts = run["stages"][1]["summary"]
    assert sum(harvest_counts.values()) == funnel_counts["considered"] > 0
    assert all(funnel_counts[stage] == n for stage, n in harvest_counts.items())


def test_fixlore_analyse_and_the_analyse_stage_build_the_same_analyst(tmp_path):
    """The analyse stage of a run and `fixlore analyse` over the same cases and store, with no
    flag: the same themes, decisions and rows."""
    from typer.testing import CliRunner

    from fixlore.analyse.backend import AnalystChoice, choice_from_settings
    from fixlore.cli.commands import app
    from fixlore.settings.config import Settings
    from fixlore.pipeline import RunRequest, run_pipeline

    assert choice_from_settings(Settings()) == AnalystChoice()
    import typer

    flags = {p.name: p.default for p in typer.main.get_command(app).commands["analyse"].params}
    stage = AnalystChoice()
    assert (flags["backend"], flags["embed"], flags["workers"], flags["theme_size"]) == \
        (stage.backend, stage.embed, stage.workers, stage.theme_size)
    out = tmp_path / "run"
    run_pipeline(RunRequest(world=DEMO, out=out, stage_names=("harvest", "funnel", "link", "kb")))
    runner = CliRunner()
    linked = tmp_path / "linked.jsonl"
    res = runner.invoke(app, ["export", "cases", "--out", str(out), "--to", str(linked)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(app, ["analyse", "--cases", str(linked), "--db", f"sqlite:///{out / 'fixlore.db'}",
                              "--out", str(tmp_path / "by-cli.jsonl"), "--summary", str(tmp_path / "cli.json")])
    assert res.exit_code == 0, res.output
    info = run_pipeline(RunRequest(world=DEMO, out=out, stage_names=("analyse", "compose")))
    by_stage = next(s["summary"] for s in info["stages"] if s["name"] == "analyse")
    by_cli = json.loads((tmp_path / "cli.json").read_text("utf-8"))["analyse"]
    assert by_stage["themes"] and by_cli["themes"] == by_stage["themes"]
    assert by_cli["decisions"] == by_stage["decisions"]
    rows = lambda path: {r["repo"] + "#" + str(r["number"]): (r["funnel"], r["theme"], r["problem"])  # noqa: E731
                         for r in map(json.loads, path.read_text("utf-8").splitlines())}
    assert rows(tmp_path / "by-cli.jsonl") == rows(out / "cases.jsonl")


def test_a_runs_model_timeout_comes_from_the_settings_and_a_bad_one_is_one_clear_error(monkeypatch):
    import pytest
    from types import SimpleNamespace

    from fixlore.analyse.backend import choice_from_settings
    from fixlore.core.errors import ConfigError

    monkeypatch.setenv("FIXLORE_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("FIXLORE_LLM_MODEL", "m")
    assert choice_from_settings(SimpleNamespace()).llm_timeout == 60.0
    monkeypatch.setenv("FIXLORE_LLM_TIMEOUT", "180")
    assert choice_from_settings(SimpleNamespace()).llm_timeout == 180.0
    for bad in ("soon", "0", "-5"):
        monkeypatch.setenv("FIXLORE_LLM_TIMEOUT", bad)
        with pytest.raises(ConfigError, match="llm_timeout"):
            choice_from_settings(SimpleNamespace())


class _CaseReads:
    """Store reads of the cases, by the stage that was running (told by the run's progress calls)."""

    def __init__(self, monkeypatch):
        self.stage, self.reads = "before the run", {}
        real = Store.load_cases

        def load_cases(store):
            self.reads[self.stage] = self.reads.get(self.stage, 0) + 1
            return real(store)

        monkeypatch.setattr(Store, "load_cases", load_cases)

    def progress(self, stage: str, done: int, total: int | None) -> None:
        if ":" not in stage:
            self.stage = stage


def test_a_whole_run_hands_the_cases_on_and_never_reads_them_back(tmp_path, monkeypatch):
    """The link stage hands its cases on; kb, analyse, compose and serve work on them and save
    their own conclusions, and the store's cases are read by no stage (main before issue #25
    read them four times: kb, analyse, compose, serve)."""
    from fixlore.pipeline import RunRequest, run_pipeline

    counted = _CaseReads(monkeypatch)
    out = tmp_path / "out"
    info = run_pipeline(RunRequest(world=DEMO, out=out), progress=counted.progress)
    assert [s["name"] for s in info["stages"]] == ["harvest", "funnel", "link", "kb", "analyse", "compose", "serve"]
    assert counted.stage == "serve" and counted.reads == {}
    monkeypatch.undo()
    saved = {c.key: c.to_export() for c in Store.open(f"sqlite:///{out / 'fixlore.db'}").load_cases()}
    exported = {f"{c['repo']}#{c['number']}": {k: v for k, v in c.items() if k != "format"}   # the line's version
                for c in map(json.loads, (out / "cases.jsonl").read_text().splitlines())}
    assert saved and json.loads(json.dumps(saved)) == exported     # what was handed on is what was saved


def test_a_run_that_did_not_link_reads_the_cases_once_and_hands_them_on(tmp_path, monkeypatch):
    from fixlore.pipeline import RunRequest, run_pipeline

    out = tmp_path / "out"
    run_pipeline(RunRequest(world=DEMO, out=out, stage_names=("harvest", "funnel", "link")))
    counted = _CaseReads(monkeypatch)
    run_pipeline(RunRequest(world=DEMO, out=out, stage_names=("kb", "analyse", "compose", "serve")),
                 progress=counted.progress)
    assert counted.reads == {"kb": 1}


def test_the_corpus_is_read_without_the_platform_json_and_a_second_harvest_keeps_it(tmp_path):
    """Stages get objects without `raw` (never decoded); the store keeps every payload, also
    after a second run whose harvester wrote its pulls back."""
    import sqlalchemy as sa

    from fixlore.pipeline import RunRequest, run_pipeline

    out = tmp_path / "out"
    for _ in range(2):
        run_pipeline(RunRequest(world=DEMO, out=out, quiet=True))
    store = Store.open(f"sqlite:///{out / 'fixlore.db'}", migrate=False)
    try:
        plain, full = store.load_corpus(), store.load_corpus(raw=True)
        with store.engine.connect() as conn:
            empty = conn.execute(sa.text("SELECT count(*) FROM pulls WHERE raw IS NULL OR raw IN ('{}', 'null')")).scalar()
    finally:
        store.close()
    assert plain.pulls and all(p.raw == {} for p in plain.pulls + plain.issues)
    assert all(p.raw for p in full.pulls) and all(i.raw for i in full.issues)
    assert empty == 0
    assert [(p.repo, p.number, p.title, p.merged_at) for p in plain.pulls] == \
        [(p.repo, p.number, p.title, p.merged_at) for p in full.pulls]
