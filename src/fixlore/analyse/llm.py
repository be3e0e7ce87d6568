"""The LLM analyst: any OpenAI-compatible chat completions endpoint (vLLM, Ollama, DeepSeek, Qwen ...).

Per case: build the prompt from the versioned prompt file, look the input hash up in the cache,
else ask the endpoint (retrying 429 / 5xx / timeouts with backoff), validate the JSON reply,
and record tokens (and cost). When a case still fails (a 429 storm, a timeout, a malformed
reply) that case falls back to the offline analyst and says so in `analysed_by`."""

from __future__ import annotations

import json
import os
import re
import threading
from collections import Counter
from typing import Any

import openai
from pydantic import BaseModel, ValidationError, field_validator, model_validator
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from fixlore.analyse.base import Analysis
from fixlore.analyse.cache import AnswerCache, input_key
from fixlore.analyse.context import CaseContext
from fixlore.analyse.facts import close_sentence, fix_sentence, kb_sentence, pr_label
from fixlore.analyse.offline import OfflineAnalyst
from fixlore.analyse.promptfile import load_prompt
from fixlore.analyse.text import clean_body, shorten
from fixlore.analyse.verdict import language_of
from fixlore.errors import ConfigError
from fixlore.model import DROP_REASONS, Case


class LlmReply(BaseModel):
    problem: str
    answer: str
    theme: str = ""
    symptom: str = ""
    first_action: str = ""
    keep: bool
    drop_reason: str = ""
    notes: list[str] = []

    @field_validator("problem", "answer")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v or not v.strip():
            raise ValueError("must not be empty")
        return v.strip()

    @field_validator("notes", mode="before")
    @classmethod
    def _notes_list(cls, v: Any) -> list[str]:
        if isinstance(v, str):
            return [v]
        return [str(x) for x in (v or [])]

    @model_validator(mode="after")
    def _reason(self) -> "LlmReply":
        if self.keep:
            self.drop_reason = ""
        elif self.drop_reason not in DROP_REASONS:
            raise ValueError(f"drop_reason {self.drop_reason!r} is not in the vocabulary")
        return self


class MalformedReply(Exception):
    pass


def _retryable(exc: BaseException) -> bool:
    if isinstance(exc, (openai.RateLimitError, openai.APITimeoutError, openai.APIConnectionError,
                        openai.InternalServerError)):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


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


def failure_reason(exc: BaseException) -> str:
    """A short, secret-free reason for the run summary and `analysed_by`."""
    if isinstance(exc, openai.RateLimitError):
        return "429 rate limited"
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection error"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}"
    if isinstance(exc, MalformedReply):
        return f"malformed reply: {exc}"
    return type(exc).__name__


class LlmAnalyst:
    def __init__(self, *, base_url: str, model: str, api_key: str | None = None,
                 key_env: str = "OPENAI_API_KEY", prompt: str = "analyse_case.v1",
                 cache_path: str | None = None, timeout: float = 60.0, attempts: int = 4,
                 backoff_base: float = 1.0, backoff_max: float = 30.0,
                 price_prompt: float | None = None, price_completion: float | None = None,
                 json_mode: bool = True, temperature: float = 0.0, fallback: OfflineAnalyst | None = None,
                 max_body_chars: int = 4000):
        if not base_url or not model:
            raise ConfigError("the llm backend needs --llm-base-url and --llm-model")
        key = api_key if api_key is not None else os.environ.get(key_env, "")
        # local servers (vLLM, Ollama) accept any key; the client insists on a non-empty one
        self._client = openai.OpenAI(base_url=base_url, api_key=key or "unused", timeout=timeout, max_retries=0)
        self.model = model
        self.name = f"llm:{model}"
        self.prompt = load_prompt(prompt)
        self.cache = AnswerCache(cache_path)
        self.attempts = max(1, attempts)
        self.backoff_base, self.backoff_max = backoff_base, backoff_max
        self.price_prompt, self.price_completion = price_prompt, price_completion
        self.json_mode, self.temperature = json_mode, temperature
        self.fallback = fallback or OfflineAnalyst()
        self.max_body_chars = max_body_chars
        self._lock = threading.Lock()
        self.requests = 0
        self.cache_hits = 0
        self.failures: Counter = Counter()
        self.tokens = Counter()

    # -- building the request -------------------------------------------------------------
    def messages(self, case: Case, ctx: CaseContext) -> list[dict]:
        zh = language_of(case, ctx)
        facts = {
            "fix": fix_sentence(case, zh), "close": close_sentence(case, zh), "kb": kb_sentence(case, zh),
            "timing": case.timing, "lag_s": case.lag_s, "traps": case.traps, "trap_notes": case.trap_notes,
            "evidence": [f"{e.kind}: {e.detail}" for e in case.evidence],
            "fix_prs": [{"number": f.number, "repo": f.repo, "role": f.role, "state": f.state,
                         "merged_at": f.merged_at.isoformat() if f.merged_at else ""} for f in case.fix],
        }
        disc = []
        for c in ctx.discussion():
            who = f"{c.author}, reporter" if c.author == ctx.author else c.author
            disc.append(f"[{who}] {shorten(clean_body(c.body), 800)}")
        pulls = []
        for p in ctx.pulls:
            pulls.append(f"#{p.number} [{p.state}] {p.title}\n{shorten(clean_body(p.body), 1500)}")
        user = self.prompt.render(
            facts=json.dumps(facts, ensure_ascii=False, indent=1), key=case.key,
            title=case.title or (ctx.issue.title if ctx.issue else ""),
            body=shorten(clean_body(ctx.body), self.max_body_chars),
            discussion="\n".join(disc) or "(none)", pulls="\n\n".join(pulls) or "(none)")
        return [{"role": "system", "content": self.prompt.system}, {"role": "user", "content": user}]

    def _wait(self, state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome else None
        resp = getattr(exc, "response", None)
        after = resp.headers.get("retry-after") if resp is not None else None
        if after:
            try:
                return min(float(after), self.backoff_max)
            except ValueError:
                pass
        return min(self.backoff_base * (2 ** (state.attempt_number - 1)), self.backoff_max)

    def _ask(self, messages: list[dict]):
        try:
            return self._ask_once(messages, self.json_mode)
        except openai.BadRequestError as exc:
            if not self.json_mode or "response_format" not in str(exc):
                raise
            # some OpenAI-compatible servers refuse response_format: ask in plain mode from now on
            with self._lock:
                self.json_mode = False
            return self._ask_once(messages, False)

    def _ask_once(self, messages: list[dict], json_mode: bool):
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": self.temperature}
        if json_mode:
            kwargs["response_format"] = {"type": "json_object"}
        for attempt in Retrying(retry=retry_if_exception(_retryable), stop=stop_after_attempt(self.attempts),
                                wait=self._wait, reraise=True):
            with attempt:
                with self._lock:
                    self.requests += 1
                return self._client.chat.completions.create(**kwargs)

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
            resp = self._ask(messages)
            if getattr(resp, "usage", None) is not None:     # a malformed reply still cost its tokens
                usage = {"prompt_tokens": int(resp.usage.prompt_tokens or 0),
                         "completion_tokens": int(resp.usage.completion_tokens or 0)}
                with self._lock:
                    self.tokens.update(usage)
            reply = parse_reply(resp.choices[0].message.content if resp.choices else None)
        except Exception as exc:  # noqa: BLE001 - every failure of one case falls back for that case
            reason = failure_reason(exc)
            with self._lock:
                self.failures[reason.split(":")[0]] += 1
            fb = self.fallback.analyse(case, ctx)
            fb.analysed_by = f"{self.fallback.name} (llm failed: {reason})"
            fb.notes = fb.notes + [f"llm failed: {reason}"]
            return fb
        self.cache.put(key, self.prompt.version_id, self.model, reply.model_dump(), usage)
        return self._with_facts(self._to_analysis(reply, usage, cached=False), case, ctx)

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
        return Analysis(problem=shorten(reply.problem, 120), answer=reply.answer, theme=reply.theme,
                        symptom=shorten(reply.symptom, 80), first_action=shorten(reply.first_action, 120),
                        keep=reply.keep, drop_reason=reply.drop_reason, notes=list(reply.notes),
                        analysed_by=self.name + (" (cached)" if cached else ""), usage=usage, cached=cached)

    def stats(self) -> dict:
        with self._lock:
            out = {"model": self.model, "prompt_version": self.prompt.version_id, "requests": self.requests,
                   "cache_hits": self.cache_hits, "llm_failed": sum(self.failures.values()),
                   "llm_failures": dict(self.failures),
                   "tokens": {"prompt": self.tokens.get("prompt_tokens", 0),
                              "completion": self.tokens.get("completion_tokens", 0)}}
        if self.price_prompt is not None or self.price_completion is not None:
            out["cost"] = round(out["tokens"]["prompt"] * (self.price_prompt or 0.0)
                                + out["tokens"]["completion"] * (self.price_completion or 0.0), 6)
        return out
