"""A loopback server speaking the OpenAI chat completions API, with scripted replies: the stand-in
for a model endpoint that the LLM path's tests and `bench/rows.py --llm-script` talk to. It is not
a model; it answers what it is told to, so it measures the plumbing around one.

    with FakeOpenAI(script={"#101": [Status(429), Ok()]}) as fake:
        client = openai.OpenAI(base_url=fake.base_url, api_key="k")

`script` maps a marker (any substring of the request's user message, e.g. a case key) to the
actions answering successive requests that contain it; the last action repeats. Requests that
match nothing get `default(user_message)` when given (an action, e.g. `Ok(content=...)`), else a
valid analysis reply built from the request. Loopback only: it binds 127.0.0.1."""

from __future__ import annotations

import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Ok:
    content: dict | None = None          # None: a valid reply derived from the request
    prompt_tokens: int = 120
    completion_tokens: int = 40


@dataclass
class Status:
    code: int
    headers: dict[str, str] = field(default_factory=dict)
    message: str = ""                     # the error message (default: "scripted <code>")


@dataclass
class Sleep:
    seconds: float                        # longer than the client's timeout -> a timeout


@dataclass
class Raw:
    content: str                          # sent as the message content as is (malformed JSON, prose ...)


def default_reply(user_message: str) -> dict:
    m = re.search(r"^ISSUE (\S+)\ntitle: (.*)$", user_message, re.M)
    key, title = (m.group(1), m.group(2)) if m else ("?", "?")
    return {"problem": f"[llm] {title}", "answer": f"[llm] 根因与修复（{key}）。", "theme": "llm-theme",
            "symptom": f"[llm] {title[:30]}", "first_action": "[llm] 升级到含修复的版本", "keep": True,
            "drop_reason": "", "notes": ["llm reply"]}


class FakeOpenAI:
    def __init__(self, script: dict[str, list[Any]] | None = None, default: Callable[[str], Any] | None = None):
        self.script = {k: list(v) for k, v in (script or {}).items()}
        self.default = default
        self.requests: list[dict] = []        # {"path", "auth", "body"}
        self._lock = threading.Lock()
        self._seen: dict[str, int] = {}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):      # keep test output clean
                pass

            def do_POST(self):                 # noqa: N802 - http.server naming
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake._lock:
                    fake.requests.append({"path": self.path, "auth": self.headers.get("authorization", ""),
                                          "body": body})
                if not self.path.endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": "not found"}})
                user = next((m["content"] for m in body.get("messages", []) if m.get("role") == "user"), "")
                action = fake._action_for(user)
                try:
                    fake._perform(self, action, body, user)
                except (BrokenPipeError, ConnectionResetError):
                    pass                       # the client gave up (timeout): nothing to answer

            def _send(self, code: int, payload: Any, headers: dict[str, str] | None = None):
                data = json.dumps(payload).encode("utf-8")
                self.send_response(code)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        self._handler = Handler
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    # -- scripting --------------------------------------------------------------------------
    def _action_for(self, user: str) -> Any:
        with self._lock:
            for marker, actions in self.script.items():
                if marker in user:
                    i = self._seen.get(marker, 0)
                    self._seen[marker] = i + 1
                    return actions[min(i, len(actions) - 1)]
        return self.default(user) if self.default else Ok()

    def _perform(self, h, action: Any, body: dict, user: str) -> None:
        if isinstance(action, Sleep):
            time.sleep(action.seconds)
            action = Ok()
        if isinstance(action, Status):
            return h._send(action.code, {"error": {"message": action.message or f"scripted {action.code}", "type": "scripted"}},
                           action.headers)
        if isinstance(action, Raw):
            content, usage = action.content, (10, 5)
        else:
            content = json.dumps(action.content or default_reply(user), ensure_ascii=False)
            usage = (action.prompt_tokens, action.completion_tokens)
        h._send(200, {
            "id": "chatcmpl-fake", "object": "chat.completion", "created": 1_790_000_000,
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)},
        })

    def count(self, marker: str) -> int:
        with self._lock:
            return sum(1 for r in self.requests
                       if any(marker in m.get("content", "") for m in r["body"].get("messages", [])))

    # -- lifecycle --------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
