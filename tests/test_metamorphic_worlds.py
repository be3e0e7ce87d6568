"""Metamorphic tests over the bundled worlds (issue #13): conclusions — funnel stage, fix set,
traps per issue — survive transformations that keep meaning, and change when the fix goes.
npu-threads (real threads) runs too: the relations need no truth, so nothing is tuned on it."""

import copy
from pathlib import Path

import pytest

from fixlore.rules.funnel import FunnelConfig, cheap_funnel
from fixlore.link import LinkConfig, build_cases
from fixlore.sources.offline import load_world, read_world_meta
from fixlore.core.timeutil import parse_time

import world_transforms as wt

ROOT = Path(__file__).resolve().parents[1] / "worlds"
WORLDS = [w for w in ("demo", "github-mini", "ascend-2026-09", "npu-threads") if (ROOT / w / "truth.yaml").is_file()]


class World:
    def __init__(self, name: str):
        meta = read_world_meta(ROOT / name)
        self.name = name
        self.corpus = load_world(ROOT / name)
        self.since = parse_time(meta["window"]["since"])
        self.cfg = LinkConfig(funnel=FunnelConfig(rank_top_k=int(meta.get("rank_top_k", 63))))
        self.base = self.conclusions(self.corpus)

    def conclusions(self, corpus):
        cases, _ = build_cases(corpus, self.since, self.cfg)
        return {c.key: (c.funnel, frozenset((f.repo, f.number, f.role) for f in c.fix), frozenset(c.traps))
                for c in cases}


@pytest.fixture(scope="module", params=WORLDS)
def world(request):
    return World(request.param)


def _changed(before, after):
    keys = set(before) | set(after)
    return sorted(k for k in keys if before.get(k) != after.get(k))


def test_respelled_labels_change_nothing(world):
    assert _changed(world.base, world.conclusions(wt.respell_labels(world.corpus))) == []


def test_terse_pr_titles_change_nothing(world):
    changed = _changed(world.base, world.conclusions(wt.terse_pr_titles(world.corpus)))
    assert changed == []


def test_renamed_accounts_change_nothing(world):
    assert _changed(world.base, world.conclusions(wt.rename_accounts(world.corpus))) == []


def test_shuffled_order_changes_nothing(world):
    assert _changed(world.base, world.conclusions(wt.shuffle_order(world.corpus))) == []


def test_a_flood_typed_task_changes_nothing(world):
    # The floods as this run sees them (a truth "noise" the funnel misses is another matter).
    flood = {k for k, (stage, _, _) in world.base.items() if stage == "noise"}
    if not flood:
        pytest.skip(f"{world.name} has no flood")
    assert _changed(world.base, world.conclusions(wt.type_as_task(world.corpus, flood))) == []


def test_removing_the_fixing_pr_changes_the_conclusion(world):
    fixed = sorted((k, f) for k, (_, fixes, _) in world.base.items() for f in fixes if f[2] == "fix")
    assert fixed, world.name
    # Every fixed issue of a small world; an even spread of them on a large one.
    for key, (repo, number, _) in fixed[::max(1, len(fixed) // 12)]:
        after = world.conclusions(wt.remove_pull(world.corpus, repo, number))
        assert after[key] != world.base[key], (key, number)
        assert all((repo, number) != f[:2] for f in after[key][1])


def test_an_own_change_ticket_filed_by_someone_else_is_a_report_again(world):
    """Own-change tickets (rules.funnel.bookkeeping) rest on one account opening ticket and fix: give the
    ticket another author and it is a pool issue with its fix again."""
    cheap = cheap_funnel(world.corpus.issues, world.since, world.cfg.funnel)
    own = sorted(k for k, (stage, _, _) in world.base.items() if stage == "internal" and cheap.get(k) == "pool")
    if not own:
        pytest.skip(f"{world.name} has no own-change ticket")
    other = copy.deepcopy(world.corpus)
    for i in other.issues:
        if i.key in own:
            i.author = "someone-else-entirely"
    after = world.conclusions(other)
    assert all(after[k][0] != "internal" and after[k][1] for k in own), own
