"""Benchmark: the served knowledge base of one run — query latency and a self-retrieval check.

    .venv/bin/python bench/serve.py --out OUT [--repeat 3]
    .venv/bin/python bench/serve.py --out OUT --http [--concurrency 8 | --rate 400] [--seconds 20] [-- SERVE_ARGS...]
    .venv/bin/python bench/serve.py --synthetic 100000 [--keep DIR] [--http [--cases 1000] ...] [--answers FILE]

With --synthetic N, the link bench's generated store (N issues and N PRs, bench/link.py) is
linked, its cases saved to a temporary SQLite store, and the case index built from scratch and
again (what `fixlore run`'s serve stage costs on a large store the first time and on a re-run),
then symptom searches with and without a repo filter, 200 new questions and 200 cases'
related cases are timed. 100,000 issues give 35,141 searchable (pool) cases: the "35k cases"
of issue #26. `--keep DIR` builds the store there once and reuses it (the build takes minutes),
bringing its case index up to date first (what newer code keeps in it, such as the related-cases
query vectors: minutes the first time, seconds after).
With `--http` as well, the same served over HTTP (below): for `--cases` pool cases a new
question (fresh words of the generator's vocabulary, never an indexed text) to
/api/cases/search, and the case's key to .../fix, the case and .../related (the synthetic
store has no documents, so no /api/docs/search). `--answers FILE` records the ranked answers
to 300 new questions and 100 cases' related cases (keys, scores, and each question's fused
passages with their BM25 and vector ranks) the first time, and compares them after: run it
with the code before a change and again after to show the answers did not change.

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
First each distinct call once (what a server answers the first time it is asked; the
warm-up's calls are left out, they would be answered from the memo; a server never reads a
question's vector from the disk cache of a run's vectors, so a bench run again is first-time again), then
cycling through them for SECONDS (a server asked again: the served indexes' answers are
memoised). For each it prints requests per second, p50/p95/p99 latency and errors (and
the same by kind: searches, related cases, lookups); then the
load average before and after (the machine may be shared: compare runs made back to back). The load
generator runs on the same machine and takes some of its CPU, so it is kept cheap (bench/httpload.py:
keep-alive connections on uvloop, responses parsed by httptools, each status checked and each body read
whole; an httpx client per call had cost 0.8-1.6 ms of CPU a request, this one 0.1-0.2 ms).
With `--rate R` the first pass is an open loop instead: its calls are sent at R a second on a
fixed schedule, each latency counted from when the call was due. CONCURRENCY clients measure
what a saturated server gives (their latency is mostly the queue they make themselves); a rate
measures the latency of a server answering R first-time questions a second.
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


def _synthetic_store(n: int, keep: Path | None) -> tuple[Path, str, "tempfile.TemporaryDirectory | None"]:
    """The link bench's generated store of N issues and N PRs, linked, its cases saved to SQLite
    and indexed for search (timed: the first build, then a re-run). With `keep`, built there once
    and reused by later runs (the build is most of a run's time)."""
    import sys
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from link import SINCE, make_corpus  # the link bench's generator

    from fixlore.link import LinkConfig, build_cases
    from fixlore.serve.knowledge import index_cases
    from fixlore.store import Store

    holder = None
    if keep is None:
        holder = tempfile.TemporaryDirectory()
        where = Path(holder.name)
    else:
        where = keep
        where.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{where.resolve()}/store.db"
    marker = where / "synthetic.txt"
    if marker.is_file() and marker.read_text().strip() == str(n) and (where / "cases-index" / "kb.sqlite").is_file():
        print(f"reusing the synthetic store of {n:,} issues in {where}")
        store = Store.open(url)     # a store kept by older code gets the current schema (e.g. comments.association)
        started = time.perf_counter()
        info = index_cases(store, store.load_cases(), where / "cases-index")   # what newer code keeps in it
        store.close()
        if info["added"] or info["updated"] or info["removed"] or info.get("query_vectors"):
            print(f"  index brought up to date: {info} in {time.perf_counter() - started:.1f}s")
        return where, url, holder
    corpus = make_corpus(n, n, 100, 1)
    cases, _ = build_cases(corpus, SINCE, LinkConfig(workers=2))
    store = Store.open(url)
    store.save_cases(cases)
    for label in ("first build", "re-run"):
        started = time.perf_counter()
        info = index_cases(store, cases, where / "cases-index")
        print(f"{label}: {info['cases']:,} pool cases, {info['added']:,} added, {info['unchanged']:,} unchanged, "
              f"{info.get('query_vectors', 0):,} related-cases query vectors in {time.perf_counter() - started:.1f}s")
    store.close()
    marker.write_text(str(n))
    return where, url, holder


def new_questions(count: int, seed: int = 26) -> list[str]:
    """Questions nobody asked before: fresh sentences in the synthetic corpus's words (bench/link.py),
    some with the error line its reports carry, none equal to an indexed text."""
    import random
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from link import WORDS

    rng = random.Random(seed)
    out: list[str] = []
    for i in range(count):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 14)))
        out.append(words + (" RuntimeError at step 3" if i % 3 == 0 else ""))
    return out


def synthetic(n: int, keep: Path | None) -> None:
    where, url, holder = _synthetic_store(n, keep)
    try:
        started = time.perf_counter()
        knowledge = Knowledge.open(Locations.of(db=url, cases=where / "cases-index"))
        print(f"open ({len(knowledge.cases):,} cases, {knowledge.stats()['searchable_cases']:,} searchable): "
              f"{time.perf_counter() - started:.1f}s")
        queries = ["npu memory timeout", "算子 编译 报错", "quantization overflow gradient", "通信 超时 集群"]
        knowledge.search_cases(queries[0], k=5)          # the first query loads the vectors
        repo = next(iter(knowledge.cases.values())).repo
        fresh = new_questions(200)
        for label, qs, kw in (("search_cases", queries * 10, {}), (f"search_cases repo={repo}", queries * 10, {"repo": repo}),
                              ("search_cases, 200 new questions", fresh, {})):
            ms = []
            for q in qs:
                knowledge.forget()                   # time the search, not the memo
                t = time.perf_counter()
                knowledge.search_cases(q, k=5, **kw)
                ms.append((time.perf_counter() - t) * 1000)
            print(f"  {label:34s} p50 {statistics.median(ms):6.2f} ms   p95 {_pct(ms, 0.95):6.2f} ms")
        keys = [c.key for c in knowledge.cases.values() if c.funnel in ("selected", "analysis", "rank")][:200]
        ms = []
        for key in keys:
            knowledge.forget()
            t = time.perf_counter()
            knowledge.related_cases(key, k=5)
            ms.append((time.perf_counter() - t) * 1000)
        print(f"  {'related_cases, 200 cases':34s} p50 {statistics.median(ms):6.2f} ms   p95 {_pct(ms, 0.95):6.2f} ms")
        knowledge.close()
    finally:
        if holder is not None:
            holder.cleanup()


def answers(n: int, keep: Path | None, path: Path, count: int = 300) -> None:
    """The ranked answers to `count` new questions (search_cases, k=10) and to `count` // 3
    cases' related_cases (k=10), and each question's fused passage list (`search`: passages,
    their BM25 and vector ranks, scores): written to `path` the first time, compared with it
    after (run once with the code before a change, then with the code after)."""
    import json

    where, url, holder = _synthetic_store(n, keep)
    try:
        knowledge = Knowledge.open(Locations.of(db=url, cases=where / "cases-index"))
        got: dict[str, object] = {}
        for q in new_questions(count, seed=7):
            got["search " + q] = [[h["key"], round(h["score"], 6)] for h in knowledge.search_cases(q, k=10)]
            got["passages " + q] = [[p.doc, p.chunk, p.bm25_rank, p.vector_rank, round(p.score, 6)]
                                    for p in knowledge.case_index.search(q, k=100, kind="case")]
        keys = sorted(c.key for c in knowledge.cases.values() if c.funnel in ("selected", "analysis", "rank"))
        for key in keys[:: max(1, len(keys) // (count // 3))][: count // 3]:
            got["related " + key] = [[h["key"], round(h["score"], 6), h["why"]] for h in knowledge.related_cases(key, k=10)]
        knowledge.close()
    finally:
        if holder is not None:
            holder.cleanup()
    if not path.is_file():
        path.write_text(json.dumps(got, ensure_ascii=False, indent=0), encoding="utf-8")
        print(f"recorded {len(got)} answers in {path}")
        return
    recorded = json.loads(path.read_text(encoding="utf-8"))
    differ = [q for q in recorded if recorded[q] != got.get(q)]
    print(f"{len(recorded) - len(differ)} of {len(recorded)} answers identical to {path}")
    for q in differ[:5]:
        print(f"  differs: {q[:80]}\n    recorded {recorded[q][:5]}\n    now      {(got.get(q) or [])[:5]}")
    if differ:
        raise SystemExit(1)


def _synthetic_calls(url: str, count: int) -> list[tuple[str, dict]]:
    """For `count` pool cases of the synthetic store: a new question to /api/cases/search, the
    case's key to .../fix, the case and .../related (the store has no documents: no
    /api/docs/search), in a fixed shuffled order."""
    import random
    from urllib.parse import quote

    from fixlore.store import Store

    store = Store.open(url, migrate=False)
    try:
        pool = [c for c in store.load_cases() if c.funnel in ("selected", "analysis", "rank")]
    finally:
        store.close()
    chosen = random.Random(16).sample(pool, min(count, len(pool)))
    calls: list[tuple[str, dict]] = []
    for case, question in zip(chosen, new_questions(len(chosen))):
        path = f"/api/cases/{quote(case.repo)}/{case.number}"
        calls += [("/api/cases/search", {"q": question, "k": 5}), (path + "/fix", {}), (path, {}),
                  (path + "/related", {"k": 5})]
    random.Random(16).shuffle(calls)
    return calls


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


def _cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its living descendants (Linux /proc; -1 elsewhere)."""
    import os

    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0.0
    todo = [pid]
    try:
        while todo:
            p = todo.pop()
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
            for task in Path(f"/proc/{p}/task").iterdir():
                todo += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        return -1.0
    return total


def _kind(path: str) -> str:
    return "search" if path.endswith("/search") else "related" if path.endswith("/related") else "lookup"


def http_bench(calls: list[tuple[str, dict]], location: list[str], concurrency: int, seconds: float,
               serve_args: list[str], rate: float | None = None) -> None:
    import asyncio
    import os
    import socket
    import subprocess
    import sys

    import uvloop

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from httpload import Client, ResponseError

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    load_before = os.getloadavg()
    server = subprocess.Popen([sys.executable, "-m", "fixlore", "serve", "http", *location, "--port", str(port),
                               *serve_args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    async def _status(client: Client, path: str, params: dict) -> int:
        """The response's status (its body read whole), 0 when the connection broke."""
        try:
            return (await client.get(path, params))[0]
        except (ResponseError, OSError):
            return 0

    async def run() -> None:
        connections = concurrency if rate is None else 64     # paced: a late answer must not hold up the next call
        client = Client("127.0.0.1", port, connections)
        try:
            started = time.monotonic()
            while True:
                if server.poll() is not None:
                    raise SystemExit(f"the server stopped: {server.stderr.read().decode()[-2000:]}")
                try:
                    if (await client.get("/api/stats"))[0] == 200:
                        break
                except (OSError, ResponseError):       # not listening yet
                    await asyncio.sleep(0.2)
            print(f"server up in {time.monotonic() - started:.1f}s (port {port}, {' '.join(serve_args) or 'defaults'})")
            warm = calls[: 4 * concurrency]
            for path, params in warm:          # warm-up: vectors loaded, pools filled
                await client.get(path, params)

            async def load(todo: list[tuple[str, dict]] | None, until: float) -> tuple[list[float], int, float]:
                """`todo` once (None: cycle through every call until `until`), CONCURRENCY at a time."""
                latencies: list[tuple[str, float]] = []
                errors = 0
                position = 0

                async def worker() -> None:
                    nonlocal position, errors
                    while (position < len(todo)) if todo is not None else (time.monotonic() < until):
                        path, params = (todo or calls)[position % len(todo or calls)]
                        position += 1
                        t = time.perf_counter()
                        status = await _status(client, path, params)
                        latencies.append((_kind(path), time.perf_counter() - t))
                        errors += status != 200

                t0, cpu0, client0 = time.perf_counter(), _cpu_seconds(server.pid), time.process_time()
                await asyncio.gather(*(worker() for _ in range(concurrency)))
                cpu = (_cpu_seconds(server.pid) - cpu0, time.process_time() - client0)
                return latencies, errors, time.perf_counter() - t0, cpu

            async def paced(todo: list[tuple[str, dict]]) -> tuple[list[float], int, float]:
                """`todo` once, call i sent at start + i / RATE whatever the answers before it took (an open
                loop: the server's rate is fixed, not its clients); each latency is counted from when its
                call was due, so a client that fell behind counts its wait too."""
                latencies: list[tuple[str, float]] = []
                errors = 0

                async def one(due: float, path: str, params: dict) -> None:
                    nonlocal errors
                    await asyncio.sleep(max(0.0, due - time.perf_counter()))
                    status = await _status(client, path, params)
                    latencies.append((_kind(path), time.perf_counter() - due))
                    errors += status != 200

                t0, cpu0, client0 = time.perf_counter(), _cpu_seconds(server.pid), time.process_time()
                await asyncio.gather(*(one(t0 + i / rate, *call) for i, call in enumerate(todo)))
                cpu = (_cpu_seconds(server.pid) - cpu0, time.process_time() - client0)
                return latencies, errors, time.perf_counter() - t0, cpu

            def named(path: str, params: dict) -> tuple:
                return path, tuple(sorted(params.items()))

            asked = {named(*call) for call in warm}     # the first pass asks only what was never asked
            distinct = list({named(*c): c for c in calls if named(*c) not in asked}.values())
            first = (("first pass (each distinct call once)", f"{concurrency} concurrent", await load(distinct, 0))
                     if rate is None else
                     ("first pass (each distinct call once)", f"{rate:g} sent a second", await paced(distinct)))
            steady = (f"steady state ({seconds:.0f}s, cycling)", f"{concurrency} concurrent",
                      await load(None, time.monotonic() + seconds))
            for label, how, result in (first, steady):
                latencies, errors, elapsed, (server_cpu, client_cpu) = result
                ms = [v * 1000 for _, v in latencies]
                print(f"{label}: {len(ms)} requests in {elapsed:.1f}s at {how}: "
                      f"{len(ms) / elapsed:.1f} requests/s, p50 {statistics.median(ms):.1f} ms, "
                      f"p95 {_pct(ms, 0.95):.1f} ms, p99 {_pct(ms, 0.99):.1f} ms, errors {errors}")
                if server_cpu >= 0:
                    print(f"    CPU per request: server {server_cpu / len(ms) * 1000:.2f} ms, "
                          f"load generator {client_cpu / len(ms) * 1000:.2f} ms (what a shared machine's load "
                          f"does not change much)")
                for kind in ("search", "related", "lookup"):
                    part = [v * 1000 for k, v in latencies if k == kind]
                    if part:
                        print(f"    {kind:8s} {len(part):6d} requests   p50 {statistics.median(part):6.1f} ms   "
                              f"p95 {_pct(part, 0.95):6.1f} ms")
        finally:
            await client.close()

    try:
        uvloop.run(run())      # the load generator's own CPU is taken from the server: libuv's loop, as uvicorn's
    finally:
        server.terminate()
        server.wait(20)
    print("load average (1, 5, 15 min) before: {:.2f} {:.2f} {:.2f}; after: {:.2f} {:.2f} {:.2f}; cores: {}".format(
        *load_before, *os.getloadavg(), os.cpu_count()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="a fixlore run output folder")
    ap.add_argument("--synthetic", type=int, help="instead: the link bench's generated store of N issues and N PRs")
    ap.add_argument("--keep", type=Path, help="with --synthetic: build the store in this folder once, reuse it after")
    ap.add_argument("--answers", type=Path, help="with --synthetic: record the ranked answers in this file, or "
                                                 "compare them with it when it exists")
    ap.add_argument("--cases", type=int, default=1000, help="with --synthetic --http: cases asked about (4 calls each)")
    ap.add_argument("--repeat", type=int, default=3, help="passes over the queries (latency)")
    ap.add_argument("--http", action="store_true", help="over HTTP: start `fixlore serve http` and load it")
    ap.add_argument("--concurrency", type=int, default=8, help="with --http: clients at once")
    ap.add_argument("--seconds", type=float, default=20, help="with --http: how long to load the server")
    ap.add_argument("--rate", type=float, help="with --http: send the first pass's calls at this many a second "
                                               "(an open loop) instead of from CONCURRENCY clients")
    ap.add_argument("serve_args", nargs="*", help="with --http, after --: arguments for `fixlore serve http`")
    args = ap.parse_args()
    if args.synthetic and args.answers:
        answers(args.synthetic, args.keep, args.answers)
        return
    if args.synthetic and args.http:
        where, url, holder = _synthetic_store(args.synthetic, args.keep)
        try:
            http_bench(_synthetic_calls(url, args.cases), ["--db", url, "--case-index", str(where / "cases-index")],
                       args.concurrency, args.seconds, args.serve_args, args.rate)
        finally:
            if holder is not None:
                holder.cleanup()
        return
    if args.synthetic:
        synthetic(args.synthetic, args.keep)
        return
    if args.out is None:
        ap.error("give --out OUT (a fixlore run output folder) or --synthetic N")
    if args.http:
        calls = _http_calls(args.out)
        if not calls:
            raise SystemExit(f"no analysed case with a symptom in {args.out}/cases.jsonl")
        http_bench(calls, ["--out", str(args.out)], args.concurrency, args.seconds, args.serve_args, args.rate)
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
