"""Which evidence made a candidate's verdict, and how strong it is: what `fixlore explain` shows.

The order is the linker's own (`link.verdict.decide`), strongest first:

| strength | made by |
|---|---|
| `strong` | one signal that settles a candidate alone: a closing keyword or issue URL (`keyword`), the source branch (`branch_name`), a closing commit (`commit_close`), a platform link the unrelated test does not refute (`linked`) |
| `cited` | an issue comment pointing at the PR as where the change is ("已在 !802 修复", "see !N") |
| `medium` | two independent medium signals (`mention`, `cross_ref`, `comment`, `timing`) |
| `timing` | a merge just before the close and nothing else (the timing-only candidate) |
| `files` | no reference at all: the nearest default-branch merge before a "fixed" close changes the files the issue names (`link.named_files`); the weakest, and it never stands beside a textual reference |
| `quoted` | no reference at all: the reporter's own merged PR repeats the report's command line or log (`link.quoted_fix`); as weak as `files` |
| `follow-up` | a PR that calls itself the follow-up of a fix of the issue: role, not a fix |
| `weak` | one medium signal: not enough |
| `withheld` | only clauses that name the PR and withhold credit ("is this fixed by #12?", "not fixed by #12", "caused by #12"): no evidence |
| `refuted` | positive contrary evidence (unrelated, set aside: a revert, a stopgap) |

It reads a candidate's exported row (`conclude.candidate_row`), so it explains saved cases too.
"""

from __future__ import annotations

from typing import Any

from fixlore.link.candidates import MEDIUM, STRONG, TRAIL

_FIX_LIKE = frozenset({"fix", "backport", "after_close", "pending"})


def made_by(row: dict[str, Any]) -> tuple[str, str]:
    """(strength, the evidence kinds that made it) for one candidate row."""
    signals = [s for s in row.get("signals", []) if s["kind"] not in TRAIL]   # no evidence: shown, not counted
    kinds = [s["kind"] for s in signals]
    if row.get("unrelated"):
        return "refuted", "unrelated: " + str(row["unrelated"])[:80]
    if row.get("set_aside"):
        return "refuted", "set aside: " + str(row["set_aside"])[:80]
    strong = [k for k in dict.fromkeys(kinds) if k in STRONG or k == "linked"]
    if strong:
        return "strong", " + ".join(strong)
    if any(s["kind"] == "comment" and (s.get("claim") or s.get("cite")) for s in signals):
        return "cited", "comment"
    medium = [k for k in dict.fromkeys(kinds) if k in MEDIUM]
    if len(medium) >= 2:
        return "medium", " + ".join(medium)
    # a rule's candidate merged just before the close keeps its rule's name: the timing is a detail
    if "quoted" in kinds:
        return "quoted", "quoted"
    if "files" in kinds:
        return "files", "files"
    if medium == ["timing"]:
        return "timing", "timing"
    if "comment" in kinds and row.get("verdict") in _FIX_LIKE:
        return "cited", "comment"      # the row keeps `claim`, not `cite`: a lone comment made fix-like cited it
    if "follow_up" in kinds:
        return "follow-up", "follow_up"
    if "backport" in kinds:
        return "backport", "backport"
    if not kinds and any(s["kind"] in TRAIL for s in row.get("signals", [])):
        return "withheld", ", ".join(dict.fromkeys(str(s.get("withheld") or "?") for s in row["signals"]
                                                   if s["kind"] in TRAIL))
    return "weak", " + ".join(dict.fromkeys(kinds)) or "none"
