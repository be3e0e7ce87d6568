"""Through build_cases: a plan keeps no fix claim; a related PR's credited fix becomes the fix;
a stale-labelled unresolved close carries `stale_close` without any detail."""

from fixlore.link import build_cases
from fixlore.core.model import REASON_NOT_PLANNED, Corpus

from test_link_builders import SINCE, issue, pull, t


def _cases(corpus):
    cases, _ = build_cases(corpus, SINCE)
    return {c.number: c for c in cases}


def test_an_untyped_task_list_ticket_keeps_no_fix_claim_but_a_typed_task_does():
    plan = "## Goal\nmove the plugin to engine v2\n## Tasks\n- [ ] #35\n"
    corpus = Corpus(issues=[issue(10, "Upgrade the plugin to engine v2", body=plan, closed=t(18, 11, 0, 1)),
                            issue(12, "Upgrade the plugin to engine v2", body=plan, closed=t(18, 11, 0, 1),
                                  issue_type="任务")],
                    pulls=[pull(11, "support engine v2", body="closes #10\ncloses #12", merged=t(18, 11))])
    cases = _cases(corpus)
    assert cases[10].funnel == "internal" and cases[10].fix == [] and cases[10].timing == "no_fix"
    assert [r["number"] for r in cases[10].candidates] == [11]          # the trail keeps the PR
    assert cases[12].funnel == "internal" and [f.number for f in cases[12].fix] == [11]


def test_a_related_pr_crediting_another_merged_pr_names_the_fix():
    corpus = Corpus(issues=[issue(40, "server fails to start on the new runtime", closed=t(18, 15))],
                    pulls=[pull(41, "align the ARM runners with runtime 2", merged=t(18, 9)),
                           pull(42, "align the x86 image with runtime 2", merged=t(18, 12),
                                body="Related to #40. The merged ARM alignment fix (!41) does not touch this image.")])
    case = _cases(corpus)[40]
    assert [f.number for f in case.fix] == [41]
    assert any(e.kind == "comment" for e in case.evidence)


def test_without_a_credit_the_related_pr_is_no_background():
    corpus = Corpus(issues=[issue(40, "server fails to start on the new runtime", closed=t(18, 15))],
                    pulls=[pull(42, "align the image with runtime 2", merged=t(18, 12), body="Related to #40.")])
    signals = [s["kind"] for r in _cases(corpus)[40].candidates for s in r["signals"]]
    assert "background" not in signals and "comment" not in signals


def test_a_stale_labelled_not_planned_close_is_a_stale_close_without_details():
    corpus = Corpus(issues=[issue(50, "crash on start", closed=t(18), labels=["bug", "Stale"],
                                  state_reason=REASON_NOT_PLANNED)], pulls=[])
    case = _cases(corpus)[50]
    assert case.funnel == "unresolved" and "stale_close" in case.traps and "Stale" in case.trap_notes["stale_close"]
