"""Benchmark: the whole `fixlore run` on a world, per stage (issue #10's goal: <= 20 s on Ascend).

    .venv/bin/python bench/run.py [--world worlds/ascend-2026-09] [--runs 2] [--keep DIR]

Runs the real command (replay server on loopback, harvester, every stage) into a fresh output
folder each time and prints, per run, the wall time of the command, each stage's seconds as the
run recorded them in run.json, the harvest's phases and its request count, and the load average,
because the 2-core machine is shared and not the same hardware from one session to the next.

Measured on 2026-12-03 (Ascend world, 1,289 requests): 17.6 s for the command at load ~1
(harvest 4.6, funnel 0.2, link 0.3, kb 4.8, analyse 2.3, compose 0.2, serve 3.2); 24.9 s at load
2.7 while other work shared the cores (harvest 8.9, kb 5.2, analyse 2.8, serve 3.8). The issue
that set the goal measured 37 s on an earlier session's slower machine. On 2026-12-07 (second
session, load ~2): 10.9 and 11.5 s (harvest 3.5-3.8, link 0.4-0.5, kb 1.5-1.6, analyse 2.2-2.3,
compose 0.4, serve 0.7; 1,301 requests), the vector cache warm from earlier runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one_run(world: Path, out: Path) -> dict:
    fixlore = Path(sys.executable).parent / "fixlore"
    started = time.perf_counter()
    done = subprocess.run([str(fixlore), "run", "--world", str(world), "--out", str(out)],
                          capture_output=True, text=True)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"fixlore run failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    record = json.loads((out / "run.json").read_text(encoding="utf-8"))
    return {"wall": wall, "record": record, "load": os.getloadavg()[0]}


def requests_of(record: dict) -> int | None:
    value = record.get("requests")
    if isinstance(value, dict) and isinstance(value.get("total"), int):
        return value["total"]
    return value if isinstance(value, int) else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--world", type=Path, default=ROOT / "worlds" / "ascend-2026-09")
    ap.add_argument("--runs", type=int, default=2, help="how many times to run the command")
    ap.add_argument("--keep", type=Path, default=None, help="keep the last run's output here")
    args = ap.parse_args(argv)
    if not (args.world / "world.yaml").exists():
        print(f"bench/run.py: {args.world} is not a world (no world.yaml)", file=sys.stderr)
        return 2
    print(f"fixlore run --world {args.world} x {args.runs}; cores {os.cpu_count()}")
    for i in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="fixlore-bench-run-") as tmp:
            result = one_run(args.world, Path(tmp) / "out")
            record = result["record"]
            stages = ", ".join(f"{s['name']} {s['seconds']:.1f}" for s in record.get("stages", []))
            harvest = next((s for s in record.get("stages", []) if s["name"] == "harvest"), {})
            phases = harvest.get("summary", {}).get("phase_seconds", {})
            reqs = requests_of(record)
            print(f"run {i + 1}: {result['wall']:.1f} s wall (load {result['load']:.1f}); stages: {stages}")
            if phases:
                print("  harvest phases: " + ", ".join(f"{k} {v:.1f}" for k, v in phases.items())
                      + (f"; requests {reqs}" if reqs is not None else ""))
            if args.keep and i == args.runs - 1:
                shutil.rmtree(args.keep, ignore_errors=True)
                shutil.copytree(Path(tmp) / "out", args.keep)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
