"""Issue #22: the sentences a row keeps when all it gathered do not fit are chosen for the facts
(analyse/row_choice.py): the most facts the row lacks, what was wrong and what was done kept, the
order written, the row taken first when a choice states no more."""

from fixlore.analyse.fit import shown_len
from fixlore.analyse.row_choice import choose_sentences
from fixlore.analyse.scored import Scored

REPO = "Ascend/demo"
MECH = "调度器在重试时复用了旧的连接句柄，所以请求一直挂起"
CHANGE = "改为每次重试新建 `conn_pool` 连接"
PLAIN = "这个问题在多机场景下更容易出现，单机很少遇到"
NAMES = "涉及 retry_limit、conn_timeout、pool_size 三个参数"


def _s(text: str, measured: bool = False) -> Scored:
    return Scored(text=text, source="maintainer", order=0, root=0, fix=0, action=0, score=1.0, measured=measured)


def _row(*items: tuple[str, str]) -> list[tuple]:
    return [(role, _s(text), text) for role, text in items]


def _room(*texts: str) -> int:
    return sum(shown_len(t) + 1 for t in texts) - 1


def test_a_sentence_that_names_facts_replaces_one_that_names_none():
    gathered = _row(("mechanism", MECH), ("change", CHANGE), ("mechanism", PLAIN), ("change", NAMES))
    room = _room(MECH, CHANGE, NAMES)
    kept = [t for _, _, t in choose_sentences(gathered, room, ["标题"], REPO, first_pass=3)]
    assert kept == [MECH, CHANGE, NAMES]        # the order gathered, the fact-less sentence out


def test_what_was_wrong_and_what_was_done_stay_for_a_list_of_names():
    gathered = _row(("mechanism", MECH), ("change", CHANGE), ("change", NAMES))
    room = _room(CHANGE, NAMES)                  # the names and the change fit, not with the cause
    kept = [t for _, _, t in choose_sentences(gathered, room, ["标题"], REPO, first_pass=2)]
    assert MECH in kept and CHANGE in kept and NAMES not in kept


def test_the_row_taken_first_stands_when_no_choice_states_more():
    other = "多机场景更容易出现，单机少见，日志里也看不出来"
    gathered = _row(("mechanism", MECH), ("change", CHANGE), ("mechanism", PLAIN), ("mechanism", other))
    room = _room(MECH, CHANGE, PLAIN)
    kept = [t for _, _, t in choose_sentences(gathered, room, ["标题"], REPO, first_pass=3)]
    assert kept == [MECH, CHANGE, PLAIN]


def test_a_second_measurement_goes_only_with_the_line_it_repeats():
    first = "qwen3-vl-30B：loss rel. err vs bf16 0.33%，throughput 1.1× bf16"
    second = "qwen3-vl-30B：loss rel. err vs bf16 0.25%，throughput 1.3× bf16"
    gathered = [("change", _s(CHANGE), CHANGE), ("mechanism", _s(first, True), first),
                ("mechanism", _s(second, True), second)]
    room = _room(CHANGE, second) + 2              # the second line alone would fit, not both
    kept = [t for _, _, t in choose_sentences(gathered, room, ["标题"], REPO, first_pass=1)]
    assert second not in kept or first in kept


def test_all_that_fits_is_kept():
    gathered = _row(("mechanism", MECH), ("change", CHANGE))
    assert choose_sentences(gathered, 500, ["标题"], REPO, first_pass=1) == gathered


# a sentence whose last clause names nothing: its clauses with the names may go in, leaving room for more
LONG = "内存方面：`cutoff_len` / `mbs` 提到 16K / 4，配合 chunk_loss 和 activation_offload，另外还顺手做了一些零碎的代码整理、注释清理和格式调整的工作"
FIGS = "qwen3.5-27B：误差 0.25%，吞吐 1.3×"


def test_a_long_sentence_gives_the_room_of_its_bare_clauses_to_more_facts():
    gathered = _row(("mechanism", MECH), ("change", CHANGE), ("mechanism", LONG), ("mechanism", FIGS))
    room = _room(MECH, CHANGE, LONG) + 4          # the long sentence whole fits, not with the figures
    kept = [t for _, _, t in choose_sentences(gathered, room, ["标题"], REPO, first_pass=3)]
    assert MECH in kept and CHANGE in kept and FIGS in kept      # what was wrong and done stay whole
    cut = next(t for t in kept if t.startswith("内存方面"))
    assert "activation_offload" in cut and "零碎" not in cut and LONG.startswith(cut)


def test_what_was_wrong_and_what_was_done_are_never_cut():
    long_mech = MECH + "，而且这个句柄在连接池里一直不会被回收，时间一长就越积越多"
    gathered = _row(("mechanism", long_mech), ("change", CHANGE), ("mechanism", FIGS))
    room = _room(long_mech, CHANGE)               # the figures fit only if the cause were cut
    kept = [t for _, _, t in choose_sentences(gathered, room, ["标题"], REPO, first_pass=2)]
    assert kept == [long_mech, CHANGE]


def test_a_cut_never_stops_at_the_clause_that_sets_up_what_it_cut_off():
    setup = "配置了 RoCE 网络层级、但没有挂载 `ub_dev` 字符设备文件时，训练任务会拉起失败"
    gathered = _row(("mechanism", MECH), ("change", CHANGE), ("mechanism", setup))
    room = _room(MECH, CHANGE) + 40
    kept = [t for _, _, t in choose_sentences(gathered, room, ["标题"], REPO, first_pass=2)]
    assert not any(t.endswith("时") for t in kept)


def test_a_sentence_cut_by_its_writer_is_shown_to_its_last_whole_clause():
    cut = "我们会尽快跟进，现在 deepep 可以在 A…"
    gathered = _row(("mechanism", MECH), ("change", CHANGE), ("mechanism", cut))
    kept = [t for _, _, t in choose_sentences(gathered, 40, ["标题"], REPO, first_pass=3)]
    assert not any("…" in t for t in kept)
    assert MECH in kept and CHANGE in kept


def test_a_cut_ending_on_a_word_for_time_is_no_set_up():
    # "超时" (timed out), "耗时 3 小时" (took 3 hours) end a fact; "…文件时" (when …) sets up the next clause
    from fixlore.analyse.row_choice import _sets_up
    assert not _sets_up("多卡训练时 HCCL 建链超时") and not _sets_up("编译 torch_npu 耗时 3 小时")
    assert _sets_up("没有挂载 ub_dev 字符设备文件时")


def test_three_dots_are_an_ellipsis_too():
    # "..." is how most keyboards type "…": the clause it cut short goes the same way
    from fixlore.analyse.row_choice import _uncut
    assert _uncut("我们会尽快跟进，现在 deepep 可以在 A...") == _uncut("我们会尽快跟进，现在 deepep 可以在 A…") == "我们会尽快跟进"
    assert _uncut("The fix is in PR #123, now it runs on A...") == "The fix is in PR #123"
