"""The editorial check: read a digest (digest.json, `fixlore-digest/1`) as its reader would and name
what that reader would reject. Pure logic: `check_digest(data)` takes the parsed JSON and returns
findings; the compose stage gates on them and `fixlore check` prints them.

Classes (issue #22): tense (a landed fix told as a plan or in review, an unlanded one told as done),
cut (a cell that stops mid-fact), arithmetic (a theme's counts that do not add up against the rows it
names), credit (a PR credited as the fix that the case's links do not make its fix; rules.credit),
language (a row in the other language), boilerplate (a sentence repeated across rows, self-check
noise), disclosure (a disclosure figure that differs from the rows)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any, Mapping

from fixlore.compose.language import MARK as QUOTE_MARK, foreign_prose
from fixlore.rules.clauses import ANALYST_CUT, HEADLESS, opening_alone
from fixlore.rules.credit import creditable_pulls, merged_pulls
from fixlore.rules.refs import credited_pulls, disowned_pulls, without_trailing_pulls

CLASSES = ("tense", "cut", "arithmetic", "credit", "language", "boilerplate", "disclosure")
FORMAT = "fixlore-digest/1"


@dataclass(frozen=True)
class Finding:
    where: str          # "zh infer-serve#31 answer", "zh theme 2", "en disclosure"
    kind: str           # one of CLASSES
    text: str
    why: str

    def to_dict(self) -> dict[str, str]:
        return asdict(self)


# A merged fix told as still to come. Words a Chinese or English reader takes as "not done yet".
_PLAN = re.compile(r"计划|准备(?:统一|改|拆|修)|修复中|检视中|(?:提交|开发)中|待合入|评审中|将(?:在|于)|\bplan(?:s|ned)? to\b|"
                   r"\bwill (?:fix|be fixed|land)\b|\bunder review\b|\bin review\b|\bbeing fixed\b", re.I)
# An unlanded fix told as landed.
_DONE = re.compile(r"已合入|已修复|\d\d-\d\d 合入|\bmerged (?:on|in|at)\b|\bhas been fixed\b|\bwas fixed\b", re.I)
_NOT_DONE = re.compile(r"未合入|未落地|未合|not (?:yet )?(?:merged|landed)|\bopen\b|unmerged", re.I)
_CUT_END = re.compile(r"(?:…|\.\.\.|例如[。：:]?|比如[。：:]?|such as\.?|e\.g\.,?|[，,、；;：:（(]|\b(?:and|or|the|of|to|with)\.?"
                      rf"|{HEADLESS}\.?)\s*$",      # rules.clauses: a determiner with its noun gone ("The only.")
                      re.I)
# A cut inside the cell: an ellipsis or a colon/comma closed by a full stop, "例如。" with nothing named.
# (In the English digest a quoted Chinese sentence closes with ". ": "CrashLoopBackOff：. Closed ...")
_CUT_INSIDE = re.compile(r"(?:…|\.\.\.)\s*[。；;]|[：:，,、]\s*[。]|[：，、]\s*\.(?=\s|$)|例如\s*[。.]|e\.g\.\s*\.")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_CODE = re.compile(r"`[^`]*`|https?://\S+|[\w./-]*[_/.][\w./-]+")      # identifiers and paths are language-free
_SENTENCE = re.compile(r"[^。！？!?]+[。！？!?]|[^.]+\.(?=\s|$)")
_SELF_CHECK = re.compile(r"【自检】|\[self-check\]|自检[:：]", re.I)
_THEME_TOTAL = re.compile(r"本组\s*(\d+)\s*案|^\s*(\d+)\s*案[：:]|(\d+)\s*cases?\b", re.I)
# "回归与上游改动 4 案：…" / "Regressions after a change, 4 cases: …"
_HEADLINE_TOTAL = re.compile(r"(\d+)\s*案[：:]|(\d+) cases?:", re.I)
_THEME_MERGED = re.compile(r"(\d+)\s*(?:案修复已合入|案?合入(?!即)|(?:fixes? )?merged|with a merged fix)", re.I)
_THEME_PENDING = re.compile(r"(\d+)\s*(?:案|条)?\s*(?:修复)?未落地|(\d+)\s*(?:not landed|pending|whose fix has not landed)",
                            re.I)
_THEME_NOFIX = re.compile(r"(\d+)\s*(?:案|条)?\s*(?:为官方答复)?无(?:代码)?修复|(\d+)\s*(?:with |answered )?(?:no|without a) (?:code )?(?:fix|change)",
                          re.I)
# the theme's count sentence comes first ("7 案：4 案修复已合入、1 案修复未落地、2 案无代码修复。");
# the examples after it quote the cases, whose own numbers ("09-17 合入") are not the theme's counts
_COUNT_SENTENCE = re.compile(r"^[^。]*。|^.*?\.(?=\s|$)", re.S)
# "跨 2 个仓（mind-cluster 4、MindSpeed-MM 3）" / "From 2 repositories (mind-cluster 4, MindSpeed-MM 3)"
_PER_REPO = re.compile(r"跨\s*(\d+)\s*个仓[（(]([^）)]*)[）)]|From (\d+) repositories \(([^)]*)\)")
# The funnel's count of the cases kept for the digest, as the disclosure words it; a bare "N kept"
# may count something else (a series edition's "0 kept here" of the previous backlog, editors' keeps).
_KEPT = re.compile(r"留\s*(\d+)\s*条入选|in depth:\s*(\d+)\s*kept\b", re.I)
_ROWS_OF = re.compile(r"(\d+)\s*行中|of (?:the )?(\d+) rows", re.I)
# A sentence shorter than this many words (a date, "已合入。", the case's own close timing "合入当秒自动
#关单。" / "Closed in the same second as the merge.") is a fact's formula, not boilerplate. Counted in
# words read, a Chinese character or a Latin word each, so that a sentence and its translation weigh
# alike (the seed no. 16 repeats "merged 与关单秒级一致。" in 3 rows; its readers accept it).
_BOILER_MIN = 10
_WORD = re.compile(r"[\u4e00-\u9fff]|[A-Za-z0-9_]+(?:[.'/#!-][A-Za-z0-9_]+)*")
_BOILER_ROWS = 3      # the same sentence in this many rows reads as a template


def case_key(case: Mapping[str, Any]) -> str:
    return f"{str(case.get('repo', '')).rsplit('/', 1)[-1]}#{case.get('number')}"


def _first(match: re.Match | None) -> int | None:
    if match is None:
        return None
    return int(next(g for g in match.groups() if g is not None))


def _rows(digest: Mapping[str, Any]):
    for repo in digest.get("repos") or ():
        for row in repo.get("rows") or ():
            yield row


def _tense(where: str, text: str, case: Mapping[str, Any]) -> list[Finding]:
    merged = merged_pulls(case)
    if merged and (m := _PLAN.search(text)):
        return [Finding(where, "tense", text, f"'{m.group(0)}' for a fix merged (!{min(merged)})")]
    if not merged and (m := _DONE.search(text)) and not _NOT_DONE.search(text):
        return [Finding(where, "tense", text, f"'{m.group(0)}' but no fix of this case landed")]
    return []


def _cut(where: str, text: str) -> list[Finding]:
    stripped = text.strip()
    if stripped and (m := _CUT_END.search(stripped)):
        return [Finding(where, "cut", text, f"the cell stops at '{m.group(0).strip()}'")]
    if m := _CUT_INSIDE.search(stripped):
        return [Finding(where, "cut", text, f"a sentence cut at '{m.group(0).strip()}'")]
    # a sentence that is only the opening clause of one ("Fix: after re-collection."): its main clause was cut
    for sentence in _PARA_SENTENCE.findall(stripped):
        if opening_alone(sentence):
            return [Finding(where, "cut", text, f"'{sentence.strip()}' is only the opening clause of a sentence")]
    return []


def _says_nothing(where: str, text: str) -> list[Finding]:
    """A theme bullet whose words before its PRs hold fewer than three letters ("1（!1309）"): its fact
    was lost (a bullet with no text shows its case's problem alone, with no separator after it; one
    that is only its PRs, "见 !57", says where the fix is)."""
    said = without_trailing_pulls(text.strip())
    # a Chinese word is two characters ("升级", "换卡"): each counts as two letters
    if said and sum(2 if "\u3400" <= ch <= "\u9fff" else 1 for ch in said if ch.isalnum()) < 3:
        return [Finding(where, "cut", text, "the bullet says nothing of its case")]
    return []


# a paragraph's sentences: the marks that end one in either language ("; " and "；" end a clause that
# is read as said too: a theme's examples are joined by them)
_PARA_SENTENCE = re.compile(r"[^。！？；]+[。！？；]|[^.;]+[.;](?=\s|$)|[^。！？；.;]+$")


# a case's example that says (almost) nothing: "如 memfabric_hybrid#472：1；" (a list's ordinal left alone)
_EMPTY_EXAMPLE = re.compile(r"([\w.-]+#\d+)\]?(?:\([^)\s]*\))?\s*[：:]\s*([^\s；;。.]{1,3})\s*(?:[；;。]|\.(?=\s|$))")


_CUT_MARK = re.compile(ANALYST_CUT, re.I)


def _paragraph_cut(where: str, text: str) -> list[Finding]:
    """A paragraph (a theme's) is read sentence by sentence: each one must end a fact, not only
    the last. A sentence stopping at a colon, a comma or a dangling word ("如 X：The only.") is cut."""
    found: list[Finding] = []
    for sentence in _PARA_SENTENCE.findall(text or ""):
        body = sentence.strip().rstrip("。！？；.;").strip()
        if body and (m := _CUT_END.search(body)):
            found.append(Finding(where, "cut", sentence.strip(), f"a sentence of the paragraph stops at '{m.group(0).strip()}'"))
        elif m := _CUT_MARK.search(body):
            found.append(Finding(where, "cut", sentence.strip(), f"an analyst's cut left in the paragraph: '{m.group(0)}'"))
        elif open_ := next((o for o, c in (("(", ")"), ("（", "）"), ("[", "]")) if body.count(o) > body.count(c)), None):
            found.append(Finding(where, "cut", sentence.strip(), f"a sentence of the paragraph stops inside '{open_}'"))
    for m in _EMPTY_EXAMPLE.finditer(text or ""):
        found.append(Finding(where, "cut", m.group(0), f"the example of {m.group(1)} says '{m.group(2)}'"))
    if not found and (m := _CUT_INSIDE.search(text or "")):
        found.append(Finding(where, "cut", text, f"a sentence cut at '{m.group(0).strip()}'"))
    return found


def _credit(where: str, text: str, case: Mapping[str, Any]) -> list[Finding]:
    allowed = creditable_pulls(case)
    fixes = merged_pulls(case)
    return [Finding(where, "credit", text, f"!{n} is credited as the fix; the case's links make "
                    + (", ".join(f"!{a}" for a in sorted(allowed)) or "no PR") + " its fix")
            for n in dict.fromkeys(credited_pulls(text)) if n not in allowed] + \
        [Finding(where, "credit", text, f"!{n} is called unrelated; the case's links make it the fix")
         for n in dict.fromkeys(disowned_pulls(text)) if n in fixes]


def _language(where: str, text: str, lang: str, quoted: Any = ()) -> list[Finding]:
    # a quote shown after the "[zh]" mark and listed in the item's `untranslated` is the issue's own
    # words, disclosed as such (compose/language.py); only what is left is ours and must be in `lang`
    for q in quoted or ():
        if isinstance(q, str) and q:
            text = text.replace(f"{QUOTE_MARK} {q}", " ")
    prose = _CODE.sub(" ", text)
    cjk, latin = len(_CJK.findall(prose)), len(_LATIN.findall(prose))
    if lang == "zh" and cjk == 0 and latin >= 20:
        return [Finding(where, "language", text, "an English cell in the Chinese digest")]
    if lang == "en" and cjk >= 4 and cjk * 2 >= latin:
        return [Finding(where, "language", text, "a Chinese cell in the English digest")]
    return []


def _boilerplate(lang: str, cells: list[tuple[str, str]]) -> list[Finding]:
    found: list[Finding] = []
    seen: Counter[str] = Counter()
    first: dict[str, str] = {}
    for where, text in cells:
        if m := _SELF_CHECK.search(text):
            found.append(Finding(where, "boilerplate", text, f"self-check noise '{m.group(0)}'"))
        for sentence in {s.strip() for s in _SENTENCE.findall(text)}:
            if len(_WORD.findall(sentence)) >= _BOILER_MIN:
                seen[sentence] += 1
                first.setdefault(sentence, where)
    for sentence, count in seen.items():
        if count >= _BOILER_ROWS:
            found.append(Finding(f"{lang} rows", "boilerplate", sentence,
                                 f"the same sentence in {count} rows (first {first[sentence]})"))
    return found


def _arithmetic(where: str, theme: Mapping[str, Any], cases: Mapping[str, Mapping[str, Any]]) -> list[Finding]:
    paragraph = str(theme.get("paragraph") or "")
    text = " ".join(str(theme.get(k) or "") for k in ("headline", "paragraph"))
    named = list(dict.fromkeys(b.get("ref") for b in theme.get("bullets") or () if b.get("ref")))
    found: list[Finding] = []
    head = _COUNT_SENTENCE.search(paragraph)
    counted = head.group(0) if head else paragraph
    total = _first(_THEME_TOTAL.search(counted))
    if total is not None and named and total != len(named):
        found.append(Finding(where, "arithmetic", text, f"says {total} cases, names {len(named)}"))
    titled = _first(_HEADLINE_TOTAL.search(str(theme.get("headline") or "")))
    if titled is not None and named and titled != len(named):
        found.append(Finding(where, "arithmetic", text, f"the headline says {titled} cases, the theme names {len(named)}"))
    parts = [_first(p.search(counted)) for p in (_THEME_MERGED, _THEME_PENDING, _THEME_NOFIX)]
    given = [p for p in parts if p is not None]
    basis = total if total is not None else len(named)
    # each case is counted once: the parts a count sentence gives add up to its total
    if given and (len(given) >= 2 or total is not None) and basis and sum(given) != basis:
        found.append(Finding(where, "arithmetic", text,
                             f"merged/not landed/no fix add to {sum(given)}, not {basis}"))
    known = [cases[r] for r in named if r in cases]
    if parts[0] is not None and len(known) == len(named) and named:
        merged = sum(1 for c in known if merged_pulls(c))
        if parts[0] != merged:
            found.append(Finding(where, "arithmetic", text, f"says {parts[0]} merged; {merged} of its cases are"))
    if parts[2] is not None and len(known) == len(named) and named:
        none = sum(1 for c in known if not creditable_pulls(c))
        if parts[2] != none:
            found.append(Finding(where, "arithmetic", text, f"says {parts[2]} without a code fix; "
                                 f"{none} of its cases have none (the others' links make a PR their fix)"))
    if m := _PER_REPO.search(paragraph):
        repos = int(m.group(1) or m.group(3))
        listed = [p.strip().rsplit(" ", 1) for p in re.split(r"[、,，]", m.group(2) or m.group(4) or "")]
        pairs = [(p[0], int(p[1])) for p in listed if len(p) == 2 and p[1].isdigit()]
        mine = Counter(str(r).split("#", 1)[0] for r in named)
        if len(pairs) != repos or (basis and sum(n for _, n in pairs) != basis):
            found.append(Finding(where, "arithmetic", text, f"{repos} repositories with "
                                 f"{sum(n for _, n in pairs)} cases listed, for {basis} cases"))
        elif named and any(mine.get(r, 0) != n for r, n in pairs):
            found.append(Finding(where, "arithmetic", text, "the count per repository differs from the cases it names"))
    return found


_INSIGHT_TOTAL = re.compile(r"(\d+)\s*案|(\d+)\s*cases?\b", re.I)


def _insight(where: str, item: Mapping[str, Any]) -> list[Finding]:
    """An insight across cases says how many cases it names: that count is the cases it names."""
    head = str(item.get("headline") or "")
    said = _first(_INSIGHT_TOTAL.search(head))
    named = list(dict.fromkeys(str(r) for r in item.get("cases") or ()))
    if said is not None and said != len(named):
        return [Finding(where, "arithmetic", head, f"says {said} cases, names {len(named)}")]
    if len(named) < 2:      # across cases: a line of one case is that case's row again
        return [Finding(where, "arithmetic", head, f"an insight across cases names {len(named)} case")]
    return []


# a case's stale lag as its row gives it ("stale 关单，晚于合入 9 天" / "stale close 9 days after the fix
# merged") and as the disclosure lists it ("msmodeling#390 晚 9 天" / "msmodeling#390 9 days late")
_ROW_LAG = re.compile(r"晚于合入\s*([^，。；）]+?)\s*(?:[，。；）]|$)|stale close (.+?) after the fix merged", re.I)
_LISTED_LAG = re.compile(r"([\w.-]+#\d+) 晚 ([^、）；，]+)|([\w.-]+#\d+) ([^,;()]+?) late\b")


# a theme of one repository says why: none of the others has a case of its kind, or those that do
# are placed in other themes (compose/themes._where)
_ONE_REPO_WHY = re.compile(r"仅见于|本批其他仓|其他仓也有|Only in\b|no other repositor", re.I)
_GUIDE_REPEATS = 2     # an action said verbatim in more steps than this is a template, not a first step


def _one_repo(where: str, theme: Mapping[str, Any]) -> list[Finding]:
    """A theme is a lesson across repositories; one that names cases of a single repository must
    say why (issue #22 acceptance: each theme names cases from >= 2 repos or says why not)."""
    repos = {str(b.get("ref") or "").split("#", 1)[0] for b in theme.get("bullets") or () if b.get("ref")}
    text = " ".join(str(theme.get(k) or "") for k in ("headline", "paragraph"))
    if len(repos) == 1 and len(theme.get("bullets") or ()) > 1 and not _ONE_REPO_WHY.search(text):
        return [Finding(where, "arithmetic", text, f"names cases of one repository ({next(iter(repos))}) and does not say why")]
    return []


def _guide_repeats(lang: str, guide: list[Mapping[str, Any]]) -> list[Finding]:
    """A first action is the first step for its symptom: said verbatim for more than two symptoms it
    is the template's, not the step's ("升级到含 !N 的版本" 8 times)."""
    said = Counter(str(s.get("first_action") or "").strip() for s in guide)
    return [Finding(f"{lang} guide", "boilerplate", action, f"the same first action in {n} steps")
            for action, n in said.items() if action and n > _GUIDE_REPEATS]


def _disclosure(lang: str, digest: Mapping[str, Any], published: int,
                row_lags: Mapping[str, str] | None = None) -> list[Finding]:
    found: list[Finding] = []
    for item in digest.get("disclosure") or ():
        text = str(item.get("text") or "")
        where = f"{lang} disclosure '{item.get('label', '')}'"
        # one fact, one figure: a lag the disclosure lists for a case reads as the case's row reads it
        for m in _LISTED_LAG.finditer(text):
            case, said = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
            row = (row_lags or {}).get(case)
            if row is not None and row.strip() != said.strip():
                found.append(Finding(where, "disclosure", text, f"{case} is {said.strip()} late here, {row.strip()} in its row"))
        for pattern in (_KEPT, _ROWS_OF):
            said = _first(pattern.search(text))
            if said is not None and said != published:
                found.append(Finding(where, "disclosure", text, f"says {said}; the digest publishes {published} rows"))
    return found


def check_digest(data: Mapping[str, Any]) -> list[Finding]:
    """Every finding on one digest.json; [] when a reader would accept it."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} digest (format {data.get('format')!r})")
    cases = {case_key(c): c for c in data.get("cases") or () if isinstance(c, Mapping)}
    found: list[Finding] = []
    for lang, digest in (data.get("digests") or {}).items():
        cells: list[tuple[str, str]] = []
        rows = list(_rows(digest))
        for row in rows:
            case = cases.get(str(row.get("case") or ""), {})
            for part in ("problem", "answer"):
                text = str(row.get(part) or "")
                if not text:
                    continue
                where = f"{lang} {row.get('case')} {part}"
                found += _cut(where, text)
                # the problem is the issue's own words: the Chinese digest quotes English as is
                # (compose/language.py), the English one marks a Chinese quote "[zh]"
                if not (lang == "zh" and part == "problem"):
                    found += _language(where, text, lang, row.get("untranslated"))
                if part == "answer":
                    cells.append((where, text))
                    if case:
                        found += _tense(where, text, case) + _credit(where, text, case)
        for i, theme in enumerate(digest.get("themes") or (), 1):
            where = f"{lang} theme {i}"
            found += _arithmetic(where, theme, cases)
            found += _paragraph_cut(f"{where} paragraph", str(theme.get("paragraph") or ""))
            found += _one_repo(where, theme)
            for bullet in theme.get("bullets") or ():
                found += _cut(f"{where} {bullet.get('ref')}", str(bullet.get("text") or "")) \
                    + _says_nothing(f"{where} {bullet.get('ref')}", str(bullet.get("text") or ""))
            found += _cut(where, str(theme.get("headline") or ""))
        for i, item in enumerate(digest.get("insights") or (), 1):
            found += _insight(f"{lang} insight {i}", item) + _cut(f"{lang} insight {i}", str(item.get("text") or ""))
        for i, step in enumerate(digest.get("guide") or (), 1):
            action = str(step.get("first_action") or "")
            said = _language(f"{lang} guide {i} first_action", action, lang, step.get("untranslated"))
            # a step is our own words: the Chinese digest writes it in Chinese, quoting the thread's
            # English only as a term (compose/language.TERM), never a clause of it
            if not said and (run := foreign_prose(action, lang)):
                said = [Finding(f"{lang} guide {i} first_action", "language", action,
                                f"English words outside a quoted term: '{run}'")]
            found += said
            found += _cut(f"{lang} guide {i} first_action", str(step.get("first_action") or ""))
        found += _boilerplate(lang, cells)
        found += _guide_repeats(lang, list(digest.get("guide") or ()))
        # an edition's update rows (a case published before, "【更新】") are not this run's selection
        row_lags = {str(r.get("case")): next(g for g in m.groups() if g) for r in rows
                    if (m := _ROW_LAG.search(str(r.get("answer") or "")))}
        found += _disclosure(lang, digest, sum(1 for r in rows if r.get("analysed_by") != "update"), row_lags)
    return found


def by_class(findings: list[Finding]) -> dict[str, int]:
    counts = Counter(f.kind for f in findings)
    return {k: counts[k] for k in CLASSES}
