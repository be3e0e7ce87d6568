"""The editor's corrections (docs/series.md "Overrides"): what an overrides file says per case,
checked whole, and how each stage applies it to the run's cases.

The file (YAML, read by `fixlore.settings.overrides`)::

    version: 1
    cases:
      owner/repo#12: {drop: "a duplicate of #9, nothing to learn"}
      owner/repo#15: {keep: "the one clear answer on HCCL timeouts", theme: "通信超时"}
      owner/repo#18: {fix: 31}                 # the fix is PR 31 (or "other/repo#31", or a list)
      owner/repo#20: {not_fix: [44]}           # PR 44 is not this case's fix

Where each applies: ``fix`` / ``not_fix`` after the link stage built the cases, ``keep`` /
``drop`` at the top-K cut (a kept case is analysed, a dropped one is not) and again at the
analysis' keep (the analyst's verdict yields to the editor's), ``theme`` at compose. Every
change made is recorded on the case (`Case.overrides`: kind, what, the file) and counted
for run.json and the digest's disclosure; an entry whose case the run does not hold is
reported, not fatal (the editor may be a window ahead of the run).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from fixlore.core.enums import FunnelStage, Timing
from fixlore.core.errors import ConfigError
from fixlore.core.model import Case, FixRef

VERSION = 1
KINDS = ("keep", "drop", "fix", "not_fix", "theme")
EDITOR_DROP = "editor"                     # the drop reason of a case the editor dropped
_POOL = (FunnelStage.RANK, FunnelStage.SELECTED, FunnelStage.ANALYSIS)


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and not text.startswith("0") else None


def split_key(text: str) -> tuple[str, int] | None:
    """"owner/repo#12" as (repo, number); None for anything else (an editor's key is typed
    whole: no URL or short form here, those are rules.refs' business in issue text)."""
    repo, sep, number = text.rpartition("#")
    owner, slash, name = repo.partition("/")
    n = _number(number)
    if not sep or not slash or n is None or not owner or not name or "/" in name or "#" in repo \
            or any(ch.isspace() for ch in repo):
        return None
    return repo, n

PullRef = tuple[str, int]


@dataclass(frozen=True, slots=True)
class CaseOverride:
    key: str
    keep: str = ""                 # the reason, when the editor keeps the case
    drop: str = ""                 # the reason, when the editor drops it
    fix: tuple[PullRef, ...] = ()
    not_fix: tuple[PullRef, ...] = ()
    theme: str = ""


@dataclass(frozen=True, slots=True)
class Overrides:
    source: str                                   # the file, as given
    cases: dict[str, CaseOverride] = field(default_factory=dict)

    def keys_of(self, kind: str) -> set[str]:
        return {k for k, o in self.cases.items() if getattr(o, kind)}


def _pull(value: Any, repo: str, where: str) -> PullRef:
    if isinstance(value, bool):
        raise ConfigError(f"{where}: a PR is a number or OWNER/REPO#N, not {value!r}")
    if isinstance(value, int):
        if value < 1:
            raise ConfigError(f"{where}: a PR number is positive, not {value}")
        return repo, value
    text = str(value).strip()
    if (n := _number(text.removeprefix("#"))) is not None:
        return repo, n
    if (named := split_key(text)) is not None:
        return named
    raise ConfigError(f"{where}: a PR is a number or OWNER/REPO#N, not {text[:60]!r}")


def _pulls(value: Any, repo: str, where: str) -> tuple[PullRef, ...]:
    items = value if isinstance(value, list) else [value]
    if not items:
        raise ConfigError(f"{where}: names no PR")
    return tuple(_pull(v, repo, where) for v in items)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: give a reason (a non-empty text)")
    return value.strip()


def parse_overrides(data: Mapping[str, Any], source: str) -> Overrides:
    """The overrides a file's mapping holds; the first bad entry is one ConfigError naming it."""
    version = data.get("version")
    if version != VERSION:
        raise ConfigError(f"overrides {source}: version must be {VERSION} (got {version!r})")
    unknown = sorted(set(data) - {"version", "cases"})
    if unknown:
        raise ConfigError(f"overrides {source}: unknown top-level key {unknown[0]!r} (version, cases)")
    cases = data.get("cases") or {}
    if not isinstance(cases, dict):
        raise ConfigError(f"overrides {source}: cases must be a mapping of OWNER/REPO#N to corrections")
    out: dict[str, CaseOverride] = {}
    for key, entry in cases.items():
        where = f"overrides {source}: {str(key)[:80]}"
        if not isinstance(key, str) or split_key(key.strip()) is None:
            raise ConfigError(f"{where}: a case key is OWNER/REPO#N")
        key = key.strip()
        if not isinstance(entry, dict) or not entry:
            raise ConfigError(f"{where}: give one or more of {', '.join(KINDS)}")
        bad = sorted(str(k) for k in entry if k not in KINDS)
        if bad:
            raise ConfigError(f"{where}: unknown correction {bad[0]!r} (one of {', '.join(KINDS)})")
        if "keep" in entry and "drop" in entry:
            raise ConfigError(f"{where}: keep and drop together")
        repo = key.rsplit("#", 1)[0]
        o = CaseOverride(
            key=key,
            keep=_text(entry["keep"], f"{where}: keep") if "keep" in entry else "",
            drop=_text(entry["drop"], f"{where}: drop") if "drop" in entry else "",
            fix=_pulls(entry["fix"], repo, f"{where}: fix") if "fix" in entry else (),
            not_fix=_pulls(entry["not_fix"], repo, f"{where}: not_fix") if "not_fix" in entry else (),
            theme=_text(entry["theme"], f"{where}: theme") if "theme" in entry else "",
        )
        if set(o.fix) & set(o.not_fix):
            raise ConfigError(f"{where}: the same PR under fix and not_fix")
        out[key] = o
    return Overrides(source=source, cases=out)


def _record(case: Case, kind: str, what: str, source: str, applied: list[dict[str, str]]) -> None:
    row = {"kind": kind, "what": what, "source": source}
    if row not in case.overrides:
        case.overrides.append(row)
    applied.append({"case": case.key, **row})


def _pr(ref: PullRef, repo: str) -> str:
    return f"#{ref[1]}" if ref[0] == repo else f"{ref[0]}#{ref[1]}"


def apply_links(cases: Iterable[Case], ov: Overrides, pull: Callable[[str, int], FixRef | None]) -> list[dict[str, str]]:
    """``fix`` and ``not_fix``: the fix set the editor names (``pull(repo, n)`` is the corpus'
    PR as a FixRef, None when the harvest did not see it); a named PR that did not merge is a
    pending fix. A case left with no fix at all times as no fix; otherwise the link stage's
    timing stands (the record on the case says it was worked out before the correction)."""
    applied: list[dict[str, str]] = []
    for case in cases:
        o = ov.cases.get(case.key)
        if o is None or not (o.fix or o.not_fix):
            continue
        if o.not_fix:
            gone = set(o.not_fix)
            case.fix = [f for f in case.fix if (f.repo, f.number) not in gone]
            case.pending_fix = [f for f in case.pending_fix if (f.repo, f.number) not in gone]
            _record(case, "not_fix", ", ".join(_pr(r, case.repo) for r in o.not_fix), ov.source, applied)
        if o.fix:
            named = []
            for repo, number in o.fix:
                ref = pull(repo, number) or FixRef(repo=repo, number=number, role="fix")
                named.append(FixRef(repo=ref.repo, number=ref.number, role="fix", state=ref.state,
                                    merged_at=ref.merged_at, url=ref.url, base_ref=ref.base_ref))
            keep_backports = [f for f in case.fix if f.role == "backport" and (f.repo, f.number) not in set(o.fix)]
            case.fix = [f for f in named if f.merged] + keep_backports
            case.pending_fix = [f for f in named if not f.merged]
            _record(case, "fix", ", ".join(_pr(r, case.repo) for r in o.fix), ov.source, applied)
        _agree(case, set(o.not_fix), {(f.repo, f.number): f.merged for f in [*case.fix, *case.pending_fix]
                                      if (f.repo, f.number) in set(o.fix)})
        if not case.fix and not case.pending_fix:
            case.timing, case.lag_s = Timing.NO_FIX, None
    return applied


def _agree(case: Case, gone: set[tuple[str, int]], fixes: dict[tuple[str, int], bool]) -> None:
    """The case's candidate rows say what the corrected fix set says: a PR the editors set aside is
    no longer a `fix` candidate (rules.credit reads the rows: the editorial check would otherwise
    count it merged), a PR they named is the fix, or the pending fix when it did not merge."""
    for cand in case.candidates:
        key = (cand.get("repo"), cand.get("number"))
        if key in gone:
            cand["verdict"], cand["set_aside"] = "set_aside", "the editors' correction: not this issue's fix"
        elif key in fixes:
            cand["verdict"] = "fix" if fixes[key] else "pending"


def apply_cut(cases: Iterable[Case], ov: Overrides) -> list[dict[str, str]]:
    """``keep`` / ``drop`` at the top-K cut: a kept pool case is analysed, a dropped one waits."""
    applied: list[dict[str, str]] = []
    for case in cases:
        o = ov.cases.get(case.key)
        if o is None or case.funnel not in _POOL:
            continue
        if o.keep and case.funnel == FunnelStage.RANK:
            case.funnel, case.provisional = FunnelStage.SELECTED, True
            _record(case, "keep", o.keep, ov.source, applied)
        elif o.drop and case.funnel == FunnelStage.SELECTED and case.provisional:
            case.funnel, case.provisional = FunnelStage.RANK, False
            _record(case, "drop", o.drop, ov.source, applied)
    return applied


def apply_keep(cases: Iterable[Case], ov: Overrides) -> list[dict[str, str]]:
    """``keep`` / ``drop`` over the analysis' verdict."""
    applied: list[dict[str, str]] = []
    for case in cases:
        o = ov.cases.get(case.key)
        if o is None:
            continue
        if o.keep and case.funnel == FunnelStage.ANALYSIS:
            case.funnel, case.drop_reason = FunnelStage.SELECTED, ""
            _record(case, "keep", o.keep, ov.source, applied)
        elif o.drop and case.funnel == FunnelStage.SELECTED:
            case.funnel, case.drop_reason = FunnelStage.ANALYSIS, EDITOR_DROP
            _record(case, "drop", o.drop, ov.source, applied)
    return applied


def apply_themes(cases: Iterable[Case], ov: Overrides) -> list[dict[str, str]]:
    """``theme``: the digest files the case under the editor's theme."""
    applied: list[dict[str, str]] = []
    for case in cases:
        o = ov.cases.get(case.key)
        if o is not None and o.theme and case.theme != o.theme:
            case.theme = o.theme
            _record(case, "theme", o.theme, ov.source, applied)
    return applied


def note_plan(cases: Iterable[Case], ov: Overrides, analysed: Iterable[str],
              without: Iterable[str]) -> list[dict[str, str]]:
    """A series' plan honours keep / drop (`fixlore.series.plan`): the cases its choice of
    ``analysed`` moved against the choice ``without`` the editors carry the record too, once."""
    chosen, plain = set(analysed), set(without)
    applied: list[dict[str, str]] = []
    for case in cases:
        o = ov.cases.get(case.key)
        if o is None:
            continue
        kind = "keep" if o.keep and case.key in chosen - plain else "drop" if o.drop and case.key in plain - chosen else ""
        if kind and not any(r["kind"] == kind for r in case.overrides):
            _record(case, kind, o.keep or o.drop, ov.source, applied)
    return applied


def unknown_keys(ov: Overrides, cases: Iterable[Case]) -> list[str]:
    """The entries whose case the run does not hold."""
    held = {c.key for c in cases}
    return sorted(k for k in ov.cases if k not in held)


def tally(applied: Iterable[Mapping[str, str]]) -> dict[str, int]:
    """How many changes of each kind (the order of `KINDS`)."""
    n = Counter(a["kind"] for a in applied)
    return {k: n[k] for k in KINDS if n[k]}
