"""Benchmark: the disk cache of sentence vectors (`fixlore.retrieval.vector_cache`) when it is full.

    .venv/bin/python bench/embed_cache.py [--rows 100000]

Fills a cache in a temporary folder with ROWS random vectors (500 per write, as a run's
batches do), then times writes of 64 and of 1 vector and a lookup of 64, three times each.
A write's cost must not grow with the rows already kept: at 100,000 rows (`MAX_ROWS`) it was
~135 ms a write before `written` was indexed, ~1.5 ms after. Prints the figures; nothing leaves
the machine and the user's own cache is not touched.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=100_000, help="vectors kept before the timed writes")
    args = ap.parse_args()
    import numpy as np

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["FIXLORE_VECTOR_CACHE"] = str(Path(tmp) / "vectors.sqlite")
        from fixlore.retrieval import vector_cache

        rng = np.random.default_rng(0)
        started = time.perf_counter()
        for start in range(0, args.rows, 500):
            texts = [f"kept {i}" for i in range(start, min(args.rows, start + 500))]
            vector_cache.store("bench", 1, texts, rng.standard_normal((len(texts), 512)).astype(np.float32))
        print(f"filled {args.rows:,} rows in {time.perf_counter() - started:.1f}s")
        timings: dict[str, list[float]] = {"write 64": [], "lookup 64": [], "write 1": []}
        for rep in range(3):
            texts = [f"new {rep} {i}" for i in range(64)]
            for label, call in (("write 64", lambda: vector_cache.store(
                                    "bench", 1, texts, rng.standard_normal((64, 512)).astype(np.float32))),
                                ("lookup 64", lambda: vector_cache.lookup("bench", 1, texts, 512)),
                                ("write 1", lambda: vector_cache.store(
                                    "bench", 1, [f"one {rep}"], rng.standard_normal((1, 512)).astype(np.float32)))):
                t = time.perf_counter()
                call()
                timings[label].append((time.perf_counter() - t) * 1000)
        for label, ms in timings.items():
            print(f"{label:10s} median {statistics.median(ms):7.1f} ms   (of {', '.join(f'{v:.1f}' for v in ms)})")


if __name__ == "__main__":
    main()
