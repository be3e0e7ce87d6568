"""Writing a world to disk byte-identically: stable JSON and YAML, a clean target folder."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import yaml

from fixlore.core.errors import FixloreError


def reset_dir(path: Path) -> None:
    """Empty ``path`` for a fresh world; refuse a non-empty folder that is not a world."""
    if path.exists():
        if any(path.iterdir()) and not (path / "world.yaml").is_file():
            raise FixloreError(f"refusing to overwrite {path}: it is not empty and has no world.yaml")
        shutil.rmtree(path)
    path.mkdir(parents=True)


def write_json(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def write_yaml(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=120, default_flow_style=None)
    path.write_text(text, encoding="utf-8")


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def stable_hex(*parts: object, length: int = 40) -> str:
    """A deterministic hex string (commit shas, user ids) derived from its inputs."""
    return hashlib.sha1("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:length]


def stable_int(*parts: object, lo: int = 1000000, span: int = 9000000) -> int:
    return lo + int(stable_hex(*parts, length=12), 16) % span
