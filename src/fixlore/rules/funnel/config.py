"""Funnel settings. Defaults are the seed digest's rules; a world or a run may override them."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from fixlore.core.errors import ConfigError
from fixlore.rules.funnel.vocabulary import fold, folded, has_label, terms

DEFAULT_TEMPLATES = ("API一致性任务", "重复-请忽略")


@dataclass(slots=True)
class FunnelConfig:
    # Titles that mark a template flood wherever they appear in the title.
    templates: tuple[str, ...] = DEFAULT_TEMPLATES
    # Flood detection: one author's titles that survived window, unresolved, CVE, empty title
    # and templates (internal-typed ones included: funnel.cheap.cheap_funnel says why) and are
    # near-identical after digits are masked (rapidfuzz ratio >= flood_similarity, 0..100)
    # form a cluster; a cluster of at least flood_min_size issues is a flood. Five near-copies
    # from one account is well above what a person files by hand for distinct problems.
    # Fitted on: ascend-2026-09 (the three numbers reproduce the seed's 38 floods there);
    # demo and github-mini agree; no other world was used.
    flood_min_size: int = 5
    flood_similarity: float = 92.0
    # Titles shorter than this (after masking) are too short to judge similarity reliably.
    flood_min_title_len: int = 6
    # How many pool issues go to deep analysis; the rest is the backlog ("rank"). 63 is the
    # seed digest's own cut (ascend-2026-09), not a fitted figure; each world sets its own.
    rank_top_k: int = 63
    # Or a value threshold: every pool issue whose value is at least this goes to deep analysis
    # (the top-K cut is then not used). None: the top-K cut. Settings decide which one a run uses.
    value_min: float | None = None
    # Vocabularies (funnel/vocabulary.yaml: GitHub's and GitCode's defaults and wordings seen
    # on trackers), compared after funnel.vocabulary.fold. Issue types / labels of internal
    # tickets; security labels (also matched as the prefix before "/" or ":", CVE/FIXED,
    # security:low); labels and workflow states of issues closed without being resolved.
    internal_types: tuple[str, ...] = field(default_factory=lambda: terms("internal_types"))
    internal_labels: tuple[str, ...] = field(default_factory=lambda: terms("internal_labels"))
    # The generic work-item types among them: a failure reported under one is a user's (funnel.cheap.is_internal).
    work_item_types: tuple[str, ...] = field(default_factory=lambda: terms("work_item_types"))
    # Leading title tags of process tickets ("[RFC]: …"): rules.funnel.titles.
    internal_title_tags: tuple[str, ...] = field(default_factory=lambda: terms("internal_title_tags"))
    # Leading title tags of users' reports ("[Bug]: …"): a process tag after one does not count.
    report_title_tags: tuple[str, ...] = field(default_factory=lambda: terms("report_title_tags"))
    # Title tags and labels of a request for new work (rules.funnel.bookkeeping).
    request_kinds: tuple[str, ...] = field(default_factory=lambda: terms("request_kinds"))
    security_labels: tuple[str, ...] = field(default_factory=lambda: terms("security_labels"))
    unresolved_labels: tuple[str, ...] = field(default_factory=lambda: terms("unresolved_labels"))
    unresolved_states: tuple[str, ...] = field(default_factory=lambda: terms("unresolved_states"))
    # Labels a stale process sets before its close (link.stale_label).
    stale_labels: tuple[str, ...] = field(default_factory=lambda: terms("stale_labels"))
    noise_labels: tuple[str, ...] = field(default_factory=lambda: terms("noise_labels"))
    extra: dict[str, Any] = field(default_factory=dict)

    def stale_label(self, labels: list[str] | tuple[str, ...]) -> str:
        """The first of `labels` a stale process sets (`stale_labels`, compared folded, a scoped
        label by its value: "status:stale"), or ""."""
        return has_label(labels, folded(tuple(self.stale_labels)))

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
                if key == "value_min":
                    value = None if value is None else _value_min(value)
                elif isinstance(current, tuple):
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
        if cfg.value_min is not None and not 0.0 <= cfg.value_min <= 1.0:
            raise ConfigError("funnel setting 'value_min' must be between 0 and 1")
        return cfg


def _value_min(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError
    return float(value)
