"""What an unreadable part of one issue or PR costs, and what may still be concluded without it.

Failure is per item, never per repository: when one detail endpoint keeps failing, only the item
it belongs to loses that part; the harvester names it (`Unread`), the store keeps it until a later
run reads it, and every later stage asks this module what the gap allows.

The items and their parts (one detail endpoint each; the platform's name in brackets):

- an issue: ``comments``; ``events`` (GitCode's operation log, GitHub's timeline); ``links``
  (GitCode's list of the issue's linked PRs); ``closing_refs`` (GitHub's Development sidebar, read
  through GraphQL when a token allows it);
- a PR: ``pull`` (the PR itself, asked on its own when the repo's PR list did not carry it);
  ``files``; ``commits``; ``links`` (GitCode's list of the issues a PR names); ``events`` (its
  operation log); ``comments`` (GitCode's PR comments with their replies; GitHub's conversation
  and review comments).

One list is shared by every issue of a repository: the repo's PR list (``pull_list``), whose
titles, bodies and branch names are where most fixes name their issue. When it cannot be read,
the repo's failure is recorded as such and every issue of the repo carries the gap.

What stands and what does not:

- A merged fix the linker found stands: merged is decided by state + merged_at, which come with
  the PR list, and a missing part could add evidence or a trap, never take the merge away.
- Every part but ``files`` and a PR's ``comments`` may be where the fix is named (a comment
  citing the PR, a link in the log, a commit saying "fixes #N", the PR's own state). Without a merged fix, such a gap leaves
  the fix question open: the case says "fix unknown: comments unreadable", never "no fix" and
  never "no fix evidence", and the analysis does not keep or drop it on grounds it could not check.
- A PR's ``comments`` are where reviewers and the author say what the change does and how it was
  tested (a row's facts); the linker names no fix from them, so their gap leaves no fix question
  open, but the case still carries it.
- ``closing_refs`` is asked for again next run, but its gap alone leaves no fix question open: a
  run without a token never asks for it, and a PR linked by hand in the sidebar also shows in the
  timeline (``connected``), which is ``events``.
- A PR's ``files`` are what shows a linked change unrelated to the issue: unread, that is not
  judged (the platform link stands as a link), and the case says so.

A case carries its gaps as labels, ``issues/104/comments`` or ``pulls/61/files`` (another
repository's PR as ``owner/name/pulls/61/files``), the same style as evidence sources.
"""

from __future__ import annotations

from dataclasses import dataclass

ISSUE, PULL, REPO = "issue", "pull", "repo"
COMMENTS, EVENTS, LINKS, PULL_ITSELF, FILES, COMMITS = "comments", "events", "links", "pull", "files", "commits"
CLOSING_REFS = "closing_refs"
PULL_LIST = "pull_list"
PARTS = {ISSUE: (COMMENTS, EVENTS, LINKS, CLOSING_REFS), PULL: (PULL_ITSELF, FILES, COMMITS, LINKS, EVENTS, COMMENTS),
         REPO: (PULL_LIST,)}
# Parts where a fix may be named: without them, "no fix" is not a conclusion.
NAMES_A_FIX = {ISSUE: frozenset({COMMENTS, EVENTS, LINKS}), PULL: frozenset({PULL_ITSELF, COMMITS, LINKS, EVENTS}),
               REPO: frozenset({PULL_LIST})}
# Parts an "unrelated change" judgement reads.
SHOWS_THE_CHANGE = frozenset({FILES})
_PLURAL = {ISSUE: "issues", PULL: "pulls"}
_KIND_OF = {v: k for k, v in _PLURAL.items()}


@dataclass(frozen=True, slots=True)
class Unread:
    """One part of one item that could not be read."""
    kind: str            # ISSUE | PULL | REPO (number 0: the repo's PR list)
    repo: str
    number: int
    part: str

    def label(self, home: str = "") -> str:
        """``issues/104/comments``, ``pulls`` for the repo's PR list; with ``owner/name/`` in front
        when the item is not in ``home``."""
        where = "" if self.repo == home else f"{self.repo}/"
        if self.kind == REPO:
            return f"{where}pulls"
        return f"{where}{_PLURAL[self.kind]}/{self.number}/{self.part}"


def parse_label(label: str, home: str = "") -> Unread | None:
    """The `Unread` a case's label names (None for a label this version does not know)."""
    bits = label.strip("/").split("/")
    if bits[-1] == "pulls" and len(bits) in (1, 3):
        return Unread(REPO, "/".join(bits[:2]) if len(bits) == 3 else home, 0, PULL_LIST)
    if len(bits) == 5:
        repo, bits = f"{bits[0]}/{bits[1]}", bits[2:]
    elif len(bits) == 3:
        repo = home
    else:
        return None
    plural, number, part = bits
    kind = _KIND_OF.get(plural)
    if kind is None or not number.isdigit() or part not in PARTS[kind]:
        return None
    return Unread(kind, repo, int(number), part)


def case_gaps(issue_parts: list[str] | tuple[str, ...], pulls: dict[tuple[str, int], list[str]],
              repo: str, number: int) -> list[str]:
    """A case's labels: its issue's unread parts (``pull_list`` among them when its repo's PR list
    was unread), then those of the PRs the linker considered."""
    out = [Unread(ISSUE, repo, number, p).label(repo) for p in PARTS[ISSUE] if p in issue_parts]
    if PULL_LIST in issue_parts:
        out.append(Unread(REPO, repo, 0, PULL_LIST).label(repo))
    for (prepo, pnumber), parts in sorted(pulls.items()):
        out += [Unread(PULL, prepo, pnumber, p).label(repo) for p in PARTS[PULL] if p in parts]
    return out


def _short(u: Unread, label: str) -> str:
    if u.kind == REPO:
        return "the PR list"
    return u.part if u.kind == ISSUE else label.rsplit("/", 1)[0] + f" {u.part}"


def fix_unknown(labels: list[str], has_landed_fix: bool) -> str:
    """``"fix unknown: comments unreadable"`` when the gaps leave the fix question open (no merged
    fix found and a part that may name one unread), else ""."""
    if has_landed_fix:
        return ""
    open_ = [_short(u, lb) for lb in labels if (u := parse_label(lb)) is not None and u.part in NAMES_A_FIX[u.kind]]
    return f"fix unknown: {', '.join(open_)} unreadable" if open_ else ""


def unjudged(labels: list[str]) -> list[str]:
    """The PRs (``pulls/61``) whose files were unread, so that whether a change linked to the issue
    is unrelated was not judged."""
    return [lb.rsplit("/", 1)[0] for lb in labels
            if (u := parse_label(lb)) is not None and u.kind == PULL and u.part in SHOWS_THE_CHANGE]
