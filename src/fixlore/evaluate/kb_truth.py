"""Labelled data for calibration from a world: its truth.yaml `kb_refs` and its issues and PRs.

Each selected truth entry becomes a case (title from the issue, fix set from truth) whose
query is built exactly as `enrich` builds it; the expected documents are the entry's
`kb_refs` (``[]``: nothing should be cited).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fixlore.core.enums import FunnelStage
from fixlore.core.errors import ConfigError
from fixlore.core.model import Case, Corpus, FixRef
from fixlore.edges.inputs import safe_load_yaml
from fixlore.kb.enrich import CorpusLookup, case_query
from fixlore.retrieval.base import KbQuery


@dataclass(slots=True)
class LabelledCase:
    case: Case
    query: KbQuery
    expected: list[str]           # [] = no document explains it


def read_truth(world: str | Path) -> dict:
    path = Path(world) / "truth.yaml"
    if not path.is_file():
        raise ConfigError(f"{world} has no truth.yaml")
    return safe_load_yaml(path.read_text("utf-8")) or {}


def truth_cases(truth: dict, funnel: str | None = FunnelStage.SELECTED) -> list[tuple[Case, list[str]]]:
    """(case skeleton, expected docs) for the truth entries of one funnel stage (all when None)."""
    out: list[tuple[Case, list[str]]] = []
    for entry in truth.get("issues") or []:
        if funnel and entry.get("funnel") != funnel:
            continue
        fix = [FixRef(repo=f["repo"], number=int(f["number"]), role=f.get("role", "fix"))
               for f in entry.get("fix") or []]
        case = Case(repo=entry["repo"], number=int(entry["number"]), funnel=entry.get("funnel", ""), fix=fix)
        refs = [r if isinstance(r, str) else r.get("doc", "") for r in entry.get("kb_refs") or []]
        out.append((case, [r for r in refs if r]))
    return out


def labelled_cases(world: str | Path, corpus: Corpus | None = None, funnel: str | None = FunnelStage.SELECTED) -> list[LabelledCase]:
    if corpus is None:
        from fixlore.sources.offline import load_world

        corpus = load_world(world)
    ctx = CorpusLookup(corpus)
    out: list[LabelledCase] = []
    for case, expected in truth_cases(read_truth(world), funnel):
        issue = ctx.issues.get((case.repo, case.number))
        if issue is not None:
            case.title = issue.title
        out.append(LabelledCase(case=case, query=case_query(case, ctx), expected=expected))
    return out
