"""The container as the README uses it (issue #26): its lines are the Dockerfile's, they run the
image as the caller (`--user`) into a folder made first, and the image's command writes nowhere
but the out folder and HOME. Where a docker daemon answers, the image is built and the README's
lines are run as written; elsewhere that test is skipped and says why."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _readme_lines() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"### In a container\s+```sh\n(.*?)```", text, re.S)
    assert block, "README has no container block"
    return [line.split("  #")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def _dockerfile() -> str:
    return (ROOT / "Dockerfile").read_text(encoding="utf-8")


def test_the_readme_runs_the_image_as_the_caller_into_a_folder_made_first():
    lines = _readme_lines()
    header = [line[1:].strip() for line in _dockerfile().splitlines() if line.startswith("#   ")]
    assert lines == header, "the README's container lines and the Dockerfile's header differ"
    runs = [line for line in lines if line.startswith("docker run")]
    assert runs and all('--user "$(id -u):$(id -g)"' in line for line in runs if " -v " in line)
    assert lines.index("mkdir -p out") < lines.index(runs[0])


def test_the_images_command_writes_nowhere_but_out_and_home(tmp_path):
    """The image's CMD, run from a working folder nobody may write (as /app is for any --user)."""
    cmd = re.search(r'^CMD (\[.*\])$', _dockerfile(), re.M)
    assert cmd
    import json

    argv = json.loads(cmd.group(1))
    app, home = tmp_path / "app", tmp_path / "home"
    (app / "worlds").mkdir(parents=True)
    home.mkdir()
    shutil.copytree(ROOT / "worlds" / "demo", app / "worlds" / "demo")
    (app / "out").mkdir()
    app.chmod(0o555)
    try:
        proc = subprocess.run([sys.executable, "-m", "fixlore", *argv], cwd=app, capture_output=True, text=True,
                              timeout=600, env={**os.environ, "HOME": str(home), "NO_COLOR": "1",
                                                "PYTHONDONTWRITEBYTECODE": "1"})
    finally:
        app.chmod(0o755)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert (app / "out" / "demo" / "digest.html").is_file()
    assert sorted(p.name for p in app.iterdir()) == ["out", "worlds"]


def _docker_answers() -> bool:
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _docker_answers(), reason="no docker daemon answers here: the image is not built")
def test_the_readme_lines_build_and_run_the_image(tmp_path):
    work = tmp_path / "work"
    shutil.copytree(ROOT, work, ignore=shutil.ignore_patterns(".git", ".venv", "out", "__pycache__", ".pytest_cache"))
    for line in _readme_lines():
        if "serve http" in line:
            continue                       # a server until stopped; the demo run is what is checked
        proc = subprocess.run(line, shell=True, cwd=work, capture_output=True, text=True, timeout=1800)
        assert proc.returncode == 0, (line, proc.stderr[-2000:])
    digest = work / "out" / "demo" / "digest.html"
    assert digest.is_file() and digest.stat().st_uid == os.getuid()
