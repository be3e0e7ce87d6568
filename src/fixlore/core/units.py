"""Durations as people read them: the largest two units, in the digest's language (used by the
digest and by the serve stage's pages)."""

from __future__ import annotations

_UNITS = ((86400, "d", "天"), (3600, "h", "小时"), (60, "min", "分"), (1, "s", "秒"))


def human_lag(seconds: int | float | None, lang: str = "en") -> str:
    """`3 d 4 h`, `2 h 5 min`, `55 s` (zh: `3 天 4 小时`); the smaller unit is dropped when zero.
    The sign is not shown: callers say "early" or "late" in words. None reads "?".

    For pages and for lists of lags (the methods section, serve's case pages), where exact units
    let a reader compare items. A fact sentence says its lag as one rounded figure instead
    (`facts.format_lag`: "43.5 h", not "1 d 19 h"); the two are kept apart on purpose, since
    either as the rule for both would change the digests' text."""
    if seconds is None:
        return "?"
    s = abs(int(round(seconds)))
    if s == 0:
        return "0 秒" if lang == "zh" else "0 s"
    parts = []
    for size, en, zh in _UNITS:
        n, s = divmod(s, size)
        if n or parts:
            parts.append((n, zh if lang == "zh" else en))
        if len(parts) == 2:
            break
    parts = [p for i, p in enumerate(parts) if p[0] or i == 0]
    return " ".join(f"{n} {unit}" for n, unit in parts)
