"""The value score reads what a case teaches (rules.funnel.rank.value_features) and shows it per
case (`fixlore explain`, the case export)."""

from rich.console import Console

from fixlore.core.model import Case
from fixlore.link.explain import render_case
from fixlore.link.value import is_code_file
from fixlore.rules.funnel.rank import DEFAULT_WEIGHTS, FEATURES, identifiers, value_features, value_score


from case_builders import value_inputs as _v


def test_every_feature_is_named_in_range_and_weighted():
    rich = _v(body="Traceback: KeyError in load_state_dict()\nsteps to reproduce: python run.py --resume",
              answer_text="This is because `strict=True` rejects the renamed keys; see model.load_state_dict",
              answer_chars=90, answer_by_member=True, fix_merged=True, fix_strong=True, close_explained=True,
              fix_text="caused by the key prefix; strip_prefix() now runs first", fix_text_chars=60,
              code_files=1, other_files=1, changed_lines=14, human_comments=5, traps=("fix_not_landed",))
    for v in (_v(), rich):
        feats = value_features(v)
        assert tuple(feats) == FEATURES
        assert all(0.0 <= x <= 1.0 for x in feats.values())
        assert set(FEATURES) <= set(DEFAULT_WEIGHTS) and "bias" in DEFAULT_WEIGHTS


def test_cause_is_read_in_the_answer_the_fix_and_the_reporters_own_words():
    assert value_features(_v(answer_text="原因是 HCCL 超时配置过小导致建链失败"))["cause_stated"] == 1.0
    assert value_features(_v(fix_text="The hang was caused by a lock taken twice"))["cause_stated"] == 1.0
    assert value_features(_v(self_explained_text="found it: because the env var was unset"))["cause_stated"] == 0.8
    assert value_features(_v(answer_text="please try again with the latest version"))["cause_stated"] == 0.0


def test_mechanism_counts_identifiers_not_prose_nor_links():
    assert identifiers("see https://gitcode.com/o/r/issues/3 and www.example.com") == set()
    assert identifiers("it sometimes hangs, e.g. after a while, i.e. on version 2.1.0") == set()
    # Chinese writing puts an identifier right against its characters
    assert identifiers("设置HCCL_EXEC_TIMEOUT后调用init_process_group()即可") == {"hccl_exec_timeout",
                                                                             "init_process_group"}
    named = identifiers("`npu_format_cast` in torch_npu.utils calls getDevice() with --device-id, HCCL_EXEC_TIMEOUT")
    assert {"npu_format_cast", "torch_npu.utils", "getdevice", "--device-id", "hccl_exec_timeout"} <= named
    assert value_features(_v(answer_text="set HCCL_EXEC_TIMEOUT and call init_process_group() again; "
                                         "torch.distributed reads it"))["mechanism"] == 1.0


def test_fix_substance_reads_the_diff():
    code = value_features(_v(fix_merged=True, code_files=1, changed_lines=20))["fix_substance"]
    docs = value_features(_v(fix_merged=True, other_files=1, changed_lines=20))["fix_substance"]
    none = value_features(_v(fix_merged=True))["fix_substance"]
    assert code == 1.0 and 0.0 < docs < code and none == 0.0
    assert is_code_file("src/engine/scheduler.py") and is_code_file("csrc/ops/add.cpp")
    assert not any(map(is_code_file, ("docs/zh/install.md", "tests/test_add.py", "README.md", "setup.cfg",
                                      "pkg/foo_test.go")))


def test_question_answered_and_trap_lesson_and_generic_body():
    q = dict(title="如何在多卡上设置 HCCL 超时？", body="文档里没找到", answer_chars=120)
    assert value_features(_v(**q, answer_by_member=True))["question_answered"] == 1.0
    assert value_features(_v(**q))["question_answered"] == 0.6
    assert value_features(_v(title="crash on start", body="details", answer_chars=120))["question_answered"] == 0.0
    assert value_features(_v(traps=("claimed_unmerged",)))["trap_lesson"] == 1.0
    assert value_features(_v(traps=("close_storm", "stale_close")))["trap_lesson"] == 0.0
    assert value_features(_v(body="not working, please help"))["generic_body"] == 1.0
    assert value_features(_v(body="KeyError in load_state_dict()"))["generic_body"] == 0.0
    # a short report whose fix explains the mechanism is not thin
    assert value_features(_v(body="not working", fix_text="set_device() ran after init"))["generic_body"] == 0.0


def test_a_thin_busy_thread_ranks_below_a_short_mechanism_and_fix():
    busy = _v(title="training is slow", body="it is very slow, please help", human_comments=12,
              reporter_last="any update?", answer_chars=40, answered=True)
    teaching = _v(title="hang at step 0 on 8 cards", body="hang at step 0 with 8 cards", human_comments=0,
                  fix_merged=True, fix_strong=True, close_explained=True,
                  fix_text="Caused by init_process_group() waiting on HCCL_CONNECT_TIMEOUT; raise it in launch.py",
                  fix_text_chars=80, code_files=1, changed_lines=6)
    assert value_score(value_features(teaching)) > value_score(value_features(busy)) + 0.2


def test_a_clear_answer_to_a_question_ranks_above_a_plus_one_thread():
    answered = _v(title="how to set the device id for each rank?", body="multi-card run, which option?",
                  answer_chars=140, answer_by_member=True, answered=True, human_comments=1,
                  answer_text="Use --device-id per rank; torch_npu reads ASCEND_RT_VISIBLE_DEVICES at start")
    plus_one = _v(title="same problem here", body="same problem, any news?", human_comments=9,
                  reporter_last="+1")
    assert value_score(value_features(answered)) > value_score(value_features(plus_one)) + 0.3


def test_weights_come_from_a_plain_mapping():
    feats = value_features(_v(answer_chars=80, answer_text="because x_y failed"))
    assert value_score(feats) == value_score(_v(answer_chars=80, answer_text="because x_y failed"))
    assert value_score(feats, {"bias": 0.25}) == 0.25
    assert value_score(feats, {"cause_stated": 0.5}) == 0.5
    assert value_score(feats, {"bias": -1.0}) == 0.0 and value_score(feats, {"bias": 2.0}) == 1.0


def test_explain_shows_each_feature_with_its_weight_and_contribution():
    feats = value_features(_v(answer_chars=80, answer_text="because x_y failed"))
    case = Case(repo="o/r", number=1, title="t", value=value_score(feats), value_features=feats)
    console = Console(width=140, record=True)
    console.print(render_case(case))
    shown = console.export_text()
    assert "value features" in shown
    for name in FEATURES:
        assert name in shown
    assert "+0.40" in shown and "+0.400" in shown          # knowledge: weight and weight x 1.0
    assert Case.from_export(case.to_export()).value_features == feats



def test_the_link_stage_reads_the_answerer_the_diff_and_the_fix_text():
    """`link.value` over a real corpus: who answered (a member has a merged PR in the repository), what
    the fix's diff touched, what its PR says; each lands in the case's features and its value."""
    from fixlore.core.model import Corpus
    from fixlore.link import build_cases
    from test_link_builders import SINCE, comment, files, issue, pull, t

    answer = "Use --device-id per rank: torch_npu reads ASCEND_RT_VISIBLE_DEVICES once at start"

    def case(answerer, diff, pr_body):
        corpus = Corpus(
            issues=[issue(5, "how to pick the card for each rank?", body="multi-card run, which option?",
                          closed=t(18, 10, 0, 1)), issue(6, "old", body="x", closed=t(3))],
            pulls=[pull(9, "fix device pick", body=f"Fixes #5\n{pr_body}", merged=t(18)),
                   pull(3, "older", body="Fixes #6", merged=t(3), author="maint")],
            comments=[comment(5, answer, author=answerer)], files=files(9, *diff))
        return next(c for c in build_cases(corpus, SINCE)[0] if c.number == 5)

    member, outsider = case("maint", ["src/device.py"], ""), case("passer-by", ["src/device.py"], "")
    assert member.value_features["question_answered"] == 1.0 and outsider.value_features["question_answered"] == 0.6
    assert member.value_features["mechanism"] == 1.0          # --device-id, torch_npu, ASCEND_RT_VISIBLE_DEVICES
    docs = case("maint", ["docs/device.md"], "")
    assert 0.0 < docs.value_features["fix_substance"] < member.value_features["fix_substance"]
    assert member.value > docs.value and member.value > outsider.value
    explained = case("maint", ["src/device.py"], "The rank was mapped twice because set_device ran after init")
    assert explained.value_features["cause_stated"] == 1.0 and member.value_features["cause_stated"] == 0.0
    assert explained.value > member.value


def test_a_series_learns_over_the_content_features():
    from fixlore.rules.funnel.learned import case_features

    feats = value_features(_v(answer_chars=80, answer_text="because x_y failed"))
    learned = case_features(Case(repo="o/r", number=1, title="t", value=value_score(feats), value_features=feats))
    assert {f"content_{n}": x for n, x in feats.items()}.items() <= learned.items()
    assert not any(k.startswith("content_") for k in case_features(Case(repo="o/r", number=2, title="t")))


def test_a_line_repeated_in_every_template_field_is_said_once():
    from fixlore.rules.funnel.rank import said_once
    line = "950 ATK memory检测数值超l2 cache"
    thrice = f"### Bug Description\n\n{line}\n\n### Steps to Reproduce\n\n{line}\n\n### Error output\n\n{line}\n"
    blank = lambda text: text.split("\n").count("")
    assert said_once(thrice).count(line) == 1 and blank(said_once(thrice)) == blank(thrice.strip())
    # three different lines of the same length say more than one line said three times
    three = thrice.replace(line, "x", 1).replace(line, "y", 1)
    three = three.replace("x", line + " one").replace("y", line + " two")
    assert value_features(_v(body=thrice))["report"] < value_features(_v(body=three))["report"]
    # markup, blank lines and short labels repeat by nature: they stay
    fenced = "```\nrun a\n```\n\nthen\n\n```\nrun b\n```\nNone\nNone"
    assert said_once(fenced) == fenced
