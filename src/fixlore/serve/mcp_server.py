"""The knowledge base as MCP tools (the official `mcp` SDK, `MCPServer`), for AI agents.

Tools, all read-only:
  search_cases(symptom, k, repo)   closed issues matching a symptom, with fix status and answer
  get_case(key)                    one case with its evidence chain and what to cite
  fix_status(key)                  was it really fixed, by which PR, where it landed, the traps
  related_cases(key, k)            the same fix, the same theme, similar reports
  search_docs(query, k)            document and code passages; `cited` above the calibrated threshold

Each case is also a resource, ``fixlore://case/OWNER/REPO/N`` (JSON). Every argument has a
description and bounds; an unknown key or repository, an empty query or a `k` out of 1..50
comes back as a tool error with a message that says what to send instead (the HTTP API
answers the same questions in the same shapes, with 404 / 422).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from fixlore.serve.knowledge import MAX_K, Knowledge, NotFound, package_version

INSTRUCTIONS = """\
fixlore knows closed issues of an ecosystem's trackers, each traced to the change that really
fixed it (evidence shown, traps named), with the documents that explain the mechanism.
Start with search_cases on the symptom (paste the error message), then fix_status or get_case
on a key (OWNER/REPO#N). Cite the issue and PR URLs the tools return. A status other than
"fixed" means no merged fix was traced ("not_traced": the issue was outside the run's window
and was not judged at all): say so rather than guess."""

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                             open_world_hint=False)

# One description and one bound per argument, the same as the HTTP API's query parameters.
Symptom = Annotated[str, Field(min_length=1, max_length=2000,
                               description="The symptom: an error message, what was done, the version.")]
Query = Annotated[str, Field(min_length=1, max_length=2000,
                             description="What to look for in the documents and code (Chinese or English).")]
Key = Annotated[str, Field(min_length=3, max_length=500,
                           description="The issue: OWNER/REPO#N or the issue's URL on the platform.")]
K = Annotated[int, Field(ge=1, le=MAX_K, description=f"How many results, 1 to {MAX_K}.")]
Repo = Annotated[str | None, Field(max_length=300, description="Only this repository (OWNER/REPO); "
                                   "an unknown repository is an error.")]


def _guard(call):
    try:
        return call()
    except (NotFound, ValueError) as exc:
        raise ToolError(str(exc)) from exc


def build_server(knowledge: Knowledge) -> MCPServer:
    server = MCPServer(name="fixlore", title="fixlore: closed issues traced to their real fixes",
                       version=package_version(), instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool(title="Search cases by symptom", annotations=_READ_ONLY)
    def search_cases(symptom: Symptom, k: K = 5, repo: Repo = None) -> dict[str, Any]:
        """Closed issues whose report or analysis matches a symptom, best first by `score`
        (0..1; nothing below the relevance cut-off, so `cases` may be empty). Each has the
        issue key and URL, status (fixed / fix_not_landed / closed_before_merge / answered /
        fix_unknown / no_fix_found), the fix PRs with URLs, target branches (base_ref) and their own
        summaries, the root cause (problem) and the answer: from the analysis, or for a case
        nobody analysed the fix PR's summary and the best reply (`problem_from`, `answer_from`
        say which), and always the report's first error line and its start."""
        return {"cases": _guard(lambda: knowledge.search_cases(symptom, k=k, repo=repo))}

    @server.tool(title="Get a case with its evidence", annotations=_READ_ONLY)
    def get_case(key: Key) -> dict[str, Any]:
        """One case with its full evidence chain: every PR considered and the signals seen,
        evidence with where it was seen, timing and lag, traps with what shows them, documents,
        and `cite` (the issue and PR URLs, the documents as platform links with the local path)."""
        return _guard(lambda: knowledge.get_case(key))

    @server.tool(title="Was it really fixed?", annotations=_READ_ONLY)
    def fix_status(key: Key) -> dict[str, Any]:
        """Was this issue really fixed? The merged fix PRs and backports with branch and merge
        time, fixes that never landed, how the close relates to the merge, and the traps
        (stale-bot close, close storm, unrelated link, ...). `funnel` and `drop_reason` say
        whether the issue is a resolved user-side case or, say, an internal ticket; status
        not_traced: outside the run's window, not judged."""
        return _guard(lambda: knowledge.fix_status(key))

    @server.tool(title="Related cases", annotations=_READ_ONLY)
    def related_cases(key: Key, k: K = 5) -> dict[str, Any]:
        """Cases tied to one case: fixed by the same PR, of the same theme, or with a similar
        report; `why` names the tie and `score` (0..1) how similar the two reports are."""
        return {"cases": _guard(lambda: knowledge.related_cases(key, k=k))}

    @server.tool(title="Search documents and code", annotations=_READ_ONLY)
    def search_docs(query: Query, k: K = 5) -> dict[str, Any]:
        """Passages of the repositories' documents and code that match a query, best first by
        `score`. `cited` is true at or above the knowledge base's calibrated threshold (what the
        digest would cite); `cited_by` lists the cases that cite the document; `url` is the
        file on the platform (at `ref`), `path` the file on this machine."""
        return {"passages": _guard(lambda: knowledge.search_docs(query, k=k))}

    @server.resource("fixlore://case/{owner}/{repo}/{number}", name="case", mime_type="application/json",
                     description="One case with its evidence chain (the same as get_case), for clients that "
                                 "attach resources.")
    def case_resource(owner: str, repo: str, number: str) -> str:
        return json.dumps(_guard(lambda: knowledge.get_case(f"{owner}/{repo}#{number}")), ensure_ascii=False)

    return server
