"""The store: SQLite (or PostgreSQL) tables holding raw payloads and normalised objects of a harvest."""

from fixlore.store.store import SqlHttpCache, Store, StoreWriter, upsert

__all__ = ["Store", "StoreWriter", "SqlHttpCache", "upsert"]
