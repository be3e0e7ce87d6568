"""Knowledge documents that explain the mechanism of a kept case (each is some case's kb_ref)."""

TARGETS = {}

TARGETS["docs/Ascend/msmodeling/docs/zh/design/optix_parameter_search.md"] = """# OptiX 参数寻优设计

## 1. 目标
OptiX 在给定硬件与模型的前提下，对推理服务的启动参数做组合搜索，输出吞吐/时延帕累托前沿。

## 2. 单一入口：config.toml
OptiX 只接受 `config.toml` 作为配置入口，不解析用户的启动脚本。原因：
- 启动脚本中的变量展开、`source` 外部文件、同一参数同时出现在 `export` 与命令行时的优先级规则，各团队写法不同，难以做对；
- 直读脚本会把脚本的运行时副作用（清理进程、切换目录）带进搜索流程。
需要从现有启动命令迁移时，推荐使用 Agent 辅助：把启动命令与寻优需求交给 Agent，生成 config.toml 并用 `optix check` 校验。

## 3. 参数注入位置（三种语义）
| 写法 | 注入位置 | 示例 |
|---|---|---|
| `[vllm.run]` / `run.*` | vllm serve 命令行参数 | `run.max-num-batched-tokens = 8192` |
| `[vllm.env]` / `env.*` | 子进程环境变量 | `env.VLLM_USE_V1 = 1` |
| `BackendConfig.*` | MindIE 配置文件 JSON 路径 | `BackendConfig.ScheduleConfig.maxBatchSize = 64` |

三种语义互不混用：env 中的变量不会出现在命令行，BackendConfig 只改写 MindIE 的 config.json。未知前缀直接报 `OptixConfigError`。

## 4. 搜索空间
每个搜索维度由 `type` 指定：
- `enum`：显式候选列表；
- `range`：起止与步长；
- `factories`：由其他维度派生的表达式，如 `8 / dp`。

DP/TP 组合寻优示例（8 卡）：
```toml
[search.dp]
type = "enum"
values = [1, 2, 4]

[search.tp]
type = "factories"
expr = "8 / dp"
```
只会产生 (1,8)(2,4)(4,2) 三组合法组合，避免 dp×tp 超出卡数。

## 5. 剪枝与评估
每轮按 SLO（TTFT、TPOT 上限）淘汰候选，剩余候选在仿真器中评估吞吐；仿真器通过 `health()` 判定服务就绪，判定不应产生真实推理请求，以免污染测量窗口。
"""

TARGETS["docs/Ascend/msmodeling/docs/zh/design/moe_routing_simulation.md"] = """# TensorCast MoE 路由仿真

## 路由流程
MoE 层的仿真按真实执行顺序建模：gating → topk → `npu_moe_init_routing_v2` → all_to_all dispatch → 专家计算 → combine。
`init_routing_v2` 的输出行数等于 `active_num = tokens × top_k`，后续 all_to_all 的通信字节数由该 numel 驱动。

## shared-expert-tp 与 token 切片
开启 `shared_expert_tp` 时，进入 MoE 之前 hidden states 会被 `_dp_transform_enter` 按 tp 切为 N/tp 行。
路由计算（gating、topk）必须在切片之后进行，topk_ids 的行数与本地 hidden 一致（N/tp × k）。
若在切片前计算路由，topk_ids 仍为 N × k，dispatch 量被放大 tp 倍；末尾对 expanded 的截断只会掩盖问题而不会修正通信建模。

## 门控类型
- 标准门控（softmax / sigmoid + topk）：走上述流程；
- raw-logits 分支：路由在专家侧完成，不经过 init_routing_v2，不受 token 切片顺序影响。

## 校验
仿真结果中 `moe.dispatch.bytes` 应满足 `tokens / tp × top_k × hidden × dtype_bytes`。
"""

TARGETS["docs/Ascend/msmodeling/docs/zh/design/sp_replay.md"] = """# SP Replay：序列并行的通信改写

SP Replay 在 FX 图上把 TP 区域边界的 `all_reduce` 改写为 `reduce_scatter` + `all_gather`，并把中间的逐 token 计算放到切片上执行。

## 匹配阶段（P1~P3）
- P1：定位 TP 区域的输出 all_reduce；
- P2：收集 all_reduce 输出的数据路径用户；
- P3：确认所有数据路径用户都可以在切片上执行，才执行替换。

## bookkeeping 用户
`_internal_copy_region`（v1）与 `_internal_copy_region_v2` 只记录内存区间，不读取张量数据，其 meta 中 `bookkeeping=True`。
P3 判断数据路径用户时必须跳过 bookkeeping 边，否则任何挂了 copy_region 的 all_reduce 都会被判为「存在不可切片用户」，从而放弃替换，在回归中表现为 all_reduce 残留。

## 融合算子与断言
量化融合（如 GMM + SwiGLU + MXFP4 融合为 `npu_grouped_matmul_swiglu_quant`）会改变图中节点，nightly 断言应查找融合后的算子名。
"""

TARGETS["docs/Ascend/msmodeling/docs/zh/developer_guide/model_adaptor.md"] = """# 模型适配（model adaptor）开发指南

## 适配级别
model adaptor 只要求「跑通级」：模型能在 TensorCast 中完成 trace 与仿真，不依赖实测数据锚点。

## verify：结构推导对账
`tensorcast adaptor verify <model>` 读取模型公开配置（config.json），推导每层 attention 与 MoE gating 的调用次数，与 trace 结果对账：
- attention 次数 = num_hidden_layers（混合注意力模型按层类型分别统计）；
- MoE gating 次数 = MoE 层数；
对账不一致时输出差异表，而不是抛出异常。

## 仿真崩溃报告
trace 或仿真崩溃时输出 `SIMULATION_ERROR` 结构化报告：崩溃算子、调用栈摘要、已完成层数，并附一段可直接交给 AI 助手的修复任务描述。

## MoE 适配证据
MoE 路径中命中已适配算子（如 npu_moe_init_routing_v2、npu_grouped_matmul）即视为适配证据，doctor 不再报「gating 未适配」。
"""

TARGETS["docs/Ascend/msmodeling/docs/zh/models/qwen3_next_linear_attention.md"] = """# Qwen3-Next 线性注意力建模说明

## 模型结构
Qwen3-Next 采用混合注意力：每 4 层中 3 层为 Gated DeltaNet 线性注意力，1 层为标准 gated attention；MoE 512 专家、激活 10 个。

## 与 Qwen3.5 的差异
- 模块路径：`Qwen3NextModel` 直接暴露 `layers`；Qwen3.5 多模态模型的解码层位于 `language_model.layers`。适配代码应按模型类取路径，不能沿用；
- 线性注意力在 TensorCast 中拆分为两个 stage：短卷积（conv）与递推（recurrent），MTP 诊断按两段统计；
- 投影：q/k/v/z 融合为一个 `in_proj_qkvz`，TP 切分时需按本地 K/V head 数切分融合权重，不能简单按 dim0 均分。

## TP=2 注意事项
num_key_value_heads=2 时 TP=2 每卡 1 个 K/V head，融合投影按 `_split_fused_qkvz(weight, local_kv, rank)` 切分。
"""

TARGETS["docs/Ascend/msmodeling/docs/en/user_guide/image_generate.md"] = """# image_generate

`tensorcast image_generate` simulates diffusion-transformer (DiT) image generation models.

## Supported models
| Model | CLI | Web UI |
|---|---|---|
| FLUX.1-dev | yes | not yet |
| Qwen-Image-Edit | yes | not yet |

## Quick start
```bash
tensorcast image_generate --model FLUX.1-dev --height 1024 --width 1024 --steps 28 --device A3
```

## Parameters
- `--steps`: denoising steps; total time scales linearly.
- `--cfg`: classifier-free guidance, doubles the transformer batch when > 1.
- `--vae-tiling`: simulate tiled VAE decode.

## Known limitations
- The Web UI does not expose image generation yet; the support matrix lists CLI support only.
- Text encoders are simulated once per request and are not cached across requests.
"""

TARGETS["docs/Ascend/MindSpeed-MM/docs/features/chunkmbs.md"] = """# chunk_mbs

## 含义
`chunk_mbs` 是实际执行的 micro batch size。入参 `micro_batch_size`（MBS）会被按 `chunk_mbs` 切块后逐块前反向，梯度在块间累加。

## 与 MBS / GBS 的关系
- 文档中 `GBS/MBS` 的斜线表示除法；
- 要求 `micro_batch_size % chunk_mbs == 0`。

## 典型配置
把原来的梯度累积改成 chunk 执行：
- `micro_batch_size = GBS / DP`（DP=1 时即 GBS）；
- 梯度累积步数 = 1；
- `chunk_mbs = 原来的 MBS`。
这样每步只做一次优化器更新与通信，显存由 chunk_mbs 决定。
"""

TARGETS["docs/Ascend/MindSpeed-MM/docs/zh/features/checkpoint.md"] = """# FSDP2 断点续训与 checkpoint

## 保存
- `save_format`: `dcp`（分布式 checkpoint，供续训）或 `hf`（导出推理权重）；
- `no_save_optim`: 为 true 时不保存优化器状态；
- extra_state 保存 RNG 状态与 `saved_optim` 标志。

## 加载
- `no_load_optim`: 为 false 时加载优化器状态；
- DCP 以 `allow_partial_load=True` 加载，缺失的分片会被跳过。

## 存取对称性
若保存时 `no_save_optim=true`，续训时 `no_load_optim=false`，优化器分片不存在，DCP 局部加载会静默跳过，AdamW 从零状态开始，loss 可能发散。
加载端读取 extra_state 的 `saved_optim`，为 false 且要求加载优化器时输出告警（与 RNG 守卫一致）。续训前请确认两个标志一致。
"""

TARGETS["docs/Ascend/MindSpeed-MM/docs/zh/features/data_packing.md"] = """# 数据 packing

## datapacking（微调）
按样本长度装箱，减少 padding，并可缓解动态分辨率场景下各 rank 间的 token 负载失衡。

## 预训练文档拼接
当前 master：文档拼接后按 `cutoff_len` 切分，不记录文档边界。
规划中的按文档 packing：
- 以完整文档为单位装箱；
- 生成 `cu_seqlens`，使 flash attention 与线性注意力（GDN）状态不跨文档；
- 文档内重新计算 `position_ids`；
- 每个文档首 token 置 ignore label。

## cu_seqlens 与同步
cu_seqlens 需要拷贝到 host 计算分块，triton 算子已使用 tensor cache 缓存以减少 H2D 同步；AscendC 实现完全在 device 侧处理。
"""

TARGETS["docs/Ascend/MindSpeed-MM/docs/zh/features/lora.md"] = """# LoRA 微调

## 保存
| 配置 | 行为 |
|---|---|
| `lora_save_only: true` | 仅保存 LoRA 权重与 adapter.json |
| `lora_save_only: false`, `save_format: dcp` | 保存全量（含冻结基模型），用于断点续训 |
| `save_format: hf` | 合并 LoRA 后导出 HF 权重，可直接推理 |

`save_ckpt_dtype` 在 LoRA 合并之后生效，避免低精度合并带来的误差。保存目录按 `iter_XXXXXXX` 隔离。

## 体积参考
qwen3-vl-30B：全量约 36G，仅 adapter 约 300M。
"""

TARGETS["docs/Ascend/MindSpeed-MM/docs/zh/features/mxfp8_training_recipe.md"] = """# mxfp8 量化训练食谱（fsdp_turbo）

## 适用
A5 上的 fsdp_turbo 后端；需安装 triton-ascend。

## 配方
- 线性层使用 mxfp8（块大小 32，E8M0 scale）；
- 长序列：cutoff_len 16K、mbs 4，配合 chunk_loss 与 activation_offload；
- swap_plan=auto 与注意力重放缓存（attn_replay_cache）降低重计算开销。

## 参考结果
| 模型 | 相对 bf16 误差 | 性能 |
|---|---|---|
| qwen3.5-27B | 0.25% | 1.3× |
| qwen3-vl-30B | 0.33% | 1.1× |
"""

TARGETS["docs/Ascend/MindSpeed-MM/docs/zh/models/magihuman.md"] = """# MagiHuman 15B 音视频 DiT（FSDP2）

## 注册方式
模型位于 `mindspeed_mm/fsdp/models/magihuman/`，通过 `@model_register("magihuman")` 插件式注册，不修改框架主干。

## 训练
video/audio/text token 单流打包，flow-matching 联合训练；权重从 HF 分片 safetensors 增量加载。

## 并行与显存
支持 CP、EP、chunkloss、recompute 与异步激活卸载。64 卡 MFU 约 24.6。
"""

TARGETS["docs/Ascend/MindSpeed-MM/docs/zh/rl/qwen25vl_7b_grpo_practice.md"] = """# Qwen2.5-VL-7B GRPO 训练实践（verl）

> RL 系列模型与特性已迁移至 verl 仓维护，本页介绍在 verl 中完成 Qwen2.5-VL-7B 的 GRPO 训练。

## verl 架构
- single controller 调度 actor、rollout、reference、reward 四类 worker；
- actor 训练后端可选 FSDP / Megatron，rollout 使用 vLLM；
- 权重同步：actor 更新后按桶（bucket）把参数广播给 rollout 引擎，桶大小由 `actor_rollout_ref.rollout.update_weights_bucket_megabytes` 控制。

## 8 卡配置要点
- actor tp=2，rollout tp=4；
- 视觉塔权重同样参与同步，桶需大于单个最大参数。

## 从 MindSpeed-MM 迁移
数据格式与 reward 函数可直接复用；配置改写为 verl 的 hydra 配置。
"""

TARGETS["docs/Ascend/mind-cluster/docs/rfc/26.1.0/NPUExporter新增node_base_info指标.md"] = """# RFC：NPUExporter 新增 node_base_info 指标（26.1.0）

## 背景
集群中常混布多代 HDK，运维需要按驱动版本筛选节点。

## 方案
- 新增 `node_base_info` 指标，值恒为 1，以标签承载节点信息；
- 标签：`node`、`chipType`、`dcmiVersion`；
- `dcmiVersion` 通过新增的 `dcmi_get_driver_version` 接口获取，失败时为空并打印告警。

## 兼容性
旧版本 Prometheus 规则不受影响；Grafana 模板新增按 dcmiVersion 过滤的变量。
"""

TARGETS["docs/Ascend/mind-cluster/docs/zh/03_deployment/npu_exporter.md"] = """# npu-exporter 部署

## 部署方式
以 DaemonSet 部署在每个 NPU 节点，默认监听 8082 端口。

## 启动参数
| 参数 | 默认值 | 说明 |
|---|---|---|
| -port | 8082 | 监听端口 |
| -updateTime | 5 | 缓存刷新周期（秒） |
| -containerMode | docker | 容器运行时 |
| -platform | Prometheus | 对接平台 |

## 指标组配置
指标组在 metrics_group.yaml 中开关并设置采集周期；node_base_info 随基础组默认开启，携带 dcmiVersion 标签。
"""

TARGETS["docs/Ascend/mind-cluster/docs/zh/04_usage/acjob_samples.md"] = """# AscendJob 示例 yaml 选型

| 示例 | 适用 | NPU 请求 |
|---|---|---|
| mindspore_standalone_acjob.yaml | 单机单卡调试 | 必须为 1 |
| mindspore_multinodes_acjob.yaml | 多机 | 每 worker 实际卡数 |
| mindspore_multinodes_acjob_super_pod.yaml | A3 超节点（含单机多卡） | 实际卡数 |

standalone 示例没有 scheduler 角色，校验要求请求 NPU 数为 1，否则报 `replicaSpec is not valid: when scheduler not found, the req num must be 1`。
A3 单机多卡请使用 super_pod 示例，worker replicas 设为 1，request NPU 设为实际卡数。
"""

TARGETS["docs/Ascend/mind-cluster/docs/zh/05_observability/npu_exporter_metrics.md"] = """# npu-exporter 指标说明

## 指标组
| 组 | 内容 | 默认周期 |
|---|---|---|
| network_bandwidth | tx/rx 带宽 | 60s |
| network_link | link_status、link_speed、link_up_num | 600s |
| optical | 光模块温度、功率 | 600s |
| network（兼容） | 与上两组相同的指标，不建议与上两组同时开启 | 60s |

## 利用率指标
利用率定义由 HDK 决定：
- 24.1.RC2.7 之前：`dcmi_get_device_utilization_rate` 单指标查询；
- 25.3.RC1 起：NPU 整体利用率按 RTS 调度任务时间占比计算；
- 26.0.RC1 起（仅 A5）：`multi_utilization_rate` 一次查询四项利用率。
1s 平均与 host 侧缓存能力受 A2/A3/A5 形态限制。跨集群对比前先确认 HDK 版本一致。
"""

TARGETS["docs/Ascend/mind-cluster/docs/zh/06_api/01_volcano.md"] = """# Volcano 参数说明

## 1. 概述
本章说明 volcano-scheduler 昇腾插件（huawei-npu）及 device-plugin 中与调度相关的参数。参数分为调度器配置、任务 yaml 标签与注解、device-plugin 启动参数三类。
修改调度器配置后需重启 volcano-scheduler；修改 device-plugin 启动参数后需重建 DaemonSet。

## 2. volcano-scheduler 配置
| 参数 | 说明 |
|---|---|
| huawei-npu | 开启 NPU 调度插件 |
| nodeorder | 节点打分，按剩余 NPU 与拓扑打分 |
| presetVirtualDevice | 静态虚拟化预置，与 device-plugin 同名参数保持一致 |
| grace-over-time | 故障重调度时等待旧 Pod 退出的时间（秒），默认 900 |

配置位于 volcano-scheduler-configmap 的 `volcano-scheduler.conf`，`actions` 需包含 `enqueue, allocate, backfill`。

## 3. 任务 yaml 中的标签与注解
| 键 | 位置 | 说明 |
|---|---|---|
| ring-controller.atlas | label | 芯片类型，如 ascend-910b |
| fault-scheduling | label | 重调度策略：grace / force / off |
| huawei.com/schedule_policy | annotation | 调度策略，如 chip4-node8、chip2-node16 |
| sp-block | annotation | A3 超节点任务的逻辑超节点大小 |

节点需打上 `accelerator-type`（如 module-910b-8）与 `host-arch`（huawei-arm / huawei-x86）标签，标签值使用中横线。

## 4. device-plugin 与 volcano 相关参数
| 参数 | 默认值 | 说明 |
|---|---|---|
| -volcanoType | false | 是否与 volcano 配合使用（设备由 volcano 选定，device-plugin 按注解分配） |
| -shareDevCount | 1 | 共享设备数，大于 1 表示一颗芯片虚拟成多份共享使用 |
| -presetVirtualDevice | true | 是否静态虚拟化 |
| -hotReset | -1 | 故障芯片热复位策略 |

约束：仅共享设备场景（shareDevCount>1）不支持 `-volcanoType=true`：共享设备由 kubelet 按份数分配，volcano 选定的整卡设备无法与之对应，任务会一直 Pending。两者同时配置时 device-plugin 启动参数校验失败并退出，日志提示 `volcanoType can not be true when shareDevCount > 1`。

## 5. 亲和性调度
A2 训练服务器按 HCCS 环（0-3、4-7）做亲和：1/2/4/8 卡任务优先放在同一个环内。A3 超节点任务按 sp-block 划分逻辑超节点，同一逻辑超节点内的节点优先。
亲和失败时任务保持 Pending，事件中给出不满足的规则。

## 6. 资源上报与健康检查
device-plugin 以 `huawei.com/Ascend910` 等资源名上报可用芯片，故障芯片从可用列表移除并写入 `huawei.com/Ascend910-Unhealthy` 注解；volcano 通过节点注解感知故障芯片。

## 7. 故障重调度
| 策略 | 行为 |
|---|---|
| grace | 等待 grace-over-time 后删除旧 Pod 并重新调度 |
| force | 立即删除并重新调度 |
| off | 不重调度 |

Pod 级重调度只重建故障 Pod，需要训练框架支持进程级恢复。
"""

TARGETS["docs/Ascend/mind-cluster/docs/zh/07_clusterops/clusterops_agent.md"] = """# clusterops-agent

## 缓存
agent 在内存中维护 relcache（关系缓存）与 pathmap（路径映射），并持久化到 ConfigMap 以便重启恢复。
单个 ConfigMap 上限 1MiB（etcd 限制），大集群按分片写入，最多 100 个分片（约 100M）。

## 缓存时机
执行即缓存：任务执行时写入缓存，不需要对任务对象的 get 权限。

## NFS 挂载案例
采集结果目录可挂载 NFS，需保证 agent 运行用户对挂载点可写。
"""

TARGETS["docs/Ascend/mind-cluster/docs/zh/07_clusterops/node_collector.md"] = """# node-collector 日志采集

## 任务归属匹配
采集 plog 时按以下顺序确定目录归属：
1. taskid：目录名包含 taskid 的目录；无 taskid 则不采集；
2. ip：目录名不含 taskid（例如 uuid 命名）时按节点 ip 匹配；
3. 关键字：ip 与 taskid 均无法匹配时退化为按关键字匹配目录。
该顺序避免同一节点上多个任务的 plog 被一并打包。

## 采集范围
plog、device log、HCCL 日志；大小上限由 max_collect_size 控制。
"""

TARGETS["docs/Ascend/mind-cluster/docs/zh/08_faq/scheduling_faq.md"] = """# 调度常见问题

## Pod 一直 Pending，事件为 NodeAffinity predicates failed
现象：`pod group is not ready`，`plugin NodeAffinity predicates failed node(s) didn't match Pod's node affinity/selector`。
原因：节点标签与任务 nodeSelector 不一致。MindCluster 默认标签使用中横线（如 `host-arch=huawei-arm`、`accelerator-type=module-910b-8`），不能写成下划线。
处理：在 Init 配置文件中改正标签后重新打标签。

## unexpectedAdmissionError
kubelet 分配设备失败后，Pod 会被标记为 UnexpectedAdmissionError，需删除后重新调度；先确认 device-plugin 上报的设备数。

## 任务一直 Pending，事件为 Insufficient huawei.com/Ascend910
检查资源是否被其他任务占用，或虚拟化模板是否匹配。
"""

TARGETS["docs/Ascend/mind-cluster/docs/zh/appendix/default_mounts.md"] = """# 附录：ascend-docker-runtime 默认挂载内容

## 默认挂载项
| 宿主机路径 | 容器路径 | 方式 |
|---|---|---|
| /usr/local/Ascend/driver/lib64 | 同名 | 只读 |
| /usr/local/dcmi | 同名 | 只读 |
| /usr/local/bin/npu-smi | 同名 | 只读 |
| /etc/hccl_rootinfo.json（26.2.0 起删除） | 同名 | 只读 |

出于安全考虑，默认挂载项均以只读方式挂载。需要修改时请在宿主机上修改后同步进容器。
单文件挂载受 inode 限制：编辑器若以「写新文件再改名」方式保存，容器内看不到修改。vim 需在 ~/.vimrc 中配置 `set backupcopy=yes` 保证原地写。

## hccl_rootinfo.json 默认挂载的移除
26.1.0 及之前默认挂载 hccl_rootinfo.json。rootinfo 配置 RoCE 网络层级但容器内未挂载 UB 网卡字符文件时，UB 组网下不使用 DPU 的训练任务也会拉起失败。
26.2.0 起删除该默认挂载，通信域由 CANN 自协商机制创建。UB 网卡设备建议 MindCluster ≥ 26.2.0 且 CANN ≥ 9.2.0。
"""

TARGETS["docs/Ascend/msmodelslim/docs/zh/algorithms/activation_quant_observer.md"] = """# 激活量化 observer

## MinMax observer
统计激活的最小/最大值计算 scale 与 offset。
- per tensor：对整个 Tensor 统计；
- per token：先 `reshape(-1, shape[-1])`，再按 `dim=[1]`、`keepdim=True` 统计，每个 token 一组 scale。

## 影响范围
observer 用于静态量化校准与敏感层分析；动态量化在运行时逐 token 计算，不经过 observer。

## 常见问题
per token 配置下若 `minmax_config` 的 dim 为空列表，会退化为按整 Tensor 统计，scale 失真、精度下降。
"""

TARGETS["docs/Ascend/msmodelslim/docs/zh/cli/command_reference.md"] = """# msmodelslim 命令参考

## 全局选项
- `--version`：显示版本与构建时间（服务器本地时区）；
- `-h/--help`：帮助信息按终端宽度自适应换行，短选项对齐。

## quant
```bash
msmodelslim quant --model-type qwen3 --model-path ./Qwen3-8B --save-path ./out --quant-type w8a8
```
旧参数 `--model_type`、`--save_directory` 已删除，请使用中横线写法。

## analyze（别名 ana）
敏感层分析，输出 top_k 敏感层表格。

## tune
精度自动调优，见「自动调优」章节。
"""

TARGETS["docs/Ascend/msmodelslim/docs/zh/features/auto_tuning.md"] = """# 量化精度自动调优

## 流程
1. 读取 practice 配置（PracticeConfig），生成候选量化配置；
2. 调用量化服务执行量化，服务接收 BaseQuantConfig，由 `practice.to_quant_config()` 转换；
3. 评估精度，未达标则回退敏感层并进入下一轮。

## 错误码
| Code | 含义 |
|---|---|
| 203 | SchemaValidateError：请求配置不符合 BaseQuantConfig schema |
| 301 | 浮点基线精度不达标，调优终止 |
"""

TARGETS["docs/Ascend/msmodelslim/docs/zh/features/fake_quant_inference.md"] = """# 伪量化推理

## IR 图
量化后导出的 IR 图中，W8A8 动态 per channel 的线性层以 `W8A8DynamicPerChannelFakeQuantLinear` 表示：
前向对激活做一次动态量化与反量化，权重使用伪量化权重。前向中重复反量化会使数值偏移，表现为对话重复、输出退化。

## 多卡伪量化
多卡场景下校准样本按 rank 分片：样本数不能被卡数整除时，前 rem 个 rank 多分一条，避免 index 越界。
"""

TARGETS["docs/Ascend/MindSpeed-Bridge/docs/zh/features/thd_packed_sequence.md"] = """# thd 格式（packed sequence）训练

## 数据布局
bshd：按 batch 对齐 padding；thd：多条样本拼接为一条，用 cu_seqlens 标记边界。

## preprocess_packed_seqs
以 attention_mask 为布尔掩码，从 input_ids 中取出有效 token：`input_ids[i, mask[i]]`。
attention_mask 必须为 bool。若为 int32，PyTorch 会把它当作整数行号索引，取出的并非有效 token，embedding 与 position_ids 全部错乱，表现为 loss 急剧升高、grad_norm 异常。

## 检查清单
- attention_mask.dtype == torch.bool；
- cu_seqlens 末元素等于拼接后总长度。
"""

TARGETS["docs/Ascend/MindIE-Motor/docs/zh/features/kv_cache_cpu_offload.md"] = """# KV Cache CPU Offload 特性指南

## 多级缓存
HBM → CPU（DRAM）→ Disk 三级。kv-conductor 维护各级块索引，调度器据此做前缀亲和。

## 续查
请求在 HBM 命中前缀后，继续在 CPU 池查找后续块。CPU 池按 (instance, dp_rank) 组织：同一实例不同 dp rank 的块是不同的池，续查键必须包含 dp，否则会重复计数，cpu_blocks 虚高。

## YuanRong 后端
CPU/Disk 池按节点注册。

## 亲和调度
`affinity_hit_threshold`：命中率超过阈值才按亲和选择实例，默认 0.3。
"""

TARGETS["docs/Ascend/MindIE-Motor/docs/zh/architecture/controller_heartbeat.md"] = """# Controller 心跳与健康判定

## Endpoint 标识
- Instance.endpoints[pod_ip] 是以 Pod 内存储 key 为键的字典，每个 Pod 从 0 开始编号；
- Endpoint.id 是全局唯一 id，NodeManager 心跳 status 以它为键。

## 期望集合
Controller 用实例全部 endpoint 的全局 id 构造期望集合，与心跳上报的 id 集合比较；集合不一致超过超时时间判定实例异常。
跨 Pod 部署时，若误用 Pod 内 key 构造期望集合，第二个及之后 Pod 的心跳会被判为不一致。
"""

TARGETS["docs/Ascend/memfabric_hybrid/docs/zh/design/ha_leader_election.md"] = """# 高可用：基于 etcd 的主节点选举

## 选举
各节点竞争 etcd 锁，持锁者为 leader，锁租约到期需续约。

## 健康检查与抢锁
健康检查与抢锁使用不同的互斥量：抢锁超时 2s，不得阻塞健康检查。若两者共用 backendMutex_，30s 抢锁会阻塞健康检查，旧主无法及时发现失联。

## 降级
失去锁后无条件、幂等地降级为 follower，并通知上层停止对外服务；降级失败需上报。
etcd 瞬时读超时不触发降级，避免无主。
"""

TARGETS["docs/Ascend/memfabric_hybrid/docs/zh/design/acclink_transport.md"] = """# acclink 传输层

## 地址解析
SocketAddressParserMgr 负责把 `ip:port` 解析为监听/连接地址。监听时必须使用本节点自身的 ip:port 创建 parser，不能按端口复用缓存的 parser：多节点同端口时缓存会被其他节点的 IP 覆盖，bind 报 EADDRNOTAVAIL。

## 监听 URL
`BuildListenUrl` 对 IPv6 地址加方括号：`tcp://[fe80::1]:7788`。
"""

TARGETS["docs/Ascend/memfabric_hybrid/docs/zh/features/offload_shared_mode.md"] = """# offload shared 模式

## 说明
多个推理实例共享一个 host 侧 KV 池。

## 拓扑支持
| 拓扑 | 单机 | 跨机 |
|---|---|---|
| A2 | 支持 | 不支持 |
| A3 超节点 | 支持 | 支持（UB 传输，超节点内） |

## 配置
`ock.mmc.local_service.dram.size` 为本地池大小；host_shm 协议下不要再设置 `max.dram.size`，两者叠加会超出限制。
"""

TARGETS["docs/cann/hcomm/src/framework/rank_info_detect/rank_info_detect.cc"] = """/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * RankInfoDetect: RootInfo based link establishment for HCCL communicators.
 */
#include "rank_info_detect.h"
#include "root_info_detect_provider.h"
#include "log.h"

namespace hccl {

HcclResult RankInfoDetect::Init(const HcclRootInfo &rootInfo, u32 rank, u32 rankSize)
{
    rank_ = rank;
    rankSize_ = rankSize;
    CHK_RET(provider_.Parse(rootInfo, rootIp_, rootPort_));
    return HCCL_SUCCESS;
}

// Every rank connects to the root, sends its RankInfo and receives the full rank table.
// The log keyword "DetectRankTableImpl" marks each connection attempt and its result;
// diagnosis tools parse these lines to rebuild the link topology.
HcclResult RankInfoDetect::DetectRankTableImpl(RankTable_t &rankTable)
{
    HCCL_INFO("DetectRankTableImpl: rank[%u] connect to root %s:%u", rank_, rootIp_.c_str(), rootPort_);
    HcclResult ret = ConnectRoot(detectTimeoutMs_);
    if (ret != HCCL_SUCCESS) {
        HCCL_ERROR("DetectRankTableImpl: rank[%u] connect to root %s:%u failed, ret[%d]", rank_, rootIp_.c_str(), rootPort_, ret);
        return ret;
    }
    HCCL_INFO("DetectRankTableImpl: rank[%u] connect to root %s:%u success", rank_, rootIp_.c_str(), rootPort_);
    CHK_RET(SendRankInfo());
    CHK_RET(RecvRankTable(rankTable));
    return HCCL_SUCCESS;
}

HcclResult RankInfoDetect::ConnectRoot(u32 timeoutMs)
{
    return socket_.Connect(rootIp_, rootPort_, timeoutMs);
}

}  // namespace hccl
"""

TARGETS["docs/cann/hcomm/src/framework/rank_info_detect/root_info_detect_provider.cc"] = """/**
 * Copyright (c) 2025 Huawei Technologies Co., Ltd.
 * RootInfoDetectProvider: generates and parses HcclRootInfo, runs the root side of detection.
 */
#include "root_info_detect_provider.h"
#include "log.h"

namespace hccl {

// Root side: listen, collect RankInfo from all ranks, then broadcast the assembled rank table.
HcclResult RootInfoDetectProvider::Serve(u32 rankSize)
{
    HCCL_INFO("RootInfoDetect: root listen on %s:%u, expect %u ranks", ip_.c_str(), port_, rankSize);
    CHK_RET(listener_.Listen(ip_, port_));
    for (u32 i = 0; i < rankSize; ++i) {
        CHK_RET(AcceptRankInfo());
    }
    CHK_RET(BroadcastRankTable());
    HCCL_INFO("RootInfoDetect: rank table of %u ranks ready", rankSize);
    return HCCL_SUCCESS;
}

// The root info carries ip, port and an identifier; its layout is versioned.
HcclResult RootInfoDetectProvider::Parse(const HcclRootInfo &info, std::string &ip, u32 &port)
{
    const RootInfoHeader *hdr = reinterpret_cast<const RootInfoHeader *>(info.internal);
    CHK_PRT_RET(hdr->version > ROOT_INFO_VERSION, HCCL_ERROR("unsupported root info version %u", hdr->version), HCCL_E_PARA);
    ip = hdr->ip;
    port = hdr->port;
    return HCCL_SUCCESS;
}

}  // namespace hccl
"""
