"""The store's Datasette metadata: titles, descriptions and units of what a reader sees.

    datasette OUT/fixlore.db -m OUT/metadata.json

`fixlore run` writes ``metadata.json`` next to the store (`write_metadata`). The HTTP cache
(``http_cache``: raw response bodies kept for conditional requests) and alembic's bookkeeping
are hidden: they are how the harvest works, not what it found.
"""

from __future__ import annotations

from fixlore.edges.atomicfile import write_atomic
import json
from pathlib import Path
from typing import Any

from fixlore.core import formats
from fixlore.core.enums import Timing

TIME = "ISO 8601 UTC, ending in Z (the platform's own string, with its offset, is in raw)"
VIEW_KEY = {"repo": "The issue's repository, OWNER/REPO", "number": "The issue's number"}
CASE_KEY = {**VIEW_KEY, "case_id": "The case (OWNER/REPO#NUMBER): a link to its row of cases"}
ID = {"id": "OWNER/REPO#NUMBER: the row's key, which links point at (repo and number are unique too)"}
SEARCH = ("The search box finds any run of three or more characters in {cols}, Chinese typed without spaces "
          "included (偶发超时). A shorter query (超时) finds nothing here: search it in fulltext, or filter "
          "with body contains.")
POSITION = {"position": "Order within the case's list, from 0"}
CONCLUSIONS = {"timing": f"How the close relates to the fix's merge ({', '.join(Timing)})",
               "lag_s": "Seconds from the fix's merge to the close",
               "timing_note": "What the timing class rests on: times, actor, which PR",
               "value": "How much a reader gains from the case (0..1)",
               "analysed_by": "Which analysis wrote problem and answer (empty: none)"}

TABLES: dict[str, dict[str, Any]] = {
    "repos": {"description": "The repositories harvested.",
              "columns": {"full_name": "OWNER/REPO", "updated_at": TIME, "raw": "The platform's repository object"}},
    "issues": {"description": "Issues as the platform gave them (one row per issue; PRs are in pulls). "
                              + SEARCH.format(cols="the title and body"),
               "label_column": "title", "fts_table": "issues_fts", "fts_pk": "rowid",
               "columns": {**ID, "funnel_stage": "The cheap funnel's verdict (empty: kept)", "labels": "Label names",
                           "created_at": TIME, "updated_at": TIME, "closed_at": TIME,
                           "details_for": "The updated_at whose comments and events are stored (" + TIME + ")",
                           "comments_count": "Comments the platform counted", "raw": "The platform's issue object"}},
    "pulls": {"description": "Pull (merge) requests as the platform gave them. "
                             + SEARCH.format(cols="the title, body and branch names"),
              "label_column": "title", "fts_table": "pulls_fts", "fts_pk": "rowid",
              "columns": {**ID, "merged": "True only when state is merged and merged_at is set", "created_at": TIME,
                          "updated_at": TIME, "merged_at": TIME, "closed_at": TIME,
                          "base_ref": "The branch the PR targets", "raw": "The platform's PR object"}},
    "comments": {"description": "Comments on issues (parent_kind issue) and PRs (parent_kind pull).",
                 "columns": {"created_at": TIME}},
    "events": {"description": "Issue and PR events (GitCode operate logs, GitHub timeline): close, reopen, "
                              "label, reference...", "columns": {"created_at": TIME}},
    "issue_pull_links": {"description": "Links between issues and PRs the platform records, and where each "
                                        "was seen (recorded_on)."},
    "pull_files": {"description": "Files a PR changed, with the patch.",
                   "units": {"additions": "lines", "deletions": "lines"}},
    "pull_commits": {"description": "Commits of a PR.", "columns": {"date": TIME}},
    "raw_payloads": {"description": "Platform responses kept whole (comments, events, files...) for re-reading.",
                     "columns": {"fetched_at": TIME}},
    "watermarks": {"description": "How far each repository's harvest got (a re-run resumes from here).",
                   "columns": {"issues_updated_at": TIME, "pulls_updated_at": TIME, "window_since": TIME,
                               "harvested_at": TIME}},
    "harvest_runs": {"description": "Each harvest: when, which organisations, how many requests.",
                     "units": {"requests": "requests"}},
    "runs": {"description": "Each `fixlore run`, with its run.json as info."},
    "cases": {"description": "Every harvested issue's conclusions: the case export's per-case fields as columns, "
                             "the whole case as one JSON document (export); its lists are the case_* tables.",
              "label_column": "title",
              "columns": {**VIEW_KEY, "id": "Its issue's key, OWNER/REPO#NUMBER: a link to the issue",
                          "export": "The case as in cases.jsonl", "funnel": "Where the funnel left the issue",
                          "drop_reason": "Why a candidate was dropped (empty: kept or not a candidate)",
                          "provisional": "True: selected by the value score, awaiting deep analysis",
                          "closed_at": TIME, "updated_at": TIME, **CONCLUSIONS},
              "units": {"lag_s": "s"}},
    "case_conclusions": {"description": "One row per case: what the linker and the analysis concluded (the cases "
                                        "table without its JSON).",
                         "columns": {**VIEW_KEY, "closed_at": TIME, **CONCLUSIONS},
                         "units": {"lag_s": "s"}},
    "case_fixes": {"description": "One row per fix PR (or backport) of a case, and per candidate that did not land "
                                  "before the close (pending).",
                   "columns": {**CASE_KEY, **POSITION, "pending": "True: did not land before the close (the export's "
                                                                  "pending_fix); false: the fix set",
                               "pr_repo": "The PR's repository", "pr_number": "The PR",
                               "pull_id": "The PR (PR_REPO#PR_NUMBER): a link to its row of pulls (a PR "
                                          "not harvested has no row to open)",
                               "role": "fix or backport", "state": "The PR's state (merged, open, closed)",
                               "merged": "True only when state is merged and merged_at is set", "merged_at": TIME,
                               "base_ref": "The branch the PR targets"}},
    "case_pending_fixes": {"description": "One row per fix PR that did not land before the close (case_fixes "
                                          "where pending).",
                           "columns": {**VIEW_KEY, **POSITION}},
    "case_traps": {"description": "One row per trap of a case (stale-bot close, close storm...), with what "
                                  "shows it.", "columns": {**CASE_KEY, **POSITION, "note": "What shows the trap"}},
    "case_evidence": {"description": "One row per piece of evidence the fix rests on.",
                      "columns": {**CASE_KEY, **POSITION, "kind": "keyword, linked, comment, auto_close...",
                                  "detail": "What was seen, quoted briefly",
                                  "source": "Where it was seen (issues/N/comments/ID...)"}},
    "case_kb_refs": {"description": "One row per document a case cites.",
                     "columns": {**CASE_KEY, **POSITION, "doc": "docs/OWNER/REPO/PATH", "chunk": "The passage cited",
                                 "score": "Retrieval score, 0..1 (cited at or above the index's threshold)"}},
    "fulltext": {"description": "Full-text search over issue and PR titles and bodies, segmented into words by "
                                "jieba: search Chinese as words separated by spaces (超时 心跳).",
                 "columns": {"title_words": "The title, segmented into words", "body_words": "The body, segmented",
                             "title": "The title as written",
                             "kind": "issue or pull", "updated_at": TIME}},
    "http_cache": {"hidden": True, "description": "The harvest's HTTP cache (response bodies for conditional "
                                                  "requests): bookkeeping, not data."},
    "alembic_version": {"hidden": True},
}


def metadata(title: str = "fixlore store") -> dict[str, Any]:
    """Datasette metadata for a store file named fixlore.db (database `fixlore`); `fixlore_format`
    versions it as every output is (Datasette passes keys it does not know through)."""
    return {"fixlore_format": formats.DATASETTE, "title": title,
            "description": "Closed issues harvested from the trackers, traced to the changes that fixed them. "
                           "Start with case_conclusions, case_fixes and case_traps; search issues and pulls (or fulltext, by "
                           "words).",
            "databases": {"fixlore": {"tables": TABLES}}}


def write_metadata(path: Path, title: str = "fixlore store") -> Path:
    return write_atomic(path, json.dumps(metadata(title), ensure_ascii=False, indent=1) + "\n")
