"""The knowledge base as one read-only object: a run's cases, their search index and the documents.

`Knowledge.open` takes a run's output folder (``<out>/fixlore.db``, ``<out>/kb``,
``<out>/cases-index``) or the three locations one by one. The cases are read from the store
once; the case index is the one `fixlore run` leaves behind (built on first open if it is
missing). Every method returns plain data (see `fixlore.serve.views`), the same for the CLI,
the HTTP API and the MCP tools.
"""

from __future__ import annotations

import threading
import time
from importlib.metadata import PackageNotFoundError, version
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from sqlalchemy.exc import SQLAlchemyError

import fixlore
from fixlore.core.errors import ConfigError, FixloreError
from fixlore.core.model import Case, IssueText, pull_label
from fixlore.retrieval.base import DOC_KINDS, KnowledgeBase, case_doc
from fixlore.serve import citations, views
from fixlore.serve.limits import MAX_K, relevant
from fixlore.serve.shared import Memo

CASE_INDEX = "cases-index"


def package_version() -> str:
    """fixlore's version, as the HTTP API and the MCP server announce it."""
    try:
        return version("fixlore")
    except PackageNotFoundError:
        return fixlore.__version__


class NotFound(FixloreError):
    """A key or a name this knowledge base does not hold (HTTP 404, a tool error in MCP)."""
    exit_code = 3


class UnknownCase(NotFound):
    pass


class UnknownRepo(NotFound):
    pass


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
    started = time.monotonic()
    with KnowledgeBase.open(index_dir, embedder=embedder) as kb:
        stats = kb.ingest_cases(pool, progress=progress, prune=True,
                                text_of=lambda c: views.search_text(c, texts.get((c.repo, c.number))))
        # A case's related cases are a search with its own words: that query's vector is
        # computed here, once, instead of on every first ask (issue #26).
        queries = kb.store_query_vectors(
            (views.related_query(c, views.report_gist(texts[(c.repo, c.number)]) if (c.repo, c.number) in texts
                                 else {}) for c in pool), progress=progress)
    return {"index": str(index_dir), "cases": stats.seen, "added": stats.added, "updated": stats.updated,
            "unchanged": stats.unchanged, "removed": stats.removed, "query_vectors": queries,
            "seconds": round(time.monotonic() - started, 2)}


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
    look: views.Lookups = field(default_factory=views.Lookups)   # fix PRs' own words, document links
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _memo: Memo = field(default_factory=lambda: Memo())
    _shared: Any = None                                          # SharedAnswers of a server's processes

    def __post_init__(self) -> None:
        self._doc_keys = {case_doc(c): key for key, c in self.cases.items()}     # case document -> key
        self._pool = {key for key, c in self.cases.items() if c.funnel in views.POOL_STAGES}   # searchable

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
            pulls = store.pull_texts({(f.repo, f.number) for c in cases for f in c.fix + c.pending_fix})
            pages = {name.lower(): page for name, page in store.repo_pages().items()}
            doc_index = KnowledgeBase.open(where.docs, create=False) if where.docs else None
            embedder = doc_index.embedder if doc_index else None
            if not (where.cases / "kb.sqlite").is_file():
                index_cases(store, cases, where.cases, embedder=embedder, progress=progress, texts=texts)
            case_index = KnowledgeBase.open(where.cases, embedder=embedder, create=False)
            # A served question is embedded once per process (the answers' memo keeps it). The
            # disk cache is for a run's passages: a lookup and a write per first-time question
            # took a search from ~6 to ~23 ms, and the server's processes queued on its lock
            # (bench/serve.py, 35k cases).
            for index in (case_index, doc_index):
                if index is not None:
                    index.embedder.keep_on_disk = False
            published = _editions_of(store)
        except BaseException:
            if doc_index is not None:
                doc_index.close()
            raise
        finally:
            store.close()
        origins = citations.origins_of(doc_index.db.execute(
            "SELECT doc, origin FROM sources WHERE kind != 'case'").fetchall()) if doc_index else {}
        look = views.Lookups(pulls=pulls, doc_link=lambda doc, chunk: citations.doc_link(doc, chunk, pages, origins))
        k = cls(cases={c.key: c for c in cases}, case_index=case_index, doc_index=doc_index, where=where, look=look,
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

    def forget(self) -> None:
        """Drop this process's memoised index answers (benchmarks time the searches themselves;
        answers shared with other processes, `share_answers`, stay shared)."""
        self._memo = Memo(shared=self._shared)

    def share_answers(self, shared: Any) -> None:
        """Memoise case rankings in `shared` too (`fixlore.serve.shared.SharedAnswers`): the
        processes of one server answer a question any of them answered before from the memo."""
        self._shared = shared
        self._memo = Memo(shared=shared)

    def warm(self) -> None:
        """Load the indexes' shared parts now (before forking server processes)."""
        for index in (self.case_index, self.doc_index):
            if index is not None:
                index.warm()
        self.stats()

    def one_thread(self) -> None:
        """Searches on the calling thread alone (`KnowledgeBase.one_thread`): for a server whose
        processes take every core."""
        for index in (self.case_index, self.doc_index):
            if index is not None:
                index.one_thread()

    def after_fork(self) -> None:
        """In a forked server process: connections and locks of its own."""
        for index in (self.case_index, self.doc_index):
            if index is not None:
                index.after_fork()
        self._lock = threading.Lock()
        if self._shared is not None:
            self._shared.after_fork()
        self._memo = Memo(shared=self._shared)

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
        return {**views.evidence_chain(case, self.look), "editions": self.editions.get(case.key, [])}

    def fix_status(self, key: str) -> dict[str, Any]:
        case = self.case(key)
        return {**views.fix_status(case, self.look), "editions": self.editions.get(case.key, [])}

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
        """Cases whose report or analysis matches a symptom, best first by `score` (one entry
        per case), only those past the relevance cut-off (`limits.relevant`): an empty list
        means nothing matched."""
        symptom = _query(symptom)
        k = check_k(k)
        prefix = f"cases/{self.repo(repo)}/" if repo else None
        return [self._card(key, score) for key, score in self._nearest_cases(symptom, k, prefix)[:k]]

    def repo(self, name: str) -> str:
        """The repository as the store spells it; UnknownRepo names the ones served."""
        canonical = self._repos.get((name or "").strip().lower())
        if canonical is None:
            known = sorted({c.repo for c in pool_cases(self.cases.values())})
            shown = ", ".join(known[:10]) + (f" and {len(known) - 10} more" if len(known) > 10 else "")
            raise UnknownRepo(f"{name!r} is not a repository of this knowledge base (OWNER/REPO, one of: {shown})")
        return canonical

    def related_cases(self, key: str, k: int = 5) -> list[dict[str, Any]]:
        """Cases tied to this one, each with `why` (the tie that lists it) and `score` (how
        similar the two reports are: the search score, 0..1).

        Ties, strongest first: fixed by the same PR; of the same theme; a similar report. A
        case of the same theme or with a similar report is listed only past the relevance
        cut-off (`limits.relevant`). Within a tie, by score."""
        case = self.case(key)
        k = check_k(k)
        text = views.related_query(case, self._gists.get(case.key, {}))
        similar = dict(self._nearest_cases(text, want=MAX_K)) if text else {}
        tiers: list[list[tuple[str, str, float]]] = [[], [], []]
        seen = {case.key}
        for f in case.fix:
            label = pull_label((f.repo, f.number), case.repo, case.platform)
            for other in self._by_pr.get((f.repo, f.number), []):
                if other not in seen and self._servable(other):
                    seen.add(other)
                    score = similar.get(other)
                    if score is None:          # below the similar ones: its own score, not a guess
                        score = self._similarity(text, other) if text else 0.0
                    tiers[0].append((other, f"the same fix {label}", score))
        for other, score in similar.items():
            if other in seen or not self._servable(other):
                continue
            same_theme = case.theme and self.cases[other].theme == case.theme
            tiers[1 if same_theme else 2].append(
                (other, f"the same theme {case.theme}" if same_theme else "similar report", score))
            seen.add(other)
        ranked = [entry for tier in tiers for entry in sorted(tier, key=lambda t: (-t[2], t[0]))][:k]
        return [{**self._card(other, score), "why": why} for other, why, score in ranked]

    def search_docs(self, query: str, k: int = 5) -> list[dict[str, Any]]:
        """Document and code passages, best first by `score`; `cited` marks a score at or above
        the calibrated threshold; `url` / `path`: where the file can be read."""
        query = _query(query)
        k = check_k(k)
        if self.doc_index is None:
            return []
        hits = self._memo.get(("docs", query, k), lambda: self._locked(self.doc_index.best, query, k=k, kind=DOC_KINDS))
        threshold = self._memo.get(("threshold",), lambda: self._locked(self.doc_index.threshold))
        out = []
        for p in hits:
            row = p.to_dict()
            row.update({name: value for name, value in self.look.doc_link(p.doc, p.chunk).items()
                        if name in ("url", "ref", "path")})
            row["cited"] = p.score >= threshold
            row["cited_by"] = self._cited_by.get(p.doc, [])
            out.append(row)
        return out

    def _locked(self, call: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        with self._lock:
            return call(*args, **kw)

    def _card(self, key: str, score: float | None) -> dict[str, Any]:
        return views.card(self.cases[key], score, self._gists.get(key), self.look)

    def _servable(self, key: str) -> bool:
        return key in self._pool

    def _similarity(self, text: str, key: str) -> float:
        """The score of one case's best passage for `text` (0 when it has none)."""
        nearest = self._nearest_cases(text, want=1, doc_prefix=f"cases/{key.replace('#', '/')}", cut=False)
        return dict(nearest).get(key, 0.0)

    def _nearest_cases(self, text: str, want: int, doc_prefix: str | None = None,
                       cut: bool = True) -> list[tuple[str, float]]:
        """Case keys by their best passage's score (a long case has several), best first;
        with `cut`, only passages past the relevance cut-off count."""
        k = min(MAX_K * 4, max(want * 3, 10))

        def ranked() -> list[tuple[str, float]]:
            hits = self._locked(self.case_index.best, text, k=k, kind="case", doc_prefix=doc_prefix, with_text=False)
            best: dict[str, float] = {}
            keys = self._doc_keys
            for p in hits:
                key = keys.get(p.doc)
                if key is not None and p.score > best.get(key, -1.0) and (not cut or relevant(p.cosine, p.coverage)):
                    best[key] = p.score
            return sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))

        return self._memo.get(("cases", text, k, doc_prefix, cut), ranked, shared=True)


def _editions_of(store: Any) -> dict[str, list[dict[str, Any]]]:
    """The digest editions each case appeared in (a store from before the series ledger has none)."""
    from fixlore.store.ledger import Ledger

    try:
        return Ledger(store).all_appearances()
    except SQLAlchemyError:
        return {}


def _query(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise ValueError("the query is empty: describe the symptom (an error message, what you did)")
    return text[:2000]


def check_k(k: int) -> int:
    """How many results: 1..MAX_K, or a ValueError (never silently cut, as the HTTP API's 422)."""
    if not 1 <= int(k) <= MAX_K:
        raise ValueError(f"k must be between 1 and {MAX_K}, not {k}")
    return int(k)
