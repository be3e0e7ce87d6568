"""The docs/ corpus: the target documents plus neighbouring distractors, release notes, FAQs and source files."""
from __future__ import annotations

import random

from .docs_targets import TARGETS
from .docs_topics import FAQ_BANK, TOPICS

CONSTRAINTS = [
    "该功能需与配套的 CANN 与驱动版本一起使用，版本配套关系见版本说明。",
    "多机场景下各节点的配置必须保持一致，否则结果不可比。",
    "开启后会增加约 5%~10% 的 host 内存占用。",
    "当前版本不支持与虚拟化场景同时使用。",
    "修改配置后需重启对应组件生效。",
    "不建议在生产环境开启 debug 级别日志。",
    "A5 形态的支持情况以版本说明为准。",
    "该参数为试验特性，后续版本可能调整。",
]


def render_topic(r, repo, path, title, mech, params, example, siblings):
    parts = [f"# {title}", "", "## 概述", "", mech, ""]
    if params:
        parts += ["## 参数说明", "", "| 参数 | 默认值 | 说明 |", "|---|---|---|"]
        parts += [f"| {p} | {d} | {m} |" for p, d, m in params]
        parts.append("")
    if example:
        parts += ["## 使用示例", "", "```bash", example, "```", ""]
    parts += ["## 约束与限制", ""]
    parts += [f"- {c}" for c in r.sample(CONSTRAINTS, r.randint(1, 3))]
    parts.append("")
    if siblings:
        parts += ["## 相关文档", ""]
        parts += [f"- [{t}]({p.split('/')[-1]})" for p, t in siblings]
        parts.append("")
    return "\n".join(parts)


def render_faq(r, repo, bank):
    parts = [f"# {repo.split('/')[1]} 常见问题", ""]
    for i, (q, a) in enumerate(bank * 3):
        if i >= 18:
            break
        parts += [f"## Q{i + 1}: {q}", "", a if i < len(bank) else f"{a}（补充：请同时附上版本信息与完整日志以便定位。）", ""]
    return "\n".join(parts)


def render_release(r, repo, ver, topics, rst=False):
    items = r.sample(topics, min(len(topics), r.randint(4, 7)))
    if rst:
        lines = [f"{ver} 版本说明", "=" * (len(ver) * 2 + 8), "", "新增特性", "--------", ""]
        lines += [f"* {t[1]}：{t[2].split('。')[0]}。" for t in items[:3]]
        lines += ["", "问题修复", "--------", ""]
        lines += [f"* 修复 {t[1]} 相关问题。" for t in items[3:]]
        lines += ["", "已知问题", "--------", "", "* 部分场景下日志级别设置不生效。", ""]
        return "\n".join(lines)
    lines = [f"# {ver} 版本说明", "", "## 新增特性", ""]
    lines += [f"- {t[1]}：{t[2].split('。')[0]}。" for t in items[:3]]
    lines += ["", "## 问题修复", ""]
    lines += [f"- 修复 {t[1]} 相关问题。" for t in items[3:]]
    lines += ["", "## 已知问题", "", f"- {r.choice(CONSTRAINTS)}", "", "## 配套版本", "",
              f"- CANN {r.choice(['8.5.0', '9.0.0', '9.1.0', '9.2.0'])}", f"- 驱动固件 {r.choice(['25.3.RC1', '25.5.0', '26.0.RC1'])}", ""]
    return "\n".join(lines)


HCOMM_SRC = [
    ("src/framework/transport/transport_roce.cc", "TransportRoce", "RoCE link: QP creation, memory registration and send/recv over verbs."),
    ("src/framework/transport/transport_hccs.cc", "TransportHccs", "HCCS link inside one server: peer memory mapping and notify records."),
    ("src/framework/transport/transport_ub.cc", "TransportUb", "UB link on super pods: jetty creation and segment import."),
    ("src/framework/rank_table/rank_table_parser.cc", "RankTableParser", "Parses rank table json (version 1.0 and 2.0) into RankTable_t."),
    ("src/framework/socket/hccl_socket.cc", "HcclSocket", "Non-blocking TCP socket with connect retry and timeout."),
    ("src/framework/notify/notify_pool.cc", "NotifyPool", "Pool of device notify objects shared by communicators."),
    ("src/framework/communicator/comm_config.cc", "CommConfig", "Reads HCCL_CONNECT_TIMEOUT, HCCL_EXEC_TIMEOUT and buffer size settings."),
    ("src/framework/topo/topo_detect.cc", "TopoDetect", "Detects server and super pod topology from device info."),
    ("src/framework/memory/mem_register.cc", "MemRegister", "Registers user buffers for zero-copy transports."),
    ("src/framework/heartbeat/heartbeat.cc", "Heartbeat", "Peer liveness detection between ranks after link establishment."),
]

GO_SRC = [
    ("component/ascend-device-plugin/pkg/server/plugin.go", "PluginServer", "ListAndWatch and Allocate of the kubelet device plugin API."),
    ("component/ascend-device-plugin/pkg/device/share.go", "ShareDevice", "share device mode: one chip exposed as shareDevCount devices."),
    ("component/npu-exporter/collector/network.go", "networkCollector", "legacy network group kept for compatibility."),
    ("component/npu-exporter/collector/utilization.go", "utilizationCollector", "NPU utilization by HDK capability."),
    ("component/ascend-docker-runtime/runtime/main.go", "runtime", "OCI hook that injects devices and default mounts."),
    ("component/noded/pkg/reporter/reporter.go", "Reporter", "writes node fault info into the node ConfigMap."),
    ("component/clusterops-agent/pkg/cache/relcache.go", "RelCache", "in-memory relation cache persisted to ConfigMap shards."),
    ("component/ascend-operator/pkg/controller/ranktable.go", "RankTableGenerator", "generates rank table for AscendJob pods."),
]

PY_SRC = {
    "Ascend/msmodeling": [
        ("tensor_cast/layers/moe/dispatcher.py", "MoEDispatcher", "Builds all_to_all dispatch and combine nodes from routing results."),
        ("tensor_cast/passes/fusion/quant_fusion.py", "QuantFusionPass", "Fuses grouped matmul, swiglu and mx quant into one op."),
        ("optix/backend/mindie_config.py", "MindieConfig", "Reads and writes MindIE config.json by dotted path."),
        ("optix/simulator/single_host.py", "SingleHostSimulator", "Built-in simulator; health is answered in process."),
        ("tensor_cast/compile/topo.py", "stable_topo_sort", "Stable topological sort that keeps the original order where possible."),
    ],
    "Ascend/MindSpeed-MM": [
        ("mindspeed_mm/fsdp/checkpoint/dcp_utils.py", "dcp_utils", "Helpers around torch.distributed.checkpoint save and load."),
        ("mindspeed_mm/data/packing.py", "SamplePacker", "Greedy bin packing of samples by length."),
        ("mindspeed_mm/fsdp/registry.py", "model_register", "Registry of FSDP2 model plugins."),
        ("mindspeed_mm/fsdp/lora/merge.py", "merge_lora", "Merges LoRA weights into base weights."),
    ],
}


def render_source(lang, cls, desc, r):
    if lang == "cc":
        return (f"/**\n * Copyright (c) 2025 Huawei Technologies Co., Ltd.\n * {cls}: {desc}\n */\n#include \"log.h\"\n\nnamespace hccl {{\n\n"
                f"HcclResult {cls}::Init()\n{{\n    HCCL_INFO(\"{cls} init\");\n    return HCCL_SUCCESS;\n}}\n\n"
                f"HcclResult {cls}::Run(u32 timeoutMs)\n{{\n    // {desc}\n    CHK_RET(Prepare());\n    return Execute(timeoutMs);\n}}\n\n}}  // namespace hccl\n")
    if lang == "go":
        return (f"// Copyright (c) Huawei Technologies Co., Ltd. 2025. All rights reserved.\n\n// Package implements {cls}: {desc}\npackage main\n\n"
                f"import \"ascend-common/common-utils/hwlog\"\n\n// {cls} {desc}\ntype {cls} struct {{\n\tinterval int\n}}\n\n"
                f"// Run starts {cls}\nfunc (c *{cls}) Run() error {{\n\thwlog.RunLog.Infof(\"{cls} started, interval %d\", c.interval)\n\treturn nil\n}}\n")
    return (f'"""{cls}: {desc}"""\nfrom __future__ import annotations\n\n\nclass {cls}:\n    """{desc}"""\n\n'
            f"    def __init__(self, cfg=None):\n        self.cfg = cfg or {{}}\n\n    def __call__(self, *args, **kwargs):\n"
            f"        raise NotImplementedError(\"{cls} is configured through cfg\")\n")


def populate(w):
    r = random.Random(f"{w.seed}:docs")
    docs = dict(TARGETS)
    for repo, topics in TOPICS.items():
        for i, (path, title, mech, params, example) in enumerate(topics):
            sib = [(p, t) for p, t, *_ in topics if p != path]
            siblings = r.sample(sib, min(2, len(sib)))
            key = f"docs/{repo}/{path}"
            assert key not in docs, key
            docs[key] = render_topic(r, repo, path, title, mech, params, example, siblings)
    for repo, bank in FAQ_BANK.items():
        docs[f"docs/{repo}/docs/zh/faq.md"] = render_faq(r, repo, bank)
    versions = ["26.0.0", "26.1.0", "26.2.0", "26.3.0"]
    for repo in ["Ascend/msmodeling", "Ascend/MindSpeed-MM", "Ascend/mind-cluster", "Ascend/msmodelslim",
                 "Ascend/MindIE-Motor", "Ascend/memfabric_hybrid", "Ascend/MindSpeed-Bridge"]:
        for ver in versions:
            rst = repo == "Ascend/MindSpeed-MM"
            key = f"docs/{repo}/docs/zh/release_notes/{ver}.{'rst' if rst else 'md'}"
            docs[key] = render_release(r, repo, ver, TOPICS[repo], rst=rst)
    for path, cls, desc in HCOMM_SRC:
        docs[f"docs/cann/hcomm/{path}"] = render_source("cc", cls, desc, r)
    for path, cls, desc in GO_SRC:
        docs[f"docs/Ascend/mind-cluster/{path}"] = render_source("go", cls, desc, r)
    for repo, items in PY_SRC.items():
        for path, cls, desc in items:
            docs[f"docs/{repo}/{path}"] = render_source("py", cls, desc, r)
    for repo in ["Ascend/msmodeling", "Ascend/MindSpeed-MM", "Ascend/mind-cluster", "Ascend/msmodelslim", "Ascend/MindSpeed-Bridge",
                 "Ascend/MindIE-Motor", "Ascend/memfabric_hybrid", "cann/hcomm"]:
        meta = w.repos[repo]
        docs[f"docs/{repo}/README.md"] = (f"# {meta['name']}\n\n{meta['description']}。\n\n## 目录\n\n- docs/zh：中文文档\n- docs/en：英文文档\n\n"
                                          f"## 贡献\n\n欢迎提交 issue 与 PR，提交前请阅读 CONTRIBUTING.md。\n")
    w.docs = docs
