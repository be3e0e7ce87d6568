"""Timestamps as the platforms send them: ISO 8601 with an offset, a bare Z, milliseconds, or unset."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

# The zone each platform shows its times in: a bare date given for a window means this zone.
PLATFORM_ZONES = {"gitcode": timezone(timedelta(hours=8)), "gitee": timezone(timedelta(hours=8)),
                  "github": timezone.utc}
_OFFSET = re.compile(r"(Z|[+-]\d{2}(:?\d{2})?)$", re.IGNORECASE)


def parse_time(value: Any) -> datetime | None:
    """Parse a platform timestamp; ``""``, ``None`` and unparsable values give ``None``.

    A naive value (no offset) is taken as UTC so that comparisons never mix naive and aware.
    """
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    text = str(value).strip()
    if not text:
        return None
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        try:
            parsed = datetime.strptime(text[:10], "%Y-%m-%d")
        except ValueError:
            return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


# What a user may give as a time (a window start, --as-of): these years, real zone offsets.
USER_YEARS = (1970, 2100)
MAX_OFFSET = timedelta(hours=14)          # zones run from -12:00 to +14:00


def parse_user_time(value: Any) -> datetime:
    """A time the user typed, strictly: ISO 8601 (``2026-09-17``, ``2026-09-17T08:00``,
    ``2026-09-17T08:00:00+08:00``, ``...Z``), a real calendar time, an offset within ±14:00 and a
    year in ``USER_YEARS``; anything else raises ValueError saying what is wrong. Unlike
    :func:`parse_time` nothing is guessed: ``2026-09-19Tjunk`` is an error, not midnight.

    A value without an offset comes back naive-as-UTC (``tzinfo`` UTC); the caller decides the
    zone a bare date means (`fixlore.settings.config.settings_from`: the platform's)."""
    if isinstance(value, datetime):
        parsed = value
    else:
        text = str(value if value is not None else "").strip()
        if not text:
            raise ValueError("it is empty")
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            raise ValueError("it is not an ISO 8601 date or time") from None
    if parsed.utcoffset() is not None and abs(parsed.utcoffset()) > MAX_OFFSET:
        raise ValueError(f"its offset {parsed.strftime('%z')} is beyond ±14:00")
    if not USER_YEARS[0] <= parsed.year <= USER_YEARS[1]:
        raise ValueError(f"year {parsed.year} is out of range ({USER_YEARS[0]}-{USER_YEARS[1]})")
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def iso(value: datetime | None) -> str:
    """Render a time back to ISO 8601 (empty string when unset), keeping its offset."""
    return value.isoformat() if value else ""


def lag_seconds(later: datetime | None, earlier: datetime | None) -> int | None:
    if later is None or earlier is None:
        return None
    return int(round((later - earlier).total_seconds()))


def in_zone(objects, tz) -> None:
    """Move every aware datetime attribute of these dataclass objects into ``tz`` (same instant).

    The store keeps UTC; a run shows times in its window's own offset, so a GitCode user reads
    the +08:00 times the platform itself shows."""
    from dataclasses import fields

    if tz is None:
        return
    for obj in objects:
        for f in fields(obj):
            value = getattr(obj, f.name)
            if isinstance(value, datetime) and value.tzinfo is not None:
                setattr(obj, f.name, value.astimezone(tz))


def cases_in_zone(cases, tz) -> None:
    """`in_zone` for cases and the fix PRs they carry (merged and pending)."""
    in_zone(cases, tz)
    in_zone([f for c in cases for f in (*c.fix, *c.pending_fix)], tz)


def has_offset(text: str) -> bool:
    """Does this ISO text name its zone ("...+08:00", "...Z")? A bare date or local time does not."""
    text = str(text).strip()
    return len(text) > 10 and bool(_OFFSET.search(text))


def in_platform_zone(when: datetime, platform: str) -> datetime:
    """Read a time given without a zone (parsed as UTC) as the same wall-clock time in the platform's zone."""
    zone = PLATFORM_ZONES.get(platform, timezone.utc)
    return when.replace(tzinfo=zone)
