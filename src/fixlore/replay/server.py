"""Serve a world on loopback through the platform's real REST endpoints.

The stdlib ``ThreadingHTTPServer`` is used on purpose: faults need byte-level control
(a body cut off after its headers promised more, a response held past the client's
timeout), which frameworks hide.

Per request: route -> token check (401) -> rate limit (429 / GitHub 403) -> compute the
answer from the world -> maybe inject a fault -> ETag / If-None-Match -> count -> send.

It is over 400 lines because the request handler, the routing and the fault injection share
the server's state per request; splitting them is still to do.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import threading
import time
from collections import Counter
from datetime import datetime
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable
from urllib.parse import parse_qsl, urlsplit

from fixlore.replay import api_gitcode, api_github, github_graphql, moved
from fixlore.replay.asof import open_world
from fixlore.replay.faults import FaultPlan, FaultSpec
from fixlore.replay.limits import gitcode_limiter, github_graphql_limiter, github_limiter
from fixlore.replay.listing import Answer, Query
from fixlore.replay.strict import Quirks

ADMIN_STATS = "/__replay__/stats"
GRAPHQL_PATHS = ("/graphql", "/api/graphql")
_STATUS_FAULTS = {"429", "429-retry-after", "500", "502", "503", "202", "404", "451", "deleted"}
_SECRET_PARAMS = {"access_token"}
_SAFE_HOST = re.compile(r"[A-Za-z0-9.\-]+(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?")


def _compile(template: str) -> re.Pattern:
    pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
    return re.compile(f"^{pattern}$")


class _Router:
    def __init__(self, routes: list[tuple[str, Callable[..., Answer]]]) -> None:
        self.routes = [(t, _compile(t), h) for t, h in routes]

    def match(self, path: str) -> tuple[str, Callable[..., Answer], dict[str, str]] | None:
        for template, rx, handler in self.routes:
            m = rx.match(path)
            if m:
                return template, handler, m.groupdict()
        return None


_ROUTERS = {"gitcode": _Router(api_gitcode.ROUTES), "github": _Router(api_github.ROUTES)}


class ReplayServer:
    """A world served over HTTP on loopback, in a background thread.

    >>> with ReplayServer("worlds/demo") as srv:
    ...     httpx2.get(srv.base_url + "/repos/demo-ai/modelkit/issues")

    ``rate_limit`` enforces the platform's limits (time compressed by ``time_scale``);
    ``faults`` is a spec such as ``"500:0.02,cutoff@3"`` (see ``faults.py``), reproducible
    through ``fault_seed``; ``token`` makes every request without that token a 401. ``strict``
    plays the platform's documented and observed quirks (``True`` for the platform's named set,
    a set name such as ``"gitcode-no-totals"``, or a comma list of quirk names; see ``strict.py``).
    ``clock_skew`` sets the server's clock that many seconds off real time (negative: behind), in its
    ``Date`` header and the moments its rate limits name (``X-RateLimit-Reset``): a client whose clock
    runs ahead of the platform's, as a laptop's or a CI runner's may. Off (0) by default.
    """

    def __init__(self, world_path: str | Path, port: int = 0, host: str = "127.0.0.1", rate_limit: bool = False,
                 time_scale: float = 1.0, faults: str | FaultSpec | None = None, fault_seed: int = 0,
                 token: str | None = None, stall_seconds: float = 10.0, as_of: datetime | None = None,
                 strict: "bool | str | Quirks | None" = None, clock_skew: float = 0.0) -> None:
        if time_scale <= 0:
            raise ValueError("time_scale must be positive")
        self.world_path = Path(world_path)
        self.as_of = as_of                    # serve the world as it stood then (fixlore.replay.asof)
        self.world = open_world(self.world_path, as_of)
        self.platform = self.world.platform
        self._repo_ids = moved.RepoIds(self.world)      # the moved_repos quirk's ids, read once
        self.host = host
        self.port = port
        self.rate_limit = rate_limit
        self.time_scale = time_scale
        self.stall_seconds = stall_seconds
        self._token = token
        self._faults = FaultPlan(faults, fault_seed)
        self.quirks = Quirks.of(strict, self.platform)
        self._gitcode_limit = gitcode_limiter(time_scale)
        self.clock_skew = clock_skew
        self._github_limit = github_limiter(time_scale, self.now)
        self._graphql_limit = github_graphql_limiter(self.quirks.graphql_points, time_scale, self.now)
        self._stats_lock = threading.Lock()
        self._total = 0
        self._ordinal = 0
        self._by_endpoint: Counter[str] = Counter()
        self._by_status: Counter[str] = Counter()
        self._faults_injected: Counter[str] = Counter()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---------- lifecycle ----------

    def start(self) -> "ReplayServer":
        if self._httpd is not None:
            return self
        self._stopping.clear()
        httpd = ThreadingHTTPServer((self.host, self.port), _make_handler(self))
        httpd.daemon_threads = True
        httpd.block_on_close = False  # a stalled handler must not hold up stop()
        self._httpd = httpd
        self.port = httpd.server_address[1]
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name=f"replay:{self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> "ReplayServer":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def now(self) -> float:
        """The server's clock (epoch seconds): real time, ``clock_skew`` off when asked."""
        return time.time() + self.clock_skew

    @property
    def base_url(self) -> str:
        prefix = api_gitcode.PREFIX if self.platform == "gitcode" else api_github.PREFIX
        return f"http://{self.host}:{self.port}{prefix}"

    def reload(self) -> None:
        """Re-read the world from disk (a test changed it and wants to harvest again)."""
        self.world = open_world(self.world_path, self.as_of)
        self.platform = self.world.platform
        self._repo_ids = moved.RepoIds(self.world)

    # ---------- stats ----------

    def stats(self) -> dict[str, Any]:
        with self._stats_lock:
            return {
                "total": self._total,
                "by_endpoint": dict(sorted(self._by_endpoint.items())),
                "by_status": dict(sorted(self._by_status.items())),
                "faults_injected": dict(sorted(self._faults_injected.items())),
            }

    def reset_stats(self) -> None:
        """Zero the counters, the fault streaks and the rate-limit windows."""
        with self._stats_lock:
            self._total = 0
            self._ordinal = 0
            self._by_endpoint.clear()
            self._by_status.clear()
            self._faults_injected.clear()
        self._faults.reset()
        self.quirks.reset()
        self._gitcode_limit.reset()
        self._github_limit.reset()
        self._graphql_limit.reset()

    def _next_ordinal(self) -> int:
        with self._stats_lock:
            self._ordinal += 1
            return self._ordinal

    def _count(self, endpoint: str, status: int, fault: str | None) -> None:
        with self._stats_lock:
            self._total += 1
            self._by_endpoint[endpoint] += 1
            self._by_status[str(status)] += 1
            if fault:
                self._faults_injected[fault] += 1

    # ---------- request handling (called from handler threads) ----------

    def _authorised(self, headers: Any, query: dict[str, str]) -> bool:
        if self._token is None:
            return True
        offered: list[str] = []
        auth = headers.get("Authorization") or ""
        scheme, _, value = auth.partition(" ")
        if scheme.lower() == "bearer" or (scheme.lower() == "token" and self.platform == "github"):
            offered.append(value.strip())
        if self.platform == "gitcode":
            if headers.get("PRIVATE-TOKEN"):
                offered.append(headers.get("PRIVATE-TOKEN").strip())
            if query.get("access_token"):
                offered.append(query["access_token"])
        expected = self._token.encode()
        return any(hmac.compare_digest(o.encode(), expected) for o in offered if o)

    def _platform_error(self, kind: str) -> Answer:
        if kind == "401":
            body = api_gitcode.UNAUTHORIZED_BODY if self.platform == "gitcode" else api_github.UNAUTHORIZED_BODY
            return Answer(401, body)
        if kind in ("429", "429-retry-after"):
            body = api_gitcode.RATE_LIMITED_BODY if self.platform == "gitcode" else api_github.SECONDARY_LIMIT_BODY
            headers = {"Retry-After": "1"} if kind == "429-retry-after" else {}
            return Answer(429, body, headers)
        if kind == "500":
            return Answer(500, {"message": "500 Internal Server Error"})
        if kind == "404" or (kind == "deleted" and self.platform == "gitcode"):
            return api_gitcode.not_found() if self.platform == "gitcode" else api_github.not_found()
        if kind == "deleted":
            return Answer(410, api_github.ISSUE_DELETED_BODY)
        if kind == "202":
            return Answer(202, {})           # as GitHub's statistics answer while they compute
        if kind == "451":
            return Answer(451, api_github.DMCA_BODY) if self.platform == "github" else api_gitcode.blocked()
        # Gateways answer 502/503 with an HTML page, not JSON.
        text = {"502": "502 Bad Gateway", "503": "503 Service Temporarily Unavailable"}[kind]
        return Answer(int(kind), f"<html><head><title>{text}</title></head><body><center><h1>{text}</h1></center></body></html>")

    def handle(self, path: str, raw_query: str, headers: Any, self_url: str) -> "_Reply":
        """Compute the reply to GET path?query (the handler counts it just before sending)."""
        query = dict(parse_qsl(raw_query, keep_blank_values=True))
        prefix = api_gitcode.PREFIX if self.platform == "gitcode" else api_github.PREFIX
        ordinal = self._next_ordinal()
        routed = None
        path = _without_enterprise_prefix(self.platform, path)
        if path.startswith(prefix):
            inner = path[len(prefix):] or "/"
            if self.quirks.on("moved_repos"):
                new = self._repo_ids.new_address(inner)
                if new is not None:
                    location = self_url[: len(self_url) - len(inner)] + new + (f"?{raw_query}" if raw_query else "")
                    return _Reply("GET (moved)", moved.moved(location), extra=self._rate_headers())
                inner = self._repo_ids.by_name(inner) or inner
            routed = _ROUTERS[self.platform].match(inner)
        if routed is None:
            endpoint = "GET (unmatched)"
            answer = api_gitcode.not_found() if self.platform == "gitcode" else api_github.not_found()
            return _Reply(endpoint, answer, extra=self._rate_headers())
        template, handler, params = routed
        endpoint = f"GET {template}"

        if not self._authorised(headers, query):
            return _Reply(endpoint, self._platform_error("401"), extra=self._rate_headers())
        if self.platform == "github" and template == api_github.RATE_LIMIT_ROUTE:
            # Asking how much quota is left costs none of it.
            return _Reply(endpoint, api_github.rate_limit_answer(self._github_limit.headers()),
                          extra=self._rate_headers())

        if self.rate_limit:
            if self.platform == "gitcode" and not self._gitcode_limit.admit():
                return _Reply(endpoint, Answer(429, api_gitcode.RATE_LIMITED_BODY))
            if self.platform == "github" and not self._github_limit.take():
                return _Reply(endpoint, Answer(403, api_github.PRIMARY_LIMIT_BODY), extra=self._rate_headers())
        elif self.platform == "github":
            self._github_limit.take()  # headers still tell the truth about usage

        world = self.world
        values = {k: v for k, v in query.items() if k not in _SECRET_PARAMS}
        quirks = self.quirks
        if quirks:
            refused = quirks.refuse(self.platform, template, params, world, ordinal=ordinal,
                                    time_scale=self.time_scale)
            if refused is not None:
                return _Reply(endpoint, refused, extra=self._rate_headers())
            values = quirks.rewrite_query(self.platform, template, values)
            world = quirks.view(self.platform, world)
        q = Query(values)
        instead = quirks.answer_instead(self.platform, template, params, values, world) if quirks else None
        if instead is not None:
            answer = instead
        elif self.platform == "github":
            answer = handler(world, q, self_url, **params)
        else:
            answer = handler(world, q, **params)
        if quirks:
            answer = quirks.reshape(self.platform, template, answer,
                                    f"{path}?{'&'.join(f'{k}={v}' for k, v in sorted(values.items()))}")

        applicable = set(_STATUS_FAULTS) | {"stall"}
        if answer.status == 200:
            applicable |= {"cutoff", "malformed"}
            if answer.page_of is not None and (answer.page or 1) > 1:
                applicable.add("repeat-page")
            if answer.page_of is not None and isinstance(answer.body, list) and answer.body and _says_more(answer):
                applicable.add("empty-page")
        url_key = f"{path}?{'&'.join(f'{k}={v}' for k, v in sorted(q.values.items()))}"
        fault = self._faults.choose(ordinal, url_key, applicable) if not self._faults.spec.empty else None

        if fault in _STATUS_FAULTS:
            return _Reply(endpoint, self._platform_error(fault), fault=fault, extra=self._rate_headers())
        if fault == "repeat-page":
            answer = Answer(answer.status, answer.page_of(answer.page - 1), answer.headers, answer.page, answer.page_of)
        elif fault == "empty-page":
            answer = Answer(answer.status, [], answer.headers, answer.page, answer.page_of)
        reply = _Reply(endpoint, answer, fault=fault, extra=self._rate_headers())
        inm = headers.get("If-None-Match")
        if answer.status == 200 and inm and fault is None and _etag_matches(inm, reply.etag):
            if self.platform == "github" and headers.get("Authorization"):
                self._github_limit.give_back()  # GitHub does not charge an authorised 304
            reply.not_modified = True
            reply.extra = self._rate_headers()
        return reply

    def handle_graphql(self, path: str, body: bytes, headers: Any) -> "_Reply":
        """POST /graphql (and GitHub Enterprise's /api/graphql): the closing-references query only."""
        endpoint = "POST /graphql"
        if self.platform != "github" or path not in GRAPHQL_PATHS:
            return _Reply("POST (unsupported)", Answer(404, {"message": "Not Found"}))
        if not self._authorised(headers, {}) or not (headers.get("Authorization") or "").strip():
            # GitHub's GraphQL API answers nobody without a token.
            return _Reply(endpoint, self._platform_error("401"), extra=self._rate_headers())
        fault = self.quirks.graphql_fault(self.platform, body) if self.quirks else None
        if fault is not None:
            return _Reply(endpoint, fault, extra=self._rate_headers())
        if self.quirks.on("graphql_budget"):
            # its own budget, named in its headers; spent, a 200 that says so (GitHub's GraphQL rate limit)
            spent = not self._graphql_limit.take()
            limited = Answer(200, {"errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded"}]})
            return _Reply(endpoint, limited if spent else github_graphql.answer(self.world, _json_or_none(body)),
                          extra=self._graphql_limit.headers())
        answer = github_graphql.answer(self.world, _json_or_none(body))
        if self.quirks:
            answer = self.quirks.graphql_partial(self.platform, body, answer)
        return _Reply(endpoint, answer, extra=self._rate_headers())

    def _rate_headers(self) -> dict[str, str]:
        return self._github_limit.headers() if self.platform == "github" else {}


def _json_or_none(body: bytes) -> Any:
    try:
        return json.loads(body.decode("utf-8") or "null")
    except (UnicodeDecodeError, json.JSONDecodeError):
        return None


def _says_more(answer: Answer) -> bool:
    """Does this list page say the list goes on (GitCode's totals, GitHub's ``rel="next"``)? Only such a
    page is emptied by the ``empty-page`` fault: an empty last page that says nothing of what follows
    cannot be told from the end by any client."""
    headers = {k.lower(): v for k, v in answer.headers.items()}
    return "total_count" in headers or "total_page" in headers or 'rel="next"' in headers.get("link", "")


def _without_enterprise_prefix(platform: str, path: str) -> str:
    """GitHub Enterprise clients put /api/v3 before every path; the replay answers both forms."""
    pre = api_github.ENTERPRISE_PREFIX
    if platform == "github" and (path == pre or path.startswith(pre + "/")):
        return path[len(pre):] or "/"
    return path


def _etag_matches(if_none_match: str, etag: str) -> bool:
    if if_none_match.strip() == "*":
        return True
    wanted = {t.strip().removeprefix("W/") for t in if_none_match.split(",")}
    return etag in wanted


class _Reply:
    """An answer ready to send: bytes, headers, and what to count."""

    def __init__(self, endpoint: str, answer: Answer, fault: str | None = None, extra: dict[str, str] | None = None):
        self.endpoint = endpoint
        self.answer = answer
        self.fault = fault
        self.extra = extra or {}
        self.not_modified = False
        if isinstance(answer.body, str):
            self.body = answer.body.encode("utf-8")
            self.content_type = "text/html; charset=utf-8"
        else:
            self.body = json.dumps(answer.body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
            self.content_type = "application/json; charset=utf-8"
        self.etag = '"' + hashlib.sha256(self.body).hexdigest()[:32] + '"'

    @property
    def status(self) -> int:
        return 304 if self.not_modified else self.answer.status


def _make_handler(server: ReplayServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in separate writes; without this, Nagle + delayed ACK add ~40 ms a request.
        disable_nagle_algorithm = True
        server_version = "fixlore-replay"
        sys_version = ""

        def date_time_string(self, timestamp: float | None = None) -> str:
            """The ``Date`` header, by the server's clock (``clock_skew``)."""
            return formatdate(server.now() if timestamp is None else timestamp, usegmt=True)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            # Silent: request lines may carry access_token in the query.
            pass

        def do_GET(self) -> None:  # noqa: N802
            parts = urlsplit(self.path)
            if parts.path == ADMIN_STATS:
                self._send_plain(200, json.dumps(server.stats()).encode(), "application/json")
                return
            # Link headers echo the address the client used, unless the Host header looks odd.
            host = self.headers.get("Host") or ""
            if not _SAFE_HOST.fullmatch(host):
                host = f"{server.host}:{server.port}"
            self._answer("GET", lambda: server.handle(parts.path, parts.query, self.headers,
                                                     f"http://{host}{parts.path}"))

        def _answer(self, method: str, make: Any) -> None:
            """Make the reply (a broken world file or a bug answers 500, the connection is not
            dropped), count it before sending, so a client holding its answer also sees it in the
            stats, and send it."""
            try:
                reply = make()
            except Exception as exc:  # noqa: BLE001
                reply = _Reply(f"{method} (server error)", Answer(500, {"message": f"replay server error: {exc}"}))
            server._count(reply.endpoint, reply.status, reply.fault)
            try:
                self._send(reply)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def _refuse(self) -> None:
            server._count(f"{self.command} (unsupported)", 405, None)
            self._send_plain(405, b'{"message": "405 Method Not Allowed"}', "application/json")

        def do_POST(self) -> None:  # noqa: N802
            parts = urlsplit(self.path)
            if parts.path not in GRAPHQL_PATHS:
                self._refuse()
                return
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(min(length, 1 << 20)) if length > 0 else b""
            self._answer("POST", lambda: server.handle_graphql(parts.path, body, self.headers))

        do_PUT = do_PATCH = do_DELETE = _refuse  # noqa: N815

        def _send_plain(self, status: int, body: bytes, ctype: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def _send(self, reply: _Reply) -> None:
            if reply.fault == "stall":
                # Hold the answer past any sane read timeout; give up early when the server stops.
                server._stopping.wait(server.stall_seconds)
            if reply.not_modified:
                self.send_response(304)
                self.send_header("ETag", reply.etag)
                for k, v in reply.extra.items():
                    self.send_header(k, v)
                self.end_headers()
                return
            body = reply.body
            if reply.fault == "malformed":
                body = body[: max(1, len(body) // 2)] + b"\x00<!-- upstream error -->"
            self.send_response(reply.answer.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(body)))
            if reply.answer.status == 200:
                self.send_header("ETag", reply.etag)
            for k, v in {**reply.answer.headers, **reply.extra}.items():
                self.send_header(k, v)
            if reply.fault == "cutoff":
                self.send_header("Connection", "close")
            self.end_headers()
            if reply.fault == "cutoff":
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            self.wfile.write(body)

    return Handler
