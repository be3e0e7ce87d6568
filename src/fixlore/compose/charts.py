"""Charts of a digest: the data (from the run's figures) and inline SVG drawn from it.

The SVG is built on the server from numbers and escaped labels only: no script, no external
reference, no style sheet, so the page's Content-Security-Policy (script-src 'none',
img-src 'none') lets it render. Labels may come from issue-derived names (repositories), so
every one goes through `escape`."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup, escape

TIMING_TEXT = {
    "same_second": ("合入同秒关单", "same second"),
    "auto_close": ("合入即关单", "closed by the merge"),
    "minutes": ("分钟级", "within the hour"),
    "later": ("合入一小时后关单", "over an hour after the merge"),     # the lag, not who closed
    "stale": ("stale 关单", "stale close"),
    "before_merge": ("关单早于合入", "closed before merge"),
    "no_fix": ("无已合入修复", "no merged fix"),
    "": ("未判定", "not judged"),
}
TIMING_ORDER = tuple(TIMING_TEXT)

_BAR, _SECOND, _TRACK = "#3b74d9", "#d4a72c", "#eef1f4"   # the bar colour is used nowhere else (tests find it)
_W, _LABEL_W, _NUM_W, _ROW, _TOP = 384, 140, 62, 24, 8


def _t(lang: str, zh: str, en: str) -> str:
    return zh if lang == "zh" else en


def funnel_chart(funnel: dict[str, Any], lang: str) -> dict[str, Any]:
    """considered → closed in the window → resolved user-side → pool → analysed → kept + dropped."""
    f = funnel
    bars = [
        {"label": _t(lang, "考察", "considered"), "value": f["considered"]},
        {"label": _t(lang, "窗口内关单", "closed in window"), "value": f["closed_in_window"]},
        {"label": _t(lang, "已解决×用户侧", "resolved, user-side"), "value": f["resolved_user_side"]},
        {"label": _t(lang, "有效池", "pool"), "value": f["pool"]},
        {"label": _t(lang, "深析", "analysed"), "value": f["analysed"]},
        {"label": _t(lang, "入选 + 弃收", "kept + dropped"), "value": f["kept"], "second": f["dropped"],
         "legend": [_t(lang, f"入选 {f['kept']}", f"kept {f['kept']}"),
                    _t(lang, f"弃收 {f['dropped']}", f"dropped {f['dropped']}")]},
    ]
    return {"id": "funnel", "title": _t(lang, "漏斗", "Funnel"), "bars": bars}


def timing_chart(by_timing: dict[str, int], lang: str) -> dict[str, Any]:
    """How the analysed cases' closes relate to their fix, one bar per timing class seen."""
    known = [k for k in TIMING_ORDER if by_timing.get(k)]
    other = sorted(k for k in by_timing if k not in TIMING_TEXT and by_timing[k])
    lg = 0 if lang == "zh" else 1
    bars = [{"label": TIMING_TEXT[k][lg] if k in TIMING_TEXT else k, "value": by_timing[k]} for k in known + other]
    return {"id": "timing", "title": _t(lang, "时序分类（深析案例）", "Timing classes (analysed cases)"), "bars": bars}


def repo_chart(overview: list[dict[str, Any]], lang: str) -> dict[str, Any]:
    bars = [{"label": r["repo"], "value": r["count"]} for r in overview]
    return {"id": "repos", "title": _t(lang, "各仓收录条数", "Cases per repository"), "bars": bars}


def _fit(label: str, room: float = _LABEL_W - 10) -> str:
    """The label cut with an ellipsis where it would run past the label column at 13 px
    (wide characters about 13 px, others about 6.6 px); the bar's tooltip keeps it whole."""
    used, out = 0.0, []
    for ch in label:
        used += 13 if ord(ch) >= 0x2E80 else 6.6
        if used > room:
            return "".join(out).rstrip() + "…"
        out.append(ch)
    return label


def _num(n: float) -> str:
    return f"{int(n):,}"


def svg(chart: dict[str, Any]) -> Markup:
    """One horizontal bar chart; bar lengths are proportional to the largest value."""
    bars = chart.get("bars") or []
    top = max([int(b["value"]) + int(b.get("second", 0)) for b in bars] + [1])
    scale = (_W - _LABEL_W - _NUM_W) / top
    legend = next((b["legend"] for b in bars if b.get("legend")), None)
    height = _TOP + _ROW * len(bars) + (_ROW if legend else 0) + 4
    title = escape(chart.get("title", ""))
    out = [f'<svg class="chart" id="chart-{escape(chart.get("id", ""))}" '
           f'viewBox="0 0 {_W} {height}" width="{_W}" height="{height}" role="img" aria-label="{title}">',
           f"<title>{title}</title>"]
    for i, b in enumerate(bars):
        y = _TOP + i * _ROW
        value, second = int(b["value"]), int(b.get("second", 0))
        w1, w2 = value * scale, second * scale
        label = escape(b["label"])
        out.append(f'<text x="{_LABEL_W - 8}" y="{y + 16}" text-anchor="end" font-size="13" fill="#1f2328">'
                   f'{escape(_fit(str(b["label"])))}</text>')
        out.append(f'<rect x="{_LABEL_W}" y="{y + 3}" width="{_W - _LABEL_W - _NUM_W:.1f}" height="{_ROW - 6}" fill="{_TRACK}"/>')
        out.append(f'<rect class="bar" x="{_LABEL_W}" y="{y + 3}" width="{w1:.1f}" height="{_ROW - 6}" fill="{_BAR}">'
                   f"<title>{label}: {_num(value)}</title></rect>")
        if second:
            out.append(f'<rect class="bar second" x="{_LABEL_W + w1:.1f}" y="{y + 3}" width="{w2:.1f}" height="{_ROW - 6}" '
                       f'fill="{_SECOND}"><title>{label}: {_num(second)}</title></rect>')
        shown = f"{_num(value)} + {_num(second)}" if "second" in b else _num(value)
        out.append(f'<text x="{_LABEL_W + w1 + w2 + 6:.1f}" y="{y + 16}" font-size="13" fill="#1f2328">{shown}</text>')
    if legend:
        y = _TOP + len(bars) * _ROW + 4
        for j, (text, colour) in enumerate(zip(legend, (_BAR, _SECOND))):
            x = _LABEL_W + j * 90
            out.append(f'<rect x="{x}" y="{y + 2}" width="12" height="12" fill="{colour}"/>')
            out.append(f'<text x="{x + 17}" y="{y + 13}" font-size="12" fill="#57606a">{escape(text)}</text>')
    out.append("</svg>")
    return Markup("".join(out))
