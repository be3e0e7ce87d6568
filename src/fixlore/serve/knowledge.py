"""The knowledge base as one read-only object: a run's cases, their search index and the documents.

`Knowledge.open` takes a run's output folder (``<out>/fixlore.db``, ``<out>/kb``,
``<out>/cases-index``) or the three locations one by one. The cases are read from the store
once; the case index is the one `fixlore run` leaves behind (built on first open if it is
missing). Every method returns plain data (see `fixlore.serve.views`), the same for the CLI,
the HTTP API and the MCP tools.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from sqlalchemy.exc import SQLAlchemyError

from fixlore.errors import ConfigError, FixloreError
from fixlore.kb.base import DOC_KINDS, KnowledgeBase
from fixlore.link.refs import case_pr_sigil, pull_label
from fixlore.model import Case, IssueText
from fixlore.serve import views

CASE_INDEX = "cases-index"
MAX_K = 50


class UnknownCase(FixloreError):
    exit_code = 3


@dataclass
class Locations:
    db: str
    docs: Path | None           # document index (None: no documents)
    cases: Path                 # case index
    out: Path | None = None     # the run's output folder (its digests are served too)

    @classmethod
    def of(cls, out: Path | None = None, db: str | None = None, docs: Path | None = None,
           cases: Path | None = None) -> "Locations":
        if out is None and db is None:
            raise ConfigError("give --out DIR (a `fixlore run` output folder) or --db URL")
        if out is not None and not Path(out).is_dir():
            raise ConfigError(f"{out} is not a folder: give the --out folder of a `fixlore run`")
        if db is None:
            store_file = Path(out) / "fixlore.db"
            if not store_file.is_file():
                raise ConfigError(f"no store in {out} (expected {store_file}): run `fixlore run --out {out}` first")
            db = f"sqlite:///{store_file.resolve()}"
        if docs is None and out is not None and (Path(out) / "kb" / "kb.sqlite").is_file():
            docs = Path(out) / "kb"
        if cases is None:
            if out is None:
                raise ConfigError("with --db, name the case index folder too (--case-index DIR)")
            cases = Path(out) / CASE_INDEX
        return cls(db=db, docs=docs, cases=Path(cases), out=Path(out) if out is not None else None)


def pool_cases(cases: Iterable[Case]) -> list[Case]:
    return [c for c in cases if c.funnel in views.POOL_STAGES]


def index_cases(store: Any, cases: list[Case], index_dir: Path, embedder: Any = None,
                progress: Callable[[str, int, int], None] | None = None,
                texts: dict[tuple[str, int], IssueText] | None = None) -> dict[str, Any]:
    """Bring the case index up to date with the pool cases (unchanged cases cost nothing).
    `texts`: the pool's issue texts when the caller has read them already."""
    pool = pool_cases(cases)
    if texts is None:
        texts = store.issue_texts((c.repo, c.number) for c in pool)
    with KnowledgeBase.open(index_dir, embedder=embedder) as kb:
        stats = kb.ingest_cases(pool, progress=progress, prune=True,
                                text_of=lambda c: views.search_text(c, texts.get((c.repo, c.number))))
    return {"index": str(index_dir), "cases": stats.seen, "added": stats.added, "updated": stats.updated,
            "unchanged": stats.unchanged, "removed": stats.removed, "seconds": round(stats.seconds, 2)}


@dataclass
class Knowledge:
    cases: dict[str, Case]
    case_index: KnowledgeBase
    doc_index: KnowledgeBase | None
    where: Locations
    _by_pr: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    _by_theme: dict[str, list[str]] = field(default_factory=dict)
    _cited_by: dict[str, list[str]] = field(default_factory=dict)
    _folded: dict[str, str] = field(default_factory=dict)       # lower-cased key -> key (names are case-blind)
    _stats: dict[str, Any] | None = None
    editions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)   # key -> series editions that published it
    _repos: dict[str, str] = field(default_factory=dict)         # lower-cased repo -> repo
    _gists: dict[str, dict[str, str]] = field(default_factory=dict)   # key -> first error line, report start
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def open(cls, where: Locations, progress: Callable[[str, int, int], None] | None = None) -> "Knowledge":
        from fixlore.store import Store

        store = Store.open(where.db, migrate=False)
        doc_index = None
        try:
            try:
                cases = store.load_cases()
            except SQLAlchemyError as exc:
                raise ConfigError(f"{where.db} is not a fixlore store ({type(exc).__name__}): "
                                  "run `fixlore run` first") from exc
            if not cases:
                raise ConfigError(f"the store {where.db} holds no cases: run `fixlore run` first")
            texts = store.issue_texts((c.repo, c.number) for c in pool_cases(cases))
            doc_index = KnowledgeBase.open(where.docs, create=False) if where.docs else None
            embedder = doc_index.embedder if doc_index else None
            if not (where.cases / "kb.sqlite").is_file():
                index_cases(store, cases, where.cases, embedder=embedder, progress=progress, texts=texts)
            case_index = KnowledgeBase.open(where.cases, embedder=embedder, create=False)
            published = _editions_of(store)
        except BaseException:
            if doc_index is not None:
                doc_index.close()
            raise
        finally:
            store.close()
        k = cls(cases={c.key: c for c in cases}, case_index=case_index, doc_index=doc_index, where=where,
                editions=published)
        for c in cases:
            k._folded[c.key.lower()] = c.key
            k._repos[c.repo.lower()] = c.repo
            if c.theme and c.funnel in views.POOL_STAGES:
                k._by_theme.setdefault(c.theme, []).append(c.key)
            if (c.repo, c.number) in texts:
                k._gists[c.key] = views.report_gist(texts[(c.repo, c.number)])
            for f in c.fix:
                k._by_pr.setdefault((f.repo, f.number), []).append(c.key)
            for ref in c.kb_refs:
                k._cited_by.setdefault(ref.doc, []).append(c.key)
        return k

    def close(self) -> None:
        self.case_index.close()
        if self.doc_index is not None:
            self.doc_index.close()

    def __enter__(self) -> "Knowledge":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # ------------------------------------------------------------------ lookups

    def case(self, key: str) -> Case:
        repo, number = views.parse_key(key)
        found = self.cases.get(self._folded.get(f"{repo}#{number}".lower(), ""))
        if found is None:
            raise UnknownCase(f"{repo}#{number} is not in this knowledge base ({len(self.cases)} cases: the "
                              "issues its run harvested, i.e. updated since the window's start)")
        return found

    def get_case(self, key: str) -> dict[str, Any]:
        case = self.case(key)
        return {**views.evidence_chain(case), "editions": self.editions.get(case.key, [])}

    def fix_status(self, key: str) -> dict[str, Any]:
        case = self.case(key)
        return {**views.fix_status(case), "editions": self.editions.get(case.key, [])}

    def stats(self) -> dict[str, Any]:
        """What is served (computed once: the knowledge base is read-only while served)."""
        if self._stats is None:
            pool = pool_cases(self.cases.values())
            with self._lock:
                documents = sum(self.doc_index.stats()["documents"].values()) if self.doc_index else 0
            self._stats = {"cases": len(self.cases), "searchable_cases": len(pool),
                           "fixed": sum(1 for c in pool if views.status_of(c) == "fixed"), "documents": documents}
        return dict(self._stats)

    # ------------------------------------------------------------------ search

    def search_cases(self, symptom: str, k: int = 5, repo: str | None = None) -> list[dict[str, Any]]:
        """Cases whose report or analysis matches a symptom, best first (one entry per case)."""
        symptom = _query(symptom)
        k = _clamp(k)
        prefix = None
        if repo:
            canonical = self._repos.get(repo.strip().lower())
            if canonical is None:
                return []
            prefix = f"cases/{canonical}/"
        return [views.card(self.cases[key], score, self._gists.get(key))
                for key, score in self._nearest_cases(symptom, k, prefix)[:k]]

    def related_cases(self, key: str, k: int = 5) -> list[dict[str, Any]]:
        """Cases tied to this one: the same fix PR, the same theme, then the most similar text."""
        case = self.case(key)
        k = _clamp(k)
        out: list[dict[str, Any]] = []
        seen = {case.key}

        def add(other_key: str, why: str, score: float | None = None) -> None:
            other = self.cases.get(other_key)
            if other_key in seen or other is None or other.funnel not in views.POOL_STAGES or len(out) >= k:
                return
            seen.add(other_key)
            entry = views.card(other, score, self._gists.get(other_key))
            entry["why"] = why
            out.append(entry)

        for f in case.fix:
            label = pull_label((f.repo, f.number), case.repo, case_pr_sigil(case))
            for other in self._by_pr.get((f.repo, f.number), []):
                add(other, f"the same fix {label}")
        if case.theme:
            for other in self._by_theme.get(case.theme, []):
                add(other, f"the same theme {case.theme}")
        text = views.search_text(case)
        if text:
            for other, score in self._nearest_cases(text, want=k + len(seen)):
                add(other, "similar report", score)
        return out

    def search_docs(self, query: str, k: int = 5) -> list[dict[str, Any]]:
        """Document and code passages, best first; `cited` marks a score above the calibrated threshold."""
        query = _query(query)
        if self.doc_index is None:
            return []
        with self._lock:
            hits = self.doc_index.search(query, k=_clamp(k), kind=DOC_KINDS)
            threshold = self.doc_index.threshold()
        out = []
        for p in hits:
            row = p.to_dict()
            row["cited"] = p.score >= threshold
            row["cited_by"] = self._cited_by.get(p.doc, [])
            out.append(row)
        return out

    def _nearest_cases(self, text: str, want: int, doc_prefix: str | None = None) -> list[tuple[str, float]]:
        """Case keys by their best passage (a long case has several), best first."""
        with self._lock:
            hits = self.case_index.search(text, k=min(MAX_K * 4, max(want * 3, 10)), kind="case",
                                          doc_prefix=doc_prefix)
        best: dict[str, float] = {}
        for p in hits:
            key = _key_of_doc(p.doc)
            if key in self.cases and p.score > best.get(key, -1.0):
                best[key] = p.score
        return sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))


def _editions_of(store: Any) -> dict[str, list[dict[str, Any]]]:
    """The digest editions each case appeared in (a store from before the series ledger has none)."""
    from fixlore.store.ledger import Ledger

    try:
        return Ledger(store).all_appearances()
    except SQLAlchemyError:
        return {}


def _key_of_doc(doc: str) -> str:
    # case_doc() writes cases/<owner>/<repo>/<number>
    head, _, number = doc.rpartition("/")
    return f"{head.removeprefix('cases/')}#{number}"


def _query(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise ValueError("the query is empty: describe the symptom (an error message, what you did)")
    return text[:2000]


def _clamp(k: int) -> int:
    return max(1, min(int(k), MAX_K))

