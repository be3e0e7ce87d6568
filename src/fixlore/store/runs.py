"""Bookkeeping of the work itself: each `fixlore run` and each harvest (who runs it, how it
ended), the repositories a harvest could not read, and the parts of single issues and PRs it
could not read (`item_failures`, fixlore.rules.unread)."""

from __future__ import annotations

import os
import socket
from datetime import datetime
from typing import Any, Iterable

import sqlalchemy as sa

from fixlore.store import schema as t
from fixlore.store.rows import _jsonable, _now, upsert

# a run that never finished: its rerun resumes it (README: "rerun the same command to resume")
UNFINISHED = frozenset({"interrupted", "died", "running"})


def _owner() -> dict[str, Any]:
    """The process writing a run row, so that a later run can tell a dead run from a live one."""
    return {"host": socket.gethostname(), "pid": os.getpid()}


def _owner_alive(owner: Any) -> bool:
    if not isinstance(owner, dict) or not owner.get("pid"):
        return False
    if owner.get("host") != socket.gethostname():
        return True
    if owner["pid"] == os.getpid():
        return False                    # this process starts a run only after the last one ended
    try:
        os.kill(int(owner["pid"]), 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError, ValueError):
        return True
    return True



class RunRecords:
    """`Store`'s run records and failures (a mixin: it needs ``self.engine``)."""

    engine: sa.Engine

    def record_failure(self, repo: str, endpoint: str, status: str, message: str) -> None:
        """Remember that ``endpoint`` of ``repo`` could not be read; a repeat raises ``attempts``."""
        c = t.repo_failures.c
        with self.engine.begin() as conn:
            row = conn.execute(sa.select(c.attempts).where(c.repo == repo, c.endpoint == endpoint)).first()
            attempts = (row.attempts + 1) if row else 1
            upsert(conn, t.repo_failures, [{"repo": repo, "endpoint": endpoint, "status": str(status)[:40],
                                            "message": message, "failed_at": _now(), "attempts": attempts}])

    def clear_failures(self, repo: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(sa.delete(t.repo_failures).where(t.repo_failures.c.repo == repo))

    def failures(self, repos: Iterable[str] | None = None) -> list[dict[str, Any]]:
        query = sa.select(t.repo_failures).order_by(t.repo_failures.c.repo, t.repo_failures.c.endpoint)
        if repos is not None:
            query = query.where(t.repo_failures.c.repo.in_(list(repos)))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    def record_item_failure(self, repo: str, kind: str, number: int, part: str, endpoint: str, status: str,
                            message: str) -> None:
        """Remember that ``part`` of one issue or PR could not be read; a repeat raises ``attempts``."""
        c = t.item_failures.c
        with self.engine.begin() as conn:
            row = conn.execute(sa.select(c.attempts).where(c.repo == repo, c.kind == kind, c.number == number,
                                                           c.part == part)).first()
            upsert(conn, t.item_failures, [{"repo": repo, "kind": kind, "number": number, "part": part,
                                            "endpoint": endpoint[:200], "status": str(status)[:40],
                                            "message": message, "failed_at": _now(),
                                            "attempts": (row.attempts + 1) if row else 1}])

    def clear_item_failures(self, repo: str, kind: str, number: int, keep: Iterable[str] = ()) -> None:
        """Forget the failures of one item, but those of the parts in ``keep`` (still unread)."""
        c = t.item_failures.c
        with self.engine.begin() as conn:
            conn.execute(sa.delete(t.item_failures).where(c.repo == repo, c.kind == kind, c.number == number,
                                                          c.part.not_in(list(keep))))

    def item_failures(self, repos: Iterable[str] | None = None) -> list[dict[str, Any]]:
        c = t.item_failures.c
        query = sa.select(t.item_failures).order_by(c.repo, c.kind, c.number, c.part)
        if repos is not None:
            query = query.where(c.repo.in_(list(repos)))
        with self.engine.connect() as conn:
            return [dict(r._mapping) for r in conn.execute(query)]

    # -- runs and cases (written by later stages)
    def start_harvest_run(self, platform: str, orgs: list[str], window_since: datetime | None) -> int:
        with self.engine.begin() as conn:
            result = conn.execute(sa.insert(t.harvest_runs).values(
                started_at=_now(), status="running", platform=platform, orgs=list(orgs), window_since=window_since,
                summary={"owner": _owner()}))
            return int(result.inserted_primary_key[0])

    def finish_harvest_run(self, run_id: int, status: str, requests: int, summary: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(sa.update(t.harvest_runs).where(t.harvest_runs.c.id == run_id).values(
                finished_at=_now(), status=status, requests=requests, summary=_jsonable(summary)))

    def start_run(self, info: dict[str, Any]) -> int:
        with self.engine.begin() as conn:
            result = conn.execute(sa.insert(t.runs).values(started_at=_now(), status="running",
                                                           info=_jsonable({**info, "owner": _owner()})))
            return int(result.inserted_primary_key[0])

    def finish_run(self, run_id: int, status: str, info: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(sa.update(t.runs).where(t.runs.c.id == run_id).values(
                finished_at=_now(), status=status, info=_jsonable({**info, "owner": _owner()})))

    def latest_stage_summary(self, stage: str, before_run: int | None = None) -> dict[str, Any] | None:
        """The summary ``stage`` left in the newest run (before ``before_run``) where it finished
        ok, with that run's id as ``run``; None when no run has one. A stage's memory of what
        it checked (the link stage's audit) is read back from here."""
        query = sa.select(t.runs.c.id, t.runs.c.info).order_by(t.runs.c.id.desc())
        if before_run is not None:
            query = query.where(t.runs.c.id < before_run)
        with self.engine.connect() as conn:
            for row in conn.execute(query.limit(50)):
                for entry in (row.info or {}).get("stages") or []:
                    if (isinstance(entry, dict) and entry.get("name") == stage and entry.get("status") == "ok"
                            and isinstance(entry.get("summary"), dict)):
                        return {**entry["summary"], "run": row.id}
        return None

    def resumed_runs(self, run_id: int | None) -> set[int]:
        """The runs ``run_id`` resumes: those right before it whose job never finished (interrupted,
        died, still marked running, or a series edition's run whose edition the ledger never
        recorded), back to the last one that finished."""
        query = sa.select(t.runs.c.id, t.runs.c.status, t.runs.c.info).order_by(t.runs.c.id.desc())
        if run_id is not None:
            query = query.where(t.runs.c.id < run_id)
        out: set[int] = set()
        with self.engine.connect() as conn:
            for row in conn.execute(query.limit(50)).all():
                if row.status not in UNFINISHED and not self._edition_unrecorded(conn, row.info):
                    break
                out.add(int(row.id))
        return out

    @staticmethod
    def _edition_unrecorded(conn: Any, info: Any) -> bool:
        edition = (info or {}).get("series") if isinstance(info, dict) else None
        if not isinstance(edition, dict) or not edition.get("name") or edition.get("number") is None:
            return False
        return conn.execute(sa.select(t.editions.c.number).where(
            t.editions.c.series == edition["name"], t.editions.c.number == int(edition["number"]))).first() is None

    def mark_abandoned_runs(self) -> int:
        """Mark "died" every run and harvest still "running" whose process is gone (killed, power cut);
        a run of another machine is left alone, as it may still be going. Returns how many."""
        marked = 0
        with self.engine.begin() as conn:
            for table, col in ((t.runs, "info"), (t.harvest_runs, "summary")):
                rows = conn.execute(sa.select(table.c.id, table.c[col]).where(table.c.status == "running")).all()
                dead = [r.id for r in rows if not _owner_alive((r[1] or {}).get("owner"))]
                if dead:
                    conn.execute(sa.update(table).where(table.c.id.in_(dead)).values(status="died"))
                    marked += len(dead)
        return marked

