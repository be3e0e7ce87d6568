"""Why a PR the platform links to an issue is not its change: positive contrary evidence only.

A platform link is the tracker's own record, and real PR titles are terse, so vocabulary alone
never refutes one (`unrelated_reason` says which evidence does). Used by `link.verdict`.
"""

from __future__ import annotations

import re

from fixlore.core.model import Issue, Pull
from fixlore.link.candidates import STRONG, Candidate, _sentence_around
from fixlore.link.config import LinkConfig
from fixlore.link.credited import sentences
from fixlore.link.index import CorpusIndex, Key
from fixlore.link.text import overlap, path_tokens, tokens
from fixlore.rules.answers import DECLINED
from fixlore.rules.bots import is_bot
from fixlore.rules.refs import KIND_ISSUE, find_refs
from fixlore.rules.words import has_cue


def pull_tokens(pull: Pull, idx: CorpusIndex) -> set[str]:
    key = (pull.repo, pull.number)
    cached = idx._pull_tokens.get(key)
    if cached is None:
        files = [f.filename for f in idx.files.get(key, [])]
        cached = tokens(f"{pull.title}\n{pull.body}") | path_tokens(files)
        idx._pull_tokens[key] = cached
    return cached


class _LazyTokens:
    """An issue's vocabulary, computed on first use (most issues never need it)."""

    __slots__ = ("_text", "_tokens")

    def __init__(self, text: str):
        self._text, self._tokens = text, None

    def get(self) -> set[str]:
        if self._tokens is None:
            self._tokens = tokens(self._text)
        return self._tokens


_CODE_SPAN = re.compile(r"`([^`\n]{3,60})`")
_FLAG = re.compile(r"(?<![\w-])(--[A-Za-z][\w-]{2,})")


_IDENT = re.compile(r"^(?:--?)?[A-Za-z_][\w.\-/:]*$")


def _identifiers(text: str) -> set[str]:
    """What an issue names precisely: identifier-like inline code spans (no spaces, starting
    with a letter: a flag, a function, a file, a setting) and command-line flags."""
    found = {m.strip() for m in _CODE_SPAN.findall(text or "")}
    found |= set(_FLAG.findall(text or ""))
    return {x for x in found if len(x) >= 3 and _IDENT.match(x) and any(ch.isalpha() for ch in x)}


_BARE_FLAG = re.compile(r"(?<![\w`-])(--?[A-Za-z][\w-]{2,})")


def _title_spans(title: str) -> str:
    """A title rarely uses backticks: its flags count as quoted identifiers too."""
    return (title or "") + "\n" + " ".join(f"`{m}`" for m in _BARE_FLAG.findall(title or ""))


_JOINERS = re.compile(r"[-_\s]+")


def _touches(pull: Pull, idx: CorpusIndex, named: set[str]) -> bool:
    """Any named identifier in the PR's text or diff, hyphens and underscores aside
    (`--enable-prefix-caching` is `enable_prefix_caching` in the code)."""
    text = _JOINERS.sub("", _pull_text(pull, idx).casefold())
    return any(_JOINERS.sub("", x.casefold()).lstrip("-") in text for x in named)


def _pull_text(pull: Pull, idx: CorpusIndex) -> str:
    parts = [pull.title or "", pull.body or ""]
    for f in idx.files.get((pull.repo, pull.number), []):
        parts += [f.filename, f.patch or ""]
    parts += [c.message for c in idx.commits.get((pull.repo, pull.number), [])]
    return "\n".join(parts)


# A person other than the reporter saying the linked PR is not this issue's change.
_DENIES = re.compile(r"无关|不相关|没有关系|没关系|不是(?:这个|本|该)?(?:问题|issue|单)?的?(?:修复|解决)|关联错|误关联|错误关联|"
                     r"挂错|关联有误|not related|unrelated|doesn'?t fix|does not fix|wrong (?:pr|mr|link)|"
                     r"linked (?:by mistake|wrongly)|mis-?linked", re.IGNORECASE)


def _denied_by_comment(issue: Issue, pull: Pull, idx: CorpusIndex) -> str:
    for c in idx.issue_comments.get((issue.repo, issue.number), []):
        if not c.author or c.author == issue.author or is_bot(c.author):
            continue
        body = c.body or ""
        for ref in find_refs(body, issue.repo, issue.platform):
            if (ref.repo, ref.number) != (pull.repo, pull.number) or ref.kind == KIND_ISSUE:
                continue
            sentence = _sentence_around(body, *ref.span)
            if _DENIES.search(sentence):
                return f"{c.author} says so: '{' '.join(sentence.split())[:100]}' [issues/{issue.number}/comments/{c.id}]"
    return ""


def _declined_by_owner(issue: Issue, idx: CorpusIndex) -> str:
    """Someone other than the reporter declines what the issue asks ("改名代价大于收益，不采纳"):
    nothing was changed for it, so a PR the platform links to it is some other change. A
    sentence that names a PR is about that PR, not the request, and says nothing here."""
    key = (issue.repo, issue.number)
    if key not in idx._declined:
        idx._declined[key] = _declined(issue, idx)
    return idx._declined[key]


def _declined(issue: Issue, idx: CorpusIndex) -> str:
    for c in idx.issue_comments.get((issue.repo, issue.number), []):
        if not c.author or c.author == issue.author or is_bot(c.author):
            continue
        low = (c.body or "").lower()
        if not any(cue in low for cue in DECLINED):     # the usual case, told apart cheaply
            continue
        for sentence in sentences(c.body):          # "!2948 不采纳": the "!" is a PR's sigil
            if has_cue(sentence, DECLINED) and not find_refs(sentence, issue.repo, issue.platform):
                return f"{c.author} declined the request: '{' '.join(sentence.split())[:100]}' [issues/{issue.number}/comments/{c.id}]"
    return ""


def _dirs(paths: list[str]) -> set[str]:
    return {p.rsplit("/", 1)[0] if "/" in p else "" for p in paths}


def _other_fix_area(pull: Pull, idx: CorpusIndex, cands: dict[Key, Candidate]) -> str:
    """The linked PR's files share no file and no folder with what the issue's own fix (a PR that
    names it with a keyword, its branch or a closing commit) changes."""
    mine = [f.filename for f in idx.files.get((pull.repo, pull.number), [])]
    if not mine:
        return ""
    for key, c in sorted(cands.items()):
        if c.pull is None or key == (pull.repo, pull.number) or not c.kinds() & STRONG:
            continue
        theirs = [f.filename for f in idx.files.get(key, [])]
        if theirs and not set(mine) & set(theirs) and not _dirs(mine) & _dirs(theirs):
            return (f"touches {', '.join(sorted(mine)[:3])}, while the issue's own fix "
                    f"{idx.pr_label(key, pull.repo)} changes {', '.join(sorted(theirs)[:3])}")
    return ""


def unrelated_reason(issue: Issue, pull: Pull, idx: CorpusIndex, cfg: LinkConfig, itoks: "_LazyTokens",
                     cands: dict[Key, Candidate] | None = None) -> str:
    """Why a platform-linked PR is not about this issue ("" when nothing positive says so).

    A platform link is the tracker's own record, and a close seconds or minutes after the
    linked PR merged is the platform carrying out the PR's closing claim. Real PR titles are
    terse ("fix bug", "修复问题", "补充参数说明"), so vocabulary alone never refutes a link;
    it takes positive contrary evidence, and the reason says which:
      - the PR's text names this issue only as background ("前序 #631");
      - someone other than the reporter says in the issue that the PR is not its change, or
        declines what the issue asks (nothing was changed for it);
      - the PR names other issues with a closing keyword (not within `minutes_s` after its
        merge: then the platform closed this issue on the PR's claim too);
      - its change touches an area the issue does not: none of the identifiers the issue
        names occurs in its diff, or its files share no file and no folder with the issue's
        own keyword/branch-named fix.
    The last three hold only while the issue and the PR share less than `unrelated_overlap` of
    their vocabulary (a guard against refuting a link that reads as the issue's own change).
    """
    key = (issue.repo, issue.number)
    label = idx.pr_label((pull.repo, pull.number), issue.repo)
    refs = idx.pull_issue_refs.get((pull.repo, pull.number), [])
    if any((m.ref.repo, m.ref.number) == key and not m.ref.background for m in refs):
        return ""
    others = sorted({f"#{m.ref.number}" if m.ref.repo == issue.repo else f"{m.ref.repo}#{m.ref.number}"
                     for m in refs if (m.ref.keyword or m.ref.kind == KIND_ISSUE) and not m.ref.background
                     and (m.ref.repo, m.ref.number) != key})
    cues = sorted({m.ref.background for m in refs if (m.ref.repo, m.ref.number) == key and m.ref.background})
    if cues:
        # The PR's own text says what this issue is to it: background, not its target.
        return (f"linked {label} names this issue only as background ({', '.join(repr(c) for c in cues)})"
                + (f" and names {', '.join(others[:4])} as what it fixes" if others else ""))
    denied = _denied_by_comment(issue, pull, idx)
    if denied:
        return f"linked {label} is not this issue's change: {denied}"
    declined = _declined_by_owner(issue, idx)
    if declined:
        return f"linked {label} cannot be this issue's change: {declined}"
    ov = overlap(itoks.get(), pull_tokens(pull, idx))
    has_diff = bool(idx.files.get((pull.repo, pull.number)))
    subject = _identifiers(_title_spans(issue.title)) if has_diff else set()
    if subject and not _touches(pull, idx, subject):
        # What the title names is what the issue is about; a diff that touches none of it is
        # about something else, however the PR is worded.
        return (f"linked {label} touches none of what the issue's title names "
                f"({', '.join(sorted(subject)[:4])}); it shares {ov:.0%} of the issue's vocabulary")
    if ov >= cfg.unrelated_overlap:
        return ""
    chain = (pull.merged and issue.closed_at is not None
             and -cfg.clock_slack_s <= (issue.closed_at - pull.merged_at).total_seconds() <= cfg.minutes_s)
    if others and not chain:
        return (f"linked {label} names {', '.join(others[:4])} as what it fixes, not this issue, "
                f"and shares {ov:.0%} of its vocabulary (title/body/files)")
    if has_diff and (named := _identifiers(f"{issue.title}\n{issue.body}")) and not _touches(pull, idx, named):
        return (f"linked {label} touches none of what the issue names "
                f"({', '.join(sorted(named)[:4])}) and shares {ov:.0%} of its vocabulary")
    area = _other_fix_area(pull, idx, cands or {})
    if area:
        return f"linked {label} {area}; it shares {ov:.0%} of the issue's vocabulary"
    return ""
