"""What must hold for any published series, whatever the world: shared by the demo tests
(test_series.py) and the slow Ascend test (test_series_ascend.py)."""

from __future__ import annotations

import json
from pathlib import Path

from fixlore.series.plan import change_text
from fixlore.series.publish import edition_dir, rebuild_edition
from fixlore.store import Store
from fixlore.store.ledger import Ledger


def key(row: dict) -> str:
    return f"{row['repo']}#{row['number']}"


def editions(store: Store, name: str) -> list[dict]:
    ledger = Ledger(store)
    out = []
    for e in ledger.editions(name):
        e = dict(e)
        e["rows"] = ledger.rows(name, e["number"])
        out.append(e)
    return out


def check_no_case_twice(eds: list[dict]) -> int:
    """A case published by an earlier edition is back only as an update row that says what changed;
    returns the number of update rows seen."""
    seen: set[str] = set()
    updates = 0
    for e in eds:
        published = [r for r in e["rows"] if r["published"]]
        for r in published:
            k = key(r)
            if k in seen:
                assert r["role"] == "update", f"edition {e['number']} republishes {k} as {r['role']}"
            if r["role"] == "update":
                assert k in seen, f"edition {e['number']}: update row for {k}, never published before"
                assert r["change"] and r["change"]["items"], f"update row {k} says nothing about what changed"
                updates += 1
        seen |= {key(r) for r in published}
    return updates


def check_backlog_adds_up(eds: list[dict]) -> None:
    previous = None
    for e in eds:
        c = e["counts"]
        rows = e["rows"]
        waiting = {key(r) for r in rows if r["role"] in ("new", "backlog", "returned") and r["row"]["funnel"] == "rank"}
        outside = set()
        if previous is not None:
            assert c["backlog_in"] == len(previous["backlog"])
            before = {f"{b['repo']}#{b['number']}" for b in previous["backlog"]}
            carried = {key(r) for r in rows if r["role"] == "backlog"}
            assert carried <= before
            outside = before - carried - {key(r) for r in rows}
        else:
            assert c["backlog_in"] == 0
        assert c["backlog_in"] == (c["backlog_in_selected"] + c["backlog_in_dropped"] + c["backlog_in_waiting"]
                                   + c["backlog_in_left_pool"] + c["backlog_in_taken_elsewhere"] + c["backlog_in_outside"])
        left = {f"{b['repo']}#{b['number']}" for b in e["backlog"]}
        assert len(left) == c["backlog_out"] == (c["new_waiting"] + c["backlog_in_waiting"] + c["backlog_in_outside"]
                                                 + c.get("returned_waiting", 0))
        assert waiting <= left
        if e["kind"] == "regular":
            assert left == waiting
        else:
            assert left - waiting <= outside
        previous = e


def check_disclosure_is_its_own(out: Path, name: str, eds: list[dict]) -> None:
    """Each edition's printed figures are counted from that edition's rows, not the run's or another edition's."""
    for e in eds:
        rows = e["rows"]
        doc = json.loads((edition_dir(out, name, e["number"]) / "digest.json").read_text("utf-8"))
        own = [r for r in rows if r["role"] != "update"]
        funnel = doc["figures"]["funnel"]
        assert funnel["kept"] == sum(1 for r in own if r["row"]["funnel"] == "selected")
        assert funnel["pool"] == sum(1 for r in own if r["role"] in ("new", "backlog", "returned"))
        assert funnel["considered"] == len(own)
        n_rows = sum(1 for r in rows if r["published"])
        table_rows = sum(len(repo["rows"]) for repo in doc["digests"]["zh"]["repos"])
        assert table_rows == n_rows
        zh = (edition_dir(out, name, e["number"]) / "digest.zh.md").read_text("utf-8")
        assert f"本篇表格 {n_rows} 行" in zh
        assert f"来自往期余量 {sum(1 for r in rows if r['published'] and r['role'] == 'backlog')} 行" in zh
        assert f"往期案例更新 {sum(1 for r in rows if r['role'] == 'update')} 行" in zh
        for r in rows:
            if r["role"] == "update":
                assert change_text(r["change"], "zh") in zh
        assert "系列下一篇" in zh.split("---")[-1]


def check_rebuilds(store: Store, out: Path, name: str, number: int) -> None:
    files = rebuild_edition(store, name, number)
    folder = edition_dir(out, name, number)
    assert sorted(files) == sorted(p.name for p in folder.iterdir())
    for fname, data in files.items():
        assert data == (folder / fname).read_bytes(), fname
