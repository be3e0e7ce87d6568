"""write_digests: the four files of a digest from the run's cases and run summary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import json

from fixlore.compose import gate
from fixlore.compose.digest import build_digest
from fixlore.compose.figures import compute_figures
from fixlore.compose.render import html, markdown, to_json
from fixlore.core.enums import FunnelStage
from fixlore.core.errors import ConfigError
from fixlore.core.model import Case
from fixlore.core.textclean import rendered  # the digests are read: bidi controls shown, never obeyed
from fixlore.edges.atomicfile import write_atomic

LANGS = ("zh", "en")


def write_digests(cases: list[Case], run_summary: dict[str, Any] | None, out_dir: str | Path,
                  langs: tuple[str, ...] | list[str] = LANGS, on_findings: str = "mark",
                  check_out: dict[str, Any] | None = None) -> dict[str, Path]:
    """Write digest.<lang>.md for each language, digest.html (all languages, one page) and
    digest.json (figures, the digests and the analysed cases); return {"md_zh", "md_en", "html",
    "json"} -> path.

    Every figure is computed from `cases`. From `run_summary` (run.json or a part of it) only these
    keys are read, all optional: title, orgs, window{since, until} (or since / until /
    snapshot_at), repo_descriptions{full_name: text}, and the stage summaries — given either as
    top-level keys or as the pipeline's `stages` list of {name, summary}: analyse (llm: tokens,
    cost, cache_hits, requests, llm_failures, prompt_version), link (audit{checked, passed,
    failed}, used when the cases carry no audit of their own), harvest (requests, repos, orgs)."""
    langs = tuple(langs)
    bad = [lg for lg in langs if lg not in LANGS]
    if bad or not langs:
        raise ConfigError(f"unknown digest language {bad or langs}; use zh, en or both")
    run = run_summary or {}
    figures = compute_figures(cases, run)
    digests = {lg: build_digest(cases, run, lg, figures) for lg in langs}
    kept = [c.to_export() for c in sorted(cases, key=lambda c: (c.repo, c.number))
            if c.funnel in (FunnelStage.SELECTED, FunnelStage.ANALYSIS)]
    # the editorial check reads the digest before anything is written (compose/gate.py): in mode
    # "fail" a finding stops here, in mode "mark" the flagged rows are marked and disclosed
    findings = gate.gate(json.loads(to_json(digests, figures, kept)), on_findings, check_out)
    if findings:
        gate.mark(digests, gate.record(on_findings, findings)["found"])
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for lg, d in digests.items():
        p = out / f"digest.{lg}.md"
        write_atomic(p, rendered(markdown(d)))
        paths[f"md_{lg}"] = p
    p = out / "digest.html"
    write_atomic(p, rendered(html([digests[lg] for lg in langs])))
    paths["html"] = p
    p = out / "digest.json"
    write_atomic(p, rendered(to_json(digests, figures, kept)))
    paths["json"] = p
    return paths
