"""compose stage: the digest in the seed's shape (zh and en Markdown, one HTML page, JSON),
every figure computed from the run's cases. `write_digests` is the entry point."""

import importlib

# Loaded on first use (PEP 562), so a `fixlore` command that does not need the stage does not pay
# for importing it (issue #26).
_EXPORTS = {"build_digest": "digest", "compute_figures": "figures", "write_digests": "write"}


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(importlib.import_module(f"fixlore.compose.{_EXPORTS[name]}"), name)
    raise AttributeError(f"module 'fixlore.compose' has no attribute {name!r}")

__all__ = ["build_digest", "compute_figures", "write_digests"]
