"""A fix with no textual reference: the merge that changed the files the issue names.

Maintainers often close a report with "fixed on main" / "已在主干修复" and no PR number: the
change was made for another reason, or by someone who never saw the issue. The only evidence
is then what the change touched. The rule is written to be conservative, and it runs only
where no reference of any kind names a PR for the issue (no candidate at all), so it never
overrules a textual reference:

- the issue's title or body names files: a repository path (`vllm/worker/model_runner.py`), a
  file name with a source extension, a traceback's `File ".../pkg/mod.py"`, or a dotted module
  of three or more parts (`vllm.worker.model_runner`, read as `vllm/worker/model_runner.py`);
  generic names (`__init__.py`, `setup.py`, `utils.py`, `README.md`, …) are not read;
- someone other than the reporter (not a bot) says, after the merge and up to the close plus
  `NOTE_AFTER_CLOSE_S`, that it is fixed, in a sentence naming no PR or issue;
- the merge went into the repository's default branch, no more than `WINDOW_S` before the close,
  and is the **nearest** such merge before the close that changes one of the named files; it
  names no issue with a closing keyword (it would be that issue's fix).

Its strength is the weakest the linker knows (`link.strength`): below a keyword, a branch name,
a platform link and any two medium signals. `WINDOW_S` (3 days) and `NOTE_AFTER_CLOSE_S`
(1 hour) are judgements of "shortly before" and "the closing note", fitted on no world.
"""

from __future__ import annotations

import re
from datetime import timedelta

from fixlore.core.model import Issue, Pull
from fixlore.link.index import CorpusIndex
from fixlore.rules.bots import is_bot
from fixlore.rules.refs import find_refs

WINDOW_S = 3 * 86400
NOTE_AFTER_CLOSE_S = 3600

_EXT = r"(?:py|pyi|pyx|c|cc|cpp|cxx|h|hpp|cu|cuh|go|rs|java|kt|scala|js|ts|tsx|jsx|rb|php|sh|cmake|proto|yaml|yml|toml)"
_PATH = re.compile(rf"(?<![\w/.-])/?((?:[\w.-]+/)*[\w-][\w.-]*\.{_EXT})(?![\w])")
_MODULE = re.compile(r"(?<![\w./])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,})(?![\w(])")
_GENERIC = frozenset({"__init__.py", "setup.py", "utils.py", "util.py", "main.py", "test.py", "config.py",
                      "common.py", "base.py", "conftest.py", "index.js", "index.ts", "main.go", "main.c",
                      "main.cpp", "cmakelists.txt", "build.sh", "run.sh", "requirements.txt"})
_FIXED_NOTE = re.compile(
    r"\b(?:(?:is|been|was|got|now)\s+)?(?:fixed|resolved|solved)\b|已(?:经)?(?:在\S{0,8})?(?:修复|解决|修好)|"
    r"修复了|解决了|已合入|主干(?:已|上)?修复|works now|should work now", re.IGNORECASE)
_MODULE_NOISE = re.compile(r"^(?:www|http|https|com|org|e\.g|i\.e)\b|\.(?:com|org|net|io|html?)$", re.IGNORECASE)


def named_files(text: str) -> set[str]:
    """The paths a report names, lower-cased, as written (a module read as its .py path)."""
    out: set[str] = set()
    for m in _PATH.finditer(text):
        path = m.group(1).lower().lstrip("./")
        if path.rsplit("/", 1)[-1] not in _GENERIC:
            out.add(path)
    for m in _MODULE.finditer(text):
        mod = m.group(1)
        if _MODULE_NOISE.search(mod) or re.search(r"\.\d", mod):
            continue
        out.add(mod.lower().replace(".", "/") + ".py")
    return out


def _touches(named: set[str], filename: str) -> bool:
    f = filename.lower()
    base = f.rsplit("/", 1)[-1]
    for q in named:
        if f == q or q.endswith("/" + f) or f.endswith("/" + q):
            return True
        if "/" not in q and q == base:
            return True
    return False


def closes_an_issue(p: Pull, idx: CorpusIndex) -> bool:
    """The PR names some issue with a closing keyword: it is that issue's fix, not a change found
    by what it touched or quoted."""
    return any(m.ref.keyword for m in idx.pull_issue_refs.get((p.repo, p.number), [])) or any(
        r.keyword for r in find_refs(f"{p.title or ''}\n{p.body or ''}", p.repo, p.platform))


def fixed_note(issue: Issue, idx: CorpusIndex, after, until) -> str:
    """The sentence of someone other than the reporter saying it is fixed, naming no PR or issue, or ""."""
    for c in idx.issue_comments.get((issue.repo, issue.number), []):
        if not c.author or c.author == issue.author or is_bot(c.author) or c.created_at is None:
            continue
        if not (after <= c.created_at <= until):
            continue
        body = c.body or ""
        m = _FIXED_NOTE.search(body)
        if m and not find_refs(body, issue.repo, issue.platform):
            return " ".join(body.split())[:120]
    return ""


def files_fix(issue: Issue, idx: CorpusIndex) -> tuple[Pull, str] | None:
    """The merge this rule names as the fix, with what shows it; None when any condition fails."""
    close = issue.closed_at
    if close is None or issue.state != "closed":
        return None
    named = named_files(f"{issue.title or ''}\n{issue.body or ''}")
    if not named:
        return None
    merged = [p for p in idx.merged_between(issue.repo, close - timedelta(seconds=WINDOW_S), close)
              if idx.is_default_branch(p.repo, p.base_ref)]
    for p in sorted(merged, key=lambda p: p.merged_at, reverse=True):
        touched = sorted(f.filename for f in idx.files.get((p.repo, p.number), []) if _touches(named, f.filename))
        if not touched:
            continue
        if closes_an_issue(p, idx):
            return None
        note = fixed_note(issue, idx, p.merged_at, close + timedelta(seconds=NOTE_AFTER_CLOSE_S))
        if not note:
            return None
        lag = int((close - p.merged_at).total_seconds())
        return p, (f"no reference names a PR; the nearest merge into {p.base_ref or 'the default branch'} "
                   f"before the close ({lag}s) changes {', '.join(touched[:3])}, which the issue names; "
                   f"closing note: '{note}'")
    return None
