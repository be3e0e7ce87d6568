"""Transformations of a loaded world (a Corpus) for metamorphic tests (issue #13).

Each takes a Corpus and returns a new one; the input is never changed. The ones that keep
meaning (labels re-spelled, PR titles made terse, accounts renamed, order shuffled, a flood
typed Task) must leave every conclusion as it was; removing an issue's fixing PR must not.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import re

from fixlore.rules.funnel.vocabulary import fold
from fixlore.rules.bots import is_bot
from fixlore.rules.refs import find_refs
from fixlore.core.model import Corpus

_SEPARATORS = (" ", "-", "_")


def _own(corpus: Corpus, *changed: str) -> Corpus:
    """A new Corpus of new lists; the items of the lists named `changed` are copies of their own
    (a transform changes their fields), the others the input's, untouched (a deep copy of the
    Ascend world costs 0.2 s of CPU, and the metamorphic tests make one per transform)."""
    fields = {f.name: getattr(corpus, f.name) for f in dataclasses.fields(corpus)}
    return dataclasses.replace(corpus, **{
        name: dict(value) if isinstance(value, dict) else
        [copy.copy(item) for item in value] if name in changed else list(value)
        for name, value in fields.items() if isinstance(value, (list, dict))})


def _respell(term: str, rng: random.Random) -> str:
    """Another spelling of one label: case changed, word separators swapped, apostrophes dropped."""
    if not term or not any(ch.isascii() and ch.isalpha() for ch in term):
        return term
    words = [w for w in re.split(r"[\s\-_]+", term.replace("'", "").replace("’", "")) if w]
    sep = rng.choice(_SEPARATORS)
    spelled = sep.join(words)
    style = rng.randrange(3)
    spelled = spelled.upper() if style == 0 else spelled.title() if style == 1 else spelled.lower()
    assert fold(spelled) == fold(term), (term, spelled)
    return spelled


def respell_labels(corpus: Corpus, seed: int = 13) -> Corpus:
    """Every label, workflow state and issue type written another way ("wontfix" -> "Wont-Fix")."""
    rng = random.Random(seed)
    out = _own(corpus, "issues")
    for i in out.issues:
        i.labels = [_respell(x, rng) for x in i.labels]
        i.workflow_state = _respell(i.workflow_state, rng)
        i.issue_type = _respell(i.issue_type, rng)
    return out


_TERSE = ("fix bug", "修复问题", "补充参数说明", "update", "fix")


_KEYWORD_TEXT = {"fixes": "fixes", "closes": "closes", "resolves": "resolves", "relates": "关联"}


def terse_pr_titles(corpus: Corpus, seed: int = 13) -> Corpus:
    """Every PR title replaced by a terse one ("fix bug", "修复问题", "补充参数说明" …); the
    references the title carried stay, with their keyword or background cue."""
    rng = random.Random(seed)
    out = _own(corpus, "pulls")
    for p in out.pulls:
        parts = [rng.choice(_TERSE)]
        for r in find_refs(p.title, p.repo):
            cue = _KEYWORD_TEXT.get(r.keyword, "") or (f"{r.background}:" if r.background else "")
            parts.append(f"{cue} {p.title[r.span[0]:r.span[1]]}".strip())
        p.title = " ".join(parts)
    return out


def rename_accounts(corpus: Corpus) -> Corpus:
    """Every account gets a new name; a bot stays recognisable as one (its new name ends in -bot)."""
    out = copy.deepcopy(corpus)
    names: dict[str, str] = {}

    def new(login: str) -> str:
        if not login:
            return login
        if login not in names:
            names[login] = f"acct{len(names):04d}" + ("-bot" if is_bot(login) else "")
        return names[login]

    for i in out.issues:
        i.author, i.closed_by = new(i.author), new(i.closed_by)
    for p in out.pulls:
        p.author = new(p.author)
    for c in out.comments:
        c.author = new(c.author)
    for e in out.events:
        e.actor = new(e.actor)
    for c in out.commits:
        c.author = new(c.author)
    return out


def shuffle_order(corpus: Corpus, seed: int = 13) -> Corpus:
    """Every list of the corpus in another order (issues, PRs, comments, events, links, files, commits)."""
    rng = random.Random(seed)
    out = _own(corpus)
    for name in ("repos", "issues", "pulls", "comments", "events", "links", "files", "commits"):
        items = list(getattr(out, name))
        rng.shuffle(items)
        setattr(out, name, items)
    return out


def type_as_task(corpus: Corpus, keys: set[str]) -> Corpus:
    """The issues `keys` (a bot's flood) carry the internal-looking issue type "Task"."""
    out = _own(corpus, "issues")
    for i in out.issues:
        if i.key in keys:
            i.issue_type = "Task"
    return out


def remove_pull(corpus: Corpus, repo: str, number: int) -> Corpus:
    """The PR and everything hanging off it (links, files, commits, its comments and events) gone.

    Nothing is changed, only left out: the new Corpus holds new lists of the same items (a deep
    copy of the Ascend world costs 0.2 s of CPU, and a test removes a dozen PRs one by one)."""
    return dataclasses.replace(
        corpus,
        pulls=[p for p in corpus.pulls if (p.repo, p.number) != (repo, number)],
        links=[x for x in corpus.links if (x.pull_repo, x.pull_number) != (repo, number)],
        files=[f for f in corpus.files if (f.repo, f.pull_number) != (repo, number)],
        commits=[c for c in corpus.commits if (c.repo, c.pull_number) != (repo, number)],
        comments=[c for c in corpus.comments
                  if not (c.parent_kind == "pull" and (c.repo, c.parent_number) == (repo, number))],
        events=[e for e in corpus.events if not (e.parent_kind == "pull" and (e.repo, e.parent_number) == (repo, number))],
        repos=list(corpus.repos), issues=list(corpus.issues), unread=dict(corpus.unread))
