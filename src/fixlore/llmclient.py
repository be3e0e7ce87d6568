"""One client for any OpenAI-compatible chat completions endpoint (vLLM, Ollama, DeepSeek, Qwen ...),
shared by the stages that ask a model (analysis writes rows, the knowledge base checks cited
passages): retries of 429 / 5xx / timeouts with backoff (Retry-After honoured, capped), JSON
against a schema where the server accepts it (plain mode from the first refusal on), and the
requests and tokens spent, counted under a lock so workers can share it. The API key is read
from the environment variable the settings name and is never returned or logged."""

from __future__ import annotations

import os
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import openai
from tenacity import RetryCallState, Retrying, retry_if_exception, stop_after_attempt

from fixlore.errors import ConfigError


def retryable(exc: BaseException) -> bool:
    if isinstance(exc, (openai.RateLimitError, openai.APITimeoutError, openai.APIConnectionError,
                        openai.InternalServerError)):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def failure_reason(exc: BaseException) -> str:
    """A short, secret-free reason for summaries and `analysed_by`."""
    if isinstance(exc, openai.RateLimitError):
        return "429 rate limited"
    if isinstance(exc, openai.APITimeoutError):
        return "timeout"
    if isinstance(exc, openai.APIConnectionError):
        return "connection error"
    if isinstance(exc, openai.APIStatusError):
        return f"HTTP {exc.status_code}"
    return type(exc).__name__


@dataclass
class ChatReply:
    content: str
    usage: dict[str, int] = field(default_factory=dict)   # prompt_tokens, completion_tokens


class ChatClient:
    def __init__(self, *, base_url: str, model: str, api_key: str | None = None, key_env: str = "OPENAI_API_KEY",
                 timeout: float = 60.0, attempts: int = 4, backoff_base: float = 1.0, backoff_max: float = 30.0,
                 json_mode: bool = True, temperature: float = 0.0):
        if not base_url or not model:
            raise ConfigError("a model endpoint needs --llm-base-url and --llm-model")
        key = api_key if api_key is not None else os.environ.get(key_env, "")
        # local servers (vLLM, Ollama) accept any key; the client insists on a non-empty one
        self._client = openai.OpenAI(base_url=base_url, api_key=key or "unused", timeout=timeout, max_retries=0)
        self.model = model
        self.attempts = max(1, attempts)
        self.backoff_base, self.backoff_max = backoff_base, backoff_max
        self.json_mode, self.temperature = json_mode, temperature
        self._lock = threading.Lock()
        self.requests = 0
        self.tokens: Counter = Counter()

    def ask(self, messages: list[dict], schema: dict | None = None, schema_name: str = "reply") -> ChatReply:
        """The model's reply to `messages`; with `schema`, JSON against it is asked for. Raises the
        client's error when the attempts run out (the caller decides what falls back)."""
        try:
            resp = self._ask_once(messages, self.json_mode, schema, schema_name)
        except openai.BadRequestError as exc:
            if not self.json_mode or "response_format" not in str(exc):
                raise
            # some OpenAI-compatible servers refuse response_format: ask in plain mode from now on
            with self._lock:
                self.json_mode = False
            resp = self._ask_once(messages, False, schema, schema_name)
        usage: dict[str, int] = {}
        if getattr(resp, "usage", None) is not None:     # a malformed reply still cost its tokens
            usage = {"prompt_tokens": int(resp.usage.prompt_tokens or 0),
                     "completion_tokens": int(resp.usage.completion_tokens or 0)}
            with self._lock:
                self.tokens.update(usage)
        content = resp.choices[0].message.content if resp.choices else None
        return ChatReply(content or "", usage)

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

    def _ask_once(self, messages: list[dict], json_mode: bool, schema: dict | None, schema_name: str):
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": self.temperature}
        if json_mode and schema is not None:
            kwargs["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": schema_name, "schema": schema, "strict": False}}
        for attempt in Retrying(retry=retry_if_exception(retryable), stop=stop_after_attempt(self.attempts),
                                wait=self._wait, reraise=True):
            with attempt:
                with self._lock:
                    self.requests += 1
                return self._client.chat.completions.create(**kwargs)

    def spent(self) -> dict[str, Any]:
        with self._lock:
            return {"requests": self.requests, "tokens": {"prompt": self.tokens.get("prompt_tokens", 0),
                                                          "completion": self.tokens.get("completion_tokens", 0)}}


def endpoint_setting(settings: Any, name: str) -> str:
    """A model setting by name (llm_base_url, llm_model, llm_key_env, llm_cache), else the environment
    variable FIXLORE_<NAME> (names and URLs only: a key is read from the variable llm_key_env names)."""
    return str(getattr(settings, name, "") or os.environ.get(f"FIXLORE_{name.upper()}", "") or "")


def client_from(settings: Any, **kw: Any) -> ChatClient | None:
    """The run's model endpoint when one is named (llm_base_url + llm_model), else None."""
    base_url, model = endpoint_setting(settings, "llm_base_url"), endpoint_setting(settings, "llm_model")
    if not (base_url and model):
        return None
    return ChatClient(base_url=base_url, model=model,
                      key_env=endpoint_setting(settings, "llm_key_env") or "OPENAI_API_KEY", **kw)
