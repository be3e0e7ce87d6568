"""Funnel settings. Defaults are the seed digest's rules; a world or a run may override them."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from fixlore.errors import ConfigError

DEFAULT_TEMPLATES = ("API一致性任务", "重复-请忽略")


@dataclass(slots=True)
class FunnelConfig:
    # Titles that mark a template flood wherever they appear in the title.
    templates: tuple[str, ...] = DEFAULT_TEMPLATES
    # Flood detection: one author's titles that survived the earlier stages (window, resolved,
    # internal, CVE, empty title, templates) and are near-identical after
    # digits are masked (rapidfuzz ratio >= flood_similarity, 0..100) form a cluster; a
    # cluster of at least flood_min_size issues is a flood. Five near-copies from one
    # account is well above what a person files by hand for distinct problems.
    flood_min_size: int = 5
    flood_similarity: float = 92.0
    # Titles shorter than this (after masking) are too short to judge similarity reliably.
    flood_min_title_len: int = 6
    # How many pool issues go to deep analysis; the rest is the backlog ("rank").
    rank_top_k: int = 63
    # Issue types / labels that mark internal tickets (compared case-insensitively).
    internal_types: tuple[str, ...] = ("任务", "task", "内部任务", "internal", "需求任务",
                                       "检视意见", "review", "code review")
    internal_labels: tuple[str, ...] = ("internal", "task", "内部", "内部任务", "内部测试", "internal-test",
                                        "review", "review-comment", "code-review", "检视意见", "代码检视",
                                        "版本任务", "release-task", "iteration", "迭代任务", "转测")
    # Matched exactly, and as a prefix before "/" or ":" (CVE/FIXED, security:low).
    security_labels: tuple[str, ...] = ("cve", "security", "security-advisory", "vulnerability",
                                        "安全", "安全漏洞", "漏洞")
    unresolved_labels: tuple[str, ...] = ("duplicate", "invalid", "wontfix", "won't fix", "wont fix",
                                          "rejected", "not planned", "重复", "不予解决", "无效", "已拒绝")
    unresolved_states: tuple[str, ...] = ("已拒绝", "已取消", "拒绝", "取消", "重复", "不予解决", "无效",
                                          "rejected", "canceled", "cancelled", "duplicate", "won't fix",
                                          "wontfix", "invalid", "not planned")
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, data: dict[str, Any] | None) -> "FunnelConfig":
        """Build from a plain mapping (world.yaml, a config file); unknown keys go to `extra`."""
        cfg = cls()
        if not data:
            return cfg
        names = {f.name for f in fields(cls)} - {"extra"}
        for key, value in data.items():
            if key not in names:
                cfg.extra[key] = value
                continue
            current = getattr(cfg, key)
            try:
                if isinstance(current, tuple):
                    value = tuple(str(v) for v in (value if isinstance(value, (list, tuple)) else [value]))
                elif isinstance(current, bool):
                    value = bool(value)
                elif isinstance(current, int):
                    value = int(value)
                elif isinstance(current, float):
                    value = float(value)
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"funnel setting {key!r}: cannot use {value!r}") from exc
            setattr(cfg, key, value)
        if cfg.rank_top_k < 0:
            raise ConfigError("funnel setting 'rank_top_k' must be >= 0")
        return cfg
