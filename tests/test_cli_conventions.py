"""The CLI by convention: help on every option, the run folder named --out everywhere, --json on
run, progress reported through the callback the CLI injects, and a summary in pipeline order
that ends with the paths written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer

from fixlore.cli.commands import app, main
from fixlore.pipeline import RunRequest, run_pipeline
from fixlore.edges.summary import summary_lines

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"


def _params(command, path):
    for param in command.params:
        yield path, param
    for name, sub in (getattr(command, "commands", None) or {}).items():
        yield from _params(sub, f"{path} {name}")


def test_every_option_and_argument_has_help():
    missing = [f"{path} {param.opts or param.name}" for path, param in _params(typer.main.get_command(app), "fixlore")
               if not getattr(param, "hidden", False) and not getattr(param, "help", None)]
    assert not missing, missing


def test_the_run_folder_is_named_out_wherever_a_run_is_read():
    command = typer.main.get_command(app)
    readers = ["export cases", "explain", "score", "cases search", "cases status", "cases related", "serve http", "serve mcp",
               "kb search", "kb stats", "kb calibrate", "kb build"]
    for name in readers:
        cmd = command
        for part in name.split():
            cmd = cmd.commands[part]
        out = [p for p in cmd.params if "--out" in getattr(p, "opts", [])]
        assert out and out[0].envvar == "FIXLORE_OUT", name


# probe's --out is the file its findings go to, not a run folder: a run's FIXLORE_OUT must not name it
_NOT_THE_COMMON_OPTION = {("fixlore probe", "--out")}


def test_every_command_reads_the_common_options_from_one_variable():
    """--out, --db and --config mean the run folder, the store and the settings file on every
    command that takes them, so each reads the same variable everywhere (issue #26)."""
    env = {"--out": "FIXLORE_OUT", "--db": "FIXLORE_DB", "--config": "FIXLORE_CONFIG"}
    wrong = [f"{path} {opt} (env {param.envvar})" for path, param in _params(typer.main.get_command(app), "fixlore")
             for opt in getattr(param, "opts", []) if opt in env and (path, opt) not in _NOT_THE_COMMON_OPTION
             and param.envvar != env[opt]]
    assert not wrong, wrong


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo") / "out"
    calls: list[tuple[str, int, int | None]] = []
    info = run_pipeline(RunRequest(world=DEMO, out=out), progress=lambda *a: calls.append(a))
    return out, info, calls


def test_stages_that_take_a_while_report_progress_through_the_callback(demo_run):
    _, info, calls = demo_run
    stages = {name.split(":")[0] for name, _, _ in calls}
    assert {"kb", "analyse", "serve"} <= stages, stages
    for name, done, total in calls:
        assert done >= 0 and (total is None or 0 <= done <= total), (name, done, total)
    finals = {name: (done, total) for name, done, total in calls}
    analysed = next(s["summary"]["analysed"] for s in info["stages"] if s["name"] == "analyse")
    assert finals["analyse: cases"] == (analysed, analysed)
    for stage in info["stages"]:                 # every stage shows it ran, start and end
        assert (stage["name"], 0, 1) in calls and finals[stage["name"]] == (1, 1), stage["name"]


def test_summary_follows_the_pipeline_and_ends_with_the_paths(demo_run):
    out, info, _ = demo_run
    rows = summary_lines(info)
    labels = [label for label, _ in rows]
    order = ["repos harvested", "issues considered", "→ closed in the window", "→ resolved by users",
             "→ pool (floods removed)", "→ sent to analysis", "→ kept for the digest", "API requests", "time (s)"]
    assert [labels.index(x) for x in order] == sorted(labels.index(x) for x in order)
    funnel = info["funnel"]
    values = dict(rows)
    assert values["→ sent to analysis"].startswith(f"{funnel['analysis_candidates']} ")
    assert f"below the top K {funnel['rank']}" in values["→ sent to analysis"]
    assert "top_k" not in " ".join(labels)                       # a setting is not a count
    written = [(label, value) for label, value in rows if label.startswith("wrote ")]
    assert rows[-len(written):] == written and len(written) >= 8
    for label, value in written:
        if label != "wrote store":
            assert Path(value).exists(), value
    assert ("wrote cases", str(out / "cases.jsonl")) in written


def test_commands_read_the_run_folder_from_out(demo_run, capsys):
    out, _, _ = demo_run
    for argv, expected in ((["explain", "demo-ai/modelkit#104", "--out", str(out), "--json"], '"number": 104'),
                           (["score", "--truth", str(DEMO / "truth.yaml"), "--out", str(out), "--json"], '"fix"'),
                           (["kb", "stats", "--out", str(out)], "chunks"),
                           (["export", "cases", "--out", str(out)], '"repo":"demo-ai/modelkit"'),
                           (["cases", "status", "demo-ai/modelkit#106", "--out", str(out), "--json"], "fix_not_landed")):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        captured = capsys.readouterr()
        assert exit_info.value.code == 0, (argv, captured.err)
        assert expected in captured.out, argv


def test_commands_take_the_run_folder_from_fixlore_out(demo_run, capsys, monkeypatch, tmp_path):
    """FIXLORE_OUT alone is enough for the commands that read or write beside a run (issue #26);
    for export cases and analyse it names a folder, never a file to write."""
    out, _, _ = demo_run
    monkeypatch.setenv("FIXLORE_OUT", str(out))
    analysed = out / "cases.analysed.jsonl"
    analysed.unlink(missing_ok=True)
    for argv, expected in ((["export", "cases"], '"repo":"demo-ai/modelkit"'),
                           (["series", "list"], ""),
                           (["digest"], "digest.html"),
                           (["check"], "clean: "),
                           (["analyse"], "cases.analysed.jsonl")):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        captured = capsys.readouterr()
        assert exit_info.value.code == 0, (argv, captured.err)
        assert expected in captured.out + captured.err, (argv, captured.out, captured.err)
    assert analysed.is_file() and analysed.read_text().count("\n") == (out / "cases.jsonl").read_text().count("\n")
    analysed.unlink()
    monkeypatch.setenv("FIXLORE_OUT", str(tmp_path / "cases.jsonl"))
    for argv in (["export", "cases"], ["analyse", "--cases", str(out / "cases.jsonl")]):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 2 and "is not a run folder" in capsys.readouterr().err, argv
    assert not (tmp_path / "cases.jsonl").exists()


def test_run_json_prints_run_json(tmp_path, capsys):
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_info:
        main(["run", "--world", str(DEMO), "--out", str(out), "--json", "--stage", "harvest", "--stage", "funnel"])
    captured = capsys.readouterr()
    assert exit_info.value.code == 0, captured.err
    printed = json.loads(captured.out)
    assert printed == json.loads((out / "run.json").read_text()) and printed["status"] == "ok"
    assert captured.err == ""                                     # no bars and no table around the JSON
