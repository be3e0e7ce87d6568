"""The knowledge base on the project's worlds, scored against their truth.yaml `kb_refs`.

Runs only when the world (with its docs/) exists. Each module-scoped fixture builds a real
index of the world's docs (about half a minute for the Ascend world on 2 cores).

Issue #5's acceptance target on worlds/ascend-2026-09: among the 50 selected cases, the right
document first for >= 34 of the 37 that have one, and no reference for >= 11 of the 13 that
have none. Which threshold is used matters, so each figure says where its threshold came from.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fixlore.retrieval.base import DEFAULT_THRESHOLD, KnowledgeBase
from fixlore.kb.calibrate import best_threshold, cross_validate, evaluate, rank_labelled
from fixlore.retrieval.embed import UseEmbedder
from fixlore.evaluate.kb_truth import labelled_cases

ROOT = Path(__file__).resolve().parents[1]
ASCEND = ROOT / "worlds" / "ascend-2026-09"
DEMO = ROOT / "worlds" / "demo"


def _ready(world: Path) -> bool:
    return (world / "truth.yaml").is_file() and (world / "docs").is_dir()


@pytest.fixture(scope="module")
def embedder():
    return UseEmbedder()


def _rows(world: Path, tmp_path_factory, embedder):
    kb = KnowledgeBase.open(tmp_path_factory.mktemp(world.name) / "index", embedder=embedder)
    kb.ingest_folder(world / "docs", prefix="docs")
    labelled = [(lc.query, lc.expected or None) for lc in labelled_cases(world)]
    rows = rank_labelled(kb, labelled)
    kb.close()
    return rows


@pytest.fixture(scope="module")
def ascend_rows(tmp_path_factory, embedder):
    if not _ready(ASCEND):
        pytest.skip("worlds/ascend-2026-09 (with docs/) is not there")
    return _rows(ASCEND, tmp_path_factory, embedder)


@pytest.fixture(scope="module")
def demo_rows(tmp_path_factory, embedder):
    if not _ready(DEMO):
        pytest.skip("worlds/demo (with docs/) is not there")
    return _rows(DEMO, tmp_path_factory, embedder)


def test_ascend_has_the_selected_cases_of_the_digest(ascend_rows):
    assert len(ascend_rows) == 50
    assert sum(1 for r in ascend_rows if r.expected) == 37


def test_ascend_ranking_puts_the_right_document_first(ascend_rows):
    """Threshold-free: the expected document leads the ranking for nearly every case that has one."""
    with_doc = [r for r in ascend_rows if r.expected]
    first = sum(1 for r in with_doc if r.docs and r.docs[0][0] in r.expected)
    assert first >= 35


def test_ascend_acceptance_with_the_threshold_calibrated_on_its_truth(ascend_rows):
    """In-sample: the threshold is fitted on these 50 cases (what `fixlore kb calibrate` saves)."""
    res = evaluate(ascend_rows, best_threshold(ascend_rows))
    assert res["right_doc_first"] >= 34 and res["none_when_none"] >= 11, res


@pytest.mark.xfail(reason="held-out figures fall short of the target (see docs/kb.md): the threshold "
                          "window that separates the 13 no-doc cases is narrow", strict=False)
def test_ascend_acceptance_cross_validated(ascend_rows):
    """Held out: 2-fold, each half scored with the threshold fitted on the other half (5 shuffles)."""
    cv = cross_validate(ascend_rows, folds=2, repeats=5)
    assert cv["right_doc_first"] >= 34 and cv["none_when_none"] >= 11, cv


def test_ascend_with_the_default_threshold_never_cites_a_wrong_document(ascend_rows):
    """Out of sample: the default threshold was calibrated on worlds/demo, not on this world."""
    res = evaluate(ascend_rows, DEFAULT_THRESHOLD)
    assert res["wrong_doc_cited"] == 0
    assert res["right_doc_first"] >= 32, res


def test_demo_right_document_first_with_the_default_threshold(demo_rows):
    res = evaluate(demo_rows, DEFAULT_THRESHOLD)
    assert res["right_doc_first"] == res["with_doc"] and res["none_when_none"] == res["without_doc"], res
