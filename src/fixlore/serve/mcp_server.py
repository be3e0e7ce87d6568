"""The knowledge base as MCP tools (the official `mcp` SDK, `MCPServer`), for AI agents.

Tools, all read-only:
  search_cases(symptom, k, repo)   closed issues matching a symptom, with fix status and answer
  get_case(key)                    one case with its evidence chain and what to cite
  fix_status(key)                  was it really fixed, by which PR, where it landed, the traps
  related_cases(key, k)            the same fix, the same theme, similar reports
  search_docs(query, k)            document and code passages; `cited` above the calibrated threshold

Each case is also a resource, ``fixlore://case/OWNER/REPO/N`` (JSON). An unknown key or an
empty query comes back as a tool error with a message that says what
to send instead.
"""

from __future__ import annotations

import json
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from fixlore.serve.knowledge import Knowledge, UnknownCase

INSTRUCTIONS = """\
fixlore knows closed issues of an ecosystem's trackers, each traced to the change that really
fixed it (evidence shown, traps named), with the documents that explain the mechanism.
Start with search_cases on the symptom (paste the error message), then fix_status or get_case
on a key (OWNER/REPO#N). Cite the issue and PR URLs the tools return. A status other than
"fixed" means no merged fix was traced ("not_traced": the issue was outside the run's window
and was not judged at all): say so rather than guess."""

_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                             open_world_hint=False)


def _guard(call):
    try:
        return call()
    except (UnknownCase, ValueError) as exc:
        raise ToolError(str(exc)) from exc


def build_server(knowledge: Knowledge) -> MCPServer:
    server = MCPServer(name="fixlore", instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool(annotations=_READ_ONLY)
    def search_cases(symptom: str, k: int = 5, repo: str | None = None) -> dict[str, Any]:
        """Closed issues whose report or analysis matches a symptom (an error message, what was
        done, the version), best first. Each result has the issue key and URL, status (fixed /
        fix_not_landed / closed_before_merge / answered / no_fix_found), the fix PRs with their
        URLs and target branches (base_ref), the root cause (problem), the answer and a first action
        where the case was analysed, and always the report's first error line and its start.
        `repo` (OWNER/REPO) keeps one repository."""
        return {"cases": _guard(lambda: knowledge.search_cases(symptom, k=k, repo=repo))}

    @server.tool(annotations=_READ_ONLY)
    def get_case(key: str) -> dict[str, Any]:
        """One case (key OWNER/REPO#N or the issue URL) with its full evidence chain: every PR
        considered and the signals seen, evidence with where it was seen, timing and lag, traps
        with what shows them, documents, and `cite` (the URLs to quote)."""
        return _guard(lambda: knowledge.get_case(key))

    @server.tool(annotations=_READ_ONLY)
    def fix_status(key: str) -> dict[str, Any]:
        """Was this issue (OWNER/REPO#N or its URL) really fixed? The merged fix PRs and backports
        with branch and merge time, fixes that never landed, how the close relates to the merge,
        and the traps (stale-bot close, close storm, unrelated link, ...). `funnel` and
        `drop_reason` say whether the issue is a resolved user-side case or, say, an internal
        ticket; status not_traced: outside the run's window, not judged."""
        return _guard(lambda: knowledge.fix_status(key))

    @server.tool(annotations=_READ_ONLY)
    def related_cases(key: str, k: int = 5) -> dict[str, Any]:
        """Cases tied to one case: fixed by the same PR, of the same theme, or with a similar
        report; `why` says which."""
        return {"cases": _guard(lambda: knowledge.related_cases(key, k=k))}

    @server.tool(annotations=_READ_ONLY)
    def search_docs(query: str, k: int = 5) -> dict[str, Any]:
        """Passages of the repositories' documents and code that match a query, best first.
        `cited` is true above the knowledge base's calibrated threshold (what the digest would
        cite); `cited_by` lists the cases that cite the document."""
        return {"passages": _guard(lambda: knowledge.search_docs(query, k=k))}

    @server.resource("fixlore://case/{owner}/{repo}/{number}", name="case", mime_type="application/json",
                     description="One case with its evidence chain (the same as get_case), for clients that "
                                 "attach resources.")
    def case_resource(owner: str, repo: str, number: str) -> str:
        return json.dumps(_guard(lambda: knowledge.get_case(f"{owner}/{repo}#{number}")), ensure_ascii=False)

    return server
