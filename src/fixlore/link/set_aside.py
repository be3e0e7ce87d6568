"""PRs that name an issue and still are not its fix: a revert, and a stopgap the thread calls one.

- A revert undoes a change. GitHub titles it `Revert "<the reverted PR's title>"` and writes
  "Reverts owner/repo#N" as its body; `git revert` writes "This reverts commit <sha>." So the
  reverted PR's "[Fix] #179 …" is quoted in the revert's title, and the issue is named by a PR
  that takes its fix out. A revert of a revert (`Revert "Revert …"`) lands the change again.
- A stopgap: the issue thread itself calls the PR a workaround for now ("Work around this error
  for now: …/pull/5101", "临时规避见 !12"). While another merged PR claims the issue in its own
  text, the stopgap is not the fix; alone, it is all there is and stays a candidate.

Both read off npu-threads' fourth held-out batch (tilelang-ascend #288, FlagGems #5101), which
had been measured before: that batch is no longer held out for these two rules.
"""

from __future__ import annotations

import re

from fixlore.core.model import Pull
from fixlore.rules.refs import revert_note

_REVERT_TITLE = re.compile(r'^\s*(?:\[[^\]]*\]\s*)*revert\s*[:("“\']', re.IGNORECASE)
_REVERT_OF_REVERT = re.compile(r'^\s*(?:\[[^\]]*\]\s*)*revert\s*[:("“\']+\s*revert\b', re.IGNORECASE)

# the thread calling a change a stopgap: a workaround, for now, temporary
_STOPGAP = re.compile(r"work\s?-?around|for now|temporar(?:y|ily)|stop-?gap|quick fix|hot-?patch|"
                      r"临时|暂时|规避|绕过|先这样|权宜", re.IGNORECASE)


def revert_of(pull: Pull) -> str:
    """Why `pull` is a revert ("" when it is not, or when it reverts a revert)."""
    title = pull.title or ""
    if _REVERT_OF_REVERT.search(title):
        return ""
    if _REVERT_TITLE.search(title):
        return f"a revert ('{' '.join(title.split())[:80]}'): it takes a change out"
    note = revert_note(pull.body or "")
    return f"a revert ('{note.strip()[:60]}'): it takes a change out" if note else ""


def called_stopgap(sentence: str) -> bool:
    """The sentence naming a PR calls it a stopgap."""
    return bool(_STOPGAP.search(sentence or ""))
