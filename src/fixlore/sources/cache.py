"""What the client keeps between requests: the conditional-request (ETag) cache and the count of every attempt."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol


class HttpCache(Protocol):
    """Where ETags and bodies live between runs (the store's ``http_cache`` table)."""

    def get(self, url: str) -> tuple[str, str, dict[str, str]] | None: ...   # (etag, body, headers)

    def put(self, url: str, etag: str, body: str, headers: dict[str, str]) -> None: ...


class MemoryCache:
    def __init__(self) -> None:
        self.entries: dict[str, tuple[str, str, dict[str, str]]] = {}

    def get(self, url: str) -> tuple[str, str, dict[str, str]] | None:
        return self.entries.get(url)

    def put(self, url: str, etag: str, body: str, headers: dict[str, str]) -> None:
        self.entries[url] = (etag, body, headers)


@dataclass
class Accounting:
    """Every HTTP attempt, by endpoint template and by status (``"error"`` for transport failures)."""

    by_endpoint: Counter = field(default_factory=Counter)
    by_status: Counter = field(default_factory=Counter)
    by_endpoint_status: Counter = field(default_factory=Counter)
    retries: int = 0
    not_modified: int = 0
    breaker: Any = None           # the client's `fixlore.edges.circuit.Breaker`: its state joins the snapshot

    @property
    def total(self) -> int:
        return sum(self.by_endpoint.values())

    def record(self, endpoint: str, status: int | str) -> None:
        self.by_endpoint[endpoint] += 1
        self.by_status[str(status)] += 1
        self.by_endpoint_status[f"{endpoint} {status}"] += 1

    def snapshot(self) -> dict[str, Any]:
        return {"total": self.total, "by_endpoint": dict(sorted(self.by_endpoint.items())),
                "by_status": dict(sorted(self.by_status.items())),
                "by_endpoint_status": dict(sorted(self.by_endpoint_status.items())), "retries": self.retries,
                "not_modified": self.not_modified,
                **({"circuit": self.breaker.snapshot()} if self.breaker is not None else {})}
