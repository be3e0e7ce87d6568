"""Build the HTTP client and the platform source from settings (shared by `fixlore harvest` and `fixlore run`)."""

from __future__ import annotations

from typing import Any

from fixlore.config import Settings
from fixlore.sources import make_source
from fixlore.sources.base import Source
from fixlore.sources.http import ApiClient
from fixlore.store import Store


def connect(settings: Settings, store: Store, *, token: str | None = None, base_url: str | None = None,
            transport: Any = None) -> tuple[ApiClient, Source]:
    client = ApiClient(base_url or settings.base_url, settings.platform, token, transport=transport,
                       cache=store.http_cache(), rate_limit=settings.rate_limit, time_scale=settings.time_scale,
                       connect_timeout=settings.connect_timeout, read_timeout=settings.read_timeout,
                       max_attempts=settings.max_attempts, token_env=settings.token_env)
    return client, make_source(settings.platform, client)
