"""The store: one SQLite file (or a PostgreSQL database) holding everything a run knows.

``Store.open(url)`` applies the packaged alembic migrations, so any file it opens has the
current tables. Writes are idempotent upserts keyed by natural keys ((repo, number), ...):
replaying the same work leaves the same rows, which is what makes the harvest resumable.
`Store` is assembled from one part per concern: the harvest's writes (`store/writer.py`,
through `Store.writer`), its reads (`store/reads.py`), run records and failures
(`store/runs.py`) and the cases with their conclusion rows (`store/conclusions.py`).
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterator

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from fixlore.core.errors import ConfigError, StoreError
from fixlore.edges import interrupts, killpoints
from fixlore.store import schema as t
from fixlore.store import views as store_views
from fixlore.store.conclusions import CaseConclusions
from fixlore.store.reads import CorpusReads
from fixlore.store.rows import _json_text, _jsonable, upsert
from fixlore.store.runs import RunRecords
from fixlore.store.writer import SqlHttpCache, StoreWriter

__all__ = ["Store", "StoreWriter", "SqlHttpCache", "upsert", "_jsonable"]

_HERE = Path(__file__).resolve().parent


def _on_begin(_conn: sa.Connection) -> None:
    killpoints.reached("store")         # inside the hold: Ctrl-C here waits for the transaction, as a user's would


class Store(CorpusReads, RunRecords, CaseConclusions):
    """Entry point: ``Store.open("sqlite:///fixlore.db")`` or ``Store.open("postgresql+psycopg://...")``."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self.url = engine.url.render_as_string(hide_password=True)

    @classmethod
    def open(cls, url: str, migrate: bool = True) -> "Store":
        if "://" not in url:
            url = f"sqlite:///{url}"
        if url.startswith("sqlite:///") and url != "sqlite:///:memory:":
            Path(url[len("sqlite:///"):]).expanduser().parent.mkdir(parents=True, exist_ok=True)
        try:
            engine = sa.create_engine(url, future=True, json_serializer=_json_text)
        except (sa.exc.ArgumentError, sa.exc.NoSuchModuleError) as exc:
            raise ConfigError(f"cannot use database URL {sa.engine.make_url(url).render_as_string(hide_password=True) if '://' in url else url}: {exc}") from None
        if engine.dialect.name == "sqlite":
            @sa.event.listens_for(engine, "connect")
            def _pragmas(dbapi_conn, _record):            # noqa: ANN001
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.close()
                # the driver opens no transaction for DDL (each CREATE or ALTER commits alone), so a run
                # stopped inside a migration left half a schema without its version and every later open
                # failed ("table cases already exists", exit 5); SQLAlchemy's recipe: the driver opens
                # none at all and every transaction is an explicit BEGIN (below), DDL included
                dbapi_conn.isolation_level = None

            @sa.event.listens_for(engine, "begin")
            def _begin(conn):                             # noqa: ANN001
                conn.exec_driver_sql("BEGIN")
        # Ctrl-C waits while a connection is out of the pool (fixlore.edges.interrupts says why): from its
        # checkout to its checkin, so the pool's own rollback when it takes a connection back, which
        # comes after the transaction's commit, is covered too (a press there was printed as
        # SQLAlchemy's "Exception during reset" traceback)
        sa.event.listen(engine, "checkout", lambda *_args: interrupts.hold())
        sa.event.listen(engine, "checkin", lambda *_args: interrupts.release())
        sa.event.listen(engine, "begin", _on_begin)
        store = cls(engine)
        if migrate:
            try:
                store.migrate()
            except sa.exc.OperationalError as exc:
                # the URL was well formed (checked above): the server or the file refused (exit 5)
                raise StoreError(f"cannot open the store {store.url}: {str(exc.orig).splitlines()[0]}") from None
        return store

    # Any constant: harvesters sharing one PostgreSQL database take this lock to migrate one at a time.
    _MIGRATION_LOCK = 0x6669786C6F7265

    def migrate(self) -> None:
        cfg = Config(str(_HERE / "alembic.ini"))
        cfg.set_main_option("script_location", str(_HERE / "migrations"))
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # Two processes creating the same tables at once collide in the catalog; the second
                # waits here and then finds the schema at head. (SQLite's file lock serialises already.)
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": self._MIGRATION_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def writer(self) -> Iterator[StoreWriter]:
        """One transaction: everything written inside commits together or not at all."""
        with self.engine.begin() as conn:
            yield StoreWriter(conn)

    def http_cache(self) -> SqlHttpCache:
        return SqlHttpCache(self.engine)

    def refresh_fulltext(self, segment: Callable[[str], str]) -> dict[str, Any]:
        """Bring the full-text index of issues and PRs up to date (SQLite; see store/views.py)."""
        with self.engine.begin() as conn:
            return store_views.refresh_fulltext(conn, segment)

    # -- a canonical view for comparing two stores
    VOLATILE = {"raw_payloads": {"fetched_at"}, "watermarks": {"harvested_at"}}
    SKIPPED = ("http_cache", "harvest_runs", "runs", "alembic_version")

    def canonical_dump(self) -> dict[str, list[tuple]]:
        """Every table's rows, sorted, without bookkeeping that differs between equal harvests."""
        dump: dict[str, list[tuple]] = {}
        with self.engine.connect() as conn:
            for name, table in t.metadata.tables.items():
                if name in self.SKIPPED:
                    continue
                cols = [c for c in table.columns if c.name not in self.VOLATILE.get(name, set())]
                out = []
                for row in conn.execute(sa.select(*cols)):
                    out.append(tuple(json.dumps(v, sort_keys=True, default=str) if isinstance(v, (dict, list))
                                     else (v.isoformat() if isinstance(v, datetime) else v) for v in row))
                dump[name] = sorted(out, key=lambda r: json.dumps(r, default=str))
        return dump
