"""Every output of a run says its format, and a reader refuses a format it does not read
(issue #26): cases.jsonl line by line, metadata.json, and the two index folders."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from fixlore.core import formats
from fixlore.core.errors import ConfigError, FixloreError
from fixlore.edges.caseexport import read_cases_jsonl
from fixlore.retrieval.base import KnowledgeBase


def test_every_output_of_a_run_carries_its_format(demo_run):
    lines = (demo_run / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    assert lines and all(json.loads(line)["format"] == formats.CASES for line in lines)
    assert json.loads((demo_run / "run.json").read_text())["format"] == formats.RUN
    assert json.loads((demo_run / "digest.json").read_text())["format"] == formats.DIGEST
    assert json.loads((demo_run / "metadata.json").read_text())["fixlore_format"] == formats.DATASETTE
    for index in ("kb", "cases-index"):
        with sqlite3.connect(demo_run / index / "kb.sqlite") as db:
            assert db.execute("SELECT value FROM meta WHERE key='format'").fetchone() == (formats.INDEX,), index


def test_a_case_line_of_another_format_is_refused_and_an_unversioned_one_read(demo_run, tmp_path):
    lines = (demo_run / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    unversioned = tmp_path / "old.jsonl"
    unversioned.write_text("\n".join(json.dumps({k: v for k, v in json.loads(line).items() if k != "format"})
                                     for line in lines) + "\n", encoding="utf-8")
    assert len(read_cases_jsonl(unversioned)) == len(lines)
    newer = tmp_path / "new.jsonl"
    newer.write_text(lines[0] + "\n" + lines[1].replace(formats.CASES, "fixlore-cases/9") + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"new\.jsonl:2: a 'fixlore-cases/9' line"):
        read_cases_jsonl(newer)


def test_an_index_of_another_format_is_refused_and_an_unstamped_one_stamped(demo_run, tmp_path):
    index = tmp_path / "kb"
    shutil.copytree(demo_run / "cases-index", index)
    with sqlite3.connect(index / "kb.sqlite") as db:
        db.execute("DELETE FROM meta WHERE key='format'")
    with KnowledgeBase.open(index, create=False) as kb:          # written before the stamp: the first format
        assert kb.stats()["format"] == formats.INDEX
    with sqlite3.connect(index / "kb.sqlite") as db:
        db.execute("UPDATE meta SET value='fixlore-index/9' WHERE key='format'")
    with pytest.raises(FixloreError, match="is fixlore-index/9; this fixlore reads"):
        KnowledgeBase.open(index, create=False)
