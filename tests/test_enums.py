"""The vocabulary's StrEnums are the strings the exports have always carried."""

import json

from fixlore.edges.caseexport import case_line
from fixlore.core.enums import FunnelStage, Platform
from fixlore.core.model import FUNNEL_STAGES, Case
from fixlore.settings.config import PLATFORMS


def test_the_tuples_are_the_members_values_in_pipeline_order():
    assert FUNNEL_STAGES == ("window", "unresolved", "internal", "cve", "empty_title", "noise",
                             "rank", "analysis", "selected")
    assert all(type(s) is str for s in FUNNEL_STAGES)
    assert PLATFORMS == ("gitcode", "github") == tuple(Platform)


def test_a_case_exports_the_same_bytes_whether_its_stage_is_a_member_or_a_string():
    member = Case("o/r", 1, funnel=FunnelStage.SELECTED)
    text = Case("o/r", 1, funnel="selected")
    assert case_line(member) == case_line(text)
    assert json.loads(case_line(member))["funnel"] == "selected"
    assert f"{FunnelStage.RANK}" == "rank" and FunnelStage.RANK == "rank"


def test_every_vocabulary_list_outside_the_enums_keeps_to_them():
    """Lists that name a vocabulary for their own use (labels, figures, orderings) hold only the
    enums' members, and those meant to cover one cover all of it."""
    from fixlore.compose.charts import TIMING_TEXT
    from fixlore.compose.disclosure import CARRIER_TEXT, REASON_TEXT
    from fixlore.compose.figures import AUTO_CLOSE_TIMINGS, CARRIER_TRAPS
    from fixlore.core.enums import DropReason, EvidenceKind, Timing, Trap
    from fixlore.link.audit import _PRIORITY
    from fixlore.link.conclude import EVIDENCE_OF, TRAP_ORDER
    from fixlore.store.datasette import CONCLUSIONS

    assert set(TIMING_TEXT) == {*Timing, ""}
    assert set(REASON_TEXT) == {*DropReason, "unspecified"}
    assert set(CARRIER_TEXT) == set(CARRIER_TRAPS) and set(CARRIER_TRAPS) <= set(Trap)
    assert all(type(t) is str for t in CARRIER_TRAPS)          # keys of digest.json's figures
    assert set(AUTO_CLOSE_TIMINGS) <= set(Timing) and set(_PRIORITY) <= set(Timing)
    assert set(EVIDENCE_OF.values()) <= set(EvidenceKind) and set(TRAP_ORDER) == set(Trap)
    assert all(t.value in CONCLUSIONS["timing"] for t in Timing)


def test_a_linked_case_carries_members_and_exports_plain_string_keys():
    """The linker sets traps, timing and evidence kinds from the enums; the notes stay keyed by
    plain strings, which is what lets orjson write them (the export reads the same bytes)."""
    import orjson

    from fixlore.core.enums import EvidenceKind, Timing, Trap
    from fixlore.link import build_cases
    from fixlore.core.model import Corpus

    from test_link_builders import SINCE, issue, pull, t

    close = t(18, 10, 0, 0)
    corpus = Corpus(issues=[issue(1, "crash on start", closed=close), issue(2, "crash on exit", closed=close),
                            issue(3, "slow import", closed=t(18))],
                    pulls=[pull(10, "fix crashes", body="Fixes #1, fixes #2", merged=close),
                           pull(11, "lazy import", body="Fixes #3", merged=t(19))])
    cases, _ = build_cases(corpus, SINCE)
    by = {c.number: c for c in cases}
    assert by[1].timing is Timing.SAME_SECOND and by[3].timing is Timing.BEFORE_MERGE
    assert Trap.ONE_PR_MANY_ISSUES in by[1].traps and Trap.CLOSED_BEFORE_MERGE in by[3].traps
    assert all(isinstance(t, Trap) for c in cases for t in c.traps)
    assert {EvidenceKind.KEYWORD, EvidenceKind.AUTO_CLOSE} <= {e.kind for e in by[1].evidence}
    assert all(isinstance(e.kind, EvidenceKind) for c in cases for e in c.evidence)
    assert all(type(k) is str for c in cases for k in c.trap_notes)
    row = orjson.loads(case_line(by[1]))
    assert row["timing"] == "same_second" and "one_pr_many_issues" in row["trap_notes"]
