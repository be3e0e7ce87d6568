"""Build the HTTP client and the platform source from settings (shared by `fixlore harvest` and `fixlore run`)."""

from __future__ import annotations

import logging
from typing import Any

from fixlore.settings.config import Settings
from fixlore.sources import make_source
from fixlore.sources.base import Source
from fixlore.sources.http import ApiClient
from fixlore.sources.listforms import ProbeForms
from fixlore.store import Store

log = logging.getLogger(__name__)


def missing_token_warning(settings: Settings, token: str | None) -> str | None:
    """A line to show before the first request when no token was found (None when there is one)."""
    if token:
        return None
    name = settings.token_env or "the token variable"
    return (f"warning: no API token (${name} is empty or unset): {settings.platform} will see anonymous requests, "
            f"with a far lower quota, and may refuse them")


def connect(settings: Settings, store: Store, *, token: str | None = None, base_url: str | None = None,
            transport: Any = None, probe: ProbeForms | None = None) -> tuple[ApiClient, Source]:
    """The run's client and source; ``probe`` (a read probe file) chooses how lists are ordered."""
    client = ApiClient(base_url or settings.base_url, settings.platform, token, transport=transport,
                       cache=store.http_cache(), rate_limit=settings.rate_limit, time_scale=settings.time_scale,
                       connect_timeout=settings.connect_timeout, read_timeout=settings.read_timeout,
                       max_attempts=settings.max_attempts, token_env=settings.token_env)
    return client, make_source(settings.platform, client, probe)
