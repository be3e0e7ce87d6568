"""The analyse and compose pipeline stages over a store: cases in, analysed cases and digests out."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

from fixlore.analyse import stage as analyse_stage
from fixlore.compose import stage as compose_stage
from fixlore.core.model import Case
from fixlore.settings.runcontext import RunContext
from test_analyse_offline import build_world

SINCE = datetime(2026, 9, 1, tzinfo=timezone(timedelta(hours=8)))


def _ctx(store, tmp_path, run_id=None, info=None) -> RunContext:
    return RunContext(store=store, settings=SimpleNamespace(), out_dir=tmp_path, since=SINCE, run_id=run_id,
                      info={} if info is None else info)


class MemoryStore:
    """The three store calls the stages make, over a world held in memory."""

    def __init__(self, world):
        self.world = world
        self.saved: list[dict] = [c.to_export() for c in world.cases]

    def load_cases(self):
        return [Case.from_export(row) for row in self.saved]

    def load_corpus(self, repos=None):
        return self.world.corpus

    def save_cases(self, cases, run_id=None):
        self.saved = [c.to_export() for c in cases]
        return len(self.saved)


def test_stages_analyse_then_compose(tmp_path):
    world = build_world()
    for c in world.cases:                       # the linker's marker: these await deep analysis
        c.provisional = c.funnel in ("selected", "analysis")
        if c.provisional:
            c.funnel = "selected"
    store = MemoryStore(world)
    info = {"window": {"since": "2026-09-01T00:00:00+08:00"}, "stages": []}
    ctx = _ctx(store, tmp_path, 7, info)
    summary = analyse_stage.run(ctx)
    assert summary["analysed"] == 21 and summary["dropped"] == len([r for r in store.saved if r["funnel"] == "analysis"])
    assert not any(r["provisional"] for r in store.saved)
    info["stages"].append({"name": "analyse", "status": "ok", "summary": summary})
    out = compose_stage.run(ctx)
    assert set(out["files"]) == {"md_zh", "md_en", "html", "json"}
    rows = [json.loads(line) for line in (tmp_path / "cases.jsonl").read_text("utf-8").splitlines()]
    assert len(rows) == len(world.cases) and out["kept"] == sum(1 for r in rows if r["funnel"] == "selected")
    assert "深析方式：离线规则 21" in (tmp_path / "digest.zh.md").read_text("utf-8")


def test_stages_skip_without_cases(tmp_path):
    empty = SimpleNamespace(load_cases=lambda: [])
    ctx = _ctx(empty, tmp_path)
    assert "skipped" in analyse_stage.run(ctx) and "skipped" in compose_stage.run(ctx)


def test_stage_uses_an_llm_endpoint_named_in_the_environment(tmp_path, monkeypatch):
    from fake_openai import FakeOpenAI

    world = build_world()
    store = MemoryStore(world)
    ctx = _ctx(store, tmp_path, 1)
    with FakeOpenAI() as fake:
        monkeypatch.setenv("FIXLORE_LLM_BASE_URL", fake.base_url)
        monkeypatch.setenv("FIXLORE_LLM_MODEL", "fake-qwen")
        monkeypatch.setenv("FIXLORE_LLM_CACHE", str(tmp_path / "cache.sqlite"))
        summary = analyse_stage.run(ctx)
        rows = [r for r in fake.requests if not r["body"]["messages"][1]["content"].startswith("TASK ")]
        assert len(rows) == summary["analysed"] == 21
    assert summary["backend"] == "llm:fake-qwen" and summary["llm"]["requests"] == 21
    # the editorial pass asked the same endpoint after the rows and recorded what fell back
    assert summary["editorial"]["requests"] == len(fake.requests) - 21 > 0
    # the compose stage reads the record from the run and discloses it; nothing the model failed
    # to translate is passed off as English
    ctx.info["stages"] = [{"name": "analyse", "status": "ok", "summary": summary}]
    compose_stage.run(ctx)
    en = (tmp_path / "digest.en.md").read_text("utf-8")
    zh = (tmp_path / "digest.zh.md").read_text("utf-8")
    assert "Editorial and translation**: Editorial (" in en and "fell back to offline wording" in en
    assert "编辑与译文**：编辑（" in zh and "回退离线" in zh
    assert "the translation failed or was not grounded for it" in en
