"""Forms of writing that lost a row its facts (issue #22): a contrast cut after its first half, a
lead-in without a colon before its list, a cause let trail off with "…", an English edit note that
names a fact read as a trim note, a pair of names written "A / B". Table tests of each form, and properties over generated ones."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from fixlore.analyse.row_choice import _uncut
from fixlore.rules.clause_choice import choose_clauses, parts
from fixlore.rules.clauses import fit, trails_off, turns_on, whole_clauses
from fixlore.rules.lines import bare_lead_in, field_as_prose, tight_pairs
from fixlore.rules.text import sentences
from fixlore.rules.trims import without_trim_notes

# --- (1) a contrast says what was done in its second half

CONTRASTS = [
    ("Instead of patching the kernel for every shape, this PR adds a tiling_key fallback in op_host.cc",
     "this PR adds"),
    ("Fix: rather than retrying forever, we cap retries at 3 via max_retries", "max_retries"),
    ("不再在每个 rank 上重建 hccl_comm，而是复用 global_comm，修复 OOM", "global_comm"),
    ("不是在 forward 里做 cast，而是在 load_state_dict 时转 bf16，另外补了 UT", "load_state_dict"),
    ("把 max_len 的默认值，改成 4096，同时更新文档", "4096"),
]


def test_a_contrast_is_one_part_and_never_cut_after_its_first_half():
    for text, second in CONTRASTS:
        head = parts(text)[0]
        assert second in head, (text, parts(text))
        for limit in range(10, len(text), 4):
            for cut in (choose_clauses(text, limit), fit(text, limit), whole_clauses(text, limit)):
                assert not cut or second in cut, (text, limit, cut)


def test_a_negation_that_is_a_result_is_no_contrast():
    # "不再报错，训练正常" states two results; nothing turns after it
    assert not turns_on("不再报错，", "训练恢复正常")
    assert not turns_on("把 a 改成 b，", "改成 c")       # its own verb is there already
    assert fit("不再报错，训练恢复正常，loss 收敛到 1.2", 12) == "不再报错，训练恢复正常"


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abcdefgh_ 12", min_size=3, max_size=30), st.text(alphabet="xyz_ 34", min_size=3, max_size=30),
       st.sampled_from(["Instead of ", "Rather than ", "Fix: instead of "]), st.integers(5, 80))
def test_no_cut_ends_on_the_first_half_of_a_generated_contrast(old, new, opener, limit):
    old, new = old.replace(",", " ").strip() or "it", new.replace(",", " ").strip() or "that"
    text = f"{opener}{old}, we use {new}"
    for cut in (choose_clauses(text, limit), fit(text, limit)):
        assert not cut or cut.endswith(new.strip()) or "we use" in cut, (text, cut)


# --- (2) a lead-in without a colon before a list goes with the list

def test_a_bare_lead_in_goes_with_its_first_item():
    for body, item in (("The fix does the following\n1. Reset `foo_bar` on restart\n2. Add a test", "foo_bar"),
                       ("This PR makes these changes.\n- bump torch_npu to 2.1.0\n- drop old_path", "torch_npu"),
                       ("主要改动\n1. 把 a_b 改成 c_d\n2. 删除 e_f 的默认值", "a_b"),
                       ("修改点如下\n- 更新 x_y 的默认值\n- 删除 old_z 的旧路径", "x_y")):
        out = sentences(body)
        lead = body.splitlines()[0].rstrip(".")
        # one sentence: the lead-in, a colon, the first item (its list mark gone); the next item apart
        assert out[0].startswith(lead + (":" if lead.isascii() else "：")) and item in out[0], out
        assert len(out) == 2 and not out[1][0].isdigit() and not out[1].startswith("-"), out


def test_a_line_that_leads_nowhere_is_no_lead_in():
    assert not bare_lead_in("The fix does the following", "nothing after it is a list")
    assert not bare_lead_in("修复了如下", "")
    assert not bare_lead_in("x" * 120 + " as follows", "1. item")
    assert bare_lead_in("Changes made", "- item")


# --- (3) a cause let trail off is said whole; a cut stays cut

def test_a_whole_cause_let_trail_off_is_kept():
    assert _uncut("根因是 hccl_buffsize 默认 200M 不够…") == "根因是 hccl_buffsize 默认 200M 不够"
    assert _uncut("The root cause is the stale cache_key in the loader...") == "The root cause is the stale cache_key in the loader"


def test_a_cut_is_still_a_cut():
    for cut in ("the root cause is that we pass the...", "原因是…", "because the tiling for...",
                "当 rank 数大于 8 时因为…", "The fix is in PR #123 and now it runs on A..."):
        assert _uncut(cut) == "", cut
    assert not trails_off("due to")
    # a sentence with whole clauses before the cut keeps those, as before
    assert _uncut("The fix is in PR #123, now it runs on A...") == "The fix is in PR #123"


# --- (4) an English note naming a fact of the work is no trim note

def test_an_edit_note_naming_a_fact_stays_and_a_shorteners_note_goes():
    for kept in ("(the `use_fused_rope` path is cut)", "(v2.3.0rc1 cut)", "(the fp32 fallback from #812 is cut)"):
        assert without_trim_notes(f"Removed {kept}.") == f"Removed {kept}.", kept
    for note in ("(collect_env output cut)", "(log cut)", "(the environment block and CANN 8.5.1 info are cut)",
                 "（其余略）", "(a diff adding an `apply_x` helper to worker/model_runner.py; cut)"):
        assert without_trim_notes(f"Root cause found {note}.") == "Root cause found.", note


def test_a_template_field_reaches_a_row_as_its_label_and_value():
    """paddle-threads FastDeploy#1378 (tune): the report's "- 【硬件】：  如 Nvidia GPU TeslaP40" reached the
    problem cell with the form's brackets and the template's example cue "如"."""
    from fixlore.analyse.cells import with_report_facts

    assert field_as_prose("- 【硬件】：  如 Nvidia GPU TeslaP40， CUDA 11.4") == "硬件 Nvidia GPU TeslaP40， CUDA 11.4"
    assert field_as_prose("[Version]: e.g. 1.0.2") == "Version 1.0.2"
    for line in ("【自检】main.go 修改", "修改如下：", "see [the docs](u): x"):
        assert field_as_prose(line) == line
    body = "## 环境\n\n- 【硬件】：  如 Nvidia GPU TeslaP40， CUDA 11.4  CUDNN 8.4\n"
    cell = with_report_facts("ppocrV3 预测报错 module numpy has no attribute astype", body, room=60)
    assert "TeslaP40" in cell and "【" not in cell and "如 Nvidia" not in cell, cell


@given(st.text(alphabet="硬件版本abcXYZ 0123456789.-", min_size=1, max_size=12),
       st.text(alphabet="硬件版本abcXYZ 0123456789.-，,", min_size=1, max_size=30))
@settings(max_examples=200, deadline=None)
def test_a_generated_field_keeps_its_label_and_value_and_loses_its_brackets(label, value):
    line = f"- 【{label}】： {value}"
    out = field_as_prose(line)
    if label.strip() and value.strip():
        assert out.startswith(label.strip()) and out.endswith(value.strip()) and "【" not in out, (line, out)


# --- a pair of names or figures written "A / B" reads as the one token a reader types

PAIRS = [
    ("qwen3-vl-30B / qwen3.5-27B 支持 mxfp8 训练", "qwen3-vl-30B/qwen3.5-27B 支持 mxfp8 训练"),
    ("env / MindIE 配置可能被拼成命令行参数", "env/MindIE 配置可能被拼成命令行参数"),
    ("cutoff_len / mbs raised to 16K / 4", "cutoff_len/mbs raised to 16K/4"),
    ("`tp` / `dp` 不一致", "`tp`/`dp` 不一致"),
    ("CP / EP / recompute / 异步激活卸载", "CP/EP/recompute / 异步激活卸载"),   # beside a Chinese word: as written
    ("训练 / 推理都报错", "训练 / 推理都报错"),
    ("see https://gitcode.com/Ascend/x and a/b", "see https://gitcode.com/Ascend/x and a/b"),
    ("loss / 2 ", "loss/2 "),
]


def test_a_pair_is_written_tight_and_nothing_else_moves():
    for text, want in PAIRS:
        assert tight_pairs(text) == want, text


@given(st.lists(st.text(alphabet="ab_Z09中文 ", min_size=1, max_size=6), min_size=1, max_size=5),
       st.lists(st.sampled_from([" / ", "/", "  /  ", " /", "/ "]), min_size=4, max_size=4))
@settings(max_examples=200, deadline=None)
def test_a_generated_pair_list_loses_only_spaces_beside_its_slashes(words, slashes):
    text = "".join(w + slashes[i % len(slashes)] for i, w in enumerate(words)) + "end"
    tight = tight_pairs(text)
    # only blanks go, the same slashes stay in the same order, and a second pass changes nothing
    assert tight.replace(" ", "") == text.replace(" ", "")
    assert tight.count("/") == text.count("/")
    assert tight_pairs(tight) == tight
    # no ASCII name or figure is left apart from its pair by a blank
    assert not re.search(r"[A-Za-z0-9_] +/ +[A-Za-z0-9_]", tight)
