"""Nearest passages by cosine: exact brute force, with a coarse first pass for large matrices.

Below `COARSE_MIN_ROWS` passages the query is multiplied with the whole float32 matrix. Above,
one pass over a 512-dimension matrix is memory-bound (100k passages = 205 MB, 25-50 ms on a
2-core machine), so the matrix is also kept projected onto its top `COARSE_DIMS` principal
directions (uncentred, which is what preserves inner products); the query is scored against
that quarter-size matrix first, and the best `SHORTLIST` rows are then re-scored exactly. The
cosines returned are always exact; only the choice of which rows to re-score is approximate.
On the bench's synthetic 100k matrix (sampled vectors plus noise: thousands of near-duplicate
rows, the worst case for this) about 89 % of the exact top 50 are found, the misses being
near-ties; `bench/kb.py` reports the world cases' recall with and without the coarse pass.
"""

from __future__ import annotations

from concurrent.futures import Executor

import numpy as np

COARSE_MIN_ROWS = 20_000
COARSE_DIMS = 128
SHORTLIST = 600
_FIT_SAMPLE = 20_000
SPLIT_MIN_ROWS = 20_000   # below this a second thread costs more than it saves
CUT_MIN_ROWS = 20_000     # from this many scores up, the best are selected past a sampled cut (see _pool)
CUT_STRIDE = 16           # the cut is read on every CUT_STRIDE-th score


def fit_projection(matrix: np.ndarray, dims: int = COARSE_DIMS, seed: int = 0) -> np.ndarray:
    """(dim, dims) projection onto the top right-singular vectors of a row sample (uncentred PCA)."""
    rng = np.random.default_rng(seed)
    rows = matrix if len(matrix) <= _FIT_SAMPLE else matrix[rng.choice(len(matrix), _FIT_SAMPLE, replace=False)]
    gram = rows.T.astype(np.float64) @ rows.astype(np.float64)
    values, vectors = np.linalg.eigh(gram)
    order = np.argsort(values)[::-1][:dims]
    return np.ascontiguousarray(vectors[:, order].astype(np.float32))


def _matvec(matrix: np.ndarray, v: np.ndarray, helper: Executor | None) -> np.ndarray:
    """matrix @ v; a large matrix is split in two halves, one computed on `helper`'s thread.
    The pass is memory-bound and numpy releases the GIL, so two cores read twice as fast; a
    thread of our own does this without OpenBLAS's worker threads, which spin after each call."""
    if helper is None or len(matrix) < SPLIT_MIN_ROWS:
        return matrix @ v
    half = len(matrix) // 2
    upper = helper.submit(np.dot, matrix[half:], v)
    lower = matrix[:half] @ v
    return np.concatenate([lower, upper.result()])


def top_rows(matrix: np.ndarray, q: np.ndarray, n: int, mask: np.ndarray | None = None,
             coarse: np.ndarray | None = None, projection: np.ndarray | None = None,
             helper: Executor | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Row positions of the `n` highest cosines (best first) and the exact cosines known so far,
    one per row: the full similarity vector for the brute-force path; for the coarse path the
    shortlist's cosines, NaN elsewhere (rows outside `mask` are never finite). With `helper`
    (an idle executor) the pass over a large matrix is shared with its thread."""
    if len(matrix) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
    if coarse is None or projection is None:
        sims = _matvec(matrix, q, helper)
        if mask is not None:
            sims = np.where(mask, sims, -np.inf)
        return _best(sims, n), sims
    approx = _matvec(coarse, q @ projection, helper)
    if mask is not None:
        approx = np.where(mask, approx, -np.inf)
    short = _best(approx, min(SHORTLIST, len(approx)))
    exact = matrix[short] @ q
    order = np.argsort(-exact, kind="stable")[:n]
    known = np.full(len(matrix), np.nan, dtype=np.float32)
    known[short] = exact
    return short[order], known


def _best(scores: np.ndarray, n: int) -> np.ndarray:
    n = min(n, len(scores))
    if n <= 0:
        return np.zeros(0, dtype=np.int64)
    pool = _pool(scores, n)
    if pool is None:
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top], kind="stable")]
    else:                                   # pool is ascending: equal scores by position
        top = pool[np.argsort(-scores[pool], kind="stable")[:n]]
    return top[np.isfinite(scores[top])]


def _pool(scores: np.ndarray, n: int) -> np.ndarray | None:
    """Positions of a few more than the `n` best scores, all of those among them, or None (select
    from all). Partial selection over a whole large array is most of the cost of choosing the
    best (35k scores: ~0.5 ms); a cut read on a strided sample (a value about 2n scores exceed)
    keeps ~2n positions at the cost of one comparison pass. It is exact: when at least `n`
    scores reach the cut, the `n`-th best does too, and so do all the `n` best."""
    sample = scores[::CUT_STRIDE]
    want = 2 * (n // CUT_STRIDE + 1)
    if len(scores) < CUT_MIN_ROWS or 4 * want > len(sample):
        return None
    cut = np.partition(sample, len(sample) - want)[len(sample) - want]
    if not np.isfinite(cut):
        return None
    pool = np.flatnonzero(scores >= cut)
    return pool if n <= len(pool) <= len(scores) // 4 else None


def cosines(matrix: np.ndarray, ids: np.ndarray, q: np.ndarray, known: np.ndarray,
            wanted: list[int]) -> dict[int, float]:
    """Exact cosine of each chunk id in `wanted` (ids sorted ascending; absent ids are left out):
    from what the search already computed (`known`, see `top_rows`), else one product over the
    missing rows together."""
    if not wanted or len(ids) == 0:
        return {}
    cids = np.asarray(wanted, dtype=np.int64)
    pos = np.minimum(np.searchsorted(ids, cids), len(ids) - 1)
    present = ids[pos] == cids
    cids, pos = cids[present], pos[present]
    values = known[pos].astype(np.float64)
    missing = ~np.isfinite(values)
    if missing.any():
        values[missing] = matrix[pos[missing]] @ q
    return dict(zip(cids.tolist(), values.tolist()))
