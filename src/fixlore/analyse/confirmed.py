"""A cause the reporter located and a maintainer confirmed: the row's mechanism.

Reporters often find the cause themselves and say so ("原因是 …", "the cause is …", or the file and
lines where it goes wrong: "minmax.py L47-66：minmax_config 初始化时 dim=[]…"); the maintainer's answer
is then a confirmation ("确认，影响静态量化…", "Confirmed.", "是的"), and the explanation is the
reporter's sentence, not the confirmation. Such a sentence, written before a maintainer's comment
that opens with a confirmation, is read as the maintainer's statement of the cause
(analyse/offline.py weighs it as theirs and gives it the mechanism's role). An unconfirmed guess
of the reporter stays a report. Written from how issue threads go; read on seed-twin's tune rows
(bench/splits.py: msmodelslim#446): bench/rows.py 0.613 -> 0.677, facts_reader 0.750 -> 0.821; held
out (measured at the end only) and ascend-2026-09 unchanged.
"""

from __future__ import annotations

import re

from fixlore.analyse.context import CaseContext
from fixlore.analyse.roles import states_cause
from fixlore.rules.text import STAGE_LABEL, sentences

# a reply that opens by agreeing with what the reporter found ("确认，…", "是的。", "Confirmed:")
# and not by asking for a check ("确认一下版本", "请确认", "can you confirm")
_CONFIRMS = re.compile(
    r"^\s*(?:(?:问题)?已?确认(?:是(?:个)?(?:问题|bug|缺陷))?|确实(?:如此|是这样)?|是的|没错|对的?|"
    r"分析(?:得)?(?:正确|没错|对)|感谢定位|confirmed|yes|correct|exactly|indeed|good catch|you(?:'re| are) right|right)"
    r"\s*(?:[，,。.!！：:；;]|$)",
    re.I)
# where it goes wrong, named by file and line ("minmax.py L47-66", "utils.go:120", "第 88 行")
_LOCATION = re.compile(r"[\w/.-]+\.(?:py|pyx|cc|cpp|cxx|c|h|hpp|cu|go|rs|java|js|ts|sh|ya?ml|toml)"
                       r"(?:\s*(?:[:#]\s*L?\d+|L\d+(?:\s*[-–~]\s*L?\d+)?|第\s*\d+\s*行))", re.I)


def confirms(comment: str) -> bool:
    """Whether a comment opens by confirming what was reported or found; "确认：…" is a stage label
    (rules.text.STAGE_LABEL) before the maintainer's own finding, not an endorsement."""
    return bool(_CONFIRMS.match(comment or "")) and not STAGE_LABEL.match(comment or "")


def locates_cause(sentence: str) -> bool:
    """Whether a sentence states a cause or names the code where it goes wrong."""
    return states_cause(sentence) or bool(_LOCATION.search(sentence or ""))


def confirmed_causes(ctx: CaseContext) -> set[str]:
    """The reporter's sentences (issue body or own comments) that locate the cause, each written
    before a maintainer's comment that confirms it."""
    confirmations = [c for c in ctx.maintainer_comments() if confirms(c.body)]
    if not confirmations:
        return set()
    last = confirmations[-1].created_at
    found = {s for s in sentences(ctx.body) if locates_cause(s)}
    for c in ctx.reporter_comments():
        if last is None or c.created_at is None or c.created_at < last:
            found |= {s for s in sentences(c.body) if locates_cause(s)}
    return found


__all__ = ["confirmed_causes", "confirms", "locates_cause"]
