"""Ascend/mind-cluster: scheduling, container mounts, NPU observability and diagnosis (13 kept, 1 dropped)."""
from .spec import PR, Case

R = "Ascend/mind-cluster"


def _pr(number, title, body, author, branch, created, merged, links, files, commits, merger="zhangwei_mc", **kw):
    return PR(R, number, title, body, author, branch, created, merged=merged, merger=merger, links=links,
              files=files, commits=commits, **kw)


PR4656 = _pr(4656, "【device-plugin】仅共享设备场景补充 volcanoType 参数校验",
    "【修改说明】仅共享设备场景下补充 volcanoType 参数校验逻辑，并同步更新 Volcano 参数资料。\n【自检】main.go 修改，无 UT/ST 需求。",
    "yuanfei_dp", "dev_share_volcano_check", "09-12 11:02:40", "09-15 16:20:05", [1143],
    [("component/ascend-device-plugin/main.go",
      "@@ -212,6 +212,12 @@ func checkParam() bool {\n+	if *shareDevCount > 1 && *volcanoType {\n"
      "+		hwlog.RunLog.Error(\"volcanoType can not be true when shareDevCount > 1 (share device only)\")\n+		return false\n+	}\n")],
    ["add volcanoType check for share device scenario"])

PR4649 = _pr(4649, "【npu-exporter】node_base_info 指标新增 dcmiVersion 标签",
    "新增 dcmi_get_driver_version 接口封装，node_base_info 指标增加 dcmiVersion 标签，便于按 HDK 版本筛选节点。设计见 RFC 26.1.0《NPUExporter新增node_base_info指标》。",
    "qiumeng_exp", "dev_node_base_info_driver", "09-08 15:30:22", "09-14 11:40:18", [1146],
    [("component/npu-exporter/collector/node_base_info.go",
      "@@ -41,7 +41,9 @@ func (c *nodeBaseInfoCollector) Collect(ch chan<- prometheus.Metric) {\n-	labels := []string{nodeName, chipType}\n"
      "+	driverVersion, err := c.dmgr.GetDriverVersion()\n+	if err != nil {\n+		hwlog.RunLog.Warnf(\"get driver version failed: %v\", err)\n+	}\n"
      "+	labels := []string{nodeName, chipType, driverVersion}\n"),
     ("component/common/devmanager/dcmi/dcmi.go",
      "@@ -0,0 +1,8 @@\n+// DcGetDriverVersion wraps dcmi_get_driver_version\n+func (d *DcManager) DcGetDriverVersion() (string, error) {\n"
      "+	var buf [dcmiVersionLen]C.char\n+	if ret := C.dcmi_get_driver_version(&buf[0], dcmiVersionLen); ret != 0 {\n"
      "+		return \"\", fmt.Errorf(\"dcmi_get_driver_version failed, ret=%d\", ret)\n+	}\n+	return C.GoString(&buf[0]), nil\n+}\n")],
    ["add dcmi_get_driver_version and dcmiVersion label"])

PR4683 = _pr(4683, "【A5】建链信息提取适配 hccl 新日志关键字",
    "hccl 建链日志关键字改为 DetectRankTableImpl，原解析失效。提取逻辑适配新关键字（保留旧关键字兼容），checker 检查逻辑同步调整。",
    "pengcheng_fd", "a5_hccl_keyword", "09-16 20:12:09", "09-19 17:20:44", [1162],
    [("component/ascend-fd/parser/hccl_link.py",
      "@@ -18,7 +18,10 @@\n-LINK_KEYWORD = \"RankInfoDetect\"\n+LINK_KEYWORDS = (\"DetectRankTableImpl\", \"RankInfoDetect\")\n"
      "@@ -55,5 +58,5 @@ def extract_link_info(line):\n-    if LINK_KEYWORD not in line:\n+    if not any(k in line for k in LINK_KEYWORDS):\n         return None\n")],
    ["adapt link info extraction to DetectRankTableImpl"])

PR4685 = _pr(4685, "【npu-exporter】network 指标组拆分为 network_bandwidth / network_link",
    "network 拆为 network_bandwidth（带宽类，默认 60s）与 network_link（链路状态/速率/UP 数，默认 600s）；optical 默认周期 60s→600s；旧 network 采集器暂留兼容（指标相同，不建议同时开启以免重复采集）。",
    "qiumeng_exp", "dev_split_network_group", "09-11 10:05:31", "09-16 19:02:30", [1166],
    [("component/npu-exporter/config/metrics_group.yaml",
      "@@ -12,9 +12,15 @@\n-network:\n-  enable: true\n-  interval: 60s\n+network:            # deprecated, same metrics as the two groups below\n+  enable: false\n+  interval: 60s\n"
      "+network_bandwidth:\n+  enable: true\n+  interval: 60s\n+network_link:\n+  enable: true\n+  interval: 600s\n optical:\n   enable: true\n-  interval: 60s\n+  interval: 600s\n")],
    ["split network metrics group", "optical default interval 600s"])

PR4691 = _pr(4691, "【26.2.0】删除 hccl_rootinfo.json 默认挂载，改由 CANN 自协商创建通信域",
    "rootinfo 配置 RoCE 网络层级但未挂载 UB 网卡字符文件时，不使用 DPU 的训练也会拉起失败。26.2.0 起删除默认挂载逻辑，通信域由 CANN 自协商机制创建。UB 网卡设备建议 MindCluster ≥ 26.2.0 且 CANN ≥ 9.2.0。",
    "hujianrong", "dev_remove_rootinfo_mount", "09-15 09:40:00", "09-18 20:31:50", [1167],
    [("component/ascend-docker-runtime/install/mount_list.conf", "@@ -9,4 +9,3 @@\n /usr/local/Ascend/driver/lib64\n /usr/local/dcmi\n-/etc/hccl_rootinfo.json\n"),
     ("component/ascend-docker-runtime/runtime/mount.go", "@@ -88,9 +88,6 @@ func defaultMounts() []mount {\n-		{src: \"/etc/hccl_rootinfo.json\", dst: \"/etc/hccl_rootinfo.json\", readonly: true},\n")],
    ["remove default hccl_rootinfo.json mount"])

PR4694 = _pr(4694, "【ascend-fd-tk】交换机 ssh 认证阶段超时放宽至 30s",
    "交换机等嵌入式设备认证响应慢：协议/认证阶段超时放宽至 30s（TCP 建连仍走 10s 快阶段）；密码/密钥登录默认关闭 paramiko 额外尝试（不再试探本机 ~/.ssh 密钥与 SSH agent）。",
    "pengcheng_fd", "dev_switch_ssh_timeout", "09-17 14:30:18", "09-19 10:15:27", [1172],
    [("component/ascend-fd-tk/fetcher/ssh_client.py",
      "@@ -30,8 +30,12 @@ class SshClient:\n         self.client.connect(\n             host, port=port, username=user, password=password,\n-            timeout=10)\n"
      "+            timeout=10,            # TCP connect stays fast\n+            banner_timeout=30,\n+            auth_timeout=30,\n+            look_for_keys=False,\n+            allow_agent=False)\n")],
    ["relax ssh auth timeout for switches", "do not try local keys or agent"])

PR4698 = _pr(4698, "【clusterops-agent】CM 上限 1M 调整为 100M，缓存改为执行即缓存",
    "CM 大小限制由 1M 改为 100M（即 100 个 CM 分片）；缓存方案改为执行即缓存，不再需要任务 get 权限；修正文档中不正确的描述，新增 NFS 挂载案例。",
    "wuqiang_ops", "dev_cm_limit_100m", "09-15 16:44:40", "09-18 17:37:03", [1174],
    [("component/clusterops-agent/pkg/cache/cm_store.go",
      "@@ -15,7 +15,8 @@\n-const maxCMBytes = 1 << 20\n+// 100 shards of 1MiB each; relcache and pathmap live in memory and may exceed one CM\n+const maxCMShards = 100\n")],
    ["raise CM limit to 100 shards", "cache on execution"])

PR4719 = _pr(4719, "【node-collector】plog 采集严格限定 taskid",
    "采集时对 taskid 严格限制：无 taskid 不采集；目录名无 taskid（uuid 类字段）时按 ip 匹配；ip 与 taskid 均无则退化为按关键字匹配目录，避免误采多任务数据。",
    "wuqiang_ops", "dev_plog_taskid_filter", "09-19 09:20:11", "09-20 10:59:56", [1184],
    [("component/node-collector/collect/plog.py",
      "@@ -42,6 +42,16 @@ def match_dirs(root, task):\n+    if not task.task_id:\n+        return []\n+    dirs = [d for d in os.listdir(root) if task.task_id in d]\n"
      "+    if not dirs and task.ip:\n+        dirs = [d for d in os.listdir(root) if task.ip in d]\n+    if not dirs:\n+        dirs = [d for d in os.listdir(root) if task.keyword and task.keyword in d]\n+    return dirs\n")],
    ["restrict plog collection to task id, ip, keyword"])

PR4718 = _pr(4718, "【ascend-fd-tk】python 版本兼容性修改",
    "类型注解由 3.10 的 `X | Y` 写法改回 `typing.Union`，支持 Python 3.8 及以上。",
    "pengcheng_fd", "dev_py38_compat", "09-19 15:02:26", "09-20 11:30:28", [1185],
    [("component/ascend-fd-tk/fetcher/factory.py",
      "@@ -1,9 +1,10 @@\n+from typing import Optional, Union\n-def create_fetcher(kind: str) -> SwitchFetcher | PoDManagerFetcher:\n+def create_fetcher(kind: str) -> Union[SwitchFetcher, PoDManagerFetcher]:\n"
      "-def parse_port(s: str) -> int | None:\n+def parse_port(s: str) -> Optional[int]:\n")],
    ["use typing.Union for py3.8+"])

PR4716 = _pr(4716, "【ascend-fd】检测结果解析重构", "重构检测结果解析流程，拆分 parser 与 reporter。",
    "pengcheng_fd", "dev_fd_parser_refactor", "09-13 10:10:10", "09-17 19:40:15", [],
    [("component/ascend-fd/parser/__init__.py", "@@ -1,3 +1,4 @@\n from .hccl_link import extract_link_info\n+from .reporter import Reporter\n")],
    ["refactor: split parser and reporter"])


CASES = [
    Case(R, 1143, "device-plugin 仅共享设备场景缺少 volcanoType 校验，资料也没写",
         "共享设备（shareDevCount>1）场景下同时配置了 `-volcanoType=true`，device-plugin 正常启动，但 volcano 调度的任务一直 pending。资料里没说这两个参数互斥。",
         "tangbo_k8s", "09-11 17:20:40", "09-18 16:09:21", "lihuan_mc", labels=["bug"],
         comments=[("09-12 09:40:33", "yuanfei_dp", "共享设备场景不支持 volcanoType，这里缺参数校验，资料也需要补。")],
         prs=[PR4656], fix=[(R, 4656, "fix")], evidence=["linked"], timing="later", traps=["close_storm"],
         kb=["docs/Ascend/mind-cluster/docs/zh/06_api/01_volcano.md"], theme="mc-scheduling-mount"),

    Case(R, 1146, "node_base_info 指标缺少驱动版本标签，无法按 HDK 版本区分节点",
         "集群里混布了 24.1 和 25.3 两代 HDK，想在 Prometheus 里按驱动版本过滤节点，但 `node_base_info` 只有 node/chip 两个标签。能否加上驱动版本？",
         "renjie_ops", "09-05 10:12:50", "09-17 10:30:04", "lihuan_mc", issue_type="需求",
         comments=[("09-08 15:32:10", "qiumeng_exp", "已按 RFC 26.1.0 实现，新增 dcmiVersion 标签，见 !4649。")],
         prs=[PR4649], fix=[(R, 4649, "fix")], evidence=["linked", "comment"], timing="later",
         kb=["docs/Ascend/mind-cluster/docs/rfc/26.1.0/NPUExporter新增node_base_info指标.md",
             "docs/Ascend/mind-cluster/docs/zh/03_deployment/npu_exporter.md"], theme="mc-observability"),

    Case(R, 1153, "server 节点 unexpectedAdmissionError 后 pod 一直 pending 无法调度",
         "8 卡训练任务下发后，kubelet 先报 UnexpectedAdmissionError，删除 Pod 重建后一直 Pending：\n```\nWarning  UnexpectedAdmissionError  kubelet  Allocate failed due to ...\nWarning  FailedScheduling  volcano  pod group is not ready, 1 Pending, 1 minAvailable; "
         "Pending: 1 Unschedulable\n  0/4 nodes are unavailable: 4 plugin NodeAffinity predicates failed node(s) didn't match Pod's node affinity/selector.\n```\n节点 NPU 都是空闲的，`kubectl describe node` 看 huawei.com/Ascend910 可分配 8。\n\n环境：MindCluster 26.1.0，K8s 1.28，volcano 1.9，Atlas 800T A2。",
         "majun_train", "09-16 15:02:20", "09-18 16:10:40", "lihuan_mc",
         comments=[("09-16 18:30:05", "majun_train", "自己查到了：节点标签写成了 host_arch=huawei_arm，MindCluster 默认标签用中横线（host-arch=huawei-arm），不能用下划线。在 Init 配置文件里改正标签后任务正常调度。"),
                   ("09-17 09:10:12", "shepherd-cheung", "是的。volcano 的 NodeAffinity 按任务 nodeSelector 与节点标签做精确匹配，MindCluster 的默认标签（host-arch、accelerator-type 等）键和值都用中横线；Init 配置文件里写成下划线后打出的标签与任务不匹配，调度器就会一直报 predicates failed。UnexpectedAdmissionError 是之前设备分配失败留下的，删除 Pod 重新下发即可。")],
         evidence=["answer"], timing="no_fix", traps=["close_storm"],
         kb=["docs/Ascend/mind-cluster/docs/zh/08_faq/scheduling_faq.md"], theme="mc-scheduling-mount"),

    Case(R, 1155, "用 sample yaml 下发 a3 单机任务报 replicaSpec is not valid",
         "用 `mindspore_standalone_acjob.yaml` 下发 a3 单机 16 卡任务：\n```\nError: replicaSpec is not valid: when scheduler not found, the req num must be 1\n```",
         "kongxin_ms", "09-15 20:10:11", "09-18 16:11:58", "lihuan_mc", issue_type="咨询",
         comments=[("09-16 10:02:45", "shepherd-cheung", "报错的意思是 standalone 示例只支持请求 1 张 NPU。卡数不是 1 时请改用 `mindspore_multinodes_acjob_super_pod.yaml`，worker replicas 设 1，request NPU 设实际卡数。"),
                   ("09-16 14:20:31", "kongxin_ms", "换 super_pod yaml 后可以了。")],
         evidence=["answer"], timing="no_fix", traps=["close_storm"],
         kb=["docs/Ascend/mind-cluster/docs/zh/04_usage/acjob_samples.md"], theme="mc-scheduling-mount"),

    Case(R, 1162, "hccl 建链日志关键字改成 DetectRankTableImpl 后建链信息解析失效",
         "A5 新版本 CANN 的 plog 里建链日志变成了：\n```\n[INFO] HCCL(1234,python):2026-09-15-10:22:31.112 [rank_info_detect.cc:412] DetectRankTableImpl: rank[3] connect to root 10.0.1.2:60000 success\n```\n"
         "ascend-fd 还在找旧关键字，诊断报告里建链信息全空。",
         "xiaohan_diag", "09-15 10:40:02", "09-19 17:20:44", "zhangwei_mc", labels=["bug"],
         comments=[('09-15 15:30:22', 'pengcheng_fd', '确认：A5 配套的 hcomm 把建链检测日志统一到 rank_info_detect 模块，关键字由 RankInfoDetect 改为 DetectRankTableImpl。解析器只认旧关键字，checker 也需要同步调整判断条件。'),
                   ('09-16 09:12:40', 'xiaohan_diag', '旧版本 CANN 的日志还要兼容，两种关键字都得认。')],
         prs=[PR4683], fix=[(R, 4683, "fix")], evidence=["auto_close", "linked"], timing="same_second",
         kb=["docs/cann/hcomm/src/framework/rank_info_detect/rank_info_detect.cc",
             "docs/cann/hcomm/src/framework/rank_info_detect/root_info_detect_provider.cc"], theme="mc-observability"),

    Case(R, 1165, "docker runtime 起的容器里 hccl_rootinfo.json 是只读挂载，无法修改",
         "容器里要调整 /etc/hccl_rootinfo.json：\n```\n$ vim /etc/hccl_rootinfo.json\n\"/etc/hccl_rootinfo.json\" E212: Can't open file for writing\n$ mount | grep rootinfo\n/dev/vda1 on /etc/hccl_rootinfo.json type ext4 (ro,relatime)\n```",
         "chenbo_infra", "09-16 09:30:55", "09-18 10:25:13", "hujianrong", issue_type="咨询",
         comments=[("09-17 10:12:48", "hujianrong", "ascend-docker-runtime 出于安全考虑默认以只读方式挂载默认挂载项。修改请在宿主机上改文件再同步进容器；单文件挂载受 inode 限制，用 vim 需要在 ~/.vimrc 里配置 `set backupcopy=yes` 保证原地修改，否则改完容器里看不到。"
                    "另外同主题的 #1167 会在 26.2.0 删除默认挂载。"),
                   ("09-18 10:25:05", "hujianrong", "已答复，关闭。")],
         evidence=["answer"], timing="before_merge", traps=["closed_before_merge"],
         kb=["docs/Ascend/mind-cluster/docs/zh/appendix/default_mounts.md"], theme="mc-scheduling-mount"),

    Case(R, 1166, "npu-exporter 的 network 指标组混装了带宽和链路指标，难以区分和单独设置周期",
         "network 组里既有 tx/rx 带宽又有 link_status、link_speed、link_up_num，采集周期只能一起调。链路类其实 10 分钟采一次就够。",
         "renjie_ops", "09-10 11:22:09", "09-18 16:13:05", "lihuan_mc", issue_type="需求",
         comments=[('09-11 09:40:30', 'qiumeng_exp', '合理。计划拆成 network_bandwidth（带宽类，60s）与 network_link（链路类，600s）两组，光模块 optical 默认周期也放宽到 600s；旧 network 组保留一个版本做兼容。')],
         prs=[PR4685], fix=[(R, 4685, "fix")], evidence=["linked"], timing="later", traps=["close_storm"],
         kb=["docs/Ascend/mind-cluster/docs/zh/05_observability/npu_exporter_metrics.md"], theme="mc-observability"),

    Case(R, 1167, "26.1.0 之前默认挂载 hccl_rootinfo.json，UB 场景训练拉起失败",
         "UB 组网环境，不用 DPU 的训练任务也拉不起来：\n```\n[ERROR] HCCL: rootinfo network level RoCE, but UB device /dev/ubcore0 not found in container\n```\n"
         "默认挂载进来的 rootinfo 配的是 RoCE 层级，但容器里没有 UB 网卡字符文件。",
         "hujianrong", "09-14 16:02:37", "09-18 20:31:50", "zhangwei_mc", issue_type="需求",
         comments=[('09-15 09:20:18', 'zhangwei_mc', '评估结论：26.2.0 删除 rootinfo 默认挂载，通信域改由 CANN 自协商创建；UB 网卡设备需要 MindCluster ≥ 26.2.0 且 CANN ≥ 9.2.0。')],
         prs=[PR4691], fix=[(R, 4691, "fix")], evidence=["auto_close", "linked"], timing="same_second",
         kb=["docs/Ascend/mind-cluster/docs/zh/appendix/default_mounts.md"], theme="mc-scheduling-mount"),

    Case(R, 1172, "ascend-fd-tk 扫描时部分交换机 ssh 登录超时，本地 ssh 可正常连",
         "```\nparamiko.ssh_exception.SSHException: Error reading SSH protocol banner\n[WARN] switch 10.8.0.21 login timeout after 10s\n```\n手工 `ssh admin@10.8.0.21` 大约 12 秒后才出密码提示，但能登录。",
         "luoyi_net", "09-17 11:05:40", "09-19 10:15:27", "zhangwei_mc", labels=["bug"],
         comments=[('09-17 14:10:05', 'pengcheng_fd', '交换机这类嵌入式设备认证响应慢，10s 对整个连接过程太短；另外 paramiko 默认会先试本机 ~/.ssh 下的密钥和 SSH agent，失败几次后交换机会拖慢甚至拒绝。认证阶段放宽到 30s，并且只走工具配置的认证方式。'),
                   ('09-17 15:01:33', 'luoyi_net', '本机 ~/.ssh 下确实有三把 key。')],
         prs=[PR4694], fix=[(R, 4694, "fix")], evidence=["auto_close", "linked"], timing="same_second",
         kb=[], theme="mc-observability"),

    Case(R, 1174, "clusterops-agent 的 CM 上限 1M，与内存中 relcache/pathmap 大小不一致",
         "大集群下 relcache + pathmap 超过 1M，写 ConfigMap 报 `ConfigMap \"clusterops-cache\" is invalid: []: Too long: must have at most 1048576 bytes`，agent 重启后缓存丢失。",
         "wuqiang_ops", "09-15 14:20:33", "09-18 17:37:03", "zhangwei_mc", labels=["bug"],
         comments=[('09-15 16:30:12', 'zhangwei_mc', '1M 是单个 ConfigMap 的上限（etcd 限制），relcache/pathmap 是内存结构，大集群下远超 1M。改为最多 100 个 CM 分片，同时缓存改成执行即缓存，去掉对任务 get 权限的依赖。文档里关于上限的描述也要改。')],
         prs=[PR4698], fix=[(R, 4698, "fix")], evidence=["auto_close", "linked"], timing="same_second",
         kb=["docs/Ascend/mind-cluster/docs/zh/07_clusterops/clusterops_agent.md"], theme="mc-observability"),

    Case(R, 1175, "npu-exporter 利用率指标在不同 HDK 版本下含义不一，跨集群对比容易误判",
         "同一个模型在两个集群上 npu_chip_info_utilization 一个 90% 一个 60%，查下来两个集群 HDK 版本不同。请问利用率的定义在各版本是什么？",
         "renjie_ops", "09-12 16:40:02", "09-18 16:14:30", "lihuan_mc", issue_type="咨询",
         comments=[("09-15 11:30:19", "qiumeng_exp", "利用率定义由 HDK 决定：24.1.RC2.7 之前只有 dcmi_get_device_utilization_rate 单指标查询；25.3.RC1 起 NPU 整体利用率改为按 RTS 调度任务时间占比；"
                    "26.0.RC1 新增 multi_utilization_rate 四指标同查（仅 A5）。另外 1s 平均与 host 缓存受 A2/A3/A5 形态限制。跨集群对比请先对齐 HDK 版本。")],
         evidence=["answer"], timing="no_fix", traps=["close_storm"],
         kb=["docs/Ascend/mind-cluster/docs/zh/05_observability/npu_exporter_metrics.md"], theme="mc-observability"),

    Case(R, 1184, "ClusterOps 采集 plog 时把多个 taskid 目录的数据一并采集",
         "同一节点跑过多个任务，采集 task A 的 plog 时把 task B、C 的目录也打包进来了，诊断结论被干扰。",
         "xiaohan_diag", "09-18 19:30:27", "09-20 10:59:56", "zhangwei_mc", labels=["bug"],
         comments=[('09-19 09:05:40', 'wuqiang_ops', 'node-collector 目前按目录前缀匹配，同节点多个任务的目录都会命中。改为严格按 taskid 匹配；目录名没有 taskid（uuid 命名）时按 ip 匹配，两者都没有再退化为关键字匹配。'),
                   ('09-19 10:30:18', 'xiaohan_diag', '没有 taskid 的采集请求直接不采？'),
                   ('09-19 10:41:02', 'wuqiang_ops', '是的，宁可不采也不误采。')],
         prs=[PR4719], fix=[(R, 4719, "fix")], evidence=["auto_close", "linked"], timing="same_second",
         kb=["docs/Ascend/mind-cluster/docs/zh/07_clusterops/node_collector.md"], theme="mc-observability"),

    Case(R, 1185, "ascend-fd-tk 使用了 Python 3.10 才有的语法，3.9 下运行报错",
         "```\n  File \"ascend_fd_tk/fetcher/factory.py\", line 3\n    def create_fetcher(kind: str) -> SwitchFetcher | PoDManagerFetcher:\nTypeError: unsupported operand type(s) for |: 'type' and 'type'\n```\nPython 3.9.9，EulerOS。",
         "luoyi_net", "09-19 14:10:45", "09-20 11:30:28", "zhangwei_mc", labels=["bug"],
         comments=[('09-19 14:40:20', 'pengcheng_fd', '`X | Y` 注解是 3.10 语法，在 3.9 上定义函数时就会求值报错。改回 typing.Union/Optional，工具最低支持 3.8。')],
         prs=[PR4718], fix=[(R, 4718, "fix")], evidence=["auto_close", "linked"], timing="same_second",
         kb=[], theme="mc-observability"),

    # dropped
    Case(R, 1183, "ascend-fd 检测结果解析几处问题汇总（PR 4716）",
         "以下问题在阅读 `component/ascend-fd/parser` 时发现：\n1. `reporter.py` 第 88 行异常分支只打印了异常类型，没有打印原始日志行，定位困难：\n```python\nexcept ValueError as e:\n    logger.warning(\"parse failed: %s\", type(e))\n```\n"
         "2. parser 拆分后 `__init__.py` 的 `__all__` 未更新，`from ascend_fd.parser import Reporter` 报 ImportError\n3. 单测缺少空日志文件用例\n4. 魔鬼数字 4096 建议改为常量 `MAX_LINE_LEN`",
         "zhengli_review", "09-17 15:20:44", "09-18 11:40:20", "pengcheng_fd",
         comments=[("09-17 16:02:10", "pengcheng_fd", "1、2、4 在 PR 4716 里一起改，空日志用例补到 tests/parser。"),
                   ("09-18 11:40:12", "pengcheng_fd", "已在 PR 4716 后续提交中修改，关闭。")],
         prs=[PR4716], funnel="analysis", drop_reason="internal_process",
         fix=[(R, 4716, "fix")], evidence=["comment"], timing="later", theme="mc-observability"),

]

EXTRA_PRS = []
