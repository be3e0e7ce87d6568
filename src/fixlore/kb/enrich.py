"""Enrich: attach to each case the documents that explain its mechanism (`case.kb_refs`).

The query is built from what the run knows about the case: the issue title and body, the
comments of people other than the reporter (maintainers' answers carry the root cause),
the titles and bodies of the fix PRs, and the case's own problem/answer text when the
analysis has already written it. The root-cause side (answer, fix PR titles, maintainers'
comments) is the query's *focus*: its terms count double, and it leads the text that is
embedded. Everything is trimmed: templates, links, images, HTML comments and long logs add
words that match everything and explain nothing.

The case's own repository is a prior: its documents win ties in ordering. It never lifts a
document over the threshold, and no hit above the threshold means no reference.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable

from markdown_it import MarkdownIt

from fixlore.core.model import Case, Comment, Corpus, Issue, Pull
from fixlore.retrieval.base import KbQuery, KnowledgeBase
from fixlore.retrieval.search import refs_above

BODY_CHARS = 900
COMMENT_CHARS = 500
COMMENTS_CHARS = 1500
PR_BODY_CHARS = 600

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_URL = re.compile(r"https?://\S+")
_MD = MarkdownIt("commonmark")
_NEWLINE = re.compile(r"(\r\n?|\n)")          # markdown-it's own line ends, so its line numbers fit
FENCE_LINES = 5
_BOT = re.compile(r"(bot|robot|ci|jenkins)$|^(ascend-robot|openeuler-ci-bot|i-robot)", re.I)
_COMMAND = re.compile(r"^\s*/\w+")


def clean_text(text: str, limit: int) -> str:
    """Issue or PR text without markup noise, long code/log blocks shortened, cut at `limit` chars."""
    if not text:
        return ""
    text = _HTML_COMMENT.sub(" ", text)
    text = _IMAGE.sub(" ", text)
    text = _LINK.sub(r"\1", text)
    text = _URL.sub(" ", text)
    text = _shorten_fences(text)
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r"\n\s*\n+", "\n", text)
    return text.strip()[:limit]


def _shorten_fences(text: str) -> str:
    """A fenced block (as markdown-it finds it: ``` or ~~~, never a run of backticks in a sentence)
    keeps its first lines, the error message, not the whole log; what stood before its opening
    marker on that line stays, and so does its closing line when the block is that short."""
    spans = [(tok.map, tok.markup) for tok in _MD.parse(text) if tok.type == "fence" and tok.map]
    if not spans:
        return text
    parts = _NEWLINE.split(text)
    lines, ends = parts[0::2], parts[1::2] + [""]
    out: list[str] = []
    at = 0
    for (begin, end), marker in spans:
        out += [ln + nl for ln, nl in zip(lines[at:begin], ends[at:begin])]
        kept = [ln + nl for ln, nl in zip(lines[begin + 1:end], ends[begin + 1:end])][:FENCE_LINES]
        lead = lines[begin][:lines[begin].find(marker)]
        out += [lead + (kept[0] if kept else "")] + kept[1:]
        at = end
    out += [ln + nl for ln, nl in zip(lines[at:], ends[at:])]
    return "".join(out)


def _is_answer_comment(comment: Comment, reporter: str) -> bool:
    if comment.author == reporter or _BOT.search(comment.author or ""):
        return False
    body = (comment.body or "").strip()
    return len(body) >= 8 and not _COMMAND.match(body)


class CorpusLookup:
    """Look-ups into a corpus by issue and PR key."""

    def __init__(self, corpus: Corpus):
        self.issues: dict[tuple[str, int], Issue] = {(i.repo, i.number): i for i in corpus.issues}
        self.pulls: dict[tuple[str, int], Pull] = {(p.repo, p.number): p for p in corpus.pulls}
        # whose repositories these are: their documents are indexed as docs/OWNER/REPO/…
        self.owners = frozenset(repo.partition("/")[0] for repo, _ in self.issues)
        self.comments: dict[tuple[str, int], list[Comment]] = defaultdict(list)
        for c in corpus.comments:
            if c.parent_kind == "issue":
                self.comments[(c.repo, c.parent_number)].append(c)


def case_query(case: Case, ctx: CorpusLookup) -> KbQuery:
    """The knowledge-base query for one case (see the module docstring)."""
    issue = ctx.issues.get((case.repo, case.number))
    title = case.title or (issue.title if issue else "")
    body = clean_text(issue.body, BODY_CHARS) if issue else ""
    reporter = issue.author if issue else ""
    answers: list[str] = []
    used = 0
    comments = sorted(ctx.comments.get((case.repo, case.number), []),
                      key=lambda c: (c.created_at is None, c.created_at or 0, c.id))
    for c in comments:
        if not _is_answer_comment(c, reporter) or used >= COMMENTS_CHARS:
            continue
        piece = clean_text(c.body, min(COMMENT_CHARS, COMMENTS_CHARS - used))
        answers.append(piece)
        used += len(piece)
    pr_titles: list[str] = []
    pr_bodies: list[str] = []
    for f in case.fix:
        pull = ctx.pulls.get((f.repo, f.number))
        if pull is None:
            continue
        pr_titles.append(_strip_prefix(pull.title))
        pr_bodies.append(clean_text(pull.body, PR_BODY_CHARS))
    focus = "\n".join(x for x in [case.answer, case.problem, *pr_titles, *answers[:2]] if x)
    text = "\n".join(x for x in [title, body, *answers, *pr_titles, *pr_bodies] if x)
    vector_text = "\n".join(x for x in [title, case.problem, case.answer, *pr_titles, *answers[:1], body] if x)
    return KbQuery(text=text, focus=focus, vector_text=vector_text,
                   prefer=f"docs/{case.repo}/", scope_repo=case.repo,
                   scope_owners=ctx.owners)


def _strip_prefix(title: str) -> str:
    """PR titles often start with a tag ("[fix]", "bugfix:"); the tag explains nothing."""
    return re.sub(r"^\s*(\[[^\]]{1,20}\]|【[^】]{1,20}】|\w{2,10}:)\s*", "", title or "")


def enrich(cases: list[Case], corpus: Corpus, kb: KnowledgeBase, threshold: float | None = None,
           limit: int = 3, judge=None) -> dict:
    """Set `kb_refs` on every case: documents above the threshold (the index's calibrated one
    by default), best passage each, at most `limit`; none above it leaves ``[]``. With a `judge`
    (kb.verify), the top documents are read instead and kept only where the judge says they
    explain the case; a case whose check fails keeps the threshold's. Returns the check's summary
    ({} without a judge)."""
    ctx = CorpusLookup(corpus)
    t = kb.threshold() if threshold is None else threshold
    queries = [case_query(case, ctx) for case in cases]
    # Each case is ranked once: the threshold's refs and the judge's candidates are cut from it.
    ranked = [kb.ranked_docs(query) for query in queries]
    for case, docs in zip(cases, ranked):
        case.kb_refs = refs_above(docs, t, limit)
    if judge is None:
        return {}
    from fixlore.kb.verify import verify_refs

    return verify_refs(cases, queries, [docs[:limit] for docs in ranked], judge).as_dict()


def queries_for(cases: Iterable[Case], corpus: Corpus) -> list[KbQuery]:
    ctx = CorpusLookup(corpus)
    return [case_query(c, ctx) for c in cases]
