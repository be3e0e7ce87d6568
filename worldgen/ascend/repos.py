"""The 187 repositories of the cann and Ascend organisations in this world (path, display name, description)."""

CANN = """\
hcomm|hcomm|HCCL 通信基础库：建链、RootInfo 检测与传输层
hccl|hccl|华为集合通信库
hixl|HIXL|异构互联传输库
ops-nn|ops-nn|神经网络类算子库
ops-transformer|ops-transformer|Transformer 类融合算子库
ops-math|ops-math|数学类基础算子库
ops-cv|ops-cv|图像处理类算子库
ops-nn-dev|ops-nn-dev|神经网络算子开发分支
catlass|CATLASS|昇腾矩阵计算模板库
asc-devkit|asc-devkit|Ascend C 开发套件
pyasc|pyasc|Ascend C 的 Python 前端
runtime|runtime|CANN 运行时
ge|GraphEngine|图引擎
metadef|metadef|图与算子元数据定义
graph-autofusion|graph-autofusion|图自动融合
opbase|opbase|算子基础框架
atvc|ATVC|向量算子模板库
shmem|shmem|NPU 共享内存通信库
triton-ascend-ops|triton-ascend-ops|基于 Triton 的昇腾算子集合
cann-recipes-infer|cann-recipes-infer|CANN 推理实践样例
cann-recipes-train|cann-recipes-train|CANN 训练实践样例
cann-samples|cann-samples|CANN 开发样例
community|community|CANN 社区治理与 SIG 资料
docs|docs|CANN 开源文档
oam-tools|oam-tools|运维诊断工具
msprof-cann|msprof-cann|CANN 性能采集组件
acl-python|acl-python|pyACL 接口
aclnn-api|aclnn-api|aclnn 接口定义
tbe-tik|tbe-tik|TIK 算子开发接口
cann-toolkit-installer|cann-toolkit-installer|CANN 安装部署工具
dvpp-ops|dvpp-ops|媒体数据处理算子
hccl-test|hccl-test|集合通信性能测试
hcomm-tools|hcomm-tools|通信诊断工具
ops-hpc|ops-hpc|高性能计算类算子
ops-sparse|ops-sparse|稀疏计算算子
ops-quant|ops-quant|量化类算子
ops-fft|ops-fft|FFT 算子
ops-random|ops-random|随机数算子
ops-index|ops-index|索引类算子
ops-reduce|ops-reduce|规约类算子
ops-conv|ops-conv|卷积类算子
ops-attention|ops-attention|注意力类算子
ops-moe|ops-moe|MoE 相关算子
ops-norm|ops-norm|归一化算子
ops-activation|ops-activation|激活函数算子
ops-pooling|ops-pooling|池化算子
ops-loss|ops-loss|损失函数算子
ops-optim|ops-optim|优化器融合算子
ops-comm|ops-comm|通算融合算子
ops-kv-cache|ops-kv-cache|KV Cache 类算子
ascend-transformer-boost|ascend-transformer-boost|Transformer 加速库
atb-models|atb-models|ATB 模型仓
ascendc-samples|ascendc-samples|Ascend C 样例
ascendc-tutorials|ascendc-tutorials|Ascend C 教程
cann-benchmark|cann-benchmark|CANN 性能基准
tiling-tools|tiling-tools|Tiling 调优工具
op-plugin-tools|op-plugin-tools|算子插件工具
auto-tune|auto-tune|算子自动调优
aoe|AOE|昇腾调优引擎
atc|ATC|模型转换工具
fwk-adapter|fwk-adapter|框架适配层
parser|parser|模型解析器
graph-compiler|graph-compiler|图编译器
memory-pool|memory-pool|设备内存池
stream-manager|stream-manager|流管理
dump-tools|dump-tools|数据 dump 工具
acl-lite|acl-lite|ACL 轻量封装
hccl-plugins|hccl-plugins|集合通信插件
cann-ci|cann-ci|CANN 社区 CI 配置
cann-infra|cann-infra|社区基础设施
cann-website|cann-website|社区网站
sig-ops|sig-ops|算子 SIG
sig-compiler|sig-compiler|编译 SIG
sig-comm|sig-comm|通信 SIG
cann-security|cann-security|安全公告
cann-release|cann-release|版本发布
driver-tools|driver-tools|驱动辅助工具
npu-smi-tools|npu-smi-tools|npu-smi 扩展
device-sdk|device-sdk|设备侧 SDK
ascend-boost-comm|ascend-boost-comm|加速库通信组件
"""

ASCEND = """\
msmodeling|MindStudio-Modeling|PyTorch 图建模与仿真工具（TensorCast / OptiX）
MindSpeed-MM|MindSpeed-MM|多模态大模型训练套件
mind-cluster|MindCluster|集群调度与 NPU 观测组件
msmodelslim|MindStudio-ModelSlim|模型量化压缩工具
MindSpeed-Bridge|MindSpeed-Bridge|MindSpeed 与 Megatron 桥接
MindIE-Motor|MindIE-Motor|推理引擎调度与容错
memfabric_hybrid|memfabric_hybrid|内存池中间件
pytorch|pytorch|Ascend Extension for PyTorch（torch_npu）
torchair|torchair|torch 图模式适配
memcache|memcache|分布式 KV 缓存
msinsight|MindStudio-Insight|性能可视化分析工具
DrivingSDK|DrivingSDK|自动驾驶模型加速库
MindSpeed-LLM|MindSpeed-LLM|大语言模型训练套件
MindSpeed|MindSpeed|大模型训练加速库
MindSpeed-RL|MindSpeed-RL|强化学习训练套件
MindSpeed-Core-MS|MindSpeed-Core-MS|MindSpeed MindSpore 后端
MindIE-LLM|MindIE-LLM|大模型推理
MindIE-SD|MindIE-SD|多模态生成推理
MindIE-Turbo|MindIE-Turbo|推理加速插件
MindIE-PyMotor|MindIE-PyMotor|Motor Python 组件
MindIE-Service|MindIE-Service|推理服务化
MindIE-RT|MindIE-RT|推理运行时
MindIE-Torch|MindIE-Torch|PyTorch 推理后端
mstt|mstt|训练工具链（精度/性能分析）
msprof|msprof|性能采集与解析
msprobe|msprobe|精度调试工具
msit|msit|推理工具链
mskpp|mskpp|算子性能建模
msopgen|msopgen|算子工程生成
msdebug|msdebug|算子调试器
mssanitizer|mssanitizer|内存检测工具
msleaks|msleaks|内存泄漏分析
msserviceprofiler|msserviceprofiler|服务化性能分析
ascend-docker-runtime|ascend-docker-runtime|容器运行时
ascend-device-plugin|ascend-device-plugin|K8s 设备插件
ascend-operator|ascend-operator|训练任务 Operator
volcano-ascend|volcano-ascend|Volcano 昇腾调度插件
npu-exporter|npu-exporter|NPU 指标导出
ascend-fd|ascend-fd|故障诊断
clusterops|clusterops|集群运维
noded|noded|节点故障上报
resilience-controller|resilience-controller|弹性训练控制器
modelzoo-pytorch|ModelZoo-PyTorch|PyTorch 模型库
modelzoo-mindspore|ModelZoo-MindSpore|MindSpore 模型库
samples|samples|昇腾样例
mindxsdk-referenceapps|mindxsdk-referenceapps|MindX SDK 参考应用
mindsdk-referenceapps|mindsdk-referenceapps|MindSDK 参考应用
mindx-dl|mindx-dl|深度学习组件
ascend-toolkit-docs|ascend-toolkit-docs|工具链文档
docs|docs|昇腾开源文档
community|community|社区治理
infrastructure|infrastructure|社区基础设施
apex|apex|Apex 昇腾适配
deepspeed-ascend|deepspeed-ascend|DeepSpeed 昇腾适配
transformers-ascend|transformers-ascend|Transformers 适配
vision|vision|torchvision 昇腾适配
audio|audio|torchaudio 昇腾适配
op-plugin|op-plugin|torch_npu 算子插件
torch-npu-tools|torch-npu-tools|torch_npu 辅助工具
triton-ascend|triton-ascend|Triton 昇腾后端
tilelang-ascend|tilelang-ascend|TileLang 昇腾后端
sglang-ascend|sglang-ascend|SGLang 昇腾适配
lmdeploy-ascend|lmdeploy-ascend|LMDeploy 昇腾适配
llama-factory-ascend|llama-factory-ascend|LLaMA-Factory 适配
verl-ascend|verl-ascend|verl 昇腾适配
openrlhf-ascend|openrlhf-ascend|OpenRLHF 昇腾适配
diffusers-ascend|diffusers-ascend|Diffusers 适配
onnxruntime-ascend|onnxruntime-ascend|ONNX Runtime CANN EP
paddle-ascend|paddle-ascend|PaddlePaddle 适配
tensorflow-ascend|tensorflow-ascend|TensorFlow 适配
mindspeed-autotuning|mindspeed-autotuning|自动并行调优
mindspeed-ops|mindspeed-ops|MindSpeed 融合算子
MindSpeed-Recipes|MindSpeed-Recipes|训练配方
MindSpeed-Kernels|MindSpeed-Kernels|训练加速内核
RecSDK|RecSDK|推荐模型加速
AscendSpeed|AscendSpeed|（已归档）训练加速库
ascend-cluster-tools|ascend-cluster-tools|集群工具
ascend-deployer|ascend-deployer|离线部署工具
ascend-hdk-tools|ascend-hdk-tools|HDK 工具
ascend-ci|ascend-ci|社区 CI
ascend-robot-config|ascend-robot-config|社区机器人配置
ascend-security|ascend-security|安全公告
kg-tools|kg-tools|昇腾知识图谱工具
agent-skills|agent-skills|Agent 技能库
MindIE-ICU|MindIE-ICU|推理集群管理
MindIE-Benchmark|MindIE-Benchmark|推理基准测试
mindie-docs|mindie-docs|MindIE 文档
AscendNPU-IR|AscendNPU-IR|NPU 中间表示
HyperParallel|HyperParallel|超节点并行库
MindSpeed-Omni|MindSpeed-Omni|全模态训练
torchtitan-npu|torchtitan-npu|torchtitan 适配
megatron-npu|megatron-npu|Megatron 适配
accelerate-ascend|accelerate-ascend|Accelerate 适配
xtuner-ascend|xtuner-ascend|XTuner 适配
mmcv-ascend|mmcv-ascend|MMCV 适配
open-sora-ascend|open-sora-ascend|Open-Sora 适配
ComfyUI-ascend|ComfyUI-ascend|ComfyUI 适配
ascend-benchmark|ascend-benchmark|训练推理基准
npu-topology-tools|npu-topology-tools|拓扑工具
ascend-edge|ascend-edge|边缘推理
msmemscope|msmemscope|内存分析工具
mspti|mspti|性能调优接口
MindIE-Examples|MindIE-Examples|推理样例
ascend-pytorch-docker|ascend-pytorch-docker|PyTorch 容器镜像
ascend-opencv|ascend-opencv|OpenCV 昇腾后端
mindspeed-moe-tools|mindspeed-moe-tools|MoE 负载分析工具
vllm-ascend-plugins|vllm-ascend-plugins|vLLM 昇腾扩展插件
"""


def _rows(block):
    return [tuple(line.split("|")) for line in block.strip().splitlines()]


REPOS = [("cann",) + r for r in _rows(CANN)] + [("Ascend",) + r for r in _rows(ASCEND)]
