"""Reading an API's answer: what an error status means, error bodies, Retry-After and Link headers, list items."""

from __future__ import annotations

import email.utils
import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any, Iterator

import httpx2

from fixlore.core.errors import SourceError

# What an error status means when the body does not say.
REASONS = {400: "bad request", 403: "forbidden", 404: "not found", 409: "conflict",
            410: "gone (on GitHub: issues disabled for this repo)", 422: "unprocessable",
            451: "unavailable for legal reasons"}

# Headers worth keeping with a cached body (paging needs them after a 304).
KEPT_HEADERS = ("link", "total_page", "total_count", "x-total-pages", "x-total", "x-next-page")


@dataclass
class ApiResponse:
    status: int
    data: Any
    headers: dict[str, str]
    url: str
    from_cache: bool = False

    @property
    def links(self) -> dict[str, str]:
        """rel -> URL of the Link header, as httpx reads it (`Response.links`). The headers are the
        kept ones, so an answer served from the ETag cache after a 304 still knows its next page;
        a link without a rel or a URL is no link."""
        read = httpx2.Response(200, headers={k: v for k, v in self.headers.items() if k.lower() == "link"}).links
        return {str(rel): link["url"] for rel, link in read.items() if rel and link.get("rel") and link.get("url")}


class NotFound(Exception):
    """404 on an endpoint; the source decides whether that is an error or an empty answer."""

    def __init__(self, endpoint: str, message: str):
        super().__init__(f"{endpoint}: {message}")
        self.endpoint = endpoint
        self.message = message


class TokenRefused(SourceError):
    """The token itself is refused (401, or a 403 before any request was answered): the run stops."""


class ApiError(SourceError):
    """One endpoint could not be read, for a reason that concerns that resource only.

    A 403 on one repo ("issue module is closed"), GitHub's 404/410/451 for a repo whose
    issues are disabled, a server that kept failing or kept repeating a page: the harvest
    records it against the repo and goes on. ``status`` is the HTTP status, or a word for
    what went wrong when there is none ("retries", "repeated-page", "page-cap").
    """

    def __init__(self, endpoint: str, status: int | str, message: str):
        super().__init__(f"{endpoint}: {_status_words(status)}{': ' + message if message else ''}")
        self.endpoint = endpoint
        self.status = str(status)
        self.message = message


class IssuesDisabled(ApiError):
    """A repository's issue list answered 410 Gone: its issues are disabled (GitHub: "Issues are disabled
    for this repo", the default for a fork; the list of issues "410 Gone" in its REST docs), switched off
    after the repo list said otherwise. Not a failure to read: there are no issues to read."""


class HostDown(ApiError):
    """The host's circuit breaker is open (`fixlore.edges.circuit`): it stopped answering mid-run, so this
    request and every later one fail at once. An `ApiError`, so whatever records an unreadable
    item or repo records this one too; a loop over many items should stop at the first (the
    harvester records the repos it had not reached, for the next run)."""

    STATUS = "host-down"

    def __init__(self, endpoint: str, host: str, reason: str):
        super().__init__(endpoint, self.STATUS, f"{host} stopped answering ({reason}); not asked again this run")
        self.host = host
        self.reason = reason


def repo_pages(pages: Iterator[list[dict]]) -> Iterator[list[dict]]:
    """Pages of a repo's own issue or PR list, where a 404 means the repo cannot be read, never "empty".

    (GitHub answers 404 for a repo gone or hidden, 410 when its issues are disabled; both are
    recorded against the repo.)
    """
    try:
        yield from pages
    except NotFound as exc:
        raise ApiError(exc.endpoint, 404, exc.message) from None


def _status_words(status: int | str) -> str:
    return f"HTTP {status}" if str(status).isdigit() else str(status)


def error_message(body: Any) -> str:
    """The human text of an error body in any of the shapes GitCode/GitHub use."""
    if isinstance(body, dict):
        for key in ("message", "error_message", "error", "error_code_name", "error_code"):
            value = body.get(key)
            if value:
                return str(value)[:200]
    if isinstance(body, str):
        return body.strip().splitlines()[0][:200] if body.strip() else ""
    return ""


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (now if now is not None else time.time()))


def item_key(item: Any) -> Any:
    """What identifies a list item for the repeat guard: ``id``, else ``sha``, else ``number``, else its content."""
    if isinstance(item, dict):
        for name in ("id", "sha", "number"):
            value = item.get(name)
            if value not in (None, ""):
                return (name, str(value))
    digest = hashlib.sha256(json.dumps(item, sort_keys=True, default=str).encode("utf-8")).hexdigest()
    return ("content", digest)


def int_header(headers: dict[str, str], *names: str) -> int | None:
    for name in names:
        value = str(headers.get(name, "")).strip()
        if value.isdigit():
            return int(value)
    return None


def try_json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return body.decode("utf-8", "replace")


def list_in(data: Any) -> list | None:
    """Some list endpoints wrap the array ({"events": [...]}, {"items": [...]}); None when ``data``
    holds no list at all (an error object answered with 200, no body): that is no empty list."""
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        for key in ("items", "events", "data", "logs"):
            if isinstance(data.get(key), list):
                return data[key]
    return None
