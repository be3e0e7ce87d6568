"""Every reader of issue and PR references: in free text (PR titles and bodies, commit messages,
comments), in branch names, in GitCode's operation log and in the keys people type.

A reference is a *mention*; whether it means "this PR fixes that issue" is decided by the
caller from the keyword, the kind and where the text came from. On GitCode `#N` can name an
issue or a PR (both are shown as `#N` in the web UI), so it is reported as kind "either";
`!N`, `/merge_requests/N`, `/pull/N`, `/pulls/N`, `PR N` and `MR N` are PRs; `/issues/N`
and `issue #N` are issues.

One parser, `find_refs`, reads the forms in `_FORMS` (a URL, `owner/repo#N`, `PR N` and its
kin, a bare `#N`/`!N`), each a pattern, a cheap test for its marker and a reading into
(kind, repo, number); around each it reads the closing keyword (`_KEYWORD_BEFORE`) or a cue that
names the ticket as background. A new way people write a reference is a new row of `_FORMS`
or a new word in those two patterns, and every caller sees it as a `Ref` with its `form`.

The readers after `refs_from_branch` are older, narrower readings that callers rely on as they
are (a sigil and up to 7 digits in a written answer, GitHub's own closing keywords, ...). They
live here so that every reference rule sits in one module; each keeps its tolerance exactly, as
the exports of the bundled worlds depend on it.

The module is over 400 lines because issue #25 gathers every reference regex of the package here,
one reader after another (tests/test_refs_in_one_place.py holds it to that).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Callable

from fixlore.core.model import pickled_as_arguments

KIND_ISSUE = "issue"
KIND_PULL = "pull"
KIND_EITHER = "either"

FORM_URL = "url"          # https://gitcode.com/o/r/issues/3, .../merge_requests/4, github.com/o/r/pull/9
FORM_FULL = "full"        # o/r#5, o/r!6
FORM_WORD = "word"        # PR 12, MR !4, pull request #7, issue #8, issue/302, ISSUE ID: 6207, Issue No. 12
FORM_SHORT = "short"      # #12, !34 (and their full-width marks)
FORM_WRITTEN = "written"  # written_refs: #N, !N, PR N, MR N as a writer puts them in an answer
FORM_GH = "gh"            # GH-123: GitHub's own autolinked form (GitHub only)

PLATFORM_GITHUB = "github"


@pickled_as_arguments
@dataclass(frozen=True, slots=True)
class Ref:
    kind: str                # "issue" | "pull" | "either"
    repo: str                # "owner/name"
    number: int
    keyword: str = ""        # normalised closing keyword ("fixes", "closes", "resolves", "relates") or ""
    span: tuple[int, int] = (0, 0)
    background: str = ""     # the cue when the text names it as background ("前序", "see also", …), else ""
    form: str = ""           # FORM_*: how it was written
    pointer: str = ""        # a cue that only points at the ticket ("reported in", "see", "addresses", "详见"), else ""
    withheld: str = ""       # the clause asks, denies or blames ("is this fixed by", "not fixed by", "caused by"), else ""
    soft: str = ""           # a soft background cue `settle_background` did not keep ("related to" in a PR claiming nothing)


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
    rf"(?P<word>(?<![A-Za-z0-9_/\-])(?P<w_kw>PRs?|MRs?|pull\s++request|merge\s++request|issues?)"
    rf"(?:\s*+(?:id|number|num|no\.|编号))?\s*+(?:[:：/]\s*+)?(?P<w_sig>{_HASH}|{_BANG})?\s*+"
    rf"(?P<w_num>\d+)(?![A-Za-z0-9_]|[.:]\d))",
    re.IGNORECASE)
# The sigil comes first and the look-behind after it (checking the character before the
# sigil): a pattern that starts with a character class lets the engine skip ahead to the
# next sigil instead of trying every position.
_SHORT_RE = re.compile(
    rf"(?P<short>(?P<s_sig>{_HASH}|{_BANG})(?<![A-Za-z0-9_&/#＃!！][#＃!！])(?P<s_num>[1-9１-９]\d*)"
    rf"(?![A-Za-z0-9_]|[.:]\d))")


# GitHub autolinks "GH-26" as issue or PR 26 of the repository (docs.github.com, "Autolinked
# references and URLs"); GitCode does not, and there "GH-26" is only a name.
_GH_RE = re.compile(r"(?P<gh>(?<![A-Za-z0-9_/\-.])GH-(?P<g_num>\d+)(?![A-Za-z0-9_]|[.:]\d))", re.IGNORECASE)


# Every pattern ends in a number: text without a digit holds no reference.
_DIGIT = re.compile(r"\d")


def _has_sigil(text: str, low: str) -> bool:
    return "#" in text or "!" in text or "＃" in text or "！" in text


def _from_url(m: re.Match[str], text: str, repo: str) -> tuple[str, str, int] | None:
    kind = KIND_ISSUE if m.group("u_kind").lower() == "issues" else KIND_PULL
    return _checked(kind, f"{m.group('u_owner')}/{_strip_git(m.group('u_repo'))}", m.group("u_num"))


def _from_full(m: re.Match[str], text: str, repo: str) -> tuple[str, str, int] | None:
    kind = KIND_PULL if m.group("f_sig") in "!！" else KIND_EITHER
    return _checked(kind, f"{m.group('f_owner')}/{m.group('f_repo')}", m.group("f_num"))


# "the issue number 5 of the magazine", "I have issue ID 3 devices": a field word with no colon, then a
# count of things, is prose, not a ticket's field
_FIELD_WORD = re.compile(r"\s(?:id|number|num)\s*\d", re.IGNORECASE)
_COUNTED_AFTER = re.compile(r"\s+(?:of|in|on|devices?|cards?|nodes?|times?|items?)\b", re.IGNORECASE)


# "Internal Jira issue ID: 4512", "Bugzilla issue 12", "内部 issue 编号：4512": the word qualified by another
# tracker (an internal one, or a product's: Jira, NVBugs, Bugzilla, YouTrack, Redmine, Launchpad, Phabricator,
# JBS, TAPD) right before it, on the same line, is that tracker's ticket, not one of this repository's. Not
# with a "#" or "!" before the number ("internal issue #12", "nn.Linear issue #12"): the platform links
# that to this repository whatever words stand before it. Names that are ordinary words too ("linear",
# "trac", "dts") are left out. Written from how PR and issue templates name an internal ticket beside
# the public one; no world read.
_OTHER_TRACKER_BEFORE = re.compile(
    r"(?:\b(?:internal|jira|nvbugs?|bugzilla|youtrack|redmine|launchpad|phabricator|jbs|tapd)"
    r"|内部|内网)(?:'s)?[ \t\-_]*+\Z", re.IGNORECASE)
_TRACKER_WINDOW = 16     # characters looked at before the word: the qualifier is written right before it


def _from_word(m: re.Match[str], text: str, repo: str) -> tuple[str, str, int] | None:
    if _FIELD_WORD.search(m.group("word")) and _COUNTED_AFTER.match(text, m.end()):
        return None
    if not m.group("w_sig") and _OTHER_TRACKER_BEFORE.search(text[max(0, m.start() - _TRACKER_WINDOW):m.start()]):
        return None
    kind = KIND_ISSUE if m.group("w_kw").lower().startswith("issue") else KIND_PULL
    if kind == KIND_ISSUE and m.group("w_sig") in ("!", "！"):
        kind = KIND_PULL
    return _checked(kind, repo, m.group("w_num"))


def _from_gh(m: re.Match[str], text: str, repo: str) -> tuple[str, str, int] | None:
    return _checked(KIND_EITHER, repo, m.group("g_num"))


def _from_short(m: re.Match[str], text: str, repo: str) -> tuple[str, str, int] | None:
    sig = m.group("s_sig")
    if sig in "#＃" and _COLOUR_BEFORE.search(text[max(0, m.start() - 24):m.start()]):
        return None
    return _checked(KIND_PULL if sig in "!！" else KIND_EITHER, repo, m.group("s_num"))


@dataclass(frozen=True, slots=True)
class _Form:
    name: str
    pattern: re.Pattern[str]
    may_hold: Callable[[str, str], bool]       # (text, text lower-cased): can the form occur at all?
    read: Callable[[re.Match[str], str, str], tuple[str, str, int] | None]   # (match, text, repo) -> (kind, repo, n)
    platform: str = ""       # read only on this platform ("" = on every platform)


# In this order: where two forms start at one place, the longer wins, and at equal length the earlier.
_FORMS = (
    _Form(FORM_URL, _URL_RE, lambda text, low: "://" in text, _from_url),
    _Form(FORM_FULL, _FULL_RE, lambda text, low: "/" in text and _has_sigil(text, low), _from_full),
    _Form(FORM_WORD, _WORD_RE,
          lambda text, low: "pr" in low or "mr" in low or "issue" in low or "pull" in low or "merge" in low, _from_word),
    _Form(FORM_SHORT, _SHORT_RE, _has_sigil, _from_short),
    _Form(FORM_GH, _GH_RE, lambda text, low: "gh-" in low, _from_gh, PLATFORM_GITHUB),
)

# Text a reader never sees: HTML comments (an issue or PR template's "<!-- Fixes #123 -->"; an
# unclosed one hides the rest, as GitHub renders it) and Markdown's comment idiom, a link
# definition nobody links to ("[//]: # (Fixes #12)", "[comment]: <> (…)").
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)
_MD_COMMENT = re.compile(r"^[ \t]{0,3}\[[^\]\n]*\]:[ \t]*(?:#|<>)[ \t]*(?:\(.*\)|\".*\"|'.*')?[ \t]*$", re.MULTILINE)


def _hidden(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    if "<!--" in text:
        spans += [m.span() for m in _HTML_COMMENT.finditer(text)]
    if "]:" in text:
        spans += [m.span() for m in _MD_COMMENT.finditer(text)]
    return spans


def visible(text: str | None) -> str:
    """`text` with what a reader never sees (HTML comments, Markdown comment lines) blanked out,
    each hidden character a space, so offsets stay those of `text`."""
    text = text or ""
    for a, b in _hidden(text):
        text = text[:a] + " " * (b - a) + text[b:]
    return text


def _matches(text: str, platform: str = "") -> list[tuple[_Form, re.Match[str]]]:
    """The forms' matches, left to right, none overlapping another, none in hidden text."""
    found: list[tuple[_Form, re.Match[str]]] = []
    if _DIGIT.search(text) is None:
        return found
    low = text.lower()
    for form in _FORMS:
        if (not form.platform or form.platform == platform) and form.may_hold(text, low):
            found += ((form, m) for m in form.pattern.finditer(text))
    hidden = _hidden(text) if found else []
    if hidden:
        found = [fm for fm in found if not any(a <= fm[1].start() < b for a, b in hidden)]
    if len(found) > 1:
        found.sort(key=lambda fm: (fm[1].start(), -fm[1].end()))
        kept: list[tuple[_Form, re.Match[str]]] = []
        for fm in found:
            if not kept or fm[1].start() >= kept[-1][1].end():
                kept.append(fm)
        found = kept
    return found


# The closing keywords, as written (any letter case) -> as normalised. A new keyword is a new
# entry; the pattern below is built from these tables.
# English: GitHub's documented keywords (docs.github.com, "Linking a pull request to an issue":
# close/closes/closed, fix/fixes/fixed, resolve/resolves/resolved), the -ing forms of GitLab's
# default `issue_closing_pattern` (closing, fixing, resolving; GitCode runs GitLab's conventions)
# and "solve(s/d)", which people write for "resolves" though no platform acts on it. "Implements"
# (GitLab since 10.x) is left out: it names a feature ticket's plan as often as a fix.
# Chinese: the verbs GitCode threads use for a fix (修复, 修正, 解决, 关闭), with 了.
_EN_NORMAL = {"close": "closes", "closes": "closes", "closed": "closes", "closing": "closes",
              "fix": "fixes", "fixes": "fixes", "fixed": "fixes", "fixing": "fixes",
              "resolve": "resolves", "resolves": "resolves", "resolved": "resolves", "resolving": "resolves",
              "solve": "resolves", "solves": "resolves", "solved": "resolves"}
_ZH_NORMAL = {"修复": "fixes", "修复了": "fixes", "修正": "fixes", "修正了": "fixes", "解决": "resolves",
              "解决了": "resolves", "关闭": "closes", "关闭了": "closes", "关联": "relates"}


def _one_of(words: dict[str, str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


# A closing keyword directly before a reference (optionally "the issue", "问题", a colon).
_KEYWORD_BEFORE = re.compile(
    rf"""(?:
        (?<![A-Za-z])(?<!not\ )(?<!n't\ )(?P<en>{_one_of(_EN_NORMAL)})
      | (?<![未没不无])(?P<zh>{_one_of(_ZH_NORMAL)})
    )
    \s*(?:(?:the|this|that)\s+)?(?:issues?|bugs?|问题|缺陷|单)?\s*[:：]?\s*[(（]?\s*$""",
    re.VERBOSE | re.IGNORECASE,
)
# Text allowed between two references of one keyword list: "Fixes #1, #2 and #3".
_LIST_GAP = re.compile(r"^[\s,，、;；&+]*(?:(?:and|和|及|与)[\s,，、]*)?$", re.IGNORECASE)
# Bare "#1 priority": an ordinal, not a reference, when no keyword precedes it.
_ORDINAL_AFTER = re.compile(r"^\s+(?:priority|choice|spot|place|rank|fan|reason|pick|seller|hit)\b", re.IGNORECASE)
# CSS-ish context: "#123456" after "color:" is a colour, not an issue.
_COLOUR_BEFORE = re.compile(r"(?:colou?r|background|fill|stroke|border)[\w\-]*\s*[:=]\s*$", re.IGNORECASE)

_KEYWORD_WINDOW = 40     # characters searched before a reference for a keyword or a cue; not fitted to a world

# A reference named as background, not as what the change does: a predecessor, a related or
# similar ticket, a pointer ("前序 #631", "follow-up of #12", "related: #5", "see also #7",
# "refs #3", "similar to #9", "参考 #4", "相关 issue #8"), or "#631 的后续 / 的前序" after it.
# The cue may name the earlier change first and the issue it fixed after it ("前序：!986（#631 的
# 修复）已合入", "follow-up of PR#986 (#631)"): a PR's own reference between the cue and the issue
# is no sentence end (GitCode writes a PR "!986"), the issue is still the one the cue places aside.
# A closing keyword always wins ("修复 #631 的后续问题" fixes #631).
_BACKGROUND_BEFORE = re.compile(
    r"""(?P<cue>前序|前置|后续|相关|参考|参见|类似|同类|
        (?<![A-Za-z])(?:related(?:\s+to)?|relates?\s+to|see\s+also|refs?|references?|similar\s+to|
                      follow[\s-]?ups?\s+(?:of|to|on|for)|follows?\s+up\s+on|predecessor|supersedes|depends\s+on))
    (?:[^\n。；;.!?#＃，,、]|(?:PR|MR)?\s*[!#＃]\d+){0,16}?(?:issues?|prs?|mrs?|问题|单|工作)?\s*[:：]?\s*[(（]?\s*$""",
    re.VERBOSE | re.IGNORECASE,
)
_BACKGROUND_AFTER = re.compile(r"^\s*[)）]?\s*(?:的|之)?\s*(?P<cue>前序|后续|延续)")


# Cues that place a ticket beside the change in any case (another piece of work came before,
# comes after, or is only similar); the others ("related", "refs", "see also", "参考", "相关")
# are also how people point at the one issue a PR fixes when they write no keyword, so they
# mean background only when the PR names another issue as what it fixes (`settle_background`).
_ALWAYS_BACKGROUND = re.compile(r"前序|前置|后续|延续|类似|同类|follow|predecessor|supersedes|depends|similar",
                                re.IGNORECASE)


_FOLLOW_UP = re.compile(r"后续|延续|follow", re.IGNORECASE)

# A cue that names an earlier change and then, with "for", the ticket this PR is for: "This is the
# v0.26.0rc follow-up to #13079 for #13070" (a port of an unmerged fix to another release branch,
# accel-threads7 vllm-ascend #13604, read), as "Backport of #14635 to the 9.1.x branch to fix #14964"
# (pytest-threads, read) names its own target after the change it carries. "for" after the change
# may also say what that change was for ("Fixes #647 (follow-up of PR#986 for #631)"), so the
# reading is soft: background only when the PR names some issue with a closing keyword
# (`settle_background`), the ticket it is for otherwise.
# The tickets after "for" may be a list ("for #13 and #14"): each of them is what the PR is for. Only
# after a change the PR continues or replaces ("follow-up to", "supersedes"): "Similar to #12 for #13"
# and "Depends on #12 for #13" name what that other change is for, not this one.
_FOR_AFTER_CHANGE = re.compile(r"(?:(?:PR|MR)\s*[!#＃]?|[!#＃])\d+[^\n。；;.!?#＃!]{0,24}?\bfor\s+(?:the\s+)?(?:issues?\s*)?[:：]?\s*"
                               r"(?:[#＃]\d+[\s,，、]*(?:(?:and|和|及|与|&)\s*)?)*$", re.IGNORECASE)
_FOR_TAIL = " … for"
_CONTINUES = re.compile(r"follow|supersedes", re.IGNORECASE)


def is_follow_up(ref: Ref) -> bool:
    """Whether the reference names an earlier change the text continues ("follow-up of #12", "!34 的后续")."""
    return bool(ref.background) and bool(_FOLLOW_UP.search(ref.background))


def settle_background(refs: list[Ref]) -> list[Ref]:
    """All the references of one PR (title, body, commits): a soft background cue stands only
    when the PR names some issue with a closing keyword; otherwise the reference is a plain mention."""
    targeted = any(r.keyword for r in refs)
    if targeted:
        return refs
    return [replace(r, background="", soft=r.background) if r.background and (
        not _ALWAYS_BACKGROUND.search(r.background) or r.background.endswith(_FOR_TAIL)) else r for r in refs]


def related_only(ref: Ref) -> str:
    """The cue when the reference names its ticket only as related work ("Related to #65", "refs #3",
    "see also #7", "相关 #8": a soft cue `settle_background` did not keep), else "". Such a PR may be
    the one fix of a ticket nobody else claims (github-mini #100: "Related: #100"); beside a PR that
    claims the ticket it is related work (`fixlore.rules.related.related_work`)."""
    if not ref.soft or ref.keyword or ref.kind == KIND_ISSUE or _ALWAYS_BACKGROUND.search(ref.soft):
        return ""
    return ref.soft


# A reference that points at a ticket without claiming to close it: where the problem was
# reported or described, a pointer to read ("see #12", "详见 …/issues/3"), or Trac's
# "addresses" / "re" (Trac's commit-ticket keywords list them as "link to a changeset", not as
# closing; GitHub and GitLab act on none of them: python-discord/bot#2160 notes "as described
# in #2128" linked nothing). Such a reference is a mention, never a closing claim, whatever its form:
# an issue URL after "reported in" is no keyword.
_POINTER_BEFORE = re.compile(
    r"""(?P<cue>(?<![A-Za-z])(?:(?:as\s+)?(?:reported|described|mentioned|discussed|raised|found|seen|noted)
                  \s+(?:in|at|by|on)|see|addresse[sd]|address(?:ing)?|re|cf\.?)
        |详见|参见|见|来自|源自|出自|反馈于|报告于)
    \s*(?:the\s+)?(?:issues?|prs?|问题)?\s*[:：]?\s*[(（]?\s*$""",
    re.VERBOSE | re.IGNORECASE,
)


def _pointer_cue(text: str, start: int) -> str:
    m = _POINTER_BEFORE.search(text[max(0, start - _KEYWORD_WINDOW):start])
    return " ".join(m.group("cue").split()).lower() if m else ""


def _background_cue(text: str, start: int, end: int) -> str:
    window = text[max(0, start - _KEYWORD_WINDOW):start]
    m = _BACKGROUND_BEFORE.search(window)
    if m:
        cue = " ".join(m.group("cue").split()).lower()
        return cue + _FOR_TAIL if _CONTINUES.search(cue) and _FOR_AFTER_CHANGE.search(window, m.end("cue")) else cue
    m = _BACKGROUND_AFTER.match(text[end:end + 8])
    return m.group("cue") if m else ""


# Credit withheld: a clause that names a change without saying it fixed the problem. People ask
# ("is this fixed by #12?", "#12 修复了吗", "是否由 #12 解决"), deny ("not fixed by #12", "#12 didn't fix
# it", "#12 并未解决") and blame ("caused by #12", "a regression from #12", "由 #12 引入"); none of them
# credits the change, whatever fix word the clause holds. A clause ends at a comma, a semicolon, a
# line break or a full stop (a bare "!" is GitCode's PR sigil, "!41").
_CLAUSE_BREAK = re.compile(r"[,，;；。！？\n]|[.!?](?=\s|$)")
_DENIED_BEFORE = re.compile(
    r"""(?:(?<![A-Za-z])(?:not|never|no\s+longer)|n't)\s+(?:[A-Za-z]+\s+){0,2}?
          (?:fix(?:e[sd])?|resolve[sd]?|solve[sd]?|address(?:ed)?|close[sd]?)(?![A-Za-z])
      | 没有?(?:被)?(?:修复|解决)|未(?:被|能)?(?:修复|解决)|并未|并没有|没能|不能解决|无法解决""",
    re.VERBOSE | re.IGNORECASE)
_BLAMED_BEFORE = re.compile(
    r"""(?<![A-Za-z])(?:caused|introduced|broken|triggered|regressed|started)\s+(?:by|in|with|since|after)(?![A-Za-z])
      | (?<![A-Za-z])(?:regression|breakage)\s+(?:from|of|in|since|by|caused\s+by)(?![A-Za-z])""",
    re.VERBOSE | re.IGNORECASE)
_ASKED_BEFORE = re.compile(r"""^\s*(?:(?:so|and|but|then|hi|hello)\s*,?\s*)?
      (?:is|was|are|were|does|did|do|has|have|could|can|would|will|should|might|may)(?![A-Za-z])
    | 是否|是不是|有没有|会不会|能不能""", re.VERBOSE | re.IGNORECASE)
_WITHHELD_AFTER = re.compile(
    r"""^[^,，;；。\n]{0,30}?(?:
          (?<![A-Za-z])(?:does|did|do|has|have|was|is)(?:n't|\s+not)\s+(?:[A-Za-z]+\s+){0,2}?
            (?:fix(?:e[sd])?|resolve[sd]?|solve[sd]?|address(?:ed)?|close[sd]?|work(?:ed)?|help(?:ed)?)(?![A-Za-z])
        | 没有?(?:修复|解决)|未(?:能)?(?:修复|解决)|并未|并没有|没能|引入|导致|引起|造成
        | (?<![A-Za-z])(?:caused|introduced|broke)(?![A-Za-z]))""", re.VERBOSE | re.IGNORECASE)
_ASKED_PARTICLE = re.compile(r"[吗嘛]|了没|没有$")


def _clause_start(text: str, start: int) -> int:
    lo = max(0, start - 80)
    last = lo
    # up to the reference's first character only: the look-ahead of "x. #5" still sees it ("!57" is no
    # break before 57), and a text that never breaks is not read to its end once per reference
    for m in _CLAUSE_BREAK.finditer(text, lo, start + 1):
        if m.start() >= start:
            break
        last = m.end()
    return last


def withheld_cue(text: str, start: int, end: int, keyword: bool = False) -> str:
    """Why the clause around a reference at text[start:end] withholds credit from it: "asked",
    "denied", "blamed", or "" when it does not. With `keyword` (a closing keyword stands right
    before the reference) only the clause before it and a question mark after it are read:
    "Fixes #12, not #13" and "Fixes #12 introduced by #10" still fix #12."""
    before = text[_clause_start(text, start):start]
    after = text[end:end + 60]
    stop = _CLAUSE_BREAK.search(after)
    rest = after[:stop.start()] if stop else after
    if (stop and stop.group(0) in "?？") or _ASKED_PARTICLE.search(rest) or _ASKED_BEFORE.search(before):
        return "asked"
    if _DENIED_BEFORE.search(before):
        return "denied"
    if _BLAMED_BEFORE.search(before):
        return "blamed"
    if keyword:
        return ""
    m = _WITHHELD_AFTER.match(rest)
    if m:
        return "blamed" if re.search(r"引入|导致|引起|造成|caused|introduced|broke", m.group(0), re.I) else "denied"
    return ""


_OPEN_BRACKET_AT_END = re.compile(r"[(（]\s*$")


def _keyword_before(text: str, start: int, kind: str) -> str:
    m = _KEYWORD_BEFORE.search(text[max(0, start - _KEYWORD_WINDOW):start])
    if not m:
        return ""
    # "the merged alignment fix (!41)": a change in brackets after the word names the change
    # itself (an apposition), not what it closes; an issue in brackets ("Fixes (#12)") is a claim.
    if kind == KIND_PULL and _OPEN_BRACKET_AT_END.search(m.group(0)):
        return ""
    if m.group("en"):
        return _EN_NORMAL[m.group("en").lower()]
    return _ZH_NORMAL[m.group("zh")]


def find_refs(text: str | None, repo: str, platform: str = "") -> list[Ref]:
    """Every issue/PR reference in `text`, in order of appearance; `repo` resolves short forms;
    `platform` ("github", "gitcode", "" unknown) adds the forms only that platform links (GH-N).
    References inside HTML or Markdown comments are not read: nobody sees them."""
    if not text:
        return []
    refs: list[Ref] = []
    prev_end = -1
    prev_keyword = prev_background = prev_pointer = ""
    for form, m in _matches(text, platform):
        ref = form.read(m, text, repo)
        if ref is None:
            continue
        keyword = _keyword_before(text, m.start(), ref[0])
        listed = bool(prev_end >= 0 and _LIST_GAP.match(text[prev_end:m.start()]))
        if not keyword and prev_keyword and listed:
            keyword = prev_keyword
        withheld = withheld_cue(text, m.start(), m.end(), bool(keyword))
        if withheld:
            keyword = ""
        if not keyword and form.name == FORM_SHORT and _ORDINAL_AFTER.match(text[m.end():m.end() + 20]):
            continue
        background = "" if keyword else (_background_cue(text, m.start(), m.end())
                                         or (prev_background if listed else ""))
        pointer = "" if keyword or background else (_pointer_cue(text, m.start())
                                                    or (prev_pointer if listed else ""))
        refs.append(Ref(ref[0], ref[1], ref[2], keyword, (m.start(), m.end()), background, form.name, pointer,
                        withheld))
        prev_end, prev_keyword, prev_background, prev_pointer = m.end(), keyword, background, pointer
    return refs


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


# ---- Narrower readers: each keeps the reading its caller has always had ----

_A = "A-Za-z0-9_"
# "!795", "#498", "PR 986", "MR#4": a sigil or PR/MR word and up to 7 digits, standing alone.
_WRITTEN = re.compile(rf"(?:(?<![{_A}])[!#]|(?<![{_A}])(?:PR|MR)\s*#?\s*)(\d{{1,7}})(?![{_A}])", re.I)


def written_refs(text: str) -> list[Ref]:
    """The references a writer puts in an answer (`!795`, `#498`, `PR 986`, `MR#4`), as they stand in
    `text`: repo "" (a written answer names no repo), kind "either" for `#N`, "pull" otherwise."""
    return [Ref(KIND_EITHER if m.group(0).startswith("#") else KIND_PULL, "", int(m.group(1)),
                span=m.span(), form=FORM_WRITTEN) for m in _WRITTEN.finditer(text)]


# A written sentence crediting a PR as the fix, in either order: the verb before the PR ("修复 !57",
# "fixed by !57"; "由 PR 57 修复" reads PR-first) or the PR before the verb ("!1008 修复了 …", "PR 986
# fixes …"). A bare `#N` names an issue as often as a PR ("fixes #12", "#101 已修复"), so it counts
# only after "fixed by".
_PR_MARK = rf"(?:(?<![{_A}])[!！]|(?<![{_A}])(?:PR|MR)\s*[#!]?\s*)"
_FIX_VERB = r"(?:修复|修正|解决|fix(?:es|ed)?|resolve[sd]?|solve[sd]?)"
_CREDIT_BEFORE = re.compile(rf"(?:{_FIX_VERB}(?:\s+(?:by|in|via))?\s*[:：]?\s*{_PR_MARK}"
                            rf"|(?:fixed|resolved|solved)\s+(?:by|in|via)\s+#)(\d{{1,7}})(?![{_A}])", re.I)
_CREDIT_AFTER = re.compile(rf"{_PR_MARK}(\d{{1,7}})(?![{_A}])\s*(?:已经|已|完成|彻底)?\s*"
                           rf"{_FIX_VERB}", re.I)


def fix_credits(text: str) -> list[int]:
    """The PR numbers a written sentence credits as the fix ("!1008 修复了 …", "fixed by !57"),
    each once, in order of appearance. A PR only named ("见 !60", "不同于 !47") is not credited, nor one
    a clause asks about, denies or blames ("is it fixed by !57?", "not fixed by !57": `withheld_cue`),
    nor one in hidden text (`visible`)."""
    text = visible(text)
    found = sorted([(m.start(1), int(m.group(1))) for m in _CREDIT_BEFORE.finditer(text)
                    if not withheld_cue(text, m.start(1), m.end(1))]
                   + [(m.start(1), int(m.group(1))) for m in _CREDIT_AFTER.finditer(text)
                      if not withheld_cue(text, m.start(1), m.end(1))])
    out: list[int] = []
    for _, number in found:
        if number not in out:
            out.append(number)
    return out


# The change a cherry-pick or a backport copies (`rules.cherry_pick`): "cherry-pick #12", "cherry
# pick of !12", "cherry-picked from #12", "backport of #12", "Backport #12 to release/2.8", "backports
# PR #12", "回合 !12", "同步 #12"; and a squash title's trailing "(#13348)" kept in a title marked as a copy.
COPY_MARKER = r"(?:cherry[- ]?pick(?:ed|s|ing)?|backport(?:ed|s|ing)?|回合|同步)"
_COPIED_NUMBER = re.compile(
    rf"(?<![A-Za-z]){COPY_MARKER}\s*(?:of|from|for)?\s*(?:(?:the\s+)?(?:PR|MR|pull\s+request|merge\s+request)\s*)?"
    rf"[:：]?\s*(?:[#＃!！])(\d{{1,7}})(?![\d])", re.IGNORECASE)
_TRAILING_NUMBER = re.compile(r"\s*\(\s*[#!](\d{1,7})\s*\)\s*$")    # a squash title's "(#13348)"


def copied_numbers(title: str, body: str, marked_title: bool) -> list[int]:
    """The PR numbers a title or body names as the change copied, each once, in order; a title's trailing
    "(#N)" only when `marked_title` (unmarked, it is the PR's own number)."""
    found = [int(m.group(1)) for text in (title or "", visible(body)) for m in _COPIED_NUMBER.finditer(text)]
    if marked_title:
        m = _TRAILING_NUMBER.search(title or "")
        if m:
            found.append(int(m.group(1)))
    return list(dict.fromkeys(found))


# a reference as written in a row's clause ("#12", "!45", "Ascend/mindie#7"); a PR title's leading issue
# ("issue/302 - ", "#179 "); its trailing number is _TRAILING_NUMBER
_WRITTEN_SHORT = re.compile(r"(?:[\w.-]{1,100}/[\w.-]{1,100})?[#!]\d+")    # names bounded as in _FILING: linear
_TITLE_LEAD = re.compile(r"^(?:issue\s*[/#-]?\s*\d+\s*[-:：]?\s*|[#!]\d+\s*[-:：]?\s*)", re.I)


def without_written_refs(text: str) -> str:
    """`text` with its short written references ("#12", "!45", "org/repo#7") taken out."""
    return _WRITTEN_SHORT.sub("", text)


def title_without_lead_ref(title: str) -> str:
    """A PR title without the issue it names in front ("issue/302 - fix …", "#179 fix …")."""
    return _TITLE_LEAD.sub("", title)


def title_without_tail_ref(title: str) -> str:
    """A PR title without the trailing "(#123)" a squash merge appends."""
    return _TRAILING_NUMBER.sub("", title)


_HASH_DIGITS = re.compile(r"#(\d+)")


def hash_numbers(text: str) -> list[str]:
    """Every digit run right after a `#`, anywhere (also inside a word), as written."""
    return _HASH_DIGITS.findall(text)


_TITLE_PULL = re.compile(r"(?:\bPR\s*#?\s*|\bMR\s*#?\s*|!)(\d+)", re.I)


def pull_numbers(text: str) -> list[int]:
    """The numbers written as `PR N`, `PR #N`, `MR N` or `!N` (a title naming the PR it is about)."""
    return [int(n) for n in _TITLE_PULL.findall(text)]


_NOTE_ISSUE = re.compile(r"(?<![\w!])#(\d+)")
_NOTE_PULL = re.compile(r"![0-9]+")


def note_issue_numbers(note: str) -> list[int]:
    """The issues a linker note names as `#N` (not `!#N`, not inside a word), first mention first."""
    return [int(n) for n in dict.fromkeys(_NOTE_ISSUE.findall(note or ""))]


def note_pull_labels(note: str) -> list[str]:
    """The GitCode PR labels (`!N`) a linker note cites, as written, first mention first."""
    return list(dict.fromkeys(_NOTE_PULL.findall(note or "")))


_MERGED_INTO = re.compile(
    r"(?:合并到|并入|合入到|转至|移至|跟踪于|统一在|tracked in|merged into|moved to)\s*(?:issue\s*)?#\s*\d+", re.I)


# GitHub's own wording ("Duplicate of #12" marks an issue a duplicate), and the same said with a
# link or in Chinese ("duplicate with <issue URL>", "与 #12 重复", "重复 #12"); the preposition is often
# dropped ("Duplicate #12", "dup #12", "duplicates #12", "重复了 #12": issue #23).
_DUPLICATE = re.compile(
    r"\bdup(?:licate[sd]?)?(?:\s+(?:of|with|to))?\s*(?:issue\s*)?(?:[\w.-]+/[\w.-]+)?(?:#\s*\d+|https?://\S+/issues/\d+)"
    r"|(?:与|和|同)\s*(?:issue\s*)?(?:#\s*\d+|https?://\S+/issues/\d+)\s*(?:的问题)?\s*重复"
    r"|重复(?:于|的问题|了)?\s*[:：]?\s*(?:issue\s*)?(?:#\s*\d+|https?://\S+/issues/\d+)", re.I)


def duplicate_of(text: str) -> str:
    """The words saying an issue duplicates another ("Duplicate of #12", "duplicate with <URL>",
    "与 #12 重复"), or ""."""
    m = _DUPLICATE.search(visible(text))
    return m.group(0) if m else ""


def merged_into(text: str) -> str:
    """The words saying an issue is folded into another ("合并到 #3", "tracked in #5") or duplicates
    it (`duplicate_of`), or ""."""
    m = _MERGED_INTO.search(text)
    return m.group(0) if m else duplicate_of(text)


# blanks before a mark are read from where their run starts ((?<!\s)): a try inside the run would scan
# the same blanks again, quadratic on a body of blanks
_REFS_WITH_CUE = re.compile(r"(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|修复|解决|关闭|backport of|see|见)?(?:(?<!\s)\s+)?[#!]\d+"
                            r"[\s,，、;；]*", re.I)
_LEADING_REFS = re.compile(r"^(?:(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|修复|解决|关闭)\s*[#!]\d+[\s,，、#!\d]*+"
                           r"[:：。.]?\s*)+", re.I)
_THREAD_URL = re.compile(r"https?://(?:www\.)?(?:github\.com|gitcode\.com|gitee\.com)/([\w.-]+/[\w.-]+)/"
                         r"(?:-/)?(?:issues|pull|pulls|merge_requests)/(\d+)[^\s()\[\]<>（）【】，。；]*")


def without_refs(text: str) -> str:
    """`text` without its `#N`/`!N` references and the keyword or pointer before each ("Fixes #115")."""
    return _REFS_WITH_CUE.sub("", text)


# What a line that only files a change under its ticket is made of besides the reference: the
# repository the reference is in ("Fix vllm-project/vllm-ascend#2033"), the word naming the ticket
# ("fix issue #1087", "修复 issue #33", a template's "issue1"), the word saying where ("fixed in
# alibaba/MNN#4747", "已在 #12 修复"), a commit title's tag ("[fix_bug]", "[BugFix]"). Read on accel-threads7 (vllm-ascend #1760, #2033, #5524: such a line was a row's answer)
# and npu-threads' "[fix_bug] fix issue #1087"; every other world held out.
# The words (not the tag or the repository) are read past only in a line naming a ticket: they stand
# inside real sentences too ("问题在于显存", "问题出在驱动", "Bug in the NPU op").
# owner and repository names are at most 100 characters (GitHub: 39 and 100): a bounded try keeps
# "a-a-/" * 40000 linear (each try scanned to the end of the text: quadratic)
_FILING = re.compile(r"(?:\b[\w.-]{1,100}/[\w.-]{1,100}(?=[#!]\d))|\[[^\]\n]{1,24}\]")
_FILING_WORDS = re.compile(r"\b(?:issues?\d*|bugs?|PR|MR|pull request|this|the|in|by|via|with|at|on)\b"
                           r"|问题|已|在|由|于", re.I)
_TICKET = re.compile(r"[#!]\d|\bissues?\d", re.I)


# A release or version the fix landed in, as Ascend projects name them: MindSpore's branch "r2.3",
# CANN's "8.0.RC2" / "26.0.rc1", vllm-ascend's "v0.9.1rc1", "release-1.2". Too short to count as words
# ("r1.0" is three), it is still what a reader of "已在 r1.0 修复 #12" learns: when.
_RELEASE = re.compile(r"(?<![\w.])(?:(?:[rv]|release[-_/]?)?\d+(?:[.\-]\w+)+|[rv]\d+)(?![\w.])", re.I)


def files_only(sentence: str) -> bool:
    """Whether `sentence` only names tickets and the word for what it does to them ("Fixes #115",
    "Fix vllm-project/vllm-ascend#2033.", "[fix_bug] fix issue #1087", "修复 #103 #104"): nothing a
    reader learns from. A line naming a ticket and the release the fix is in ("已在 r1.0 修复 #12") says when
    (a bare version heading, "+## 2.1.2", does not: demo's changelog diff)."""
    filed = _FILING.sub(" ", sentence)
    filed = _FILING_WORDS.sub(" ", filed) if _TICKET.search(sentence) else filed
    rest = without_refs(filed)
    return len(re.sub(r"[\W_]+", "", rest)) < 4 and not (_TICKET.search(sentence) and _RELEASE.search(rest))


# a sentence's closing clause that only says which ticket the change is for ("… and will fix
# owner/repo#8463.", ", which fixes #12"): the row states the fix and its state itself, and a PR body's
# future tense ("will fix") reads wrong once the PR is merged. Read on accel-threads7 (vllm-ascend #8463:
# fitted there); elsewhere only npu-threads moved (LMCache-Ascend #29, #262 lose a "This PR fixes #N"
# first_action), every other world's export byte-identical
_TRAILING_FIX_REF = re.compile(
    r"[,，]?\s*+(?:\b(?:and|which|that)\s+)?(?:will\s+|should\s+|would\s+)?\b(?:fix(?:es)?|close[sd]?|resolve[sd]?|address(?:es)?)"
    r"\s+(?:[\w.-]+/[\w.-]+)?#\d+(?:[\s,，、]+(?:and\s+)?(?:[\w.-]+/[\w.-]+)?#\d+)*+(?=\s*[.。;；]?\s*\Z)", re.I)


def without_trailing_fix_ref(sentence: str) -> str:
    """`sentence` without a closing clause that only names the ticket it fixes; unchanged when that
    clause is all it says."""
    tail = max(0, len(sentence) - 160)
    m = _TRAILING_FIX_REF.search(sentence, tail)
    if m is None or not sentence[:m.start()].strip():
        return sentence
    if _CHANGE_ALONE.fullmatch(sentence[:m.start()]):     # "This PR fixes #12": it says nothing else
        return ""
    return sentence[:m.start()].rstrip() + sentence[m.end():]


_CHANGE_ALONE = re.compile(r"\s*(?:this|the)\s+(?:pr|pull\s+request|mr|merge\s+request|change|patch|commit)\s*", re.I)


def without_leading_refs(text: str) -> str:
    """`text` without the "Fixes #12, #13:" it opens with."""
    return _LEADING_REFS.sub("", text)


def urls_as_keys(text: str) -> str:
    """Each issue or PR URL on a code host written as ` owner/repo#N `: it says which thread. The URL's
    tail (`/files`, `#issuecomment-…`) goes with it, the mark that closes around it does not: a Markdown
    link's ")" stays, so "[the PR](URL)" is still read as a link and loses its target."""
    return _THREAD_URL.sub(r" \1#\2 ", text)


_GITHUB_REPO_IN_URL = re.compile(r"/repos/([^/]+/[^/]+)/issues/\d+|github\.com/([^/]+/[^/]+)/(?:pull|issues)/\d+")


def github_repo_in_url(url: str) -> str:
    """The `owner/name` of a GitHub API or web URL of an issue or PR, or ""."""
    m = _GITHUB_REPO_IN_URL.search(url)
    return (m.group(1) or m.group(2)) if m else ""


# GitHub's documented closing keywords, before "#N" or "owner/repo#N" in a PR's title or body.
_GITHUB_CLOSING = re.compile(r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+(?:([\w.-]+/[\w.-]+))?#(\d+)\b",
                             re.IGNORECASE)


def closing_numbers(text: str, full: str) -> list[int]:
    """The issue numbers of repo ``full`` a PR text says it closes with a GitHub closing keyword, in order."""
    out: list[int] = []
    for m in _GITHUB_CLOSING.finditer(text or ""):
        if (m.group(1) or full).lower() == full.lower() and int(m.group(2)) not in out:
            out.append(int(m.group(2)))
    return out


_LOG_NUMBER = re.compile(r"#\s*(\d+)")
_LOG_NUMBER_AT_END = re.compile(r"#\s*(\d+)\s*$")


def log_number(content: str) -> str | None:
    """The last `#N` a GitCode operation-log entry names ("关联了 PR #12"), or None."""
    found = _LOG_NUMBER.findall(content)
    return found[-1] if found else None


def log_number_at_end(content: str) -> str | None:
    """The `#N` a GitCode operation-log entry ends with, or None."""
    m = _LOG_NUMBER_AT_END.search(content)
    return m.group(1) if m else None


_TASK_REF = re.compile(
    r"""^[ \t]*[-*+][ \t]*\[[ xX]\][ \t]*
        (?:(?:[\w.-]+/[\w.-]+)?\#\d+|https?://\S+/(?:issues|pull|pulls|merge_requests)/\d+)
        [ \t]*$""",
    re.MULTILINE | re.VERBOSE,
)


def has_task_list_ref(body: str) -> bool:
    """Whether `body` holds a task-list line that is only a reference ("- [ ] #12", "- [x] o/r#3", a URL)."""
    return bool(_TASK_REF.search(visible(body)))


# A checklist line that names an issue or PR somewhere in its text ("- [x] GLM-5 - <issue URL>",
# "- [ ] fix the dispatcher (#23815)").
_TASK_LINE_WITH_REF = re.compile(
    r"""^[ \t]*[-*+][ \t]*\[[ xX]\][^\n]*?
        (?:(?<![\w/])(?:[\w.-]+/[\w.-]+)?\#\d+\b|https?://\S+/(?:issues|pull|pulls|merge_requests)/\d+)""",
    re.MULTILINE | re.VERBOSE,
)


def task_lines_with_refs(body: str) -> int:
    """How many task-list lines of `body` name an issue or PR (alone or within a sentence)."""
    return len(_TASK_LINE_WITH_REF.findall(visible(body)))


# A Markdown table cell that is only a reference: "#12", "o/r#12", "[#12](url)", an issue or PR URL.
_REF_CELL = re.compile(r"""^(?:(?:[\w.-]+/[\w.-]+)?\#\d+
                          |\[(?:[\w.-]+/[\w.-]+)?\#\d+\]\(\S+\)
                          |https?://\S+/(?:issues|pull|pulls|merge_requests)/\d+)$""", re.VERBOSE)
TABLE_REF_ROWS = 3


def table_ref_rows(body: str) -> int:
    """How many rows of a Markdown table in `body` hold a cell that is only a reference to an
    issue or PR (a plan's table: "| 1 | #3777 | readme | @dev (状态-提交PR) |")."""
    rows = 0
    for line in visible(body).splitlines():
        line = line.strip()
        if not line.startswith("|"):
            continue
        if any(_REF_CELL.match(cell.strip()) for cell in line.strip("|").split("|")):
            rows += 1
    return rows


_REVERT_BODY = re.compile(r"^\s*Reverts\s+[\w.-]+/[\w.-]+#\d+|This reverts commit [0-9a-f]{7,40}",
                          re.IGNORECASE | re.MULTILINE)


def revert_note(body: str) -> str:
    """GitHub's "Reverts owner/repo#N" or git's "This reverts commit <sha>" in a PR body, or ""."""
    m = _REVERT_BODY.search(body)
    return m.group(0) if m else ""


_ISSUE_KEY = re.compile(r"^\s*(?P<repo>[^#\s/]+/[^#\s/]+)\s*#\s*(?P<n>\d{1,9})\s*$")
_ISSUE_URL_KEY = re.compile(r"^https?://[^/\s]+/(?P<repo>[^/\s]+/[^/\s]+?)(?:/-)?/issues/(?P<n>\d{1,9})(?:[/?#].*)?$")


def issue_key(text: str) -> tuple[str, int] | None:
    """`owner/repo#N` (spaces allowed around `#`) or an issue's URL, as a person types it -> (repo, N);
    None for anything else."""
    m = _ISSUE_KEY.match(text or "") or _ISSUE_URL_KEY.match((text or "").strip())
    return (m.group("repo"), int(m.group("n"))) if m else None


def with_numbers(words_before: str, words_after: str, flags: int = 0) -> re.Pattern[str]:
    """One pattern for `words_before`, a number with or without a reference mark (`PR #12`, `!12`,
    `12`), then `words_after`, tried in that order at each place (bookkeeping a sentence may drop)."""
    return re.compile(rf"{words_before}|(?:PR|MR)?\s*[#!]?\d+|{words_after}", flags)


# A PR written as the case's fix: "修复 !57", "fixed by !57", "fix: !57", "修复 PR#57". A PR named
# beside another word ("!60 无关", "不同于 !47") is mentioned, not credited.
_CREDITED_PULL = re.compile(r"(?:修复|fix(?:ed)?(?:\s+by)?|fixes)\s*[:：]?\s*(?:!|！|PR\s*#?\s*|MR\s*!?\s*)(\d{1,7})(?!\d)",
                            re.IGNORECASE)


def credited_pulls(text: str) -> list[int]:
    """PR numbers a written cell credits as the fix, in order of appearance."""
    return [int(m.group(1)) for m in _CREDITED_PULL.finditer(text or "")]


# A PR written as not the case's fix: "页面关联的 PR 与本单无关（!60、!61）", "the linked PR is unrelated (!60)";
# a bracket that is a sentence ("(linked !60 touches …, while the issue's own fix !61 …)") lists none.
_DISOWNED = re.compile(r"(?:与本单无关|\bis unrelated|is not this issue's fix)\s*+[（(]((?:[!！]\d{1,7}[、,，\s]*+)+)[）)]")
_PULL_IN_LIST = re.compile(r"[!！](\d{1,7})(?!\d)")


# the PRs a written text ends on: "（!1309）", " (PR#12, PR#13)", "见 !57"
_TRAILING_PULLS = re.compile(r"[（(]?(?:见\s*+|see\s++)?(?:[!！#＃]\d+|PR#\d+)(?:[、,，\s]*+(?:[!！#＃]\d+|PR#\d+))*+[）)]?\s*+\Z")


_TRAILING_CHARS = 200     # a list of PRs a text ends on is read from its last characters only


def without_trailing_pulls(text: str) -> str:
    """`text` without the PRs it ends on ('' when it is only those). Searched in its last
    `_TRAILING_CHARS` characters: from every start in a long run of PRs the search would fail again."""
    text = text or ""
    m = _TRAILING_PULLS.search(text, max(0, len(text) - _TRAILING_CHARS))
    return text[:m.start()] if m else text


def disowned_pulls(text: str) -> list[int]:
    """PR numbers a written cell says are not the fix, in order of appearance."""
    return [int(n) for m in _DISOWNED.finditer(text or "") for n in _PULL_IN_LIST.findall(m.group(1))]
