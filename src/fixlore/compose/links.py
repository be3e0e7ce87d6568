"""Where a reader can check what the digest cites: a case's PRs and knowledge-base documents
as platform URLs."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fixlore.core.model import Case
from fixlore.wording.facts import pr_label

from fixlore.compose.render import safe_url


def pr_links(case: Case) -> dict[str, str]:
    """The labels the analysts write for the case's PRs (`!57`, `PR#795`, `other-repo!3`) → web URL."""
    out: dict[str, str] = {}
    for f in (*case.fix, *(getattr(case, "pending_fix", None) or [])):
        url = safe_url(f.url)
        if url:
            out.setdefault(pr_label(f, case.repo), url)
    return out


def doc_parts(doc: str) -> tuple[str, str]:
    """`docs/<owner>/<repo>/<path>` → ("owner/repo", "path"); ("", doc) for any other form."""
    bits = doc.split("/", 3)
    if len(bits) == 4 and bits[0] == "docs" and all(bits[1:]):
        return f"{bits[1]}/{bits[2]}", bits[3]
    return "", doc


def doc_url(doc: str, repo_web: dict[str, Any]) -> str:
    """The document's page on the platform: the repository's web URL, `blob`, its default branch,
    the path. Empty when the run does not know the repository's URL and branch (no guessed links)."""
    repo, path = doc_parts(doc)
    web = repo_web.get(repo) or {}
    base, branch = safe_url(str(web.get("html_url") or "").rstrip("/")), str(web.get("default_branch") or "")
    if not (base and branch):
        return ""
    return safe_url(f"{base}/blob/{quote(branch, safe='/')}/{quote(path, safe='/')}")
