"""The LLM backend against a real loopback HTTP server speaking the chat completions API:
retries, per-case fallback to offline (429 storm, timeout, malformed reply), cache, usage."""

from __future__ import annotations

import json

import pytest

from fake_openai import FakeOpenAI, Ok, Raw, Sleep, Status
from fixlore.analyse import analyse_cases
from fixlore.analyse.llm import LlmAnalyst, parse_reply, MalformedReply
from fixlore.analyse.promptfile import load_prompt
from test_analyse_offline import build_world

SECRET = "sk-test-do-not-log-0123456789"


def marker(key: str) -> str:
    return f"ISSUE {key}\n"


def pick(world, numbers):
    cases = [c for c in world.cases if c.number in numbers and c.funnel in ("selected", "analysis")]
    return sorted(cases, key=lambda c: numbers.index(c.number))


def make(fake, cache_path, **kw):
    return LlmAnalyst(base_url=fake.base_url, model="fake-qwen", key_env="FIXLORE_TEST_LLM_KEY",
                      cache_path=str(cache_path), timeout=kw.pop("timeout", 1.0), attempts=kw.pop("attempts", 3),
                      backoff_base=0.01, backoff_max=0.05, price_prompt=2e-6, price_completion=8e-6,
                      editorial=kw.pop("editorial", False), **kw)     # the editorial pass: test_editorial.py


def test_failures_fall_back_per_case_and_the_run_finishes(tmp_path, monkeypatch):
    monkeypatch.setenv("FIXLORE_TEST_LLM_KEY", SECRET)
    w = build_world()
    cases = pick(w, [101, 102, 103, 104, 105])
    k = {c.number: c.key for c in cases}
    script = {
        marker(k[101]): [Status(429), Ok()],                        # one 429, then fine: retried
        marker(k[102]): [Status(429, {"retry-after": "0"})],        # a 429 storm: every attempt refused
        marker(k[103]): [Sleep(2.5)],                               # slower than the client's timeout
        marker(k[104]): [Raw("Sure! Here is the analysis: {problem: ...")],   # malformed reply
        marker(k[105]): [Status(503), Ok(content={
            "problem": "A2 数据缺失", "answer": "官方 26Q3 分三批补测。", "theme": "profiling-data",
            "symptom": "数据库缺 A2", "first_action": "等 26Q3 数据", "keep": False,
            "drop_reason": "consultation_only", "notes": ["schedule only"]})],
    }
    with FakeOpenAI(script) as fake:
        backend = make(fake, tmp_path / "llm.sqlite", timeout=0.8, attempts=2)
        summary = analyse_cases(cases, w.corpus, backend, workers=3)
        assert fake.count(marker(k[101])) == 2
        assert fake.count(marker(k[102])) == 2          # attempts exhausted
        assert fake.count(marker(k[103])) == 2
        assert fake.count(marker(k[104])) == 1          # malformed is not retried
        assert fake.count(marker(k[105])) == 2          # 503 retried
        assert all(r["auth"] == f"Bearer {SECRET}" for r in fake.requests)
        assert all(r["path"] == "/v1/chat/completions" for r in fake.requests)

    by = {c.number: c for c in cases}
    assert by[101].analysed_by == "llm:fake-qwen" and by[101].problem.startswith("[llm]")
    assert by[102].analysed_by == "offline (llm failed: 429 rate limited)"
    assert by[103].analysed_by == "offline (llm failed: timeout)"
    assert by[104].analysed_by.startswith("offline (llm failed: malformed reply")
    for n in (102, 103, 104):                           # the offline answer stands in
        assert not by[n].problem.startswith("[llm]") and f"!{by[n].fix[0].number}" in by[n].answer
    assert by[105].funnel == "analysis" and by[105].drop_reason == "consultation_only"

    assert summary["llm_failed"] == 3 and sorted(summary["fallbacks"]) == sorted([k[102], k[103], k[104]])
    llm = summary["llm"]
    assert llm["llm_failures"] == {"429 rate limited": 1, "timeout": 1, "malformed reply": 1}
    assert llm["tokens"] == {"prompt": 240 + 10, "completion": 80 + 5}
    assert llm["cost"] == pytest.approx(250 * 2e-6 + 85 * 8e-6)
    assert llm["prompt_version"].startswith("analyse_case.v2@")
    assert SECRET not in json.dumps(summary, ensure_ascii=False)
    assert all(SECRET not in c.analysed_by and SECRET not in c.answer for c in cases)


def test_cache_hit_on_rerun_makes_no_request(tmp_path):
    cache = tmp_path / "llm.sqlite"
    w1 = build_world()
    first = pick(w1, [101, 110, 115])
    with FakeOpenAI() as fake:
        analyse_cases(first, w1.corpus, make(fake, cache), workers=2)
        assert len(fake.requests) == 3
    w2 = build_world()
    again = pick(w2, [101, 110, 115])
    with FakeOpenAI() as fake:
        backend = make(fake, cache)
        summary = analyse_cases(again, w2.corpus, backend, workers=2)
        assert fake.requests == []
    assert summary["llm"]["cache_hits"] == 3 and summary["llm"]["requests"] == 0
    assert summary["llm"]["tokens"] == {"prompt": 0, "completion": 0} and summary["llm"]["cost"] == 0
    assert [c.problem for c in again] == [c.problem for c in first]
    assert all(c.analysed_by == "llm:fake-qwen (cached)" for c in again)


def test_failed_cases_are_not_cached(tmp_path):
    cache = tmp_path / "llm.sqlite"
    w = build_world()
    cases = pick(w, [101])
    with FakeOpenAI({marker(cases[0].key): [Raw("not json")]}) as fake:
        analyse_cases(cases, w.corpus, make(fake, cache))
    assert "llm failed" in cases[0].analysed_by
    with FakeOpenAI() as fake:
        analyse_cases(cases, w.corpus, make(fake, cache))
        assert len(fake.requests) == 1
    assert cases[0].analysed_by == "llm:fake-qwen"


def test_llm_themes_are_grouped_across_cases(tmp_path):
    w = build_world()
    cases = pick(w, [101, 102, 103, 104, 105, 107])
    with FakeOpenAI() as fake:       # every default reply proposes the theme "llm-theme"
        summary = analyse_cases(cases, w.corpus, make(fake, tmp_path / "c.sqlite"))
    assert list(summary["themes"]) == ["llm-theme"] and len(summary["themes"]["llm-theme"]) == summary["kept"]


@pytest.mark.parametrize("content, why", [
    ("", "not JSON"),
    ("[1, 2]", "not an object"),
    ('{"problem": "x", "answer": "y", "keep": false, "drop_reason": "because"}', "drop_reason"),
    ('{"problem": "", "answer": "y", "keep": true}', "problem"),
])
def test_reply_validation(content, why):
    with pytest.raises(MalformedReply, match=why):
        parse_reply(content)


def test_reply_in_a_code_fence_is_accepted():
    r = parse_reply('```json\n{"problem": "p", "answer": "a", "keep": true, "drop_reason": "x", "notes": "n"}\n```')
    assert r.keep and r.drop_reason == "" and r.notes == ["n"]


def test_prompt_file_is_versioned_and_carries_the_case(tmp_path):
    for name in ("analyse_case.v1", "analyse_case.v2"):
        p = load_prompt(name)
        assert p.version_id.startswith(f"{name}@") and len(p.digest) == 12
    w = build_world()
    case = pick(w, [101])[0]
    from fixlore.analyse.context import ContextIndex

    with FakeOpenAI() as fake:
        msgs = make(fake, tmp_path / "c.sqlite").messages(case, ContextIndex(w.corpus).context(case))
    assert msgs[0]["role"] == "system" and "JSON" in msgs[0]["content"]
    user = msgs[1]["content"]
    assert marker(case.key) in user and "!795" in user and "maintainer-a" in user and "{facts}" not in user


def test_cli_analyse_with_the_llm_backend(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from fixlore.cli.commands import app

    monkeypatch.setenv("FIXLORE_TEST_LLM_KEY", SECRET)
    w = build_world()
    cases = pick(w, [101, 102])
    src = tmp_path / "cases.jsonl"
    src.write_text("".join(json.dumps(c.to_export(), ensure_ascii=False) + "\n" for c in cases), "utf-8")
    with FakeOpenAI({marker(cases[1].key): [Raw("{broken")]}) as fake:
        res = CliRunner().invoke(app, [
            "analyse", "--cases", str(src), "--out", str(tmp_path / "out.jsonl"), "--no-embed",
            "--backend", "llm", "--llm-base-url", fake.base_url, "--llm-model", "fake-qwen",
            "--llm-key-env", "FIXLORE_TEST_LLM_KEY", "--llm-cache", str(tmp_path / "cache.sqlite"),
            "--summary", str(tmp_path / "summary.json"), "--price-prompt", "0.000001"])
        assert res.exit_code == 0, res.output
        rows_asked = [r for r in fake.requests if not r["body"]["messages"][1]["content"].startswith("TASK ")]
        assert len(rows_asked) == 2
    assert "1 fell back to offline" in res.output and SECRET not in res.output
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text("utf-8").splitlines()]
    assert [r["analysed_by"].split(" (")[0] for r in rows] == ["llm:fake-qwen", "offline"]
    summary = json.loads((tmp_path / "summary.json").read_text("utf-8"))["analyse"]
    assert summary["llm"]["cost"] == pytest.approx((120 + 10) * 1e-6)
    assert summary["decisions"][cases[1].key]["notes"][-1].startswith("llm failed: malformed reply")
    # the editorial pass ran too; the fake answers it in the rows' shape (Chinese "answer"), so
    # every part fell back: a repo reply lacks its fields, a translation is still Chinese
    ed = summary["editorial"]
    assert ed["fallbacks"] and not any(ed["wrote"].values())
    assert all(f["reason"].startswith(("malformed reply", "untranslated")) for f in ed["fallbacks"])
    assert ed["requests"] == len(fake.requests) - 2 and summary["llm"]["requests"] == 2


def test_a_model_answer_missing_the_fix_gets_the_proven_facts(tmp_path):
    w = build_world()
    cases = pick(w, [101, 558])
    good = {"problem": "p", "answer": "根因：route() 提前计算 topk。!795 修复，合入当秒关单。", "keep": True}
    with FakeOpenAI({marker(cases[0].key): [Ok(content=good)]}) as fake:     # 558 gets the default reply
        analyse_cases(cases, w.corpus, make(fake, tmp_path / "c.sqlite"))
    assert cases[0].answer == good["answer"]                      # the model named the fix: left as is
    assert cases[1].answer.startswith("[llm]") and "!958" in cases[1].answer and "backport !990" in cases[1].answer


def test_a_server_refusing_json_mode_is_asked_in_plain_mode(tmp_path):
    w = build_world()
    cases = pick(w, [101])
    refusal = Status(400, message="'response_format' of type 'json_object' is not supported by this model")
    with FakeOpenAI({marker(cases[0].key): [refusal, Ok()]}) as fake:
        backend = make(fake, tmp_path / "c.sqlite")
        analyse_cases(cases, w.corpus, backend)
        bodies = [r["body"] for r in fake.requests]
    assert "response_format" in bodies[0] and "response_format" not in bodies[1]
    assert cases[0].analysed_by == "llm:fake-qwen" and backend.json_mode is False


def test_another_bad_request_keeps_json_mode_and_falls_back_for_that_case(tmp_path):
    w = build_world()
    cases = pick(w, [101])
    too_long = Status(400, message="This model's maximum context length is 8192 tokens")
    with FakeOpenAI({marker(cases[0].key): [too_long, Ok()]}) as fake:
        backend = make(fake, tmp_path / "c.sqlite")
        analyse_cases(cases, w.corpus, backend)
        requests = len(fake.requests)
    assert requests == 1 and backend.json_mode is True
    assert cases[0].analysed_by.startswith("offline (llm failed")


def v2_reply(**fields):
    base = {"problem": "开启 shared-expert-tp 时 topk 未随 TP 切分", "mechanism": "", "fix": "", "workaround": "",
            "scope": "", "numbers": [], "trap": "", "theme": "moe-routing", "symptom": "all_to_all 通信量约 2 倍",
            "first_action": "升级到含修复的版本", "keep": True, "drop_reason": "", "notes": ["root cause stated"]}
    return base | fields


GROUNDED = "route() 在 _dp_transform_enter 之前按全量 token 计算 topk，导致 init_routing_v2 的 all_to_all 分发量膨胀"
INVENTED_NUMBER = "实测膨胀 3.7 倍，影响 CANN 8.3.1 以上版本"
WRONG_PR = "同一问题已由 !7999 在 release 分支修复"


def test_the_v2_fields_make_the_answer_and_the_context_carries_pr_material(tmp_path):
    w = build_world()
    case = pick(w, [101])[0]
    reply = v2_reply(mechanism=GROUNDED, fix="路由计算移到 token 切片之后")
    with FakeOpenAI(script={marker(case.key): [Ok(reply)]}) as fake:
        analyst = make(fake, tmp_path / "c.sqlite")
        analyse_cases([case], w.corpus, analyst)
        body = fake.requests[0]["body"]
    assert case.answer.startswith(GROUNDED) and "路由计算移到 token 切片之后" in case.answer
    assert "!795" in case.answer                                    # the pipeline's own fact, added
    assert body["response_format"]["type"] == "json_schema"
    assert "mechanism" in body["response_format"]["json_schema"]["schema"]["properties"]
    user = body["messages"][1]["content"]
    assert "FIX PULL REQUESTS" in user and "本 PR 将路由计算移到 token 切片之后" in user
    assert analyst.stats()["grounding"] == {"checked": 1, "repaired": 0, "dropped": 0}
    assert case.written.mechanism == GROUNDED and case.written.change == "路由计算移到 token 切片之后"
    assert case.written.lang == "zh" and "!795" not in case.written.text()


def test_an_invented_number_and_a_wrong_pr_are_repaired_in_one_round(tmp_path):
    w = build_world()
    case = pick(w, [101])[0]
    first = v2_reply(mechanism=GROUNDED + "。" + INVENTED_NUMBER, fix=WRONG_PR)
    second = v2_reply(mechanism=GROUNDED, fix="路由计算移到 token 切片之后")
    with FakeOpenAI(script={marker(case.key): [Ok(first), Ok(second)]}) as fake:
        analyst = make(fake, tmp_path / "c.sqlite")
        analyse_cases([case], w.corpus, analyst)
        repair = fake.requests[1]["body"]["messages"][-1]["content"]
    assert "3.7 倍" in repair and "8.3.1" in repair and "!7999" in repair     # named back to the model
    assert "3.7" not in case.answer and "7999" not in case.answer and GROUNDED in case.answer
    assert analyst.stats()["grounding"] == {"checked": 1, "repaired": 1, "dropped": 0}
    assert "claims dropped" not in case.analysed_by


def test_claims_still_unfounded_after_the_repair_are_dropped_and_the_row_says_so(tmp_path):
    w = build_world()
    case = pick(w, [101])[0]
    stubborn = v2_reply(mechanism=GROUNDED + "。" + INVENTED_NUMBER, fix=WRONG_PR)
    with FakeOpenAI(script={marker(case.key): [Ok(stubborn)]}) as fake:
        analyst = make(fake, tmp_path / "c.sqlite")
        analyse_cases([case], w.corpus, analyst)
    assert GROUNDED in case.answer and "3.7" not in case.answer and "7999" not in case.answer
    assert "claims dropped" in case.analysed_by
    assert analyst.stats()["grounding"] == {"checked": 1, "repaired": 0, "dropped": 1}


def test_a_reply_with_nothing_founded_left_falls_back_offline(tmp_path):
    w = build_world()
    case = pick(w, [101])[0]
    invented = v2_reply(mechanism=INVENTED_NUMBER, fix=WRONG_PR)
    with FakeOpenAI(script={marker(case.key): [Ok(invented)]}) as fake:
        analyst = make(fake, tmp_path / "c.sqlite")
        analyse_cases([case], w.corpus, analyst)
    # its real cause, not "malformed reply" (issue #22), and what was removed is kept on the case
    assert case.analysed_by.startswith("offline (llm failed: nothing grounded")
    assert "7999" not in case.answer and "3.7" not in case.answer
    assert "!7999: not in the material" in case.written.removed


def test_a_pr_the_material_names_for_another_issue_is_not_credited_as_this_ones_fix(tmp_path):
    """#631's row said "!1008 修复了 cpu_blocks 虚高" because !1008 was in its material, as the fix of
    #647: being in the material is not the relation. Here #102's thread names !795, #101's fix."""
    from fixlore.core.model import Comment

    w = build_world()
    case = pick(w, [102])[0]
    w.corpus.comments.append(Comment(repo=case.repo, parent_kind="issue", parent_number=102, id="9102",
                                     author="maintainer-a", body="#101 的 topk 问题由 !795 修复，与本 issue 同源。",
                                     created_at=case.closed_at))
    wrong = v2_reply(mechanism="路由统计在切分前进行", fix="!795 修复了路由统计的切分顺序", symptom="通信量估计失真")
    with FakeOpenAI(script={marker(case.key): [Ok(wrong)]}) as fake:
        analyst = make(fake, tmp_path / "c.sqlite")
        analyse_cases([case], w.corpus, analyst)
        repair = fake.requests[1]["body"]["messages"][-1]["content"]
    assert "!795" in fake.requests[0]["body"]["messages"][1]["content"]     # the PR is in the material
    assert "not this issue's fix" in repair and "!795" in repair
    assert "795" not in case.answer and "路由统计在切分前进行" in case.answer and "!796" in case.answer
    assert case.written.removed == ["!795: credited as the fix, not this issue's"]
    assert "claims dropped" in case.analysed_by


def test_its_own_fix_credited_passes_and_an_english_step_leaves_a_chinese_guide(tmp_path):
    w = build_world()
    case = pick(w, [101])[0]
    reply = v2_reply(mechanism=GROUNDED, fix="!795 修复了路由计算的顺序", first_action="Upgrade to the release with the fix")
    with FakeOpenAI(script={marker(case.key): [Ok(reply)]}) as fake:
        analyst = make(fake, tmp_path / "c.sqlite")
        analyse_cases([case], w.corpus, analyst)
    assert analyst.stats()["grounding"] == {"checked": 1, "repaired": 0, "dropped": 0}
    assert "!795 修复了路由计算的顺序" in case.answer and not case.written.removed
    assert case.first_action and "Upgrade" not in case.first_action
    assert sum(1 for ch in case.first_action if "\u4e00" <= ch <= "\u9fff") >= 2


def test_grounding_and_failures_end_to_end_are_disclosed_in_the_digest(tmp_path):
    """#14's acceptance: a scripted server answers one case with an invented number (kept after
    repair), one with a wrong PR (never repaired), one with malformed JSON and one too slowly. The
    check catches the first two, the run finishes, and the disclosure says what happened."""
    from fixlore.compose import compute_figures
    from fixlore.compose.digest import build_digest

    w = build_world()
    cases = pick(w, [101, 102, 103, 104])
    k = {c.number: c.key for c in cases}
    script = {
        marker(k[101]): [Ok(v2_reply(mechanism=GROUNDED + "。" + INVENTED_NUMBER)), Ok(v2_reply(mechanism=GROUNDED))],
        marker(k[102]): [Ok(v2_reply(mechanism="路由统计在切分前进行", fix=WRONG_PR))],
        marker(k[103]): [Raw('{"problem": "stop 脚本误杀", "mechanism": ')],
        marker(k[104]): [Sleep(2.5)],
    }
    with FakeOpenAI(script) as fake:
        summary = analyse_cases(cases, w.corpus, make(fake, tmp_path / "llm.sqlite", timeout=0.8, attempts=1))
    by = {c.number: c for c in cases}
    assert "3.7" not in by[101].answer and by[101].analysed_by == "llm:fake-qwen"
    assert "7999" not in by[102].answer and "claims dropped" in by[102].analysed_by
    assert by[103].analysed_by.startswith("offline (llm failed: malformed reply")
    assert by[104].analysed_by == "offline (llm failed: timeout)"
    run = {"stages": [{"name": "analyse", "summary": summary}]}
    an = compute_figures(w.cases, run)["analysis"]
    assert an["llm_fallbacks"] == 2
    assert an["grounding"] == {"checked": 2, "repaired": 1, "claims_dropped": 1}
    zh = {i["label"]: i["text"] for i in build_digest(w.cases, run, "zh")["disclosure"]}["分析方式"]
    en = {i["label"]: i["text"] for i in build_digest(w.cases, run, "en")["disclosure"]}["Analysis"]
    assert "LLM 失败回退离线 2 条" in zh and "返修后通过 1 条" in zh and "删去无据陈述 1 条" in zh
    assert "2 fell back to offline" in en and "1 passed after one repair" in en and "1 had unfounded claims removed" in en
    # and what the removal took out of #102's row, by case
    assert "删去：" in zh and "!7999（材料中没有）" in zh
    assert "removed: " in en and "!7999: not in the material" in en
