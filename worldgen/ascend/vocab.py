"""Vocabulary for the generated (non-deep) issues: per repo family components, models, errors, commands."""

FAMILY_OF = {}
_FAMILIES = {
    "torch": ["pytorch", "op-plugin", "vision", "audio", "apex", "torch-npu-tools", "torchair", "triton-ascend",
              "torchtitan-npu", "ascend-pytorch-docker", "tilelang-ascend", "transformers-ascend", "accelerate-ascend"],
    "train": ["MindSpeed", "MindSpeed-LLM", "MindSpeed-MM", "MindSpeed-RL", "MindSpeed-Core-MS", "megatron-npu",
              "deepspeed-ascend", "llama-factory-ascend", "verl-ascend", "openrlhf-ascend", "MindSpeed-Bridge",
              "MindSpeed-Recipes", "MindSpeed-Kernels", "mindspeed-ops", "HyperParallel", "MindSpeed-Omni", "xtuner-ascend",
              "DrivingSDK", "mmcv-ascend", "open-sora-ascend", "RecSDK", "mindspeed-autotuning", "AscendSpeed"],
    "infer": ["MindIE-LLM", "MindIE-SD", "MindIE-Turbo", "MindIE-Motor", "MindIE-PyMotor", "MindIE-Service", "MindIE-RT",
              "MindIE-Torch", "memcache", "memfabric_hybrid", "sglang-ascend", "lmdeploy-ascend", "vllm-ascend-plugins",
              "MindIE-ICU", "MindIE-Benchmark", "MindIE-Examples", "diffusers-ascend", "ComfyUI-ascend", "onnxruntime-ascend",
              "ascend-transformer-boost", "atb-models"],
    "cluster": ["mind-cluster", "ascend-docker-runtime", "ascend-device-plugin", "ascend-operator", "volcano-ascend",
                "npu-exporter", "ascend-fd", "clusterops", "noded", "resilience-controller", "mindx-dl",
                "ascend-cluster-tools", "ascend-deployer", "npu-topology-tools", "ascend-hdk-tools"],
    "tools": ["msmodeling", "msmodelslim", "msinsight", "mstt", "msprof", "msprobe", "msit", "mskpp", "msopgen",
              "msdebug", "mssanitizer", "msleaks", "msserviceprofiler", "msmemscope", "mspti", "msprof-cann", "dump-tools",
              "mindspeed-moe-tools"],
}
for fam, names in _FAMILIES.items():
    for n in names:
        FAMILY_OF[n] = fam


def family(owner: str, path: str) -> str:
    if path in FAMILY_OF:
        return FAMILY_OF[path]
    if owner == "cann":
        return "ops" if path.startswith(("ops", "catlass", "asc", "pyasc", "atvc", "tbe", "tiling", "auto-tune", "op-")) else "cann"
    return "misc"


V = {
    "torch": {
        "comp": ["torch_npu", "npu_fusion_attention", "torch.npu.amp", "HCCL 后端", "torch.compile", "aclgraph", "npu_format_cast",
                 "DDP", "FSDP", "torch.npu.memory", "profiler", "dataloader pin_memory", "torch_npu.npu.synchronize", "jit_compile"],
        "model": ["ResNet50", "Llama3-8B", "Qwen2.5-7B", "BERT-base", "YOLOv8", "Stable Diffusion 1.5", "ViT-L", "Whisper-large"],
        "err": ["RuntimeError: call aclnnMatmul failed, detail:EZ9999", "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB",
                "ERR00100 PTA call acl api failed", "EL0004: Failed to allocate memory.", "E39999: Inner Error! AICPU kernel execution failed",
                "RuntimeError: The Inner error is reported as above. The process exits for this inner error",
                "ImportError: libhccl.so: cannot open shared object file", "Segmentation fault (core dumped)",
                "EH9999: [PID: 1723] Kernel task happen error, retCode=0x31"],
        "ver": ["torch 2.1.0 / torch_npu 2.1.0.post13", "torch 2.6.0 / torch_npu 2.6.0", "torch 2.7.1 / torch_npu 2.7.1.post2",
                "torch 2.5.1 / torch_npu 2.5.1.post1", "torch 2.8.0 / torch_npu 2.8.0rc1"],
    },
    "train": {
        "comp": ["数据预处理", "权重转换", "分布式优化器", "流水线并行", "序列并行", "recompute", "MoE 负载均衡", "checkpoint 保存",
                 "LoRA 微调", "DPO", "长序列 CP", "tokenizer", "学习率调度", "packing", "评估脚本"],
        "model": ["Qwen3-8B", "Qwen3-30B-A3B", "DeepSeek-V3", "Llama3.1-70B", "GLM4-9B", "Mixtral-8x7B", "InternVL2.5-8B",
                  "Qwen2.5-VL-7B", "Baichuan2-13B", "Mistral-7B", "BEVFusion", "UniAD"],
        "err": ["AssertionError: num_layers must be divisible by pipeline_model_parallel_size",
                "KeyError: 'model.layers.0.self_attn.q_proj.weight'", "RuntimeError: shape mismatch in all_gather",
                "loss 出现 nan", "FileNotFoundError: [Errno 2] No such file or directory: 'tokenizer.model'",
                "ValueError: seq_length must be divisible by context_parallel_size*2",
                "torch.distributed.DistBackendError: HCCL error in: ProcessGroupHCCL.cpp:1605", "OOM at iteration 1"],
        "ver": ["CANN 8.2.RC1", "CANN 8.3.RC1", "CANN 8.5.0", "CANN 9.0.0", "MindSpeed 2.1.0", "master 分支", "2.2.0 分支"],
    },
    "infer": {
        "comp": ["服务化启动", "PD 分离", "量化推理", "prefix cache", "KV Cache 卸载", "多实例部署", "OpenAI 接口", "流式输出",
                 "投机推理", "图模式", "config.json 配置", "健康检查", "负载均衡"],
        "model": ["Qwen3-32B", "DeepSeek-R1", "Qwen2.5-72B", "GLM-4.5", "Llama3-70B", "Kimi-K2", "Qwen3-235B-A22B", "FLUX.1-dev"],
        "err": ["Failed to init endpoint, ret=-1", "Model load timeout after 1800s", "HTTP 503 Service Unavailable",
                "[MIE04E13030A] Failed to load model weights", "free NPU memory is not enough for kv cache",
                "Connection refused: 127.0.0.1:1025", "daemon killed by signal 9", "tokenizer mismatch with model"],
        "ver": ["MindIE 2.1.RC1", "MindIE 2.2.RC1", "MindIE 2.3.0", "vllm-ascend 0.11.0", "vllm-ascend 0.18.0", "1.2 分支"],
    },
    "cluster": {
        "comp": ["device-plugin", "ascend-docker-runtime", "volcano 调度", "npu-exporter", "断点续训", "故障检测", "ascend-operator",
                 "节点标签", "亲和性调度", "ClusterD", "NodeD", "资源上报", "rank table 生成"],
        "model": ["A2 训练服务器", "A3 超节点", "Atlas 800I A2", "Atlas 300I Duo", "Atlas 900 A3 SuperPoD"],
        "err": ["FailedScheduling: 0/8 nodes are available", "get device list failed", "hccl.json not generated",
                "exporter metrics empty", "container start failed: ascend-docker-runtime not found",
                "device unhealthy: Ascend910-3", "job restart exceeded backoffLimit"],
        "ver": ["MindCluster 7.1.RC1", "MindCluster 7.2.RC1", "MindCluster 26.0.0", "MindCluster 26.1.0", "K8s 1.28 / volcano 1.9"],
    },
    "tools": {
        "comp": ["采集", "解析", "比对", "可视化", "命令行参数", "安装", "报告导出", "精度比对", "dump", "timeline", "内存视图", "算子统计"],
        "model": ["Qwen3-8B", "Llama3-8B", "DeepSeek-V3", "ResNet50", "GLM4-9B"],
        "err": ["parse failed: invalid db header", "No such option: --output", "ModuleNotFoundError: No module named 'msprobe'",
                "ValueError: invalid literal for int()", "report is empty", "Permission denied: '/var/log/npu'"],
        "ver": ["8.2.RC1", "8.3.RC1", "26.0.0", "26.1.0", "master"],
    },
    "ops": {
        "comp": ["aclnn 接口", "tiling", "kernel", "UT 用例", "编译脚本", "Ascend C API", "文档示例", "性能", "精度", "动态 shape"],
        "model": ["Add", "Matmul", "Softmax", "LayerNorm", "GroupedMatmul", "FlashAttention", "RmsNorm", "Transpose", "Gather", "Cumsum"],
        "err": ["build failed: undefined reference to `AscendC::", "precision check failed: max diff 0.031", "tiling key not found",
                "EZ1001: The input dtype is not supported", "aclnnStatus 561103", "kernel launch timeout"],
        "ver": ["CANN 8.3.RC1", "CANN 8.5.0", "CANN 9.0.0", "master", "社区版 9.1.0.alpha001"],
    },
    "cann": {
        "comp": ["安装", "环境变量", "aclInit", "图编译", "内存复用", "集合通信", "建链", "dump", "日志级别", "驱动兼容"],
        "model": ["Atlas 800T A2", "Atlas 300I Pro", "Atlas 800I A3", "Atlas 200I DK A2"],
        "err": ["aclInit failed, ret=507033", "EI9999 Inner error", "GE compile failed", "hccl init timeout",
                "set_env.sh: No such file", "driver version mismatch"],
        "ver": ["CANN 8.2.RC1", "CANN 8.3.RC1", "CANN 8.5.0", "CANN 9.0.0"],
    },
    "misc": {
        "comp": ["文档", "样例", "安装指导", "链接", "README", "镜像", "脚本"],
        "model": ["ResNet50", "YOLOv5", "BERT", "Qwen2.5-7B", "Stable Diffusion"],
        "err": ["404 Not Found", "No such file or directory", "ModuleNotFoundError", "精度不达标"],
        "ver": ["8.2.RC1", "8.3.RC1", "master", "26.0.0"],
    },
}

OS = ["openEuler 22.03 LTS SP2", "Ubuntu 22.04", "EulerOS 2.10", "Kylin V10 SP3", "CentOS 7.6", "openEuler 24.03 LTS"]
PY = ["Python 3.8.18", "Python 3.9.9", "Python 3.10.14", "Python 3.11.9"]
HW = ["Atlas 800T A2", "Atlas 800I A2", "Atlas 900 A3 SuperPoD", "Atlas 300I Duo", "Atlas 800I A3", "910B3 ×8", "310P3"]

SURNAMES = ["wang", "li", "zhang", "liu", "chen", "yang", "huang", "zhao", "wu", "zhou", "xu", "sun", "ma", "zhu", "hu", "guo",
            "he", "gao", "lin", "luo", "zheng", "liang", "xie", "song", "tang", "han", "feng", "deng", "cao", "peng", "zeng", "xiao",
            "tian", "dong", "yuan", "pan", "cai", "jiang", "yu", "du", "ye", "cheng", "wei", "su", "lu", "ding", "ren", "shen"]
GIVEN = ["wei", "fang", "na", "min", "jing", "lei", "qiang", "jun", "yang", "yong", "yan", "jie", "tao", "ming", "chao", "xiu",
         "xia", "gang", "ping", "hui", "hao", "yu", "kai", "bo", "lin", "xin", "rui", "peng", "fei", "han", "zhe", "yi", "chen", "long"]
HANDLES = ["npu_dev", "ascend_fan", "llm_runner", "infra", "ops", "ml", "ai", "dl", "hpc", "sre", "train", "infer", "quant", "perf"]
