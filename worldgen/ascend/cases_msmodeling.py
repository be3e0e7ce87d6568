"""Ascend/msmodeling: TensorCast regressions, MoE routing, OptiX configuration semantics (11 kept, 2 dropped)."""
from .spec import PR, Case

R = "Ascend/msmodeling"

PR795 = PR(R, 795, "fix(moe): shared-expert-tp 下路由 topk 与 token 切片对齐",
    "Closes #390\n\n### 问题\n开启 `shared_expert_tp` 时 `route()` 在 `_dp_transform_enter` 之前按全量 token 计算，"
    "hidden 已按 tp 切成 N/tp，而 topk_ids 仍为 N×k，`init_routing_v2` 按 numel 驱动 all_to_all，通信量被放大约 tp 倍。\n\n"
    "### 修改\n- 路由计算移到 token 切片之后，topk 与 hidden 同步切片\n- 去掉末尾的截断兜底（它掩盖了问题）\n- 新增 tp=2/4 下 dispatch 字节数断言\n\n"
    "### 影响范围\n标准门控（softmax/sigmoid topk）系模型；raw-logits 分支不受影响。",
    "zhouhang", "fix/moe-topk-tp-slice", "09-04 16:20:41", merged="09-08 10:12:03", merger="yangxiaoming",
    files=[("tensor_cast/layers/moe/router.py",
            "@@ -118,14 +118,16 @@ class MoERouter(nn.Module):\n"
            "     def forward(self, hidden_states, ctx):\n"
            "-        topk_weights, topk_ids = self.route(hidden_states)\n"
            "-        hidden_states = self._dp_transform_enter(hidden_states, ctx)\n"
            "+        hidden_states = self._dp_transform_enter(hidden_states, ctx)\n"
            "+        # route on the local token slice so topk_ids matches hidden (N/tp rows)\n"
            "+        topk_weights, topk_ids = self.route(hidden_states)\n"
            "         expanded, row_idx, expert_idx = torch_npu.npu_moe_init_routing_v2(\n"
            "             hidden_states, topk_ids, active_num=hidden_states.shape[0] * self.top_k)\n"
            "-        expanded = expanded[: hidden_states.shape[0] * self.top_k]\n"
            "         return self.dispatch(expanded, topk_weights, expert_idx)\n"),
           ("tests/ut/layers/test_moe_router_tp.py",
            "@@ -0,0 +1,18 @@\n+import pytest\n+\n+from tensor_cast.layers.moe.router import MoERouter\n+\n+\n"
            "+@pytest.mark.parametrize(\"tp\", [2, 4])\n+def test_dispatch_bytes_follow_tp_slice(tp, fake_ctx):\n"
            "+    router = MoERouter(hidden=4096, experts=64, top_k=8, shared_expert_tp=tp)\n"
            "+    stats = router.trace_dispatch(tokens=8192, ctx=fake_ctx(tp=tp))\n"
            "+    assert stats.all_to_all_bytes == 8192 // tp * 8 * 4096 * 2\n")],
    commits=["fix(moe): route after dp transform so topk follows the tp token slice",
             "test: assert all_to_all bytes under shared_expert_tp"])

PR791 = PR(R, 791, "refactor(adaptor): model adaptor 精简为跑通级，verify 改为结构推导对账",
    "Fixes #403\n\n- 删除 insight/evidence 五个模块及 doctor 对实测输入的依赖\n"
    "- verify：按公开结构推导 attention / MoE gating 调用次数并与 trace 对账，不再要求实测锚点\n"
    "- 仿真崩溃时输出 `SIMULATION_ERROR` 结构化报告，并附带可直接交给 AI 的修复任务描述\n"
    "- MoE 路径命中已适配算子即视为适配证据，消除误报\n\n自测：nightly 全量 62 个模型 verify 通过，无裸异常。",
    "guoliang_tc", "refactor/adaptor-lite", "09-03 09:48:10", merged="09-09 14:27:50", merger="yangxiaoming",
    files=[("tensor_cast/adaptor/verify.py",
            "@@ -40,22 +40,19 @@ def verify(model_id, trace):\n"
            "-    anchors = load_measured_anchors(model_id)\n"
            "-    if anchors is None:\n"
            "-        raise RuntimeError(f\"no measured anchor for {model_id}\")\n"
            "-    return compare_with_anchor(trace, anchors)\n"
            "+    expected = derive_call_counts(load_public_config(model_id))\n"
            "+    report = reconcile(trace, expected, keys=(\"attention\", \"moe_gating\"))\n"
            "+    if report.crashed:\n"
            "+        return SimulationErrorReport.from_trace(trace, report, fix_task=True)\n"
            "+    return report\n"),
           ("tensor_cast/adaptor/insight/__init__.py", "@@ -1,6 +0,0 @@\n-from .anchor import *\n-from .evidence import *\n-from .doctor_input import *\n-from .collector import *\n-from .diff import *\n-\n")],
    commits=["refactor(adaptor): drop insight/evidence modules", "feat(verify): reconcile against public structure, SIMULATION_ERROR report"])

PR797 = PR(R, 797, "fix(sp-replay): matcher 忽略 bookkeeping 边，兼容两代 copy_region，更新 MXFP4 GMM 断言",
    "nightly 20260908 失败两项：\n1. SP Replay P3 matcher 把 `_internal_copy_region_v2` 的 bookkeeping 用户当成数据路径用户，all_reduce 未被替换为 reduce_scatter+all_gather；\n"
    "2. !699 已把 GMM+SwiGLU+MXFP4 融合为 `_quant` 算子，旧断言仍查找未融合的三个节点。\n\n修改：matcher 跳过 bookkeeping 边，同时识别 v1/v2 两代 copy；断言改查 `npu_grouped_matmul_swiglu_quant`。",
    "liutao_tc", "fix/sp-replay-bookkeeping", "09-09 10:02:33", merged="09-09 19:41:05", merger="yangxiaoming",
    links=[405],
    files=[("tensor_cast/passes/sp_replay/matcher.py",
            "@@ -77,9 +77,13 @@ class AllReduceMatcher:\n"
            "     def data_users(self, node):\n"
            "-        return list(node.users)\n"
            "+        users = []\n"
            "+        for u in node.users:\n"
            "+            if u.target in _COPY_REGION_OPS and u.meta.get(\"bookkeeping\", False):\n"
            "+                continue  # _internal_copy_region_v2 only records the region, it never reads data\n"
            "+            users.append(u)\n"
            "+        return users\n"),
           ("tests/nightly/test_mxfp4_gmm.py",
            "@@ -31,5 +31,3 @@ def test_mxfp4_gmm_fusion(graph):\n"
            "-    assert count(graph, \"npu_grouped_matmul\") == 1\n"
            "-    assert count(graph, \"npu_swiglu\") == 1\n"
            "-    assert count(graph, \"npu_dynamic_mx_quant\") == 1\n"
            "+    assert count(graph, \"npu_grouped_matmul_swiglu_quant\") == 1\n")],
    commits=["fix(sp-replay): skip bookkeeping users of copy_region v1/v2", "test(nightly): follow !699 fused _quant op"])

PR802 = PR(R, 802, "fix(compile): rewrite 前对 AOT 图做 stable_topo_sort + lint",
    "DeepSeek PD ratio 用例编译失败：`pow_2` 在定义前被使用。AOT Autograd 产出的 FX 图中符号 shape 节点可以排在消费它的 view 之后，"
    "LiftCombineQuantPass 重建 view 时又打乱了顺序。\n\n- rewrite 前 stable_topo_sort + graph.lint()\n- LiftCombineQuantPass 重建 view 后恢复拓扑\n- 新增 operator.pow 依赖单测",
    "sunmingyu", "fix/fx-topo-order", "09-10 09:31:18", merged="09-10 16:55:30", merger="liutao_tc",
    files=[("tensor_cast/compile/rewrite.py",
            "@@ -52,6 +52,8 @@ def rewrite(gm: torch.fx.GraphModule, passes):\n"
            "+    stable_topo_sort(gm.graph)\n"
            "+    gm.graph.lint()\n"
            "     for p in passes:\n"
            "         p(gm)\n"
            "+        if p.rebuilds_views:\n"
            "+            stable_topo_sort(gm.graph)\n"
            "     gm.recompile()\n")],
    commits=["fix(compile): stable topo sort before rewrite passes"])

PR825 = PR(R, 825, "fix(optix): 统一 vLLM 参数注入语义 run / env / BackendConfig",
    "Closes #430\n\n!778 引入 VllmCommand 后 `update_data_field` 不再区分注入位置，`[vllm.env]` 里的变量和 MindIE 配置项可能被拼进命令行。\n\n"
    "本 PR 约定：\n| 位置 | 含义 |\n|---|---|\n| run | vllm serve 命令行参数 |\n| env（新增 `[vllm.env]` 块）| 子进程环境变量 |\n| BackendConfig.* | MindIE 配置文件路径 |\n\n"
    "MAX_NUM_BATCHED_TOKENS 等迁回 run；补混合注入回归用例。",
    "chenlu_optix", "fix/optix-inject-semantics", "09-11 15:06:27", merged="09-16 11:18:40", merger="yangxiaoming",
    files=[("optix/backend/vllm_command.py",
            "@@ -88,12 +88,21 @@ class VllmCommand:\n"
            "     def update_data_field(self, key, value):\n"
            "-        self.args[key] = value\n"
            "+        where, name = split_target(key)\n"
            "+        if where == \"run\":\n"
            "+            self.args[name] = value\n"
            "+        elif where == \"env\":\n"
            "+            self.env[name] = str(value)\n"
            "+        elif where == \"BackendConfig\":\n"
            "+            self.backend_config.set_path(name, value)\n"
            "+        else:\n"
            "+            raise OptixConfigError(f\"unknown injection target: {key}\")\n"),
           ("tests/optix/test_inject_mixed.py",
            "@@ -0,0 +1,9 @@\n+def test_env_never_reaches_cmdline(make_cmd):\n"
            "+    cmd = make_cmd({\"run.max-num-batched-tokens\": 8192, \"env.VLLM_USE_V1\": 1})\n"
            "+    assert \"--max-num-batched-tokens 8192\" in cmd.render()\n"
            "+    assert \"VLLM_USE_V1\" not in cmd.render()\n"
            "+    assert cmd.env[\"VLLM_USE_V1\"] == \"1\"\n")],
    commits=["fix(optix): split injection targets into run/env/BackendConfig", "docs: document [vllm.env] block"])

PR850 = PR(R, 850, "fix(serving): stop 脚本自排除 + 健康检查不再发真实推理请求",
    "修复 #410 #411\n\n1. stop_vllm_process.sh：`pkill -f vllm` 会匹配到 `bash -c 'bash /tmp/vllm/stop_vllm_process.sh vllm'` 本身，"
    "首轮 `pkill -9` 把脚本和会话 shell 一起杀掉（退出码 137），后面的 5 次重试成了死代码。改为先收集 protected_pids（自身、父进程、self_script）后逐个 kill。\n"
    "2. MultiHostSimulator.health()：/health 返回 200 后不再发 completion 探针，改为判断服务日志中的 `Application startup complete`。",
    "zhaoyf_serving", "fix/stop-script-self-kill", "09-15 10:44:52", merged="09-17 15:20:11", merger="yangxiaoming",
    links=[410, 411],
    files=[("optix/scripts/stop_vllm_process.sh",
            "@@ -3,8 +3,18 @@\n PATTERN=\"$1\"\n"
            "-for i in $(seq 1 5); do\n"
            "-  pkill -9 -f \"$PATTERN\" && break\n"
            "-  sleep 2\n"
            "-done\n"
            "+self_script=\"$(readlink -f \"$0\")\"\n"
            "+protected_pids=\" $$ $PPID \"\n"
            "+for i in $(seq 1 5); do\n"
            "+  pids=$(pgrep -f \"$PATTERN\" || true)\n"
            "+  [ -z \"$pids\" ] && exit 0\n"
            "+  for p in $pids; do\n"
            "+    case \"$protected_pids\" in *\" $p \"*) continue;; esac\n"
            "+    grep -qa \"$self_script\" /proc/$p/cmdline 2>/dev/null && continue\n"
            "+    kill -9 \"$p\" 2>/dev/null || true\n"
            "+  done\n"
            "+  sleep 2\n"
            "+done\n"),
           ("optix/simulator/multi_host.py",
            "@@ -140,10 +140,8 @@ class MultiHostSimulator:\n"
            "     def health(self) -> bool:\n"
            "         if not self._http_ok(\"/health\"):\n"
            "             return False\n"
            "-        resp = self._client.post(\"/v1/completions\", json={\"prompt\": \"hi\", \"max_tokens\": 1})\n"
            "-        return resp.status_code == 200\n"
            "+        # a real completion here would show up in the benchmark window every second\n"
            "+        return self._log_contains(\"Application startup complete\")\n")],
    commits=["fix(scripts): exclude self and parent from pkill pattern", "fix(simulator): health() must not send inference probes"])

PR855 = PR(R, 855, "docs: 支持矩阵补充 FLUX.1-dev / Qwen-Image-Edit，英文指南补 image_generate 章节",
    "- 中英文支持矩阵增加 FLUX.1-dev、Qwen-Image-Edit 及 Image Generation DiT 仿真能力\n"
    "- 英文指南新增 image_generate 快速入门 / 参数说明 / 已知限制\n- 明确：CLI 已支持，Web UI 尚未接通，不在矩阵中声明",
    "maqian_doc", "docs/dit-support-matrix", "09-16 14:12:05", merged="09-17 17:40:22", merger="liutao_tc", links=[438],
    files=[("docs/en/support_matrix.md",
            "@@ -41,6 +41,9 @@\n | Qwen3-235B-A22B | LLM | ✓ | ✓ |\n"
            "+| FLUX.1-dev | Image Generation (DiT) | ✓ (CLI) | - |\n"
            "+| Qwen-Image-Edit | Image Generation (DiT) | ✓ (CLI) | - |\n"),
           ("docs/en/user_guide/image_generate.md", "@@ -0,0 +1,6 @@\n+# image_generate\n+\n+## Quick start\n+\n"
            "+```bash\n+tensorcast image_generate --model FLUX.1-dev --height 1024 --width 1024 --steps 28\n")],
    commits=["docs: add DiT image generation rows to support matrix", "docs(en): image_generate quick start and limits"])

PR856 = PR(R, 856, "[26.2.0] docs: 支持矩阵补充 FLUX.1-dev / Qwen-Image-Edit（backport !855）",
    "backport !855 到 release/26.2.0。",
    "maqian_doc", "backport/26.2.0-dit-matrix", "09-17 18:02:10", merged="09-18 10:05:31", merger="liutao_tc",
    base="release/26.2.0", links=[438],
    files=[("docs/en/support_matrix.md",
            "@@ -39,6 +39,9 @@\n | Qwen3-32B | LLM | ✓ | ✓ |\n"
            "+| FLUX.1-dev | Image Generation (DiT) | ✓ (CLI) | - |\n"
            "+| Qwen-Image-Edit | Image Generation (DiT) | ✓ (CLI) | - |\n")],
    commits=["docs: add DiT image generation rows to support matrix (cherry picked from !855)"])

PR870 = PR(R, 870, "fix(qwen3-next): 修复 4fdcdefb 之后的三条回归",
    "1. 访问路径：Qwen3NextModel 直接暴露 `layers`，不能沿用 Qwen3.5 的 `language_model.layers`（AttributeError）\n"
    "2. MTP 诊断仍断言 linear_attention 为单 stage，实际已拆分为 conv/recurrent 两段\n"
    "3. TP=2 下融合 qkvz 投影与本地 K/V head 分片未对齐\n\n三条用例本地均已通过。",
    "sunmingyu", "fix/qwen3-next-regressions", "09-19 09:12:40", merged="09-19 15:44:08", merger="yangxiaoming", links=[443],
    files=[("tensor_cast/models/qwen3_next.py",
            "@@ -61,7 +61,10 @@ def decoder_layers(model):\n"
            "-    return model.language_model.layers\n"
            "+    inner = getattr(model, \"language_model\", model)\n"
            "+    return inner.layers\n"),
           ("tensor_cast/models/qwen3_next_tp.py",
            "@@ -102,4 +102,5 @@ def shard_qkvz(weight, tp_rank, tp_size, num_kv_heads):\n"
            "-    return weight.chunk(tp_size, dim=0)[tp_rank]\n"
            "+    local_kv = num_kv_heads // tp_size\n"
            "+    return _split_fused_qkvz(weight, local_kv, tp_rank)\n")],
    commits=["fix(qwen3-next): layer access path", "fix(qwen3-next): mtp diag expects split linear attention stages", "fix(qwen3-next): align fused qkvz with local kv heads under tp=2"])

PR873 = PR(R, 873, "[26.2.0] fix(qwen3-next): 修复 4fdcdefb 之后的三条回归",
    "cherry-pick !870 到 release/26.2.0",
    "sunmingyu", "backport/26.2.0-qwen3-next", "09-19 16:05:51", merged="09-19 18:02:40", merger="liutao_tc",
    base="release/26.2.0", links=[443],
    files=[("tensor_cast/models/qwen3_next.py",
            "@@ -58,7 +58,10 @@ def decoder_layers(model):\n"
            "-    return model.language_model.layers\n"
            "+    inner = getattr(model, \"language_model\", model)\n"
            "+    return inner.layers\n")],
    commits=["fix(qwen3-next): regressions after 4fdcdefb (cherry picked from !870)"])

PR837 = PR(R, 837, "[WIP] profiling_database 质量门禁与 PR 报告流水线",
    "为 profiling_database 新增入库质量门禁（字段完整性、重复采样检测、与上一版本偏差阈值），并在 PR 中自动生成对比报告。WIP。",
    "hexin_perf", "feat/profdb-quality-gate", "09-18 15:30:02", state="open")

PR861 = PR(R, 861, "refactor(optix): 整理寻优日志输出格式",
    "统一 optix 搜索过程日志：每轮输出候选数、淘汰原因与耗时，去掉重复的 DEBUG 行。",
    "chenlu_optix", "refactor/optix-log", "09-16 10:20:19", merged="09-18 18:27:12", merger="liutao_tc", links=[441],
    files=[("optix/search/logger.py",
            "@@ -12,7 +12,9 @@ class SearchLogger:\n"
            "-    def round_end(self, idx, cands):\n"
            "-        logger.debug(\"round %d done\", idx)\n"
            "-        logger.debug(\"round %d cands %s\", idx, cands)\n"
            "+    def round_end(self, idx, cands, pruned, elapsed):\n"
            "+        logger.info(\"round=%d candidates=%d pruned=%d elapsed=%.1fs\",\n"
            "+                    idx, len(cands), len(pruned), elapsed)\n")],
    commits=["refactor(optix): one info line per search round"])


CASES = [
    Case(R, 279, "optx 配置太繁琐，希望能直接读取 vLLM 启动脚本，并支持 DP/TP 组合寻优",
         "### 背景\n我们线上是直接用一份 `start_vllm.sh` 拉起服务的，里面有 20 多个参数和一堆 export。用 optix 做参数寻优时需要把这些再手工抄进 `config.toml`，"
         "抄漏一个结果就不可比。\n\n### 诉求\n1. optix 能不能直接读 vLLM 启动脚本（含环境变量）作为基线配置？\n"
         "2. 希望支持 DP/TP 组合寻优，比如 8 卡上自动尝试 DP×TP 的所有组合。\n\n### 环境\n- msmodeling master (commit 3be1f0c)\n- vllm-ascend 0.18.0, 8×910B3",
         "wuhao_infer", "08-20 10:31:44", "09-17 16:40:05", "yangxiaoming", issue_type="需求", labels=["feature"],
         comments=[
            ("08-21 09:15:20", "liutao_tc", "感谢建议。关于第 1 点，我们讨论过直读启动脚本：脚本里变量展开、`source` 其它文件、同一参数在 export 与命令行两处出现时的优先级，规则很难做对，维护成本高。"
             "当前仍维持 `config.toml` 作为唯一入口。后续会提供 Agent 辅助：把你的启动命令和寻优需求交给 Agent，生成并校验 config.toml。"),
            ("08-21 09:22:03", "liutao_tc", "第 2 点现在就能做：DP 用 enum，TP 用 factories 按 8/DP 派生，例如\n```toml\n[search.dp]\ntype = \"enum\"\nvalues = [1, 2, 4]\n\n[search.tp]\ntype = \"factories\"\nexpr = \"8 / dp\"\n```\n这样只会产生 (1,8)(2,4)(4,2) 三组，不会出现非法组合。详见 OptiX 参数寻优设计文档。"),
            ("08-22 14:02:51", "wuhao_infer", "DP/TP 按上面配置跑通了，三组结果都有。脚本直读的事等 Agent 方案吧。"),
            ("09-17 16:39:58", "yangxiaoming", "方案已答复，先关闭，有问题可重开。")],
         evidence=["answer"], timing="no_fix", kb=["docs/Ascend/msmodeling/docs/zh/design/optix_parameter_search.md"], theme="optix-config-hygiene"),

    Case(R, 315, "profiling_database 缺少 A2 实机数据和新版 vllm 的数据，什么时候更新？",
         "当前 `profiling_database/` 下的实测数据只有 A3 + vllm-ascend 0.11 左右的版本，A2 实机完全没有，"
         "用 TensorCast 仿真 A2 上 GLM/Kimi 的时候只能拿 A3 数据外推，误差很大（我们对比 GLM-4.6 decode 差了 18%）。\n\n请问数据库什么时候更新？有没有排期？",
         "tanyue_perf", "08-26 17:45:09", "09-18 11:12:40", "liutao_tc", issue_type="咨询",
         comments=[
            ("08-27 10:20:33", "hexin_perf", "已排期 26Q3，分三批补实测：\n1. GLM 5.1 / vllm-ascend 0.18.0 / A3 800T\n2. GLM 5.2 / 0.23.0rc1-a3\n3. Kimi k3 / 0.23.0rc1-a3 / A3 800I\nA2 实机数据在第三批之后评估。"),
            ("08-27 11:02:17", "tanyue_perf", "好的，等第一批。外推误差的问题有临时建议吗？"),
            ("08-27 14:40:45", "hexin_perf", "临时可以用 `--calib` 读你们自己的少量实测点做校准。另外我们在做入库质量门禁和 PR 报告流水线（!837，WIP），后续数据更新会附对比报告。"),
            ("09-18 11:12:33", "liutao_tc", "排期已答复，关闭。")],
         evidence=["answer"], timing="no_fix", kb=[], theme="optix-config-hygiene"),

    Case(R, 390, "开启 shared-expert-tp 时 MoE topk 没有随 TP 切分，dispatch 通信量高估 tp 倍",
         "### 现象\nDeepSeek-V3 仿真，`--shared-expert-tp 2` 打开后 all_to_all 耗时比关闭时还高一倍，和实测对不上。\n\n"
         "### 定位\n`route()` 在 `_dp_transform_enter` 之前调用，hidden 已经是 N/tp 行，但 topk_ids 还是 N×k：\n```\n[DEBUG] hidden_states: torch.Size([4096, 7168])\n[DEBUG] topk_ids: torch.Size([8192, 8])\n"
         "[DEBUG] init_routing_v2 expanded numel=65536 rows, active_num=65536\n```\n`init_routing_v2` 按 numel 驱动后面整条 all_to_all 链，最后 `expanded[:N*k]` 截断把问题掩盖了。\n\n"
         "### 环境\nmsmodeling master 5d0a2e1, torch 2.7.1, torch_npu 2.7.1.post2",
         "jiangwei_npu", "09-02 11:05:12", "09-17 10:02:11", "ascend-robot", labels=["bug", "moe"],
         comments=[
            ("09-03 09:40:26", "liutao_tc", "确认问题。影响所有标准门控（softmax/sigmoid topk）系模型，raw-logits 分支不走这段逻辑。实测 tp=2 时 dispatch 字节数约 2×。修复中。"),
            ("09-08 10:30:15", "liutao_tc", "!795 已合入 master，请验证。"),
            ("09-09 20:11:47", "jiangwei_npu", "验证 ok，tp=2 all_to_all 耗时恢复正常。")],
         prs=[PR795], resolved_at="09-12 21:03:10", bot_close=True,
         fix=[(R, 795, "fix")], evidence=["keyword", "comment"], timing="stale", traps=["stale_close"],
         kb=["docs/Ascend/msmodeling/docs/zh/design/moe_routing_simulation.md"], theme="tensorcast-regression"),

    Case(R, 403, "model adaptor 依赖实测锚点，verify 裸抛异常，MoE 模型误报卡住流水线",
         "新模型接入时 `tensorcast adaptor verify` 要求必须有实测锚点，没有就直接\n```\nTraceback (most recent call last):\n  File \"tensor_cast/adaptor/verify.py\", line 43, in verify\n"
         "    raise RuntimeError(f\"no measured anchor for {model_id}\")\nRuntimeError: no measured anchor for moonshotai/Kimi-K2-Instruct\n```\n"
         "MoE 模型即使跑通也会被 doctor 报「gating 未适配」，CI 流水线全红。希望 adaptor 只做到跑通级，不要强依赖实测。",
         "qinfeng_ci", "09-01 15:20:00", "09-17 10:02:44", "ascend-robot", labels=["bug"],
         comments=[
            ("09-02 10:05:12", "guoliang_tc", "同意。计划精简：删掉 insight/evidence 五个模块和 doctor 的实测输入；verify 改成用公开结构推导 attention/MoE gating 次数对账；崩溃时输出结构化的 SIMULATION_ERROR 报告。"),
            ("09-09 14:40:02", "guoliang_tc", "已合入，nightly 62 个模型 verify 全部通过。"),
            ("09-10 09:18:30", "qinfeng_ci", "流水线已恢复，感谢。")],
         prs=[PR791], resolved_at="09-12 21:03:40", bot_close=True,
         fix=[(R, 791, "fix")], evidence=["keyword"], timing="stale", traps=["stale_close"],
         kb=["docs/Ascend/msmodeling/docs/zh/developer_guide/model_adaptor.md"], theme="tensorcast-regression"),

    Case(R, 405, "nightly 回归失败：SP Replay 后仍残留 all_reduce；MXFP4 GMM 断言失败",
         "nightly 20260908 两条用例失败：\n```\nFAILED tests/nightly/test_sp_replay.py::test_qwen3_235b_sp - AssertionError: all_reduce still present after SP replay (count=94)\n"
         "FAILED tests/nightly/test_mxfp4_gmm.py::test_mxfp4_gmm_fusion - AssertionError: assert 0 == 1\n```\n"
         "最近合入的相关改动有 !754（copy_region v2）和 !699（MXFP4 融合）。",
         "nightly-bot-msm", "09-08 07:12:45", "09-18 13:39:56", "ascend-robot", labels=["nightly", "bug"],
         comments=[
            ("09-08 11:30:09", "liutao_tc", "第一条：!754 的 `_internal_copy_region_v2` 会在 all_reduce 输出上挂一个 bookkeeping 用户，SP P3 matcher 把它当成数据路径用户，于是放弃替换。"
             "第二条：!699 已把 GMM+SwiGLU+MXFP4 融合成 `_quant` 算子，断言过期。"),
            ("09-09 19:50:31", "liutao_tc", "修复已合入，今晚 nightly 观察。"),
            ("09-10 08:05:00", "nightly-bot-msm", "nightly 20260910: test_sp_replay PASSED, test_mxfp4_gmm PASSED")],
         prs=[PR797], resolved_at="09-13 10:12:00", bot_close=True,
         fix=[(R, 797, "fix")], evidence=["linked"], timing="stale", traps=["stale_close", "close_storm"],
         kb=["docs/Ascend/msmodeling/docs/zh/design/sp_replay.md"], theme="tensorcast-regression"),

    Case(R, 410, "stop_vllm_process.sh 用 pkill -f 匹配，清理时把自己杀掉了",
         "生产环境调用方式：\n```\nbash -c 'bash /tmp/vllm/stop_vllm_process.sh vllm'\n```\n脚本内部 `pkill -9 -f vllm`，而当前进程自己的命令行就含 `vllm`，第一轮就把脚本和会话 shell 一起杀掉：\n"
         "```\n$ bash -c 'bash /tmp/vllm/stop_vllm_process.sh vllm'; echo $?\nKilled\n137\n```\n后面 5 次重试成了死代码，真正的 vllm 进程有时还活着。",
         "zhaoyf_serving", "09-12 16:28:30", "09-17 15:22:09", "yangxiaoming", labels=["bug"],
         comments=[("09-13 09:40:18", "liutao_tc", "确认，需要自排除。和 #411 一起在 !850 修。")],
         prs=[PR850], fix=[(R, 850, "fix")], evidence=["auto_close", "keyword", "linked", "comment"], timing="auto_close",
         traps=["one_pr_many_issues"], kb=[], theme="optix-config-hygiene"),

    Case(R, 411, "压测期间 scheduler 每秒调用 health() 发真实推理探针，污染测量",
         "8×910B2 真机压测，吞吐曲线每秒都有小毛刺。抓包发现：\n```\n# tcpdump -i any port 8000 -A | grep completions\n"
         "10:14:01.002 POST /v1/completions {\"prompt\": \"hi\", \"max_tokens\": 1}\n10:14:02.003 POST /v1/completions {\"prompt\": \"hi\", \"max_tokens\": 1}\n...\n```\n"
         "访问日志也是每秒 1 条，贯穿整个压测窗口。看代码 `MultiHostSimulator.health()` 在 /health 返回 200 后还会无条件发一个 completion，"
         "scheduler 对非内置模拟器每秒轮询一次。",
         "zhaoyf_serving", "09-12 17:02:55", "09-17 15:21:06", "yangxiaoming", labels=["bug", "benchmark"],
         comments=[("09-13 09:41:02", "liutao_tc", "合理。health 改为判定服务日志 startup 完成即可，不需要真实请求。")],
         prs=[PR850], fix=[(R, 850, "fix")], evidence=["auto_close", "keyword", "linked"], timing="auto_close",
         traps=["one_pr_many_issues"], kb=[], theme="optix-config-hygiene"),

    Case(R, 412, "DeepSeek PD ratio 用例编译失败：FX 图中 pow_2 在定义前被使用",
         "```\ntorch._dynamo.exc.BackendCompilerFailed: backend='tensorcast' raised:\nRuntimeError: Node pow_2 used before it is defined\n"
         "  File \"tensor_cast/compile/passes/lift_combine_quant.py\", line 211, in __call__\n```\n复现：`pytest tests/e2e/test_pd_ratio.py -k deepseek_v3`，只在 PD ratio 场景出现。",
         "nightly-bot-msm", "09-09 07:10:02", "09-18 13:39:58", "ascend-robot", labels=["nightly", "bug"],
         comments=[
            ("09-09 15:22:40", "sunmingyu", "AOT Autograd 产出的 FX 图里符号 shape 节点可能排在消费它的 view 之后，LiftCombineQuantPass 重建 view 时没恢复拓扑。"),
            ("09-10 17:02:16", "liutao_tc", "已在 !802 修复（rewrite 前先 stable_topo_sort+lint，pass 后恢复拓扑）。")],
         prs=[PR802], resolved_at="09-14 09:00:21", bot_close=True,
         fix=[(R, 802, "fix")], evidence=["comment"], timing="stale", traps=["stale_close", "close_storm"],
         kb=[], theme="tensorcast-regression"),

    Case(R, 430, "OptiX 对 vLLM 的参数注入语义混用，env / MindIE 配置可能被拼成命令行参数",
         "在 config.toml 里写：\n```toml\n[vllm]\nVLLM_USE_V1 = 1\nMAX_NUM_BATCHED_TOKENS = 8192\n```\n生成的启动命令变成了 `vllm serve ... --VLLM_USE_V1 1`，vllm 直接报 unrecognized arguments。"
         "看起来 !778 引入 VllmCommand 以后 `update_data_field` 不区分注入位置了。MindIE 的 BackendConfig 项也有同样风险。",
         "wuhao_infer", "09-10 20:15:33", "09-18 13:40:00", "ascend-robot", labels=["bug", "optix"],
         comments=[
            ("09-11 10:03:27", "chenlu_optix", "是的。准备统一成三种语义：run=命令行，env=子进程环境变量（新增 `[vllm.env]` 块），BackendConfig.*=MindIE 配置路径。"),
            ("09-14 10:11:05", "liutao_tc", "方案评审通过，PR 合入后请按新格式迁移配置。")],
         prs=[PR825], resolved_at="09-14 10:11:05", bot_close=True,
         fix=[(R, 825, "fix")], evidence=["keyword"], timing="stale", traps=["stale_close", "close_storm"],
         kb=["docs/Ascend/msmodeling/docs/zh/design/optix_parameter_search.md"], theme="optix-config-hygiene"),

    Case(R, 438, "FLUX.1-dev / Qwen-Image-Edit 已经能仿真，但支持矩阵和英文指南里没有",
         "用 `tensorcast image_generate --model FLUX.1-dev` 已经能出结果，但 `docs/zh/support_matrix.md` 和英文版都没列 DiT 模型，英文 user guide 也没有 image_generate 章节。"
         "客户问能不能用时我们没法引用文档。能否补上，并说明 Web UI 是否支持？",
         "maqian_doc", "09-15 11:20:47", "09-18 10:21:31", "liutao_tc", issue_type="需求", labels=["documentation"],
         comments=[
            ("09-15 14:05:12", "liutao_tc", "CLI 已支持，Web UI 还没接通，文档只声明 CLI。26.2.0 分支也需要同步。"),
            ("09-18 10:21:25", "liutao_tc", "master 与 26.2.0 均已合入，关闭。")],
         prs=[PR855, PR856], fix=[(R, 855, "fix"), (R, 856, "backport")], evidence=["minutes", "backport", "linked"], timing="minutes",
         kb=["docs/Ascend/msmodeling/docs/en/user_guide/image_generate.md"], theme="optix-config-hygiene"),

    Case(R, 443, "4fdcdefb 之后 Qwen3-Next 三条回归失败",
         "```\nFAILED tests/models/test_qwen3_next.py::test_layer_access - AttributeError: 'Qwen3NextModel' object has no attribute 'language_model'\n"
         "FAILED tests/diag/test_mtp.py::test_qwen3_next_mtp_stages - AssertionError: expected 1 linear_attention stage, got 2\n"
         "FAILED tests/runtime/test_tp2.py::test_qwen3_next_tp2 - RuntimeError: shape '[2, 16, 128]' is invalid for input of size 6144\n```\n"
         "bisect 到 4fdcdefb（Qwen3.5 适配）。",
         "nightly-bot-msm", "09-18 07:08:19", "09-19 15:44:08", "yangxiaoming", labels=["nightly", "bug"],
         comments=[("09-18 10:30:44", "sunmingyu", "三条都是 Qwen3.5 适配时路径与断言沿用导致：Qwen3NextModel 直接暴露 layers；MTP 诊断里 linear_attention 已拆两段；TP=2 融合投影与本地 K/V head 分片未对齐。一起修。")],
         prs=[PR870, PR873], fix=[(R, 870, "fix"), (R, 873, "backport")], evidence=["auto_close", "linked", "backport"], timing="same_second",
         kb=["docs/Ascend/msmodeling/docs/zh/models/qwen3_next_linear_attention.md"], theme="tensorcast-regression"),

    # dropped by deep analysis
    Case(R, 363, "optix 并发寻优时两个候选写同一个结果目录会互相覆盖",
         "### 现象（推断）\n`optix/search/runner.py` 中结果目录按候选参数生成：\n```python\nrun_dir = os.path.join(out_dir, digest(candidate)[:8])\nos.makedirs(run_dir, exist_ok=True)\n```\n"
         "并发数 `search.parallel=8` 时，如果两个候选的摘要前 8 位相同，两个 worker 会写同一个目录，`metrics.json` 被后写的覆盖，最终报告少一组候选。\n\n"
         "### 建议\n目录名用完整摘要，或者 `makedirs(exist_ok=False)` 冲突时报错。\n\n### 环境\nmsmodeling master 2f81c0a，Python 3.10.14",
         "wuhao_infer", "08-28 09:55:02", "09-17 11:05:40", "liutao_tc",
         comments=[
            ("08-29 10:12:00", "chenlu_optix", "看了下当前实现：`digest()` 返回的是完整 sha256，runner 里并没有截断（截断是 0.3 版本的旧代码，已在重构中删除）。能否给一下实际复现的配置和版本？"),
            ("09-01 16:40:18", "wuhao_infer", "我是对照一份旧分支的代码推断的，master 上实际没碰到过，报告里候选数也是对的。"),
            ("09-02 09:30:51", "chenlu_optix", "好的。master 上目录名是完整摘要，8 并发跑 2000 候选的回归里也没有出现覆盖。"),
            ("09-17 11:05:31", "liutao_tc", "和创建人对齐，该构造场景实际不存在，不做修改，关闭。")],
         funnel="analysis", drop_reason="not_adopted", evidence=["answer"], timing="no_fix", theme="optix-config-hygiene"),

    Case(R, 441, "建议把 --optix-mode 改名为 --search-mode",
         "`--optix-mode` 这个名字对新用户不直观：大家第一次看到都以为是切换 OptiX 的运行模式，实际上它选择的是搜索策略（grid / bayes / slo-first）。\n\n"
         "建议：\n1. 新增 `--search-mode`，语义不变；\n2. 保留 `--optix-mode` 作为别名，打印 deprecation 告警；\n3. 文档与示例统一改为新名字。\n\n"
         "另外日志里每轮搜索的输出也比较乱，DEBUG 行重复很多。",
         "liqing_dev", "09-05 14:30:12", "09-18 18:30:02", "liutao_tc", issue_type="需求",
         comments=[
            ("09-06 10:40:18", "wuhao_infer", "+1，我们内部培训时也被问过好几次。"),
            ("09-08 09:20:44", "chenlu_optix", "参数名已在多个客户的自动化脚本中使用，改名后即使保留别名也会引入告警噪声，收益不大，暂不采纳。日志的问题另外整理。"),
            ("09-08 11:02:30", "liqing_dev", "理解，那至少在文档里把含义写清楚？"),
            ("09-18 18:29:55", "liutao_tc", "文档描述已在参数说明中补充，改名不采纳，关闭。")],
         prs=[PR861], funnel="analysis", drop_reason="not_adopted", evidence=["answer"], timing="no_fix", traps=["linked_unrelated"], theme="optix-config-hygiene"),

]

# earlier merges the case texts cite as causes (not fixes)
PR699 = PR(R, 699, "feat(quant): GMM + SwiGLU + MXFP4 融合为 _quant 算子",
    "MXFP4 场景下把 grouped matmul、swiglu 与 dynamic mx quant 融合为 `npu_grouped_matmul_swiglu_quant`，减少两次 HBM 往返。",
    "panjie_tc", "feat/mxfp4-gmm-fusion", "08-22 10:30:12", merged="08-29 16:40:05", merger="yangxiaoming",
    files=[("tensor_cast/passes/fusion/quant_fusion.py", "@@ -30,4 +30,9 @@ class QuantFusionPass:\n+    PATTERNS = [\n+        (\"npu_grouped_matmul\", \"npu_swiglu\", \"npu_dynamic_mx_quant\"),\n+    ]\n+    FUSED = \"npu_grouped_matmul_swiglu_quant\"\n")],
    commits=["feat(quant): fuse gmm+swiglu+mxfp4 quant"])
PR754 = PR(R, 754, "feat(memory): _internal_copy_region_v2 记录拷贝区间",
    "新增 v2 版本的 copy_region 记录算子，在 meta 中标记 bookkeeping，供内存复用分析使用。",
    "liutao_tc", "feat/copy-region-v2", "08-30 11:02:45", merged="09-05 18:20:31", merger="yangxiaoming",
    files=[("tensor_cast/ops/copy_region.py", "@@ -12,3 +12,9 @@\n+@register_op(\"_internal_copy_region_v2\")\n+def copy_region_v2(src, region):\n+    node = _record(src, region)\n+    node.meta[\"bookkeeping\"] = True\n+    return src\n")],
    commits=["feat(memory): copy_region v2"])
PR778 = PR(R, 778, "refactor(optix): 引入 VllmCommand 统一命令行构造",
    "把 vllm serve 命令行拼接逻辑收敛到 VllmCommand，配置字段通过 update_data_field 写入。",
    "chenlu_optix", "refactor/vllm-command", "08-25 14:10:20", merged="09-03 10:05:44", merger="liutao_tc",
    files=[("optix/backend/vllm_command.py", "@@ -0,0 +1,8 @@\n+class VllmCommand:\n+    def __init__(self, model):\n+        self.model = model\n+        self.args = {}\n+\n+    def update_data_field(self, key, value):\n+        self.args[key] = value\n")],
    commits=["refactor(optix): VllmCommand"])

EXTRA_PRS = [PR837, PR699, PR754, PR778]
