"""The cells a row shows before its explanation: the problem (from the title) and the guide's
symptom (what the reporter saw), said whole."""

from __future__ import annotations

import re

from fixlore.analyse.context import CaseContext
from fixlore.analyse.fit import MIN_PIECE, fit, fit_facts, shown_len
from fixlore.core.model import Case
from fixlore.rules.clauses import leaves_open
from fixlore.rules.lines import field_as_prose, tight_pairs
from fixlore.rules.text import PROBLEM_CUES, cjk_count, clean_title, error_lines, hard_facts, sentences
from fixlore.rules.words import has_cue

# the guide's symptom cell: an error line or a title a reader takes in at a glance (the limit the cell
# had before; not fitted to any world)
SYMPTOM = 60


# what a logger puts before the exception ("ERROR 06-04 05:01:35 [executor.py:932] RuntimeError: …")
_LOG_PREFIX = re.compile(r"^.*?(?=\b[\w.]*(?:Error|Exception)\s*:)")
# label tags at the start of a title ("[NPU]:", "[Bug][CI]:", "【Ascend】")
_TAGS = re.compile(r"^\s*(?:[\[【][^\]】]{1,20}[\]】]\s*)+[:：]?\s*")
# the separators of a title's segments ("Nightly / CI failed - 4 jobs fail - ImportError: …")
_SEGMENT = re.compile(r"\s+[-–—|]\s+")


def _whole(text: str, limit: int) -> str:
    """A cell within `limit` by whole clauses (analyse/fit.py), never with an ellipsis; a text
    with no clause that fits stays whole: a whole title beats a cut one (issue #22)."""
    text = re.sub(r"\s+", " ", text or "").strip()
    return fit(text, limit) or text


def title_within(title: str, limit: int) -> str:
    """A long title without its label tags ("[NPU]:") and, segment by segment from the front,
    without the parts that name nothing ("Nightly / CI failed - … - ImportError: … 'X'" keeps
    the error): templates put the generic words first, the specific error last."""
    title = _TAGS.sub("", title).strip() or title
    parts = _SEGMENT.split(title)
    while len(" - ".join(parts)) > limit and len(parts) > 1:
        bare = next((i for i, part in enumerate(parts) if not hard_facts(part)), None)
        if bare is None:
            break
        del parts[bare]
    return _whole(" - ".join(parts), limit)

def names_only(title: str) -> bool:
    """A title that only names the thing ("Qwen3-TTS-12Hz-1.7B-Base", "example_gemm.py"): it
    does not say what went wrong."""
    return len(title.split()) <= 2 and cjk_count(title) <= 4 and not has_cue(title, PROBLEM_CUES)

def problem_cell(case: Case, ctx: CaseContext) -> str:
    """The row's problem: the title without its tags, or with the error the reporter saw when the
    title only names the thing."""
    # a pair written "A / B" reads as one token (rules/lines.tight_pairs)
    title = tight_pairs(clean_title(case.title or (ctx.issue.title if ctx.issue else "")))
    # a title that only names the thing ("Qwen3-TTS-12Hz-1.7B-Base") says nothing went wrong:
    # the error the reporter saw says it
    bare = names_only(title)
    errs = [e for e in (_LOG_PREFIX.sub("", line) for line in error_lines(ctx.body)) if len(e) <= 160]
    if len(title) >= 8 and bare and errs:
        return _whole(f"{title_within(title, 40)}：{errs[0]}", 110)
    if len(title) >= 8:
        return _with_exception(title_within(title, 90), errs, 90)
    body = sentences(ctx.body)
    lead = body[0] if body else ""
    return _whole(f"{title}：{lead}" if title and lead else (title or lead), 90)

# the report's first sentences: where a reporter states what they ran and what they measured
_LEAD_SENTENCES = 4


def with_report_facts(problem: str, body: str, room: int, limit: int = 90) -> str:
    """The problem with the reporter's hard facts the title lacks (the model, version, flag or measured
    symptom: "loss 飙到 21、grad_norm 570+"), in the report's own words: the whole clauses of the first
    of its opening sentences, in the title's language, that state a fact the title does not, when they
    fit in the room the row leaves (`room`: what ROW_CHARS leaves of the written row) and the cell's
    `limit`. Reporters title an issue by the symptom and put the facts in the body (issue #22; read
    on ascend-2026-09 and seed-twin2's tune rows)."""
    have = {f.lower() for f in hard_facts(problem)}
    room = min(room, limit - shown_len(problem)) - 1
    if room < MIN_PIECE:
        return problem
    cjk = cjk_count(problem) > 0
    for sentence in map(field_as_prose, sentences(body)[:_LEAD_SENTENCES]):
        new = {f for f in hard_facts(sentence) if f.lower() not in have and f.lower() not in problem.lower()}
        if not new or (cjk_count(sentence) > 0) != cjk:
            continue
        clause = fit_facts(sentence.strip().rstrip("。. "), room, known=have)
        # a sentence that announces what followed it ("例如在 gen_duration.py 中：" before a code block)
        # is a promise the row cannot keep (paddle-threads PaddleSpeech#1151, tune)
        if clause and hard_facts(clause) & new and not leaves_open(clause):
            body_, stop = (problem[:-1], problem[-1]) if problem.endswith(("。", ".")) else (problem, "")
            if body_.endswith(("？", "?", "！", "!")):      # a question says its own close: no colon after it
                return f"{body_}{'' if cjk else ' '}{clause}{stop}"
            return f"{body_}：{clause}{stop}" if cjk else f"{body_}: {clause}{stop}"
    return problem


_EXCEPTION = re.compile(r"\b([A-Z][A-Za-z0-9]*(?:Error|Exception))\b")


# the code a process died with or a platform error code, as people write it: "退出码 137", "exit
# code 137", "返回码 -9", "错误码 EZ9999", "error code 507035" (a number, or a code of letters and
# digits), written as the reporter wrote it, the label with it: a bare "137" says nothing
_CODE = re.compile(r"(?:(?<![A-Za-z])(?:exit|return|error)\s+(?:code|status)|退出码|返回码|错误码)\s*[:：=]?\s*"
                   r"(?:-?\d{1,6}|[A-Z]{1,3}\d{4,6})(?![\w.])", re.I)


def _with_exception(problem: str, errs: list[str], limit: int) -> str:
    """The problem names the exception the reporter hit ("list 越界（IndexError）"): it is what a
    reader searches for. Only when the title does not name one and there is room. Without an
    exception, the exit or error code the reporter quoted ("把自己也杀掉了（退出码 137）"), from the
    lines that read as what the user saw (rules/text.error_lines), the first that names one."""
    m = next((m for m in (_EXCEPTION.search(e) for e in errs[:1]) if m), None)
    if m is None and not _EXCEPTION.search(problem):
        m = next((m for m in (_CODE.search(e) for e in errs) if m), None)
        what = re.sub(r"\s+", " ", m.group(0)).strip() if m else ""
        if m is None or _CODE.search(problem):
            return problem
    elif m is None or _EXCEPTION.search(problem) or m.group(1).lower() in problem.lower():
        return problem
    else:
        what = m.group(1)
    body, stop = (problem[:-1], problem[-1]) if problem.endswith(("。", ".")) else (problem, "")
    named = f"{body}（{what}）{stop}" if cjk_count(problem) else f"{body} ({what}){stop}"
    return named if len(named) <= limit else problem


def symptom_cell(case: Case, ctx: CaseContext) -> str:
    """What the reporter saw, whole: the first error line that fits, else the title (without its
    label tags), cut after a whole clause if it must be cut. A message cut mid-word is neither
    searchable nor readable."""
    errs = error_lines(ctx.body, limit=1)
    if errs and len(errs[0]) <= SYMPTOM:     # the best line or none: a lesser line that fits says less
        return errs[0]
    title = clean_title(case.title)
    title = _TAGS.sub("", title).strip() or title
    if errs and names_only(title):      # "example_gemm.py" says where, the error says what
        return _whole(errs[0], SYMPTOM)
    cut = fit(title, SYMPTOM)
    # a clause that only names the thing ("example_gemm.py:precision error at …" cut at its colon)
    # lost what went wrong: then the title whole, as a reader would search for it
    return title if not cut or (names_only(cut) and not names_only(title)) else cut
