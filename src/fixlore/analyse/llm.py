"""The LLM analyst: any OpenAI-compatible chat completions endpoint (vLLM, Ollama, DeepSeek, Qwen ...).

Per case: build the prompt from the versioned prompt file (the issue, the discussion by role, the
fix PRs with their review comments, commit messages and the changed files' relevant hunks, within
a character budget), look the input hash up in the cache, else ask the endpoint for JSON against
the reply's schema (retrying 429 / 5xx / timeouts with backoff), validate it and check that every
identifier, number, version and PR it writes is in the material it was given, and that a PR it
credits as the fix is one the case's links make its fix (`grounding`): one repair round, then what
is still unfounded is dropped and the case records what was removed (`Written.removed`, shown by
the digest's disclosure). A Chinese row's first action written in English is replaced by the
offline analyst's. Tokens, cost, cache
hits and grounding counts are recorded. When a case still fails (a 429 storm, a timeout, a
malformed reply, nothing grounded left) that case falls back to the offline analyst and says so in
`analysed_by`, by its real cause."""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from typing import Any

from pydantic import BaseModel, ValidationError, field_validator, model_validator

from fixlore.analyse.base import Analysis
from fixlore.analyse.cache import AnswerCache, input_key
from fixlore.analyse.context import CaseContext
from fixlore.analyse.grounding import Claim, claims, miscredited, ungrounded, without_claims
from fixlore.analyse.keep import language_of
from fixlore.analyse.offline import OfflineAnalyst
from fixlore.analyse.promptfile import load_prompt
from fixlore.core.model import DROP_REASONS, Case, Written
from fixlore.rules.credit import creditable_pulls
from fixlore.edges.circuit import Circuits
from fixlore.edges.llmclient import ChatClient, endpoint_host
from fixlore.edges.llmclient import failure_reason as client_failure
from fixlore.rules.text import cjk_count, clean_body, hard_facts, is_cjk, keywords, shorten
from fixlore.wording.facts import close_sentence, fix_sentence, kb_sentence, pr_label


class LlmReply(BaseModel):
    """A reply in either prompt's shape: v1 writes `answer`; v2 writes the row's facts as fields
    (mechanism, fix, workaround, scope, numbers, trap) and the answer is made of them."""
    problem: str
    answer: str = ""
    mechanism: str = ""
    fix: str = ""
    workaround: str = ""
    scope: str = ""
    numbers: list[str] = []
    trap: str = ""
    theme: str = ""
    symptom: str = ""
    first_action: str = ""
    keep: bool
    drop_reason: str = ""
    notes: list[str] = []

    @field_validator("problem")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v or not v.strip():
            raise ValueError("must not be empty")
        return v.strip()

    @field_validator("notes", "numbers", mode="before")
    @classmethod
    def _notes_list(cls, v: Any) -> list[str]:
        if isinstance(v, str):
            return [v] if v.strip() else []
        return [str(x) for x in (v or [])]

    @model_validator(mode="after")
    def _answer(self) -> "LlmReply":
        if not self.answer.strip():
            self.answer = compose_answer(self)
        if not self.answer.strip():
            raise ValueError("answer: neither an answer nor a mechanism, fix or workaround")
        self.answer = self.answer.strip()
        return self

    @model_validator(mode="after")
    def _reason(self) -> "LlmReply":
        if self.keep:
            self.drop_reason = ""
        elif self.drop_reason not in DROP_REASONS:
            raise ValueError(f"drop_reason {self.drop_reason!r} is not in the vocabulary")
        return self


def compose_answer(reply: "LlmReply") -> str:
    """The row's answer from the fields, in the order a reader needs them: mechanism, what the
    change does, what to do without it, who is affected. Each field keeps its own language."""
    parts = [p.strip().rstrip("。.") for p in (reply.mechanism, reply.fix, reply.workaround, reply.scope) if p.strip()]
    if not parts:
        return ""
    zh = any("\u3400" <= ch <= "\u9fff" for ch in "".join(parts))
    return ("。".join(parts) + "。") if zh else (". ".join(parts) + ".")


WRITTEN_FIELDS = ("problem", "mechanism", "fix", "workaround", "scope", "trap", "symptom", "first_action")


class MalformedReply(Exception):
    pass


class NothingGrounded(Exception):
    """Every sentence of the reply made a claim the material or the case's links do not support."""

    def __init__(self, removed: list[Claim]):
        super().__init__(", ".join(map(str, removed)))
        self.removed = removed


def _why(claim: Claim) -> str:
    return f"{claim}: " + ("credited as the fix, not this issue's" if claim.kind == "credit" else "not in the material")


def removed_notes(claims: list[Claim]) -> list[str]:
    """One "claim: why" per claim written; a PR both absent from the material and credited as the fix
    is named once, as absent (the stronger reason)."""
    absent = {str(c) for c in claims if c.kind != "credit"}
    return [_why(c) for c in claims if c.kind != "credit" or str(c) not in absent]


def failure_reason(exc: BaseException) -> str:
    """A short, secret-free reason for the run summary and `analysed_by`."""
    if isinstance(exc, NothingGrounded):
        return f"nothing grounded: every sentence removed ({exc})"
    return f"malformed reply: {exc}" if isinstance(exc, MalformedReply) else client_failure(exc)


def parse_reply(content: str | None) -> LlmReply:
    text = (content or "").strip()
    fence = re.match(r"^```(?:json)?\s*(.*?)\s*```$", text, re.S)
    if fence:
        text = fence.group(1)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedReply(f"not JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise MalformedReply("JSON is not an object")
    try:
        return LlmReply.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise MalformedReply(f"invalid field {'.'.join(map(str, first['loc'])) or '-'}: {first['msg']}") from exc


class LlmAnalyst:
    def __init__(self, *, base_url: str, model: str, api_key: str | None = None,
                 key_env: str = "OPENAI_API_KEY", prompt: str = "analyse_case.v2",
                 cache_path: str | None = None, timeout: float = 60.0, attempts: int = 4,
                 backoff_base: float = 1.0, backoff_max: float = 30.0,
                 price_prompt: float | None = None, price_completion: float | None = None,
                 json_mode: bool = True, temperature: float = 0.0, fallback: OfflineAnalyst | None = None,
                 max_body_chars: int = 4000, context_chars: int = 16000, repair: bool = True,
                 editorial: bool = True, circuits: Circuits | None = None):
        # the rows' and the editorial's clients share the endpoint's breaker (and the run's, when given)
        breaker = (circuits or Circuits()).get(endpoint_host(base_url))
        self._chat_settings = dict(base_url=base_url, model=model, api_key=api_key, key_env=key_env, timeout=timeout,
                                   attempts=attempts, backoff_base=backoff_base, backoff_max=backoff_max,
                                   json_mode=json_mode, temperature=temperature, breaker=breaker)
        self.chat = ChatClient(**self._chat_settings)
        self.model = model
        self.name = f"llm:{model}"
        self.prompt = load_prompt(prompt)
        self.cache = AnswerCache(cache_path)
        self.price_prompt, self.price_completion = price_prompt, price_completion
        self.fallback = fallback or OfflineAnalyst()
        self.max_body_chars = max_body_chars
        self.context_chars = context_chars
        self.repair = repair
        self.editorial = editorial      # the editorial pass after the rows (analyse/editorial.py)
        self._lock = threading.Lock()
        self.grounding: Counter = Counter()     # checked, repaired, dropped
        self.cache_hits = 0
        self.failures: Counter = Counter()

    @property
    def json_mode(self) -> bool:
        return self.chat.json_mode

    # -- building the request -------------------------------------------------------------
    def _facts(self, case: Case, zh: bool) -> dict:
        return {
            "fix": fix_sentence(case, zh), "close": close_sentence(case, zh), "kb": kb_sentence(case, zh),
            "timing": case.timing, "lag_s": case.lag_s, "traps": case.traps, "trap_notes": case.trap_notes,
            "evidence": [f"{e.kind}: {e.detail}" for e in case.evidence],
            "fix_prs": [{"number": f.number, "repo": f.repo, "role": f.role, "state": f.state,
                         "merged_at": f.merged_at.isoformat() if f.merged_at else ""} for f in case.fix],
        }

    def sections(self, case: Case, ctx: CaseContext) -> dict[str, str]:
        """The material, section by section, within `context_chars` in all: what explains most comes
        first (the issue, the discussion, the PRs) and what is cut first comes last (reviews,
        commits, then changed files, of which only the hunks that touch what the issue names)."""
        disc = []
        for c in ctx.discussion():
            who = f"{c.author}, reporter" if c.author == ctx.author else c.author
            disc.append(f"[{who}] {shorten(clean_body(c.body), 800)}")
        pulls = [f"#{p.number} [{p.state}] {p.title}\n{shorten(clean_body(p.body), 1500)}" for p in ctx.pulls]
        reviews = [f"[{c.author}] #{c.parent_number} {shorten(clean_body(c.body), 500)}" for c in ctx.reviews()]
        commits = [f"{cm.sha[:10]} {shorten(cm.message, 300)}" for cm in ctx.commits]
        title = case.title or (ctx.issue.title if ctx.issue else "")
        body = clean_body(ctx.body)
        named = {w.lower() for w in hard_facts(f"{title}\n{body}")} | set(keywords(f"{title} {body}", 8))
        files = [_file_summary(f, named) for f in ctx.files]
        out = {"body": shorten(body, self.max_body_chars), "discussion": "\n".join(disc),
               "pulls": "\n\n".join(pulls), "reviews": "\n".join(reviews), "commits": "\n".join(commits),
               "files": "\n".join(files)}
        left = self.context_chars
        for name in ("body", "discussion", "pulls", "reviews", "commits", "files"):
            out[name] = _cut(out[name], max(left, 0))
            left -= len(out[name])
            out[name] = out[name] or "(none)"
        return out

    def messages(self, case: Case, ctx: CaseContext) -> list[dict]:
        zh = language_of(case, ctx)
        user = self.prompt.render(
            facts=json.dumps(self._facts(case, zh), ensure_ascii=False, indent=1), key=case.key,
            title=case.title or (ctx.issue.title if ctx.issue else ""), **self.sections(case, ctx))
        return [{"role": "system", "content": self.prompt.system}, {"role": "user", "content": user}]

    # -- the analysis ----------------------------------------------------------------------
    def analyse(self, case: Case, ctx: CaseContext) -> Analysis:
        messages = self.messages(case, ctx)
        key = input_key(self.prompt.version_id, self.model, messages)
        cached = self.cache.get(key)
        if cached is not None:
            with self._lock:
                self.cache_hits += 1
            return self._with_facts(self._to_analysis(LlmReply.model_validate(cached), {}, cached=True), case, ctx)
        usage: dict[str, int] = {}
        try:
            reply, content = self._ask_for_reply(messages, usage)
            reply, dropped = self._grounded(reply, content, messages, usage, case)
        except Exception as exc:  # noqa: BLE001 - every failure of one case falls back for that case
            reason = failure_reason(exc)
            with self._lock:
                self.failures[reason.split(":")[0]] += 1
            fb = self.fallback.analyse(case, ctx)
            fb.analysed_by = f"{self.fallback.name} (llm failed: {reason})"
            fb.notes = fb.notes + [f"llm failed: {reason}"]
            if isinstance(exc, NothingGrounded):
                fb.written.removed = removed_notes(exc.removed)
            return fb
        self.cache.put(key, self.prompt.version_id, self.model, reply.model_dump(), usage)
        analysis = self._to_analysis(reply, usage, cached=False)
        if dropped:
            analysis.notes = analysis.notes + [f"ungrounded claims dropped: {', '.join(map(str, dropped))}"]
            analysis.analysed_by += " (claims dropped)"
            analysis.written.removed = removed_notes(dropped)
        if language_of(case, ctx) and analysis.first_action and not is_cjk(analysis.first_action) \
                and cjk_count(analysis.first_action) < 2:
            # a Chinese guide takes no English step: the offline analyst's, from the same thread
            offline = self.fallback.analyse(case, ctx)
            analysis.first_action, analysis.written.action = offline.first_action, offline.written.action
            analysis.notes = analysis.notes + ["first action in the other language replaced by the offline analyst's"]
        return self._with_facts(analysis, case, ctx)

    def _ask_for_reply(self, messages: list[dict], usage: dict[str, int]) -> tuple[LlmReply, str]:
        reply = self.chat.ask(messages, REPLY_SCHEMA, "digest_row")
        for k, v in reply.usage.items():
            usage[k] = usage.get(k, 0) + v
        return parse_reply(reply.content), reply.content

    def _grounded(self, reply: LlmReply, content: str, messages: list[dict], usage: dict[str, int],
                  case: Case) -> tuple[LlmReply, list[Claim]]:
        """The reply with every claim found in the material: as written, after one repair round, or
        with the sentences that still make unfounded claims dropped (the list is returned)."""
        sources = "\n".join(m["content"] for m in messages)
        known = frozenset([case.number] + [f.number for f in case.fix + case.pending_fix])
        creditable = frozenset(creditable_pulls(case.to_export()))
        bad = _unfounded(reply, sources, known, creditable)
        with self._lock:
            self.grounding["checked"] += 1
        if not bad:
            return reply, []
        if self.repair:
            absent = [c for c in bad if c.kind != "credit"]
            credited = [c for c in bad if c.kind == "credit"]
            said = (["These claims of your reply are not in the material: " + "; ".join(map(str, absent)) + "."]
                    if absent else []) + \
                (["These PRs are not this issue's fix (the material links them to other issues or to none): "
                  + "; ".join(map(str, credited)) + "."] if credited else [])
            ask = messages + [{"role": "assistant", "content": content}, {"role": "user", "content": (
                " ".join(said) + " Write the same JSON object again, with the values the material gives or "
                "without those claims.")}]
            try:
                repaired, _ = self._ask_for_reply(ask, usage)
                still = _unfounded(repaired, sources, known, creditable)
            except MalformedReply:
                repaired, still = reply, bad
            if not still:
                with self._lock:
                    self.grounding["repaired"] += 1
                return repaired, []
            reply, bad = repaired, still
        with self._lock:
            self.grounding["dropped"] += 1
        data = reply.model_dump()
        for name in WRITTEN_FIELDS:
            data[name] = without_claims(data.get(name, ""), bad)
        data["numbers"] = [n for n in data["numbers"] if not any(c in claims(n) for c in bad)]
        data["answer"] = without_claims(data["answer"], bad) if not data.get("mechanism") else ""
        data["problem"] = data["problem"] or reply.problem.split("，")[0] or "-"
        try:
            return LlmReply.model_validate(data), bad
        except ValidationError as exc:       # nothing founded was left to say
            raise NothingGrounded(bad) from exc

    @staticmethod
    def _with_facts(a: Analysis, case: Case, ctx: CaseContext) -> Analysis:
        """The fix and its landing are facts the pipeline proved: if the model left a fix PR out of
        the answer, state them after its text rather than publish an answer without them."""
        labels = [pr_label(f, case.repo) for f in case.fix]
        # "!4" is not named by an answer that names "!47"
        if labels and not all(re.search(re.escape(lb) + r"(?!\d)", a.answer) for lb in labels):
            zh = language_of(case, ctx)
            facts = [p for p in (fix_sentence(case, zh), close_sentence(case, zh)) if p]
            sep = "。" if zh else ". "
            a.answer = a.answer.rstrip("。. ") + sep + sep.join(facts) + ("。" if zh else ".")
            a.notes = a.notes + ["fix facts appended to the model's answer"]
        return a

    def _to_analysis(self, reply: LlmReply, usage: dict, cached: bool) -> Analysis:
        written = Written(mechanism=reply.mechanism, change=reply.fix, workaround=reply.workaround,
                          scope=reply.scope, numbers=list(reply.numbers), action=reply.first_action.strip())
        written.lang = "zh" if is_cjk(written.text()) or cjk_count(written.text()) >= 2 else "en"
        return Analysis(problem=shorten(reply.problem, 120), answer=reply.answer, theme=reply.theme, written=written,
                        symptom=shorten(reply.symptom, 80), first_action=shorten(reply.first_action, 120),
                        keep=reply.keep, drop_reason=reply.drop_reason, notes=list(reply.notes),
                        analysed_by=self.name + (" (cached)" if cached else ""), usage=usage, cached=cached)

    def edit(self, kept: list[Case], themes: dict[str, list[str]]) -> dict | None:
        """The editorial pass over the kept cases with this analyst's endpoint and cache
        (`analyse.editorial`): its record for the stage summary (None when switched off)."""
        from fixlore.analyse.editorial import LlmEditor

        if not self.editorial:
            return None
        # a client of its own: the editorial's requests and tokens are counted apart from the rows'
        return LlmEditor(ChatClient(**self._chat_settings), self.model, self.cache, price_prompt=self.price_prompt,
                         price_completion=self.price_completion).edit(kept, themes)

    def stats(self) -> dict:
        spent = self.chat.spent()
        with self._lock:
            out = {"model": self.model, "prompt_version": self.prompt.version_id, "requests": spent["requests"],
                   "cache_hits": self.cache_hits, "llm_failed": sum(self.failures.values()),
                   "grounding": {k: self.grounding.get(k, 0) for k in ("checked", "repaired", "dropped")},
                   "llm_failures": dict(self.failures),
                   "tokens": spent["tokens"], "circuit": self.chat.breaker.snapshot()}
        if self.price_prompt is not None or self.price_completion is not None:
            out["cost"] = round(out["tokens"]["prompt"] * (self.price_prompt or 0.0)
                                + out["tokens"]["completion"] * (self.price_completion or 0.0), 6)
        return out


def _unfounded(reply: LlmReply, sources: str, known: frozenset[int], creditable: frozenset[int]) -> list[Claim]:
    """Unfounded claims over every field the model wrote, each once: not in the material, or a PR
    credited as the fix that the case's links do not make its fix."""
    seen: list[Claim] = []
    for name in WRITTEN_FIELDS + ("answer",):
        text = getattr(reply, name) or ""
        for c in ungrounded(text, sources, known) + miscredited(text, creditable):
            if c not in seen:
                seen.append(c)
    for n in reply.numbers:
        for c in ungrounded(n, sources, known):
            if c not in seen:
                seen.append(c)
    return seen


def _file_summary(change, named: set[str], budget: int = 600) -> str:
    """A changed file as `path (+a -d)` and, when its patch touches what the issue names (an
    identifier or keyword of the title and body), the hunks that do, within `budget` characters."""
    head = f"{change.filename} (+{change.additions} -{change.deletions})"
    hunks = re.split(r"(?m)^(?=@@)", change.patch or "")
    relevant = [h for h in hunks if h.startswith("@@") and any(w and w in h.lower() for w in named)]
    if not relevant:
        return head
    return head + "\n" + _cut("\n".join(relevant), budget)


def _cut(text: str, limit: int) -> str:
    """`text` within `limit` characters, lines kept (patches and discussions read by line)."""
    return text if len(text) <= limit else text[: max(limit - 1, 0)].rstrip() + "…"


REPLY_SCHEMA: dict = LlmReply.model_json_schema()
