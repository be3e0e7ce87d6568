"""The editorial check as a gate before a digest is written (issue #22): on a finding, either the
publish fails, nothing written, each finding named ("fail"), or the digest is written with each
flagged row marked and every finding disclosed in it ("mark").

Which is the default depends on what is written. A series edition is the publication: its number
is used and its rows go into the ledger, so it fails by default (`--on-findings mark` publishes it
marked). A plain `fixlore run` or `fixlore digest` writes a working copy into its own folder: it
marks by default, so its reader sees what the check found, and `--on-findings fail` makes it a
gate too. Either way run.json (or the edition's ledger inputs) records what the check found.
Pure logic: the callers write."""

from __future__ import annotations

from typing import Any, Mapping

from fixlore.compose.check import CLASSES, Finding, by_class, check_digest
from fixlore.core.errors import ConfigError, FixloreError

MODES = ("fail", "mark")
_NAMED = 20          # findings named in the refusal; the rest counted

_MARK = {"zh": "【编辑检查】", "en": "[editor's check] "}
_LABEL = {"zh": "编辑检查", "en": "Editorial check"}
_CLASS_ZH = {"tense": "时态与 PR 状态不符", "cut": "截断", "arithmetic": "主题算术不符", "credit": "归功的 PR 非本案修复",
             "language": "语言不符", "boilerplate": "套话", "disclosure": "披露数字与行不符"}
_CLASS_EN = {"tense": "tense against the PR's state", "cut": "cut cell", "arithmetic": "theme arithmetic",
             "credit": "PR credited that is not the fix", "language": "wrong language",
             "boilerplate": "boilerplate", "disclosure": "disclosure figure"}


class DigestRejected(FixloreError):
    """The editorial check found what a reader would reject; the digest was not written."""

    exit_code = 1


def mode_of(value: str | None, default: str) -> str:
    mode = value or default
    if mode not in MODES:
        raise ConfigError(f"--on-findings must be fail or mark, not '{mode}'")
    return mode


def gate(data: Mapping[str, Any], mode: str, into: dict[str, Any] | None = None) -> list[Finding]:
    """Every finding of the check on `data` (a fixlore-digest/1 digest), recorded in `into` (for
    run.json) before anything else; in mode "fail", any finding raises DigestRejected naming them."""
    findings = check_digest(data)
    if into is not None:
        into.update(record(mode, findings))
    if findings and mode == "fail":
        named = "; ".join(f"{f.where}: {f.kind} ({f.why})" for f in findings[:_NAMED])
        more = f" and {len(findings) - _NAMED} more" if len(findings) > _NAMED else ""
        raise DigestRejected(f"the editorial check rejects the digest, nothing written: {named}{more}; "
                             "fix them, or write it with the rows marked (--on-findings mark)")
    return findings


def record(mode: str, findings: list[Finding]) -> dict[str, Any]:
    """What run.json (or an edition's inputs) keeps of the check."""
    return {"mode": mode, "findings": len(findings), "by_class": by_class(findings),
            "found": [{"where": f.where, "kind": f.kind, "why": f.why} for f in findings]}


def _parts(where: str) -> tuple[str, str]:
    """("zh", "infer-serve#31") for a row's finding, (lang, "") for a theme's, the guide's..."""
    words = where.split(" ")
    lang = words[0]
    case = words[1] if len(words) >= 3 and "#" in words[1] else ""
    return lang, case


def _place(where: str, lang: str) -> str:
    """Where a finding is, in the reader's words: the case, "theme 2", "guide 3", "several rows"."""
    words = where.split(" ")[1:]
    _, case = _parts(where)
    if case:
        return case
    head = words[0] if words else ""
    number = words[1] if len(words) > 1 and words[1].isdigit() else ""
    zh = {"theme": f"主题 {number}", "guide": f"指南第 {number} 条", "rows": "多行", "disclosure": "披露"}
    en = {"theme": f"theme {number}", "guide": f"guide {number}", "rows": "several rows", "disclosure": "disclosure"}
    return (zh if lang == "zh" else en).get(head, head).strip()


def mark(digests: dict[str, dict[str, Any]], found: list[Mapping[str, str]]) -> None:
    """Mark each flagged row and disclose every finding in its own digest's disclosure (in place).
    `found` holds record()'s entries, so a ledger's inputs mark an edition again the same way."""
    for lang, digest in digests.items():
        mine = [f for f in found if _parts(str(f.get("where", "")))[0] == lang]
        if not mine:
            continue
        flagged = {_parts(str(f["where"]))[1] for f in mine} - {""}
        for row in (r for repo in digest.get("repos") or () for r in repo.get("rows") or ()):
            if row.get("case") in flagged:
                for key in ("answer", "prose"):
                    if row.get(key):
                        row[key] = _MARK.get(lang, _MARK["en"]) + str(row[key])
        names = _CLASS_ZH if lang == "zh" else _CLASS_EN
        places: dict[str, list[str]] = {}
        for f in mine:
            spot = _place(str(f.get("where", "")), lang)
            if spot not in places.setdefault(str(f.get("kind")), []):
                places[str(f.get("kind"))].append(spot)
        parts = [f"{names.get(k, k)} {len(places[k])}（{'、'.join(places[k])}）" if lang == "zh"
                 else f"{names.get(k, k)} {len(places[k])} ({', '.join(places[k])})" for k in CLASSES if k in places]
        if lang == "zh":
            text = (f"发布前的编辑检查发现 {len(mine)} 处读者会退回的问题：{'；'.join(parts)}。"
                    f"涉及的行以“{_MARK['zh']}”开头。")
        else:
            text = (f"Before this digest was written, the editorial check found {len(mine)} thing{'' if len(mine) == 1 else 's'} a reader would "
                    f"send back: {'; '.join(parts)}. The rows concerned begin with \"{_MARK['en'].strip()}\".")
        digest.setdefault("disclosure", []).append({"label": _LABEL.get(lang, _LABEL["en"]), "text": text,
                                                    "untranslated": []})
