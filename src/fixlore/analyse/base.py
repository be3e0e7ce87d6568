"""The analysis contract: one analyst turns one case (plus what the corpus says about it)
into an Analysis. Backends: offline (extractive, deterministic) and llm (OpenAI-compatible)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Protocol

from fixlore.analyse.context import CaseContext
from fixlore.core.model import DROP_REASONS, Case, Written


@dataclass(slots=True)
class Analysis:
    problem: str
    answer: str
    theme: str = ""                 # a provisional label; analyse_cases groups themes across cases
    symptom: str = ""
    first_action: str = ""
    keep: bool = True
    drop_reason: str = ""           # one of model.DROP_REASONS when keep is False
    notes: list[str] = field(default_factory=list)   # why: the signals behind keep/drop
    analysed_by: str = ""
    usage: dict[str, int] = field(default_factory=dict)   # tokens spent (llm)
    written: Written = field(default_factory=Written)     # the analyst's own words, fields apart
    cached: bool = False

    def __post_init__(self) -> None:
        if not self.keep and self.drop_reason not in DROP_REASONS:
            raise ValueError(f"drop_reason must be one of {DROP_REASONS}, got {self.drop_reason!r}")
        if self.keep:
            self.drop_reason = ""

    def to_dict(self) -> dict:
        return asdict(self)


class Analyst(Protocol):
    """An analyst. One that sets `widens = True` also takes `analyse(case, context, extra=N)`: N more
    characters for the row (analyse/widen.py gives them to the rows above the middle)."""
    name: str

    def analyse(self, case: Case, context: CaseContext) -> Analysis: ...
