"""Benchmark: what a no-change re-run of the whole `fixlore run` costs in requests (issue #21's
bound: <= 190 on the Ascend world), and whether it writes the same case export.

    .venv/bin/python bench/rerun.py [--world worlds/ascend-2026-09] [--since 2026-09-17T00:00:00+08:00]

Runs the real command twice into one output folder (the second run reads the first one's store)
and prints, for each run, the requests by endpoint, the timing audit's checks (fresh and reused
from an earlier run), and whether the two `cases.jsonl` are the same byte for byte.

Measured on 2026-12-05 (Ascend world, --since 2026-09-17T00:00:00+08:00): first run 1,301
requests (1,370 since PR comments are read, 2026-12-07), re-run 190 (3 org listings + 187 issue lists; 21 audit checks reused, none fetched),
export identical. Before the audit reused its checks the re-run cost 232: 21 single issues and
21 single PRs fetched again for the audit.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one_run(world: Path, since: str | None, out: Path) -> dict:
    argv = [sys.executable, "-m", "fixlore", "run", "--world", str(world), "--out", str(out), "-q"]
    done = subprocess.run(argv + (["--since", since] if since else []), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"fixlore run failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    record = json.loads((out / "run.json").read_text(encoding="utf-8"))
    audit = next((s["summary"].get("audit", {}) for s in record.get("stages", []) if s.get("name") == "link"), {})
    return {"requests": record["requests"], "audit": audit, "export": (out / "cases.jsonl").read_bytes()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--world", type=Path, default=ROOT / "worlds" / "ascend-2026-09")
    ap.add_argument("--since", default="2026-09-17T00:00:00+08:00")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fixlore-rerun-") as tmp:
        out = Path(tmp) / "out"
        runs = [one_run(args.world, args.since, out) for _ in range(2)]
    for name, run in zip(("first run", "no-change re-run"), runs):
        audit = run["audit"]
        print(f"{name}: {run['requests']['total']} requests; audit {audit.get('checked', 0)} checked, "
              f"{audit.get('reused', 0)} reused from an earlier run")
        for endpoint, n in sorted(run["requests"]["by_endpoint"].items()):
            print(f"  {n:6}  {endpoint}")
    same = runs[0]["export"] == runs[1]["export"]
    print(f"cases.jsonl identical between the two runs: {'yes' if same else 'NO'}")
    bound = 190
    print(f"re-run bound (issue #21): {runs[1]['requests']['total']} <= {bound}: "
          f"{'met' if runs[1]['requests']['total'] <= bound else 'NOT met'}")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
