"""Assemble the whole world: hand-written cases, generated filler, docs corpus."""
from __future__ import annotations

from . import cases_mindcluster, cases_mm, cases_msmodeling, cases_msmodelslim, cases_small, docs_corpus, filler
from .world import World

CASE_MODULES = [cases_msmodeling, cases_mm, cases_mindcluster, cases_msmodelslim, cases_small]


def deep_cases():
    out = []
    for mod in CASE_MODULES:
        out.extend(mod.CASES)
    return out


def build(seed: int = 20260921) -> World:
    w = World(seed)
    for mod in CASE_MODULES:
        for c in mod.CASES:
            w.add_case(c)
        for c in getattr(mod, "OPEN_CASES", []):
            w.add_case(c)
        for spec in mod.EXTRA_PRS:
            w.add_pr(spec)
    filler.populate(w)
    docs_corpus.populate(w)
    return w


def generate(out: str, seed: int = 20260921) -> World:
    w = build(seed)
    w.write(out)
    return w
