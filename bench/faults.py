"""Benchmark: what a dead host costs a whole `fixlore run` on the demo world (issue #21: a dead LLM
endpoint and a dead platform host each cost under 30 s of a run, and the digest says what fell back).

    .venv/bin/python bench/faults.py [--world worlds/demo] [--only NAME ...] [--cap 900] [--src DIR]

Each scenario runs the real command in a fresh output folder, on loopback only, and is set
against its clean twin:

- LLM endpoint (FIXLORE_LLM_BASE_URL): the scripted fake chat server (clean), a port nothing
  listens on (dead), a port that accepts and never answers (hanging). The replay of the world is
  the usual `--world` one.
- Platform host (`--base-url` to a replay server this script runs): the server answers its
  first N requests, then every request gets a 500, is held unanswered, or finds the server
  stopped (connection refused).

Printed per scenario: exit code, wall seconds and the extra over its clean twin, the requests the
dying host was sent after it died, and the digest's disclosure sentences that say what fell back.
A scenario still running after ``--cap`` seconds is stopped and reported as such. ``--src`` runs
another checkout's package (e.g. main's, for a before/after) with this script's servers.

Measured on 2026-12-05, demo world, the platform dying after 60 requests, load 3.5-5 on the shared
2-core machine (extra seconds over the clean twin; before = main 6584c61, after = this branch):

    scenario           before                                after
    llm-dead           +184 s, kb check failure not said     +1.5 s, 0 completions sent; kb check and
                                                             12 fallbacks disclosed with the endpoint
    llm-hanging        stopped at 900 s (15 x 60 s timeouts;  +11 s (one probe, 10 s), 1 connection
                       ~1 h 45 min projected)
    platform-500       +847 s, 72 requests after death,       +23 s, 9 requests after death, exit 6,
                       exit 6                                 repos not read named (host-down)
    platform-stopped   +81 s, exit 4: the run stopped,        +13 s, exit 6, the run finished
                       no digest
    platform-hang      stopped at 900 s                       +51 s (two 30 s read timeouts: the
                                                             --read-timeout bounds a hung host)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from fixlore.replay.chatscript import FakeOpenAI, Ok  # noqa: E402
from fixlore.replay.deadhosts import DyingReplay, SilentPort, closed_port  # noqa: E402
from fixlore.sources.offline import read_world_meta  # noqa: E402

WORDS = ("could not be read", "passage check", "fell back", "stopped answering", "未能读取", "回退")


def fixlore_run(args: list[str], env: dict[str, str], src: Path, cap: float, out: Path) -> dict:
    env = {**os.environ, **env, "PYTHONPATH": str(src)}
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "fixlore", "run", "--out", str(out), "-q", *args], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        _, err = child.communicate(timeout=cap)
        code: int | str = child.returncode
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        _, err = child.communicate()
        code = f"stopped after {cap:.0f} s"
    wall = time.perf_counter() - started
    run = json.loads((out / "run.json").read_text(encoding="utf-8")) if (out / "run.json").is_file() else {}
    return {"code": code, "wall": wall, "stderr": err.strip().splitlines(), "run": run,
            "disclosure": disclosure(out / "digest.en.md")}


def disclosure(path: Path) -> list[str]:
    """The disclosure's sentences that say what could not be read or fell back."""
    if not path.is_file():
        return []
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", path.read_text(encoding="utf-8"))
    found = []
    for line in text.splitlines():
        if line.startswith("- **"):
            found += [s.strip() for s in re.split(r"(?<=[.;])\s+", line) if any(w in s for w in WORDS)]
    return found


def llm_env(base_url: str) -> dict[str, str]:
    return {"FIXLORE_LLM_BASE_URL": base_url, "FIXLORE_LLM_MODEL": "bench-model", "OPENAI_API_KEY": "unused"}


def live_args(world: Path, base_url: str) -> list[str]:
    """`fixlore run` against a replay server this script runs, as against a real site."""
    meta = read_world_meta(world)
    args = ["--platform", meta["platform"], "--base-url", base_url, "--since", meta["window"]["since"],
            "--no-rate-limit", "--kb-docs", str(world / "docs")]
    for org in meta["orgs"]:
        args += ["--org", org]
    if meta.get("rank_top_k"):
        args += ["--rank-top-k", str(meta["rank_top_k"])]
    return args


def platform_run(world: Path, how: str, after: int, src: Path, cap: float, out: Path) -> dict:
    srv = DyingReplay(world, after=after if how != "clean" else 10**9, how="hang" if how == "hang" else "500")
    srv.start()
    stopper = None
    if how == "stopped":
        def stop_when_due() -> None:
            while srv.answered < after:
                time.sleep(0.01)
            srv.stop()
        stopper = threading.Thread(target=stop_when_due, daemon=True)
        stopper.start()
    try:
        result = fixlore_run(live_args(world, srv.base_url), {"FIXLORE_LLM_BASE_URL": ""}, src, cap, out)
    finally:
        srv.stop()
    result["sent_after_death"] = srv.unanswered if how != "stopped" else "refused"
    return result


def scenarios(world: Path, after: int) -> dict:
    return {
        "clean": lambda src, cap, out: fixlore_run(["--world", str(world)], {}, src, cap, out),
        "llm-clean": lambda src, cap, out: _with_fake(world, src, cap, out),
        "llm-dead": lambda src, cap, out: fixlore_run(["--world", str(world)],
                                                      llm_env(f"http://127.0.0.1:{closed_port()}/v1"), src, cap, out),
        "llm-hanging": lambda src, cap, out: _with_silent(world, src, cap, out),
        "platform-clean": lambda src, cap, out: platform_run(world, "clean", after, src, cap, out),
        "platform-500": lambda src, cap, out: platform_run(world, "500", after, src, cap, out),
        "platform-stopped": lambda src, cap, out: platform_run(world, "stopped", after, src, cap, out),
        "platform-hang": lambda src, cap, out: platform_run(world, "hang", after, src, cap, out),
    }


def _answer(user: str) -> Ok:
    """The fake endpoint's reply: a verdict to the kb passage check, else a row built from the request."""
    if "\n\nPASSAGE\n" in user:
        return Ok(content={"explains": True, "why": "bench"})
    return Ok()


def _with_fake(world: Path, src: Path, cap: float, out: Path) -> dict:
    with FakeOpenAI(default=_answer) as fake:
        result = fixlore_run(["--world", str(world)], llm_env(fake.base_url), src, cap, out)
        result["llm_requests"] = len(fake.requests)
    return result


def _with_silent(world: Path, src: Path, cap: float, out: Path) -> dict:
    with SilentPort() as silent:
        result = fixlore_run(["--world", str(world)], llm_env(silent.base_url), src, cap, out)
        result["llm_connections"] = silent.accepted
    return result


TWIN = {"llm-dead": "llm-clean", "llm-hanging": "llm-clean", "platform-500": "platform-clean",
        "platform-stopped": "platform-clean", "platform-hang": "platform-clean"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--world", type=Path, default=ROOT / "worlds" / "demo")
    ap.add_argument("--only", nargs="*", default=None, help="scenario names (default: all)")
    ap.add_argument("--cap", type=float, default=900.0, help="seconds after which a scenario is stopped")
    ap.add_argument("--after", type=int, default=60, help="requests the dying platform host answers")
    ap.add_argument("--src", type=Path, default=ROOT / "src", help="the fixlore package's src folder to run")
    args = ap.parse_args(argv)
    table = scenarios(args.world, args.after)
    names = args.only or list(table)
    unknown = [n for n in names if n not in table]
    if unknown:
        print(f"bench/faults.py: unknown scenario(s) {', '.join(unknown)}; known: {', '.join(table)}", file=sys.stderr)
        return 2
    for twin in {TWIN[n] for n in names if n in TWIN} - set(names):
        names.insert(0, twin)
    print(f"fixlore run on {args.world} from {args.src}; cap {args.cap:.0f} s; load {os.getloadavg()[0]:.1f}")
    walls: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bench-faults-") as tmp:
        for name in names:
            r = table[name](args.src, args.cap, Path(tmp) / name)
            walls[name] = r["wall"]
            extra = f" ({r['wall'] - walls[TWIN[name]]:+.1f} s vs {TWIN[name]})" if name in TWIN else ""
            req = (r["run"].get("requests") or {})
            bits = [f"exit {r['code']}", f"{r['wall']:.1f} s{extra}", f"platform requests {req.get('total', '?')}"]
            for key in ("sent_after_death", "llm_requests", "llm_connections"):
                if key in r:
                    bits.append(f"{key.replace('_', ' ')} {r[key]}")
            print(f"\n{name}: " + "; ".join(bits))
            for line in [ln for ln in r["stderr"] if "stopped answering" in ln or "not read" in ln][:3]:
                print(f"  stderr: {line[:300]}")
            for sentence in r["disclosure"]:
                print(f"  digest: {sentence[:400]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
