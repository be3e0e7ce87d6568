"""A digest series on worlds/ascend-2026-09 replayed as of three moments (slow: three full runs,
the first two shared with test_series_history and test_series_overrides through conftest's
session fixtures): edition 16 as of 09-19, a special edition on two repositories as of 09-20,
edition 18 as of 09-21; then edition 16 rebuilt from the ledger."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fixlore.store import Store

from conftest import ASCEND_FOCUS as FOCUS, fixlore_here, series_copy
from fixlore.series.publish import edition_dir
from series_checks import (check_backlog_adds_up, check_disclosure_is_its_own, check_no_case_twice,
                           check_rebuilds, editions)

ROOT = Path(__file__).resolve().parents[1]
WORLD = ROOT / "worlds" / "ascend-2026-09"

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (WORLD / "world.yaml").is_file(), reason="ascend world not generated")]


def _page(text: str) -> str:
    """A Markdown digest without the format note on its first line."""
    return text.split("\n", 1)[1].lstrip("\n") if text.startswith("<!--") else text


def fixlore(*args: str) -> dict:
    proc = fixlore_here(*args)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout) if proc.stdout.lstrip().startswith("{") else {}


@pytest.fixture(scope="module")
def series(ascend_series_17, tmp_path_factory):
    # editions 16 and 17 as the session made them (conftest: the seed's framing, 16 as of 09-19,
    # 17 on FOCUS as of 09-20, both passing the editorial check a publish makes by default), copied
    out = series_copy(ascend_series_17["out"], tmp_path_factory.mktemp("ascend-series") / "out")
    assert Path(ascend_series_17["special"]["folder"]) == edition_dir(ascend_series_17["out"], "ascend", 17)
    special = {**ascend_series_17["special"], "folder": str(edition_dir(out, "ascend", 17))}
    last = fixlore("run", "--series", "ascend", "--world", str(WORLD), "--as-of", "2026-09-21T00:00:00+08:00",
                   "--out", str(out))
    store = Store.open(f"sqlite:///{out / 'fixlore.db'}")
    try:
        eds = editions(store, "ascend")
    finally:
        store.close()
    return {"out": out, "first": ascend_series_17["first"], "special": special, "last": last, "editions": eds}


def test_editions_are_numbered_and_windowed(series):
    eds = series["editions"]
    assert [(e["number"], e["kind"]) for e in eds] == [(16, "regular"), (17, "special"), (18, "regular")]
    assert eds[2]["window_since"] == eds[0]["window_until"]          # a special edition does not move the window
    zh = (Path(series["last"]["folder"]) / "digest.zh.md").read_text("utf-8")
    assert _page(zh).startswith("# 昇腾开源仓Issue分析解答-Ascend精选（十八）·2026-09 增量\n\n> 一句话让Agent变成昇腾专家")
    assert "mindspore 组织本系列不采" in zh


def test_no_case_of_an_earlier_edition_except_as_an_update(series):
    check_no_case_twice(series["editions"])
    first = {(r["repo"], r["number"]) for r in series["editions"][0]["rows"] if r["published"]}
    later = [r for e in series["editions"][1:] for r in e["rows"] if r["published"]]
    assert first and later
    assert all(r["role"] == "update" for r in later if (r["repo"], r["number"]) in first)


def test_backlog_figures_add_up(series):
    eds = series["editions"]
    check_backlog_adds_up(eds)
    assert eds[0]["counts"]["backlog_out"] > 0 and eds[1]["counts"]["backlog_in"] == eds[0]["counts"]["backlog_out"]
    assert eds[2]["counts"]["backlog_in"] == eds[1]["counts"]["backlog_out"]


def test_each_disclosure_is_computed_from_its_own_rows(series):
    check_disclosure_is_its_own(series["out"], "ascend", series["editions"])
    from fixlore.core.timeutil import parse_time

    for e in series["editions"]:
        for r in e["rows"]:
            if r["role"] in ("new", "considered"):            # its own window's closes, nothing earlier
                assert parse_time(r["row"]["closed_at"]) >= e["window_since"]


def test_special_edition_holds_only_its_two_repos_from_pool_and_backlog(series):
    special = series["editions"][1]
    assert set(special["focus"]["repos"]) == set(FOCUS)
    assert special["rows"] and {r["repo"] for r in special["rows"]} <= set(FOCUS)
    roles = {r["role"] for r in special["rows"]}
    assert "backlog" in roles and "new" in roles                     # drawn from both
    assert any(r["published"] for r in special["rows"])
    doc = json.loads((Path(series["special"]["folder"]) / "digest.json").read_text("utf-8"))
    assert {repo["full_name"] for repo in doc["digests"]["zh"]["repos"]} <= set(FOCUS)


def test_edition_16_rebuilds_byte_for_byte_after_the_others(series):
    store = Store.open(f"sqlite:///{series['out'] / 'fixlore.db'}")
    try:
        check_rebuilds(store, series["out"], "ascend", 16)
    finally:
        store.close()
