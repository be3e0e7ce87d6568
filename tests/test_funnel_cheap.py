from fixlore.rules.funnel import FunnelConfig, cheap_funnel
from fixlore.rules.funnel.floods import title_shape
from fixlore.core.model import REASON_DUPLICATE, REASON_NOT_PLANNED

from test_link_builders import SINCE, issue, t


def _stage(one, **cfg):
    return cheap_funnel([one], SINCE, FunnelConfig(**cfg) if cfg else None)[one.key]


def test_window_is_by_close_time_not_update_time():
    revived = issue(1, closed=t(3), updated=t(19))   # old issue revived by a comment
    assert _stage(revived) == "window"
    assert _stage(issue(2)) == "window"              # still open
    assert _stage(issue(3, closed=t(18))) == "pool"


def test_unresolved_from_reason_workflow_state_and_labels():
    assert _stage(issue(1, closed=t(18), state_reason=REASON_NOT_PLANNED)) == "unresolved"
    assert _stage(issue(2, closed=t(18), state_reason=REASON_DUPLICATE)) == "unresolved"
    assert _stage(issue(3, closed=t(18), workflow_state="已拒绝")) == "unresolved"
    assert _stage(issue(4, closed=t(18), workflow_state="CANCELED")) == "unresolved"
    assert _stage(issue(5, closed=t(18), labels=["wontfix"])) == "unresolved"
    assert _stage(issue(6, closed=t(18), labels=["重复"])) == "unresolved"
    assert _stage(issue(7, closed=t(18), workflow_state="DONE")) == "pool"


def test_internal_tickets():
    assert _stage(issue(1, closed=t(18), issue_type="任务")) == "internal"
    assert _stage(issue(2, closed=t(18), issue_type="Task")) == "internal"
    assert _stage(issue(3, closed=t(18), labels=["内部"])) == "internal"
    assert _stage(issue(4, closed=t(18), issue_type="Bug-Report")) == "pool"


def test_cve_and_empty_title():
    assert _stage(issue(1, "CVE-2025-12345 in openssl", closed=t(18))) == "cve"
    assert _stage(issue(2, "crash", closed=t(18), labels=["security"])) == "cve"
    assert _stage(issue(3, "  ？？ ", closed=t(18))) == "empty_title"
    assert _stage(issue(4, "", closed=t(18))) == "empty_title"


def test_pipeline_order_first_stage_wins():
    both = issue(1, "CVE-2025-1111", closed=t(18), issue_type="任务", labels=["duplicate"])
    assert _stage(both) == "unresolved"


def test_template_titles_are_noise_and_configurable():
    assert _stage(issue(1, "【API一致性任务】torch.add 对齐", closed=t(18))) == "noise"
    assert _stage(issue(2, "重复-请忽略", closed=t(18))) == "noise"
    assert _stage(issue(3, "周报模板", closed=t(18)), templates=("周报模板",)) == "noise"


def test_flood_of_near_identical_titles_from_one_author():
    flood = [issue(10 + i, f"[自动化] 用例 test_op_{i:03d} 执行失败", closed=t(18), author="ci-user")
             for i in range(6)]
    other = issue(50, "[自动化] 用例 test_op_001 执行失败", closed=t(18), author="someone")
    verdict = cheap_funnel(flood + [other], SINCE)
    assert {verdict[i.key] for i in flood} == {"noise"}
    assert verdict[other.key] == "pool"


def test_few_similar_titles_are_not_a_flood():
    few = [issue(10 + i, f"NPU OOM when training model {i}", closed=t(18), author="u") for i in range(4)]
    assert set(cheap_funnel(few, SINCE).values()) == {"pool"}
    assert set(cheap_funnel(few, SINCE, FunnelConfig(flood_min_size=4)).values()) == {"noise"}


def test_distinct_titles_from_prolific_author_are_not_a_flood():
    titles = ["loss spikes with thd format", "etcd double leader after reconnect", "bind fails on leader",
              "parquet files cannot be read", "README CANN version conflict", "LoRA save writes full model"]
    many = [issue(10 + i, title, closed=t(18), author="u") for i, title in enumerate(titles)]
    assert set(cheap_funnel(many, SINCE).values()) == {"pool"}


def test_github_pull_items_are_skipped():
    pr_item = issue(7, closed=t(18), is_pull=True)
    assert cheap_funnel([pr_item], SINCE) == {}


def test_config_from_mapping_and_title_shape():
    cfg = FunnelConfig.from_mapping({"rank_top_k": "10", "templates": ["A"], "unknown": 1})
    assert cfg.rank_top_k == 10 and cfg.templates == ("A",) and cfg.extra == {"unknown": 1}
    assert title_shape("Task  0017 X") == title_shape("task 18 x")


def test_template_matching_ignores_punctuation_variants():
    assert _stage(issue(1, "重复，请忽略", closed=t(18))) == "noise"
    assert _stage(issue(2, "重复 - 请忽略 2", closed=t(18))) == "noise"
    assert _stage(issue(3, "请忽略重复的日志", closed=t(18))) == "pool"


def test_flood_with_one_varying_token_of_different_lengths():
    names = ["aclnnAddmm", "aclnnMv", "aclnnMatmulAllReduce", "aclnnBatchMatMul", "aclnnAddr"]
    flood = [issue(10 + i, f"{n} 算子 910B 精度用例补充验证", closed=t(18), author="tester")
             for i, n in enumerate(names)]
    verdict = cheap_funnel(flood, SINCE)
    assert {verdict[i.key] for i in flood} == {"noise"}


def test_one_shared_word_is_not_a_slot_flood():
    titles = ["OOM on 910B", "hang on 910B", "crash on 910B", "slow on 910B", "wrong result on 910B"]
    many = [issue(10 + i, title, closed=t(18), author="u") for i, title in enumerate(titles)]
    assert set(cheap_funnel(many, SINCE).values()) == {"pool"}
