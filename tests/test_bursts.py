"""Close bursts (rules/bursts.py): the harvester fetches who closed the issues of a burst outside
the pool, so a storm or a stale close is flagged at any funnel stage (issue #13, class 5)."""

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

from hypothesis import given, strategies as st

from fixlore.rules.bursts import STORM_MIN_CLOSES, in_bursts

from conftest import fixlore_here

T0 = datetime(2026, 9, 18, 13, 39, 56, tzinfo=timezone(timedelta(hours=8)))


def at(seconds):
    return T0 + timedelta(seconds=seconds)


def test_a_batch_in_one_repository_over_minutes_and_a_sweep_across_repositories_in_seconds():
    batch = [("o/a", "o/a#1", at(0)), ("o/a", "o/a#2", at(120)), ("o/a", "o/a#3", at(300))]
    spread = [("o/a", "o/a#4", at(5000)), ("o/b", "o/b#5", at(5100)), ("o/c", "o/c#6", at(5200))]
    sweep = [("o/a", "o/a#7", at(9000)), ("o/b", "o/b#8", at(9002)), ("o/c", "o/c#9", at(9004))]
    assert in_bursts(batch + spread + sweep) == {"o/a#1", "o/a#2", "o/a#3", "o/a#7", "o/b#8", "o/c#9"}
    assert in_bursts(batch[:2]) == set()


@given(st.lists(st.tuples(st.sampled_from(["o/a", "o/b"]), st.integers(0, 4000)), max_size=12))
def test_a_burst_member_always_has_company(closes):
    items = [(repo, f"{repo}#{i}", at(s)) for i, (repo, s) in enumerate(closes)]
    marked = in_bursts(items)
    for repo, key, when in items:
        if key in marked:
            # at least STORM_MIN_CLOSES closes (this one included) lie within ten minutes of it
            near = [k for r, k, w in items if abs((w - when).total_seconds()) <= 600]
            assert len(near) >= STORM_MIN_CLOSES


def test_an_unresolved_issue_in_a_bot_sweep_gets_its_traps(tmp_path):
    """seed-twin: the stale robot sweeps four issues in four seconds over two repositories; one
    of them was closed unresolved, outside the pool, and is a stale close in that storm too."""
    world = Path(__file__).resolve().parents[1] / "worlds" / "seed-twin"
    out = tmp_path / "run"
    proc = fixlore_here("run", "--world", str(world), "--out", str(out), env={"NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    cases = {(c["repo"], c["number"]): c for c in map(json.loads, (out / "cases.jsonl").read_text().splitlines())}
    swept = cases[("Ascend/msmodeling", 452)]
    assert swept["funnel"] == "unresolved" and swept["closed_by"] == "ascend-robot"
    assert {"close_storm", "stale_close"} <= set(swept["traps"])
    flood = [c for c in cases.values() if c["funnel"] == "noise" and c["traps"]]
    assert flood == []          # a template flood's close is nobody's reading: not fetched
