"""Where a document the knowledge base cites can be read: on the platform and on this machine.

A document is named ``docs/<owner>/<repo>/<path>`` (world-relative). Its platform link is the
repository's web page + ``/blob/<ref>/<path>`` (the form GitCode and GitHub share), where
``ref`` is the commit the file was read at when the folder it was ingested from is a git
clone (its HEAD), and otherwise the repository's default branch: a world's ``docs/`` folder
records no commit, and a link must not pretend to one. The local path is the file the index
read, beside the link.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote


@dataclass(frozen=True)
class DocOrigin:
    folder: Path      # the folder the document was ingested from
    prefix: str       # the name prefix that folder was given ("docs" or "docs/<owner>/<repo>")
    commit: str = ""  # the clone's HEAD when the folder is the top of a git work tree

    def local_path(self, doc: str) -> str:
        rest = doc[len(self.prefix):].lstrip("/") if doc.startswith(self.prefix) else doc
        return str(self.folder / rest)


def git_head(folder: Path) -> str:
    """The commit checked out in `folder` when it is the top of a git work tree, else ""."""
    try:
        proc = subprocess.run(["git", "-C", str(folder), "rev-parse", "--show-toplevel", "HEAD"],
                              capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ""
    lines = proc.stdout.split()
    if proc.returncode != 0 or len(lines) != 2 or Path(lines[0]).resolve() != folder.resolve():
        return ""
    return lines[1]


def origins_of(rows: list[tuple[str, str]], head=git_head) -> dict[str, DocOrigin]:
    """doc -> where it came from, from the index's (doc, origin) rows; origin is ``FOLDER::PREFIX``."""
    folders: dict[str, DocOrigin] = {}
    out: dict[str, DocOrigin] = {}
    for doc, origin in rows:
        if origin not in folders:
            folder, _, prefix = origin.rpartition("::")
            folders[origin] = DocOrigin(Path(folder), prefix, head(Path(folder)) if folder else "")
        if origin:
            out[doc] = folders[origin]
    return out


def doc_link(doc: str, chunk: str, pages: dict[str, tuple[str, str]], origins: dict[str, DocOrigin]) -> dict[str, str]:
    """{doc, chunk, url, ref, path}: `url` is "" when the repository's page is unknown.
    `pages`: lower-cased OWNER/REPO -> (web page, default branch)."""
    parts = doc.split("/", 3)
    origin = origins.get(doc)
    url = ref = ""
    if len(parts) == 4 and parts[0] == "docs":
        page, branch = pages.get(f"{parts[1]}/{parts[2]}".lower(), ("", ""))
        ref = (origin.commit if origin else "") or branch
        if page and ref:
            url = f"{page.rstrip('/').removesuffix('.git')}/blob/{quote(ref)}/{quote(parts[3])}"
    return {"doc": doc, "chunk": chunk, "url": url, "ref": ref, "path": origin.local_path(doc) if origin else ""}
