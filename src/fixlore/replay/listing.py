"""Pure list logic shared by both platforms: filter, sort, page. Items are platform JSON dicts."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from fixlore.core.timeutil import parse_time

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass
class Answer:
    """What an endpoint answers before the server adds ETag, rate-limit headers and faults."""

    status: int
    body: Any
    headers: dict[str, str] = field(default_factory=dict)
    # For list pages: the page served and a way to compute any other page (repeat-page fault).
    page: int | None = None
    page_of: Callable[[int], list] | None = None


@dataclass
class Query:
    """Query parameters, last value wins (as most web frameworks read them)."""

    values: dict[str, str]

    def get(self, name: str, default: str | None = None) -> str | None:
        v = self.values.get(name)
        return default if v is None or v == "" else v

    def int(self, name: str, default: int) -> int:
        try:
            return int(self.values.get(name, ""))
        except ValueError:
            return default


def time_of(item: dict, key: str) -> datetime | None:
    return parse_time(item.get(key))


def filter_time(items: Iterable[dict], key: str, after: str | None, before: str | None) -> list[dict]:
    """Keep items whose ``key`` time lies in [after, before] (both inclusive, either optional).

    An item with the time unset never passes a bound. An unparsable bound is ignored, as a
    lenient server would.
    """
    lo, hi = parse_time(after), parse_time(before)
    out = []
    for it in items:
        if lo is None and hi is None:
            out.append(it)
            continue
        t = time_of(it, key)
        if t is None:
            continue
        if lo is not None and t < lo:
            continue
        if hi is not None and t > hi:
            continue
        out.append(it)
    return out


def sort_by(items: list[dict], key: Callable[[dict], Any], descending: bool, tiebreak: Callable[[dict], Any]) -> list[dict]:
    """Stable sort by ``key`` then ``tiebreak``, both in the same direction."""
    return sorted(items, key=lambda it: (key(it), tiebreak(it)), reverse=descending)


def time_key(name: str) -> Callable[[dict], datetime]:
    return lambda it: time_of(it, name) or _EPOCH


def number_key(it: dict) -> int:
    try:
        return int(str(it.get("number", 0)))
    except ValueError:
        return 0


def label_names(item: dict) -> set[str]:
    return {str(l.get("name", "")).lower() if isinstance(l, dict) else str(l).lower() for l in item.get("labels") or []}


def filter_labels(items: Iterable[dict], labels: str | None) -> list[dict]:
    """Items carrying every label of the comma-separated list."""
    wanted = {l.strip().lower() for l in (labels or "").split(",") if l.strip()}
    if not wanted:
        return list(items)
    return [it for it in items if wanted <= label_names(it)]


def page_window(q: Query, default: int, maximum: int) -> tuple[int, int]:
    page = max(1, q.int("page", 1))
    per_page = q.int("per_page", default)
    if per_page < 1:
        per_page = default
    return page, min(per_page, maximum)


def paginate(items: list, page: int, per_page: int) -> list:
    start = (page - 1) * per_page
    return items[start:start + per_page]


def total_pages(count: int, per_page: int) -> int:
    return (count + per_page - 1) // per_page if count else 0


def drop_keys(item: dict, keys: Iterable[str]) -> dict:
    ks = set(keys)
    return {k: v for k, v in item.items() if k not in ks}
