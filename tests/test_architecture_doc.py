"""docs/architecture.md stays short and true to the code: every path it names exists, and every
name it quotes is defined somewhere in the package (a function, class, constant, field or a
value of the vocabulary)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "src" / "fixlore"


def _quoted() -> list[str]:
    return re.findall(r"`([^`\n]+)`", DOC.read_text(encoding="utf-8"))


def test_the_doc_is_at_most_120_lines():
    assert len(DOC.read_text(encoding="utf-8").splitlines()) <= 120


def test_every_path_it_names_exists():
    missing = []
    for quoted in _quoted():
        for path in re.findall(r"[\w./]+\.(?:py|j2|md)\b", quoted):
            if path.endswith(".md") and "/" not in path:
                continue
            candidates = [PACKAGE / path, ROOT / path, *PACKAGE.rglob(Path(path).name)]
            if not any(c.exists() for c in candidates):
                missing.append(path)
    assert missing == []


def test_every_name_it_quotes_is_defined():
    source = "\n".join(p.read_text(encoding="utf-8") for p in PACKAGE.rglob("*.py"))
    defined = set(re.findall(r"^\s*(?:async\s+)?(?:def|class)\s+(\w+)", source, re.M))
    defined |= set(re.findall(r"^\s*(\w+)\s*(?::[^=\n]+)?=", source, re.M))
    defined |= set(re.findall(r"[\"'](\w+)[\"']", source))     # a value of the vocabulary ("stale_close")
    undefined = []
    for quoted in _quoted():
        if not re.fullmatch(r"[A-Za-z_][\w.]*(?:\(\))?", quoted) or quoted.endswith((".py", ".md", ".j2")):
            continue
        name = quoted.removesuffix("()").split(".")[-1]
        if name.islower() and "_" not in name and "." not in quoted:
            continue                      # a plain word (a stage, a value), not a code name
        if name not in defined:
            undefined.append(quoted)
    assert undefined == []
