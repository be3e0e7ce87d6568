"""The series ledger: the series and every edition each published (its window, scope, the rows
with a hash of each, the backlog it left, the inputs its files were built from, the files'
hashes). An edition is written once, in one transaction, and never changed afterwards."""

from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone
from typing import Any

import sqlalchemy as sa

from fixlore.core.errors import FixloreError
from fixlore.store import schema as t
from fixlore.store.store import Store, _jsonable, upsert


def row_hash(row: dict[str, Any]) -> str:
    """sha256 of a row's canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(row, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Ledger:
    """The ledger tables of one store."""

    def __init__(self, store: Store):
        self.store = store
        self.engine = store.engine

    # -- series
    def save_series(self, config: dict[str, Any]) -> None:
        """Create a series, or change its framing; where it starts and how it counts are fixed
        once an edition is published."""
        now = _now()
        with self.engine.begin() as conn:
            exists = conn.execute(sa.select(t.series.c.config).where(t.series.c.name == config["name"])).first()
            published = conn.execute(sa.select(t.editions.c.number).where(
                t.editions.c.series == config["name"]).limit(1)).first()
            if exists and published:
                for key in ("since", "first_number"):
                    if (exists.config or {}).get(key) != config.get(key):
                        raise FixloreError(f"series '{config['name']}' has published editions: its {key} cannot change")
            if exists:
                conn.execute(sa.update(t.series).where(t.series.c.name == config["name"]).values(
                    config=_jsonable(config), updated_at=now))
            else:
                conn.execute(sa.insert(t.series).values(name=config["name"], config=_jsonable(config),
                                                        created_at=now, updated_at=now))

    def series(self, name: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t.series.c.config).where(t.series.c.name == name)).first()
        return dict(row.config) if row else None

    def all_series(self) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return [dict(r.config) for r in conn.execute(sa.select(t.series.c.config).order_by(t.series.c.name))]

    # -- editions
    def editions(self, series: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.editions).where(t.editions.c.series == series)
                                .order_by(t.editions.c.number))
            return [dict(r._mapping) for r in rows]

    def edition(self, series: str, number: int) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(t.editions).where(t.editions.c.series == series,
                                                           t.editions.c.number == number)).first()
        return dict(row._mapping) if row else None

    def rows(self, series: str, number: int | None = None) -> list[dict[str, Any]]:
        """Rows of one edition (or of every edition), by edition, repo, number."""
        q = sa.select(t.edition_rows).where(t.edition_rows.c.series == series)
        if number is not None:
            q = q.where(t.edition_rows.c.edition == number)
        with self.engine.connect() as conn:
            rows = conn.execute(q.order_by(t.edition_rows.c.edition, t.edition_rows.c.repo, t.edition_rows.c.number))
            return [dict(r._mapping) for r in rows]

    def files(self, series: str, number: int) -> dict[str, dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(t.edition_files).where(t.edition_files.c.series == series,
                                                                 t.edition_files.c.edition == number))
            return {r.name: {"sha256": r.sha256, "bytes": r.bytes} for r in rows}

    def record_edition(self, series: str, number: int, *, kind: str, focus: dict[str, Any] | None,
                       window_since: datetime | None, window_until: datetime | None, scope: dict[str, Any],
                       counts: dict[str, Any], backlog: list[dict[str, Any]], inputs: dict[str, Any],
                       rows: list[dict[str, Any]], files: dict[str, bytes]) -> None:
        """Write edition `number` of `series` with its rows and files' hashes; an edition that is
        already there is never overwritten (a published edition is immutable)."""
        with self.engine.begin() as conn:
            if conn.execute(sa.select(t.editions.c.number).where(t.editions.c.series == series,
                                                                 t.editions.c.number == number)).first():
                raise FixloreError(f"edition {number} of series '{series}' is already published and cannot change")
            conn.execute(sa.insert(t.editions).values(
                series=series, number=number, kind=kind, focus=_jsonable(focus), window_since=window_since,
                window_until=window_until, scope=_jsonable(scope), counts=_jsonable(counts),
                backlog=_jsonable(backlog), inputs=_jsonable(inputs), published_at=_now()))
            upsert(conn, t.edition_rows, [
                {"series": series, "edition": number, "repo": r["row"]["repo"], "number": int(r["row"]["number"]),
                 "role": r["role"], "published": bool(r.get("published")), "row_hash": row_hash(r["row"]),
                 "row": _jsonable(r["row"]), "change": _jsonable(r.get("change"))} for r in rows])
            upsert(conn, t.edition_files, [
                {"series": series, "edition": number, "name": name, "sha256": hashlib.sha256(data).hexdigest(),
                 "bytes": len(data)} for name, data in sorted(files.items())])

    def appearances(self, repo: str, number: int) -> list[dict[str, Any]]:
        """Every edition (of any series) whose tables carried this case: series, edition, role, change."""
        q = (sa.select(t.edition_rows.c.series, t.edition_rows.c.edition, t.edition_rows.c.role,
                       t.edition_rows.c.change, t.editions.c.kind, t.editions.c.published_at)
             .join(t.editions, sa.and_(t.editions.c.series == t.edition_rows.c.series,
                                       t.editions.c.number == t.edition_rows.c.edition))
             .where(t.edition_rows.c.repo == repo, t.edition_rows.c.number == number,
                    t.edition_rows.c.published == sa.true())
             .order_by(t.edition_rows.c.series, t.edition_rows.c.edition))
        with self.engine.connect() as conn:
            return [{"series": r.series, "edition": r.edition, "role": r.role, "kind": r.kind,
                     "change": r.change or None} for r in conn.execute(q)]

    def all_appearances(self) -> dict[str, list[dict[str, Any]]]:
        """Case key -> the editions whose tables carried it (as ``appearances``), for every case at once."""
        q = (sa.select(t.edition_rows.c.repo, t.edition_rows.c.number, t.edition_rows.c.series,
                       t.edition_rows.c.edition, t.edition_rows.c.role, t.edition_rows.c.change, t.editions.c.kind)
             .join(t.editions, sa.and_(t.editions.c.series == t.edition_rows.c.series,
                                       t.editions.c.number == t.edition_rows.c.edition))
             .where(t.edition_rows.c.published == sa.true())
             .order_by(t.edition_rows.c.series, t.edition_rows.c.edition))
        out: dict[str, list[dict[str, Any]]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(q):
                out.setdefault(f"{r.repo}#{r.number}", []).append(
                    {"series": r.series, "edition": r.edition, "role": r.role, "kind": r.kind, "change": r.change or None})
        return out
