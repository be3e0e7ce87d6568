"""The English digest writes our own words in English and marks what it quotes from Chinese issues;
theme headlines are sentences; the guide gives one row per shared cause."""

from __future__ import annotations

import re

from fixlore.compose.digest import build_digest
from fixlore.compose.language import MARK, mark_runs
from test_digest import analysed_world

HAN = re.compile(r"[\u3400-\u9fff]")
IDENTIFIERS = ("untranslated", "themes", "kb", "kb_refs")   # ids and file names, not prose


def leftovers(node, quoted=()) -> list[tuple[str, str]]:
    """Strings of the digest with Chinese left once the item's declared quotes are taken out."""
    found = []
    if isinstance(node, dict):
        quoted = tuple(quoted) + tuple(node.get("untranslated", []))
        for k, v in node.items():
            if k not in IDENTIFIERS:
                found += leftovers(v, quoted)
    elif isinstance(node, list):
        for v in node:
            found += leftovers(v, quoted)
    elif isinstance(node, str):
        rest = node
        for q in sorted(quoted, key=len, reverse=True):
            rest = rest.replace(q, "")
        if HAN.search(rest):
            found.append((node[:80], rest[:80]))
    return found


def test_the_english_digest_has_no_chinese_of_its_own_and_marks_every_quote():
    cases, run = analysed_world()
    en = build_digest(cases, run, "en")
    assert leftovers(en) == []
    rows = [r for repo in en["repos"] for r in repo["rows"]]
    chinese = [r for r in rows if HAN.search(r["problem"])]
    assert chinese and all(r["problem"].startswith(MARK) for r in chinese)
    # the pipeline's facts are worded in English, after the quoted explanation
    fixed = next(r for r in rows if "!795" in r["answer"])
    assert re.search(r"Fix: !795 \(merged 09-08\)", fixed["answer"]) and fixed["answer"].startswith(MARK)   # the default branch goes unnamed (issue #22)


def test_the_chinese_digest_quotes_nothing():
    cases, run = analysed_world()
    zh = build_digest(cases, run, "zh")
    assert MARK not in str(zh) and all(not r["untranslated"] for repo in zh["repos"] for r in repo["rows"])


def test_theme_headlines_are_sentences():
    cases, run = analysed_world()
    for lang, end in (("zh", "。"), ("en", ".")):
        for t in build_digest(cases, run, lang)["themes"]:
            assert t["headline"].endswith(end) and re.match(r"^\d+\. ", t["headline"]), t["headline"]


def test_the_guide_merges_cases_fixed_by_the_same_change():
    cases, run = analysed_world()
    for lang in ("zh", "en"):
        guide = build_digest(cases, run, lang)["guide"]
        shared = [g for g in guide if {c["ref"].split("#")[1] for c in g["cases"]} >= {"103", "104"}]
        assert len(shared) == 1, guide                      # !850 fixes both: one row
        assert " / " in shared[0]["symptom"]                # both symptoms kept
        # what the fix changed comes first, the PR that carries it after
        action = shared[0]["first_action"]
        assert "protected_pids" in action and not action.startswith(("升级", "Upgrade"))
        assert action.endswith("（!850 已合入）" if lang == "zh" else "(landed in !850)")


def test_mark_runs_quotes_each_embedded_piece_only():
    said: list[str] = []
    text = mark_runs("highest value: reduce-overhead 模式 capture 失败, plain title, 另一个标题.", "en", said)
    assert text == f"highest value: {MARK} reduce-overhead 模式 capture 失败, plain title, {MARK} 另一个标题."
    assert said == ["reduce-overhead 模式 capture 失败", "另一个标题"]
    assert mark_runs("中文原样", "zh", said) == "中文原样"



def test_mark_runs_never_marks_inside_a_code_span():
    """A quoted clause that names `route()`: the brackets of the code span are not a clause break
    (the Ascend digest printed "`route()[zh] ` 在 …"), and a NUL in the text cannot pick a span."""
    said: list[str] = []
    text = mark_runs("For example msmodeling#390: 开启 `shared_expert_tp` 时 `route()` 在 `enter` 之前计算; "
                     "then (a, 另一处)", "en", said)
    assert text == ("For example msmodeling#390: [zh] 开启 `shared_expert_tp` 时 `route()` 在 `enter` 之前计算; "
                    "then (a, [zh] 另一处)")
    assert said == ["开启 `shared_expert_tp` 时 `route()` 在 `enter` 之前计算", "另一处"]
    assert mark_runs("a \x000\x00 中文 `x()`", "en", []) == "[zh] a 0 中文 `x()`"

def test_a_linked_pr_that_is_not_the_fix_is_said_in_both_languages():
    from fixlore.wording.facts import close_sentence
    from fixlore.core.model import Case, FixRef

    case = Case(repo="o/r", number=631, url="https://gitcode.com/o/r/issues/631", timing="same_second",
                fix=[FixRef(repo="o/r", number=986, role="fix", state="merged", url="https://gitcode.com/o/r/merge_requests/986")],
                candidates=[{"repo": "o/r", "number": 1008, "verdict": "unrelated",
                             "unrelated": "linked !1008 names this issue only as background and names #647 as what it fixes",
                             "signals": [{"kind": "linked", "detail": "platform link"}]},
                            {"repo": "o/r", "number": 990, "verdict": "unrelated", "unrelated": "mentioned only",
                             "signals": [{"kind": "mention", "detail": ""}]}])
    assert close_sentence(case, True) == "合入当秒自动关单；页面关联的 !1008 不是本单修复（它修 #647）"
    assert "the linked !1008 is not this issue's fix" in close_sentence(case, False)
    assert "990" not in close_sentence(case, True)                  # not linked on the page: nothing to warn about
    case.traps = ["linked_unrelated"]
    assert "不是本单修复" not in close_sentence(case, True)         # the trap's own sentence says it


def test_an_english_sentence_that_starts_with_code_keeps_its_case():
    from fixlore.wording.sentence import capital

    for code in ("pytest.approx gives a confusing error", "npu_smi info fails", "torch.compile() hangs",
                 "--timeout is ignored", "v0.18.0 adds it", "fooBar is unset", "`x` is None", "gemm_v0 算错"):
        assert capital(code) == code
    assert capital("the cache is stale") == "The cache is stale"
    assert capital("") == ""
