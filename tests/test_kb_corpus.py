"""A small mixed Chinese/English corpus (docs and code of three repos) for the kb tests, and the
checks that depend only on its shape (chunking, ids). `write_corpus(root)` lays it out as a world's
``docs/<owner>/<repo>/<path>`` folder."""

from __future__ import annotations

from pathlib import Path

from fixlore.retrieval.chunking import chunk_document, file_format

CORPUS: dict[str, str] = {
    "Ascend/msmodeling/docs/moe.md": """# MoE 路由与专家并行

本文介绍 TensorCast 中 MoE 模型的路由（routing）建模方式。

## 路由计算

route() 根据门控 logits 计算每个 token 的 topk 专家。开启 shared-expert-tp 时，hidden 维度按 TP 切分为 N/tp，
路由必须在 token 切片之后进行，否则 topk 的数量仍是 N×k，init_routing_v2 会按 numel 驱动 all_to_all，
分发通信量被高估 tp 倍。

## all_to_all 通信量估算

all_to_all 的数据量等于路由后 token 数乘以 hidden size。仿真器用 numel 估算通信时间，
因此路由与切片不对齐会让通信量整体膨胀。

## 已知限制

raw-logits 分支不经过门控，不受上述问题影响。
""",
    "Ascend/msmodeling/docs/optix_config.md": """# OptiX 配置说明

OptiX 通过 config.toml 单一入口描述 vLLM 启动参数与寻优空间。

## 参数注入位置

- run：写入 vLLM 启动命令行参数，例如 MAX_NUM_BATCHED_TOKENS。
- env：写入子进程环境变量，使用 [vllm.env] 块。
- BackendConfig.*：写入 MindIE 配置文件路径。

混用注入位置会导致环境变量被当作命令行参数传入。

## DP/TP 组合寻优

DP 使用 enum 枚举，TP 使用 factories 按 8/DP 派生，只产生 (1,8)(2,4)(4,2) 三组组合。
""",
    "Ascend/msmodeling/scripts/stop_vllm_process.sh": """#!/bin/bash
# Stop every vLLM process started by the benchmark.

protected_pids() {
    # the script itself and its parent shell must never be killed
    echo "$$ $PPID"
}

stop_vllm() {
    local pattern="$1"
    for pid in $(pgrep -f "$pattern"); do
        if ! echo "$(protected_pids)" | grep -qw "$pid"; then
            kill -9 "$pid"
        fi
    done
}

stop_vllm "${1:-vllm}"
""",
    "Ascend/mind-cluster/docs/npu_exporter.md": """# NPU Exporter 部署与指标

NPU Exporter 以 DaemonSet 方式部署，向 Prometheus 暴露 NPU 指标。

## node_base_info 指标

node_base_info 指标描述节点基础信息，包含 dcmiVersion 标签（驱动版本），
数据来自 dcmi_get_driver_version 接口，可用于按 HDK 版本筛选节点。

## network 指标组

network_bandwidth 采集带宽类指标，默认周期 60s；network_link 采集链路状态、速率与 UP 数，默认周期 600s。

## 利用率指标

NPU 利用率的定义由 HDK 版本决定：25.3.RC1 起按 RTS 调度任务时间占比统计。
""",
    "Ascend/mind-cluster/docs/faq.md": """# 常见问题

## Pod 一直 Pending：NodeAffinity predicates failed

报错 node(s) didn't match Pod's node affinity/selector 表示节点标签与任务要求不匹配。
MindCluster 默认标签使用中横线，不能使用下划线，请在 Init 配置文件中改正标签名后重新调度。

## 容器内 hccl_rootinfo.json 无法修改

ascend-docker-runtime 出于安全考虑以只读方式挂载默认文件。请在宿主机修改文件后同步进容器；
单文件挂载受 inode 限制，使用 vim 时需要在 ~/.vimrc 中设置 set backupcopy=yes。
""",
    "Ascend/mind-cluster/component/ascend-docker-runtime/mount.go": """package mount

import "os"

// DefaultMounts lists the files mounted read-only into every container.
var DefaultMounts = []string{
	"/usr/local/Ascend/driver/version.info",
	"/etc/hccl_rootinfo.json",
}

// MountReadOnly bind-mounts a host file into the container without write access.
func MountReadOnly(src, dst string) error {
	if _, err := os.Stat(src); err != nil {
		return err
	}
	return bindMount(src, dst, true)
}

func bindMount(src, dst string, readOnly bool) error {
	return nil
}
""",
    "Ascend/memfabric_hybrid/docs/ha.rst": """High availability
=================

memfabric_hybrid elects a leader through etcd.

Leader election
---------------

The leader holds a lock in etcd. Lock acquisition (timeout 2s) is decoupled from the health check,
so a slow health check no longer blocks the election. When the etcd link recovers, the old leader
steps down unconditionally (BecomeFollower is idempotent) and reports the change to the upper layer,
which avoids two leaders after a network partition.

Listener binding
----------------

AccTcpListener::Start parses its own ip:port with CreateParser; the parser is no longer cached by port,
so two nodes that share a port but not an IP bind the right address.
""",
    "Ascend/memfabric_hybrid/src/election.py": '''"""Leader election over etcd."""

import time

LOCK_TIMEOUT_S = 2.0


class Elector:
    """Campaigns for leadership and steps down when the lease is lost."""

    def __init__(self, client):
        self.client = client
        self.leader = False

    def campaign(self):
        lease = self.client.lease(ttl=10)
        self.leader = self.client.lock("leader", lease, timeout=LOCK_TIMEOUT_S)
        return self.leader


def become_follower(elector):
    """Step down without conditions; calling it twice is harmless."""
    elector.leader = False
    return True
''',
    "Ascend/msmodeling/assets/logo.png": "\x89PNG\r\n\x1a\n\x00\x00\x00binary",
}

# (query, expected document) — queries phrased the way users describe problems.
QUERIES: list[tuple[str, str]] = [
    ("开启 shared-expert-tp 后 MoE 分发通信量翻倍，topk 没有随 TP 切分",
     "docs/Ascend/msmodeling/docs/moe.md"),
    ("node_base_info 指标缺少驱动版本标签", "docs/Ascend/mind-cluster/docs/npu_exporter.md"),
    ("pod pending because NodeAffinity predicates failed, node label uses underscore",
     "docs/Ascend/mind-cluster/docs/faq.md"),
    ("two leaders after etcd link recovers, old leader does not step down",
     "docs/Ascend/memfabric_hybrid/docs/ha.rst"),
    ("OptiX 的 env 变量被当作命令行参数传入", "docs/Ascend/msmodeling/docs/optix_config.md"),
    ("stop script pkill kills itself, needs protected_pids", "docs/Ascend/msmodeling/scripts/stop_vllm_process.sh"),
]

# Questions the corpus does not answer at all.
UNRELATED: list[str] = [
    "如何在 Windows 上安装 Photoshop 插件并修改字体颜色",
    "best recipe for sourdough bread with a long cold fermentation",
]


def write_corpus(root: Path) -> Path:
    """Write CORPUS under root/docs and return that docs folder."""
    docs = root / "docs"
    for rel, text in CORPUS.items():
        path = docs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".png"):
            path.write_bytes(text.encode("latin-1"))
        else:
            path.write_text(text, encoding="utf-8")
    return docs


def test_chunk_ids_are_positional_and_stable():
    text = CORPUS["Ascend/msmodeling/docs/moe.md"]
    first = chunk_document(text, "md", "moe.md")
    again = chunk_document(text, "md", "moe.md")
    assert [c.chunk for c in first] == [f"part{i:04d}" for i in range(len(first))]
    assert first == again
    headings = [c.heading for c in first]
    assert "MoE 路由与专家并行 > 路由计算" in headings
    assert any("all_to_all 通信量估算" in h for h in headings)


def test_markdown_heading_inside_code_fence_is_not_a_heading():
    text = "# Title\n\nintro text that is long enough\n\n```bash\n# not a heading\necho hi\n```\n\n## Next\n\nmore body text here\n"
    chunks = chunk_document(text, "md")
    assert [c.heading for c in chunks] == ["Title", "Title > Next"]
    assert "# not a heading" in chunks[0].text


def test_rst_sections_follow_adornment_levels():
    chunks = chunk_document(CORPUS["Ascend/memfabric_hybrid/docs/ha.rst"], "rst")
    assert [c.heading for c in chunks] == ["High availability", "High availability > Leader election",
                                           "High availability > Listener binding"]


def test_code_is_cut_at_top_level_definitions():
    chunks = chunk_document(CORPUS["Ascend/memfabric_hybrid/src/election.py"], "py", "src/election.py",
                            max_chars=300)
    headings = [c.heading for c in chunks]
    assert any(h.endswith("class Elector") for h in headings)
    assert any(h.endswith("def become_follower(elector)") for h in headings)
    go = chunk_document(CORPUS["Ascend/mind-cluster/component/ascend-docker-runtime/mount.go"], "go", "mount.go",
                        max_chars=200)
    assert any("func MountReadOnly" in c.heading for c in go)


def test_long_sections_are_capped_with_overlap():
    para = "。".join(f"第{i}句说明路由与切片必须对齐否则通信量膨胀" for i in range(80)) + "。"
    chunks = chunk_document("# 长文\n\n" + para, "md", max_chars=400, overlap=60)
    assert len(chunks) > 3
    assert all(len(c.text) <= 400 for c in chunks)
    # consecutive passages share a little text
    assert chunks[1].text[:10] in chunks[0].text


def test_file_formats():
    assert file_format("a/b/README.md") == "md"
    assert file_format("x.rst") == "rst"
    assert file_format("k.cc") == "c"
    assert file_format("main.go") == "go"
    assert file_format("deploy.yaml") == "yaml"
    assert file_format("logo.png") is None


def test_a_long_python_class_is_cut_at_its_methods():
    methods = "\n".join(f"    def method_{i}(self):\n        \"\"\"Step {i} of the pipeline.\"\"\"\n"
                        + "\n".join(f"        value_{j} = self.compute({i}, {j})" for j in range(12)) + "\n"
                        for i in range(6))
    text = "import os\n\n\nclass Pipeline:\n    \"\"\"Runs the steps.\"\"\"\n\n    @property\n" + methods
    chunks = chunk_document(text, "py", "src/pipe.py")
    headings = [c.heading for c in chunks]
    assert "pipe.py > class Pipeline > def method_0(self)" in headings
    assert "pipe.py > class Pipeline > def method_5(self)" in headings
    first = next(c for c in chunks if c.heading.endswith("def method_0(self)"))
    assert first.text.startswith("    @property")
    small = chunk_document("class Small:\n    def a(self):\n        return 1\n", "py", "s.py")
    assert [c.heading for c in small] == ["s.py > class Small"]
