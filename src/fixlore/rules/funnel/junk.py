"""Junk tickets: spam, and a report form sent back with nothing of the reporter's in it.

How platforms and people treat them (public record, found with the `search` tool):

- GitHub lets a maintainer lock a conversation for one of four reasons, one of them `spam`
  (REST "Lock an issue": lock_reason off-topic / too heated / resolved / spam; `gh issue lock
  --reason spam`); the issue then carries `active_lock_reason: "spam"`.
- Projects mark such tickets by label: a `spam` label "for marking spam (like issues where only
  the template is sent)" (microsoft/PowerToys #7926), or close them labelled `invalid`
  (jerone/UserScripts #23: "close this issue, label it as `invalid` and report the user"; GitHub's
  default `invalid` label is already an unresolved mark: vocabulary.yaml `unresolved_labels`).
- Spam floods arrive through the issue templates: the template is submitted unfilled or filled
  with nonsense (node-fetch #962, mdn/browser-compat-data #18175, PowerToys #7926), and
  maintainers close it without a word.

So an issue is junk (stage `noise`) when one of these holds:

1. a spam mark: a label of `noise_labels` (vocabulary.yaml: "spam", "垃圾", "广告" …) or GitHub's
   lock reason `spam`;
2. the filer says it is spam ("I am a spammer", "this is spam") and the body holds nothing
   technical (no error, no identifier, no code fence): a report that mentions "log spam" names
   what spams;
3. nothing of the reporter's: the title, once its template tags ("[REQUEST]", "[Bug]:") and
   keyboard mashing are taken out, says nothing, and so does the body once the repository's
   template lines (`bookkeeping.template_lines`: lines two or more writers share), heading-only
   lines and keyboard mashing are taken out (`bookkeeping.MIN_OWN_CHARS` letters, that module's
   number), and it carries no screenshot, attachment or link (a report made of a screenshot is a
   report). A template's title tag is one bracketed word; a bracketed phrase is the filer's title. Keyboard mashing is a run of five or more letters typed from one row of a QWERTY
   keyboard ("adfdafad", "qwerty", "zxcvb"); a real word of one row (a "Flask" title) only counts
   as mashing when nothing else is written either. A terse title ("Segfault on import") or a body
   with a traceback is never junk: either says something of its own.

Written from the sources above, before measuring; read on accel-threads10's tune split
(tensorflow #100320 spam, #104982 a mashed bug form: fitted there; no number was tuned, the
five-letter mashing run and `MIN_OWN_CHARS` are not fitted on any world). Measured (funnel accuracy):
accel-threads10 tune 0.625 -> 0.875, heldout 0.778 -> 0.889 (one self-declared spam); BLIND
accel-threads5 0.571 -> 0.524 (one ticket whose title is a single bracketed tag and whose body is
under 20 letters went rank -> noise: the unfilled-form class, which labellers also file under `rank`,
accel-threads10 #7476's label note); no case of ascend-2026-09 or any other world moved. A first
version also took a bracketed phrase for a tag and a digits-only title for nothing: two
paddle-threads heldout cases moved out of their right stage (figures only), both fixed before commit.
"""

from __future__ import annotations

import re
from typing import Collection

from fixlore.core.model import Issue
from fixlore.rules.funnel.bookkeeping import MIN_OWN_CHARS, own_words
from fixlore.rules.funnel.vocabulary import folded, has_label
from fixlore.rules.text import ERROR_CUES, hard_facts
from fixlore.rules.words import ERROR_SEEN, has_cue, letters

# GitHub's lock reason for spam (REST `active_lock_reason`).
LOCK_SPAM = "spam"

_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_MASH = re.compile("|".join(rf"\b[{row}]{{5,}}\b" for row in _ROWS), re.IGNORECASE)
# a template's title tag is one word in brackets ("[REQUEST]", "[Bug]:", "【问题】"); a bracketed phrase
# ("[PaddleOCR 推理报错]") is the filer's title
_TAGS = re.compile(r"^\s*(?:[\[【(（][^\]】)）\s]{0,20}[\]】)）]\s*[:：-]?\s*)+")
# a screenshot, an attachment or a link: material the reporter brought, whatever the words say
_ATTACHED = re.compile(r"!\[[^\]\n]{0,200}\]\(|<img\b|https?://|\.(?:png|jpe?g|gif|log|txt|zip)\b", re.IGNORECASE)
_SPAM_SAID = re.compile(
    r"\bI(?:'m|\s+am)\s+(?:an?\s+)?spammer\b|\b(?:this|it)\s+is\s+(?:an?\s+|just\s+)?spam\b"
    r"|\bspam\s+(?:issue|post|ticket)\b|这是广告|垃圾广告", re.IGNORECASE)


def without_mash(text: str) -> str:
    """`text` without keyboard mashing (runs of 5+ letters of one QWERTY row)."""
    return _MASH.sub(" ", text or "")


def technical(text: str) -> bool:
    """An error cue, an exception name, an identifier, or a code fence holding more than mashing: what
    a report is made of. A version number alone is not ("TensorFlow version: 2.8" says which
    release, not what went wrong)."""
    body = text or ""
    return _fenced_text(body) or has_cue(body, ERROR_CUES) or bool(ERROR_SEEN.search(body)) \
        or any(not f[:1].isdigit() and not f.startswith("v") for f in hard_facts(body))


def spam_marked(issue: Issue, noise_labels: Collection[str]) -> bool:
    """Rule 1: a spam label or GitHub's `spam` lock reason."""
    if has_label(issue.labels, folded(tuple(noise_labels))):
        return True
    return str((issue.raw or {}).get("active_lock_reason") or "").strip().casefold() == LOCK_SPAM


def says_spam(issue: Issue) -> bool:
    """Rule 2: the filer calls it spam and nothing technical is in it."""
    said = _SPAM_SAID.search(issue.title or "") or _SPAM_SAID.search(issue.body or "")
    return bool(said) and not technical(issue.body or "")


def nothing_of_own(issue: Issue, shared: frozenset[str]) -> bool:
    """Rule 3: title and body say nothing once template and mashing are taken out."""
    title = without_mash(_TAGS.sub("", issue.title or ""))
    if letters(title) > 0:
        return False
    body = own_words(issue.body or "", shared)
    if technical(body) or _ATTACHED.search(issue.body or ""):
        return False
    return letters(without_mash(_unfenced(body))) < MIN_OWN_CHARS


def _unfenced(body: str) -> str:
    return "\n".join(line for line in body.splitlines() if not line.lstrip().startswith(("```", "~~~")))


def _fenced_text(body: str) -> bool:
    """A fence that holds something besides mashing: pasted code or a log."""
    inside, held = False, []
    for line in body.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            inside = not inside
            continue
        if inside:
            held.append(line)
    return letters(without_mash("\n".join(held))) > 0


def is_junk(issue: Issue, shared: frozenset[str], noise_labels: Collection[str]) -> bool:
    """Spam or an empty/mashed form (module docstring), decided from the issue list alone."""
    return spam_marked(issue, noise_labels) or says_spam(issue) or nothing_of_own(issue, shared)
