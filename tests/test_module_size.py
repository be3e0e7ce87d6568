"""Rooms stay small: a module under src/fixlore over 400 lines says why in its docstring (issue #10)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "fixlore"
LIMIT = 400
REASON = "over 400 lines because"


def long_modules_without_reason(root: Path, limit: int = LIMIT) -> list[str]:
    """Modules under `root` longer than `limit` lines whose docstring does not give the reason."""
    out = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text("utf-8")
        n_lines = len(text.splitlines())
        if n_lines <= limit:
            continue
        doc = ast.get_docstring(ast.parse(text)) or ""
        if REASON not in " ".join(doc.split()):
            out.append(f"{path.relative_to(root.parent)}: {n_lines} lines")
    return out


def test_every_long_module_says_why():
    missing = long_modules_without_reason(SRC)
    assert not missing, (f"modules over {LIMIT} lines without '{REASON} ...' in their docstring "
                         f"(split them, or say why they stay long): {missing}")


def test_the_check_catches_a_long_module_and_accepts_a_reason(tmp_path):
    body = "x = 1\n" * (LIMIT + 1)
    (tmp_path / "short.py").write_text('"""Short."""\n' + "x = 1\n" * 10, "utf-8")
    (tmp_path / "long.py").write_text('"""Long and silent."""\n' + body, "utf-8")
    (tmp_path / "explained.py").write_text('"""Long: over 400\n   lines because it is one table."""\n' + body, "utf-8")
    assert long_modules_without_reason(tmp_path) == [f"{tmp_path.name}/long.py: {LIMIT + 2} lines"]
