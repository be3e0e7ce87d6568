"""The editorial check catches each defect class planted in a real demo digest; the clean rows pass."""

from __future__ import annotations

import copy
import json
import os
import subprocess

import pytest

from fixlore.compose.check import check_digest

from conftest import fixlore_here


@pytest.fixture(scope="module")
def digest(demo_run) -> dict:
    """The digest of the session's `fixlore run` of the demo world."""
    return json.loads((demo_run / "digest.json").read_text(encoding="utf-8"))


def _zh_only(data: dict, lang: str = "zh") -> dict:
    data = copy.deepcopy(data)
    data["digests"] = {lang: data["digests"][lang]}
    return data


def _row(data: dict, case: str, lang: str = "zh") -> dict:
    return next(r for repo in data["digests"][lang]["repos"] for r in repo["rows"] if r["case"] == case)


def _kinds(data: dict, where: str) -> set[str]:
    return {f.kind for f in check_digest(data) if f.where.startswith(where)}


def test_the_chinese_demo_rows_pass_as_written(digest):
    assert _kinds(_zh_only(digest), "zh infer-serve#31") == set()


@pytest.mark.parametrize("answer, kind", [
    ("空 prompt 越界，计划拆成两步校验。修复 !57。", "tense"),
    ("正式修复 PR 在提交中。修复 !57。", "tense"),
    ("在 API 层增加参数校验，例如。", "cut"),
    ("在 API 层增加参数校验，非法参数返回 400…", "cut"),
    ("参数校验在 API 层完成。修复 !60（master）。", "credit"),
    ("Validate the request at the API layer and return 400 for an empty prompt.", "language"),
    ("【自检】main.go 修改。修复 !57。", "boilerplate"),
])
def test_each_planted_defect_is_caught_by_its_class(digest, answer, kind):
    data = _zh_only(digest)
    _row(data, "infer-serve#31")["answer"] = answer
    assert kind in _kinds(data, "zh infer-serve#31")


def test_the_fix_called_an_unrelated_link_is_a_credit_finding(digest):
    """infer-serve#33's own fix !61 was named beside the unrelated !60 ("与本单无关（!60、!61）")."""
    data = _zh_only(digest)
    row = _row(data, "infer-serve#33")
    assert "与本单无关（!60）" in row["answer"] and "credit" not in _kinds(data, "zh infer-serve#33")
    row["answer"] = row["answer"].replace("与本单无关（!60）", "与本单无关（!60、!61）")
    assert "credit" in _kinds(data, "zh infer-serve#33")


def test_an_unlanded_fix_told_as_merged_is_a_tense_finding(digest):
    data = _zh_only(digest)
    _row(data, "infer-serve#35")["answer"] = "问题已修复，09-18 合入。"
    assert "tense" in _kinds(data, "zh infer-serve#35")


def test_a_sentence_repeated_across_rows_is_boilerplate(digest):
    data = _zh_only(digest)
    for case in ("infer-serve#31", "infer-serve#32", "infer-serve#33"):
        _row(data, case)["answer"] += "属批量关单簇，关单时刻不说明修复。"
    assert any(f.kind == "boilerplate" and "批量关单簇" in f.text for f in check_digest(data))


def test_theme_counts_that_do_not_add_up(digest):
    data = _zh_only(digest)
    theme = data["digests"]["zh"]["themes"][0]
    theme["paragraph"] = f"本组 {len(theme['bullets'])} 案：2 案修复已合入、1 未落地、1 无代码修复。"
    assert "arithmetic" in _kinds(data, "zh theme 1")


def test_a_disclosure_count_that_differs_from_the_rows(digest):
    data = _zh_only(digest)
    data["digests"]["zh"]["disclosure"].append({"label": "x", "text": "按价值取头部 12 条深析，留 11 条入选。"})
    assert "disclosure" in _kinds(data, "zh disclosure")


def test_a_file_that_is_not_a_digest_is_refused():
    with pytest.raises(ValueError):
        check_digest({"format": "something-else"})


def _cli(*args: str) -> subprocess.CompletedProcess:
    """`fixlore check ARGS` run in this process (conftest.fixlore_here: the same main, exit code and
    output), none of the caller's FIXLORE_* settings in its environment."""
    return fixlore_here("check", *args, env={name: None for name in os.environ if name.startswith("FIXLORE_")})


def test_check_command_exit_codes(digest, tmp_path):
    clean = {**_zh_only(digest), "digests": {"zh": {**digest["digests"]["zh"], "repos": [], "themes": [],
                                                     "guide": [], "disclosure": []}}}
    (tmp_path / "clean").mkdir()
    (tmp_path / "clean" / "digest.json").write_text(json.dumps(clean), encoding="utf-8")
    assert _cli(str(tmp_path / "clean")).returncode == 0
    planted = _zh_only(digest)
    _row(planted, "infer-serve#31")["answer"] = "在 API 层增加参数校验，例如。"
    (tmp_path / "planted.json").write_text(json.dumps(planted), encoding="utf-8")
    found = _cli(str(tmp_path / "planted.json"), "--json")
    assert found.returncode == 1
    assert json.loads(found.stdout)["by_class"]["cut"] >= 1
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    assert _cli(str(tmp_path / "bad.json")).returncode == 2
    (tmp_path / "other.json").write_text('{"format": "x"}', encoding="utf-8")
    assert _cli(str(tmp_path / "other.json")).returncode == 2
    # a rendered page: one line naming the digest.json it was made from, not "is not JSON"
    (tmp_path / "clean" / "digest.zh.md").write_text("# digest\n", encoding="utf-8")
    page = _cli(str(tmp_path / "clean" / "digest.zh.md"))
    assert page.returncode == 2 and "is a rendered page" in page.stderr
    assert str(tmp_path / "clean" / "digest.json") in page.stderr and "Traceback" not in page.stderr


def test_a_sentence_cut_inside_the_cell_is_caught(digest):
    data = _zh_only(digest)
    _row(data, "infer-serve#31")["answer"] = "1.4.0 起 agent 默认以非 root…。升级后一直崩溃：。修复 !57。"
    assert "cut" in _kinds(data, "zh infer-serve#31")



def test_a_marked_quote_is_the_issues_words_an_unmarked_one_is_the_wrong_language(digest):
    data = copy.deepcopy(digest)
    data["digests"] = {"en": data["digests"]["en"]}
    row = next(r for repo in data["digests"]["en"]["repos"] for r in repo["rows"] if r["case"] == "infer-serve#31")
    quote = "空 prompt 编码后长度为 0，调度器计算 block 数时越界"
    row["answer"] = f"[zh] {quote}. Fix: !57 (master, merged 09-18)."
    row["untranslated"] = [quote]
    assert "language" not in _kinds(data, "en infer-serve#31 answer")
    row["answer"] = f"{quote}. Fix: !57 (master, merged 09-18)."          # the same words, not marked as a quote
    assert "language" in _kinds(data, "en infer-serve#31 answer")


def test_a_count_of_something_else_is_not_the_rows_count(digest):
    data = copy.deepcopy(digest)
    data["digests"] = {"en": data["digests"]["en"]}
    rows = sum(len(repo["rows"]) for repo in data["digests"]["en"]["repos"])
    disclosure = data["digests"]["en"]["disclosure"]
    disclosure.append({"label": "Series", "text": f"The previous backlog held 3: 0 kept here, 3 still waiting."})
    assert "disclosure" not in _kinds(data, "en disclosure 'Series'")
    disclosure.append({"label": "Funnel", "text": f"Analysed 12 in depth: {rows + 1} kept, 3 dropped."})
    assert "disclosure" in _kinds(data, "en disclosure 'Funnel'")


def _en_only(data: dict) -> dict:
    return _zh_only(data, "en")


def _en_row(data: dict, case: str) -> dict:
    return _row(data, case, "en")


def test_a_sentence_weighs_alike_in_either_language_for_boilerplate(digest):
    three = ("infer-serve#31", "infer-serve#32", "infer-serve#33")
    zh, en = _zh_only(digest), _en_only(digest)
    for case in three:       # the case's own close timing, in both languages: a fact's formula
        _row(zh, case)["answer"] += "合入当秒自动关单。"
        _en_row(en, case)["answer"] += " Closed in the same second as the merge."
    assert not any(f.kind == "boilerplate" for f in check_digest(zh) + check_digest(en))
    for case in three:       # a note on the method, repeated: what the reader of no. 16 sent back
        _en_row(en, case)["answer"] += " Part of a batch close storm; the close time does not indicate a fix."
    assert any(f.kind == "boilerplate" and "close storm" in f.text for f in check_digest(en))


def test_a_quoted_sentence_cut_at_its_colon_is_caught_in_the_english_digest(digest):
    en = _en_only(digest)
    _en_row(en, "infer-serve#31")["answer"] = "[zh] 升级后 agent 一直 CrashLoopBackOff：. Fix: !57 (master, merged 09-18)."
    assert "cut" in {f.kind for f in check_digest(en) if f.where.startswith("en infer-serve#31")}


def test_a_problem_is_the_issues_words_quoted_as_is_in_chinese_marked_in_english(digest):
    zh, en = _zh_only(digest), _en_only(digest)
    title = "Crash at startup when settings.toml is empty (TOMLDecodeError)"
    _row(zh, "infer-serve#31")["problem"] = title
    assert "language" not in _kinds(zh, "zh infer-serve#31 problem")
    _row(zh, "infer-serve#31")["answer"] = "Validate the request at the API layer and return 400 for an empty prompt."
    assert "language" in _kinds(zh, "zh infer-serve#31 answer")          # our words must be Chinese
    _en_row(en, "infer-serve#31")["problem"] = "批量请求中包含空 prompt 时服务进程崩溃"
    _en_row(en, "infer-serve#31")["untranslated"] = []
    assert "language" in _kinds(en, "en infer-serve#31 problem")         # a Chinese quote not marked


def _theme(data: dict, refs: list[str], paragraph: str) -> dict:
    theme = data["digests"]["zh"]["themes"][0]
    theme["bullets"] = [{"ref": r, "text": "", "problem": ""} for r in refs]
    theme["headline"], theme["paragraph"] = "1. 同类案例。", paragraph
    return data


@pytest.mark.parametrize("paragraph, wrong", [
    ("2 案：1 案修复已合入、1 案无代码修复。跨 2 个仓（cluster-agent 1、infer-serve 1）。", False),
    ("2 案：2 案无代码修复。跨 2 个仓（cluster-agent 1、infer-serve 1）。", True),    # #95's !145 merged
    ("2 案：1 案修复已合入、1 案修复未落地、1 案无代码修复。", True),                  # one case counted twice
    ("2 案：1 案修复已合入、1 案无代码修复。跨 2 个仓（cluster-agent 2、infer-serve 1）。", True),
    ("3 案：1 案修复已合入、2 案无代码修复。", True),                                  # names 2
])
def test_a_themes_count_sentence_adds_up_against_the_cases_it_names(digest, paragraph, wrong):
    data = _theme(_zh_only(digest), ["cluster-agent#95", "infer-serve#35"], paragraph)
    assert ("arithmetic" in _kinds(data, "zh theme 1")) is wrong


def test_a_chinese_guide_step_quotes_english_only_as_terms(digest):
    data = _zh_only(digest)
    step = data["digests"]["zh"]["guide"][0]
    step["first_action"] = "先核对 `CacheBlend`；答复：This is a fix for the vllm CacheBlend layer-wise adaptation"
    assert "language" in _kinds(data, "zh guide 1 first_action")        # an English clause, not a term
    step["first_action"] = "报 `RuntimeError` 时先核对 `torch.ops._C_ascend.moe_gating_top_k`（PR#4300 已合入）"
    assert "language" not in _kinds(data, "zh guide 1 first_action")    # terms in backticks are quoted
    step["first_action"] = "先确认所用 vLLM Ascend 版本是否含 PR#4300"
    assert "language" not in _kinds(data, "zh guide 1 first_action")    # a product's name is not a clause


@pytest.mark.parametrize("lang, paragraph", [
    ("zh", "2 案：2 案修复已合入。如 infer-serve#31：空 prompt 时，；cluster-agent#88：心跳超时。"),
    ("en", "2 cases: 2 with a merged fix. For example infer-serve#31: The only. Fixes merged 09-18."),
    ("en", "2 cases: 2 with a merged fix. For example infer-serve#31: the request goes to the; more. Fixes merged 09-18."),
    ("zh", "2 案：2 案修复已合入。如 infer-serve#31：1；cluster-agent#88：心跳超时。"),
    ("zh", "2 案：2 案修复已合入。如 infer-serve#31：(description not in the excerpt；cluster-agent#88：心跳超时。"),
    ("zh", "2 案：2 案修复已合入。如 infer-serve#31：Point `hcomm` at tag v9.0.0 (rest cut)。"),
])
def test_a_theme_paragraph_is_read_sentence_by_sentence_for_cuts(digest, lang, paragraph):
    """The check read a theme's bullets and headline but not its paragraph, where an example cause
    could stop mid-sentence ("For example X: The only.")."""
    data = _zh_only(digest, lang)
    data["digests"][lang]["themes"][0]["paragraph"] = paragraph
    assert "cut" in _kinds(data, f"{lang} theme 1 paragraph")


def test_the_demo_theme_paragraphs_read_whole(digest):
    for lang in ("zh", "en"):
        assert _kinds(_zh_only(digest, lang), f"{lang} theme") - {"arithmetic"} == set()


def test_a_lag_the_disclosure_gives_otherwise_than_the_row_is_caught(digest):
    data = _zh_only(digest)
    row = _row(data, "infer-serve#31")
    row["answer"] += "stale 关单，晚于合入 9 天。"
    data["digests"]["zh"]["disclosure"].append({"label": "时序", "text": "stale 关单 1 条（infer-serve#31 晚 8 天 23 小时）"})
    found = [f for f in check_digest(data) if f.kind == "disclosure" and "infer-serve#31" in f.why]
    assert found, check_digest(data)
    data["digests"]["zh"]["disclosure"][-1]["text"] = "stale 关单 1 条（infer-serve#31 晚 9 天）"
    assert not [f for f in check_digest(data) if f.kind == "disclosure" and "infer-serve#31" in f.why]


def test_a_theme_of_one_repository_must_say_why(digest):
    data = _theme(_zh_only(digest), ["infer-serve#31", "infer-serve#35"], "2 案：1 案修复已合入、1 案无代码修复。")
    assert "arithmetic" in _kinds(data, "zh theme 1")
    data["digests"]["zh"]["themes"][0]["paragraph"] += "仅见于 infer-serve：本批其他仓没有同类案例。"
    assert "arithmetic" not in _kinds(data, "zh theme 1")


def test_a_guide_action_said_verbatim_more_than_twice_is_boilerplate(digest):
    data = _zh_only(digest)
    guide = data["digests"]["zh"]["guide"]
    assert len(guide) >= 3
    for step in guide[:3]:
        step["first_action"] = "升级到含修复的版本"
    assert any(f.kind == "boilerplate" and f.where == "zh guide" for f in check_digest(data))
    guide[2]["first_action"] = "先确认所用版本"
    assert not any(f.where == "zh guide" for f in check_digest(data))


def test_a_theme_bullet_left_with_an_ordinal_says_nothing(digest):
    data = _zh_only(digest)
    bullet = data["digests"]["zh"]["themes"][0]["bullets"][0]
    assert "cut" not in _kinds(data, f"zh theme 1 {bullet['ref']}")
    bullet["text"] = "1（!57）"               # "根因： 1. …" read to its first sentence
    assert "cut" in _kinds(data, f"zh theme 1 {bullet['ref']}")
    bullet["text"] = ""                       # no text: the case's problem alone, no separator shown
    assert "cut" not in _kinds(data, f"zh theme 1 {bullet['ref']}")
    bullet["text"] = "升级（!57）"              # a Chinese word is two characters: it says something
    assert "cut" not in _kinds(data, f"zh theme 1 {bullet['ref']}")
    import time
    start = time.process_time()
    bullet["text"] = "!1 " * 30_000 + "x"    # hostile: a run of PRs that is not the end
    check_digest(data)
    assert time.process_time() - start < 2    # searched from every start in the run: 44 s
