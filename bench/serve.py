"""Benchmark: the served knowledge base of one run — query latency and a self-retrieval check.

    .venv/bin/python bench/serve.py --out OUT [--repeat 3]
    .venv/bin/python bench/serve.py --out OUT --http [--concurrency 8] [--seconds 20] [-- SERVE_ARGS...]
    .venv/bin/python bench/serve.py --synthetic 100000

With --synthetic N, the link bench's generated store (N issues and N PRs, bench/link.py) is
linked, its cases saved to a temporary SQLite store, and the case index built from scratch and
again (what `fixlore run`'s serve stage costs on a large store the first time and on a re-run),
then symptom searches with and without a repo filter are timed.

OUT is a `fixlore run` output folder (run `fixlore run --world worlds/ascend-2026-09 --out OUT`
first). For every searchable case that the analysis summarised, its `symptom` is sent to
`search_cases` and its key to `fix_status`, `get_case` and `related_cases`; the script prints
p50/p95 latency of each call (in-process, the memo of answers dropped before each pass;
what the HTTP and MCP front ends add is serialisation) and how often a case's own symptom
brings it back first and in the top five.
That is a sanity check of the case index (the symptom is part of the indexed text), not a
measure of answering new questions. Nothing leaves the machine.

With --http, `fixlore serve http --out OUT` is started on a loopback port (arguments after
`--` are passed to it) and CONCURRENCY clients send the same calls over HTTP for SECONDS
after a short warm-up: for every analysed case, its symptom to /api/cases/search and
/api/docs/search, its key to .../fix, the case and .../related, in a fixed shuffled order.
First each distinct call once (what a server answers the first time it is asked), then
cycling through them for SECONDS (a server asked again: the served indexes' answers are
memoised). For each it prints requests per second, p50/p95/p99 latency and errors; then the
load average before and after (the machine may be shared: compare runs made back to back). The load
generator runs on the same machine and takes some of its CPU.
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
                knowledge.forget()                   # time the search, not the memo
                t = time.perf_counter()
                knowledge.search_cases(q, k=5, **kw)
                ms.append((time.perf_counter() - t) * 1000)
            print(f"  {label:28s} p50 {statistics.median(ms):6.2f} ms   p95 {_pct(ms, 0.95):6.2f} ms")
        knowledge.close()


def _http_calls(out: Path) -> list[tuple[str, dict]]:
    import json
    import random
    from urllib.parse import quote

    calls: list[tuple[str, dict]] = []
    for line in (out / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if case["funnel"] not in ("selected", "analysis") or not case["symptom"].strip():
            continue
        path = f"/api/cases/{quote(case['repo'])}/{case['number']}"
        calls += [("/api/cases/search", {"q": case["symptom"], "k": 5}), ("/api/docs/search", {"q": case["symptom"]}),
                  (path + "/fix", {}), (path, {}), (path + "/related", {"k": 5})]
    random.Random(16).shuffle(calls)
    return calls


def http_bench(out: Path, concurrency: int, seconds: float, serve_args: list[str]) -> None:
    import asyncio
    import os
    import socket
    import subprocess
    import sys

    import httpx2 as httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    calls = _http_calls(out)
    if not calls:
        raise SystemExit(f"no analysed case with a symptom in {out}/cases.jsonl")
    load_before = os.getloadavg()
    server = subprocess.Popen([sys.executable, "-m", "fixlore", "serve", "http", "--out", str(out), "--port", str(port),
                               *serve_args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"

    async def run() -> None:
        limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:
            started = time.monotonic()
            while True:
                if server.poll() is not None:
                    raise SystemExit(f"the server stopped: {server.stderr.read().decode()[-2000:]}")
                try:
                    if (await client.get("/api/stats")).status_code == 200:
                        break
                except httpx.HTTPError:
                    await asyncio.sleep(0.2)
            print(f"server up in {time.monotonic() - started:.1f}s (port {port}, {' '.join(serve_args) or 'defaults'})")
            for path, params in calls[: 4 * concurrency]:          # warm-up: vectors loaded, pools filled
                await client.get(path, params=params)

            async def load(todo: list[tuple[str, dict]] | None, until: float) -> tuple[list[float], int, float]:
                """`todo` once (None: cycle through every call until `until`), CONCURRENCY at a time."""
                latencies: list[float] = []
                errors = 0
                position = 0

                async def worker() -> None:
                    nonlocal position, errors
                    while (position < len(todo)) if todo is not None else (time.monotonic() < until):
                        path, params = (todo or calls)[position % len(todo or calls)]
                        position += 1
                        t = time.perf_counter()
                        response = await client.get(path, params=params)
                        latencies.append(time.perf_counter() - t)
                        errors += response.status_code != 200

                t0 = time.perf_counter()
                await asyncio.gather(*(worker() for _ in range(concurrency)))
                return latencies, errors, time.perf_counter() - t0

            distinct = list({(path, tuple(sorted(params.items()))): (path, params) for path, params in calls}.values())
            for label, result in (("first pass (each distinct call once)", await load(distinct, 0)),
                                  (f"steady state ({seconds:.0f}s, cycling)", await load(None, time.monotonic() + seconds))):
                latencies, errors, elapsed = result
                ms = [v * 1000 for v in latencies]
                print(f"{label}: {len(ms)} requests in {elapsed:.1f}s at {concurrency} concurrent: "
                      f"{len(ms) / elapsed:.1f} requests/s, p50 {statistics.median(ms):.1f} ms, "
                      f"p95 {_pct(ms, 0.95):.1f} ms, p99 {_pct(ms, 0.99):.1f} ms, errors {errors}")

    try:
        asyncio.run(run())
    finally:
        server.terminate()
        server.wait(20)
    print("load average (1, 5, 15 min) before: {:.2f} {:.2f} {:.2f}; after: {:.2f} {:.2f} {:.2f}; cores: {}".format(
        *load_before, *os.getloadavg(), os.cpu_count()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="a fixlore run output folder")
    ap.add_argument("--synthetic", type=int, help="instead: the link bench's generated store of N issues and N PRs")
    ap.add_argument("--repeat", type=int, default=3, help="passes over the queries (latency)")
    ap.add_argument("--http", action="store_true", help="over HTTP: start `fixlore serve http` and load it")
    ap.add_argument("--concurrency", type=int, default=8, help="with --http: clients at once")
    ap.add_argument("--seconds", type=float, default=20, help="with --http: how long to load the server")
    ap.add_argument("serve_args", nargs="*", help="with --http, after --: arguments for `fixlore serve http`")
    args = ap.parse_args()
    if args.synthetic:
        synthetic(args.synthetic)
        return
    if args.out is None:
        ap.error("give --out OUT (a fixlore run output folder) or --synthetic N")
    if args.http:
        http_bench(args.out, args.concurrency, args.seconds, args.serve_args)
        return

    started = time.perf_counter()
    knowledge = Knowledge.open(Locations.of(out=args.out))
    print(f"open: {time.perf_counter() - started:.2f}s; {knowledge.stats()}")
    probes = [c for c in knowledge.cases.values() if c.funnel in ("selected", "analysis") and c.symptom.strip()]
    timings: dict[str, list[float]] = {"search_cases": [], "fix_status": [], "get_case": [], "related_cases": []}
    first = top5 = 0
    for rep in range(args.repeat):
        knowledge.forget()              # each pass times the searches, not the memo
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
