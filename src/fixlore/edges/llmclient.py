"""One client for any OpenAI-compatible chat completions endpoint (vLLM, Ollama, DeepSeek, Qwen ...),
shared by the stages that ask a model (analysis writes rows, the knowledge base checks cited
passages): retries of 429 / 5xx / timeouts with backoff (Retry-After honoured, capped), JSON
against a schema where the server accepts it (plain mode from the first refusal on), and the
requests and tokens spent, counted under a lock so workers can share it. The API key is read
from the environment variable the settings name and is never returned or logged.

Every client of one endpoint in a run shares a `fixlore.edges.circuit.Breaker` (`Circuits`): before its
first request the endpoint is asked for its model list with a short timeout (an endpoint that
refuses connections or accepts and never answers is found dead in seconds, not after one timeout
per case), retries come out of the run's retry budget, and once the breaker is open every request
raises `EndpointDown` at once, so each caller's offline fallback takes over without waiting."""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from fixlore.core.errors import ConfigError
from fixlore.edges.circuit import Breaker, Circuits

log = logging.getLogger(__name__)
PROBE_TIMEOUT = 10.0          # seconds the endpoint has to answer its first request (GET /models)


class EndpointDown(Exception):
    """The endpoint's breaker is open: not asked, the caller falls back at once."""

    def __init__(self, host: str, reason: str):
        super().__init__(f"{host} stopped answering ({reason})")
        self.host = host
        self.reason = reason


# The openai package is imported by the first client made: it is a third of the command line's
# start-up, and a run without a model endpoint never needs it. Until then no error is one of its.
def _openai():
    import openai

    return openai


def retryable(exc: BaseException) -> bool:
    openai = sys.modules.get("openai")
    if openai is None:
        return False
    if isinstance(exc, (openai.RateLimitError, openai.APITimeoutError, openai.APIConnectionError,
                        openai.InternalServerError)):
        return True
    return isinstance(exc, openai.APIStatusError) and exc.status_code >= 500


def failure_reason(exc: BaseException) -> str:
    """A short, secret-free reason for summaries and `analysed_by`."""
    if isinstance(exc, EndpointDown):
        return f"endpoint down: {exc.reason}"
    openai = sys.modules.get("openai")
    if openai is None:
        return type(exc).__name__
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
                 json_mode: bool = True, temperature: float = 0.0, breaker: Breaker | None = None,
                 probe_timeout: float = PROBE_TIMEOUT):
        if not base_url or not model:
            raise ConfigError("a model endpoint needs --llm-base-url and --llm-model")
        self.host = endpoint_host(base_url)
        self.breaker = breaker or Breaker(self.host)
        self.probe_timeout = min(probe_timeout, timeout)
        key = api_key if api_key is not None else os.environ.get(key_env, "")
        # local servers (vLLM, Ollama) accept any key; the client insists on a non-empty one
        self._client = _openai().OpenAI(base_url=base_url, api_key=key or "unused", timeout=timeout, max_retries=0)
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
        openai = _openai()
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

    def _wait(self, exc: BaseException, attempt: int) -> float:
        resp = getattr(exc, "response", None)
        after = resp.headers.get("retry-after") if resp is not None else None
        if after:
            try:
                return min(float(after), self.backoff_max)
            except ValueError:
                pass
        return min(self.backoff_base * (2 ** (attempt - 1)), self.backoff_max)

    def _probe(self) -> None:
        """Once per endpoint and run, before its first request: does anything answer HTTP there?
        Any status will do (a server without /models answers 404); silence or a refused
        connection opens the breaker."""
        openai = _openai()
        with self.breaker.probe_lock:
            if self.breaker.probed:
                return
            self.breaker.probed = True
            try:
                self._client.with_options(timeout=self.probe_timeout, max_retries=0).models.list()
            except openai.APITimeoutError:
                self._down(self.breaker.trip(f"no answer to GET /models within {self.probe_timeout:g} s"))
            except openai.APIConnectionError:
                self._down(self.breaker.trip("connection refused or host unreachable"))
            except openai.APIError:
                pass

    def _down(self, opened: bool) -> None:
        if opened and self.breaker.announce():
            log.warning("model endpoint %s stopped answering (%s): not asked again this run; what it was to write "
                        "falls back to the offline rules and the digest says so", self.host, self.breaker.reason)

    def _ask_once(self, messages: list[dict], json_mode: bool, schema: dict | None, schema_name: str):
        openai = _openai()
        kwargs: dict[str, Any] = {"model": self.model, "messages": messages, "temperature": self.temperature}
        if json_mode and schema is not None:
            kwargs["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": schema_name, "schema": schema, "strict": False}}
        self._probe()
        key = str(hash(str(messages[-1].get("content", ""))) if messages else 0)
        attempt = 0
        while True:
            attempt += 1
            reason = self.breaker.refuse()
            if reason:
                raise EndpointDown(self.host, reason)
            with self._lock:
                self.requests += 1
            started = time.monotonic()
            try:
                resp = self._client.chat.completions.create(**kwargs)
            except Exception as exc:
                if not retryable(exc):
                    if isinstance(exc, openai.APIStatusError):
                        self.breaker.answered()       # a refusal (400, 401) is an answer: alive
                    raise
                limited = isinstance(exc, openai.RateLimitError)
                if limited:
                    self.breaker.answered()
                elif self.breaker.failed(key, time.monotonic() - started):
                    self._down(True)
                    raise EndpointDown(self.host, self.breaker.reason) from exc
                delay = self._wait(exc, attempt)
                if attempt >= self.attempts or (not limited and self.breaker.may_retry(delay)):
                    raise
                time.sleep(delay)
                continue
            self.breaker.succeeded()
            return resp

    def spent(self) -> dict[str, Any]:
        with self._lock:
            return {"requests": self.requests, "tokens": {"prompt": self.tokens.get("prompt_tokens", 0),
                                                          "completion": self.tokens.get("completion_tokens", 0)}}


def endpoint_setting(settings: Any, name: str) -> str:
    """A model setting by name (llm_base_url, llm_model, llm_key_env, llm_cache), else the environment
    variable FIXLORE_<NAME> (names and URLs only: a key is read from the variable llm_key_env names)."""
    return str(getattr(settings, name, "") or os.environ.get(f"FIXLORE_{name.upper()}", "") or "")


def endpoint_host(base_url: str) -> str:
    """host:port of an endpoint URL, never its user:password@ (it names the endpoint in messages)."""
    parts = urlsplit(base_url)
    return parts.netloc.rsplit("@", 1)[-1] or base_url


def client_from(settings: Any, circuits: Circuits | None = None, **kw: Any) -> ChatClient | None:
    """The run's model endpoint when one is named (llm_base_url + llm_model), else None; with the
    run's ``circuits`` it shares the endpoint's breaker with every other client of the run."""
    base_url, model = endpoint_setting(settings, "llm_base_url"), endpoint_setting(settings, "llm_model")
    if not (base_url and model):
        return None
    breaker = circuits.get(endpoint_host(base_url)) if circuits is not None else None
    return ChatClient(base_url=base_url, model=model, breaker=breaker,
                      key_env=endpoint_setting(settings, "llm_key_env") or "OPENAI_API_KEY", **kw)
