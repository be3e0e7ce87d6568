"""Benchmark: the served knowledge base of one run — query latency and a self-retrieval check.

    .venv/bin/python bench/serve.py --out OUT [--repeat 3]
    .venv/bin/python bench/serve.py --synthetic 100000

With --synthetic N, the link bench's generated store (N issues and N PRs, bench/link.py) is
linked, its cases saved to a temporary SQLite store, and the case index built from scratch and
again (what `fixlore run`'s serve stage costs on a large store the first time and on a re-run),
then symptom searches with and without a repo filter are timed.

OUT is a `fixlore run` output folder (run `fixlore run --world worlds/ascend-2026-09 --out OUT`
first). For every searchable case that the analysis summarised, its `symptom` is sent to
`search_cases` and its key to `fix_status`, `get_case` and `related_cases`; the script prints
p50/p95 latency of each call (in-process, what the HTTP and MCP front ends add is
serialisation) and how often a case's own symptom brings it back first and in the top five.
That is a sanity check of the case index (the symptom is part of the indexed text), not a
measure of answering new questions. Nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from fixlore.serve.knowledge import Knowledge, Locations


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]


def synthetic(n: int) -> None:
    import sys
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from link import SINCE, make_corpus  # the link bench's generator

    from fixlore.link import LinkConfig, build_cases
    from fixlore.serve.knowledge import index_cases
    from fixlore.store import Store

    corpus = make_corpus(n, n, 100, 1)
    cases, _ = build_cases(corpus, SINCE, LinkConfig(workers=2))
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/store.db"
        store = Store.open(url)
        store.save_cases(cases)
        for label in ("first build", "re-run"):
            started = time.perf_counter()
            info = index_cases(store, cases, Path(tmp) / "cases-index")
            print(f"{label}: {info['cases']:,} pool cases, {info['added']:,} added, {info['unchanged']:,} unchanged "
                  f"in {time.perf_counter() - started:.1f}s")
        store.close()
        started = time.perf_counter()
        knowledge = Knowledge.open(Locations.of(db=url, cases=Path(tmp) / "cases-index"))
        print(f"open ({len(knowledge.cases):,} cases): {time.perf_counter() - started:.1f}s")
        queries = ["npu memory timeout", "算子 编译 报错", "quantization overflow gradient", "通信 超时 集群"]
        knowledge.search_cases(queries[0], k=5)          # the first query loads the vectors
        repo = cases[0].repo
        for label, kw in (("search_cases", {}), (f"search_cases repo={repo}", {"repo": repo})):
            ms = []
            for q in queries * 10:
                t = time.perf_counter()
                knowledge.search_cases(q, k=5, **kw)
                ms.append((time.perf_counter() - t) * 1000)
            print(f"  {label:28s} p50 {statistics.median(ms):6.2f} ms   p95 {_pct(ms, 0.95):6.2f} ms")
        knowledge.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="a fixlore run output folder")
    ap.add_argument("--synthetic", type=int, help="instead: the link bench's generated store of N issues and N PRs")
    ap.add_argument("--repeat", type=int, default=3, help="passes over the queries (latency)")
    args = ap.parse_args()
    if args.synthetic:
        synthetic(args.synthetic)
        return
    if args.out is None:
        ap.error("give --out OUT (a fixlore run output folder) or --synthetic N")

    started = time.perf_counter()
    knowledge = Knowledge.open(Locations.of(out=args.out))
    print(f"open: {time.perf_counter() - started:.2f}s; {knowledge.stats()}")
    probes = [c for c in knowledge.cases.values() if c.funnel in ("selected", "analysis") and c.symptom.strip()]
    timings: dict[str, list[float]] = {"search_cases": [], "fix_status": [], "get_case": [], "related_cases": []}
    first = top5 = 0
    for rep in range(args.repeat):
        for case in probes:
            t = time.perf_counter()
            hits = knowledge.search_cases(case.symptom, k=5)
            timings["search_cases"].append(time.perf_counter() - t)
            if rep == 0:
                keys = [h["key"] for h in hits]
                first += bool(keys) and keys[0] == case.key
                top5 += case.key in keys
            for name, call in (("fix_status", knowledge.fix_status), ("get_case", knowledge.get_case)):
                t = time.perf_counter()
                call(case.key)
                timings[name].append(time.perf_counter() - t)
            t = time.perf_counter()
            knowledge.related_cases(case.key, k=5)
            timings["related_cases"].append(time.perf_counter() - t)
    knowledge.close()
    print(f"{len(probes)} analysed cases, {args.repeat} passes")
    for name, values in timings.items():
        ms = [v * 1000 for v in values]
        print(f"  {name:14s} p50 {statistics.median(ms):7.2f} ms   p95 {_pct(ms, 0.95):7.2f} ms   ({len(ms)} calls)")
    if probes:
        print(f"self-retrieval by symptom: first {first}/{len(probes)} ({first / len(probes):.3f}), "
              f"top 5 {top5}/{len(probes)} ({top5 / len(probes):.3f})")


if __name__ == "__main__":
    main()
