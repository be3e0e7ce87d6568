"""Progress bars for the CLI. Library code never imports this: a stage reports through the
``progress(stage, done, total)`` callback it is given (fixlore.pipeline.RunContext.progress)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class StageProgress:
    """One bar per stage that reports, on stderr; a stage that reports no total shows a pulse."""

    def __init__(self, enabled: bool = True, console: Console | None = None):
        self.enabled = enabled
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
        if not self.enabled:
            return
        if not self._started:                 # started on first use: a run that fails early prints no bar
            self._bar.start()
            self._started = True
        task = self._tasks.get(stage)
        if task is None:
            task = self._tasks[stage] = self._bar.add_task(stage, total=total)
        self._bar.update(task, completed=done, total=total)
