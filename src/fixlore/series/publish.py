"""The next edition of a series, end to end, and a published edition rebuilt from the ledger.

``publish_edition`` runs the pipeline over the series' whole span (so the backlog and the
published cases are seen again), lets the series stage choose the edition's cases, then
builds the edition's files from the rows as they stand and records everything in the ledger
in one transaction. ``rebuild_edition`` builds the files again from the ledger alone and
checks them against the hashes recorded at publication.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from fixlore.compose.gate import gate
from fixlore.core.enums import FunnelStage
from fixlore.core.errors import ConfigError, FixloreError, NotFoundError
from fixlore.core.model import Case
from fixlore.core.timeutil import cases_in_zone, parse_time
from fixlore.edges.atomicfile import write_atomic
from fixlore.edges.inputs import check_db_url, redact_url
from fixlore.pipeline import STAGES, RunRequest, Stage, plan_run, run_pipeline, select_stages
from fixlore.series.edition import METHODS_OWN, build_files, counts_of, ordered_rows
from fixlore.series.ledgerview import ledger_view
from fixlore.series.model import Series
from fixlore.series.plan import EditionPlan
from fixlore.settings.config import SettingFlags
from fixlore.store import Store
from fixlore.store.ledger import Ledger

SERIES_STAGES = ["harvest", "funnel", "link", "series", "kb", "analyse", "serve"]


def series_stages() -> list[Any]:
    """The pipeline's stages for an edition: the series stage chooses the cases between link and
    kb, and the edition's files are built from the ledger (no compose)."""
    from fixlore.series import stage as series

    return select_stages(SERIES_STAGES, [*STAGES, Stage("series", series.run)])[0]

# What the digest reads from a run summary (compose.write_digests); the rest of run.json is not an input.
_RUN_KEYS = ("orgs", "window", "repo_descriptions", "stages", "overrides", "value_weights")
_STAGE_KEYS = ("harvest", "link", "analyse")


def default_db(out: Path) -> str:
    return f"sqlite:///{(Path(out) / 'fixlore.db').resolve()}"


def edition_dir(out: Path, series: str, number: int) -> Path:
    return Path(out) / "editions" / f"{series}-{number:03d}"


def _series(ledger: Ledger, name: str) -> Series:
    data = ledger.series(name)
    if data is None:
        known = ", ".join(s["name"] for s in ledger.all_series()) or "none yet"
        raise NotFoundError(f"no series '{name}' in this store (known: {known}); create it with `fixlore series create`")
    return Series.from_dict(data)


def next_edition(ledger: Ledger, series: Series, *, since: datetime | None, until: datetime,
                 focus: dict[str, list[str]] | None) -> dict[str, Any]:
    """Number, window and kind of the next edition: the window starts where the last regular
    edition's ended (or at the series' start), unless `since` says otherwise."""
    editions = ledger.editions(series.name)
    regular = [e for e in editions if e["kind"] == "regular"]
    start = since or (regular[-1]["window_until"] if regular else parse_time(series.since))
    if start is None:
        raise ConfigError(f"series '{series.name}' has no start: give --since or set `since` in the series")
    zone = (parse_time(series.since) or until).tzinfo
    start, until = start.astimezone(zone), until.astimezone(zone)
    focus = {k: list(v) for k, v in (focus or {}).items() if v}
    # a special edition may have no new closes at all: it can live on the backlog alone
    if start > until or (start == until and not focus):
        raise ConfigError(f"the window would be empty: it starts {start.isoformat()} and ends {until.isoformat()}")
    number = editions[-1]["number"] + 1 if editions else series.first_number
    span_start = min([e["window_since"] for e in editions if e["window_since"]] + [start])
    return {"number": number, "since": start, "until": until, "span_since": span_start.astimezone(zone),
            "kind": "special" if focus else "regular", "focus": focus}


def _run_inputs(info: dict[str, Any]) -> dict[str, Any]:
    run = {k: info[k] for k in _RUN_KEYS if k in info}
    run["stages"] = [{"name": s["name"], "summary": s.get("summary", {})} for s in info.get("stages", [])
                     if s.get("name") in _STAGE_KEYS]
    return json.loads(json.dumps(run, ensure_ascii=False, default=str))


def _backlog_entry(c: Case) -> dict[str, Any]:
    return {"repo": c.repo, "number": c.number, "value": round(c.value, 4), "title": c.title}


def publish_edition(name: str, *, out: Path, world: Path | None = None, db: str | None = None,
                    as_of: datetime | None = None, since: datetime | None = None,
                    focus: dict[str, list[str]] | None = None, config: Path | None = None,
                    flags: SettingFlags | None = None, quiet: bool = True, dry_run: bool = False,
                    allow_empty: bool = False, overrides: Path | None = None,
                    on_findings: str = "fail", reconcile: bool = False) -> dict[str, Any]:
    """Make and record the next edition of series `name`; return its ledger entry plus the folder
    written. ``flags`` are the run settings given as flags (their ``since`` and ``db`` are the
    edition's: the series' span and the store holding the ledger).

    An edition with no row in its tables, or a focus naming a repo the store does not know, is
    refused (nothing written, no number used) unless `allow_empty`. `dry_run` stops before the
    edition's files and its ledger record and returns what the edition would hold.

    The editorial check (compose/gate.py) reads the edition before it is written: a finding refuses
    it (nothing written, no number used) unless `on_findings` is "mark", which publishes it with the
    rows marked and the findings kept in the ledger's inputs (so a rebuild marks them the same)."""
    out = Path(out)
    db = check_db_url(db or default_db(out), check_folder=False)
    if db.startswith("sqlite:///") and not Path(db[len("sqlite:///"):].split("?", 1)[0]).expanduser().is_file():
        raise NotFoundError(f"no series '{name}': {redact_url(db)} holds no store yet; create the series first "
                            f"(`fixlore series create {name} --title ... --out {out}`)")
    until = as_of or datetime.now(timezone.utc)
    store = Store.open(db)
    try:
        ledger = Ledger(store)
        series = _series(ledger, name)
        plan_in = next_edition(ledger, series, since=since, until=until, focus=focus)
        prior = ledger_view(ledger, name)
        prior_backlog = {b["repo"] + "#" + str(b["number"]): b for b in
                         ((ledger.editions(name) or [{}])[-1].get("backlog") or [])}
        known_before = set(store.repo_pages())
    finally:
        store.close()
    if known_before and not allow_empty:
        check_focus(plan_in["focus"], known_before)
    flags = flags or SettingFlags()
    flags = replace(flags, db=db, since=plan_in["span_since"], orgs=flags.orgs or tuple(series.orgs))
    from fixlore.settings.overrides import series_overrides

    overrides = overrides or series_overrides(out)       # the editors' file beside the ledger
    request = RunRequest(out=out, world=world, settings=flags, config=config, as_of=as_of, quiet=quiet,
                         overrides=overrides, reconcile=reconcile)
    settings = plan_run(request, check_stages=False)
    until = plan_in["until"]
    edition_info = {"name": name, "number": plan_in["number"], "since": plan_in["since"].isoformat(),
                    "until": until.isoformat(), "focus": plan_in["focus"], "kind": plan_in["kind"]}
    top_k = series.top_k if series.top_k is not None else settings.rank_top_k
    if top_k is None:
        raise ConfigError(f"series '{name}' has no top_k: set it (`fixlore series create ... --top-k N`) "
                          "or give rank_top_k in the run settings")
    edition_info["top_k"] = int(top_k)
    info = run_pipeline(request, settings=settings, stages=series_stages(), extra_info={"series": edition_info})
    plan = EditionPlan.from_dict(info["series"]["plan"])

    store = Store.open(db)
    try:
        ledger = Ledger(store)
        if not allow_empty:
            check_focus(plan_in["focus"], set(store.repo_pages()))
        by_key = {c.key: c for c in store.load_cases()}
        cases_in_zone(list(by_key.values()), plan_in["since"].tzinfo)
        rows: list[dict[str, Any]] = []
        for key in plan.considered:
            c = by_key[key]
            rows.append({"role": "new" if key in plan.new else "considered",
                         "published": c.funnel == FunnelStage.SELECTED,
                         "row": c.to_export()})
        for key in plan.carried:
            c = by_key[key]
            rows.append({"role": "backlog", "published": c.funnel == FunnelStage.SELECTED, "row": c.to_export()})
        for key, why in plan.returned.items():
            c = by_key[key]
            rows.append({"role": "returned", "published": c.funnel == FunnelStage.SELECTED, "row": c.to_export(),
                         "change": why})
        for key, change in plan.updates.items():
            published = prior.published[key]
            current = by_key.get(key)
            row = current.to_export() if current else dict(published)
            for field in ("problem", "answer", "symptom", "first_action", "theme", "analysed_by"):
                row[field] = published.get(field, "")           # the analysis as published; the change is the news
            row["funnel"] = FunnelStage.SELECTED
            rows.append({"role": "update", "published": True, "row": row, "change": change})
        rows = ordered_rows(json.loads(json.dumps(rows, ensure_ascii=False, default=str)))
        waiting = [by_key[r["row"]["repo"] + "#" + str(r["row"]["number"])] for r in rows
                   if r["role"] in ("new", "backlog", "returned") and r["row"]["funnel"] == FunnelStage.RANK]
        backlog = [_backlog_entry(c) for c in sorted(waiting, key=lambda c: (c.repo, c.number))]
        backlog += [prior_backlog[k] for k in plan.outside if k in prior_backlog]
        backlog.sort(key=lambda b: (b["repo"], int(b["number"])))
        inputs = {
            "series": series.to_dict(),
            "edition": {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in plan_in.items()
                        if k in ("number", "since", "until", "kind", "focus")},
            "run": _run_inputs(info),
            "prior_backlog": {"count": len(prior_backlog), "left_pool": plan.left_pool,
                              "taken_elsewhere": plan.taken_elsewhere, "outside": plan.outside},
            "backlog": backlog,
            "methods": METHODS_OWN,
        }
        inputs = json.loads(json.dumps(inputs, ensure_ascii=False, default=str))
        counts = counts_of(rows, inputs)
        if dry_run:
            return would_hold(name, plan_in, rows, counts, backlog, refused=_empty(counts, allow_empty, name, plan_in))
        refused = _empty(counts, allow_empty, name, plan_in)
        if refused:
            raise FixloreError(refused)
        files = build_files(inputs, rows)
        checked: dict[str, Any] = {}
        findings = gate(json.loads(files["digest.json"]), on_findings, checked)
        if findings:
            inputs["check"] = checked
            files = build_files(inputs, rows)

        # the files first, the ledger's record last: a run stopped in between left no edition
        # behind, and the same command publishes this number again over the files
        folder = write_files(edition_dir(out, name, plan_in["number"]), files)
        ledger.record_edition(name, plan_in["number"], kind=plan_in["kind"], focus=plan_in["focus"] or None,
                              window_since=plan_in["since"], window_until=until,
                              scope={k: series.to_dict()[k] for k in ("orgs", "orgs_out", "repos", "repos_out")},
                              counts=counts, backlog=backlog, inputs=inputs, rows=rows, files=files)
        entry = ledger.edition(name, plan_in["number"]) or {}
    finally:
        store.close()
    return {"series": name, "number": plan_in["number"], "kind": plan_in["kind"], "folder": str(folder),
            "counts": entry.get("counts"), "window": {"since": edition_info["since"], "until": edition_info["until"]},
            "files": sorted(files)}


def check_focus(focus: dict[str, list[str]], known: set[str]) -> None:
    """A special edition's repos must be repos the store knows (a misspelt one would give an empty 专刊)."""
    low = {k.lower() for k in known}
    unknown = [r for r in focus.get("repos", []) if r.lower() not in low]
    if unknown:
        raise ConfigError(f"--repo {unknown[0]}: no such repository in this series' harvest "
                          f"({len(known)} known); check the spelling, or give --allow-empty")


def _empty(counts: dict[str, int], allow_empty: bool, name: str, plan_in: dict[str, Any]) -> str:
    """The refusal of an edition with no row in its tables, or "" when it may be published."""
    if counts["rows"] or allow_empty:
        return ""
    return (f"edition {plan_in['number']} of '{name}' would have no rows (window {plan_in['since'].isoformat()} .. "
            f"{plan_in['until'].isoformat()}): not published, the number stays free; "
            "give --allow-empty to publish it anyway, --dry-run to see what it would hold")


def would_hold(name: str, plan_in: dict[str, Any], rows: list[dict[str, Any]], counts: dict[str, int],
               backlog: list[dict[str, Any]], refused: str) -> dict[str, Any]:
    """What a dry run shows: the edition as it would be published, nothing written."""
    def keys(role: str) -> list[str]:
        return [f"{r['row']['repo']}#{r['row']['number']}" for r in rows if r["role"] == role and r["published"]]
    return {"series": name, "number": plan_in["number"], "kind": plan_in["kind"], "dry_run": True,
            "window": {"since": plan_in["since"].isoformat(), "until": plan_in["until"].isoformat()},
            "focus": plan_in["focus"], "counts": counts,
            "rows": {role: keys(role) for role in ("new", "backlog", "returned", "update")},
            "returned": {f"{r['row']['repo']}#{r['row']['number']}": r["change"] for r in rows if r["role"] == "returned"},
            "backlog": len(backlog), **({"refused": refused} if refused else {})}


def write_files(folder: Path, files: dict[str, bytes]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        write_atomic(folder / name, data)
    return folder


def rebuild_edition(store: Store, name: str, number: int) -> dict[str, bytes]:
    """Edition `number` of `name` built again from the ledger; raises when a file's hash differs
    from the one recorded at publication (the edition would not be the one published)."""
    ledger = Ledger(store)
    entry = ledger.edition(name, number)
    if entry is None:
        raise NotFoundError(f"series '{name}' has no edition {number}")
    rows = [{"role": r["role"], "published": r["published"], "row": r["row"], "change": r["change"]}
            for r in ledger.rows(name, number)]
    files = build_files(entry["inputs"], ordered_rows(rows))
    recorded = ledger.files(name, number)
    for fname, data in files.items():
        want = recorded.get(fname, {}).get("sha256")
        if want != hashlib.sha256(data).hexdigest():
            raise FixloreError(f"edition {number} of '{name}': {fname} no longer rebuilds to the published bytes")
    return files
