"""Text rules of the offline analyst: whole clauses, hard facts, asides."""

from __future__ import annotations

from hypothesis import given, strategies as st

from fixlore.rules.text import clip, fact_count, is_aside, sentences


def test_a_semicolon_joins_clauses_of_one_statement():
    text = "UB 场景需 MindCluster≥26.2.0；CANN≥9.2.0 才能自协商。另一句在这里结束。"
    assert sentences(text)[0] == "UB 场景需 MindCluster≥26.2.0；CANN≥9.2.0 才能自协商。"


def test_an_overlong_statement_is_split_at_its_clauses():
    long = "；".join(f"第{i}个子句说明了一个独立的条件和它的影响范围以及处理办法" for i in range(12)) + "。"
    parts = sentences(long)
    assert len(parts) > 1 and all(len(p) <= 240 for p in parts)


def test_clip_keeps_whole_clauses():
    text = "抢锁超时 30s→2s，且不再与健康检查共用 backendMutex_，降级改为无条件幂等并通知上层"
    assert clip(text, 50) == "抢锁超时 30s→2s，且不再与健康检查共用 backendMutex_"
    assert clip(text, 500) == text
    # no clause end past half of the limit: a mid-clause cut, marked
    assert clip("a" * 30 + "，" + "b" * 100, 100).endswith("…")


@given(st.text(alphabet="ab，；。 抢锁xyz_", max_size=300), st.integers(min_value=8, max_value=200))
def test_clip_never_exceeds_the_limit_and_keeps_a_prefix(text, limit):
    out = clip(text, limit)
    assert len(out) <= limit
    flat = " ".join(text.split())
    assert flat.startswith(out.rstrip("…")) or out == flat


def test_hard_facts_are_identifiers_measures_and_versions():
    assert fact_count("抢锁(30s)和健康检查共用 backendMutex_ 互相阻塞；BecomeFollower 失败不上报") == 3
    assert fact_count("设 --timeout 并升级到 3.2.2，读 config.toml") == 3
    assert fact_count("fix bug in the code, 修复问题") == 0
    assert fact_count("09-08 合并，共 3 个") == 0


def test_asides_are_told_from_statements():
    assert is_aside("另外 etcd 瞬时读超时还会让旧主自我降级")
    assert is_aside("Also, the cache is cleared on restart")
    assert not is_aside("根因是抢锁与健康检查共用一把锁")


def test_thread_links_stay_as_references_and_replies_lose_their_greeting():
    got = sentences("我们已经提了 RFC 跟踪：https://github.com/verl-project/verl/issues/6164 后续提供完整列表。\n"
                    "Hi @luentong , This issue has been resolved in the latest main-branch build.")
    assert "verl-project/verl#6164" in got[0]
    assert got[1].startswith("This issue has been resolved")


def test_a_lead_in_line_joins_the_next_but_pasted_output_stays_apart():
    assert sentences("please upgrade to:\ncann 9.0.0, vllm v0.22.0") == ["please upgrade to: cann 9.0.0, vllm v0.22.0"]
    got = sentences("add print to test phy_device_id:\n(VllmWorker rank=1) device_index = 1, phy_device_id = 7")
    assert got == ["add print to test phy_device_id:", "(VllmWorker rank=1) device_index = 1, phy_device_id = 7"]
    assert sentences("**Reason:** the validator rejects additional_config.") == \
        ["Reason: the validator rejects additional_config."]


def test_clip_does_not_end_a_clause_inside_brackets():
    text = "定位：preprocess_packed_seqs 中 input_ids[i, mask[i]] 把 int 当行号索引而非掩码，position_ids 被毁掉"
    assert clip(text, 75) == "定位：preprocess_packed_seqs 中 input_ids[i, mask[i]] 把 int 当行号索引而非掩码"


def test_a_count_of_steps_is_not_a_duration():
    assert fact_count("all 14 steps fail") == 0
    assert fact_count("抢锁超时 30s→2s，5 ms") == 3


def test_a_results_table_reads_row_by_row_with_its_column_names():
    from fixlore.rules.text import clean_body

    body = "| model | loss gap | speed |\n|---|:---:|---|\n| m-7b | 0.4% | 1.2×fp16 |\n| m-13b | 0.6% | |\n\nafter the table"
    assert clean_body(body).splitlines() == ["m-7b：loss gap 0.4%，speed 1.2×fp16", "m-13b：loss gap 0.6%",
                                             "after the table"]
    # without a header rule the rows are plain cells
    assert clean_body("| a | b |\n| c | d |").splitlines() == ["a：b", "c：d"]


def test_names_and_numbers_alone_belong_to_neither_language():
    from fixlore.rules.text import is_language_neutral

    assert is_language_neutral("m-7b：0.4%，1.2×fp16")
    assert is_language_neutral("v1.2.3 / 26.0.1")
    assert not is_language_neutral("examples: m-7b and m-13b yaml")
    assert not is_language_neutral("模型：误差")


def test_a_measured_result_is_a_comparison_a_duration_or_a_rate_not_a_size():
    from fixlore.analyse.roles import is_measurement

    assert is_measurement("throughput rose 12% after the change")
    assert is_measurement("首 token 时延 35 ms")
    assert is_measurement("decode 1,200 tokens/s")
    assert not is_measurement("cutoff_len 扩到 16K，显存 64GB")


def test_a_numbered_item_loses_its_number_but_a_version_keeps_its_digits():
    from fixlore.rules.text import sentences

    got = sentences("2. 每个 step 都有一次 H2D 拷贝导致流同步。\n(3) 第三点说明一下原因\n3.10 的语法在 3.9 上会报错。\n④ 最后一点也写清楚")
    assert got == ["每个 step 都有一次 H2D 拷贝导致流同步。", "第三点说明一下原因", "3.10 的语法在 3.9 上会报错。",
                   "最后一点也写清楚"]


def test_error_lines_read_past_the_worker_prefix_and_skip_what_names_no_error():
    from fixlore.rules.text import error_lines
    body = "\n".join([
        "[rank3]: Traceback (most recent call last):",
        '[rank3]:   File "train.py", line 12, in <module>',
        "[rank3]:     raise ValueError(f'bad shard {i}')",
        "[rank3]: AssertionError",
        "(RayWorker pid=88) ValueError: bad shard 7",
        "nightly 20261101 两条用例失败：",
    ])
    # the message itself, without the launcher's prefix; a bare class name, the echoed source line
    # and a line that introduces the output below it are not what the user saw
    assert error_lines(body) == ["ValueError: bad shard 7"]


@given(st.integers(min_value=0, max_value=7), st.text(alphabet="abcdefgh _-", min_size=3, max_size=30))
def test_a_rank_prefix_never_changes_the_error_line(rank, message):
    from fixlore.rules.text import error_lines
    line = f"KeyError: {message.strip() or 'x'}x"
    assert error_lines(f"[rank{rank}]: {line}") == error_lines(line)


def test_a_sentence_wrapped_by_hand_is_one_sentence():
    from fixlore.rules.text import sentences
    zh = "preprocess_packed_seqs 里 input_ids[i, mask[i]] 把它当成行号做索引，\n而不是布尔掩码，position_ids 被打乱。mask 改为 bool。"
    assert sentences(zh)[0].endswith("而不是布尔掩码，position_ids 被打乱。")
    en = "The CANN backend lacks a native erfc function,\ncausing import errors when the kernel\nis compiled. This adds a fallback."
    assert sentences(en)[:2] == ["The CANN backend lacks a native erfc function, causing import errors when the kernel is compiled.",
                                 "This adds a fallback."]
    # list items, a table row read as a sentence, and a Chinese label line stay apart
    assert sentences("- fix the loop\n- add a test") == ["fix the loop", "add a test"]
    assert len(sentences("解决issue： Ascend/msmodelslim#540\n自动调优误将 PracticeConfig 传给量化服务。")) == 2


@given(st.lists(st.sampled_from(["fix the loop", "补充单测", "Align the runner", "- item", "1. step", "> a quoted note", "| a | b |"]),
                min_size=1, max_size=6))
def test_joining_wrapped_lines_never_loses_a_word(lines):
    from fixlore.rules.text import sentences
    joined = " ".join(sentences("\n".join(lines)))
    # whatever a line says on its own is still said once the lines are read together
    for line in lines:
        for said in sentences(line):
            assert all(word in joined for word in said.split())
