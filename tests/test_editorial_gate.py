"""The editorial check as the gate before a digest is written (issue #22): a finding fails the
publish (nothing written, each finding named) or, by a flag, the flagged rows are marked and the
findings disclosed; run.json says what the check found."""

from __future__ import annotations

import copy
import json
import os
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from fixlore.compose import gate as gate_mod
from fixlore.compose.check import check_digest

from conftest import fixlore_here

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "worlds" / "demo"


def _fixlore(*args: str) -> subprocess.CompletedProcess:
    """The command run in this process (conftest.fixlore_here: the same main, exit code and
    output), none of the caller's FIXLORE_* settings in its environment."""
    return fixlore_here(*args, env={name: None for name in os.environ if name.startswith("FIXLORE_")})


@pytest.fixture(scope="module")
def demo(demo_run) -> Path:
    """`fixlore run` of the demo world with its defaults, made once a session (conftest; read here,
    never written): the run's own gate is what run.json records."""
    return demo_run


def _row(digest: dict, lang: str, case: str) -> dict:
    return next(r for repo in digest["digests"][lang]["repos"] for r in repo["rows"] if r["case"] == case)


def _planted(demo: Path, tmp_path: Path) -> Path:
    """The demo's case export with one analyst's change cut mid-sentence ("…，例如。")."""
    lines = []
    for line in (demo / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if case["repo"] == "demo-ai/infer-serve" and case["number"] == 31:
            case["written"]["change"] = "在 API 层增加参数校验，例如"
        lines.append(json.dumps(case, ensure_ascii=False))
    path = tmp_path / "cases.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_run_json_discloses_what_the_check_found_in_the_digest_it_wrote(demo):
    run = json.loads((demo / "run.json").read_text(encoding="utf-8"))
    written = json.loads((demo / "digest.json").read_text(encoding="utf-8"))
    again = gate_mod.record("mark", check_digest(written))
    assert run["check"]["mode"] == "mark"
    assert run["check"]["by_class"] == again["by_class"] and run["check"]["found"] == again["found"]
    for f in run["check"]["found"]:          # each flagged row is marked in the digest its reader gets
        lang, case = gate_mod._parts(f["where"])
        if case:
            assert _row(written, lang, case)["answer"].startswith(gate_mod._MARK[lang])


def test_a_planted_defect_fails_the_publish_and_nothing_is_written(demo, tmp_path):
    cases = _planted(demo, tmp_path)
    refused = _fixlore("digest", "--cases", str(cases), "--run", str(demo / "run.json"), "--out",
                       str(tmp_path / "refused"), "--on-findings", "fail")
    assert refused.returncode == 1
    assert "zh infer-serve#31 answer: cut" in refused.stderr and "\n" not in refused.stderr.strip()
    assert not (tmp_path / "refused" / "digest.json").exists()
    assert not (tmp_path / "refused" / "digest.zh.md").exists()


def test_by_the_flag_the_planted_row_is_marked_and_the_finding_disclosed_in_the_readers_language(demo, tmp_path):
    cases = _planted(demo, tmp_path)
    done = _fixlore("digest", "--cases", str(cases), "--run", str(demo / "run.json"), "--out",
                    str(tmp_path / "marked"), "--on-findings", "mark")
    assert done.returncode == 0, done.stderr
    written = json.loads((tmp_path / "marked" / "digest.json").read_text(encoding="utf-8"))
    assert _row(written, "zh", "infer-serve#31")["answer"].startswith("【编辑检查】")
    note = next(i for i in written["digests"]["zh"]["disclosure"] if i["label"] == "编辑检查")
    assert "截断" in note["text"] and "infer-serve#31" in note["text"]
    assert not any(word in note["text"] for word in ("cut", "answer", "arithmetic"))     # no raw class names
    md = (tmp_path / "marked" / "digest.zh.md").read_text(encoding="utf-8").splitlines()
    assert any(line.startswith("- **编辑检查**") and "infer-serve#31" in line for line in md)


def test_a_bad_mode_is_one_line_before_anything_runs(tmp_path):
    done = _fixlore("run", "--world", str(DEMO), "--out", str(tmp_path / "x"), "--on-findings", "warn")
    assert done.returncode == 2 and "--on-findings must be fail or mark" in done.stderr
    assert not (tmp_path / "x").exists()


def test_the_gate_names_each_finding_and_records_before_it_refuses(demo):
    data = json.loads((demo / "digest.json").read_text(encoding="utf-8"))
    _row(data, "zh", "infer-serve#31")["answer"] = "在 API 层增加参数校验，例如。"
    into: dict = {}
    with pytest.raises(gate_mod.DigestRejected) as caught:
        gate_mod.gate(data, "fail", into)
    assert "zh infer-serve#31 answer: cut" in str(caught.value) and caught.value.exit_code == 1
    assert into["mode"] == "fail" and into["by_class"]["cut"] >= 1
    assert gate_mod.gate(data, "mark") == check_digest(data)


def _cut_one_row(real):
    """build_digest with the first row's answer cut, as a faulty writer would leave it."""
    def build(*args, **kwargs):
        d = real(*args, **kwargs)
        row = next(r for repo in d["repos"] for r in repo["rows"])
        row["answer"] = row["answer"].rstrip("。. ") + ("，例如。" if d["lang"] == "zh" else ", such as.")
        return d
    return build


def test_a_series_edition_with_a_finding_is_refused_its_number_stays_free_and_by_the_flag_it_rebuilds_marked(
        tmp_path, monkeypatch):
    from fixlore.series import edition, publish
    from fixlore.store import Store
    from fixlore.store.ledger import Ledger

    create = _fixlore("series", "create", "demo", "--title", "演示仓精选", "--since", "2026-09-17T00:00:00+08:00",
                      "--top-k", "5", "--out", str(tmp_path))
    assert create.returncode == 0, create.stderr
    monkeypatch.setattr(edition, "build_digest", _cut_one_row(edition.build_digest))
    when = datetime(2026, 9, 18, 15, tzinfo=timezone(timedelta(hours=8)))
    with pytest.raises(gate_mod.DigestRejected) as caught:
        publish.publish_edition("demo", out=tmp_path, world=DEMO, as_of=when)
    assert ": cut (" in str(caught.value)
    store = Store.open(publish.default_db(tmp_path))
    try:
        assert Ledger(store).editions("demo") == []
    finally:
        store.close()
    assert not (tmp_path / "editions").exists() or not any((tmp_path / "editions").rglob("digest.json"))

    result = publish.publish_edition("demo", out=tmp_path, world=DEMO, as_of=when, on_findings="mark")
    folder = Path(result["folder"])
    zh = json.loads((folder / "digest.json").read_text(encoding="utf-8"))["digests"]["zh"]
    assert next(r for repo in zh["repos"] for r in repo["rows"])["answer"].startswith("【编辑检查】")
    store = Store.open(publish.default_db(tmp_path))
    try:
        rebuilt = publish.rebuild_edition(store, "demo", result["number"])
    finally:
        store.close()
    assert rebuilt["digest.zh.md"] == (folder / "digest.zh.md").read_bytes()
