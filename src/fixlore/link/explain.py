"""`fixlore explain`: one case's evidence chain, for a person to check.

Everything shown comes from the case (issue and PR text is hostile input: every value goes
through `fixlore.wording.terminal.text`, cleaned as pages are and never read as console markup).
"""

from __future__ import annotations

from rich.console import Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from fixlore.wording.terminal import plain, text

from fixlore.core.model import Case, pull_label
from fixlore.link.strength import made_by
from fixlore.rules.funnel.rank import DEFAULT_WEIGHTS, contributions


def _t(value) -> str:
    return value.isoformat() if value else "—"


def _human(seconds: int) -> str:
    s = abs(seconds)
    if s < 120:
        return f"{seconds}s"
    if s < 7200:
        return f"{seconds}s ({s / 60:.0f} min)"
    if s < 172800:
        return f"{seconds}s ({s / 3600:.1f} h)"
    return f"{seconds}s ({s / 86400:.1f} days)"


def value_table(features: dict[str, float], weights: dict[str, float] | None = None) -> Table:
    """The value's features: each value in [0, 1], its weight and weight x value, largest part first."""
    w = DEFAULT_WEIGHTS if weights is None else weights
    parts = contributions(features, w)
    table = Table(title="value features (score = bias + sum of weight x value, clamped to 0..1)",
                  title_justify="left", expand=True)
    for col in ("feature", "value", "weight", "contribution"):
        table.add_column(col, justify="left" if col == "feature" else "right")
    for name in sorted(features, key=lambda n: (-abs(parts[n]), n)):
        table.add_row(text(name), text(f"{features[name]:.3f}"), text(f"{float(w.get(name, 0.0)):+.2f}"),
                      text(f"{parts[name] + 0.0:+.3f}"))   # + 0.0: a negative weight x 0 is 0, not -0
    table.add_row(text("bias"), text(""), text(f"{float(w.get('bias', 0.0)):+.2f}"), text(f"{float(w.get('bias', 0.0)):+.3f}"))
    return table


def render_case(case: Case) -> Group:
    platform = case.platform
    head = Text()
    head.append(plain(f"{case.key}  "), style="bold")
    head.append(plain(case.title))
    head.append("\n" + plain(case.url), style="dim")
    facts = Table.grid(padding=(0, 2))
    facts.add_column(style="bold cyan", no_wrap=True)
    facts.add_column()
    stage = case.funnel + (f" ({case.drop_reason})" if case.drop_reason else "")
    if case.provisional:
        stage += "  [awaiting deep analysis]"
    facts.add_row("funnel", text(stage))
    facts.add_row("value", text(f"{case.value:.3f}"))
    vw = case.value_weights
    if vw:                               # the run was given learned weights (`fixlore run --value-weights`)
        facts.add_row("value weights", text(f"used ({vw.get('file', '')}): learned p {vw.get('p', 0):.3f}, "
                                            f"gate {'on' if vw.get('gate') else 'off'}, "
                                            f"{'sent to analysis' if vw.get('analysed') else 'not sent to analysis'}"))
        facts.add_row("", text(str(vw.get("why", "")), style="dim"))
    facts.add_row("closed", text(f"{_t(case.closed_at)}" + (f" by {case.closed_by}" if case.closed_by else "")))
    lag = "" if case.lag_s is None else f", lag {_human(case.lag_s)}"
    facts.add_row("timing", text(f"{case.timing}{lag}"))
    if case.timing_note:
        facts.add_row("", text(case.timing_note, style="dim"))
    if case.audit:
        held = case.audit.get("held")
        facts.add_row("audit", text(("held" if held else "FAILED" if held is False else "error") + ": "
                                    + "; ".join(case.audit.get("checks", [])) + (case.audit.get("error") or "")))
    for o in case.overrides:            # the editor's corrections that changed this case
        facts.add_row("override", text(f"{o.get('kind', '')}: {o.get('what', '')}  (from {o.get('source', '')})"))
    parts: list = [Panel(Group(head, text(""), facts), title="case", title_align="left")]
    if case.value_features:
        parts.append(value_table(case.value_features))

    fixes = Table(title="fix", title_justify="left", expand=True)
    for col in ("PR", "role", "state", "merged_at", "branch"):
        fixes.add_column(col)
    for f in case.fix:
        fixes.add_row(text(pull_label((f.repo, f.number), case.repo, platform)), text(f.role), text(f.state), text(_t(f.merged_at)),
                      text(f.base_ref))
    for f in case.pending_fix:
        # A pending fix that merged did land, only after the issue was closed: "not landed" beside
        # "merged" contradicts itself.
        role = "merged after the close" if f.merged else "not landed"
        fixes.add_row(text(pull_label((f.repo, f.number), case.repo, platform)), text(role, style="yellow"), text(f.state),
                      text(_t(f.merged_at)), text(f.base_ref))
    if not case.fix and not case.pending_fix:
        fixes.add_row(text("none"), text(""), text(""), text(""), text(""))
    parts.append(fixes)

    ev = Table(title="evidence", title_justify="left", expand=True)
    ev.add_column("kind", no_wrap=True)
    ev.add_column("what was seen")
    ev.add_column("where", no_wrap=True)
    for e in case.evidence:
        ev.add_row(text(e.kind, style="green"), text(e.detail), text(e.source, style="dim"))
    if not case.evidence:
        ev.add_row(text("none"), text(""), text(""))
    parts.append(ev)

    if case.traps:
        traps = Table(title="traps", title_justify="left", expand=True)
        traps.add_column("trap", no_wrap=True, style="red")
        traps.add_column("what shows it")
        for t in case.traps:
            traps.add_row(text(t), text(case.trap_notes.get(t, "")))
        parts.append(traps)

    if case.candidates:
        cands = Table(title="candidates considered", title_justify="left", expand=True)
        for col in ("PR", "verdict", "made by", "state", "signals"):
            cands.add_column(col)
        for c in case.candidates:
            sig = "\n".join(f"{s['kind']}{' (claims fix)' if s.get('claim') else ''}"
                            f"{' [' + s['withheld'] + ': credit withheld]' if s.get('withheld') else ''}: {s['detail']}"
                            for s in c.get("signals", []))
            if c.get("unrelated"):
                sig += f"\nunrelated: {c['unrelated']}"
            strength, kinds = made_by(c)
            cands.add_row(text(pull_label((c["repo"], c["number"]), case.repo, platform)), text(c.get("verdict", "")),
                          text(f"{strength}: {kinds}"), text(c.get("state", "")), text(sig))
        parts.append(cands)

    if case.problem or case.answer:
        body = Text()
        if case.problem:
            body.append("problem: ", style="bold")
            body.append(plain(case.problem) + "\n")
        if case.answer:
            body.append("answer: ", style="bold")
            body.append(plain(case.answer))
        parts.append(Panel(body, title="analysis", title_align="left"))
    if case.kb_refs:
        kb = Table(title="kb_refs", title_justify="left")
        kb.add_column("doc")
        kb.add_column("chunk")
        kb.add_column("score")
        for k in case.kb_refs:
            kb.add_row(text(k.doc), text(k.chunk), text(f"{k.score:.3f}"))
        parts.append(kb)
    return Group(*parts)
