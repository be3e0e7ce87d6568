"""The vocabulary's StrEnums are the strings the exports have always carried."""

import json

from fixlore.caseexport import case_line
from fixlore.enums import FunnelStage, Platform
from fixlore.model import FUNNEL_STAGES, Case
from fixlore.config import PLATFORMS


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
