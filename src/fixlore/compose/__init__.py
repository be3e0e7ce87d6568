"""compose stage: the digest in the seed's shape (zh and en Markdown, one HTML page, JSON),
every figure computed from the run's cases. `write_digests` is the entry point."""

from fixlore.compose.digest import build_digest
from fixlore.compose.figures import compute_figures
from fixlore.compose.write import write_digests

__all__ = ["build_digest", "compute_figures", "write_digests"]
