"""Text builders for the generated issues: titles, bodies and replies that read like real tracker traffic."""
from __future__ import annotations

import re

from .vocab import HW, OS, PY, V

ENV_HEADS = ["### 环境信息", "【环境】", "**环境**", "环境：", "### Environment", "软件版本："]
LOG_HEADS = ["### 报错日志", "日志如下：", "报错信息：", "【日志】", "### Log", "完整报错："]
STEP_HEADS = ["### 复现步骤", "复现方式：", "【步骤】", "### Steps", "操作步骤："]


def env_block(r, fam):
    v = V[fam]
    lines = []
    if r.random() < 0.8:
        lines.append(f"- 硬件：{r.choice(HW)}")
    if r.random() < 0.6:
        lines.append(f"- OS：{r.choice(OS)}")
    lines.append(f"- 版本：{r.choice(v['ver'])}")
    if r.random() < 0.5:
        lines.append(f"- {r.choice(PY)}")
    if r.random() < 0.3:
        lines.append(f"- 驱动固件：{r.choice(['24.1.RC3', '25.0.RC1', '25.3.RC1', '25.5.0', '26.0.RC1'])}")
    if r.random() < 0.25:
        return "、".join(x[2:] for x in lines)
    return r.choice(ENV_HEADS) + "\n" + "\n".join(lines)


def log_block(r, fam):
    v = V[fam]
    err = r.choice(v["err"])
    pre = r.choice([
        [f"[ERROR] {r.choice(['2026-09-1', '2026-08-2', '2026-09-0'])}{r.randint(0, 9)}-{r.randint(10, 23)}:{r.randint(10, 59)}:{r.randint(10, 59)} {err}"],
        ["Traceback (most recent call last):", f'  File "{r.choice(["train.py", "run.py", "main.py", "infer.py", "test.py"])}", line {r.randint(12, 480)}, in <module>', err],
        [err],
        [f"{err}", f"[W] {r.choice(['retry 1/3', 'fallback to cpu', 'device 0 busy', 'check env failed'])}"],
    ])
    return r.choice(LOG_HEADS) + "\n```\n" + "\n".join(pre) + "\n```"


def tidy(title):
    """Chinese titles do not put a space between two Han characters."""
    return re.sub(r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])", "", title)


def join(*parts):
    return "\n\n".join(p for p in parts if p)


# ----------------------------------------------------------------------------- rank pool (thin but genuine)
def usage_question(r, fam, repo_path):
    v = V[fam]
    comp, comp2, model = r.choice(v["comp"]), r.choice(v["comp"]), r.choice(v["model"])
    ver = r.choice(v["ver"])
    title = r.choice([
        f"请问 {model} 是否支持 {comp}",
        f"{comp} 怎么配置？",
        f"{comp} 的参数含义请教",
        f"如何在 {r.choice(HW)} 上运行 {model}",
        f"{ver} 下 {comp} 有使用示例吗",
        f"{model} 使用 {comp} 的推荐配置是什么",
        f"{comp} 和 {comp2} 可以同时开启吗",
        f"【咨询】{repo_path} {comp} 相关问题",
        f"{comp} 是否有性能数据可以参考",
        f"{model} {comp} 文档在哪里",
        f"{comp} 默认值是多少",
        f"Does {repo_path} support {model}?",
    ])
    body = r.choice([
        f"如题，{r.choice(['文档里没找到', '看了 README 没看明白', '搜了 issue 没有类似的', ''])}。",
        join(f"想了解一下 {comp} 的用法，目前在 {model} 上试用。", env_block(r, fam) if r.random() < 0.5 else ""),
        f"我们在做 {model} 的{r.choice(['迁移', '评估', 'POC', '选型'])}，{comp} 这块不太确定怎么用，麻烦指点。",
        f"{comp} 开启后{r.choice(['效果不明显', '不确定是否生效', '日志里没有相关输出'])}，是不是配置方式不对？",
        "",
    ])
    answer = r.choice([
        f"支持，{ver} 及以上版本可用，参考仓库 docs 目录下的说明。",
        f"可以同时开启，注意显存占用会增加。",
        f"参考 examples 目录下 {model} 的脚本即可。",
        f"默认值即可满足大多数场景。",
        f"文档在 docs/zh 下，已补充链接到 README。",
        f"需要先 source set_env.sh，再按 README 步骤执行。",
        f"该参数只在{r.choice(['训练', '推理', '多机'])}场景生效。",
        f"暂无公开性能数据，可按自己的场景实测。",
        f"是的。",
        f"请使用最新版本，旧版本不支持。",
    ])
    thanks = r.choice(["好的，谢谢", "收到", "明白了，感谢", "ok", "", "", "解决了"])
    return title, body, answer, thanks, "咨询"


def env_problem(r, fam, repo_path):
    v = V[fam]
    model, comp = r.choice(v["model"]), r.choice(v["comp"])
    title = r.choice([
        f"{model} 运行报错",
        f"{comp} 报错 {r.choice(v['err'])[:40]}",
        f"安装后 import 失败",
        f"{r.choice(HW)} 上 {comp} 跑不起来",
        f"执行 {model} 样例失败",
        f"{comp} 异常",
        f"容器内运行 {model} 报错",
        f"升级 {r.choice(v['ver'])} 后 {comp} 不可用",
        f"【Bug】{model} {comp} fail",
    ])
    body = join(
        r.choice(["", f"按 README 跑 {model}，报错如下。", f"{comp} 一直失败，", "求助："]),
        log_block(r, fam),
        env_block(r, fam) if r.random() < 0.7 else "",
        r.choice(["", "", f"{r.choice(STEP_HEADS)}\n1. source set_env.sh\n2. bash run.sh"]),
    )
    replies = r.choice([
        [("maint", "请提供完整日志和版本信息。")],
        [("author", r.choice(["重装驱动后好了", "环境问题，已解决", "换了镜像就好了", "是我这边环境变量没配，已经好了"]))],
        [],
        [("maint", "请确认 CANN 与驱动版本配套。"), ("author", "好了")],
        [("maint", "请检查 LD_LIBRARY_PATH 是否包含 CANN 的 lib64 目录。")],
    ])
    return title, body, replies, "缺陷"


DOC_FILES = ["README.md", "docs/zh/install.md", "docs/zh/quick_start.md", "docs/en/README.md", "docs/faq.md", "examples/README.md",
             "docs/zh/features/overview.md", "CONTRIBUTING.md"]
TYPOS = [("recompute", "recomput"), ("parallel", "paralle"), ("tokenizer", "tokenzier"), ("安装", "按装"), ("环境变量", "环境变亮"),
         ("checkpoint", "checkpiont"), ("precision", "precison"), ("服务化", "服务话"), ("configuration", "configration"),
         ("sequence", "sequnce"), ("命令", "明令"), ("schedule", "schedual")]


def doc_typo(r, fam, repo_path):
    f = r.choice(DOC_FILES)
    good, bad = r.choice(TYPOS)
    kind = r.random()
    if kind < 0.5:
        title = r.choice([f"{f} 中 {bad} 拼写错误", f"文档错别字：{bad} -> {good}", f"{f} typo: {bad}"])
        body = r.choice([f"{f} 中「{bad}」应为「{good}」。", f"第 {r.randint(8, 300)} 行 {bad} 拼错了。", f"typo"])
        line = r.choice(["开启 {w} 前请先完成环境配置。", "- {w}：详见下文说明", "| {w} | 见配置说明 |", "通过 `--{w}` 参数指定。"])
        old, new = line.format(w=bad), line.format(w=good)
    elif kind < 0.8:
        title = r.choice([f"{f} 里的链接失效", f"文档链接 404", f"{f} 跳转链接错误"])
        body = f"{f} 中的「{r.choice(['安装指导', '配套表', '快速入门', 'FAQ', '版本说明'])}」链接点进去是 404。"
        old, new = "- [安装指导](docs/install.md)", "- [安装指导](docs/zh/install.md)"
    else:
        title = r.choice([f"README 安装命令少了参数", f"{f} 示例命令有误"])
        body = r.choice([f"`pip install {repo_path.lower()}` 少了 --no-deps，会覆盖已装的 torch。", "示例命令缺参数。", f"{f} 里的 pip 命令要加 --no-deps"])
        old, new = f"pip install {repo_path.lower()}", f"pip install --no-deps {repo_path.lower()}"
    return title, body, f, old, new


def feature_ask(r, fam, repo_path):
    v = V[fam]
    comp, model = r.choice(v["comp"]), r.choice(v["model"])
    title = r.choice([
        f"希望支持 {model}", f"建议 {comp} 增加日志开关", f"【需求】{comp} 支持 {r.choice(HW)}", f"能否提供 {model} 的 {comp} 样例",
        f"Feature request: {comp} for {model}", f"{comp} 希望支持配置文件方式", f"期望 {comp} 输出更详细的报错信息",
    ])
    body = r.choice(["如题。", f"目前 {comp} 只能通过命令行配置，希望支持 yaml。", f"业务上需要在 {model} 上用 {comp}，请评估。", ""])
    reply = r.choice(["已纳入需求池，后续版本考虑。", "下个版本支持。", "已支持，请更新到最新版本。", "收到，排期中。", "已在 master 支持。"])
    return title, body, reply, "需求"


# ----------------------------------------------------------------------------- cheap-stage drops
def bugish_title(r, fam):
    v = V[fam]
    return r.choice([
        f"{r.choice(v['model'])} {r.choice(v['comp'])} 报错", f"{r.choice(v['comp'])} 结果不正确", f"{r.choice(v['err'])[:48]}",
        f"{r.choice(v['comp'])} 性能下降", f"{r.choice(v['model'])} 精度异常", f"{r.choice(v['comp'])} 偶现失败",
        f"[Bug] {r.choice(v['comp'])} crash", f"{r.choice(v['comp'])} 在 {r.choice(v['ver'])} 上不可用",
    ])


def featureish_title(r, fam):
    v = V[fam]
    return r.choice([
        f"希望支持 {r.choice(v['model'])}", f"建议增加 {r.choice(v['comp'])} 开关", f"{r.choice(v['comp'])} 支持 Windows",
        f"请求支持 {r.choice(['ARM 32 位', 'macOS', 'Python 3.7', 'CUDA 互转', 'CentOS 6'])}", f"【需求】{r.choice(v['comp'])} 图形界面",
    ])


CVE_PKGS = [("openssl", "缓冲区越界读"), ("zlib", "堆溢出"), ("protobuf", "拒绝服务"), ("libcurl", "认证绕过"), ("pillow", "任意代码执行"),
            ("urllib3", "请求走私"), ("requests", "证书校验绕过"), ("jinja2", "沙箱逃逸"), ("numpy", "内存破坏"), ("grpc", "拒绝服务"),
            ("golang.org/x/net", "HTTP/2 资源耗尽"), ("libxml2", "释放后使用"), ("sqlite", "整数溢出"), ("expat", "拒绝服务"),
            ("torch", "反序列化代码执行"), ("transformers", "反序列化漏洞"), ("setuptools", "命令注入"), ("tornado", "CRLF 注入")]


def cve_issue(r, fam, repo_path):
    pkg, vuln = r.choice(CVE_PKGS)
    cid = f"CVE-{r.choice([2024, 2025, 2025, 2026])}-{r.randint(1000, 59999)}"
    title = r.choice([f"{cid}", f"{cid}: {pkg} {vuln}", f"【安全漏洞】{pkg} {cid}", f"[Security] {cid} in {pkg}",
                      f"{repo_path} 依赖 {pkg} 存在漏洞 {cid}"])
    body = join(f"漏洞编号：{cid}", f"组件：{pkg}", f"漏洞描述：{pkg} {vuln}，CVSS {r.choice(['5.3', '6.5', '7.5', '8.1', '9.8'])}。",
                f"影响范围：{repo_path} {r.choice(V[fam]['ver'])} 引入的 {pkg}。" if r.random() < 0.7 else "",
                "修复建议：升级至官方修复版本。" if r.random() < 0.6 else "")
    reply = r.choice([f"已升级 {pkg} 至修复版本。", "不涉及：仅测试代码引用。", "已在下个版本修复。", f"已评估，{repo_path} 未使用受影响函数。"])
    return title, body, reply


def task_title(r, fam, repo_path):
    v = V[fam]
    return r.choice([
        f"【版本】{r.choice(['26.0.RC3', '26.1.0', '26.2.0', '9.1.0'])} 转测准备", f"[Task] {r.choice(v['comp'])} UT 覆盖率提升至 80%",
        f"CI 流水线增加 {r.choice(['codecheck', 'UT', '门禁', '安全扫描', 'license 检查'])}", f"迭代 26{r.randint(7, 10):02d} {r.choice(v['comp'])} 开发",
        f"【需求分解】{r.choice(v['comp'])} 重构", f"{r.choice(v['model'])} 性能基线刷新", f"资料：{r.choice(v['comp'])} 章节评审",
        f"【测试任务】{r.choice(v['comp'])} 回归", f"{repo_path} 仓库目录整理", f"补充 {r.choice(v['comp'])} 设计文档",
    ])


def review_title(r, pr):
    return r.choice([f"【代码检视】!{pr} 检视意见", f"[Review] PR #{pr} comments", f"PR {pr} 检视意见跟踪", f"【检视意见】!{pr}"])


# ----------------------------------------------------------------------------- named backlog (seed's note)
NAMED = {
    "Ascend/pytorch": [
        ("torch.storage.TypedStorage deepcopy 后 dtype 变成 float32",
         "```python\ns = torch.TypedStorage([1, 2, 3], dtype=torch.float16, device='npu')\nt = copy.deepcopy(s)\nprint(t.dtype)  # torch.float32\n```\ntorch 2.6.0 / torch_npu 2.6.0。",
         [("maint", "TypedStorage 已废弃，建议用 UntypedStorage。")]),
        ("torch.compile inductor 后端首次 trace 耗时过长",
         "Qwen2.5-7B 用 torch.compile(backend='inductor')，首次 trace + 编译 23 分钟，GPU 上只要 4 分钟。",
         [("maint", "NPU 上 inductor 后端仍在完善，建议先用 torchair 图模式；可开启编译缓存减少二次耗时。"), ("author", "好的")]),
        ("310P 上 torch.npu.set_device(1) 后 0 卡仍被占用约 300MB",
         "```\n$ npu-smi info\n| 0  310P3 | ... | 312 / 21534 |\n| 1  310P3 | ... | 1630 / 21534 |\n```\n进程只 set_device(1)，0 卡也被占了。",
         [("maint", "import 前设置 ASCEND_RT_VISIBLE_DEVICES=1 试试。"), ("author", "可以了")]),
    ],
    "Ascend/torchair": [
        ("图模式下 npu_fused_infer_attention_score 动态 shape 反复重编译", "decode 阶段每个 step 都触发重编译，日志大量 `recompile` 。",
         [("maint", "请对 actual_seq_lengths 使用 mark_static 或开启 dynamic=True。")]),
        ("config.debug.graph_dump 配置不生效", "按文档设置了 graph_dump.type='pbtxt'，没有生成文件。", [("maint", "需同时设置 dump 路径且目录可写。"), ("author", "好了")]),
        ("reduce-overhead 模式 aclgraph capture 失败", "```\nRuntimeError: capture failed: unsupported op in graph: aten.nonzero\n```", [("maint", "nonzero 为动态 shape 算子，不支持 capture，请改写。")]),
        ("静态 kernel 编译缓存目录权限错误", "多用户共用机器时 /tmp/torchair_kernel 目录权限报错。", [("maint", "可通过环境变量指定缓存目录。")]),
        ("max-autotune 模式 Qwen2.5 推理输出乱码", "升级前出现，升级到 26.0.0 后正常。", []),
        ("cache_compile 与 torch 2.6 不兼容", "```\nAttributeError: module 'torch._dynamo' has no attribute 'eval_frame_callback'\n```", [("maint", "请升级 torchair 至配套版本。")]),
        ("npu_stream_switch 有使用示例吗", "想做多流并行，文档只有接口说明。", [("maint", "见 examples/multi_stream.py。")]),
    ],
    "Ascend/memcache": [
        ("客户端初始化超时", "```\n[memcache] connect meta service 10.0.0.5:5000 timeout\n```", [("maint", "请检查 meta service 是否启动以及防火墙。")]),
        ("put 大对象失败", "超过 512MB 的对象 put 返回 -22。", [("maint", "单对象上限由 max_object_size 控制，默认 512MB。")]),
        ("多租户配额如何配置", "", [("maint", "参考 docs/zh/config.md 中 tenant 配置项。")]),
        ("与 vllm-ascend 集成文档链接失效", "README 中集成指南链接 404。", [("maint", "已更新。")]),
        ("metaservice 重启后数据丢失", "重启 metaservice 之后之前 put 的 key 都 get 不到了。", [("maint", "当前版本元数据不持久化，重启需重建。")]),
        ("编译找不到 libboundscheck", "```\nfatal error: securec.h: No such file or directory\n```", [("author", "装了 libboundscheck-devel 就好了")]),
        ("支持 A2 吗", "", [("maint", "支持 A2/A3。")]),
    ],
    "Ascend/msinsight": [
        ("打开 20G 的 db 文件卡死", "导入 20G 的 msprof db 后界面无响应。", [("maint", "大文件建议先用 msprof 按 step 切分再导入。")]),
        ("timeline 筛选算子名区分大小写", "搜索 matmul 搜不到 MatMul。", [("maint", "下个版本改为不区分。")]),
        ("内存视图显示负值", "", [("maint", "数据采集不完整导致，请重新采集。")]),
        ("Linux 版无法启动，缺少 libnss3", "```\nerror while loading shared libraries: libnss3.so\n```", [("author", "yum install nss 后可以了")]),
        ("导入 msprof 数据报 parse failed", "```\nparse failed: invalid db header\n```", [("maint", "请使用配套版本的 msprof 重新导出。")]),
        ("支持对比两次 profiling 吗", "", [("maint", "支持，使用 compare 模式。")]),
    ],
    "Ascend/DrivingSDK": [
        ("【日落通知】BEVFormer 样例将于 2026-12-31 停止维护", "BEVFormer 样例将于 2026-12-31 停止维护，后续请使用 BEVFusion 样例。", []),
        ("【日落通知】mmcv 1.x 适配算子停止维护", "mmcv 1.x 系列适配算子自 26.1.0 起停止更新，请迁移至 mmcv 2.x。", []),
        ("【日落通知】PointPillars 训练脚本停止维护", "PointPillars 训练脚本将于下个版本移除。", []),
    ],
    "Ascend/MindSpeed-LLM": [
        ("【日落通知】legacy 分支（Megatron core 0.8）停止维护", "legacy 分支自 2026-09-30 起不再合入修改。", []),
        ("【日落通知】部分模型脚本迁移至 MindSpeed-Recipes", "examples/legacy 下 40 个模型脚本迁移，详见迁移清单。", []),
        ("【日落通知】ModelLink 旧命名接口下线", "modellink.* 导入路径将在 2.3.0 删除。", []),
        ("【日落通知】mcore 之前的 checkpoint 转换工具下线", "请使用 convert_ckpt_v2.py。", []),
    ],
}
