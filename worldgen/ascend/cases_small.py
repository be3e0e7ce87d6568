"""Small repos: MindSpeed-Bridge (1 kept, 5 dropped), MindIE-Motor (2 kept, 1 dropped), memfabric_hybrid (4 kept)."""
from .spec import PR, Case

B = "Ascend/MindSpeed-Bridge"
M = "Ascend/MindIE-Motor"
F = "Ascend/memfabric_hybrid"

PR54 = PR(B, 54, "fix qwen3vl thd attention_mask", "thd 格式下 attention_mask 改为 bool。", "suning_br", "fix_thd_mask", "08-14 09:40:31",
          state="closed", closed="08-14 11:20:00",
          files=[("mindspeed_bridge/models/qwen3vl/modeling.py", "@@ -210,3 +210,3 @@\n-        attention_mask = torch.ones(b, s, dtype=torch.int32)\n+        attention_mask = torch.ones(b, s).bool()\n")])
PR55 = PR(B, 55, "修复 Qwen3VLModel thd 格式 attention_mask dtype 错误", "修复 #41\n\nQwen3VLModel.forward 以 dtype=int32 创建 attention_mask，"
          "preprocess_packed_seqs 中 `input_ids[i, mask[i]]` 把 int 当行号索引而非布尔掩码，embedding 与 position_ids 全部错乱。改为 bool；bshd 格式不受影响。",
          "suning_br", "fix_thd_mask_v2", "08-14 11:30:12", merged="08-14 15:42:10", merger="guojing_br",
          files=[("mindspeed_bridge/models/qwen3vl/modeling.py",
                  "@@ -210,3 +210,3 @@ class Qwen3VLModel(MegatronModule):\n-        attention_mask = torch.ones((b, s), dtype=torch.int32, device=input_ids.device)\n"
                  "+        attention_mask = torch.ones((b, s), dtype=torch.bool, device=input_ids.device)\n"),
                 ("tests/ut/test_packed_seqs.py", "@@ -0,0 +1,5 @@\n+def test_mask_is_boolean_index():\n+    ids = torch.arange(8).view(1, 8)\n"
                  "+    mask = torch.ones((1, 8), dtype=torch.bool)\n+    out = preprocess_packed_seqs(ids, mask)\n+    assert torch.equal(out.input_ids, ids.view(-1))\n")],
          commits=["fix: attention_mask must be bool for thd packing"])
PR136 = PR(B, 136, "支持 Megatron core_r0.14 的 dist checkpoint 转换", "修复 #84", "yanbo_br", "feat_core014_ckpt", "09-12 10:10:10", state="open", links=[84])

PR986 = PR(M, 986, "kv-conductor HBM 续查按 instance/dp 对齐，YuanRong CPU/Disk 按节点注册",
           "- HBM→CPU 续查按 (instance, dp) 对齐，避免跨 dp 重复计数导致 cpu_blocks 虚高\n- YuanRong CPU/Disk 池按节点注册\n- 亲和调度支持阈值配置 `affinity_hit_threshold`",
           "tianhao_motor", "fix_kv_lookup_align", "09-15 16:20:02", merged="09-18 20:10:39", merger="liangyu_motor",
           files=[("mindie_motor/kv_conductor/lookup.py",
                   "@@ -77,8 +77,9 @@ class KvLookup:\n     def continue_lookup(self, req, hbm_hit):\n-        key = req.instance_id\n-        return self.cpu_index.query(key, start=hbm_hit)\n"
                   "+        # blocks of different dp ranks in one instance are distinct pools\n+        key = (req.instance_id, req.dp_rank)\n+        return self.cpu_index.query(key, start=hbm_hit)\n"),
                  ("mindie_motor/scheduler/affinity.py", "@@ -30,4 +30,5 @@ class AffinityPolicy:\n-    HIT_THRESHOLD = 0.3\n+    def __init__(self, cfg):\n+        self.hit_threshold = cfg.get(\"affinity_hit_threshold\", 0.3)\n")],
           commits=["kv-conductor: align continued lookup by instance/dp", "yuanrong: register cpu/disk pool per node", "scheduler: configurable affinity threshold"])
PR1008 = PR(M, 1008, "kv-conductor 多级池淘汰统计修正",
            "修复 #647\n\n前序：#631 的 HBM 续查对齐已由 PR#986 合入（本 PR 基于其 instance/dp 键）。本 PR 修正多级池淘汰后 cpu_blocks 统计未回收的问题。",
            "tianhao_motor", "fix_evict_stat", "09-19 11:40:20", state="open", links=[631, 647],
            files=[("mindie_motor/kv_conductor/evict.py", "@@ -40,3 +40,4 @@ def on_evict(self, key, n):\n         self.pool[key] -= n\n+        self.stats.cpu_blocks -= n\n")])
PR1000 = PR(M, 1000, "Controller 心跳期望集合改用全局 endpoint.id",
            "Fixes #643\n\nInstance.endpoints[pod_ip] 的 key 是 Pod 内存储 key（各 Pod 从 0 重编），NodeManager 心跳 status 的 key 是全局 Endpoint.id。"
            "原实现用字典 key 构造期望集合，第二个及之后的 Pod 的合法心跳被判不一致导致超时误判。改为用 endpoint.id 构造，并补跨 Pod 回归测试。",
            "xiewen_motor", "fix_heartbeat_endpoint_id", "09-16 19:02:40", merged="09-18 18:18:17", merger="liangyu_motor", links=[643],
            files=[("mindie_motor/controller/heartbeat.py",
                    "@@ -102,7 +102,8 @@ class HeartbeatChecker:\n     def expected_ids(self, instance):\n-        return {k for pod in instance.endpoints.values() for k in pod.keys()}\n"
                    "+        # pod-local keys restart from 0 in every pod; status reports use global ids\n+        return {ep.id for pod in instance.endpoints.values() for ep in pod.values()}\n"),
                   ("tests/controller/test_heartbeat_multi_pod.py", "@@ -0,0 +1,4 @@\n+def test_second_pod_heartbeat_is_valid(make_instance):\n"
                    "+    inst = make_instance(pods=2, endpoints_per_pod=2)\n+    checker = HeartbeatChecker()\n+    assert checker.check(inst, status_from(inst)) is True\n")],
            commits=["controller: build expected heartbeat set from global endpoint id", "test: cross-pod heartbeat"])

PR1309 = PR(F, 1309, "HA：抢锁与健康检查解耦，降级无条件幂等",
            "- 抢锁超时 30s→2s，且不再与健康检查共用 backendMutex_\n- 旧主降级不再被 reElectionInProgress_ 短路，BecomeFollower 改为无条件幂等并通知上层\n- etcd 瞬时读超时不再触发自我降级",
            "jiangtao_mf", "fix/ha-472-etcd-dual-master", "09-12 20:40:33", merged="09-17 11:31:55", merger="songlei_mf", links=[472],
            files=[("src/ha/leader_election.cpp",
                    "@@ -140,12 +140,11 @@ Result LeaderElection::TryAcquire()\n-    std::lock_guard<std::mutex> lk(backendMutex_);\n-    auto ret = etcd_->Lock(lockKey_, std::chrono::seconds(30));\n"
                    "+    std::lock_guard<std::mutex> lk(lockMutex_);  // health check keeps backendMutex_\n+    auto ret = etcd_->Lock(lockKey_, std::chrono::seconds(2));\n"
                    "@@ -210,9 +209,8 @@ void LeaderElection::StepDown()\n-    if (reElectionInProgress_) {\n-        return;\n-    }\n-    BecomeFollower();\n"
                    "+    if (BecomeFollower() != Result::OK) {\n+        LOG_ERROR(\"become follower failed, notify upper layer\");\n+    }\n+    NotifyRoleChange(Role::FOLLOWER);\n")],
            commits=["ha: decouple lock acquire from health check", "ha: unconditional idempotent step down"])
PR1315 = PR(F, 1315, "acclink：监听按自身 ip:port 解析，修复同端口不同 IP 覆盖",
            "SocketAddressParserMgr 按端口缓存 parser，同端口不同 IP 时端口表被覆盖，AccTcpListener::Start 按端口取到其它节点 IP，从节点 bind 报 EADDRNOTAVAIL。"
            "Start 改为按自身 ip:port 调用 CreateParser；BuildListenUrl 处理 IPv6。",
            "luwei_mf", "fix/acclink-478-bind-addr", "09-13 15:20:18", merged="09-17 11:07:16", merger="songlei_mf", links=[478],
            files=[("src/acclink/acc_tcp_listener.cpp",
                    "@@ -55,7 +55,8 @@ int AccTcpListener::Start()\n-    auto parser = SocketAddressParserMgr::Instance().Get(port_);\n"
                    "+    auto parser = SocketAddressParserMgr::Instance().CreateParser(ip_, port_);\n"
                    "@@ -90,4 +91,6 @@ std::string BuildListenUrl(const std::string &ip, uint16_t port)\n-    return \"tcp://\" + ip + \":\" + std::to_string(port);\n"
                    "+    bool v6 = ip.find(':') != std::string::npos;\n+    return \"tcp://\" + (v6 ? \"[\" + ip + \"]\" : ip) + \":\" + std::to_string(port);\n")],
            commits=["acclink: parse listen address by own ip:port", "acclink: ipv6 listen url"])
PR1322 = PR(F, 1322, "offload shared 模式支持 A3 超节点跨机", "为 offload shared 模式新增 A3 超节点跨机支持。自验证截图见评论。",
            "jiangtao_mf", "feat/a3-cross-node-shared", "09-10 10:00:50", merged="09-20 14:17:23", merger="songlei_mf", links=[485],
            files=[("src/mmc/offload/shared_pool.cpp", "@@ -44,6 +44,10 @@ Result SharedPool::Init(const Config &cfg)\n+    if (cfg.topology == Topology::A3_SUPERPOD) {\n"
                    "+        transport_ = CreateUbTransport(cfg.superPodId);  // cross-node inside one super pod\n+        return transport_->Connect(cfg.peers);\n+    }\n")],
            comments=[("09-19 18:02:20", "jiangtao_mf", "A3 双机自验证：put/get 256MB 对象 1000 次通过，截图见附件。")],
            commits=["offload: A3 superpod cross node shared mode"])


CASES = [
    Case(B, 41, "Qwen3.5-9B/35B 用 thd 格式训练 loss 飙到 21、grad_norm 570+",
         "同样的数据，bshd 格式训练正常（loss 2.1 左右），切到 thd 后：\n```\n iteration        1 | lm loss: 2.134E+00 | grad norm: 12.302\n iteration        2 | lm loss: 1.487E+01 | grad norm: 571.880\n"
         " iteration        3 | lm loss: 2.106E+01 | grad norm: 603.114\n```\nMindSpeed-Bridge master，Megatron core_r0.13，Qwen3.5-9B 和 35B-A3B 都能复现。",
         "fengyi_train", "08-12 19:40:20", "09-17 15:50:02", "ascend-robot", labels=["bug"],
         comments=[("08-13 10:20:40", "suning_br", "定位：Qwen3VLModel.forward 以 dtype=int32 创建 attention_mask，preprocess_packed_seqs 中 input_ids[i, mask[i]] 把 int 当行号索引而非掩码，embedding 与 position_ids 都被毁掉。"),
                   ("08-14 16:00:12", "guojing_br", "已通过 PR#54 合入修复，请更新代码验证。"),
                   ("08-15 11:30:55", "fengyi_train", "更新后 thd loss 正常了。")],
         prs=[PR54, PR55], resolved_at="08-15 12:00:00", stale_notice="09-13 15:50:02", bot_close=True,
         fix=[(B, 55, "fix")], evidence=["keyword"], timing="stale", traps=["stale_close", "claimed_unmerged"],
         kb=["docs/Ascend/MindSpeed-Bridge/docs/zh/features/thd_packed_sequence.md"], theme="small-repo-sharp-root-causes"),

    Case(B, 42, "Bridge 支持哪些 Megatron 版本？core_r0.14 能用吗",
         "我们在做 Megatron-LM 升级评估，想确认 MindSpeed-Bridge 目前对接的 Megatron-LM 版本范围：\n1. core_r0.12 / r0.13 / r0.14 分别是否支持？\n2. 如果用 core_r0.14，权重转换和 thd 格式有没有已知问题？\n\n"
         "环境：MindSpeed 2.2.0，CANN 9.0.0，torch_npu 2.7.1.post2。",
         "yanbo_user", "09-01 10:10:10", "09-17 16:20:12", "guojing_br", issue_type="咨询",
         comments=[("09-02 09:40:00", "guojing_br", "当前版本支持 core_r0.12 ~ core_r0.13，r0.14 适配在进行中（dist checkpoint 格式有变化，见 #84）。thd 格式在 r0.13 上验证过。"),
                   ("09-02 10:12:33", "yanbo_user", "好的，那我们先停在 r0.13。")],
         funnel="analysis", drop_reason="consultation_only", evidence=["answer"], timing="no_fix", theme="small-repo-sharp-root-causes"),
    Case(B, 55, "希望 Bridge 支持 DeepSpeed 后端",
         "我们有一批 DeepSpeed ZeRO-3 训练的脚本，想复用 Bridge 的模型定义和权重转换能力。能否在 Bridge 里加一个 DeepSpeed 的适配层？\n"
         "具体需要：\n- HF ↔ DeepSpeed checkpoint 转换\n- ZeRO-3 下的参数收集接口",
         "liwen_ds", "09-03 15:00:20", "09-17 16:21:40", "guojing_br", issue_type="需求",
         comments=[("09-04 10:10:33", "guojing_br", "Bridge 定位只面向 MindSpeed ↔ Megatron：模型定义依赖 Megatron 的 parallel_state 与 TP/PP 切分，权重转换也按 mcore 的 dist checkpoint 布局实现；"
                    "DeepSpeed ZeRO-3 的参数分区与收集方式完全不同，无法复用。DeepSpeed 后端不在规划内，不受理。DeepSpeed 的昇腾适配请关注 deepspeed-ascend 仓。"),
                   ("09-04 11:20:02", "liwen_ds", "了解。")],
         funnel="analysis", drop_reason="not_adopted", evidence=["answer"], timing="no_fix", theme="small-repo-sharp-root-causes"),
    Case(B, 76, "pip 安装 bridge 后 import 报 No module named 'megatron'",
         "按 README 执行 `pip install -e .` 后：\n```\n>>> import mindspeed_bridge\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n"
         "  File \"mindspeed_bridge/__init__.py\", line 3, in <module>\n    from megatron.core import parallel_state\nModuleNotFoundError: No module named 'megatron'\n```\n"
         "环境：Ubuntu 22.04，Python 3.10.14，MindSpeed 2.2.0。",
         "chenxu_new", "09-05 20:02:02", "09-18 09:12:30", "guojing_br",
         comments=[("09-06 09:30:12", "suning_br", "Bridge 不自带 Megatron-LM。需要先 clone Megatron-LM（core_r0.13）并 `pip install -e` 安装，或把其路径加入 PYTHONPATH。"),
                   ("09-06 12:02:40", "chenxu_new", "export PYTHONPATH=/path/to/Megatron-LM 后可以了。"),
                   ("09-18 09:12:22", "guojing_br", "环境问题，关闭。")],
         funnel="analysis", drop_reason="env_workaround", evidence=["answer"], timing="no_fix", theme="small-repo-sharp-root-causes"),
    Case(B, 84, "core_r0.14 的 dist checkpoint 无法转换",
         "Megatron core_r0.14 保存的 dist checkpoint 用 `tools/convert.py --load-format mcore` 转换报错：\n```\nKeyError: 'common'\n  File \"mindspeed_bridge/convert/mcore_loader.py\", line 57, in load_common_state\n```\n"
         "r0.14 把 common.pt 合并进了 metadata。",
         "yanbo_br", "09-10 09:20:55", "09-19 10:05:40", "guojing_br",
         comments=[("09-11 14:02:10", "suning_br", "r0.14 的 checkpoint 布局确实变了，loader 需要按版本分支读取。"),
                   ("09-12 10:12:30", "yanbo_br", "修复 PR 136 已提交。"),
                   ("09-19 10:05:31", "guojing_br", "修复方案已明确，关闭，PR 136 合入后可用。")],
         prs=[PR136], funnel="analysis", drop_reason="fix_pending", timing="no_fix", traps=["fix_not_landed"], theme="small-repo-sharp-root-causes"),
    Case(B, 85, "64 卡训练中途偶发 hang",
         "Qwen3.5-35B-A3B，64 卡（8 机），跑到 3000 步左右偶发 hang，没有报错，npu-smi 看各卡 AICore 利用率为 0。\n```\n iteration     2998 | lm loss: 1.902E+00\n iteration     2999 | lm loss: 1.897E+00\n(之后无输出)\n```\n"
         "三次训练出现两次，步数不固定。",
         "fengyi_train", "09-11 22:30:00", "09-19 10:08:20", "guojing_br",
         comments=[("09-12 10:00:10", "suning_br", "请提供 hang 住时各 rank 的 py-spy dump 和 plog，确认卡在哪个集合通信。"),
                   ("09-12 21:40:55", "fengyi_train", "这次没复现，下次出现再抓。"),
                   ("09-19 10:08:11", "guojing_br", "一周无反馈，关闭。")],
         funnel="analysis", drop_reason="no_fix_evidence", timing="no_fix", theme="small-repo-sharp-root-causes"),

    Case(M, 631, "kv-conductor HBM→CPU 续查未按 instance/dp 对齐，cpu_blocks 虚高",
         "开 KV Cache CPU Offload，2 实例 × dp4，conductor 上报的 cpu_blocks 是实际的 4 倍左右：\n```\n[kv-conductor] instance=0 hbm_hit=120 cpu_blocks=3840 (pool capacity 1024)\n```\n"
         "亲和调度因此把请求都打到同一个实例上。",
         "wangrui_infer", "09-12 10:40:32", "09-18 20:10:39", "liangyu_motor", labels=["bug"],
         comments=[("09-13 09:50:22", "tianhao_motor", "HBM 续查只按 instance 取 key，没区分 dp rank，多个 dp 的 CPU 块被重复计数。一起修一下 YuanRong 按节点注册和亲和阈值配置。"),
                   ("09-18 20:30:11", "wangrui_infer", "PR#986 合入后验证 cpu_blocks 与池容量一致。")],
         prs=[PR986, PR1008], fix=[(M, 986, "fix")], evidence=["auto_close", "comment"], timing="same_second",
         kb=["docs/Ascend/MindIE-Motor/docs/zh/features/kv_cache_cpu_offload.md"], theme="small-repo-sharp-root-causes"),
    Case(M, 643, "跨 Pod 部署时 Controller 心跳 Endpoint 集合校验失败，误判超时",
         "P 实例跨 2 个 Pod，Controller 日志：\n```\n[WARN] heartbeat endpoint set mismatch: expected {0,1}, got {0,1,2,3}\n[ERROR] instance 3 heartbeat timeout, mark unhealthy\n```\n单 Pod 部署正常。",
         "zhoubin_ops", "09-15 11:05:20", "09-18 18:18:17", "liangyu_motor", labels=["bug"],
         comments=[('09-16 10:02:41', 'xiewen_motor', 'Instance.endpoints[pod_ip] 的 key 是 Pod 内的存储 key，每个 Pod 都从 0 编号；NodeManager 心跳上报用的是全局 Endpoint.id。期望集合用了字典 key，第二个 Pod 开始就对不上。改为用 endpoint.id 构造期望集合。')],
         prs=[PR1000], fix=[(M, 1000, "fix")], evidence=["auto_close", "keyword", "linked"], timing="same_second",
         kb=["docs/Ascend/MindIE-Motor/docs/zh/architecture/controller_heartbeat.md"], theme="small-repo-sharp-root-causes"),
    Case(M, 635, "性能调优文档中 TTOT 应为 TPOT",
         "`docs/zh/performance_tuning.md` 第 3 节「时延指标」写的是 TTOT，应为 TPOT（Time Per Output Token）。同一节的公式 `TTOT = (E2E - TTFT) / (output_tokens - 1)` 也是 TPOT 的定义。",
         "lin_doc", "09-14 09:12:12", "09-17 14:02:02", "lin_doc",
         comments=[("09-14 15:30:40", "wangrui_infer", "顺便问一下，benchmark 输出里的 ITL 和 TPOT 是一回事吗？"),
                   ("09-15 10:20:11", "xiewen_motor", "TTOT 是笔误，公式本身没问题。TPOT 是单个请求解码阶段的平均每 token 时延，(E2E - TTFT) / (output_tokens - 1)；ITL 是相邻两个 token 的间隔，按 token 统计分布，P99 ITL 会明显高于 TPOT。"),
                   ("09-17 14:01:50", "lin_doc", "已在下个文档版本修正，我自己关掉。")],
         funnel="analysis", drop_reason="self_answered", timing="no_fix", theme="small-repo-sharp-root-causes"),
    Case(F, 472, "主节点 etcd 断链恢复后出现双主，旧主不降级",
         "三节点 HA，主节点拔掉 etcd 网线 15s 后恢复：\n```\n[node1] role=LEADER term=7\n[node2] acquire lock success, role=LEADER term=8\n[node1] role=LEADER term=7   <- 仍对外服务\n```\n两个 leader 同时写元数据。",
         "sunhao_mf", "09-10 14:22:18", "09-17 11:31:55", "songlei_mf", labels=["bug", "HA"],
         comments=[("09-11 10:30:40", "jiangtao_mf", "抢锁(30s)和健康检查共用 backendMutex_ 互相阻塞；旧主降级被 reElectionInProgress_ 短路；BecomeFollower 失败不上报。新主 5~10s 上位时旧主仍在服务。另外 etcd 瞬时读超时还会让旧主自我降级导致无主。"),
                   ("09-17 11:40:02", "jiangtao_mf", "PR#1309 已合入：抢锁超时 30s→2s 并与健康检查解耦，降级改为无条件幂等并通知上层。拔线 200 次未再出现双主。")],
         prs=[PR1309], fix=[(F, 1309, "fix")], evidence=["auto_close", "branch_name", "linked", "comment"], timing="same_second",
         kb=["docs/Ascend/memfabric_hybrid/docs/zh/design/ha_leader_election.md"], theme="small-repo-sharp-root-causes"),
    Case(F, 478, "循环执行禁用 etcd 用例，leader 起监听时 bind 地址失败",
         "```\n[ERROR] AccTcpListener::Start bind 10.0.0.12:7788 failed, errno 99 (EADDRNOTAVAIL)\n```\n本机 IP 是 10.0.0.13，10.0.0.12 是另一个节点。",
         "sunhao_mf", "09-11 16:02:40", "09-17 11:07:16", "songlei_mf", labels=["bug"],
         comments=[("09-12 10:15:30", "luwei_mf", "SocketAddressParserMgr 按端口缓存 parser，同端口不同 IP 时被其他节点覆盖，Start 取到了别人的 IP。修复见 PR#1315。")],
         prs=[PR1315], fix=[(F, 1315, "fix")], evidence=["auto_close", "branch_name", "linked", "comment"], timing="same_second",
         kb=["docs/Ascend/memfabric_hybrid/docs/zh/design/acclink_transport.md"], theme="small-repo-sharp-root-causes"),
    Case(F, 479, "800I A2 host_shm 部署 DeepSeek 推理报 Failed to put key",
         "1.2 分支，host_shm 协议：\n```\n[mmc] Failed to put key kv_0_12_337, ret=-12 (no space)\n```\n配置里有 `ock.mmc.local_service.dram.size=20GB` 和 `ock.mmc.local_service.max.dram.size=50GB`。",
         "huxin_deploy", "09-15 10:30:00", "09-18 14:40:22", "huxin_deploy",
         comments=[("09-16 09:20:30", "songlei_mf", "1.2 分支 host_shm 协议下不应设置 ock.mmc.local_service.max.dram.size=50GB，它与 local_service.dram.size=20GB 叠加后超限，去掉该项即可。"),
                   ("09-18 14:40:10", "huxin_deploy", "去掉后推理不再报错，已解决，关闭。")],
         evidence=["answer"], timing="no_fix", kb=[], theme="small-repo-sharp-root-causes"),
    Case(F, 485, "offload shared 模式不支持 A3 跨机", "A3 超节点内两台机器（同一 super pod），offload shared 模式只能单机用，跨机 put 直接失败：\n```\n[mmc][ERROR] SharedPool::Init topology A3_SUPERPOD cross node unsupported\n[mmc][ERROR] put key kv_1_0_88 failed, ret=-95\n```\n"
         "配置：`ock.mmc.offload.mode=shared`，`ock.mmc.local_service.dram.size=64GB`，memfabric_hybrid 1.3 分支，CANN 9.0.0。\n\n希望 shared 模式支持超节点内跨机共享 host 池，减少每机重复缓存。",
         "huxin_deploy", "09-08 15:40:10", "09-20 14:17:23", "songlei_mf", issue_type="需求",
         comments=[('09-09 10:20:15', 'songlei_mf', 'A3 超节点内跨机可以走 UB 传输，shared 模式目前只实现了单机 host 池，排期补齐。')],
         prs=[PR1322], fix=[(F, 1322, "fix")], evidence=["auto_close", "linked"], timing="same_second",
         kb=["docs/Ascend/memfabric_hybrid/docs/zh/features/offload_shared_mode.md"], theme="small-repo-sharp-root-causes"),
]

# Motor #647 stays open: it is what the successor PR 1008 fixes.
OPEN_CASES = [
    Case(M, 647, "多级池淘汰后 cpu_blocks 统计未回收", "长稳 12h 后 cpu_blocks 持续增长，超过池容量。", "wangrui_infer", "09-17 16:20:40", "", "",
         comments=[("09-19 11:42:00", "tianhao_motor", "PR 1008 修复中。")], prs=[PR1008], funnel="window", timing="no_fix",
         theme="small-repo-sharp-root-causes"),
]

EXTRA_PRS = [PR136]
