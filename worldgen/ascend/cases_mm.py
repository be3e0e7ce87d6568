"""Ascend/MindSpeed-MM: FSDP2 pipeline, README versions, capability boundaries (12 kept, 2 dropped)."""
from .spec import PR, Case

R = "Ascend/MindSpeed-MM"

PR2813 = PR(R, 2813, "【社区任务】MagiHuman 15B 音视频 DiT 迁移 FSDP2",
    "关联任务：https://gitcode.com/Ascend/MindSpeed-MM/issues/357\n\n- 新增 `mindspeed_mm/fsdp/models/magihuman/`，通过 `@model_register(\"magihuman\")` 注册\n"
    "- video/audio/text 单流打包，flow-matching 联合训练\n- HF 分片 safetensors 增量加载\n- 适配 CP / EP / chunkloss / recompute / 异步激活卸载\n\n验收：64 卡 MFU 24.6（≥24）。实践文档见 #498。",
    "liuyang_contrib", "feat/magihuman-fsdp2", "08-30 18:20:44", merged="09-17 19:05:10", merger="wangzy_mm", links=[357],
    files=[("mindspeed_mm/fsdp/models/magihuman/__init__.py", "@@ -0,0 +1,3 @@\n+from .modeling_magihuman import MagiHumanDiT\n+\n+__all__ = [\"MagiHumanDiT\"]\n"),
           ("mindspeed_mm/fsdp/models/magihuman/modeling_magihuman.py",
            "@@ -0,0 +1,12 @@\n+from mindspeed_mm.fsdp.registry import model_register\n+\n+\n+@model_register(\"magihuman\")\n"
            "+class MagiHumanDiT(FSDP2DiTBase):\n+    \"\"\"15B audio-video DiT, single-stream packing of video/audio/text tokens.\"\"\"\n+\n"
            "+    def forward(self, packed, timesteps, cu_seqlens):\n+        x = self.embed(packed)\n+        for blk in self.blocks:\n"
            "+            x = blk(x, timesteps, cu_seqlens)\n+        return self.flow_head(x)\n")],
    commits=["feat(fsdp): register MagiHuman DiT plugin", "feat(data): single-stream av/text packing", "docs: MagiHuman training guide"])

PR3157 = PR(R, 3157, "docs(qwen3_6): 统一 triton-ascend 版本为 3.2.2 并补齐章节",
    "- README 两处 triton-ascend 版本（3.2.0 / 3.2.1）统一为 3.2.2，与已整改的 qwen3_5 README（!3037）对齐\n"
    "- 补齐 EP、MoE aux loss、mtp、性能优化、LoRA 章节\n- 补充 fla-npu 的 cmake 依赖\n- 顺带修正目录中的锚点错误",
    "tianxue_doc", "docs/qwen3_6-readme", "09-17 10:12:30", merged="09-18 10:47:21", merger="wangzy_mm", links=[520, 542],
    files=[("examples/fsdp2/qwen3_6/README.md",
            "@@ -18,11 +18,11 @@\n ## 环境配套\n | 软件 | 版本 |\n |---|---|\n-| triton-ascend | 3.2.0 |\n+| triton-ascend | 3.2.2 |\n"
            "@@ -57,7 +57,7 @@\n-pip install triton-ascend==3.2.1\n+pip install triton-ascend==3.2.2\n"
            "@@ -9,7 +9,7 @@\n-- [LoRA 微调](#lora微调)\n+- [LoRA 微调](#lora-微调)\n")],
    commits=["docs(qwen3_6): triton-ascend 3.2.2, add EP/aux loss/mtp/perf/LoRA sections", "docs(qwen3_6): fix toc anchors"])

PR3054 = PR(R, 3054, "feat(data): 预训练按完整文档 packing，cu_seqlens 隔离跨文档注意力",
    "- 按完整文档 packing，不再按 cutoff_len 硬切\n- 生成 cu_seqlens，隔离跨文档 attention 与线性注意力状态\n- 文档内重算 position_ids\n- 每个文档首 token 置 ignore label",
    "zhengkai_mm", "feat/doc-aware-packing", "09-10 16:40:07", state="open", links=[536])

PR3022 = PR(R, 3022, "docs fix: chunkmbs.md 中 chunk_mbs 与 MBS/GBS 关系表述",
    "澄清 chunk_mbs 为实际执行的 mbs；原入参 MBS 按 chunk_mbs 切块；GBS/MBS 中斜线为除号。补充典型配置示例。",
    "tianxue_doc", "docs/chunkmbs", "09-05 11:02:40", merged="09-09 15:30:00", merger="wangzy_mm",
    files=[("docs/features/chunkmbs.md",
            "@@ -12,8 +12,12 @@\n-chunk_mbs 需满足 MBS 与 GBS/MBS 的关系\n+`chunk_mbs` 是实际执行的 micro batch size，入参 `micro_batch_size` 会被按 `chunk_mbs` 切块执行。\n"
            "+表中 `GBS/MBS` 的斜线表示除法。\n+\n+典型配置：`micro_batch_size = GBS / DP`（DP=1 时即 GBS），梯度累积为 1，`chunk_mbs` 取原来的 MBS。\n")],
    commits=["docs: clarify chunk_mbs semantics"])

PR2948 = PR(R, 2948, "LoRA 仅保存 adapter 时跳过全量 DCP 写",
    "adapter-only 场景下直接 return，不调用 dcp.save。",
    "fangyu_lora", "lora-skip-dcp", "08-29 21:05:18", state="closed", closed="09-05 10:30:41", links=[577],
    files=[("mindspeed_mm/fsdp/checkpoint/saver.py", "@@ -66,6 +66,8 @@ def save(self, state, path):\n+        if self.args.lora_adapter_only:\n+            return save_adapter(state, path)\n         dcp.save(state, checkpoint_id=path)\n")],
    comments=[("09-05 10:30:30", "wangzy_mm", "感谢贡献，官方方案会统一处理 save_format 与精度，关闭此 PR，跟踪 !3109。")])

PR3109 = PR(R, 3109, "feat(lora): 新增 lora_save_only，LoRA 存盘与融合导出重构",
    "- `lora_save_only=true`：仅保存 LoRA 权重 + adapter.json\n- `lora_save_only=false` 且 `save_format=dcp`：保存全量，供断点续训\n- `save_format=hf`：融合后直接导出推理权重\n"
    "- `save_ckpt_dtype` 生效点移到 LoRA 合并之后，提升融合精度\n- 保存路径按 iter 隔离",
    "huangrui_mm", "feat/lora-save-only", "09-08 14:22:10", merged="09-16 20:12:45", merger="wangzy_mm", links=[577],
    files=[("mindspeed_mm/fsdp/checkpoint/saver.py",
            "@@ -60,9 +60,18 @@ class CheckpointSaver:\n     def save(self, state, iteration):\n-        path = self.args.save\n-        dcp.save(state, checkpoint_id=path)\n"
            "+        path = os.path.join(self.args.save, f\"iter_{iteration:07d}\")\n+        if self.args.lora_save_only:\n+            return save_lora_adapter(state, path)\n"
            "+        if self.args.save_format == \"hf\":\n+            merged = merge_lora(state)\n+            return export_hf(cast(merged, self.args.save_ckpt_dtype), path)\n"
            "+        dcp.save(state, checkpoint_id=path)\n"),
           ("mindspeed_mm/arguments.py", "@@ -210,6 +210,8 @@ def _add_lora_args(parser):\n+    group.add_argument(\"--lora-save-only\", action=\"store_true\",\n+                       help=\"save only LoRA weights and adapter.json\")\n")],
    commits=["feat(lora): lora_save_only", "fix(lora): apply save_ckpt_dtype after merge", "feat(ckpt): per-iteration save dir"])

PR2983 = PR(R, 2983, "fix(fsdp2): optimizer 存取标志对称，缺失分片时告警",
    "Fixes #621\n\n`no_save_optim=true` 存盘不写 optimizer；resume 时 `no_load_optim=false`，DCP `allow_partial_load` 会静默跳过缺失分片，AdamW 冷启动没有任何提示。\n\n"
    "- save 端在 extra_state 记录 `saved_optim`\n- load 端发现 optimizer 缺失即 warning（与 RNG 守卫对称）",
    "zhengkai_mm", "fix/optim-resume-symmetry", "09-15 17:33:21", merged="09-18 14:05:33", merger="wangzy_mm", links=[621],
    files=[("mindspeed_mm/fsdp/checkpoint/loader.py",
            "@@ -92,6 +92,12 @@ def load(self, state, path):\n         extra = read_extra_state(path)\n"
            "+        if not self.args.no_load_optim and not extra.get(\"saved_optim\", False):\n"
            "+            logger.warning(\"checkpoint %s has no optimizer state (saved with no_save_optim); \"\n"
            "+                           \"optimizer starts from scratch\", path)\n"),
           ("mindspeed_mm/fsdp/checkpoint/saver.py", "@@ -71,4 +71,5 @@ def save(self, state, iteration):\n         extra = {\"rng\": collect_rng_state()}\n+        extra[\"saved_optim\"] = not self.args.no_save_optim\n")],
    commits=["fix(ckpt): record saved_optim and warn on asymmetric resume"])

PR3158 = PR(R, 3158, "feat(fsdp_turbo): qwen3-vl-30B / qwen3.5-27B mxfp8 训练",
    "- fsdp_turbo 接入 mxfp8 线性层\n- cutoff_len/mbs 扩到 16K/4，chunk_loss + activation_offload\n- swap_plan 与注意力重放缓存\n\n"
    "| 模型 | 误差 | 性能 |\n|---|---|---|\n| qwen3.5-27B | 0.25% | 1.3×bf16 |\n| qwen3-vl-30B | 0.33% | 1.1×bf16 |\n\nA5 需安装 triton-ascend。",
    "panjie_quant", "feat/mxfp8-fsdp-turbo", "09-06 10:05:52", merged="09-18 21:12:09", merger="wangzy_mm", links=[716],
    files=[("examples/fsdp2/qwen3vl/finetune_qwen3vl_30B_mxfp8.yaml", "@@ -0,0 +1,9 @@\n+training:\n+  precision: mxfp8\n+  cutoff_len: 16384\n+  micro_batch_size: 4\n"
            "+  chunk_loss: true\n+  activation_offload: true\n+fsdp_turbo:\n+  swap_plan: auto\n+  attn_replay_cache: true\n")],
    commits=["feat(fsdp_turbo): mxfp8 linear", "perf: swap_plan and attention replay cache", "examples: qwen3-vl-30B / qwen3.5-27B mxfp8 yaml"])

PR3171 = PR(R, 3171, "fix(data): parquet 扩展名与读取函数拼写错误",
    "utils.py 两处拼写：`.parquat` → `.parquet`，`pandas.read_parquat` → `pandas.read_parquet`；补 Parquet 记录加载回归测试（pandas 2.3.3 实测读写通过）。",
    "gaoyan_data", "fix/parquet-typo", "09-18 09:40:12", merged="09-18 17:02:48", merger="wangzy_mm", links=[720],
    files=[("mindspeed_mm/data/utils.py",
            "@@ -25,7 +25,7 @@\n-SUPPORTED_EXTS = (\".json\", \".jsonl\", \".parquat\", \".arrow\")\n+SUPPORTED_EXTS = (\".json\", \".jsonl\", \".parquet\", \".arrow\")\n"
            "@@ -88,7 +88,7 @@ def load_records(path):\n-    if path.endswith(\".parquat\"):\n-        return pandas.read_parquat(path).to_dict(\"records\")\n"
            "+    if path.endswith(\".parquet\"):\n+        return pandas.read_parquet(path).to_dict(\"records\")\n"),
           ("tests/ut/data/test_load_records.py", "@@ -0,0 +1,6 @@\n+def test_load_parquet_records(tmp_path):\n+    df = pandas.DataFrame({\"text\": [\"a\", \"b\"]})\n"
            "+    p = tmp_path / \"d.parquet\"\n+    df.to_parquet(p)\n+    assert load_records(str(p)) == [{\"text\": \"a\"}, {\"text\": \"b\"}]\n")],
    commits=["fix(data): parquet extension and reader typo", "test: parquet record loading"])


CASES = [
    Case(R, 357, "【社区任务】MagiHuman 15B 音视频 DiT 迁移至 MindSpeed-MM FSDP2",
         "### 任务描述\n将 MagiHuman 15B 音视频联合生成 DiT 迁移到 MindSpeed-MM FSDP2 后端。\n\n### 验收标准\n1. 以插件方式注册，不修改框架主干\n2. 支持 video/audio/text 联合训练\n"
         "3. 适配 CP/EP/recompute\n4. 64 卡 MFU ≥ 24\n5. 提供实践文档",
         "mm-community", "08-05 10:00:00", "09-17 19:08:06", "wangzy_mm", issue_type="需求", labels=["community-task"],
         comments=[("08-06 09:12:33", "liuyang_contrib", "认领。"),
                   ("09-12 18:40:10", "liuyang_contrib", "PR !2813 已提交，64 卡 MFU 24.6，实践文档在 #498。"),
                   ("09-15 10:21:55", "huangrui_mm", "检视通过，CI 跑完后合入。")],
         prs=[PR2813], fix=[(R, 2813, "fix")], evidence=["auto_close", "linked", "keyword", "comment"], timing="auto_close",
         kb=["docs/Ascend/MindSpeed-MM/docs/zh/models/magihuman.md"], theme="mm-capability-boundary"),

    Case(R, 520, "qwen3_6 README 中 triton-ascend 版本前后不一致（3.2.0 / 3.2.1）",
         "`examples/fsdp2/qwen3_6/README.md` 配套表写的是 triton-ascend 3.2.0，安装步骤里是 `pip install triton-ascend==3.2.1`，到底装哪个？我装 3.2.1 跑 MoE 时报\n"
         "```\nImportError: cannot import name 'fused_moe_gate' from 'triton_ascend.ops'\n```",
         "zhaolei_user", "09-16 19:40:22", "09-18 10:47:21", "wangzy_mm", labels=["documentation"],
         comments=[("09-17 09:30:41", "tianxue_doc", "两处都过时了，正确版本是 3.2.2（和 qwen3_5 README 一致）。装 3.2.2 即可，README 这边一起整改。")],
         prs=[PR3157], fix=[(R, 3157, "fix")], evidence=["auto_close", "linked"], timing="same_second", traps=["one_pr_many_issues"],
         kb=[], theme="readme-version-consistency"),

    Case(R, 536, "FSDP2 预训练 packing 按 cutoff_len 硬切，跨文档注意力和位置状态泄漏",
         "读 `mindspeed_mm/fsdp/data/pretrain_dataset.py`：文档拼接后按 cutoff_len 直接切，没有任何边界信息：\n"
         "- attention 会看到前一篇文档的 token\n- 线性注意力（GDN）的递推状态跨文档延续\n- position_ids 是全序列连续的\n\n这在长文档预训练里影响收敛。是否有计划支持文档边界隔离？",
         "lixin_pretrain", "09-09 10:12:40", "09-19 16:20:31", "huangrui_mm", labels=["enhancement"],
         comments=[("09-10 11:05:19", "huangrui_mm", "确认 master 现状如你所述，没有边界隔离。方案：按完整文档 packing，生成 cu_seqlens 隔离跨文档 attention/线性注意力状态，文档内重计 position_ids，首 token 置 ignore label。PR 见 !3054。"),
                   ("09-19 16:20:25", "huangrui_mm", "方案已明确，PR 在检视中，先关闭 issue。")],
         prs=[PR3054], evidence=[], timing="no_fix", traps=["fix_not_landed"],
         kb=["docs/Ascend/MindSpeed-MM/docs/zh/features/data_packing.md"], theme="mm-fsdp2-pipeline"),

    Case(R, 543, "chunkmbs.md 中 chunk_mbs 与 MBS/GBS 的关系表述前后冲突，按文档取值无解",
         "文档第 12 行说 chunk_mbs 需满足与 MBS 和 GBS/MBS 的关系，表格里又要求 chunk_mbs 整除 GBS/MBS。按 GBS=64, MBS=4 算不出一个同时满足的值。请问正确理解是什么？",
         "songyu_train", "08-30 15:02:11", "09-20 09:41:12", "wangzy_mm", labels=["documentation"],
         comments=[("09-01 10:20:07", "tianxue_doc", "chunk_mbs 是实际执行的 mbs，原入参 MBS 会被按 chunk_mbs 切块；GBS/MBS 里的斜线是除号。典型用法：micro_batch_size=GBS/DP（DP=1 即 GBS）、梯度累积 1、chunk_mbs=原 MBS。文档随 !3022 修改。"),
                   ("09-01 11:48:50", "songyu_train", "明白了，按这个配置跑起来了。")],
         prs=[PR3022], fix=[(R, 3022, "fix")], evidence=["comment"], timing="later",
         kb=["docs/Ascend/MindSpeed-MM/docs/features/chunkmbs.md"], theme="readme-version-consistency"),

    Case(R, 550, "GRPO 微调 qwen2.5-vl-7b 时 Actor 权重迁移到 vLLM 分桶报错",
         "```\n[rank3]: File \"mindspeed_mm/rl/weight_sync.py\", line 188, in bucket_transfer\n[rank3]:   assert bucket.numel() <= self.bucket_size\n[rank3]: AssertionError\n```\n"
         "配置：qwen2.5-vl-7b，8 卡，actor tp=2，rollout vllm tp=4。",
         "xuchen_rl", "09-14 21:30:06", "09-17 10:40:51", "huangrui_mm",
         comments=[("09-15 09:58:13", "huangrui_mm", "RL 系列模型及特性已整体迁移到 verl 仓（https://github.com/verl-project/verl）维护，GRPO 训练建议直接改用 verl，MindSpeed-MM 不再跟进 RL 特性。"),
                   ("09-17 10:40:45", "huangrui_mm", "已给出迁移指引，关闭。")],
         evidence=["answer"], timing="no_fix", kb=["docs/Ascend/MindSpeed-MM/docs/zh/rl/qwen25vl_7b_grpo_practice.md"], theme="mm-capability-boundary"),

    Case(R, 574, "动态分辨率多模态 FSDP2 扩展性退化：token 负载失衡 + cu_seqlens 高频 H2D 同步",
         "qwen2-vl 动态分辨率，16→64 卡线性度只有 0.62。profiling 看到：\n1. 各 rank 的视觉 token 数差异很大（最大/最小 3.1×）\n2. 每个 step 有几百次 `aclrtMemcpy H2D`（cu_seqlens）导致流同步\n\n有什么优化建议？",
         "dengwei_perf", "09-11 14:05:33", "09-19 11:02:27", "huangrui_mm", issue_type="咨询",
         comments=[("09-12 10:45:09", "huangrui_mm", "逐点回复：①rank 间 token 失衡可以开 datapacking 缓解；②triton 关键算子已经上了 tensor cache，大部分同步已消除，残余影响较小，"
                    "对性能有强诉求建议改用 AscendC 实现（该分支已完全消除同步）；③qwen2-vl 已日落，不再投入优化。"),
                   ("09-19 11:02:20", "huangrui_mm", "没有单点问题可修，欢迎贡献 PR，先关闭。")],
         evidence=["answer"], timing="no_fix", kb=["docs/Ascend/MindSpeed-MM/docs/zh/features/data_packing.md"], theme="mm-capability-boundary"),

    Case(R, 577, "LoRA adapter-only 存盘仍走全量 DCP 写，每次多写约 36G 冻结的基模型",
         "qwen3-vl-30B LoRA 微调，开了只存 adapter，但每次 save 还是调用了 dcp.save 全量写：\n```\n$ du -sh output/iter_0000500\n36G\n```\n"
         "我提了 !2948 直接跳过，麻烦看下。",
         "fangyu_lora", "08-29 20:40:01", "09-17 10:15:37", "huangrui_mm",
         comments=[("09-05 10:32:18", "wangzy_mm", "!2948 不采纳：还需要区分断点续训与导出推理两种用途，并处理 save_ckpt_dtype 的生效点。官方方案在 !3109。"),
                   ("09-16 20:30:11", "huangrui_mm", "!3109 已合入：`lora_save_only=true` 只存 LoRA 权重和 adapter.json。"),
                   ("09-17 09:50:03", "fangyu_lora", "验证，iter 目录 310M。")],
         prs=[PR2948, PR3109], fix=[(R, 3109, "fix")], evidence=["comment", "linked"], timing="later",
         kb=["docs/Ascend/MindSpeed-MM/docs/zh/features/lora.md"], theme="mm-fsdp2-pipeline"),

    Case(R, 589, "视觉长序列超过 2048 就 OOM，官方没有长序列方案",
         "做视频理解，视觉 token 一超过 2048 就 OOM，看了文档也没有长序列方案，和宣传的能力不符。",
         "anon_vision", "09-13 22:10:45", "09-20 09:44:50", "wangzy_mm",
         comments=[("09-14 10:30:00", "huangrui_mm", "这个结论不成立：flash_attention_2 显存是 O(N)，不存在 2048 的硬上限；GDN/KDA 线性注意力、DSA 稀疏注意力都有 AscendC 融合算子，"
                    "GDN/KDA 已适配 Ulysses 等 CP（context_parallel_size / context_parallel_algo 可配），再叠加 recompute/TP/PP 还能继续降显存。请补充模型、commit、yaml 和完整日志以便复现。"),
                   ("09-20 09:44:44", "wangzy_mm", "超过一周未回复，关闭。如仍有问题请附复现信息重开。")],
         evidence=["answer"], timing="no_fix", kb=[], theme="mm-capability-boundary"),

    Case(R, 621, "FSDP2 resume 时 optimizer 存/取标志不对称，DCP 局部加载静默跳过导致训练发散",
         "训练时 `no_save_optim: true` 存盘，resume 时忘了设置 no_load_optim，loss 从 1.8 直接跳到 6+ 然后发散，日志里没有任何告警：\n"
         "```\niter 1000 | loss 1.812\n[resume] load checkpoint from ckpt/iter_0001000 ... done\niter 1001 | loss 6.337\niter 1002 | loss 7.920\n```\n"
         "排查发现 DCP `allow_partial_load=True`，optimizer 分片不存在时静默跳过，AdamW 冷启动。",
         "songyu_train", "09-15 09:20:18", "09-18 14:06:45", "wangzy_mm", labels=["bug"],
         comments=[("09-15 16:02:40", "zhengkai_mm", "确认。save 端要记录是否存了 optimizer，load 端缺失时告警，和 RNG 守卫对称。")],
         prs=[PR2983], fix=[(R, 2983, "fix")], evidence=["auto_close", "keyword", "linked"], timing="auto_close",
         kb=["docs/Ascend/MindSpeed-MM/docs/zh/features/checkpoint.md"], theme="mm-fsdp2-pipeline"),

    Case(R, 643, "26.0.0 分支 qwen3_5 README 推荐的 CANN 版本前后矛盾，且与镜像不一致",
         "26.0.0 分支 `examples/fsdp2/qwen3_5/README.md`：\n- 正文环境配套写 CANN 8.5.2\n- MoE 加速那一节的链接指向 CANN 9.0.0 + torch_npu 2.7.1.post2\n"
         "- 但 26.0.0 的镜像里实际是 CANN 9.0.0 + torch_npu 2.7.1.post4\n\n到底以哪个为准？",
         "zhaolei_user", "09-16 10:05:14", "09-19 15:30:09", "huangrui_mm", issue_type="咨询", labels=["documentation"],
         comments=[("09-17 11:20:35", "tianxue_doc", "Qwen3.5 请优先参考最新分支 README；配套关系以 torch_npu 发布说明为准（26.0.0 镜像的 CANN 9.0.0 + 2.7.1.post4 与 pytorch 仓 COMPATIBILITY.md 一致）。"),
                   ("09-19 15:30:02", "huangrui_mm", "已答复，关闭。")],
         evidence=["answer"], timing="no_fix", kb=[], theme="readme-version-consistency"),

    Case(R, 716, "qwen3-vl-30B / qwen3.5-27B 请求支持 mxfp8 训练",
         "A5 上想用 mxfp8 训练 qwen3-vl-30B 和 qwen3.5-27B，目前 fsdp_turbo 只有 bf16。请问有计划吗？",
         "panjie_quant", "09-02 09:10:00", "09-18 21:14:20", "wangzy_mm", issue_type="需求",
         comments=[("09-03 10:00:12", "huangrui_mm", "在做，!3158。"),
                   ("09-17 18:22:40", "panjie_quant", "精度：qwen3.5-27B 误差 0.25%，qwen3-vl-30B 0.33%；性能 1.3× / 1.1× bf16。")],
         prs=[PR3158], fix=[(R, 3158, "fix")], evidence=["auto_close", "linked", "comment"], timing="auto_close",
         kb=["docs/Ascend/MindSpeed-MM/docs/zh/features/mxfp8_training_recipe.md"], theme="mm-capability-boundary"),

    Case(R, 720, "utils.py 扩展名拼成 .parquat，parquet 数据集全部读不出来",
         "```\nValueError: Unsupported file type: /data/llava/train-00000-of-00008.parquet, supported: ('.json', '.jsonl', '.parquat', '.arrow')\n```\n"
         "看了下 `mindspeed_mm/data/utils.py` 扩展名写成了 `.parquat`，下面还有 `pandas.read_parquat`。",
         "gaoyan_data", "09-18 09:21:40", "09-18 17:02:48", "wangzy_mm", labels=["bug"],
         comments=[('09-18 09:35:12', 'gaoyan_data', '两处拼写：受支持扩展名和 pandas 读取函数名，修复并补回归测试。')],
         prs=[PR3171], fix=[(R, 3171, "fix")], evidence=["auto_close", "linked"], timing="same_second",
         kb=[], theme="mm-fsdp2-pipeline"),

    # dropped
    Case(R, 542, "qwen3_6 README 目录跳转失效",
         "`examples/fsdp2/qwen3_6/README.md` 开头目录里有几项点击后不跳转：\n- 「LoRA 微调」指向 `#lora微调`，实际标题生成的锚点是 `#lora-微调`\n- 「性能优化」指向 `#性能调优`，正文没有这个标题\n\n"
         "应该是标题改过但目录没同步。",
         "zhaolei_user", "09-17 08:50:02", "09-18 10:47:21", "wangzy_mm", labels=["documentation"],
         comments=[("09-17 10:05:33", "tianxue_doc", "这个 README 正在整体整改（版本号、缺失章节），目录一起修。")],
         prs=[PR3157], funnel="analysis", drop_reason="merged_into_other",
         fix=[(R, 3157, "fix")], evidence=["auto_close", "linked"], timing="same_second", traps=["one_pr_many_issues"],
         theme="readme-version-consistency"),

    Case(R, 568, "[RFC] 多模态数据加载统一为流式 pipeline",
         "## 背景\n当前多模态数据集加载方式分散在各模型目录：qwen2.5-vl 用 map-style dataset 全量预处理，internvl 在 collate 里做图像切块，视频模型各自实现抽帧。"
         "带来的问题：\n1. 预处理结果无法复用，换模型要重跑数小时；\n2. 大数据集（>1 亿样本）全量索引内存不够；\n3. 动态分辨率下各 rank 负载不均。\n\n"
         "## 目标\n- 统一 DataSource → Decoder → Transform → Packer 四段式流式 pipeline\n- 支持断点续读（记录 shard 与 offset）\n- 与 datapacking 打通\n\n"
         "## 方案\n1. 统一 DataSource 抽象：本地 jsonl/parquet、对象存储、webdataset tar\n2. ",
         "lixin_pretrain", "09-06 10:00:31", "09-19 10:12:00", "huangrui_mm", issue_type="需求",
         comments=[("09-08 15:20:40", "gaoyan_data", "断点续读这块很需要，目前 resume 只能从 epoch 开始。方案部分好像没写完？"),
                   ("09-10 09:12:15", "huangrui_mm", "期待补全方案与接口设计后再评审。"),
                   ("09-19 10:11:52", "huangrui_mm", "RFC 内容不完整且长期未更新，关闭；补全后可重新提交。")],
         funnel="analysis", drop_reason="no_fix_evidence", timing="no_fix", theme="mm-fsdp2-pipeline"),

]

PR3037 = PR(R, 3037, "docs(qwen3_5): README 配套版本与章节整改",
    "qwen3_5 README：triton-ascend 统一为 3.2.2，补充 EP、MoE aux loss、mtp 章节。",
    "tianxue_doc", "docs/qwen3_5-readme", "09-08 16:20:11", merged="09-12 11:30:40", merger="wangzy_mm",
    files=[("examples/fsdp2/qwen3_5/README.md", "@@ -18,3 +18,3 @@\n-| triton-ascend | 3.2.1 |\n+| triton-ascend | 3.2.2 |\n")],
    commits=["docs(qwen3_5): versions and sections"])

EXTRA_PRS = [PR3037]
