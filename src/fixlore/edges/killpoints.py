"""Test-only kill points: stop a run at the Nth write of a named stage, as Ctrl-C or a kill would.

Every durable write of a run passes a point first: the start of each stage, of each store
transaction (reads included) and of each knowledge-base index transaction, and each file about
to be moved into place (`fixlore.edges.atomicfile`). A point before every write is also a point after
the one before it, so what a kill can leave on disk is what one of these points leaves. The
pipeline says which stage is running (`enter`). The fault-injection suite (tests/test_kill_points.py) lists the points of a clean run
(`tracing`), then stops a run at chosen ones and checks that the same command, run again, leaves
what a clean run leaves.

Armed by ``FIXLORE_TEST_STOP_AT=<stage>:<n>:<how>`` in the environment (read once, at import) or
by `arm` in-process; ``how`` is ``kill`` (SIGKILL to this process: nothing runs after it) or
``ctrl-c`` (SIGINT, handled as the user's press is: `fixlore.edges.interrupts`). Unarmed, as always in
production, `reached` is one global read and a return.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

ENV = "FIXLORE_TEST_STOP_AT"
HOW = ("kill", "ctrl-c")
OUTSIDE = "run"          # the run's own bookkeeping, before the first stage and after the last


@dataclass
class _Plan:
    stage: str = ""
    n: int = 0
    how: str = "kill"
    seen: dict[str, int] = field(default_factory=dict)
    trace: list[tuple[str, int, str]] | None = None

    def hit(self, stage: str, what: str) -> None:
        count = self.seen[stage] = self.seen.get(stage, 0) + 1
        if self.trace is not None:
            self.trace.append((stage, count, what))
        if stage == self.stage and count == self.n:
            self.stage = ""                      # once: a rerun in the same process runs through
            if self.how == "kill":
                os.kill(os.getpid(), signal.SIGKILL)
            else:
                signal.raise_signal(signal.SIGINT)


def _parse(spec: str | None) -> _Plan | None:
    if not spec:
        return None
    parts = spec.split(":")
    if len(parts) != 3 or not parts[1].isdigit() or parts[2] not in HOW:
        raise ValueError(f"{ENV}={spec!r}: expected <stage>:<n>:kill or <stage>:<n>:ctrl-c")
    return _Plan(stage=parts[0], n=int(parts[1]), how=parts[2])


_plan: _Plan | None = _parse(os.environ.get(ENV))
_stage = OUTSIDE


def enter(stage: str) -> None:
    """The stage now running (`OUTSIDE` between stages); its start is its first point."""
    global _stage
    _stage = stage
    if _plan is not None and stage != OUTSIDE:
        _plan.hit(stage, "start")


def reached(what: str) -> None:
    """A durable write is about to happen (`what` names its kind, for the trace)."""
    if _plan is None:
        return
    _plan.hit(_stage, what)


def arm(stage: str, n: int, how: str) -> None:
    """Stop at the `n`th point of `stage` (in-process, or in a forked child before the run)."""
    global _plan
    if how not in HOW:
        raise ValueError(f"how: one of {HOW}")
    _plan = _Plan(stage=stage, n=n, how=how)


def disarm() -> None:
    global _plan, _stage
    _plan, _stage = None, OUTSIDE


@contextmanager
def tracing() -> Iterator[list[tuple[str, int, str]]]:
    """Record every point reached, as (stage, n, what), without stopping anywhere."""
    global _plan
    previous = _plan
    trace: list[tuple[str, int, str]] = []
    _plan = _Plan(trace=trace)
    try:
        yield trace
    finally:
        _plan = previous
