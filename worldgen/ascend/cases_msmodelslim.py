"""Ascend/msmodelslim: numerical correctness and CLI engineering (7 kept, 2 dropped)."""
from .spec import PR, Case

R = "Ascend/msmodelslim"
URL = "https://gitcode.com/Ascend/msmodelslim/issues/"


def _pr(number, title, body, author, branch, created, merged="", state="merged", links=(), files=(), commits=(), merger="wanglin_slim", **kw):
    return PR(R, number, title, body, author, branch, created, state=state, merged=merged, merger=merger if merged else "",
              links=list(links), files=list(files), commits=list(commits), **kw)


PR826 = _pr(826, "fix: per token 激活量化 min/max 按 token 维度计算",
    "minmax_config 初始化 dim=[]，导致 per token 场景按整 Tensor 计算 min/max。改为 reshape(-1, shape[-1]) 后按 dim=[1]、keepdim=True 计算。",
    "dujun_quant", "fix_per_token_minmax", "09-02 15:10:22", state="closed", closed="09-05 09:30:11", links=[446],
    files=[("msmodelslim/quant/observer/minmax.py", "@@ -47,6 +47,8 @@ class MinMaxObserver:\n-        min_val = torch.min(x)\n-        max_val = torch.max(x)\n"
            "+        x = x.reshape(-1, x.shape[-1])\n+        min_val = torch.amin(x, dim=[1], keepdim=True)\n+        max_val = torch.amax(x, dim=[1], keepdim=True)\n")],
    commits=["fix per token minmax dim"])
PR883 = _pr(883, "fix: per token 量化 observer 维度修正（重提）",
    "重提 PR#826，补充静态量化与敏感层分析两处调用点的适配，以及单测。",
    "dujun_quant", "fix_per_token_minmax_v2", "09-08 11:40:02", state="open", links=[446],
    files=[("msmodelslim/quant/observer/minmax.py", "@@ -47,6 +47,8 @@ class MinMaxObserver:\n-        min_val = torch.min(x)\n-        max_val = torch.max(x)\n"
            "+        x = x.reshape(-1, x.shape[-1])\n+        min_val = torch.amin(x, dim=[1], keepdim=True)\n+        max_val = torch.amax(x, dim=[1], keepdim=True)\n")])
PR810 = _pr(810, "修复Qwen3.5量化内存溢出", "逐层加载权重并在校准后立即释放原始 bf16 权重，避免 397B 量化时 host 内存溢出。",
    "chengang_llm", "fix_qwen35_oom", "08-06 20:12:40", merged="08-27 10:15:33", links=[447],
    files=[("msmodelslim/model/qwen3_5/model_adapter.py", "@@ -120,6 +120,9 @@ def quantize_layers(self, layers):\n         for layer in layers:\n"
            "+            layer.to(\"npu\")\n             calib(layer)\n+            layer.release_origin_weight()\n+            torch.npu.empty_cache()\n")],
    commits=["fix qwen3.5 quant oom: release weights layer by layer"])
PR919 = _pr(919, "修复自动调优调用量化服务时的传参类型",
    "解决issue：" + URL + "540\n\n自动调优误将 PracticeConfig 对象传给量化服务，服务端 schema 校验要求 BaseQuantConfig，返回 Code 203。改为传 practice.to_quant_config()。",
    "hanxu_tune", "fix_tune_schema", "09-12 10:20:40", merged="09-15 16:30:12", links=[540],
    files=[("msmodelslim/app/auto_tuning/tuner.py", "@@ -77,7 +77,7 @@ class AutoTuner:\n-        resp = self.quant_service.run(practice)\n+        resp = self.quant_service.run(practice.to_quant_config())\n")],
    commits=["fix: pass BaseQuantConfig to quant service"])
PR958 = _pr(958, "修复权重量化转换时的模型类型校验", "check_model_type_transformers 校验逻辑与权重转换流程冲突，权重转换入口跳过该校验。",
    "yangfan_slim", "bugfix/issue558", "09-11 14:02:05", merged="09-14 18:40:27",
    files=[("msmodelslim/app/convert/weight_convert.py", "@@ -33,7 +33,8 @@ def convert(model_path, cfg):\n-    check_model_type_transformers(adapter)\n+    if cfg.mode != \"weight_convert\":\n+        check_model_type_transformers(adapter)\n")],
    commits=["skip transformers model type check in weight convert"])
PR964 = _pr(964, "修复W8A8DynamicPerChannelFakeQuantLinear前向", "解决issue：" + URL + "564\n\nIR 图中伪量化 Linear 前向对激活做了两次反量化，导致对话重复回答。",
    "dujun_quant", "fix_fakequant_linear", "09-14 09:30:51", merged="09-16 15:05:48", links=[564],
    files=[("msmodelslim/ir/fake_quant_linear.py", "@@ -58,8 +58,7 @@ class W8A8DynamicPerChannelFakeQuantLinear(nn.Module):\n     def forward(self, x):\n"
            "         q, scale = dynamic_quant(x)\n-        x = dequant(q, scale)\n-        out = F.linear(dequant(q, scale), self.weight_fq)\n+        out = F.linear(dequant(q, scale), self.weight_fq)\n")],
    commits=["fix double dequant in fake quant linear forward"])
PR976 = _pr(976, "修复多卡伪量化样本分片越界", "样本数不能被卡数整除时最后一张卡的 index 越界。",
    "yangfan_slim", "bugfix/issue567", "09-15 10:02:18", merged="09-16 19:22:40",
    files=[("msmodelslim/utils/dist_sampler.py", "@@ -21,5 +21,6 @@ def shard_samples(samples, rank, world):\n-    per = len(samples) // world\n-    return [samples[rank * per + i] for i in range(per + 1)]\n"
            "+    per, rem = divmod(len(samples), world)\n+    start = rank * per + min(rank, rem)\n+    return samples[start:start + per + (1 if rank < rem else 0)]\n")],
    commits=["fix sample sharding index out of range"])
PR922 = _pr(922, "CLI帮助列宽自适应终端", "解决issue：" + URL + "536\n\n帮助信息列宽按终端宽度自适应，短选项对齐。",
    "zhouqi_cli", "cli_help_width", "09-11 16:00:20", merged="09-14 11:02:30", links=[536],
    files=[("msmodelslim/cli/formatter.py", "@@ -12,4 +12,5 @@ class HelpFormatter(argparse.HelpFormatter):\n-    def __init__(self, prog, width=80):\n+    def __init__(self, prog, width=None):\n+        width = width or shutil.get_terminal_size((100, 20)).columns\n")])
PR925 = _pr(925, "文档删除旧参数用法", "解决issue：" + URL + "536\n\n删除 docs 中 --model_type/--save_directory 旧参数示例。",
    "zhouqi_cli", "cli_doc_old_args", "09-12 10:40:00", merged="09-14 15:20:47", links=[536],
    files=[("docs/zh/quick_start.md", "@@ -30,4 +30,4 @@\n-msmodelslim quant --model_type qwen3 --save_directory ./out\n+msmodelslim quant --model-type qwen3 --save-path ./out\n")])
PR975 = _pr(975, "版本时间改用服务器本地时区，按真实终端宽度换行", "版本信息的构建时间改用服务器本地时区显示；帮助换行按真实终端宽度。",
    "zhouqi_cli", "cli_version_tz", "09-15 09:12:40", merged="09-16 10:40:05",
    files=[("msmodelslim/cli/version.py", "@@ -8,3 +8,3 @@\n-    built = datetime.utcfromtimestamp(BUILD_TS).strftime(\"%Y-%m-%d %H:%M\")\n+    built = datetime.fromtimestamp(BUILD_TS).astimezone().strftime(\"%Y-%m-%d %H:%M %Z\")\n")])
PR974 = _pr(974, "清理旧参数残留", "解决issue：" + URL + "536", "zhouqi_cli", "cli_old_args_cleanup", "09-15 09:05:12", merged="09-16 16:30:22", links=[536],
    files=[("msmodelslim/cli/quant_cmd.py", "@@ -41,4 +41,2 @@\n-    parser.add_argument(\"--save_directory\", dest=\"save_path\", help=argparse.SUPPRESS)\n-    parser.add_argument(\"--model_type\", dest=\"model_type\", help=argparse.SUPPRESS)\n")])
PR980 = _pr(980, "analyze 别名与 top_k 标题修正", "analyze 子命令增加 ana 别名；top_k 表格标题修正。", "zhouqi_cli", "cli_analyze_alias", "09-16 11:00:40", merged="09-17 10:12:19",
    files=[("msmodelslim/cli/analyze_cmd.py", "@@ -9,3 +9,3 @@\n-    sub = subparsers.add_parser(\"analyze\")\n+    sub = subparsers.add_parser(\"analyze\", aliases=[\"ana\"])\n")])
PR983 = _pr(983, "二轮回归问题修复：帮助中残留旧参数", "解决issue：" + URL + "536\n\n首轮回归发现 `quant -h` 仍显示 --save_directory。", "zhouqi_cli", "cli_regress_round2", "09-17 09:45:31", merged="09-17 16:40:09", links=[536],
    files=[("msmodelslim/cli/quant_cmd.py", "@@ -52,3 +52,3 @@\n-    parser.add_argument(\"--save_directory\", help=\"(deprecated) same as --save-path\")\n+    # removed: --save_directory, use --save-path\n")])

SLIM_FIX_PRS = [(R, n, "fix") for n in (922, 925, 975, 974, 980, 983)]

CASES = [
    Case(R, 446, "Per Token激活量化min/max按整Tensor计算，scale失真",
         "定位到 `msmodelslim/quant/observer/minmax.py` L47-66：minmax_config 初始化 dim=[]，per token 模式下 min/max 是按整个 Tensor 算的，不是每个 token 一个 scale。\n"
         "```python\nmin_val = torch.min(x)   # 期望按 token 维度\nmax_val = torch.max(x)\n```\nQwen3-8B W8A8 per token 静态量化后 ppl 从 9.8 升到 14.2。",
         "dujun_quant", "08-30 10:22:15", "09-18 09:10:40", "ascend-robot", labels=["bug"],
         comments=[("09-01 15:40:22", "wanglin_slim", "确认：影响静态量化与敏感层分析，动态量化不受影响。应先 reshape(-1, shape[-1]) 再按 dim=[1]、keepdim=True 计算。"),
                   ("09-02 15:12:00", "dujun_quant", "提了 PR#826。"),
                   ("09-08 11:42:18", "dujun_quant", "PR#826 关了，重新提交 PR#883，补了敏感层分析调用点。")],
         prs=[PR826, PR883], resolved_at="09-13 17:20:00", bot_close=True,
         evidence=[], timing="no_fix", traps=["fix_not_landed", "stale_close"],
         kb=["docs/Ascend/msmodelslim/docs/zh/algorithms/activation_quant_observer.md"], theme="slim-quant-correctness"),

    Case(R, 447, "Qwen3.5-397B量化时内存溢出",
         "```\n[W8A8] quantizing layer 37/60 ...\nKilled\n$ dmesg | tail -1\nOut of memory: Killed process 40122 (python) total-vm:2.1TB\n```\n机器 2T 内存，Qwen3.5-397B W8A8 量化到第 37 层被 OOM kill。",
         "chengang_llm", "08-06 19:30:10", "09-18 10:21:07", "ascend-robot", labels=["bug"],
         comments=[("08-06 20:20:31", "chengang_llm", "原因是校准后原始 bf16 权重没释放，我提了 PR#810。"),
                   ("08-10 10:05:12", "wanglin_slim", "bug已由提出人修复，PR#810 检视中。"),
                   ("08-27 10:30:40", "wanglin_slim", "PR#810 已合入。")],
         prs=[PR810], resolved_at="08-27 10:31:00", stale_notice="09-14 10:21:07", bot_close=True,
         fix=[(R, 810, "fix")], evidence=["comment", "linked"], timing="stale", traps=["stale_close"],
         kb=[], theme="slim-quant-correctness"),

    Case(R, 536, "CLI版本时间与服务器不符；帮助参数未对齐，文档残留旧参数",
         "1. `msmodelslim --version` 显示的构建时间比服务器时间慢 8 小时\n2. `msmodelslim quant -h` 帮助信息列没有对齐，窄终端下换行错乱\n3. 文档 quick_start 里还在用 `--model_type`、`--save_directory` 旧参数",
         "liyan_test", "09-10 14:02:33", "09-17 20:10:33", "liyan_test",
         comments=[("09-11 09:30:00", "zhouqi_cli", "分批修：PR#922/#925 先处理帮助列宽和文档，版本时间后续。"),
                   ("09-16 20:58:40", "zhouqi_cli", "PR#975（时区/终端宽度）、PR#974（旧参数残留）已合入。"),
                   ("09-17 09:28:12", "liyan_test", "首轮回归不通过：版本时间仍未对齐本地时区（镜像未更新），`quant -h` 仍显示 --save_directory。重开。"),
                   ("09-17 16:50:02", "zhouqi_cli", "二轮补修：PR#980（analyze 别名与 top_k 标题）、PR#983（帮助旧参数）已合入。"),
                   ("09-17 20:10:20", "liyan_test", "二轮回归通过，资料中已无旧参数用法，关闭。")],
         prs=[PR922, PR925, PR975, PR974, PR980, PR983], reopen=[("09-16 21:00:05", "zhouqi_cli", "09-17 09:28:20", "liyan_test")],
         fix=SLIM_FIX_PRS, evidence=["keyword", "comment", "linked"], timing="later",
         kb=["docs/Ascend/msmodelslim/docs/zh/cli/command_reference.md"], theme="slim-quant-correctness"),

    Case(R, 540, "量化精度自动调优报Code 203 SchemaValidateError退出",
         "```\n[ERROR] auto_tuning: quant service returned Code 203: SchemaValidateError: expected BaseQuantConfig, got PracticeConfig\n[ERROR] tuning aborted at round 1\n```\n命令：`msmodelslim tune --model qwen3-8b --practice w8a8_accuracy.yaml`",
         "liyan_test", "09-11 10:40:20", "09-17 19:32:10", "liyan_test", labels=["bug"],
         comments=[("09-12 10:22:00", "hanxu_tune", "自动调优误传了 PracticeConfig，PR#919 修复。"),
                   ("09-17 19:31:58", "liyan_test", "回归通过：调优流程正常执行，首轮浮点精度不达标时按预期报错提示。")],
         prs=[PR919], fix=[(R, 919, "fix")], evidence=["keyword", "comment", "linked"], timing="later",
         kb=["docs/Ascend/msmodelslim/docs/zh/features/auto_tuning.md"], theme="slim-quant-correctness"),

    Case(R, 558, "权重量化转换报BaseModelAdapter无get_model_type属性",
         "```\nAttributeError: 'BaseModelAdapter' object has no attribute 'get_model_type'\n  File \"msmodelslim/app/convert/weight_convert.py\", line 34, in convert\n```",
         "liyan_test", "09-11 11:02:51", "09-17 19:40:55", "liyan_test", labels=["bug"],
         comments=[("09-12 09:10:33", "yangfan_slim", "check_model_type_transformers 校验和权重转换流程冲突，修复中。"),
                   ("09-17 19:40:40", "liyan_test", "回归确认执行权重转换功能正常。")],
         prs=[PR958], fix=[(R, 958, "fix")], evidence=["branch_name"], timing="later",
         kb=[], theme="slim-quant-correctness"),

    Case(R, 564, "Qwen3-32B W8A8C8伪量化推理对话重复回答",
         "W8A8C8 伪量化后推理，对话会一直重复同一句：\n```\nUser: 介绍一下昇腾\nAssistant: 昇腾是华为的AI处理器。昇腾是华为的AI处理器。昇腾是华为的AI处理器。……\n```",
         "liyan_test", "09-13 16:20:40", "09-17 20:02:18", "liyan_test", labels=["bug"],
         comments=[("09-14 09:33:40", "dujun_quant", "异常由 IR 图 W8A8DynamicPerChannelFakeQuantLinear 前向错误引起，PR#964 修复。"),
                   ("09-17 20:02:05", "liyan_test", "回归确认 W8A8C8 伪量化推理对话正常。")],
         prs=[PR964], fix=[(R, 964, "fix")], evidence=["keyword", "comment", "linked"], timing="later",
         kb=["docs/Ascend/msmodelslim/docs/zh/features/fake_quant_inference.md"], theme="slim-quant-correctness"),

    Case(R, 567, "DeepSeek-V3.1-Terminus 4卡伪量化推理list越界",
         "```\n[rank3]: Traceback (most recent call last):\n[rank3]:   File \"msmodelslim/utils/dist_sampler.py\", line 23, in shard_samples\n[rank3]: IndexError: list index out of range\n```\n4 卡，校准集 126 条。",
         "liyan_test", "09-14 15:12:20", "09-17 19:51:37", "liyan_test", labels=["bug"],
         comments=[("09-17 19:51:20", "liyan_test", "回归确认 4 卡伪量化推理与对话正常。")],
         prs=[PR976], fix=[(R, 976, "fix")], evidence=["branch_name"], timing="later",
         kb=["docs/Ascend/msmodelslim/docs/zh/features/fake_quant_inference.md"], theme="slim-quant-correctness"),

    # dropped
    Case(R, 478, "W8A8量化后权重文件比预期大一倍",
         "Qwen3-14B 原始 bf16 权重 28G，W8A8 量化后输出目录 16G，按 int8 算应该只有 14G 左右，多出来的 2G 是什么？\n```\n$ du -sh out/*\n15G  out/quant_model_weight_w8a8.safetensors\n1.1G out/quant_model_description.json\n```\n"
         "环境：msmodelslim master，CANN 8.5.0，torch_npu 2.7.1.post2",
         "gaoming_user", "09-09 17:20:11", "09-17 11:20:40", "wanglin_slim", issue_type="咨询",
         comments=[("09-10 10:02:22", "wanglin_slim", "核验了一下：embedding 与 lm_head 默认不量化，保持 bf16（约 1.5G）；每个 Linear 还有 per channel 的 scale/offset（fp32）以及 deq_scale；description json 记录每个权重的量化类型。16G 符合预期，不是问题。"),
                   ("09-10 14:30:05", "gaoming_user", "明白了，lm_head 不量化是出于精度考虑吧？"),
                   ("09-11 09:15:40", "wanglin_slim", "是的，可以通过 disable_names 配置，但不建议量化 lm_head。")],
         funnel="analysis", drop_reason="not_a_problem", evidence=["answer"], timing="no_fix", theme="slim-quant-correctness"),
    Case(R, 480, "W4A8稀疏量化偶现精度下降",
         "W4A8 稀疏量化 Qwen3-8B，同一配置连续跑两次：\n| 次数 | ceval | mmlu |\n|---|---|---|\n| 1 | 78.9 | 74.1 |\n| 2 | 76.8 | 73.9 |\n\nceval 掉了 2 个点，配置完全一样，校准集 512 条。是不是有随机性？",
         "gaoming_user", "09-10 09:40:15", "09-18 15:02:33", "wanglin_slim",
         comments=[("09-11 10:20:40", "dujun_quant", "校准集会随机采样，请固定 seed 后再跑两次对比。"),
                   ("09-15 18:02:11", "gaoming_user", "固定 seed=1234 后两次都是 78.7，但之前那次 76.8 没法复现了。"),
                   ("09-18 15:02:20", "wanglin_slim", "固定种子后结果稳定，原问题无法复现，关闭；如再出现请附随机种子和日志。")],
         funnel="analysis", drop_reason="no_fix_evidence", evidence=["answer"], timing="no_fix", theme="slim-quant-correctness"),

]

EXTRA_PRS = []
