"""What every stage of a run receives (`RunContext`) and what it hands back (a summary).

The context sits below the stages and above the configuration and the edges, so a stage can
name the types it is given (`fixlore.pipeline` runs the stages; it sits above them).

Each stage reads what it needs once per run through the context, not from the store again:
`RunContext.corpus()` is the store's corpus, read on first use (after the harvest, the only
stage that writes it); `RunContext.funnel` is the cheap funnel's verdict per issue, worked out
once (by the harvester before it fetched any detail, else by the funnel stage) and read by the
funnel and link stages; `RunContext.cases()` are the run's cases, handed from stage to stage
(the link stage hands on the cases it built, `hand_on`; each later stage saves its own
conclusions and works on the same cases). The store's cases are read only when the run built
none (`--stage analyse`, a later command): the store is for later processes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fixlore.core.model import Case, Corpus
from fixlore.core.timeutil import in_zone
from fixlore.edges.circuit import Circuits
from fixlore.rules.overrides import Overrides
from fixlore.settings.config import Settings
from fixlore.store import Store

if TYPE_CHECKING:                          # the edges' heavier modules, only for their names
    from fixlore.sources.base import Source
    from fixlore.sources.http import ApiClient

# progress(what, done, total): given by the CLI; stages that take a while report through it
Progress = Callable[[str, int, "int | None"], None]
# A stage's summary, stored under its name in run.json; each stage types its own (a TypedDict)
Summary = Mapping[str, Any]


@dataclass
class RunContext:
    """The run's store, settings, output folder and record, and what the stages read once."""
    store: Store
    settings: Settings
    out_dir: Path
    since: datetime
    world: Path | None = None           # the world folder when replaying one (docs/ for kb live there)
    client: ApiClient | None = None     # harvest, re-verification
    source: Source | None = None
    quiet: bool = True
    naive: bool = False
    reconcile: bool = False             # harvest: each repo listed from the window start (fixlore.harvest.harvester)
    on_findings: str = "mark"           # compose: a digest the editorial check flags is marked, or fails
    run_id: int | None = None
    info: dict[str, Any] = field(default_factory=dict)       # run.json under construction
    progress: Progress | None = None
    results: dict[str, Summary] = field(default_factory=dict)   # stage name -> its summary
    # one breaker per model endpoint for the run: the kb check, the analysis and the editorial share it
    circuits: Circuits = field(default_factory=Circuits)
    # Issue.key -> cheap funnel stage, for every issue updated in the window (None: not yet worked out)
    funnel: dict[str, str] | None = None
    overrides: Overrides | None = None      # the editor's corrections (`--overrides`, a series' file)
    # learned value weights (`--value-weights`, series.weights.read_weights; "file" names it): the link stage's cut
    value_weights: dict[str, Any] | None = None
    _corpus: Corpus | None = field(default=None, repr=False)
    _cases: list[Case] | None = field(default=None, repr=False)

    def corpus(self) -> Corpus:
        """The store's corpus, read once per run, its times in the window's own offset (the
        store keeps UTC; notes and answers show the times the platform's users read)."""
        if self._corpus is None:
            corpus = self.store.load_corpus()
            tz = self.since.tzinfo if self.since else None
            for objects in (corpus.issues, corpus.pulls, corpus.comments, corpus.events, corpus.commits):
                in_zone(objects, tz)
            self._corpus = corpus
        return self._corpus

    def record_overrides(self, applied: list[dict[str, str]], stage: str) -> None:
        """The corrections a stage applied, kept in run.json under ``overrides.applied``."""
        if self.overrides is None:
            return
        rec = self.info.setdefault("overrides", {"source": self.overrides.source, "entries": len(self.overrides.cases),
                                                 "applied": [], "unknown": []})
        rec["applied"].extend({**a, "stage": stage} for a in applied)

    def forget_corpus(self) -> None:
        """After a stage that writes the corpus (the harvest): the next reader loads it afresh."""
        self._corpus = None

    def cases(self) -> list[Case]:
        """The run's cases, as the last stage that changed them handed them on; read from the
        store (ordered by repo and number) only when no stage of this run built them."""
        if self._cases is None:
            self._cases = self.store.load_cases()
        return self._cases

    def hand_on(self, cases: list[Case]) -> None:
        """The cases a stage built, for the stages after it (in the store's order: repo, number)."""
        self._cases = sorted(cases, key=lambda c: (c.repo, c.number))

    def reporter(self, stage: str) -> Callable[[str, int, int | None], None] | None:
        """``report(phase, done, total)`` for one stage's phases (shown as ``stage: phase``), or
        None when no CLI gave a progress callback."""
        report = self.progress
        if report is None:
            return None
        return lambda phase, done, total: report(f"{stage}: {phase}", done, total)
