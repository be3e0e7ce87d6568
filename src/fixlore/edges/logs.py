"""Logging for the CLI: warnings (or, with --verbose, progress notes such as retries) on stderr,
everything at INFO and above in --log-file; secrets registered with :func:`hide` never appear,
and every URL in a line passes through `fixlore.edges.inputs.redact_url` (no userinfo, no query token).

Library modules only call ``logging.getLogger(__name__)``; this module is used by the CLI alone.
"""

from __future__ import annotations

import logging
from pathlib import Path

_SECRETS: set[str] = set()


def hide(*secrets: str | None) -> None:
    """Register values (tokens, URL passwords) that every log line must show as ``***``."""
    for secret in secrets:
        if secret and len(secret) >= 3:
            _SECRETS.add(secret)


def redact(text: str) -> str:
    from fixlore.edges.inputs import redact_urls

    for secret in sorted(_SECRETS, key=len, reverse=True):
        text = text.replace(secret, "***")
    return redact_urls(text)


class _Plain(logging.Formatter):
    """A line for the terminal: a message quoting issue text is cleaned as pages are."""

    def format(self, record: logging.LogRecord) -> str:
        from fixlore.wording.terminal import plain

        return plain(super().format(record))


class _Redacting(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        shown = redact(message)
        if shown != message:
            record.msg, record.args = shown, None
        return True


def configure(verbose: int = 0, log_file: Path | None = None) -> None:
    """stderr gets WARNING (INFO with -v, DEBUG with -vv); ``log_file`` gets INFO (DEBUG with -vv)."""
    root = logging.getLogger("fixlore")
    for handler in list(root.handlers):
        root.removeHandler(handler)
        handler.close()
    level = logging.DEBUG if verbose >= 2 else logging.INFO
    root.setLevel(level)
    root.propagate = False
    console = logging.StreamHandler()
    console.setLevel(logging.WARNING if verbose == 0 else level)
    console.setFormatter(_Plain("fixlore: %(message)s"))
    console.addFilter(_Redacting())
    root.addHandler(console)
    if log_file is not None:
        file_handler = logging.FileHandler(log_file, encoding="utf-8")
        file_handler.setLevel(level)
        file_handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        file_handler.addFilter(_Redacting())
        root.addHandler(file_handler)
