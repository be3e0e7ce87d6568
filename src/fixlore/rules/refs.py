"""Find issue and PR references in free text (PR titles/bodies, commit messages, comments)
and in branch names.

A reference is a *mention*; whether it means "this PR fixes that issue" is decided by the
caller from the keyword, the kind and where the text came from. On GitCode `#N` can name an
issue or a PR (both are shown as `#N` in the web UI), so it is reported as kind "either";
`!N`, `/merge_requests/N`, `/pull/N`, `/pulls/N`, `PR N` and `MR N` are PRs; `/issues/N`
and `issue #N` are issues.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from fixlore.core.model import pickled_as_arguments

KIND_ISSUE = "issue"
KIND_PULL = "pull"
KIND_EITHER = "either"


@pickled_as_arguments
@dataclass(frozen=True, slots=True)
class Ref:
    kind: str                # "issue" | "pull" | "either"
    repo: str                # "owner/name"
    number: int
    keyword: str = ""        # normalised closing keyword ("fixes", "closes", "resolves", "relates") or ""
    span: tuple[int, int] = (0, 0)
    background: str = ""     # the cue when the text names it as background ("前序", "see also", …), else ""


_MAX_NUMBER = 10_000_000     # issue/PR ordinals; longer digit runs are ids, hashes or timestamps
_NAME = r"[A-Za-z0-9_][A-Za-z0-9_.\-]*"
_HOSTS = r"(?:gitcode\.com|gitcode\.net|github\.com|gitee\.com)"
_HASH = "[#＃]"
_BANG = "[!！]"

# Four patterns, each run only when its marker occurs in the text (a plain `in` test), so
# text without references costs one lower-casing and a few substring checks.
_URL_RE = re.compile(
    rf"(?P<url>https?://(?:www\.)?{_HOSTS}/(?P<u_owner>{_NAME})/(?P<u_repo>{_NAME})/(?:-/)?"
    rf"(?P<u_kind>issues|merge_requests|pulls|pull)/(?P<u_num>\d+)(?!\d))", re.IGNORECASE)
_FULL_RE = re.compile(
    rf"(?P<full>(?<![A-Za-z0-9_/.\-@])(?P<f_owner>{_NAME})/(?P<f_repo>{_NAME})(?P<f_sig>{_HASH}|{_BANG})"
    rf"(?P<f_num>\d+)(?![A-Za-z0-9_]))")
_WORD_RE = re.compile(
    rf"(?P<word>(?<![A-Za-z0-9_/\-])(?P<w_kw>PRs?|MRs?|pull\s+request|merge\s+request|issues?)"
    rf"\s*(?:[:：/]\s*)?(?P<w_sig>{_HASH}|{_BANG})?\s*(?P<w_num>\d+)(?![A-Za-z0-9_]|[.:]\d))",
    re.IGNORECASE)
# The sigil comes first and the look-behind after it (checking the character before the
# sigil): a pattern that starts with a character class lets the engine skip ahead to the
# next sigil instead of trying every position.
_SHORT_RE = re.compile(
    rf"(?P<short>(?P<s_sig>{_HASH}|{_BANG})(?<![A-Za-z0-9_&/#＃!！][#＃!！])(?P<s_num>[1-9]\d*)"
    rf"(?![A-Za-z0-9_]|[.:]\d))")


# Every pattern ends in a number: text without a digit holds no reference.
_DIGIT = re.compile(r"\d")


def _matches(text: str) -> list[re.Match[str]]:
    found: list[re.Match[str]] = []
    if _DIGIT.search(text) is None:
        return found
    has_sigil = "#" in text or "!" in text or "＃" in text or "！" in text
    if "://" in text:
        found += _URL_RE.finditer(text)
    if has_sigil and "/" in text:
        found += _FULL_RE.finditer(text)
    low = text.lower()
    if "pr" in low or "mr" in low or "issue" in low or "pull" in low or "merge" in low:
        found += _WORD_RE.finditer(text)
    if has_sigil:
        found += _SHORT_RE.finditer(text)
    if len(found) > 1:
        found.sort(key=lambda m: (m.start(), -m.end()))
        kept: list[re.Match[str]] = []
        for m in found:
            if not kept or m.start() >= kept[-1].end():
                kept.append(m)
        found = kept
    return found


# A closing keyword directly before a reference (optionally "the issue", "问题", a colon).
_KEYWORD_BEFORE = re.compile(
    r"""(?:
        (?<![A-Za-z])(?<!not\ )(?<!n't\ )(?P<en>close[sd]?|fix(?:e[sd])?|resolve[sd]?)
      | (?<![未没不无])(?P<zh>修复了?|解决了?|关闭了?|关联)
    )
    \s*(?:(?:the|this|that)\s+)?(?:issues?|bugs?|问题|缺陷|单)?\s*[:：]?\s*$""",
    re.VERBOSE | re.IGNORECASE,
)
# Text allowed between two references of one keyword list: "Fixes #1, #2 and #3".
_LIST_GAP = re.compile(r"^[\s,，、;；&+]*(?:(?:and|和|及|与)[\s,，、]*)?$", re.IGNORECASE)
# Bare "#1 priority": an ordinal, not a reference, when no keyword precedes it.
_ORDINAL_AFTER = re.compile(r"^\s+(?:priority|choice|spot|place|rank|fan|reason|pick|seller|hit)\b", re.IGNORECASE)
# CSS-ish context: "#123456" after "color:" is a colour, not an issue.
_COLOUR_BEFORE = re.compile(r"(?:colou?r|background|fill|stroke|border)[\w\-]*\s*[:=]\s*$", re.IGNORECASE)

_EN_NORMAL = {"close": "closes", "closes": "closes", "closed": "closes", "fix": "fixes", "fixes": "fixes",
              "fixed": "fixes", "resolve": "resolves", "resolves": "resolves", "resolved": "resolves"}
_ZH_NORMAL = {"修复": "fixes", "修复了": "fixes", "解决": "resolves", "解决了": "resolves",
              "关闭": "closes", "关闭了": "closes", "关联": "relates"}

_KEYWORD_WINDOW = 40     # characters searched before a reference for a keyword or a cue; not fitted to a world

# A reference named as background, not as what the change does: a predecessor, a related or
# similar ticket, a pointer ("前序 #631", "follow-up of #12", "related: #5", "see also #7",
# "refs #3", "similar to #9", "参考 #4", "相关 issue #8"), or "#631 的后续 / 的前序" after it.
# A closing keyword always wins ("修复 #631 的后续问题" fixes #631).
_BACKGROUND_BEFORE = re.compile(
    r"""(?P<cue>前序|前置|后续|相关|参考|参见|类似|同类|
        (?<![A-Za-z])(?:related(?:\s+to)?|relates?\s+to|see\s+also|refs?|references?|similar\s+to|
                      follow[\s-]?ups?\s+(?:of|to|on|for)|follows?\s+up\s+on|predecessor|supersedes|depends\s+on))
    [^\n。；;.!?#＃，,、]{0,16}?(?:issues?|prs?|mrs?|问题|单|工作)?\s*[:：]?\s*[(（]?\s*$""",
    re.VERBOSE | re.IGNORECASE,
)
_BACKGROUND_AFTER = re.compile(r"^\s*[)）]?\s*(?:的|之)?\s*(?P<cue>前序|后续|延续)")


# Cues that place a ticket beside the change in any case (another piece of work came before,
# comes after, or is only similar); the others ("related", "refs", "see also", "参考", "相关")
# are also how people point at the one issue a PR fixes when they write no keyword, so they
# mean background only when the PR names another issue as what it fixes (`settle_background`).
_ALWAYS_BACKGROUND = re.compile(r"前序|前置|后续|延续|类似|同类|follow|predecessor|supersedes|depends|similar",
                                re.IGNORECASE)


def settle_background(refs: list[Ref]) -> list[Ref]:
    """All the references of one PR (title, body, commits): a soft background cue stands only
    when the PR names some issue with a closing keyword; otherwise the reference is a plain mention."""
    targeted = any(r.keyword for r in refs)
    if targeted:
        return refs
    return [replace(r, background="") if r.background and not _ALWAYS_BACKGROUND.search(r.background) else r
            for r in refs]


def _background_cue(text: str, start: int, end: int) -> str:
    m = _BACKGROUND_BEFORE.search(text[max(0, start - _KEYWORD_WINDOW):start])
    if m:
        return " ".join(m.group("cue").split()).lower()
    m = _BACKGROUND_AFTER.match(text[end:end + 8])
    return m.group("cue") if m else ""


def _keyword_before(text: str, start: int) -> str:
    m = _KEYWORD_BEFORE.search(text[max(0, start - _KEYWORD_WINDOW):start])
    if not m:
        return ""
    if m.group("en"):
        return _EN_NORMAL[m.group("en").lower()]
    return _ZH_NORMAL[m.group("zh")]


def find_refs(text: str | None, repo: str) -> list[Ref]:
    """Every issue/PR reference in `text`, in order of appearance; `repo` resolves short forms."""
    if not text:
        return []
    refs: list[Ref] = []
    prev_end = -1
    prev_keyword = prev_background = ""
    for m in _matches(text):
        ref = _to_ref(m, text, repo)
        if ref is None:
            continue
        keyword = _keyword_before(text, m.start())
        listed = bool(prev_end >= 0 and _LIST_GAP.match(text[prev_end:m.start()]))
        if not keyword and prev_keyword and listed:
            keyword = prev_keyword
        if not keyword and _group(m, "short") and _ORDINAL_AFTER.match(text[m.end():m.end() + 20]):
            continue
        background = "" if keyword else (_background_cue(text, m.start(), m.end())
                                         or (prev_background if listed else ""))
        refs.append(Ref(ref[0], ref[1], ref[2], keyword, (m.start(), m.end()), background))
        prev_end, prev_keyword, prev_background = m.end(), keyword, background
    return refs


def _group(m: re.Match[str], name: str) -> str | None:
    return m.groupdict().get(name)


def _to_ref(m: re.Match[str], text: str, repo: str) -> tuple[str, str, int] | None:
    if _group(m, "url"):
        kind = KIND_ISSUE if m.group("u_kind").lower() == "issues" else KIND_PULL
        return _checked(kind, f"{m.group('u_owner')}/{_strip_git(m.group('u_repo'))}", m.group("u_num"))
    if _group(m, "full"):
        kind = KIND_PULL if m.group("f_sig") in "!！" else KIND_EITHER
        return _checked(kind, f"{m.group('f_owner')}/{m.group('f_repo')}", m.group("f_num"))
    if _group(m, "word"):
        word = m.group("w_kw").lower()
        kind = KIND_ISSUE if word.startswith("issue") else KIND_PULL
        if kind == KIND_ISSUE and m.group("w_sig") in ("!", "！"):
            kind = KIND_PULL
        return _checked(kind, repo, m.group("w_num"))
    sig = m.group("s_sig")
    if sig in "#＃" and _COLOUR_BEFORE.search(text[max(0, m.start() - 24):m.start()]):
        return None
    kind = KIND_PULL if sig in "!！" else KIND_EITHER
    return _checked(kind, repo, m.group("s_num"))


def _checked(kind: str, repo: str, digits: str) -> tuple[str, str, int] | None:
    if len(digits) > 8:
        return None
    number = int(digits)
    if number <= 0 or number >= _MAX_NUMBER:
        return None
    return kind, repo, number


def _strip_git(name: str) -> str:
    return name[:-4] if name.endswith(".git") else name


# Branch names: bugfix/issue558, fix-558, issue_558, fix/#558, 558-short-title (GitHub's default),
# fix/ha-472-etcd (a fix branch carrying the number as its own token).
_BRANCH_PREFIXED = re.compile(
    r"(?:^|[/_\-.])(?:issues?|bugs?|bugfix|hotfix|fix|fixes|feat|feature|gh|i)[/_\-#]*#?(\d{1,7})(?![\d.])",
    re.IGNORECASE)
_BRANCH_HASH = re.compile(r"#(\d{1,7})(?![\d.])")
_BRANCH_LEADING = re.compile(r"(?:^|/)(\d{1,7})[-_][A-Za-z]")
# fix/ha-472-etcd-dual-master: in a fix-type branch, a standalone number of 2+ digits.
_FIX_BRANCH = re.compile(r"^(?:bug|bugfix|hotfix|fix|fixes|issue|issues)[/_\-]", re.IGNORECASE)
_BRANCH_TOKEN = re.compile(r"(?:^|[/_\-])([1-9]\d{1,6})(?=$|[/_\-])")
_DATE = re.compile(r"(?:19|20)\d\d[-_./]?[01]\d[-_./]?[0-3]\d")


def refs_from_branch(branch: str | None) -> list[int]:
    """Issue numbers a branch name points at; [] for names such as release-2.1 or fix-w8a8."""
    if not branch or _DIGIT.search(branch) is None:
        return []
    found: list[int] = []
    patterns = [_BRANCH_PREFIXED, _BRANCH_HASH, _BRANCH_LEADING]
    if _FIX_BRANCH.match(branch):
        patterns.append(_BRANCH_TOKEN)
    undated = _DATE.sub("-", branch)
    for pattern in patterns:
        for m in pattern.finditer(undated):
            number = int(m.group(1))
            if number > 0 and number not in found:
                found.append(number)
    return found
