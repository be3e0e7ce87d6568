"""The guide's fallback first step, from the case's own facts: whether the reader's setup is the
case's (the version, the names, the error its report gives), then whether their build has the fix.

npu-threads' Chinese guide said "先确认所用版本是否含 PR#N" 21 times of 50 with only N changing (issue
#22): the step for a case whose thread gives none and whose fix says nothing in the digest's
language. Written from what a user triaging a report checks first (do I run that version, do I use
that feature, do I see that error); read on npu-threads' guide (its generic rows, fitted), every
other world held out. Bare steps in the Chinese guide, "先确认所用版本是否含 PR#N" + "先对照 #N 的维护者答复排查",
2026-12-07, before -> after (rows of the guide): npu-threads 21+8 -> 6+4 of 43 (fitted); held out:
github-mini 4+0 -> 2+0 of 5, paddle-threads 4+3 -> 1+2 of 15, pytest-threads 4+0 -> 2+0 of 5,
seed-twin 2+0 -> 1+0 of 22, seed-twin2 1+0 -> 0+0 of 24, ascend-2026-09 1+0 -> 1+0 of 48, demo 0 -> 0,
accel-threads 4+0 -> 2+0 of 6, accel-threads3 7+1 -> 2+0 of 10, accel-threads7 12+3 -> 2+1 of 15;
blind (counted, never read): accel-threads2 4+1 -> 4+0 of 6, accel-threads4 5+1 -> 1+0 of 8,
accel-threads5 0 -> 0, accel-threads6 4+2 -> 2+2 of 10 (with analyse/widen.py's pass below the
middle, which changes some rows' written words). No cases.jsonl changed by this module; every
digest passes `fixlore check`."""

from __future__ import annotations

import re

from fixlore.compose.language import term
from fixlore.compose.steps import VERSIONED, ERROR_NAME, IDENT, NOT_A_PRODUCT, error_name
from fixlore.core.model import Case

# the names a report's words give a reader to check against their own setup: code names (IDENT) and
# hyphenated model, platform or component names ("Qwen3-MoE", "vllm-ascend"), not the product itself
_SETUP_NAME = re.compile(IDENT.pattern + r"|(?<![\w.-])[A-Za-z][A-Za-z0-9]*\d[A-Za-z0-9]*-[A-Za-z0-9.-]*[A-Za-z0-9](?![\w-])"
                         r"|(?<![\w.-])[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9.-]*\d[A-Za-z0-9]*(?![\w-])")


def setup_facts(c: Case) -> tuple[list[str], list[str], str]:
    """What a reader compares with their own setup before anything else, from the case's facts:
    the product versions the report names ("CANN 9.0.0", "vllm-ascend 0.10.0rc1"), the names it
    gives (a config key, a function, a component: the report's title, problem and symptom; the
    cause's only when the report names nothing, a test's name never), and the error the reader
    sees; each quoted as a term, at most one version and two names."""
    report = [c.title, c.problem, c.symptom]
    versions = [q for q in dict.fromkeys(term(f"{m.group(1)} {m.group(2)}") for x in report
                                         for m in VERSIONED.finditer(x or "")
                                         if m.group(1).lower() not in NOT_A_PRODUCT) if q][:1]
    own = re.sub(r"[^a-z0-9]", "", c.repo.split("/")[-1].lower())
    err = error_name(c)
    said = " ".join(versions).lower()
    names: list[str] = []
    # the cause's names (the code the fix touched) only when the report gives the reader nothing
    for texts in (report, [c.written.mechanism]):
        if names or (versions and texts is not report):
            break
        for m in (m for text in texts for m in _SETUP_NAME.finditer(text or "")):
            name = m.group(0).rstrip(".")
            # a test's name says what CI ran, not what a reader's setup uses
            if (len(name) >= 5 and re.sub(r"[^a-z0-9]", "", name.lower()) != own and name != err
                    and not ERROR_NAME.fullmatch(name) and not name.lower().startswith("test")
                    and name.lower() not in said and name not in names):
                names.append(name)
    return versions, [q for q in (term(n) for n in names) if q][:2], term(err)


def setup_check(c: Case, lang: str, labels: list[str] | None = None, answer_in: str = "") -> str:
    """The first step when the thread gives none and the fix says nothing in the digest's language:
    whether the reader's setup is the case's (its version, the names it gives, the error it shows:
    `setup_facts`), then whether their build has the fix (`labels`), or with no fix, the
    maintainers' answer in the issue `answer_in`; the bare "先确认所用版本是否含 PR#N" / "先对照 #N 的
    维护者答复排查" only when the case names none of these (npu-threads' guide said the first 21 times,
    issue #22). Written from what a user triaging a report checks first (do I run that version, do
    I use that feature, do I see that error); read on npu-threads' guide (its generic rows), the
    other worlds held out."""
    versions, names, err = setup_facts(c)
    prs = ("、" if lang == "zh" else ", ").join(labels or [])
    if lang == "zh":
        then = f"确认所用版本是否含 {prs}" if labels else f"对照 {answer_in} 的维护者答复排查"
        parts = ([f"环境是否为 {versions[0]}"] if versions else []) + ([f"是否用到 {'、'.join(names)}"] if names else [])
        parts = parts or ([f"报错是否为 {err}"] if err else [])
        return f"先确认{'、'.join(parts)}，再{then}" if parts else f"先{then}"
    then = f"whether your build includes {prs}" if labels else f"the maintainers' answer in {answer_in}"
    parts = ([f"you run {versions[0]}"] if versions else []) + ([f"you use {' and '.join(names)}"] if names else [])
    parts = parts or ([f"you see {err}"] if err else [])
    if labels:
        return f"Check whether {' and '.join(parts)}, then {then}" if parts else f"Check {then}"
    return f"Check whether {' and '.join(parts)}, then read {then}" if parts else f"Read {then} first"


__all__ = ["setup_check", "setup_facts"]
