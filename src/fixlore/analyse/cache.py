"""Answers of the LLM kept by input hash in a small SQLite file, so a re-run costs nothing."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from datetime import datetime, timezone
from pathlib import Path


def input_key(prompt_version: str, model: str, messages: list[dict]) -> str:
    blob = json.dumps({"prompt": prompt_version, "model": model, "messages": messages},
                      ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class AnswerCache:
    """Table `llm_answers(key, prompt_version, model, reply, usage, created_at)`; `path=None` keeps it in memory."""

    def __init__(self, path: str | Path | None):
        self.path = str(path) if path else ":memory:"
        if path:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS llm_answers (key TEXT PRIMARY KEY, prompt_version TEXT, model TEXT,"
            " reply TEXT NOT NULL, usage TEXT, created_at TEXT)")
        self._db.commit()

    def get(self, key: str) -> dict | None:
        with self._lock:
            row = self._db.execute("SELECT reply FROM llm_answers WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, prompt_version: str, model: str, reply: dict, usage: dict) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO llm_answers VALUES (?, ?, ?, ?, ?, ?)",
                (key, prompt_version, model, json.dumps(reply, ensure_ascii=False),
                 json.dumps(usage), datetime.now(timezone.utc).isoformat()))
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return self._db.execute("SELECT count(*) FROM llm_answers").fetchone()[0]

    def close(self) -> None:
        with self._lock:
            self._db.close()
