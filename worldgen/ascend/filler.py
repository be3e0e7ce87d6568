"""Generated traffic around the deep cases: the rank backlog, floods, cheap-stage drops, window-stage and older issues.

Counts follow the seed's funnel (1,019 closed in the window; 281 -> 38 floods -> 243 pool -> top 63)."""
from __future__ import annotations

import random
from datetime import datetime, timedelta

from . import texts
from .spec import PR
from .vocab import GIVEN, HANDLES, SURNAMES, family
from .world import ROBOT, World, iso, parse, shift

# cheap-stage split of the 738 (recorded in the world README)
COUNTS = {"unresolved": 420, "internal": 230, "cve": 70, "empty_title": 18}
NOISE = {"api": 20, "dup_ignore": 10, "near_identical": 8}
RANK_TOTAL = 180

WIN_START = datetime(2026, 9, 17, 0, 0, 0)
WIN_END = datetime(2026, 9, 20, 23, 59, 59)

# repos with traffic in the window, and their weights
ACTIVE = {
    "Ascend/pytorch": 14, "Ascend/MindSpeed-LLM": 12, "Ascend/MindSpeed": 6, "Ascend/MindSpeed-MM": 5, "Ascend/mind-cluster": 5,
    "Ascend/MindIE-LLM": 6, "Ascend/torchair": 4, "Ascend/msmodelslim": 3, "Ascend/msmodeling": 3, "Ascend/op-plugin": 5,
    "Ascend/MindSpeed-RL": 4, "Ascend/triton-ascend": 5, "Ascend/mstt": 4, "Ascend/msprobe": 2, "Ascend/MindIE-SD": 3,
    "Ascend/MindIE-Motor": 2, "Ascend/memfabric_hybrid": 1, "Ascend/memcache": 2, "Ascend/msinsight": 2, "Ascend/DrivingSDK": 3,
    "Ascend/modelzoo-pytorch": 4, "Ascend/samples": 2, "Ascend/docs": 1,
    "Ascend/ascend-docker-runtime": 1, "Ascend/ascend-device-plugin": 1, "Ascend/npu-exporter": 1, "Ascend/MindIE-Turbo": 2,
    "Ascend/sglang-ascend": 2, "Ascend/verl-ascend": 2, "Ascend/llama-factory-ascend": 1, "Ascend/apex": 1, "Ascend/vision": 1,
    "Ascend/msit": 2, "Ascend/msprof": 1, "Ascend/RecSDK": 1, "Ascend/MindSpeed-Core-MS": 2, "Ascend/tilelang-ascend": 1,
    "cann/atb-models": 3, "cann/ascend-transformer-boost": 2, "Ascend/MindIE-Service": 1, "Ascend/MindSpeed-Bridge": 1,
    "cann/ops-nn": 6, "cann/ops-transformer": 6, "cann/ops-math": 3, "cann/ops-cv": 1, "cann/catlass": 3, "cann/asc-devkit": 3,
    "cann/pyasc": 1, "cann/hcomm": 2, "cann/hccl": 2, "cann/runtime": 1, "cann/ge": 2, "cann/metadef": 1, "cann/shmem": 1,
    "cann/cann-recipes-infer": 2, "cann/cann-recipes-train": 1, "cann/cann-samples": 1, "cann/docs": 1, "cann/ops-moe": 1,
    "cann/ops-attention": 1, "cann/ascendc-samples": 1, "cann/community": 1, "cann/atvc": 1,
}
# the case repos keep their filler numbers clear of the seed's numbers
NUMBER_BASE = {"Ascend/msmodeling": 300, "Ascend/MindSpeed-MM": 500, "Ascend/mind-cluster": 1100, "Ascend/msmodelslim": 440,
               "Ascend/MindSpeed-Bridge": 30, "Ascend/MindIE-Motor": 600, "Ascend/memfabric_hybrid": 460, "Ascend/pytorch": 3100,
               "Ascend/MindSpeed-LLM": 2050, "Ascend/torchair": 150, "Ascend/memcache": 60, "Ascend/msinsight": 210,
               "Ascend/DrivingSDK": 180, "cann/ops-nn": 900, "cann/ops-transformer": 1200, "cann/hcomm": 240}
PR_BASE_FACTOR = 3
# generated PRs of the case repos continue after the seed's PR numbers
PR_BASE = {"Ascend/msmodeling": 876, "Ascend/MindSpeed-MM": 3175, "Ascend/mind-cluster": 4722, "Ascend/msmodelslim": 986,
           "Ascend/MindSpeed-Bridge": 138, "Ascend/MindIE-Motor": 1010, "Ascend/memfabric_hybrid": 1325}


class Filler:
    def __init__(self, w: World):
        self.w = w
        self.r = random.Random(f"{w.seed}:filler")
        self.users = self._users(520)
        self.maint: dict[str, list[str]] = {}
        self.used_numbers: dict[str, set] = {}
        self.used_prs: dict[str, set] = {}
        self.next_number: dict[str, int] = {}
        self.next_pr: dict[str, int] = {}
        self.pinned: set = set()      # (repo, number) of issues whose close time must not move
        self.filler_keys: list = []
        for (repo, n) in w.issues:
            self.used_numbers.setdefault(repo, set()).add(n)
            self.pinned.add((repo, n))
        for (repo, n) in w.pulls:
            self.used_prs.setdefault(repo, set()).add(n)
        missing = [k for k in ACTIVE if k not in w.repos]
        assert not missing, missing
        self.repo_list = [k for k in ACTIVE]
        self.repo_weights = [ACTIVE[k] for k in self.repo_list]

    # ------------------------------------------------------------------ people and numbers
    def _users(self, n):
        out, seen = [], set()
        r = random.Random(f"{self.w.seed}:users")
        while len(out) < n:
            k = r.random()
            if k < 0.45:
                name = r.choice(SURNAMES) + r.choice(GIVEN) + (str(r.randint(1, 999)) if r.random() < 0.5 else "")
            elif k < 0.65:
                name = f"{r.choice(SURNAMES)}_{r.choice(GIVEN)}{r.choice(['', '_', ''])}{r.choice(['', 'hw', 'ai', str(r.randint(10, 99))])}"
            elif k < 0.8:
                name = f"{r.choice('wlzcyhxj')}{r.randint(30000000, 69999999):08d}"
            else:
                name = f"{r.choice(HANDLES)}{r.choice(['_', '-', ''])}{r.choice(SURNAMES)}{r.randint(1, 99)}"
            if name not in seen:
                seen.add(name)
                out.append(name)
        return out

    def maintainers(self, repo):
        if repo not in self.maint:
            r = random.Random(f"{self.w.seed}:maint:{repo}")
            pool = [u for u in self.users[:120]]
            self.maint[repo] = r.sample(pool, 3)
        return self.maint[repo]

    def number(self, repo):
        used = self.used_numbers.setdefault(repo, set())
        if repo not in self.next_number:
            self.next_number[repo] = NUMBER_BASE.get(repo, random.Random(f"{self.w.seed}:nb:{repo}").randint(20, 1800))
        n = self.next_number[repo]
        while n in used:
            n += 1
        used.add(n)
        self.next_number[repo] = n + 1 + (1 if self.r.random() < 0.25 else 0)
        return n

    def pr_number(self, repo):
        used = self.used_prs.setdefault(repo, set())
        if repo not in self.next_pr:
            self.next_pr[repo] = PR_BASE.get(repo) or (NUMBER_BASE.get(repo, 400) * PR_BASE_FACTOR
                                                       + random.Random(f"{self.w.seed}:pb:{repo}").randint(50, 400))
        n = self.next_pr[repo]
        while n in used:
            n += 1
        used.add(n)
        self.next_pr[repo] = n + self.r.randint(1, 9)
        return n

    # ------------------------------------------------------------------ time
    def close_time(self):
        r = self.r
        day = WIN_START + timedelta(days=r.randint(0, 3))
        hour = r.choices(range(24), weights=[1, 1, 0.5, 0.3, 0.3, 0.3, 0.5, 1, 3, 7, 9, 9, 5, 5, 8, 9, 9, 8, 5, 4, 5, 5, 3, 2])[0]
        return iso(day + timedelta(hours=hour, minutes=r.randint(0, 59), seconds=r.randint(0, 59)))

    def created_before(self, close, min_hours=0.3, max_days=240):
        r = self.r
        hours = min_hours * (max_days * 24 / min_hours) ** r.random()
        return iso(parse(close) - timedelta(hours=hours, seconds=r.randint(0, 3599)))

    def between(self, a, b, frac):
        da, db = parse(a), parse(b)
        return iso(da + (db - da) * frac)

    def pick_repo(self):
        return self.r.choices(self.repo_list, weights=self.repo_weights)[0]

    def fam(self, repo):
        owner, path = repo.split("/")
        return family(owner, path)

    def who(self, repo, role, author):
        if role == "author":
            return author
        if role == "maint":
            return self.r.choice(self.maintainers(repo))
        return self.r.choice(self.users)

    # ------------------------------------------------------------------ one closed issue
    def closed_issue(self, repo, title, body, author, *, issue_type, labels=(), state_kind="done", replies=(),
                     closer_role="maint", close=None, created=None, security=False, stage, pr=None, traps=(), pinned=False,
                     thanks_after=False):
        w, r = self.w, self.r
        title = texts.tidy(title)
        close = close or self.close_time()
        created = created or self.created_before(close)
        closer = ROBOT[repo.split("/")[0]] if closer_role == "robot" else self.who(repo, closer_role, author)
        n = self.number(repo)
        iss = w.new_issue(repo, n, title, body, author, created, issue_type=issue_type, labels=labels, state_kind=state_kind,
                          assignee=self.maintainers(repo)[0] if r.random() < 0.55 else "", security=security)
        k = len(replies)
        for i, (role, text) in enumerate(replies):
            when = self.between(created, close, (i + 1) / (k + 1.3) * r.uniform(0.6, 1.0))
            w.comment(iss, when, self.who(repo, role, author), text)
        if closer_role == "robot":
            st = w.style(repo)
            w.event(iss, "issue_state", f"将状态从 {st['open'][1]} 修改为 {st['resolved']}", shift(close, days=-4, hours=-r.randint(1, 30)),
                    self.maintainers(repo)[0])
            w.comment(iss, close, closer, f"此 issue 处于「{st['resolved']}」状态 4 天以上且无新的更新，机器人自动关闭。如问题仍存在，请重新打开。")
        iss["finished_at"] = close
        iss["state"] = "closed"
        iss["closer"] = closer
        w.event(iss, "closed", "关闭了 Issue", close, closer)
        if thanks_after and r.random() < 0.5:
            w.comment(iss, shift(close, minutes=r.randint(3, 600)), author, r.choice(["感谢", "谢谢", "👍"]))
        key = (repo, n)
        if pinned or pr is not None or closer_role == "robot":
            self.pinned.add(key)
        else:
            self.filler_keys.append(key)
        fix, evidence = [], []
        if pr is not None:
            fix, evidence = self.attach_pr(iss, pr)
        if closer_role == "robot" and "stale_close" not in traps:
            traps = list(traps) + ["stale_close"]
        timing = "stale" if closer_role == "robot" and fix else None
        self.pending_truth.append((iss, stage, fix, evidence, timing, list(traps)))
        return iss

    def attach_pr(self, iss, plan):
        """plan: dict(kind=typo|task, lag=seconds (close - merge), keyword=bool, link=bool, branch=bool, title, files)."""
        w, r = self.w, self.r
        repo, n = iss["repo"], iss["number"]
        num = self.pr_number(repo)
        merged = shift(iss["finished_at"], seconds=-plan["lag"])
        created = shift(merged, hours=-r.uniform(0.5, 70))
        author = plan.get("author") or r.choice(self.users)
        url = f"https://gitcode.com/{repo}/issues/{n}"
        body = plan.get("body", "")
        if plan["keyword"]:
            body = r.choice([f"fix #{n}", f"Fixes #{n}", f"Closes #{n}\n\n{body}", f"解决issue：{url}", f"修复 #{n}", f"关联issue: {url}\n{body}"]).strip()
        branch = f"bugfix/issue{n}" if plan["branch"] else r.choice(["fix_doc", "docs-typo", "master_dev", "fix-readme", "patch-1", "dev"])
        spec = PR(repo, num, plan["title"], body, author, branch, created[:19].replace("T", " "), merged=merged[:19].replace("T", " "),
                  merger=self.maintainers(repo)[1], files=plan["files"], commits=[plan["title"]], links=[n] if plan["link"] else [])
        rec = w.add_pr(spec)
        if plan["link"]:
            w.link(iss, rec)
        fix = [(repo, num, "fix")]
        ev = []
        lag = plan["lag"]
        if 0 <= lag <= 180:
            ev.append("auto_close")
        elif lag <= 3600:
            ev.append("minutes")
        if plan["keyword"]:
            ev.append("keyword")
        if plan["branch"]:
            ev.append("branch_name")
        if plan["link"]:
            ev.append("linked")
        return fix, ev

    def pr_plan(self, title, files, author=None):
        r = self.r
        lag = r.choice([0, 0, 1, r.randint(20, 170), r.randint(400, 3000), r.randint(5000, 200000), r.randint(5000, 400000)])
        keyword, link, branch = r.random() < 0.55, r.random() < 0.6, r.random() < 0.2
        if not (keyword or link or branch):
            link = True
        return {"lag": lag, "keyword": keyword, "link": link, "branch": branch, "title": title, "files": files, "author": author}

    # ------------------------------------------------------------------ stages
    def rank(self):
        r = self.r
        count = 0
        for repo, items in texts.NAMED.items():
            for title, body, replies in items:
                sunset = "日落" in title
                author = self.maintainers(repo)[2] if sunset else r.choice(self.users)
                self.closed_issue(repo, title, body, author, issue_type="需求" if sunset else "咨询", replies=replies,
                                  closer_role="maint" if replies else r.choice(["maint", "author"]), stage="rank",
                                  labels=["announcement"] if sunset and r.random() < 0.5 else (), thanks_after=not sunset)
                count += 1
        # the msmodeling usage question the stale robot closed inside the 09-18 storm
        repo = "Ascend/msmodeling"
        self.closed_issue(repo, "optix 搜索结果怎么导出成 csv", "想把寻优的所有候选结果导出成表格，目前只有 html 报告。", r.choice(self.users),
                          issue_type="咨询", replies=[("maint", "报告目录下有 results.jsonl，可以自己转 csv。"), ("author", "好的")],
                          closer_role="robot", close="2026-09-18T13:39:57+08:00", stage="rank", traps=["close_storm"], pinned=True)
        count += 1
        kinds = ["usage"] * 56 + ["env"] * 35 + ["typo"] * 30 + ["feature"] * 28
        r.shuffle(kinds)
        typo_with_pr = 14
        for kind in kinds[: RANK_TOTAL - count]:
            repo = self.pick_repo()
            fam, path = self.fam(repo), repo.split("/")[1]
            author = r.choice(self.users)
            if kind == "usage":
                title, body, answer, thanks, itype = texts.usage_question(r, fam, path)
                replies = [("maint", answer)] + ([("author", thanks)] if thanks else [])
                role = r.choice(["maint", "maint", "author", "robot"] if r.random() < 0.05 else ["maint", "maint", "author"])
                self.closed_issue(repo, title, body, author, issue_type=itype, replies=replies, closer_role=role, stage="rank")
            elif kind == "env":
                title, body, replies, itype = texts.env_problem(r, fam, path)
                self.closed_issue(repo, title, body, author, issue_type=itype, replies=replies,
                                  closer_role=r.choice(["author", "author", "maint"]), stage="rank",
                                  labels=["bug"] if r.random() < 0.3 else ())
            elif kind == "typo":
                title, body, f, old, new = texts.doc_typo(r, fam, path)
                pr = None
                if typo_with_pr > 0:
                    typo_with_pr -= 1
                    at = r.randint(5, 200)
                    diff = f"@@ -{at},3 +{at},3 @@\n {r.choice(['## 安装', '## 快速开始', '## 说明', ''])}\n-{old}\n+{new}\n \n"
                    pr = self.pr_plan(r.choice([f"docs: 修正 {f} 拼写", f"fix typo in {f}", f"修复文档错误", f"docs: fix link in {f}"]),
                                      [(f, diff)], author=r.choice([author, r.choice(self.users)]))
                self.closed_issue(repo, title, body, author, issue_type="缺陷", replies=[] if pr else r.choice([[], [("maint", "已修改")], [("maint", "感谢反馈，已修正。")]]),
                                  closer_role="maint", stage="rank", labels=["documentation"] if r.random() < 0.4 else (), pr=pr)
            else:
                title, body, reply, itype = texts.feature_ask(r, fam, path)
                self.closed_issue(repo, title, body, author, issue_type=itype, replies=[("maint", reply)], closer_role="maint", stage="rank")

    def noise(self):
        r = self.r
        apis = ["npu_fusion_attention", "npu_rms_norm", "npu_rotary_mul", "npu_moe_gating_top_k", "npu_grouped_matmul", "npu_quant_matmul",
                "npu_dynamic_quant", "npu_swiglu", "npu_incre_flash_attention", "npu_prompt_flash_attention", "npu_scatter_nd_update",
                "npu_anti_quant", "npu_weight_quant_batchmatmul", "npu_mm_all_reduce_base", "npu_moe_init_routing", "npu_format_cast",
                "npu_confusion_transpose", "npu_layer_norm_eval", "npu_dropout_with_add_softmax", "npu_geglu"]
        campaign = ["api_consistency01", "api_consistency02"]
        for i in range(NOISE["api"]):
            repo = "Ascend/pytorch" if i % 3 else "Ascend/op-plugin"
            api = apis[i]
            title = r.choice([f"API一致性任务 torch_npu.{api}", f"API一致性任务：torch_npu.{api} 接口文档与实现一致性检查",
                              f"【API一致性任务】{api}"])
            body = f"任务类型：API一致性\n接口：torch_npu.{api}\n检查项：参数默认值 / dtype 支持列表 / 异常信息 与资料一致\n结论：一致"
            self.closed_issue(repo, title, body, campaign[i % 2], issue_type="缺陷", closer_role="author", stage="noise",
                              created=None, replies=[] if i % 4 else [("maint", "已核对")])
        for i in range(NOISE["dup_ignore"]):
            repo = self.pick_repo()
            title = r.choice(["重复-请忽略", "重复-请忽略", "重复，请忽略", f"重复-请忽略 {r.choice(['', '1', '2'])}".strip()])
            body = r.choice(["误提交，请忽略", "", "重复提交", "网络卡了提交了两次"])
            self.closed_issue(repo, title, body, r.choice(self.users), issue_type="缺陷", closer_role="author", stage="noise")
        ops = ["aclnnAddmm", "aclnnAddbmm", "aclnnBaddbmm", "aclnnAddmv", "aclnnAddr", "aclnnBmm", "aclnnMm", "aclnnMv"]
        close = datetime(2026, 9, 19, 15, 2, 0)
        for i, op in enumerate(ops):
            title = f"{op} 算子 910B 精度用例补充验证"
            body = f"补充 {op} 在 910B 上 fp16/bf16 精度用例验证，结果：通过。"
            c = iso(close + timedelta(minutes=37 * i, seconds=r.randint(0, 59)))
            self.closed_issue("cann/ops-nn", title, body, "zhongzhi_test07", issue_type="需求", closer_role="author", close=c,
                              created=shift(c, hours=-r.randint(2, 30)), stage="noise", pinned=True)

    def unresolved(self):
        r = self.r
        for i in range(COUNTS["unresolved"]):
            repo = self.pick_repo()
            fam, path = self.fam(repo), repo.split("/")[1]
            author = r.choice(self.users)
            kind = r.choices(["dup", "reject", "invalid", "wontfix"], weights=[150, 120, 100, 50])[0]
            if kind == "dup":
                title = texts.bugish_title(r, fam)
                body = texts.join(texts.log_block(r, fam) if r.random() < 0.6 else "", texts.env_block(r, fam) if r.random() < 0.4 else "")
                other = max(1, self.next_number.get(repo, 100) - r.randint(1, 60))
                replies = [("maint", r.choice([f"与 #{other} 重复，请在该 issue 跟踪。", f"duplicate of #{other}", f"重复问题，见 #{other}"]))]
                labels = [r.choice(["duplicate", "重复"])]
                state = "rejected" if r.random() < 0.4 else "closed"
            elif kind == "reject":
                title = texts.featureish_title(r, fam)
                body = r.choice(["如题", "希望能支持，谢谢", ""])
                replies = [("maint", r.choice(["不在规划内。", "暂不考虑。", "与产品路标不符，不支持。", "not planned"]))]
                labels = [] if r.random() < 0.7 else ["wontfix"]
                state = "rejected"
            elif kind == "invalid":
                title = texts.bugish_title(r, fam)
                body = texts.join(texts.log_block(r, fam), texts.env_block(r, fam) if r.random() < 0.5 else "")
                replies = [("maint", r.choice(["非本仓问题，请到对应仓库提单。", "信息不足无法定位。", "无效提单。", "使用方式错误，请参考文档。"]))]
                labels = ["invalid"] if r.random() < 0.7 else ["无效"]
                state = "rejected" if r.random() < 0.5 else "closed"
            else:
                title = texts.bugish_title(r, fam)
                body = texts.env_block(r, fam)
                replies = [("maint", r.choice(["该版本已停止维护，请升级。", "旧分支不再修复。", "won't fix"]))]
                labels = ["wontfix"]
                state = "rejected" if r.random() < 0.3 else "closed"
            self.closed_issue(repo, title, body, author, issue_type=r.choice(["缺陷", "缺陷", "需求", "咨询"]), labels=labels,
                              state_kind=state, replies=replies, closer_role="maint", stage="unresolved")

    def internal(self):
        r = self.r
        with_pr = 10
        for i in range(COUNTS["internal"]):
            repo = self.pick_repo()
            fam, path = self.fam(repo), repo.split("/")[1]
            author = r.choice(self.maintainers(repo) + self.users[:200])
            kind = r.choices(["task", "review", "label"], weights=[150, 50, 30])[0]
            pr = None
            if kind == "task":
                title = texts.task_title(r, fam, path)
                body = r.choice(["", "负责人见 assignee。", "计划：\n- [x] 方案\n- [x] 开发\n- [x] 自测", "验收：UT 通过、门禁通过。"])
                itype, labels = "任务", [] if r.random() < 0.6 else [r.choice(["task", "版本任务", "iteration"])]
                if with_pr > 0 and r.random() < 0.2:
                    with_pr -= 1
                    f = r.choice(["tests/ut/CMakeLists.txt", ".ci/pipeline.yml", "docs/zh/design/overview.md", "scripts/build.sh"])
                    change = {"tests/ut/CMakeLists.txt": "@@ -12,3 +12,4 @@\n add_subdirectory(core)\n add_subdirectory(utils)\n+add_subdirectory(parser)\n",
                              ".ci/pipeline.yml": "@@ -20,3 +20,6 @@\n stages:\n   - build\n   - ut\n+  - codecheck\n+codecheck:\n+  script: bash ci/codecheck.sh\n",
                              "docs/zh/design/overview.md": "@@ -40,2 +40,5 @@\n ## 模块划分\n+\n+### 解析模块\n+负责日志读取与字段抽取，输出统一的事件结构。\n",
                              "scripts/build.sh": "@@ -8,3 +8,3 @@\n set -e\n-cmake .. -DCMAKE_BUILD_TYPE=Debug\n+cmake .. -DCMAKE_BUILD_TYPE=Release -DBUILD_UT=ON\n"}[f]
                    pr = self.pr_plan(r.choice(["UT 补充", "CI 门禁配置", "设计文档补充", "构建脚本调整"]), [(f, change)], author=author)
            elif kind == "review":
                pr_ref = r.randint(500, 5000)
                title = texts.review_title(r, pr_ref)
                body = "\n".join(f"{j + 1}. {r.choice(['函数过长建议拆分', '缺少异常分支日志', '魔鬼数字改常量', '缺少 UT', '变量命名不规范', '注释与实现不一致', '资源未释放'])}"
                                 for j in range(r.randint(1, 5)))
                itype, labels = r.choice(["任务", "缺陷"]), [r.choice(["code-review", "检视意见", "review"])]
            else:
                title = r.choice([f"【转测】{r.choice(texts.V[fam]['comp'])} 用例失败", f"内部测试：{texts.bugish_title(r, fam)}", texts.bugish_title(r, fam)])
                body = texts.log_block(r, fam)
                itype, labels = "缺陷", [r.choice(["internal", "内部", "内部测试"])]
            self.closed_issue(repo, title, body, author, issue_type=itype, labels=labels, closer_role=r.choice(["author", "maint"]),
                              replies=[] if r.random() < 0.6 else [("maint", r.choice(["已完成", "done", "已修改", "已闭环"]))],
                              stage="internal", pr=pr)

    def cve(self):
        r = self.r
        for i in range(COUNTS["cve"]):
            repo = self.pick_repo() if r.random() < 0.7 else r.choice(["cann/cann-security", "Ascend/ascend-security"])
            fam, path = self.fam(repo), repo.split("/")[1]
            title, body, reply = texts.cve_issue(r, fam, path)
            self.closed_issue(repo, title, body, r.choice(["openeuler-sec", "sec-scanner", "psirt_hw"] + self.users[:20]), issue_type="缺陷",
                              labels=[r.choice(["CVE", "security", "安全漏洞", "CVE/FIXED", "CVE/UNAFFECTED"])] if r.random() < 0.8 else [],
                              security=r.random() < 0.5, replies=[("maint", reply)], closer_role="maint", stage="cve")

    def empty_titles(self):
        r = self.r
        for i in range(COUNTS["empty_title"]):
            repo = self.pick_repo()
            fam = self.fam(repo)
            title = r.choice(["", " ", "  ", "\t", "\u3000"])
            body = r.choice(["", texts.log_block(r, fam), "test", "如题"])
            self.closed_issue(repo, title, body, r.choice(self.users), issue_type="缺陷", closer_role=r.choice(["author", "maint"]),
                              stage="empty_title")

    def window_stage(self):
        """Open issues updated in the window and old closed issues revived by a comment: funnel `window`."""
        r, w = self.r, self.w
        for i in range(60):
            repo = self.pick_repo()
            fam, path = self.fam(repo), repo.split("/")[1]
            author = r.choice(self.users)
            title, body, replies, itype = texts.env_problem(r, fam, path)
            title = texts.tidy(title)
            created = self.created_before("2026-09-19T12:00:00+08:00", min_hours=30, max_days=200)
            n = self.number(repo)
            iss = w.new_issue(repo, n, title, body, author, created, issue_type=itype, state_kind="open")
            w.comment(iss, self.close_time(), r.choice([author, self.maintainers(repo)[0]]),
                      r.choice(["请问有进展吗？", "同样遇到了", "+1", "定位中", "请提供 plog 日志", "已复现，分析中"]))
            self.pending_truth.append((iss, "window", [], [], None, []))
        for i in range(20):
            repo = self.pick_repo()
            fam, path = self.fam(repo), repo.split("/")[1]
            author = r.choice(self.users)
            title, body, answer, thanks, itype = texts.usage_question(r, fam, path)
            title = texts.tidy(title)
            close = iso(datetime(2026, 9, 16, 20, 0, 0) - timedelta(hours=r.randint(1, 2000)))
            created = self.created_before(close, min_hours=2, max_days=120)
            n = self.number(repo)
            iss = w.new_issue(repo, n, title, body, author, created, issue_type=itype, state_kind="done")
            closer = self.maintainers(repo)[0]
            w.comment(iss, self.between(created, close, 0.5), closer, answer)
            iss.update(finished_at=close, state="closed", closer=closer)
            w.event(iss, "closed", "关闭了 Issue", close, closer)
            w.comment(iss, self.close_time(), r.choice(self.users), r.choice(["新版本还有这个问题吗？", "请问这个现在支持了吗", "同问", "这个问题在 26.0.0 上又出现了"]))
            self.pending_truth.append((iss, "window", [], [], None, []))

    def outside(self):
        """Closed or idle before the window: a harvester walking updated_at downwards never needs them."""
        r, w = self.r, self.w
        for i in range(120):
            repo = self.pick_repo()
            fam, path = self.fam(repo), repo.split("/")[1]
            author = r.choice(self.users)
            title, body, answer, thanks, itype = texts.usage_question(r, fam, path)
            title = texts.tidy(title)
            last = iso(datetime(2026, 9, 16, 22, 0, 0) - timedelta(hours=r.randint(1, 3000), seconds=r.randint(0, 3599)))
            created = self.created_before(last, min_hours=1, max_days=200)
            n = self.number(repo)
            closed = i % 3 != 0
            iss = w.new_issue(repo, n, title, body, author, created, issue_type=itype, state_kind="done" if closed else "open")
            closer = self.maintainers(repo)[0]
            w.comment(iss, self.between(created, last, 0.6), closer, answer)
            if closed:
                iss.update(finished_at=last, state="closed", closer=closer)
                w.event(iss, "closed", "关闭了 Issue", last, closer)

    # ------------------------------------------------------------------ storms that nobody planned
    def spread_closes(self):
        """Move generated closes so that no actor closes 3+ issues within 10 minutes, except the planned clusters."""
        w = self.w
        movable = set(self.filler_keys)
        for _ in range(50):
            by_actor: dict[str, list] = {}
            for key, iss in w.issues.items():
                if iss["state"] == "closed" and parse(iss["finished_at"]) >= WIN_START.replace(tzinfo=parse(iss["finished_at"]).tzinfo):
                    by_actor.setdefault(iss["closer"], []).append((parse(iss["finished_at"]), key))
            moved = False
            for actor, lst in by_actor.items():
                lst.sort()
                for i in range(len(lst) - 2):
                    if (lst[i + 2][0] - lst[i][0]).total_seconds() <= 600:
                        cand = [k for _, k in lst[i:i + 3] if k in movable]
                        if cand:
                            self.move_close(cand[-1])
                            moved = True
                            break
                if moved:
                    break
            if not moved:
                return
        raise RuntimeError("could not spread generated closes")

    def move_close(self, key):
        iss = self.w.issues[key]
        old = iss["finished_at"]
        for _ in range(40):
            new = self.close_time()
            if parse(new) > parse(iss["created_at"]) + timedelta(minutes=20):
                break
        else:
            raise RuntimeError(f"no close time for {key}")
        for e in iss["events"]:
            if e["created_at"] == old and e["action_type"] == "closed":
                e["created_at"] = new
        iss["finished_at"] = new

    def run(self):
        self.pending_truth = []
        self.rank()
        self.noise()
        self.unresolved()
        self.internal()
        self.cve()
        self.empty_titles()
        self.window_stage()
        self.outside()
        self.spread_closes()
        for iss, stage, fix, evidence, timing, traps in self.pending_truth:
            self.w.add_truth(iss, stage, fix=fix, evidence=evidence, timing=timing, traps=traps)


def populate(w: World):
    Filler(w).run()
