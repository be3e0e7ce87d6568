"""Progress bars for the CLI. Library code never imports this: a stage reports through the
``progress(stage, done, total)`` callback it is given (fixlore.pipeline.RunContext.progress)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class StageProgress:
    """One bar per stage and per phase a stage reports, on stderr (a phase with no total pulses).

    ``own_display``: stages that draw their own bars; rich allows one live display at a time,
    so their reports are not drawn here (none does: the harvester reports its phases too).
    """

    def __init__(self, enabled: bool = True, console: Console | None = None,
                 own_display: frozenset[str] = frozenset()):
        self.enabled = enabled
        self.own_display = own_display
        self._bar = Progress(TextColumn("{task.description:<14}"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), console=console or Console(stderr=True), transient=False,
                             disable=not enabled)
        self._tasks: dict[str, Any] = {}

        self._started = False

    def __enter__(self) -> "StageProgress":
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._started:
            self._bar.stop()

    def update(self, stage: str, done: int, total: int | None = None) -> None:
        if not self.enabled or stage in self.own_display:
            return
        task = self._tasks.get(stage)
        if task is None:
            task = self._tasks[stage] = self._bar.add_task(stage, total=total)
        self._bar.update(task, completed=done, total=total)
        if not self._started and done > 0:    # drawn once something advanced: a run that fails early prints no bar
            self._bar.start()
            self._started = True
