<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Autosave</name>
    <message>
        <location filename="../../app/gui/autosave.cpp" line="90"/>
        <source>not valid JSON: %1</source>
        <translation>不是有效的 JSON：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/autosave.cpp" line="143"/>
        <source>no autosave slot in %1</source>
        <translation>%1 中没有自动保存槽</translation>
    </message>
</context>
<context>
    <name>Calibration</name>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="79"/>
        <source>collectives only</source>
        <translation>仅集合通信</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="82"/>
        <source>%1 (measured %2)</source>
        <translation>%1（测于 %2）</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="99"/>
        <source>GEMM peak, %1</source>
        <translation>GEMM 峰值，%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="104"/>
        <source>Memory bandwidth</source>
        <translation>显存带宽</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="107"/>
        <source>Host to device (pinned)</source>
        <translation>主机到设备（锁页内存）</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="110"/>
        <source>Device to host (pinned)</source>
        <translation>设备到主机（锁页内存）</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="113"/>
        <source>Kernel launch overhead</source>
        <translation>内核启动开销</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="117"/>
        <source>Kernel launch, host CPU time</source>
        <translation>内核启动的主机 CPU 时间</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="122"/>
        <source>Launch + synchronize round trip</source>
        <translation>启动 + 同步往返时间</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="127"/>
        <source>Peer-to-peer bandwidth (best pair)</source>
        <translation>点对点带宽（最佳 GPU 对）</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="136"/>
        <source>The model's prediction from the scenario's datasheet links (%1) for %2 GPUs on %3 node(s) at %4 MB, the largest size measured</source>
        <translation>模型根据场景的数据手册链路（%1）对 %2 块 GPU、%3 个节点、%4 MB（测得的最大规模）的预测</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="130"/>
        <source>NCCL %1 bus bandwidth (peak)</source>
        <translation>NCCL %1 总线带宽（峰值）</translation>
    </message>
</context>
<context>
    <name>ControlChecks</name>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="124"/>
        <source>data × tensor × pipeline = %1 × %2 × %3 = %4, but the cluster has %5 GPUs (%6 nodes × %7 GPUs per node)</source>
        <translation>数据 × 张量 × 流水线 = %1 × %2 × %3 = %4，但集群有 %5 块 GPU（%6 个节点 × 每节点 %7 块 GPU）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="191"/>
        <source>tensor × pipeline = %1 × %2 = %3 does not divide the %4 GPUs, so the data degree (auto) would not be whole</source>
        <translation>张量 × 流水线 = %1 × %2 = %3 不能整除 %4 块 GPU，因此数据并行度（自动）不是整数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="200"/>
        <source>tensor = %1 is more than the %2 GPUs per node: its all-reduces cross the inter-node network (allowed, but slow)</source>
        <translation>tensor = %1 大于每节点 %2 块 GPU：其 all-reduce 会跨节点间网络（允许，但很慢）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="212"/>
        <source>tensor = %1 does not divide the model's %2 attention heads</source>
        <translation>tensor = %1 不能整除模型的 %2 个注意力头</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="217"/>
        <source>sequence parallelism works inside a tensor-parallel group; with tensor = 1 it has no effect</source>
        <translation>序列并行在张量并行组内起作用；tensor = 1 时无效果</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="261"/>
        <location filename="../../views/controls/control_checks.cpp" line="268"/>
        <source>global batch %1 does not split evenly over %2 data-parallel replicas</source>
        <translation>全局批大小 %1 无法均分到 %2 个数据并行副本</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="273"/>
        <source>micro-batch %1 does not divide the per-replica batch %2 / %3 = %4</source>
        <translation>微批次 %1 不能整除每副本批大小 %2 / %3 = %4</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="228"/>
        <source>%1 virtual stages need the interleaved schedule</source>
        <translation>%1 个虚拟阶段需要交错调度</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="232"/>
        <source>the interleaved schedule with 1 virtual stage is plain 1F1B; use 2 or more</source>
        <translation>只有 1 个虚拟阶段的交错调度就是普通 1F1B；请使用 2 个或更多</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="236"/>
        <source>pipeline × virtual stages = %1 × %2 = %3 stages, but the model has %4 layers</source>
        <translation>流水线 × 虚拟阶段 = %1 × %2 = %3 个阶段，但模型只有 %4 层</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="236"/>
        <source>pipeline × virtual stages = %1 × %2 = %3 stages, but the model has %4 layers; counting the embedding and the loss as pipeline layers (Megatron) gives %5</source>
        <translation>流水线 × 虚拟阶段 = %1 × %2 = %3 个阶段，但模型只有 %4 层；把嵌入层和损失计为流水线层（Megatron）可得 %5 层</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="24"/>
        <source>%1 has no tensor parallelism (tensor = %2); use tensor 1 or a Megatron stack or torchtitan</source>
        <translation>%1 不支持张量并行（tensor = %2）；请把 tensor 设为 1，或改用 Megatron 系列或 torchtitan</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="30"/>
        <source>%1 has no pipeline parallelism (pipeline = %2); use pipeline 1 or DeepSpeed, Megatron or torchtitan</source>
        <translation>%1 不支持流水线并行（pipeline = %2）；请把 pipeline 设为 1，或改用 DeepSpeed、Megatron 或 torchtitan</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="36"/>
        <source>%1 runs ZeRO stages up to %2, not %3</source>
        <translation>%1 最多支持 ZeRO 第 %2 阶段，不支持第 %3 阶段</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="41"/>
        <source>%1 cannot combine ZeRO stage %2 with pipeline = %3 (at most stage %4); torchtitan can</source>
        <translation>%1 无法把 ZeRO 第 %2 阶段与 pipeline = %3 组合使用（最多第 %4 阶段）；torchtitan 可以</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="63"/>
        <source>%1 has no asynchronous updates; use sync</source>
        <translation>%1 不支持异步更新；请使用同步更新</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="244"/>
        <source>the interleaved schedule needs the %1 micro-batches per step to be a multiple of pipeline = %2</source>
        <translation>交错调度要求每步的 %1 个微批次是 pipeline = %2 的倍数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="281"/>
        <source>%1 is not supported by the %2</source>
        <translation>%2 不支持 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="304"/>
        <source>steady state %1 °C is below the ambient %2 °C: a GPU under load does not end up cooler than its intake air</source>
        <translation>稳态温度 %1 °C 低于环境温度 %2 °C：负载下的 GPU 不会比其进风更凉</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="293"/>
        <source>GPU %1 with its own cooling does not exist: the GPUs are numbered 0-%2</source>
        <translation>单独设置散热的 GPU %1 不存在：GPU 编号为 0-%2</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="49"/>
        <source>%1 has no context parallelism (context = %2); use context 1 or Megatron-Core, torchtitan or DeepSpeed</source>
        <translation>%1 不支持上下文并行（context = %2）；请使用 context 1，或 Megatron-Core、torchtitan、DeepSpeed</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="55"/>
        <source>%1 has no expert parallelism (expert = %2); use expert 1 or Megatron-Core, torchtitan or DeepSpeed</source>
        <translation>%1 不支持专家并行（expert = %2）；请使用 expert 1，或 Megatron-Core、torchtitan、DeepSpeed</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="74"/>
        <source>%1 nodes × %2 GPUs per node = %3 GPUs; at most %4 GPUs</source>
        <translation>%1 个节点 × 每节点 %2 块 GPU = %3 块 GPU；最多 %4 块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="87"/>
        <source>the profile's collectives ran on %1 × %2 GPUs, this cluster is %3 × %4: their bus bandwidths stand for another cluster's links</source>
        <translation>该配置文件的集合通信测自 %1 × %2 块 GPU，而本集群为 %3 × %4：其总线带宽代表的是另一个集群的链路</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="114"/>
        <source>data × tensor × pipeline × context = %1 × %2 × %3 × %4 = %5, but the cluster has %6 GPUs</source>
        <translation>数据 × 张量 × 流水线 × 上下文 = %1 × %2 × %3 × %4 = %5，但集群有 %6 块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="136"/>
        <source>tensor = %1 does not divide the %2 GPUs, so the data degree (auto) would not be whole</source>
        <translation>tensor = %1 不能整除 %2 块 GPU，因此数据并行度（自动）不是整数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="143"/>
        <source>expert parallelism splits routed experts, and this model has none</source>
        <translation>专家并行切分的是路由专家，而此模型没有路由专家</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="244"/>
        <source>%1 layers offloaded leave none on the GPU: the model has %2 transformer layers</source>
        <translation>卸载 %1 层后 GPU 上不再留有任何层的激活：该模型只有 %2 个 Transformer 层</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="250"/>
        <source>activation offloading runs without pipeline parallelism, and pipeline = %1</source>
        <translation>激活卸载不能与流水线并行同时使用，而此处 pipeline = %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="255"/>
        <source>activation offloading runs without activation recompute, and recompute = %1</source>
        <translation>激活卸载不能与激活重计算同时使用，而此处 recompute = %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="146"/>
        <source>expert = %1 does not divide the model's %2 routed experts</source>
        <translation>expert = %1 不能整除模型的 %2 个路由专家</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="151"/>
        <source>expert tensor × expert = %1 × %2 = %3 must divide tensor × context × data = %4 (the experts fold onto the same GPUs)</source>
        <translation>专家张量 × 专家 = %1 × %2 = %3 必须整除 张量 × 上下文 × 数据 = %4（专家折叠到同一批 GPU 上）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="160"/>
        <source>context parallelism splits a sequence, and this model has none</source>
        <translation>上下文并行切分的是序列，而此模型没有序列</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="163"/>
        <source>context = %1 needs the sequence length %2 to be a multiple of %3 (two chunks per GPU balance causal attention)</source>
        <translation>context = %1 要求序列长度 %2 是 %3 的倍数（每块 GPU 两个分块，以平衡因果注意力）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="171"/>
        <source>the %1 schedule puts two model chunks on each stage and needs 2 or more pipeline stages</source>
        <translation>%1 调度在每个阶段放两个模型分块，需要 2 个或更多流水线阶段</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="177"/>
        <source>the %1 schedule needs at least %2 micro-batches per step with %3 stages, got %4</source>
        <translation>%1 调度在 %3 个阶段时每步至少需要 %2 个微批次，当前为 %4</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="186"/>
        <source>%1 is a Blackwell tensor-core format; %2 has none (use fp8 or bf16)</source>
        <translation>%1 是 Blackwell 张量核心格式；%2 不支持（请使用 fp8 或 bf16）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="207"/>
        <source>heads = %1 does not divide the hidden size %2</source>
        <translation>heads = %1 不能整除隐藏层大小 %2</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="222"/>
        <source>asynchronous updates cannot shard the optimizer (ZeRO stage %1): every replica's gradients are needed each step; use sync or ZeRO 0</source>
        <translation>异步更新不能切分优化器（ZeRO 阶段 %1）：每一步都需要所有副本的梯度；请使用同步更新或 ZeRO 0</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="257"/>
        <source>a global batch of %1 samples trains nothing; use at least 1</source>
        <translation>全局批量为 %1 个样本时无法训练；至少使用 1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="289"/>
        <source>straggler GPU %1 is listed twice; each GPU has one slowdown</source>
        <translation>慢节点 GPU %1 被列出两次；每块 GPU 只有一个减速系数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="299"/>
        <source>GPU %1 is listed twice; each GPU has one steady-state temperature</source>
        <translation>GPU %1 被列出两次；每块 GPU 只有一个稳态温度</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="311"/>
        <source>GPU %1's steady state %2 °C is below the ambient %3 °C</source>
        <translation>GPU %1 的稳态温度 %2 °C 低于环境温度 %3 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="317"/>
        <source>no GPU gets hotter than %1 °C, the throttling threshold is %2 °C: thermal throttling has no effect</source>
        <translation>没有 GPU 温度超过 %1 °C，而降频阈值为 %2 °C：温度降频不起作用</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="329"/>
        <source>a checkpoint every %1 s, but writing one takes %2 s (%3 GB at %4 GB/s): more time goes to checkpoints than to training</source>
        <translation>每 %1 s 保存一次检查点，但写入一次需要 %2 s（%3 GB，%4 GB/s）：花在检查点上的时间多于训练</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="338"/>
        <source>a checkpoint every %1 s, but with %2 GPUs one fails every %3 s on average: most work between checkpoints is lost</source>
        <translation>每 %1 s 保存一次检查点，但 %2 块 GPU 平均每 %3 s 就有一个故障：检查点之间的大部分工作会丢失</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="346"/>
        <source>with %1 GPUs one fails every %2 s on average, before a restart and a checkpoint (%3 s) are done: the job hardly progresses</source>
        <translation>%1 块 GPU 平均每 %2 s 就有一个故障，来不及完成重启和一次检查点（%3 s）：作业几乎没有进展</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="284"/>
        <source>straggler GPU %1 does not exist: the GPUs are numbered 0-%2</source>
        <translation>慢节点 GPU %1 不存在：GPU 编号为 0-%2</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="324"/>
        <source>0 workers: the training process loads each batch itself, one at a time (PyTorch num_workers = 0)</source>
        <translation>0 个工作进程：训练进程自己逐个加载每个批次（PyTorch num_workers = 0）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="96"/>
        <source>%1 has no NVLink: GeForce cards connect over PCIe, so "%2" cannot exist in this machine</source>
        <translation>%1 没有 NVLink：GeForce 显卡之间通过 PCIe 连接，因此这台机器不可能配备“%2”</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="102"/>
        <source>%1 is an AMD GPU: its GPUs connect over Infinity Fabric, not "%2"</source>
        <translation>%1 是 AMD GPU：它们之间通过 Infinity Fabric 互连，而不是“%2”</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="81"/>
        <source>the profile was measured on %1, not on %2: its figures would replace this GPU's; choose a profile of the same GPU or none</source>
        <translation>该配置文件是在 %1 上测得的，而不是 %2：它的数据会替换这块 GPU 的数据；请选择同型号 GPU 的配置文件，或不使用</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_checks.cpp" line="107"/>
        <source>an NVLink bridge joins two cards; with %1 GPUs per node the others talk over PCIe</source>
        <translation>NVLink 桥只能连接两张卡；每个节点有 %1 块 GPU 时，其余 GPU 之间通过 PCIe 通信</translation>
    </message>
    <message>
        <source>recompute modules refine selective recompute, and recompute = %1</source>
        <translation>重计算模块只细化选择性重计算，而此处 recompute = %1</translation>
    </message>
    <message>
        <source>recompute modules are Megatron-Core's, and the stack is %1</source>
        <translation>重计算模块是 Megatron-Core 的选项，而此处软件栈为 %1</translation>
    </message>
    <message>
        <source>recompute module %1 names no part of this model</source>
        <translation>重计算模块 %1 不对应此模型的任何部分</translation>
    </message>
</context>
<context>
    <name>Duration</name>
    <message>
        <location filename="../../views/charts/run_cost.cpp" line="24"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location filename="../../views/charts/run_cost.cpp" line="27"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location filename="../../views/charts/run_cost.cpp" line="30"/>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <location filename="../../views/charts/run_cost.cpp" line="33"/>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <location filename="../../views/charts/run_cost.cpp" line="35"/>
        <source>%1 days</source>
        <translation>%1 天</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <location filename="../../views/charts/export.cpp" line="36"/>
        <location filename="../../views/charts/export.cpp" line="66"/>
        <location filename="../../views/charts/export.cpp" line="80"/>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../../views/charts/export.cpp" line="45"/>
        <source>Nothing to export.</source>
        <translation>没有可导出的内容。</translation>
    </message>
    <message>
        <location filename="../../views/charts/export.cpp" line="48"/>
        <source>Cannot export %1: choose a .png or .svg file name.</source>
        <translation>无法导出 %1：请选择 .png 或 .svg 文件名。</translation>
    </message>
    <message>
        <location filename="../../views/charts/export.cpp" line="53"/>
        <source>The view has no size.</source>
        <translation>视图没有尺寸。</translation>
    </message>
    <message>
        <location filename="../../views/charts/export.cpp" line="77"/>
        <source>Exported from ScaleScope</source>
        <translation>由 ScaleScope 导出</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../views/timeline/timeline_format.cpp" line="46"/>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_format.cpp" line="48"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_format.cpp" line="49"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
</context>
<context>
    <name>ModelText</name>
    <message>
        <source>On %1 published runs of dense transformers, the model's throughput was off by %2% on average (median %3%, worst %4%).</source>
        <comment>track record</comment>
        <translation>在已发表的 %1 次稠密 Transformer 训练中，模型预测的吞吐量平均偏差 %2%（中位数 %3%，最大 %4%）。</translation>
    </message>
    <message>
        <source>On %1 published long-context runs (context parallelism), the model's throughput was off by %2% on average (median %3%, worst %4%).</source>
        <comment>track record</comment>
        <translation>在已发表的 %1 次长上下文训练（上下文并行）中，模型预测的吞吐量平均偏差 %2%（中位数 %3%，最大 %4%）。</translation>
    </message>
    <message>
        <source>On %1 published mixture-of-experts runs, the model's throughput was off by %2% on average (median %3%, worst %4%).</source>
        <comment>track record</comment>
        <translation>在已发表的 %1 次混合专家（MoE）训练中，模型预测的吞吐量平均偏差 %2%（中位数 %3%，最大 %4%）。</translation>
    </message>
    <message>
        <source>On %1 published CNN runs, the model's throughput was off by %2% on average (median %3%, worst %4%).</source>
        <comment>track record</comment>
        <translation>在已发表的 %1 次 CNN 训练中，模型预测的吞吐量平均偏差 %2%（中位数 %3%，最大 %4%）。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="327"/>
        <source>%1.</source>
        <comment>a sentence ending</comment>
        <translation>%1。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="31"/>
        <source>forward</source>
        <comment>timeline segment</comment>
        <translation>前向</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="32"/>
        <source>backward</source>
        <comment>timeline segment</comment>
        <translation>反向</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="33"/>
        <source>recompute + backward</source>
        <comment>timeline segment</comment>
        <translation>重计算 + 反向</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="34"/>
        <source>tensor-parallel all-reduce (forward)</source>
        <comment>timeline segment</comment>
        <translation>张量并行 all-reduce（前向）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="35"/>
        <source>tensor-parallel all-reduce (backward)</source>
        <comment>timeline segment</comment>
        <translation>张量并行 all-reduce（反向）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="36"/>
        <source>send activations to next stage</source>
        <comment>timeline segment</comment>
        <translation>向下一阶段发送激活值</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="37"/>
        <source>send gradients to previous stage</source>
        <comment>timeline segment</comment>
        <translation>向上一阶段发送梯度</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="38"/>
        <source>gradient all-reduce (bucket)</source>
        <comment>timeline segment</comment>
        <translation>梯度 all-reduce（桶）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="39"/>
        <source>gradient reduce-scatter (ZeRO)</source>
        <comment>timeline segment</comment>
        <translation>梯度 reduce-scatter（ZeRO）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="40"/>
        <source>parameter all-gather (ZeRO)</source>
        <comment>timeline segment</comment>
        <translation>参数 all-gather（ZeRO）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="41"/>
        <source>parameter all-gather before use (ZeRO-3)</source>
        <comment>timeline segment</comment>
        <translation>使用前的参数 all-gather（ZeRO-3）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="42"/>
        <source>optimizer step</source>
        <comment>timeline segment</comment>
        <translation>优化器更新</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="43"/>
        <source>data loader</source>
        <comment>timeline segment</comment>
        <translation>数据加载器</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="44"/>
        <source>waiting for the data loader</source>
        <comment>timeline segment</comment>
        <translation>等待数据加载器</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="45"/>
        <source>pipeline bubble: waiting for another stage</source>
        <comment>timeline segment</comment>
        <translation>流水线气泡：等待其他阶段</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="46"/>
        <source>waiting for the slowest GPU of the tensor-parallel group</source>
        <comment>timeline segment</comment>
        <translation>等待张量并行组中最慢的 GPU</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="47"/>
        <source>waiting for data-parallel communication (exposed)</source>
        <comment>timeline segment</comment>
        <translation>等待数据并行通信（暴露部分）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="48"/>
        <source>idle until the slowest GPU finishes the step</source>
        <comment>timeline segment</comment>
        <translation>空闲，直到最慢的 GPU 完成此步</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="49"/>
        <source>waiting for the slowest data-parallel replica</source>
        <comment>timeline segment</comment>
        <translation>等待最慢的数据并行副本</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="50"/>
        <source>pipeline send in progress (blocking exchange)</source>
        <comment>timeline segment</comment>
        <translation>流水线发送进行中（阻塞式交换）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="51"/>
        <source>receiving from the neighbouring pipeline stage</source>
        <comment>timeline segment</comment>
        <translation>正在从相邻流水线阶段接收</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="52"/>
        <source>receive from the neighbouring stage</source>
        <comment>timeline segment</comment>
        <translation>从相邻阶段接收</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="53"/>
        <source>forward (thermal throttling: clocks reduced)</source>
        <comment>timeline segment</comment>
        <translation>前向（温度降频：时钟降低）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="54"/>
        <source>backward (thermal throttling: clocks reduced)</source>
        <comment>timeline segment</comment>
        <translation>反向（温度降频：时钟降低）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="55"/>
        <source>recompute + backward (thermal throttling: clocks reduced)</source>
        <comment>timeline segment</comment>
        <translation>重计算 + 反向（温度降频：时钟降低）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="56"/>
        <source>optimizer step (thermal throttling: clocks reduced)</source>
        <comment>timeline segment</comment>
        <translation>优化器更新（温度降频：时钟降低）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="57"/>
        <source>expert dispatch + combine (all-to-all, forward)</source>
        <comment>timeline segment</comment>
        <translation>专家分发 + 合并（all-to-all，前向）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="58"/>
        <source>expert dispatch + combine (all-to-all, backward)</source>
        <comment>timeline segment</comment>
        <translation>专家分发 + 合并（all-to-all，反向）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="59"/>
        <source>waiting for the busiest expert (routing imbalance)</source>
        <comment>timeline segment</comment>
        <translation>等待最忙的专家（路由不均衡）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="60"/>
        <source>context-parallel key/value exchange (forward)</source>
        <comment>timeline segment</comment>
        <translation>上下文并行键/值交换（前向）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="61"/>
        <source>context-parallel key/value exchange (backward)</source>
        <comment>timeline segment</comment>
        <translation>上下文并行键/值交换（反向）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="67"/>
        <source>waiting for GPU %1 (slowest data-parallel replica)</source>
        <comment>timeline segment; %1 = GPU number</comment>
        <translation>等待 GPU %1（最慢的数据并行副本）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="68"/>
        <source>waiting for GPU %1 (slowest data-parallel replica, thermal throttling)</source>
        <comment>timeline segment; %1 = GPU number</comment>
        <translation>等待 GPU %1（最慢的数据并行副本，温度降频）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="69"/>
        <source>waiting for GPU %1 (slowest data-parallel replica, straggler)</source>
        <comment>timeline segment; %1 = GPU number</comment>
        <translation>等待 GPU %1（最慢的数据并行副本，慢节点）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="76"/>
        <source>Nothing to simulate.</source>
        <comment>bottleneck</comment>
        <translation>没有可模拟的内容。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="77"/>
        <source>Compute-bound: the GPUs compute %1% of the step at %2% MFU.</source>
        <comment>bottleneck</comment>
        <translation>计算受限：GPU 在 %1% 的步时间内进行计算，MFU 为 %2%。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="78"/>
        <source>Compute-bound: the GPUs compute %1% of the step at %2% MFU; the largest loss is %3 (%4%).</source>
        <comment>bottleneck; %3 = what is lost</comment>
        <translation>计算受限：GPU 在 %1% 的步时间内进行计算，MFU 为 %2%；最大的损失来自%3（%4%）。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="79"/>
        <source>Host-bound: %1 issues each operation in %2 us, longer than the GPU runs it: %3% of the compute time is the host's, at %4% MFU; larger micro-batches, fused kernels or CUDA graphs hide it.</source>
        <comment>bottleneck; %1 = software stack name</comment>
        <translation>主机瓶颈：%1 下发每个操作需要 %2 微秒，比 GPU 执行它的时间还长：计算时间的 %3% 花在主机上，MFU 为 %4%；更大的微批次、融合内核或 CUDA Graphs 可以掩盖它。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="80"/>
        <source>Data-parallel gradient exchange over %1 is exposed for %2% of the step; larger batches per GPU or faster links hide it.</source>
        <comment>bottleneck; %1 = link name</comment>
        <translation>经 %1 的数据并行梯度交换有 %2% 的步时间未被掩盖；增大每块 GPU 的批大小或使用更快的互连可将其隐藏。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="81"/>
        <source>Tensor-parallel all-reduces over %1 take %2% of the step; they sit on the critical path of every layer.</source>
        <comment>bottleneck; %1 = link name</comment>
        <translation>经 %1 的张量并行 all-reduce 占步时间的 %2%；它们位于每一层的关键路径上。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="82"/>
        <source>The GPUs have no peer-to-peer access: every transfer is staged through host memory.</source>
        <comment>bottleneck, after the data- or tensor-parallel sentence</comment>
        <translation>这些 GPU 之间没有点对点访问：每次传输都要经主机内存中转。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="83"/>
        <source>Pipeline bubble: %1% of the step is idle with %2 micro-batches on %3 stages; more micro-batches or interleaving shrink it.</source>
        <comment>bottleneck</comment>
        <translation>流水线气泡：%3 个阶段、%2 个微批次时，%1% 的步时间处于空闲；增加微批次或采用交错调度可缩小气泡。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="84"/>
        <source>Synchronisation: GPUs wait %1% of the step for the slowest one (stragglers, jitter).</source>
        <comment>bottleneck</comment>
        <translation>同步：GPU 有 %1% 的步时间在等待最慢的那个（慢节点、抖动）。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="85"/>
        <source>Synchronisation: GPUs wait %1% of the step for the slowest one (stragglers, jitter), mostly %2.</source>
        <comment>bottleneck; %2 = a timeline label such as 'waiting for GPU 3 (...)'</comment>
        <translation>同步：GPU 有 %1% 的步时间在等待最慢的那个（慢节点、抖动），主要是%2。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="86"/>
        <source>The data loader starves the GPUs for %1% of the step; add loader workers before adding GPUs.</source>
        <comment>bottleneck</comment>
        <translation>数据加载器让 GPU 在 %1% 的步时间内等数据；先增加加载工作进程，再增加 GPU。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="87"/>
        <source>Pipeline sends between stages block the GPUs for %1% of the step; fewer stages or faster links between them help.</source>
        <comment>bottleneck</comment>
        <translation>阶段间的流水线发送使 GPU 阻塞 %1% 的步时间；减少阶段数或加快阶段间互连会有帮助。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="92"/>
        <source>Context-parallel key/value exchange over %1 is exposed for %2% of the step; longer sequences per GPU or a context group inside the node hide it behind attention.</source>
        <comment>bottleneck; %1 = link name</comment>
        <translation>上下文并行的键/值交换经由 %1 暴露的时间占每步的 %2%；每块 GPU 上更长的序列或节点内的上下文组能把它隐藏在注意力计算之后。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="93"/>
        <source>Routing imbalance: GPUs wait %1% of the step for the busiest expert; balanced routing (auxiliary loss or bias) or a capacity factor shortens it.</source>
        <comment>bottleneck</comment>
        <translation>路由不均衡：GPU 有 %1% 的步时间在等待最忙的专家；均衡路由（辅助损失或偏置）或容量因子可以缩短等待。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="94"/>
        <source>It does not fit: %1 GiB per GPU against %2 GiB.</source>
        <comment>bottleneck, memory</comment>
        <translation>显存放不下：每块 GPU 需要 %1 GiB，而只有 %2 GiB。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="104"/>
        <source>expert all-to-all</source>
        <comment>bottleneck: the largest loss is ...</comment>
        <translation>专家 all-to-all</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="105"/>
        <source>context-parallel exchange</source>
        <comment>bottleneck: the largest loss is ...</comment>
        <translation>上下文并行交换</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="106"/>
        <source>waiting for the busiest expert</source>
        <comment>bottleneck: the largest loss is ...</comment>
        <translation>等待最忙的专家</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="110"/>
        <source>Linear scaling rule (Goyal et al. 2017): if the global batch grows k-fold to keep more GPUs busy, multiply the learning rate by k and warm it up over the first ~5 epochs; this scenario keeps the global batch at %1.</source>
        <comment>cost advice</comment>
        <translation>线性缩放规则（Goyal 等，2017）：若为让更多 GPU 保持忙碌而将全局批大小扩大 k 倍，则将学习率乘以 k，并在前约 5 个 epoch 内预热；本场景的全局批大小保持为 %1。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="111"/>
        <source>Data loader: each GPU consumes about %1 samples/s; at %2 samples/s per worker it needs %3 workers (has %4).</source>
        <comment>cost advice</comment>
        <translation>数据加载器：每块 GPU 每秒约消耗 %1 个样本；按每个工作进程 %2 样本/s 计，需要 %3 个工作进程（当前 %4 个）。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="112"/>
        <source>Data loader: start with 4 workers per GPU (PyTorch rule of thumb) and raise until GPU utilisation stops rising, at most the CPU cores per GPU.</source>
        <comment>cost advice</comment>
        <translation>数据加载器：从每块 GPU 4 个工作进程起步（PyTorch 经验法则），逐步增加直到 GPU 利用率不再上升，最多为每块 GPU 分到的 CPU 核数。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="98"/>
        <source>data-parallel exchange</source>
        <comment>bottleneck: the largest loss is ...</comment>
        <translation>数据并行通信</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="73"/>
        <source>several items merged, mostly %1 (timeline simplified: items closer than its merge step stay merged at any zoom; the GPUs of the first data-parallel replica keep every item)</source>
        <comment>timeline segment of a simplified timeline; %1 = a legend entry such as 'PP send/recv'</comment>
        <translation>%1为主（多个条目已合并；时间线已简化：间隔小于合并间隔的条目在任何缩放级别下都保持合并；第一个数据并行副本的 GPU 保留全部条目）</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="88"/>
        <source>The GPUs run hot (above %1 °C) and throttle their clocks by %2%.</source>
        <comment>bottleneck, thermal</comment>
        <translation>GPU 温度过高（超过 %1 °C），时钟降频 %2%。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="89"/>
        <source>%1 of %2 GPUs run hot (above %3 °C) and throttle their clocks by %4%.</source>
        <comment>bottleneck, thermal</comment>
        <translation>%2 块 GPU 中有 %1 块温度过高（超过 %3 °C），时钟降频 %4%。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="90"/>
        <source>Each GPU is a %1% slice of a physical GPU: the job gets %2x the compute of one whole GPU.</source>
        <comment>bottleneck, virtual GPUs</comment>
        <translation>每块 GPU 是物理 GPU 的 %1% 切片：整个任务获得的算力相当于 %2 块完整 GPU。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="91"/>
        <source>Expert all-to-all (token dispatch and combine) over %1 is exposed for %2% of the step; %3.</source>
        <comment>bottleneck; %1 = link name, %3 = what would hide it</comment>
        <translation>专家 all-to-all（token 分发与合并）经由 %1 暴露，占每步 %2%；%3。</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="92"/>
        <source>overlap with another micro-batch</source>
        <comment>bottleneck: a remedy for the experts' all-to-all</comment>
        <translation>与另一微批次重叠</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="92"/>
        <source>DeepEP's per-node dispatch</source>
        <comment>bottleneck: a remedy for the experts' all-to-all</comment>
        <translation>DeepEP 的按节点分发</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="92"/>
        <source>experts inside the NVLink domain</source>
        <comment>bottleneck: a remedy for the experts' all-to-all</comment>
        <translation>把专家放在 NVLink 域内</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="92"/>
        <source>%1 hides it</source>
        <comment>bottleneck: one remedy</comment>
        <translation>%1可将其隐藏</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="92"/>
        <source>%1 or %2 hide it</source>
        <comment>bottleneck: two remedies</comment>
        <translation>%1或%2可将其隐藏</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="92"/>
        <source>%1, %2 or %3 hide it</source>
        <comment>bottleneck: three remedies</comment>
        <translation>%1、%2或%3可将其隐藏</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="92"/>
        <source>faster links between the experts' GPUs shorten it</source>
        <comment>bottleneck: every remedy already in use</comment>
        <translation>专家所在 GPU 之间更快的链路可将其缩短</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="99"/>
        <source>tensor-parallel all-reduces</source>
        <comment>bottleneck: the largest loss is ...</comment>
        <translation>张量并行 all-reduce</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="100"/>
        <source>pipeline bubble</source>
        <comment>bottleneck: the largest loss is ...</comment>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="101"/>
        <source>waiting for the slowest GPU</source>
        <comment>bottleneck: the largest loss is ...</comment>
        <translation>等待最慢的 GPU</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="102"/>
        <source>data loading</source>
        <comment>bottleneck: the largest loss is ...</comment>
        <translation>数据加载</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="103"/>
        <source>pipeline sends</source>
        <comment>bottleneck: the largest loss is ...</comment>
        <translation>流水线发送</translation>
    </message>
    <message>
        <location filename="../../views/model_text.cpp" line="115"/>
        <source>%1 %2</source>
        <comment>two sentences in a row</comment>
        <translation>%1%2</translation>
    </message>
    <message>
        <source>It does not fit: %1 GiB per GPU against %2 GiB; %3 would fit it in %4 GiB, %5.</source>
        <comment>bottleneck, memory; %3 = a change such as 'full recompute', %5 = its cost such as 'with a step 12% longer'</comment>
        <translation>显存放不下：每块 GPU 需要 %1 GiB，而只有 %2 GiB；%3 可以放下（%4 GiB），%5。</translation>
    </message>
    <message>
        <source>It may not fit: %1 GiB per GPU against %2 GiB, within the model's %3% memory error.</source>
        <comment>bottleneck, memory near the capacity; %3 = the model's memory error in percent</comment>
        <translation>可能放不下：每块 GPU 需要 %1 GiB，而只有 %2 GiB，差距在模型 %3% 的显存误差之内。</translation>
    </message>
    <message>
        <source>It may not fit: %1 GiB per GPU against %2 GiB, within the model's %3% memory error; %4 would fit it in %5 GiB, %6.</source>
        <comment>bottleneck, memory near the capacity; %3 = the model's memory error in percent, %4 = a change such as 'full recompute', %6 = its cost such as 'with a step 12% longer'</comment>
        <translation>可能放不下：每块 GPU 需要 %1 GiB，而只有 %2 GiB，差距在模型 %3% 的显存误差之内；%4 可以放下（%5 GiB），%6。</translation>
    </message>
    <message>
        <source>selective recompute</source>
        <comment>bottleneck, memory remedy</comment>
        <translation>选择性重计算</translation>
    </message>
    <message>
        <source>recomputing MLA's up-projections (recompute_modules mla_up_proj)</source>
        <comment>bottleneck, memory remedy</comment>
        <translation>重计算 MLA 上投影（recompute_modules mla_up_proj）</translation>
    </message>
    <message>
        <source>full recompute</source>
        <comment>bottleneck, memory remedy</comment>
        <translation>完全重计算</translation>
    </message>
    <message>
        <source>ZeRO stage %1</source>
        <comment>bottleneck, memory remedy</comment>
        <translation>ZeRO 阶段 %1</translation>
    </message>
    <message>
        <source>micro-batch %1</source>
        <comment>bottleneck, memory remedy</comment>
        <translation>微批次 %1</translation>
    </message>
    <message>
        <source>at the same step time</source>
        <comment>bottleneck, memory remedy's cost</comment>
        <translation>每步时间不变</translation>
    </message>
    <message>
        <source>with a step %1% longer</source>
        <comment>bottleneck, memory remedy's cost</comment>
        <translation>每步时间长 %1%</translation>
    </message>
    <message>
        <source>with a step %1% shorter</source>
        <comment>bottleneck, memory remedy's cost</comment>
        <translation>每步时间短 %1%</translation>
    </message>
    <message>
        <source>%1 would fit it in %2 GiB, %3</source>
        <comment>memory remedy: %1 = a change such as 'full recompute', %3 = its cost</comment>
        <translation>%1 可以放下（%2 GiB），%3</translation>
    </message>
</context>
<context>
    <name>Options</name>
    <message>
        <location filename="../../app/gui/options.cpp" line="26"/>
        <source>ScaleScope: why more GPUs do not make training proportionally faster.</source>
        <translation>ScaleScope：为什么增加 GPU 不能让训练成比例地变快。</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="32"/>
        <source>Render the window to a PNG file and exit.</source>
        <translation>将窗口渲染为 PNG 文件后退出。</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="35"/>
        <source>Tab to show: %1.</source>
        <translation>要显示的标签页：%1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="146"/>
        <source>--settings: '%1' is not a regular file; allowed: a settings file or a new name</source>
        <translation>--settings：'%1' 不是普通文件；允许：设置文件或新的文件名</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="40"/>
        <source>Language: en or zh_CN (default: settings, then the system locale).</source>
        <translation>语言：en 或 zh_CN（默认：先看设置，再看系统区域设置）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="45"/>
        <source>Window size, e.g. 1600x1000.</source>
        <translation>窗口大小，例如 1600x1000。</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="49"/>
        <source>Start in presentation mode (F5).</source>
        <translation>以演示模式启动（F5）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="52"/>
        <source>Use this settings file (ini) instead of the user's settings.</source>
        <translation>使用此设置文件（ini）代替用户设置。</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="57"/>
        <source>Do not offer to restore unsaved work.</source>
        <translation>不提示恢复未保存的工作。</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="60"/>
        <source>Open a PyTorch profiler trace (.json or .json.gz) as the measured run beside the scenario; repeat it for each rank.</source>
        <translation>将 PyTorch profiler 跟踪（.json 或 .json.gz）作为实测运行在场景旁打开；每个 rank 重复一次此选项。</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="72"/>
        <source>Scenario file to open (spec/scenario.md).</source>
        <translation>要打开的场景文件（spec/scenario.md）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="91"/>
        <source>FILE: at most one scenario file, got %1</source>
        <translation>FILE：最多一个场景文件，实际为 %1 个</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="99"/>
        <source>--trace: a file name is needed</source>
        <translation>--trace：需要一个文件名</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="104"/>
        <source>--screenshot: a file name is needed</source>
        <translation>--screenshot：需要一个文件名</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="110"/>
        <source>--tab: '%1' is not one of %2</source>
        <translation>--tab：'%1' 不是 %2 之一</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="119"/>
        <source>--lang: '%1' is not en or zh_CN</source>
        <translation>--lang：'%1' 不是 en 或 zh_CN</translation>
    </message>
    <message>
        <location filename="../../app/gui/options.cpp" line="130"/>
        <source>--size: '%1' is not WxH with 320-7680 x 240-4320 pixels</source>
        <translation>--size：'%1' 不是 WxH 格式（宽 320-7680 × 高 240-4320 像素）</translation>
    </message>
</context>
<context>
    <name>Palette</name>
    <message>
        <location filename="../../views/palette.cpp" line="120"/>
        <location filename="../../views/palette.cpp" line="206"/>
        <source>Compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="122"/>
        <source>TP comm</source>
        <translation>TP 通信</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="124"/>
        <source>DP comm</source>
        <translation>DP 通信</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="126"/>
        <source>PP send/recv</source>
        <translation>PP 发送/接收</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="128"/>
        <location filename="../../views/palette.cpp" line="214"/>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="130"/>
        <location filename="../../views/palette.cpp" line="216"/>
        <source>Waiting</source>
        <translation>等待</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="132"/>
        <location filename="../../views/palette.cpp" line="218"/>
        <source>Data loading</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="134"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="136"/>
        <source>Expert all-to-all</source>
        <translation>专家 all-to-all</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="138"/>
        <source>Context exchange</source>
        <translation>上下文交换</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="147"/>
        <source>Forward and backward kernels</source>
        <translation>前向与反向内核</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="149"/>
        <source>Tensor-parallel all-reduce / all-gather per layer</source>
        <translation>每层的张量并行 all-reduce / all-gather</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="152"/>
        <source>Data-parallel gradient all-reduce / ZeRO traffic</source>
        <translation>数据并行梯度 all-reduce / ZeRO 通信</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="155"/>
        <source>Pipeline point-to-point activations and gradients</source>
        <translation>流水线点对点传输的激活与梯度</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="158"/>
        <source>Idle: the pipeline schedule has no work here</source>
        <translation>空闲：流水线调度在此处没有任务</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="161"/>
        <source>Idle: waiting for another GPU or a transfer</source>
        <translation>空闲：等待其他 GPU 或一次传输</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="164"/>
        <source>Idle: waiting for the data loader</source>
        <translation>空闲：等待数据加载器</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="166"/>
        <source>Optimizer step (weights update)</source>
        <translation>优化器步骤（更新权重）</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="168"/>
        <source>Mixture of experts: tokens dispatched to their experts and combined back</source>
        <translation>混合专家：token 分发到各自的专家，再合并回来</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="171"/>
        <source>Context parallelism: key/value blocks passed around the sequence's GPUs</source>
        <translation>上下文并行：键/值块在共享序列的 GPU 之间环形传递</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="208"/>
        <source>Tensor-parallel communication</source>
        <translation>张量并行通信</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="210"/>
        <source>Exposed data-parallel communication</source>
        <translation>暴露的数据并行通信</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="212"/>
        <source>Exposed pipeline communication</source>
        <translation>暴露的流水线通信</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="220"/>
        <source>Exposed expert all-to-all</source>
        <translation>暴露的专家 all-to-all</translation>
    </message>
    <message>
        <location filename="../../views/palette.cpp" line="222"/>
        <source>Exposed context exchange</source>
        <translation>暴露的上下文交换</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../../app/gui/recompute.cpp" line="32"/>
        <source>A collective-only scenario has no training step to draw; use scalescope-cli simulate for its bandwidth.</source>
        <translation>仅含集合通信的场景没有可绘制的训练步；请用 scalescope-cli simulate 查看其带宽。</translation>
    </message>
</context>
<context>
    <name>ResultViews</name>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="139"/>
        <source>No result yet.</source>
        <translation>尚无结果。</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="144"/>
        <source>%1: </source>
        <translation>%1: </translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="145"/>
        <source>This scenario cannot be computed.
%1%2</source>
        <translation>无法计算此场景。
%1%2</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="195"/>
        <source>DP communication</source>
        <translation>DP 通信</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="197"/>
        <source>TP communication</source>
        <translation>TP 通信</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="199"/>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="201"/>
        <source>Point-to-point</source>
        <translation>点对点</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="203"/>
        <source>Stragglers and jitter</source>
        <translation>慢节点与抖动</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="205"/>
        <source>Data loading</source>
        <translation>数据加载</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="207"/>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="209"/>
        <source>Compute and latency</source>
        <translation>计算与延迟</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="211"/>
        <source>Expert all-to-all</source>
        <translation>专家 all-to-all</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="213"/>
        <source>Context exchange</source>
        <translation>上下文交换</translation>
    </message>
    <message>
        <location filename="../../views/charts/chart_common.cpp" line="215"/>
        <source>Busiest expert</source>
        <translation>最忙的专家</translation>
    </message>
</context>
<context>
    <name>TimelineWidget</name>
    <message>
        <location filename="../../views/timeline/timeline_format.cpp" line="16"/>
        <source>ns</source>
        <translation>ns</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_format.cpp" line="18"/>
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_format.cpp" line="20"/>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_format.cpp" line="21"/>
        <source>s</source>
        <translation>s</translation>
    </message>
</context>
<context>
    <name>scalescope::Application</name>
    <message>
        <location filename="../../app/gui/app.cpp" line="49"/>
        <source>the claims gallery could not be loaded: %1</source>
        <translation>无法加载论断库：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="97"/>
        <source>the Chinese translation is missing from this build</source>
        <translation>此版本缺少中文翻译</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="159"/>
        <source>cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="162"/>
        <source>%1

%2</source>
        <translation>%1

%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="198"/>
        <source>Cannot open scenario</source>
        <translation>无法打开场景</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="230"/>
        <source>the model did not finish within %1 s</source>
        <translation>模型未能在 %1 s 内完成</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="243"/>
        <source>cannot write %1: the PNG could not be encoded</source>
        <translation>无法写入 %1：无法编码 PNG 图像</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="303"/>
        <source>Damaged autosave</source>
        <translation>自动保存已损坏</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="304"/>
        <source>Unsaved work from a previous session was found but cannot be used (%1). It was not loaded and is kept as %2.</source>
        <translation>发现了上次会话未保存的工作，但无法使用（%1）。它没有被载入，已保留为 %2。</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="310"/>
        <source>Unsaved work not opened</source>
        <translation>未能打开未保存的工作</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="311"/>
        <source>Unsaved work from a previous session cannot be opened: %1. It was not loaded, and nothing was deleted: it is kept, unchanged, as %2. Correct that value in a text editor, then open the file.</source>
        <translation>上次会话未保存的工作无法打开：%1。它没有被载入，也没有删除任何内容：它原样保留为 %2。请在文本编辑器中改正这个值，然后再打开该文件。</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="333"/>
        <source>Its plan breaks a rule of scenario files (%1). It opens as it was left, with the problem shown beside its control; it can be saved once that is fixed.</source>
        <translation>它的方案违反了场景文件的一条规则（%1）。它会按离开时的样子打开，问题显示在对应的控件旁；改正之后即可保存。</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="339"/>
        <source>Restore unsaved work?</source>
        <translation>恢复未保存的工作？</translation>
    </message>
    <message>
        <location filename="../../app/gui/app.cpp" line="321"/>
        <source>ScaleScope did not close normally. Restore the unsaved changes to “%1” from %2?</source>
        <translation>ScaleScope 上次未正常关闭。是否从 %2 恢复对“%1”的未保存更改？</translation>
    </message>
</context>
<context>
    <name>scalescope::BreakdownView</name>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="73"/>
        <source>&amp;Show:</source>
        <translation>显示(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="76"/>
        <source>Seconds per step</source>
        <translation>每步秒数</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="77"/>
        <source>Share of the step (%)</source>
        <translation>占单步比例（%）</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="89"/>
        <source>Where the step time goes</source>
        <translation>单步时间花在哪里</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="89"/>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="102"/>
        <location filename="../../views/charts/breakdown_view.cpp" line="291"/>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="118"/>
        <source>Gain</source>
        <translation>收益</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="242"/>
        <source>No scaling sweep for this scenario.</source>
        <translation>此场景没有扩展扫描。</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="263"/>
        <source>%1 ✗</source>
        <comment>GPU count whose run does not fit in memory</comment>
        <translation>%1 ✗</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="291"/>
        <source>GPUs (✗: out of memory)</source>
        <translation>GPU 数（✗：显存不足）</translation>
    </message>
    <message>
        <source>%1 ?</source>
        <comment>GPU count whose run may not fit in memory</comment>
        <translation>%1 ?</translation>
    </message>
    <message>
        <source>GPUs (✗: out of memory; ?: may not fit, within the model's memory error)</source>
        <translation>GPU 数（✗：显存不足；?：可能放不下，在模型的显存误差之内）</translation>
    </message>
    <message>
        <source>GPUs (?: may not fit, within the model's memory error)</source>
        <translation>GPU 数（?：可能放不下，在模型的显存误差之内）</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="295"/>
        <source>Where the step time goes (% of the step)</source>
        <translation>单步时间花在哪里（占单步的百分比）</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="296"/>
        <source>Where the step time goes (seconds per step)</source>
        <translation>单步时间花在哪里（每步秒数）</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="306"/>
        <source>Node link</source>
        <translation>节点内链路</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="308"/>
        <source>Network</source>
        <translation>节点间网络</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="310"/>
        <source>Pipeline bubble</source>
        <translation>流水线气泡</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="312"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="314"/>
        <source>Slowest GPU</source>
        <translation>最慢的 GPU</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="316"/>
        <source>Busiest expert</source>
        <translation>最忙的专家</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="318"/>
        <source>Data loader</source>
        <translation>数据加载器</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="346"/>
        <source>What if this were free</source>
        <translation>假如这一项不耗时</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="347"/>
        <source>Step shorter by (% of the step)</source>
        <translation>步时间缩短（占步时间的 %）</translation>
    </message>
    <message>
        <location filename="../../views/charts/breakdown_view.cpp" line="348"/>
        <source>Step shorter by (s)</source>
        <translation>步时间缩短 (s)</translation>
    </message>
</context>
<context>
    <name>scalescope::CalibrationPage</name>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="64"/>
        <source>Select one profile to inspect it, several (Ctrl+click) to compare them</source>
        <translation>选择一个配置文件查看详情，选择多个（Ctrl+单击）进行比较</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="82"/>
        <source>Apply to scenario</source>
        <translation>应用到场景</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="84"/>
        <source>Use datasheet</source>
        <translation>使用规格表数据</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="86"/>
        <source>Delete…</source>
        <translation>删除…</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="94"/>
        <source>Measure this machine…</source>
        <translation>测量本机…</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="96"/>
        <source>Runs gpuprobe on the local GPUs and saves a profile</source>
        <translation>在本地 GPU 上运行 gpuprobe 并保存配置文件</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="97"/>
        <source>Quick (≈30 s)</source>
        <translation>快速（≈30 s）</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="100"/>
        <source>Import nccl-tests logs…</source>
        <translation>导入 nccl-tests 日志…</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="102"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="139"/>
        <source>&lt;h3&gt;No calibration profile selected&lt;/h3&gt;&lt;p&gt;The model uses datasheet figures for your GPUs and links. A calibration profile replaces them with figures measured on your own machine: GEMM throughput by size, memory bandwidth, kernel launch overhead, host and peer-to-peer bandwidth, and NCCL collectives.&lt;/p&gt;&lt;p&gt;To make one, press &lt;b&gt;Measure this machine&lt;/b&gt; on a computer with NVIDIA GPUs, or run &lt;code&gt;gpuprobe --output my-gpus.json&lt;/code&gt; there (start it with &lt;code&gt;mpirun&lt;/code&gt; to measure collectives across nodes), or import the logs of nccl-tests your cluster already produced. Then select the profile and press &lt;b&gt;Apply to scenario&lt;/b&gt;.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;未选择校准配置文件&lt;/h3&gt;&lt;p&gt;模型对你的 GPU 和互连使用规格表数据。校准配置文件会用在你自己机器上实测的数据替代它们：按尺寸的 GEMM 吞吐量、显存带宽、内核启动开销、主机与点对点带宽，以及 NCCL 集合通信。&lt;/p&gt;&lt;p&gt;要生成配置文件，请在装有 NVIDIA GPU 的计算机上点击&lt;b&gt;测量本机&lt;/b&gt;，或在那里运行 &lt;code&gt;gpuprobe --output my-gpus.json&lt;/code&gt;（用 &lt;code&gt;mpirun&lt;/code&gt; 启动可测量跨节点的集合通信），或导入集群已生成的 nccl-tests 日志。然后选择该配置文件并点击&lt;b&gt;应用到场景&lt;/b&gt;。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="170"/>
        <source>No GEMM throughput in the selected profiles: they measured collectives only (an nccl-tests log, or a run whose GEMM tests were skipped).</source>
        <translation>所选配置文件中没有 GEMM 吞吐量：它们只测了集合通信（nccl-tests 日志，或跳过了 GEMM 测试的运行）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="214"/>
        <source>nccl-tests logs</source>
        <translation>nccl-tests 日志</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="214"/>
        <source>Logs (*.log *.txt *.out);;All (*)</source>
        <translation>日志 (*.log *.txt *.out);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="223"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="303"/>
        <source>The scenario uses datasheet figures.</source>
        <translation>场景使用规格表数据。</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="304"/>
        <source>The scenario uses the profile %1.</source>
        <translation>场景使用配置文件 %1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="373"/>
        <source>GEMM throughput against size (first GPU of each profile)</source>
        <translation>GEMM 吞吐量随尺寸变化（每个配置文件的第一块 GPU）</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="380"/>
        <source>GEMM work, 2·m·n·k (FLOP)</source>
        <translation>GEMM 工作量，2·m·n·k（FLOP）</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="383"/>
        <source>TFLOP/s</source>
        <translation>TFLOP/s</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="439"/>
        <source>Starting gpuprobe…</source>
        <translation>正在启动 gpuprobe…</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="446"/>
        <source>Reading nccl-tests logs…</source>
        <translation>正在读取 nccl-tests 日志…</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="497"/>
        <source>Nothing was measured (no GPU was found or every test was skipped), so %1 was deleted again: no profile was kept.</source>
        <translation>什么都没有测到（没有找到 GPU，或所有测试都被跳过），因此已再次删除 %1：没有保留配置文件。</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="519"/>
        <source>Delete profile</source>
        <translation>删除配置文件</translation>
    </message>
    <message>
        <location filename="../../app/gui/calibration_page.cpp" line="520"/>
        <source>Delete the profile %1? This cannot be undone.</source>
        <translation>删除配置文件 %1？此操作无法撤销。</translation>
    </message>
</context>
<context>
    <name>scalescope::ControlPanel</name>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="12"/>
        <source>Hardware</source>
        <translation>硬件</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="16"/>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="242"/>
        <source>GPU model from the catalog, with its memory</source>
        <translation>目录中的 GPU 型号及其显存</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="18"/>
        <source>%1, %2 GB</source>
        <translation>%1，%2 GB</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="20"/>
        <source>%1: %2 GB at %3 GB/s, %4 TFLOP/s BF16 dense</source>
        <translation>%1：%2 GB，%3 GB/s，%4 TFLOP/s BF16 稠密</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="27"/>
        <source>&amp;GPU</source>
        <translation>GPU(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="35"/>
        <source>Total GPU count on a log scale, 1-1024 (powers of two). Sets the nodes at fixed GPUs per node, or the GPUs of one node below a full node.</source>
        <translation>GPU 总数，对数刻度，1-1024（2 的幂）。在每节点 GPU 数固定时设置节点数，不足一个整节点时设置单节点的 GPU 数。</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="42"/>
        <source>GPU &amp;count</source>
        <translation>GPU 数(&amp;c)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="45"/>
        <source>Nodes in the cluster, 1-65536</source>
        <translation>集群中的节点数，1-65536</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="46"/>
        <source>&amp;Nodes</source>
        <translation>节点(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="48"/>
        <source>GPUs in each node, 1-16</source>
        <translation>每个节点的 GPU 数，1-16</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="49"/>
        <source>GP&amp;Us per node</source>
        <translation>每节点 GPU(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="53"/>
        <source>Link between the GPUs of one node (GB/s per GPU per direction)</source>
        <translation>节点内 GPU 之间的互连（每 GPU 每方向 GB/s）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="57"/>
        <source>%1 GB/s per GPU per direction, %2 µs</source>
        <translation>每 GPU 每方向 %1 GB/s，%2 µs</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="62"/>
        <source>&amp;Intra-node</source>
        <translation>节点内(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="65"/>
        <source>Network between nodes (Gb/s per NIC)</source>
        <translation>节点间网络（每 NIC Gb/s）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="70"/>
        <source>%1 Gb/s per NIC, %2 µs</source>
        <translation>每 NIC %1 Gb/s，%2 µs</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="73"/>
        <source>Net&amp;work</source>
        <translation>网络(&amp;w)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="77"/>
        <source>Network interfaces per node, shared by its GPUs, 1-64</source>
        <translation>每节点的网卡数，由其 GPU 共享，1-64</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="78"/>
        <source>NICs per node</source>
        <translation>每节点 NIC</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="85"/>
        <source>How the GPUs attach to the host. It bounds GPUs without peer-to-peer (GeForce), whose traffic goes through host memory: behind one PCIe switch they share its uplink; on CPU root ports each CPU socket's memory bandwidth is the limit.</source>
        <translation>GPU 如何连接到主机。它限制没有点对点访问的 GPU（GeForce），其流量经过主机内存：位于同一 PCIe 交换机之后时共享其上行链路；接在 CPU 根端口上时，每个 CPU 插槽的内存带宽是上限。</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="88"/>
        <source>One PCIe switch</source>
        <translation>单个 PCIe 交换机</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="90"/>
        <source>CPU root ports</source>
        <translation>CPU 根端口</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="92"/>
        <source>PCIe &amp;topology</source>
        <translation>PCIe 拓扑(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="96"/>
        <source>Memory bandwidth of one CPU socket, 0-5000 GB/s; 0 uses the figure of the intra-node link's server generation. Bounds GPUs without peer-to-peer on CPU root ports.</source>
        <translation>单个 CPU 插槽的内存带宽，0-5000 GB/s；0 表示采用节点内互连所属服务器世代的数值。限制接在 CPU 根端口上、没有点对点访问的 GPU。</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="100"/>
        <source>platform default</source>
        <translation>平台默认值</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="101"/>
        <source>Host memory per socket</source>
        <translation>每插槽主机内存</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="106"/>
        <source> W</source>
        <translation> W</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="107"/>
        <source>Power limit</source>
        <translation>功耗上限</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="109"/>
        <source> nodes</source>
        <translation> 个节点</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="110"/>
        <source>one node</source>
        <translation>单个节点</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="111"/>
        <source>NVLink domain</source>
        <translation>NVLink 域</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="114"/>
        <source>CPU cores per node, 0-4096; they bound a data loader that decodes with a catalog pipeline. 0: not stated</source>
        <translation>每节点 CPU 核数，0-4096；使用目录中解码流水线的数据加载器受其限制。0：未说明</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="116"/>
        <source>not stated</source>
        <translation>未说明</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="117"/>
        <source>CPU cores per node</source>
        <translation>每节点 CPU 核数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="140"/>
        <source>%1; power limit back to its TDP</source>
        <translation>%1；功耗上限恢复为其 TDP</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="192"/>
        <source>Set PCIe topology to %1</source>
        <translation>将 PCIe 拓扑设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="199"/>
        <source>Set power limit to the TDP</source>
        <translation>将功耗上限设为 TDP</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="199"/>
        <source>Set power limit to %1 W</source>
        <translation>将功耗上限设为 %1 W</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="206"/>
        <source>Set NVLink domain to %1 GPUs</source>
        <translation>将 NVLink 域设为 %1 块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="213"/>
        <source>Set CPU cores per node to %1</source>
        <translation>将每节点 CPU 核数设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="214"/>
        <source>Set CPU cores per node to not stated</source>
        <translation>将每节点 CPU 核数设为未说明</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="221"/>
        <source>Set host memory to %1 GB/s per socket</source>
        <translation>将主机内存设为每插槽 %1 GB/s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="222"/>
        <source>Set host memory to the platform default</source>
        <translation>将主机内存设为平台默认值</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="12"/>
        <source>Model and batch</source>
        <translation>模型与批次</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="17"/>
        <source>Model preset from the catalog, or a custom transformer</source>
        <translation>目录中的模型预设，或自定义 Transformer</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="21"/>
        <source>Transformer, %1 layers</source>
        <translation>Transformer，%1 层</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="22"/>
        <source>%1 layers</source>
        <translation>%1 层</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="25"/>
        <source>Custom transformer…</source>
        <translation>自定义 Transformer…</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="27"/>
        <source>&amp;Model</source>
        <translation>模型(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="30"/>
        <source>Transformer layers, 1-1024</source>
        <translation>Transformer 层数，1-1024</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="31"/>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="32"/>
        <source>Hidden size, 1-131072</source>
        <translation>隐藏层大小，1-131072</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="34"/>
        <source>Hidden</source>
        <translation>隐藏层</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="35"/>
        <source>Attention heads, 1-1024</source>
        <translation>注意力头数，1-1024</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="36"/>
        <source>Heads</source>
        <translation>头数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="39"/>
        <source>Sequence length in tokens, 1-1048576</source>
        <translation>序列长度（token 数），1-1048576</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="39"/>
        <source> tokens</source>
        <translation> token</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="40"/>
        <source>Sequence</source>
        <translation>序列</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="41"/>
        <source>Vocabulary size, 1-1000000</source>
        <translation>词表大小，1-1000000</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="42"/>
        <source>Vocabulary</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="45"/>
        <source>What the last layer predicts: the vocabulary for every token (pre-training a language model), or a start and an end logit per token (question answering, as BERT on SQuAD)</source>
        <translation>最后一层预测什么：每个词元在整个词表上的输出（预训练语言模型），或每个词元的起始与结束 logit（问答，如 BERT 在 SQuAD 上）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="48"/>
        <source>Language model</source>
        <translation>语言模型</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="49"/>
        <source>Answer span</source>
        <translation>答案区间</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="50"/>
        <source>Output head</source>
        <translation>输出头</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="57"/>
        <source>Global batch on a log scale, 1-65536 samples (powers of two)</source>
        <translation>全局批大小，对数刻度，1-65536 个样本（2 的幂）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="60"/>
        <source>Samples per optimizer step, all GPUs together, 1-1000000000</source>
        <translation>每个优化器步的样本数，所有 GPU 合计，1-1000000000</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="61"/>
        <source>Global batch, exact</source>
        <translation>全局批大小（精确值）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="64"/>
        <source>Global &amp;batch</source>
        <translation>全局批大小(&amp;b)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="71"/>
        <source>Samples per forward/backward pass on one GPU, 0 = auto (global batch / data degree), 0-1000000000</source>
        <translation>单块 GPU 每次前向/反向的样本数，0 = 自动（全局批大小 / 数据并行度），0-1000000000</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="73"/>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="62"/>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="74"/>
        <source>Micro-batc&amp;h</source>
        <translation>微批次(&amp;h)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="79"/>
        <source>Arithmetic precision (FP16, BF16 and FP8 are mixed precision)</source>
        <translation>计算精度（FP16、BF16 和 FP8 为混合精度）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="80"/>
        <source>FP32</source>
        <translation>FP32</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="81"/>
        <source>TF32</source>
        <translation>TF32</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="82"/>
        <source>FP16 mixed</source>
        <translation>FP16 混合</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="83"/>
        <source>BF16 mixed</source>
        <translation>BF16 混合</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="84"/>
        <source>FP8 mixed</source>
        <translation>FP8 混合</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="85"/>
        <source>&amp;Precision</source>
        <translation>精度(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="90"/>
        <source>How FP8 tensors get their scales: the software stack's own recipe, Transformer Engine's delayed or current scaling, or torchao's tensorwise or rowwise scaling; each costs the casts it makes</source>
        <translation>FP8 张量如何得到缩放因子：软件栈自身的方案、Transformer Engine 的延迟缩放或当前缩放，或 torchao 的按张量或按行缩放；每种方案计入它所做的类型转换开销</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="93"/>
        <source>The stack's</source>
        <translation>软件栈默认</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="94"/>
        <source>Delayed (Transformer Engine)</source>
        <translation>延迟缩放（Transformer Engine）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="95"/>
        <source>Current (Transformer Engine)</source>
        <translation>当前缩放（Transformer Engine）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="96"/>
        <source>Tensorwise (torchao)</source>
        <translation>按张量（torchao）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="97"/>
        <source>Rowwise (torchao)</source>
        <translation>按行（torchao）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="98"/>
        <source>FP8 scaling</source>
        <translation>FP8 缩放</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="101"/>
        <source>Optimizer (sets its state memory)</source>
        <translation>优化器（决定其状态显存）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="102"/>
        <source>SGD</source>
        <translation>SGD</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="103"/>
        <source>Adam</source>
        <translation>Adam</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="104"/>
        <source>&amp;Optimizer</source>
        <translation>优化器(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="108"/>
        <source>Activation recomputation: less memory, more compute</source>
        <translation>激活重计算：省显存，多计算</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="117"/>
        <source>Transformer layers whose saved activations wait in host memory between forward and backward (Megatron-Core CPU offloading), copied over the GPU's host link beside the compute; no pipeline parallelism, no recompute; 0 = none, 0-100000 (fewer than the model's layers)</source>
        <translation>在前向与反向之间把所保存的激活放在主机内存中的 Transformer 层数（Megatron-Core CPU 卸载），经 GPU 与主机之间的链路拷贝，与计算并行；不能与流水线并行或重计算同时使用；0 = 不卸载，0-100000（须少于模型层数）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="121"/>
        <source>Offloaded layers</source>
        <translation>卸载层数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="109"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="110"/>
        <source>Selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="111"/>
        <source>Full</source>
        <translation>完全</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="112"/>
        <source>&amp;Recompute</source>
        <translation>重计算(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="115"/>
        <source>&amp;Flash attention</source>
        <translation>Flash Attention(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="116"/>
        <source>Fused attention kernels: no sequence² tensors in memory</source>
        <translation>融合注意力内核：显存中不保存 序列² 大小的张量</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="120"/>
        <source>torch.compile</source>
        <translation>torch.compile</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="121"/>
        <source>The model compiled with torch.compile: elementwise chains fused into one kernel each, and the host launches from generated code</source>
        <translation>用 torch.compile 编译模型：每条逐元素运算链融合为一个内核，主机从生成的代码发起启动</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="128"/>
        <source>How a convolutional model's activations lie in memory: channels last (NHWC), what tensor cores take, or channels first (NCHW), PyTorch's default, which cuDNN transposes around every 16-bit convolution</source>
        <translation>卷积模型的激活在显存中的排布：通道在后（NHWC），即张量核心所用的格式；或通道在前（NCHW），PyTorch 的默认格式，cuDNN 会在每个 16 位卷积前后对其转置</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="131"/>
        <source>Channels last (NHWC)</source>
        <translation>通道在后（NHWC）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="132"/>
        <source>Channels first (NCHW)</source>
        <translation>通道在前（NCHW）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="133"/>
        <source>&amp;Layout</source>
        <translation>排布(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="184"/>
        <source>Set output head to %1</source>
        <translation>将输出头设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="234"/>
        <source>Turn torch.compile on</source>
        <translation>开启 torch.compile</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="234"/>
        <source>Turn torch.compile off</source>
        <translation>关闭 torch.compile</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="239"/>
        <source>Set FP8 scaling to %1</source>
        <translation>将 FP8 缩放设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="245"/>
        <source>Set layout to %1</source>
        <translation>将排布设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="12"/>
        <source>Parallelism</source>
        <translation>并行</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="19"/>
        <source>Software stack: host cost per operation, what overlaps, defaults and the plans it can run</source>
        <translation>软件栈：主机每个操作的开销、哪些通信被重叠、默认设置以及它能运行的并行方案</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="21"/>
        <source>Auto (the stack that usually runs the plan)</source>
        <translation>自动（通常运行该方案的软件栈）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="25"/>
        <source>Software stac&amp;k</source>
        <translation>软件栈(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="48"/>
        <source>Parallel strategy: shows the degrees it uses and sets them to a fitting start</source>
        <translation>并行策略：显示其使用的并行度，并设为合适的初始值</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="50"/>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="51"/>
        <source>ZeRO-1</source>
        <translation>ZeRO-1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="52"/>
        <source>ZeRO-2</source>
        <translation>ZeRO-2</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="53"/>
        <source>ZeRO-3 (FSDP)</source>
        <translation>ZeRO-3 (FSDP)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="54"/>
        <source>Tensor</source>
        <translation>张量</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="55"/>
        <source>Pipeline</source>
        <translation>流水线</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="56"/>
        <source>3D hybrid</source>
        <translation>3D 混合</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="57"/>
        <source>&amp;Strategy</source>
        <translation>策略(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="60"/>
        <source>Data-parallel degree, 0 = auto (GPU count / (tensor × pipeline × context)), 0-131072</source>
        <translation>数据并行度，0 = 自动（GPU 数 / (张量 × 流水线 × 上下文)），0-131072</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="63"/>
        <source>&amp;Data</source>
        <translation>数据(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="64"/>
        <source>Tensor-parallel degree, 1-1024</source>
        <translation>张量并行度，1-1024</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="65"/>
        <source>&amp;Tensor</source>
        <translation>张量(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="67"/>
        <source>Pipeline-parallel degree (stages), 1-1024</source>
        <translation>流水线并行度（阶段数），1-1024</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="68"/>
        <source>Pipe&amp;line</source>
        <translation>流水线(&amp;l)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="70"/>
        <source>Context-parallel degree: GPUs sharing each sequence (long context), 1-1024</source>
        <translation>上下文并行度：共享每个序列的 GPU 数（长上下文），1-1024</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="72"/>
        <source>&amp;Context</source>
        <translation>上下文(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="82"/>
        <source>Expert-parallel degree: the routed experts split over this many GPUs, 1-1024</source>
        <translation>专家并行度：路由专家切分到这么多块 GPU 上，1-1024</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="84"/>
        <source>E&amp;xperts over</source>
        <translation>专家分布于(&amp;X)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="88"/>
        <source>How tokens reach their experts: NCCL all-to-all, or DeepEP's kernels that send each token once per node</source>
        <translation>token 到达专家的方式：NCCL all-to-all，或 DeepEP 内核（每个节点只发送一次 token）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="90"/>
        <source>NCCL all-to-all</source>
        <translation>NCCL all-to-all</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="91"/>
        <source>DeepEP</source>
        <translation>DeepEP</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="92"/>
        <source>Hybrid-EP (as DeepEP)</source>
        <translation>Hybrid-EP（同 DeepEP）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="92"/>
        <source>Dispatcher</source>
        <translation>分发器</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="95"/>
        <source>Overlap expert all-to-all</source>
        <translation>重叠专家 all-to-all</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="96"/>
        <source>Hide the experts' all-to-all behind another micro-batch's computation</source>
        <translation>把专家 all-to-all 隐藏在另一个微批次的计算之后</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="100"/>
        <source>Tokens of the busiest expert over the mean, 1-16: 1 = balanced routing (benchmarks force it); dropless routing with an auxiliary loss ran like 1.6 (Qwen3-235B on 256 H100)</source>
        <translation>最忙专家的 token 数与平均值之比，1-16：1 = 均衡路由（基准测试强制均衡）；带辅助损失的无丢弃路由实测约为 1.6（Qwen3-235B，256 块 H100）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="103"/>
        <source>Expert &amp;imbalance</source>
        <translation>专家不均衡(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="106"/>
        <source>ZeRO stage: what data parallelism shards</source>
        <translation>ZeRO 阶段：数据并行切分哪些内容</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="107"/>
        <source>0, none</source>
        <translation>0，无</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="108"/>
        <source>1, optimizer states</source>
        <translation>1，优化器状态</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="109"/>
        <source>2, + gradients</source>
        <translation>2，+ 梯度</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="110"/>
        <source>3, + parameters (FSDP)</source>
        <translation>3，+ 参数（FSDP）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="111"/>
        <source>&amp;ZeRO stage</source>
        <translation>ZeRO 阶段(&amp;Z)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="114"/>
        <source>Pipeline schedule</source>
        <translation>流水线调度</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="115"/>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="116"/>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="117"/>
        <source>Interleaved 1F1B</source>
        <translation>交错 1F1B</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="118"/>
        <source>Zero bubble (ZB-H1)</source>
        <translation>零气泡（ZB-H1）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="119"/>
        <source>Zero bubble V (ZB-V)</source>
        <translation>零气泡 V（ZB-V）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="120"/>
        <source>DualPipe (DeepSeek-V3)</source>
        <translation>DualPipe（DeepSeek-V3）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="121"/>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="125"/>
        <source>Model chunks per GPU for the interleaved schedule, 1-128</source>
        <translation>交错调度下每块 GPU 的模型块数，1-128</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="126"/>
        <source>&amp;Virtual stages</source>
        <translation>虚拟阶段(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="130"/>
        <source>Se&amp;quence parallel</source>
        <translation>序列并行(&amp;q)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="131"/>
        <source>Megatron sequence parallelism inside the tensor-parallel group</source>
        <translation>在张量并行组内使用 Megatron 序列并行</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="136"/>
        <source>Overlap tensor-parallel communication</source>
        <translation>重叠张量并行通信</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="137"/>
        <source>Tensor-parallel collectives pipelined with the GEMMs beside them (Megatron-Core's overlap, torchtitan's async TP); unchecked: they wait on the critical path. The software stack's own choice until you change it</source>
        <translation>张量并行的集合通信与相邻的 GEMM 流水化重叠（Megatron-Core 的重叠、torchtitan 的异步 TP）；不勾选时它们在关键路径上等待。在你修改之前沿用软件栈自己的选择</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="143"/>
        <source>Overlap gradient communication</source>
        <translation>重叠梯度通信</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="144"/>
        <source>Overlap gradient communication with the backward pass</source>
        <translation>让梯度通信与反向传播重叠</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="149"/>
        <source>Gradient bucket size, 0 = one all-reduce after the whole backward, 0-100000 MB</source>
        <translation>梯度桶大小，0 = 整个反向结束后做一次 all-reduce，0-100000 MB</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="151"/>
        <source> MB</source>
        <translation> MB</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="152"/>
        <source>one all-reduce</source>
        <translation>一次 all-reduce</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="153"/>
        <source>Bucket</source>
        <translation>桶</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="157"/>
        <source>Synchronous (a barrier every step) or asynchronous updates (stale gradients)</source>
        <translation>同步更新（每步一次屏障）或异步更新（过期梯度）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="159"/>
        <source>Synchronous</source>
        <translation>同步</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="160"/>
        <source>Asynchronous</source>
        <translation>异步</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="161"/>
        <source>Update</source>
        <translation>更新</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="15"/>
        <source>Effects</source>
        <translation>效应</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="20"/>
        <source>Random seed: the same seed gives the same timeline, 0-9007199254740992</source>
        <translation>随机种子：相同种子得到相同时间线，0-9007199254740992</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="22"/>
        <source>S&amp;eed</source>
        <translation>种子(&amp;e)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="27"/>
        <source>Relative standard deviation of each compute task's duration, 0-100 %</source>
        <translation>每个计算任务耗时的相对标准差，0-100 %</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="29"/>
        <location filename="../../views/controls/control_panel_effects.cpp" line="115"/>
        <location filename="../../views/controls/control_panel_effects.cpp" line="210"/>
        <source> %</source>
        <translation> %</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="31"/>
        <source>&amp;Jitter</source>
        <translation>抖动(&amp;J)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="37"/>
        <source>GPUs slower than the rest; select one to edit or remove it</source>
        <translation>比其余 GPU 慢的 GPU；选中一个以编辑或移除</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="39"/>
        <source>Stragglers</source>
        <translation>慢节点</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="41"/>
        <source>Index of the straggler GPU, 0-(GPUs - 1)</source>
        <translation>慢节点 GPU 的编号，0-(GPU 数 - 1)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="42"/>
        <source>Straggler GPU</source>
        <translation>慢节点 GPU</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="45"/>
        <source>How much longer its compute takes, 1-100 ×</source>
        <translation>其计算耗时是正常的多少倍，1-100 ×</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="45"/>
        <source> ×</source>
        <translation> ×</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="48"/>
        <source>Slowdown</source>
        <translation>减速</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="51"/>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="53"/>
        <source>Add this straggler, or set its slowdown if listed</source>
        <translation>添加此慢节点；若已列出则设置其减速倍数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="54"/>
        <location filename="../../views/controls/control_panel_effects.cpp" line="190"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="56"/>
        <source>Remove the selected straggler</source>
        <translation>移除选中的慢节点</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="66"/>
        <source>Data loader</source>
        <translation>数据加载器</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="67"/>
        <source>Input pipeline that can starve the GPUs</source>
        <translation>可能让 GPU 空等的输入流水线</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="71"/>
        <source>Loader worker processes per GPU, 0-1024</source>
        <translation>每块 GPU 的数据加载工作进程数，0-1024</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="72"/>
        <source>Workers/GPU</source>
        <translation>工作进程/GPU</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="77"/>
        <source>How each sample is decoded and augmented: a pipeline from the catalog, whose cost per image the node's CPU cores bound, or a rate you measured per worker</source>
        <translation>每个样本如何解码和增强：目录中的流水线（每张图像的开销受节点 CPU 核数限制），或你按工作进程测得的速率</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="79"/>
        <source>Stated rate</source>
        <translation>给定速率</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="80"/>
        <source>PIL (torchvision)</source>
        <translation>PIL（torchvision）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="81"/>
        <source>Pillow-SIMD</source>
        <translation>Pillow-SIMD</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="82"/>
        <source>DALI on the CPU</source>
        <translation>DALI（CPU 上）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="83"/>
        <source>DALI on the GPU</source>
        <translation>DALI（GPU 上）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="84"/>
        <source>Decoding</source>
        <translation>解码</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="89"/>
        <source>Samples per second one worker delivers, 0.1-1000000000</source>
        <translation>每个工作进程每秒交付的样本数，0.1-1000000000</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="89"/>
        <source> /s</source>
        <translation> /s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="90"/>
        <source>Per worker</source>
        <translation>每工作进程</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="94"/>
        <source>Batches each worker keeps ready, 1-64 (PyTorch's default is 2): the loader runs up to workers × prefetch micro-batches ahead of the GPU</source>
        <translation>每个工作进程预备好的批次数，1-64（PyTorch 默认为 2）：加载器最多领先 GPU（工作进程数 × prefetch）个微批次</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="96"/>
        <source> batches</source>
        <translation> 批</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="97"/>
        <source>Prefetch</source>
        <translation>预取</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="107"/>
        <source>Thermal throttling</source>
        <translation>温度降频</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="108"/>
        <source>GPUs lose clock speed above a temperature</source>
        <translation>GPU 超过某一温度后时钟频率下降</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="112"/>
        <source>Throttling starts above, 20-120 °C</source>
        <translation>超过此温度开始降频，20-120 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="112"/>
        <location filename="../../views/controls/control_panel_effects.cpp" line="141"/>
        <location filename="../../views/controls/control_panel_effects.cpp" line="147"/>
        <location filename="../../views/controls/control_panel_effects.cpp" line="177"/>
        <source> °C</source>
        <translation> °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="113"/>
        <source>Above</source>
        <translation>阈值</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="115"/>
        <source>Clock lost while throttled, 0-90 %</source>
        <translation>降频时损失的时钟频率，0-90 %</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="116"/>
        <source>Clock drop</source>
        <translation>降频幅度</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="119"/>
        <source>Time constant of the temperature rise under load, 0.1-1000000 s</source>
        <translation>负载下温升的时间常数，0.1-1000000 s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="119"/>
        <location filename="../../views/controls/control_panel_effects.cpp" line="155"/>
        <location filename="../../views/controls/control_panel_effects.cpp" line="245"/>
        <location filename="../../views/controls/control_panel_effects.cpp" line="256"/>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="120"/>
        <source>Warm-up</source>
        <translation>升温</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="127"/>
        <source>Cooling of every GPU: its steady-state temperature under sustained load (presets are assumptions), or none given (every GPU settles above the threshold)</source>
        <translation>每块 GPU 的散热：持续负载下的稳态温度（预设为假设值），或不指定（每块 GPU 都稳定在阈值之上）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="130"/>
        <source>None given (above threshold)</source>
        <translation>不指定（高于阈值）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="131"/>
        <source>Datacenter, %1 °C</source>
        <translation>数据中心，%1 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="133"/>
        <source>Workstation, %1 °C</source>
        <translation>工作站，%1 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="135"/>
        <source>Poor, %1 °C</source>
        <translation>较差，%1 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="136"/>
        <source>Cooling</source>
        <translation>散热</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="139"/>
        <source>Steady-state temperature of every GPU under sustained load, 0-150 °C, not below the ambient; with no cooling given it shows the model's assumption (threshold + 6 °C)</source>
        <translation>持续负载下每块 GPU 的稳态温度，0-150 °C，不低于环境温度；未指定散热时显示模型的假设值（阈值 + 6 °C）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="142"/>
        <source>Steady</source>
        <translation>稳态</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="147"/>
        <source>Temperature at the start: an idle GPU at its intake air, -20-60 °C</source>
        <translation>起始温度：空闲 GPU 处于进风温度，-20-60 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="148"/>
        <source>Ambient</source>
        <translation>环境</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="153"/>
        <source>Seconds of load before the first simulated step, 0-1000000000 s; below 0: steady state (after a long run)</source>
        <translation>第一个模拟步之前的负载秒数，0-1000000000 s；小于 0：稳态（长时间运行后）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="156"/>
        <source>steady state</source>
        <translation>稳态</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="157"/>
        <source>Load before</source>
        <translation>预先负载</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="164"/>
        <source>GPUs with their own cooling (hot spots); select one to edit or remove it</source>
        <translation>单独设置散热的 GPU（热点）；选中一个以编辑或移除</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="166"/>
        <source>Hot spots</source>
        <translation>热点</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="170"/>
        <source>Index of the GPU with its own cooling, 0-(GPUs - 1)</source>
        <translation>单独设置散热的 GPU 编号，0-(GPU 数 - 1)</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="171"/>
        <source>GPU </source>
        <translation>GPU </translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="172"/>
        <source>Hot-spot GPU</source>
        <translation>热点 GPU</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="175"/>
        <source>Its steady-state temperature under sustained load, 0-150 °C, not below the ambient</source>
        <translation>其在持续负载下的稳态温度，0-150 °C，不低于环境温度</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="178"/>
        <source>Hot-spot steady-state temperature</source>
        <translation>热点稳态温度</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="182"/>
        <source>GPU at</source>
        <translation>GPU 温度</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="186"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="189"/>
        <source>Give this GPU its own steady-state temperature, or change it if listed</source>
        <translation>为此 GPU 设置单独的稳态温度；若已列出则修改</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="192"/>
        <source>Remove the selected GPU's own cooling</source>
        <translation>移除选中 GPU 的单独散热设置</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="204"/>
        <source>Virtual GPU slices</source>
        <translation>虚拟 GPU 切片</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="205"/>
        <source>Every GPU is a time-sliced share of a physical GPU (vGPU, shared GPU)</source>
        <translation>每块 GPU 都是物理 GPU 的分时份额（vGPU，共享 GPU）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="210"/>
        <source>Share of a physical GPU's time and memory this job gets, 5-100 %</source>
        <translation>此作业获得的物理 GPU 时间与显存份额，5-100 %</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="212"/>
        <source>Slice</source>
        <translation>切片</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="213"/>
        <source>Traffic through the host</source>
        <translation>经主机中转的通信</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="214"/>
        <source>No peer-to-peer: GPU-to-GPU traffic goes through host memory over at most PCIe 4.0 x16</source>
        <translation>无点对点：GPU 之间的通信经主机内存中转，最高 PCIe 4.0 x16</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="220"/>
        <source>Failures and checkpoints</source>
        <translation>故障与检查点</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="221"/>
        <source>GPU failures over a long run: checkpoints, restarts and the goodput they leave</source>
        <translation>长时间运行中的 GPU 故障：检查点、重启以及由此剩下的有效吞吐（goodput）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="225"/>
        <source>Mean time between failures of one GPU (with its share of the node), 0.1-1000000000 h</source>
        <translation>单块 GPU 的平均故障间隔时间（含其所占节点份额），0.1-1000000000 h</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="227"/>
        <source> h</source>
        <translation> h</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="229"/>
        <source>MTBF/GPU</source>
        <translation>MTBF/GPU</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="234"/>
        <source>Size of one checkpoint, 0-10000000 GB; 0 = weights and optimizer states of one model copy</source>
        <translation>单个检查点的大小，0-10000000 GB；0 = 一份模型副本的权重和优化器状态</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="236"/>
        <source> GB</source>
        <translation> GB</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="237"/>
        <source>model states</source>
        <translation>模型状态</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="238"/>
        <source>Checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="241"/>
        <source>Storage write bandwidth, all writers together, 0.01-1000000 GB/s</source>
        <translation>存储写入带宽，所有写入方合计，0.01-1000000 GB/s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="241"/>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="99"/>
        <source> GB/s</source>
        <translation> GB/s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="242"/>
        <source>Write</source>
        <translation>写入</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="245"/>
        <source>From a failure to training again, excluding the lost work, 0-10000000 s</source>
        <translation>从故障到重新开始训练的时间，不含丢失的工作，0-10000000 s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="247"/>
        <source>Restart</source>
        <translation>重启</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="254"/>
        <source>Seconds of training between checkpoints, 0-1000000000 s; 0 = the optimum (Young 1974, Daly 2006)</source>
        <translation>两次检查点之间的训练秒数，0-1000000000 s；0 = 最优值（Young 1974，Daly 2006）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="257"/>
        <source>optimal (Young/Daly)</source>
        <translation>最优（Young/Daly）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="259"/>
        <source>Interval</source>
        <translation>间隔</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="137"/>
        <source>Set GPU to %1 (datasheet figures)</source>
        <translation>将 GPU 设为 %1（规格表数据）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="138"/>
        <source>Set GPU to %1</source>
        <translation>将 GPU 设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="148"/>
        <source>Set GPU count to %1</source>
        <translation>将 GPU 数设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="153"/>
        <source>Set nodes to %1</source>
        <translation>将节点数设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="161"/>
        <source>Set GPUs per node to %1</source>
        <translation>将每节点 GPU 数设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="170"/>
        <source>Set intra-node link to %1</source>
        <translation>将节点内互连设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="179"/>
        <source>Set inter-node network to %1</source>
        <translation>将节点间网络设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="184"/>
        <source>Set NICs per node to %1</source>
        <translation>将每节点 NIC 数设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="147"/>
        <source>Custom transformer</source>
        <translation>自定义 Transformer</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="158"/>
        <source>Set model to a custom transformer</source>
        <translation>将模型设为自定义 Transformer</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="164"/>
        <source>Set model to %1</source>
        <translation>将模型设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="173"/>
        <source>Set %1 to %2</source>
        <translation>将%1设为 %2</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="176"/>
        <source>layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="177"/>
        <source>hidden size</source>
        <translation>隐藏层大小</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="178"/>
        <source>attention heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="179"/>
        <source>sequence length</source>
        <translation>序列长度</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="180"/>
        <source>vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="191"/>
        <location filename="../../views/controls/control_panel_model.cpp" line="196"/>
        <source>Set global batch to %1</source>
        <translation>将全局批大小设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="202"/>
        <source>Set micro-batch to auto</source>
        <translation>将微批次设为自动</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="202"/>
        <source>Set micro-batch to %1</source>
        <translation>将微批次设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="213"/>
        <source>Set precision to %1</source>
        <translation>将精度设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="218"/>
        <source>Set optimizer to %1</source>
        <translation>将优化器设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="223"/>
        <source>Set recompute to %1</source>
        <translation>将重计算设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="218"/>
        <source>Set offloaded layers to %1</source>
        <translation>将卸载层数设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="228"/>
        <source>Turn flash attention on</source>
        <translation>开启 flash attention</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_model.cpp" line="228"/>
        <source>Turn flash attention off</source>
        <translation>关闭 flash attention</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="175"/>
        <source>Set strategy to %1</source>
        <translation>将策略设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="181"/>
        <source>Set data degree to auto</source>
        <translation>将数据并行度设为自动</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="181"/>
        <source>Set data degree to %1</source>
        <translation>将数据并行度设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="187"/>
        <source>Set tensor degree to %1</source>
        <translation>将张量并行度设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="192"/>
        <source>Set pipeline degree to %1</source>
        <translation>将流水线并行度设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="197"/>
        <source>Set context degree to %1</source>
        <translation>将上下文并行度设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="202"/>
        <source>Set expert degree to %1</source>
        <translation>将专家并行度设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="207"/>
        <source>Set dispatcher to %1</source>
        <translation>将分发器设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="214"/>
        <source>Turn expert all-to-all overlap on</source>
        <translation>开启专家 all-to-all 重叠</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="214"/>
        <source>Turn expert all-to-all overlap off</source>
        <translation>关闭专家 all-to-all 重叠</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="220"/>
        <source>Set expert imbalance to %1</source>
        <translation>将专家不均衡设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="230"/>
        <source>Set software stack to %1</source>
        <translation>将软件栈设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="236"/>
        <source>Set ZeRO stage to %1</source>
        <translation>将 ZeRO 阶段设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="241"/>
        <source>Set schedule to %1</source>
        <translation>将调度设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="246"/>
        <source>Set virtual stages to %1</source>
        <translation>将虚拟阶段数设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="252"/>
        <source>Turn sequence parallelism on</source>
        <translation>开启序列并行</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="252"/>
        <source>Turn sequence parallelism off</source>
        <translation>关闭序列并行</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="258"/>
        <source>Turn tensor-parallel overlap on</source>
        <translation>开启张量并行重叠</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="258"/>
        <source>Turn tensor-parallel overlap off</source>
        <translation>关闭张量并行重叠</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="264"/>
        <source>Turn overlap on</source>
        <translation>开启通信重叠</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="264"/>
        <source>Turn overlap off</source>
        <translation>关闭通信重叠</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="269"/>
        <source>Set bucket size to %1 MB</source>
        <translation>将桶大小设为 %1 MB</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="274"/>
        <source>Set update to %1</source>
        <translation>将更新方式设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="269"/>
        <source>Set seed to %1</source>
        <translation>将随机种子设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="274"/>
        <source>Set jitter to %1 %</source>
        <translation>将抖动设为 %1 %</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="295"/>
        <source>Set straggler GPU %1 to %2× slower</source>
        <translation>将慢节点 GPU %1 设为慢 %2×</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="311"/>
        <source>Remove straggler GPU %1</source>
        <translation>移除慢节点 GPU %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="319"/>
        <source>Turn thermal throttling on</source>
        <translation>开启热降频</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="319"/>
        <source>Turn thermal throttling off</source>
        <translation>关闭热降频</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="324"/>
        <source>Set throttling temperature to %1 °C</source>
        <translation>将降频温度设为 %1 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="329"/>
        <source>Set throttled clock drop to %1 %</source>
        <translation>将降频时钟降幅设为 %1 %</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="334"/>
        <source>Set thermal warm-up to %1 s</source>
        <translation>将热预热时间设为 %1 s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="346"/>
        <source>Turn data loader on</source>
        <translation>开启数据加载器</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="346"/>
        <source>Turn data loader off</source>
        <translation>关闭数据加载器</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="351"/>
        <source>Set loader workers per GPU to %1</source>
        <translation>将每 GPU 加载器工作进程数设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="361"/>
        <source>Set loader decoding to %1</source>
        <translation>将加载器解码设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="366"/>
        <source>Set loader rate to %1 samples/s per worker</source>
        <translation>将加载速率设为每工作进程 %1 样本/s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="371"/>
        <source>Set loader prefetch to %1 batches per worker</source>
        <translation>将预取设为每工作进程 %1 个批次</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="389"/>
        <source>Set cooling to %1</source>
        <translation>将散热设为 %1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="395"/>
        <source>Set steady-state temperature to %1 °C</source>
        <translation>将稳态温度设为 %1 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="400"/>
        <source>Set ambient temperature to %1 °C</source>
        <translation>将环境温度设为 %1 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="407"/>
        <source>Start the thermal model in steady state</source>
        <translation>热模型从稳态开始</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="410"/>
        <source>Set load before the first step to %1 s</source>
        <translation>将首步前负载时间设为 %1 s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="433"/>
        <source>Set GPU %1 steady-state temperature to %2 °C</source>
        <translation>将 GPU %1 的稳态温度设为 %2 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="450"/>
        <source>Remove GPU %1's own cooling</source>
        <translation>移除 GPU %1 的单独散热设置</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="463"/>
        <source>Turn virtual GPU slices on</source>
        <translation>开启虚拟 GPU 切片</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="463"/>
        <source>Turn virtual GPU slices off</source>
        <translation>关闭虚拟 GPU 切片</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="468"/>
        <source>Set virtual GPU slice to %1 %</source>
        <translation>将虚拟 GPU 切片设为 %1 %</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="474"/>
        <source>Route GPU-to-GPU traffic through the host</source>
        <translation>GPU 间流量经主机中转</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="475"/>
        <source>Let GPUs exchange data peer-to-peer</source>
        <translation>允许 GPU 点对点交换数据</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="483"/>
        <source>Turn failures and checkpoints on</source>
        <translation>开启故障与检查点</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="484"/>
        <source>Turn failures and checkpoints off</source>
        <translation>关闭故障与检查点</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="490"/>
        <source>Set MTBF per GPU to %1 h</source>
        <translation>将每 GPU 的 MTBF 设为 %1 h</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="496"/>
        <source>Set checkpoint size to the model states</source>
        <translation>将检查点大小设为模型状态大小</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="497"/>
        <source>Set checkpoint size to %1 GB</source>
        <translation>将检查点大小设为 %1 GB</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="503"/>
        <source>Set checkpoint write bandwidth to %1 GB/s</source>
        <translation>将检查点写入带宽设为 %1 GB/s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="508"/>
        <source>Set restart time to %1 s</source>
        <translation>将重启时间设为 %1 s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="514"/>
        <source>Set checkpoint interval to optimal (Young/Daly)</source>
        <translation>将检查点间隔设为最优值（Young/Daly）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="515"/>
        <source>Set checkpoint interval to %1 s</source>
        <translation>将检查点间隔设为 %1 s</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="236"/>
        <source>%1 (measured %2)</source>
        <translation>%1（测于 %2）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="238"/>
        <source>Measured figures from the calibration profile %1</source>
        <translation>来自校准配置文件 %1 的实测数据</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="241"/>
        <source>%1, %2 GB (from file)</source>
        <translation>%1，%2 GB（来自文件）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="245"/>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="247"/>
        <location filename="../../views/controls/control_panel_model.cpp" line="261"/>
        <source>%1 (from file)</source>
        <translation>%1（来自文件）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="262"/>
        <source>Board power limit, %1-%2 W (the TDP: no cap); a cap lowers the sustained clock</source>
        <translation>板卡功耗上限，%1-%2 W（TDP 即不设上限）；设上限会降低持续时钟频率</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="266"/>
        <source>This GPU states no TDP, so it takes no power limit</source>
        <translation>该 GPU 未给出 TDP，因此不能设置功耗上限</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="276"/>
        <source>Nodes whose GPUs share one NVLink fabric, 1-%1: %2 GPUs now (a GB200 NVL72 rack is 18 trays of 4). Collectives and all-to-alls inside it run at NVLink speed, across it on the NICs</source>
        <translation>其 GPU 共用一个 NVLink 互连的节点数，1-%1：当前 %2 块 GPU（一个 GB200 NVL72 机柜为 18 个 4 卡托盘）。域内的集合通信和 all-to-all 以 NVLink 速度运行，跨域则走网卡</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="308"/>
        <source>1 GPU: %1</source>
        <translation>1 块 GPU：%1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="309"/>
        <source>%1 GPUs: %2</source>
        <translation>%1 块 GPU：%2</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="313"/>
        <source>1 GPU</source>
        <translation>1 块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_hardware.cpp" line="313"/>
        <source>%1 GPUs</source>
        <translation>%1 块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="298"/>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="315"/>
        <source>Auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="303"/>
        <source>Switch to %1, which runs this plan</source>
        <translation>切换到 %1（它能运行此方案）</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_parallel.cpp" line="316"/>
        <source>Auto: %1</source>
        <translation>自动：%1</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="532"/>
        <source>GPU %1: %2× slower</source>
        <translation>GPU %1：慢 %2×</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="592"/>
        <source>Custom, %1 °C</source>
        <translation>自定义，%1 °C</translation>
    </message>
    <message>
        <location filename="../../views/controls/control_panel_effects.cpp" line="607"/>
        <source>GPU %1: %2 °C steady</source>
        <translation>GPU %1：稳态 %2 °C</translation>
    </message>
    <message>
        <source>Which parts of each layer selective recompute rebuilds in backward (Megatron-Core --recompute-modules): each frees what it keeps and runs its forward again; none ticked: the stack's own choice</source>
        <translation>选择性重计算在反向传播中重建每层的哪些部分（Megatron-Core --recompute-modules）：每个模块释放它保存的张量，并再次运行其前向；都不勾选：由软件栈自行决定</translation>
    </message>
    <message>
        <source>Attention core (core_attn)</source>
        <translation>注意力核心（core_attn）</translation>
    </message>
    <message>
        <source>Experts' activation (moe_act)</source>
        <translation>专家激活函数（moe_act）</translation>
    </message>
    <message>
        <source>Norms (layernorm)</source>
        <translation>归一化（layernorm）</translation>
    </message>
    <message>
        <source>MLA up-projections (mla_up_proj)</source>
        <translation>MLA 上投影（mla_up_proj）</translation>
    </message>
    <message>
        <source>Dense MLP (mlp)</source>
        <translation>稠密 MLP（mlp）</translation>
    </message>
    <message>
        <source>Routed experts, with their all-to-all (moe)</source>
        <translation>路由专家及其 all-to-all（moe）</translation>
    </message>
    <message>
        <source>Shared experts (shared_experts)</source>
        <translation>共享专家（shared_experts）</translation>
    </message>
    <message>
        <source>Recompute modules</source>
        <translation>重计算模块</translation>
    </message>
    <message>
        <source>Recompute %1</source>
        <translation>重计算 %1</translation>
    </message>
    <message>
        <source>Keep %1</source>
        <translation>保留 %1</translation>
    </message>
    <message>
        <source>The stack's choice</source>
        <translation>由软件栈决定</translation>
    </message>
    <message>
        <source>%1 modules</source>
        <translation>%1 个模块</translation>
    </message>
</context>
<context>
    <name>scalescope::CostView</name>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="56"/>
        <source>%1 USD</source>
        <translation>%1 USD</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="67"/>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="68"/>
        <source>%1 h (%2 days)</source>
        <translation>%1 h（%2 天）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="83"/>
        <source>under a day</source>
        <translation>不到一天</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="85"/>
        <source>1-3 days</source>
        <translation>1-3 天</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="87"/>
        <source>3-14 days</source>
        <translation>3-14 天</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="89"/>
        <source>over two weeks</source>
        <translation>超过两周</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="98"/>
        <source>under 50 GPU-hours a month</source>
        <translation>每月不到 50 GPU 小时</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="100"/>
        <source>50-200 GPU-hours a month</source>
        <translation>每月 50-200 GPU 小时</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="102"/>
        <source>over 200 GPU-hours a month</source>
        <translation>每月超过 200 GPU 小时</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="112"/>
        <source>the GPU price</source>
        <translation>GPU 价格</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="114"/>
        <source>the cloud price per GPU-hour</source>
        <translation>每 GPU 小时的云端价格</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="116"/>
        <source>the power price</source>
        <translation>电价</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="118"/>
        <source>the day rate</source>
        <translation>日薪</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="120"/>
        <source>the work per run</source>
        <translation>每次运行的工作量</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="195"/>
        <source>Number of steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="196"/>
        <source>Tokens to train</source>
        <translation>训练 token 数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="201"/>
        <location filename="../../views/charts/cost_view.cpp" line="377"/>
        <source> steps</source>
        <translation> 步</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="203"/>
        <source>Training steps in the run (1 to 1,000,000,000)</source>
        <translation>本次运行的训练步数（1 到 1,000,000,000）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="162"/>
        <source> billion tokens</source>
        <translation> 十亿 token</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="161"/>
        <source> hundred million tokens</source>
        <translation> 亿 token</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="212"/>
        <source>Tokens to train, in billions (0.001 to 1,000,000); steps = tokens / (global batch × sequence length)</source>
        <translation>训练 token 数，单位亿（0.01 到 10,000,000）；步数 = token 数 / (全局批大小 × 序列长度)</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="223"/>
        <source> per kWh</source>
        <translation> /kWh</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="224"/>
        <source>Electricity price per kWh, in any currency (0 to 10)</source>
        <translation>每 kWh 电价，任意货币（0 到 10）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="226"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="228"/>
        <source>Run &amp;length:</source>
        <translation>运行长度(&amp;l)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="229"/>
        <source>&amp;Steps:</source>
        <translation>步数(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="230"/>
        <source>&amp;Tokens:</source>
        <translation>Token 数(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="232"/>
        <source>Electricity &amp;price:</source>
        <translation>电价(&amp;p)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="234"/>
        <source>Time and energy</source>
        <translation>时间与能耗</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="242"/>
        <source>Time per step:</source>
        <translation>每步时间：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="243"/>
        <source>Time per run:</source>
        <translation>每次运行时间：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="244"/>
        <location filename="../../views/charts/cost_view.cpp" line="418"/>
        <source>GPU-hours per run:</source>
        <translation>每次运行 GPU 时：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="245"/>
        <source>Energy per step:</source>
        <translation>每步能耗：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="246"/>
        <location filename="../../views/charts/cost_view.cpp" line="419"/>
        <source>Energy per run:</source>
        <translation>每次运行能耗：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="247"/>
        <source>Electricity per run:</source>
        <translation>每次运行电费：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="251"/>
        <source>&amp;Add a cost section</source>
        <translation>添加成本设置(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="254"/>
        <source>Add prices, usage and migration effort to the scenario for the full cost report: owning against renting, break-even and whether more GPUs are worth it</source>
        <translation>在场景中加入价格、用量和迁移工作量，得到完整成本报告：自购与租用对比、盈亏平衡点，以及增加 GPU 是否值得</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="316"/>
        <source>Prices and work</source>
        <translation>价格与工作量</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="318"/>
        <source> USD</source>
        <translation> USD</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="319"/>
        <source>&amp;GPU price:</source>
        <translation>GPU 价格(&amp;G)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="322"/>
        <source>Price of one GPU (0 to 1,000,000,000 USD)</source>
        <translation>单块 GPU 的价格（0 到 1,000,000,000 USD）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="322"/>
        <source>Change GPU price</source>
        <translation>修改 GPU 价格</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="323"/>
        <source>Ser&amp;ver price:</source>
        <translation>服务器价格(&amp;v)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="325"/>
        <source> USD per node</source>
        <translation> USD/节点</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="326"/>
        <source>Price of one server (node) beyond its GPUs (0 to 1,000,000,000 USD)</source>
        <translation>除 GPU 外单台服务器（节点）的价格（0 到 1,000,000,000 USD）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="328"/>
        <source>Change server price</source>
        <translation>修改服务器价格</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="329"/>
        <source>A&amp;mortisation:</source>
        <translation>折旧期(&amp;m)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="331"/>
        <source> years</source>
        <translation> 年</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="332"/>
        <source>Years over which the hardware is written off (0.1 to 50)</source>
        <translation>硬件折旧年限（0.1 到 50）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="333"/>
        <source>Change amortisation period</source>
        <translation>修改折旧期</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="334"/>
        <source>Po&amp;wer price:</source>
        <translation>电价(&amp;w)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="336"/>
        <source> USD/kWh</source>
        <translation> USD/kWh</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="337"/>
        <source>Electricity price (0 to 100 USD per kWh)</source>
        <translation>电价（每 kWh 0 到 100 USD）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="338"/>
        <source>Change power price</source>
        <translation>修改电价</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="339"/>
        <source>P&amp;UE:</source>
        <translation>PUE(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="341"/>
        <source>Power usage effectiveness: facility power over IT power (1 to 5; 1.58 is the 2023 average)</source>
        <translation>电能使用效率：设施总功耗与 IT 设备功耗之比（1 到 5；2023 年平均值为 1.58）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="343"/>
        <source>Change PUE</source>
        <translation>修改 PUE</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="344"/>
        <source>&amp;Cloud price:</source>
        <translation>云价格(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="347"/>
        <source> USD per GPU-hour</source>
        <translation> USD/GPU 小时</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="348"/>
        <source>Rent of one cloud GPU for an hour (0 to 10,000 USD)</source>
        <translation>租用一个云 GPU 一小时的费用（0 到 10,000 USD）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="349"/>
        <source>Change cloud price</source>
        <translation>修改云价格</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="353"/>
        <source>Tokens</source>
        <translation>Token 数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="354"/>
        <source>Epochs × samples</source>
        <translation>Epoch 数 × 样本数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="355"/>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="356"/>
        <source>How the work of one training run is given</source>
        <translation>单次训练运行工作量的给出方式</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="358"/>
        <source>&amp;Work per run:</source>
        <translation>每次运行工作量(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="361"/>
        <source>Tokens to train per run, in billions (0.001 to 1,000,000,000; transformers only)</source>
        <translation>每次运行训练的 token 数，单位亿（0.01 到 10,000,000,000；仅限 Transformer）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="363"/>
        <source>Change tokens per run</source>
        <translation>修改每次运行的 token 数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="365"/>
        <source>T&amp;okens:</source>
        <translation>Token 数(&amp;o)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="366"/>
        <source> epochs</source>
        <translation> 个 epoch</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="367"/>
        <source>Passes over the data set per run (0.01 to 1,000,000)</source>
        <translation>每次运行遍历数据集的次数（0.01 到 1,000,000）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="368"/>
        <source>Change epochs per run</source>
        <translation>修改每次运行的 epoch 数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="370"/>
        <source>&amp;Epochs:</source>
        <translation>Epoch 数(&amp;E)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="372"/>
        <source> samples</source>
        <translation> 个样本</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="372"/>
        <source>Samples in one epoch (1 to 1e15)</source>
        <translation>每个 epoch 的样本数（1 到 1e15）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="373"/>
        <source>Change samples per epoch</source>
        <translation>修改每个 epoch 的样本数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="375"/>
        <source>Samples per e&amp;poch:</source>
        <translation>每 epoch 样本数(&amp;p)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="378"/>
        <source>Optimizer steps per run (1 to 1e15)</source>
        <translation>每次运行的优化器步数（1 到 1e15）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="378"/>
        <source>Change steps per run</source>
        <translation>修改每次运行的步数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="380"/>
        <source>S&amp;teps:</source>
        <translation>步数(&amp;t)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="381"/>
        <source>&amp;Runs per month:</source>
        <translation>每月运行次数(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="383"/>
        <source> runs</source>
        <translation> 次</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="383"/>
        <source>Training runs a month (0.01 to 1,000,000)</source>
        <translation>每月训练运行次数（0.01 到 1,000,000）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="384"/>
        <source>Change runs per month</source>
        <translation>修改每月运行次数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="385"/>
        <source>M&amp;igration:</source>
        <translation>迁移(&amp;i)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="387"/>
        <source> days</source>
        <translation> 天</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="388"/>
        <source>Engineering days to move the job to several GPUs (0 to 3,650)</source>
        <translation>将任务迁移到多 GPU 所需的工程人天（0 到 3,650）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="390"/>
        <source>Change migration days</source>
        <translation>修改迁移天数</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="391"/>
        <source>&amp;Day rate:</source>
        <translation>人天单价(&amp;D)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="393"/>
        <source> USD/day</source>
        <translation> USD/天</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="394"/>
        <source>Cost of one engineering day; waiting is valued at a eighth of it per hour (0 to 1,000,000 USD)</source>
        <translation>一个工程人天的费用；等待时间按其八分之一每小时计价（0 到 1,000,000 USD）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="396"/>
        <source>Change day rate</source>
        <translation>修改人天单价</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="400"/>
        <source>not set</source>
        <translation>未设置</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="403"/>
        <source>Time, energy and money</source>
        <translation>时间、能耗与费用</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="416"/>
        <source>Steps per run:</source>
        <translation>每次运行步数：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="417"/>
        <source>Time to train:</source>
        <translation>训练时长：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="420"/>
        <source>Power:</source>
        <translation>功耗：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="421"/>
        <source>Hardware:</source>
        <translation>硬件：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="422"/>
        <source>Per month:</source>
        <translation>每月：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="423"/>
        <source>Per run:</source>
        <translation>每次运行：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="424"/>
        <source>Break-even:</source>
        <translation>盈亏平衡：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="425"/>
        <source>Migration:</source>
        <translation>迁移：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="426"/>
        <source>Waiting saved:</source>
        <translation>节省等待：</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="428"/>
        <source>Advice</source>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="557"/>
        <source>= %1 steps of %2 samples × %3 tokens</source>
        <translation>= %1 步，每步 %2 样本 × %3 token</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="562"/>
        <source>Tokens need a transformer model; using the steps.</source>
        <translation>按 token 计算需要 Transformer 模型；改用步数。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="569"/>
        <source>never ends: failures come faster than checkpoints</source>
        <translation>永远无法完成：故障比检查点来得更快</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="572"/>
        <location filename="../../views/charts/cost_view.cpp" line="850"/>
        <location filename="../../views/charts/cost_view.cpp" line="856"/>
        <source>%1 GPU-h</source>
        <translation>%1 GPU 时</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="575"/>
        <source>The time per run includes failures, restarts and checkpoints: %1% of the time is useful.</source>
        <translation>每次运行的时间包含故障、重启和检查点：其中 %1% 的时间是有效训练。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="580"/>
        <location filename="../../views/charts/cost_view.cpp" line="581"/>
        <source>%1 kWh</source>
        <translation>%1 kWh</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="582"/>
        <source>%1 (at %2 per kWh)</source>
        <translation>%1（按每 kWh %2 计）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="586"/>
        <source>Energy = GPUs (%1) × board power (%2 W: an idle draw of 30% of the %3's TDP, the rest in proportion to the compute share of the step, %4%) × time × PUE %5 (the cost section's default: cooling and power delivery). Cloud and ownership costs are in the full cost report: add a cost section.</source>
        <translation>能耗 = GPU 数（%1）× 板卡功耗（%2 W：空闲功耗为 %3 TDP 的 30%，其余按该步中计算所占比例 %4% 计）× 时间 × PUE %5（成本部分的默认值：制冷与供电损耗）。云端租用和自购成本见完整成本报告：请添加成本部分。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="658"/>
        <source>Give the work per run in tokens</source>
        <translation>以 token 数给出每次运行的工作量</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="663"/>
        <source>Give the work per run in epochs</source>
        <translation>以 epoch 数给出每次运行的工作量</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="667"/>
        <source>Give the work per run in steps</source>
        <translation>以步数给出每次运行的工作量</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="686"/>
        <source>Add a cost section</source>
        <translation>添加成本设置</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="719"/>
        <source>buy and own</source>
        <translation>购买自有</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="719"/>
        <source>rent in the cloud</source>
        <translation>云上租用</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="728"/>
        <source>No verdict: prices missing</source>
        <translation>无法给出结论：缺少价格</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="730"/>
        <source>Enter %1 for a verdict: a price of 0 counts as not set. The power price, PUE, amortisation, migration days and day rate start at the scenario format's documented defaults; change them to yours.</source>
        <translation>请输入%1以得出结论：价格为 0 视为未设置。电价、PUE、折旧年限、迁移天数和日薪采用场景格式文档中的默认值，请改为你自己的数值。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="738"/>
        <source>1 GPU: %1</source>
        <translation>1 块 GPU：%1</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="739"/>
        <source>%1 GPUs, the fewest that fit: %2</source>
        <translation>%1 块 GPU（能装下模型的最少数量）：%2</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="744"/>
        <source>Each GPU would need %1 GiB of its %2 GiB: this plan does not run, whatever it costs.</source>
        <translation>每块 GPU 需要 %1 GiB，而它只有 %2 GiB：无论花多少钱，这个方案都跑不起来。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="752"/>
        <source>%1 GPUs: worth it — %2</source>
        <translation>%1 块 GPU：值得 — %2</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="752"/>
        <source>%1 GPUs: not worth it — %2</source>
        <translation>%1 块 GPU：不值得 — %2</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="755"/>
        <source>They save %1 of waiting a month, worth %2 at %3 an hour (the day rate over 8 hours), against %4 a month more: %5 of hardware or cloud time and %6 of migration spread over the amortisation period.</source>
        <translation>它们每月节省 %1 的等待时间，按每小时 %3（日薪除以 8 小时）计价值 %2；代价是每月多花 %4：其中硬件或云端时长 %5，迁移工作 %6（分摊到折旧期内）。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="779"/>
        <source>%1 GPUs: worth it, but %2 GPUs pay best — %3</source>
        <translation>%1 块 GPU：值得，但 %2 块 GPU 最划算 — %3</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="780"/>
        <source>%1 GPUs: not worth it; %2 GPUs pay best — %3</source>
        <translation>%1 块 GPU：不值得；%2 块 GPU 最划算 — %3</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="786"/>
        <source>Best on the scaling sweep: %1 GPUs, %2× as fast as %3 GPUs at %4 a month, %5 a month better than %3 GPUs.</source>
        <translation>扩展扫描中的最佳选择：%1 块 GPU，速度是 %3 块 GPU 的 %2×，每月 %4，比 %3 块 GPU 每月划算 %5。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="797"/>
        <source>8+ GPUs</source>
        <translation>8+ 块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="148"/>
        <location filename="../../views/charts/cost_view.cpp" line="798"/>
        <source>1 GPU</source>
        <translation>1 块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="149"/>
        <location filename="../../views/charts/cost_view.cpp" line="799"/>
        <source>%1 GPUs</source>
        <translation>%1 块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="742"/>
        <source>%1: not worth it — the plan does not fit in memory</source>
        <translation>%1：不值得 — 该方案显存放不下</translation>
    </message>
    <message>
        <source>It may not fit in memory (%1 of %2 GiB per GPU, within the model's %3 % memory error): the verdict takes it as running.</source>
        <translation>显存可能放不下（每块 GPU %1 GiB / %2 GiB，在模型 %3 % 的显存误差之内）：此结论按能够运行来计算。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="767"/>
        <source>%1: not worth it — the run never ends</source>
        <translation>%1：不值得 — 训练永远无法完成</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="768"/>
        <source>The run never ends on %1: failures come faster than checkpoints can be written (goodput 0).</source>
        <translation>在 %1 上这次训练永远无法完成：故障比写入检查点来得更快（有效产出为 0）。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="803"/>
        <source>the job takes %1 on one GPU</source>
        <translation>该任务在单卡上需要%1</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="804"/>
        <source>the job takes %1 of GPU time (%2 GPUs hold the model)</source>
        <translation>该任务需要%1的 GPU 时间（%2 块 GPU 才能装下模型）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="813"/>
        <source>at %1 hours of use a month the rule says owning pays</source>
        <translation>按经验法则，每月使用 %1 小时时自购更划算</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="814"/>
        <source>at %1 hours of use a month the rule says renting is cheaper</source>
        <translation>按经验法则，每月使用 %1 小时时租用更便宜</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="819"/>
        <source>Rule of thumb: %1, %2, so the decision table suggests %3; %4.</source>
        <translation>经验法则：%1，%2，因此决策表建议 %3；%4。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="834"/>
        <source>At these prices the break-even below says otherwise.</source>
        <translation>按当前价格，下方的盈亏平衡点给出不同的结论。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="841"/>
        <source>one GPU</source>
        <translation>单块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="842"/>
        <source>%1 GPUs, the fewest that fit</source>
        <translation>%1 块 GPU（能装下模型的最少数量）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="899"/>
        <source>none (the reference itself)</source>
        <translation>无（即基准本身）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="901"/>
        <source>%1 a month against %2</source>
        <translation>相比%2每月节省 %1</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="815"/>
        <source>at %1 hours of use a month owning pays (over about 200)</source>
        <translation>每月使用 %1 小时，自购更划算（超过约 200 小时）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="816"/>
        <source>at %1 hours of use a month renting is cheaper (owning pays over about 200)</source>
        <translation>每月使用 %1 小时，租用更便宜（超过约 200 小时才值得自购）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="823"/>
        <source>The verdict differs: the rule counts GPU-hours, not the %1 of waiting a month the %2 GPUs save, worth %3 against %4.</source>
        <translation>结论与经验法则不同：经验法则只看 GPU 小时数，没有计入这 %2 块 GPU 每月节省的 %1 等待时间——它价值 %3，而代价是 %4。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="829"/>
        <source>The verdict differs: the %1 GPUs add %2 a month, more than the %3 of waiting they save is worth (%4).</source>
        <translation>结论与经验法则不同：这 %1 块 GPU 每月多花 %2，超过了它们节省的 %3 等待时间的价值（%4）。</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="837"/>
        <source>%1 steps</source>
        <translation>%1 步</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="844"/>
        <source>never ends on %1: failures come faster than checkpoints; %2 on %3</source>
        <translation>在 %1 上永远无法完成：故障比检查点来得更快；%3 需 %2</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="849"/>
        <source>%1 on %2</source>
        <translation>%2 上 %1</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="852"/>
        <source>%1 on %2; %3 on %5 (%4× faster)</source>
        <translation>%2 上 %1；%5 上 %3（快 %4×）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="858"/>
        <source>%1 kWh, %2 of electricity</source>
        <translation>%1 kWh，电费 %2</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="860"/>
        <location filename="../../views/charts/cost_view.cpp" line="871"/>
        <source>— (price not set)</source>
        <translation>—（价格未设置）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="862"/>
        <source>%1 W per GPU at %2 % utilisation (compute share of the step; idle draws %3 % of TDP), PUE %4</source>
        <translation>每块 GPU %1 W，利用率 %2 %（步中计算所占比例；空闲功耗为 TDP 的 %3 %），PUE %4</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="877"/>
        <source>%1, written off over %2 years</source>
        <translation>%1，分 %2 年折旧</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="879"/>
        <source>own %1, rent %2 (%3 machine-hours)</source>
        <translation>自购 %1，租用 %2（%3 机时）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="884"/>
        <source>own %1, rent %2</source>
        <translation>自购 %1，租用 %2</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="889"/>
        <source>owning pays above %1 machine-hours a month (this job: %2)</source>
        <translation>每月超过 %1 机时则自购更划算（本任务：%2）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="893"/>
        <source>never: renting is cheaper at any usage</source>
        <translation>永不：任何用量下租用都更便宜</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="895"/>
        <source>%1 (%2 days at %3 a day)</source>
        <translation>%1（%2 天，每天 %3）</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="595"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../views/charts/cost_view.cpp" line="599"/>
        <source>The board power (TDP) of the %1 is not known, so energy cannot be estimated.</source>
        <translation>%1 的板卡功耗 (TDP) 未知，无法估算能耗。</translation>
    </message>
</context>
<context>
    <name>scalescope::DeltaTableModel</name>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="89"/>
        <source>Step time (s)</source>
        <translation>步时间 (s)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="91"/>
        <source>Throughput (samples/s)</source>
        <translation>吞吐量 (样本/s)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="93"/>
        <source>MFU (%)</source>
        <translation>MFU (%)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="95"/>
        <source>Speed-up (×)</source>
        <translation>加速比 (×)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="97"/>
        <source>Scaling efficiency (%)</source>
        <translation>扩展效率 (%)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="99"/>
        <source>Compute (s/step)</source>
        <translation>计算 (s/步)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="101"/>
        <source>Exposed communication (s/step)</source>
        <translation>暴露的通信 (s/步)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="103"/>
        <source>Pipeline bubble (s/step)</source>
        <translation>流水线气泡 (s/步)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="105"/>
        <source>Waiting (s/step)</source>
        <translation>等待 (s/步)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="107"/>
        <source>Data loading (s/step)</source>
        <translation>数据加载 (s/步)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="109"/>
        <source>Memory per GPU (GiB)</source>
        <translation>每 GPU 显存 (GiB)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="210"/>
        <source>lower is better</source>
        <translation>越低越好</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="210"/>
        <source>higher is better</source>
        <translation>越高越好</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="212"/>
        <source>B is better (%1)</source>
        <translation>B 更好（%1）</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="214"/>
        <source>B is worse (%1)</source>
        <translation>B 更差（%1）</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="230"/>
        <source>Lower is better</source>
        <translation>越低越好</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="230"/>
        <source>Higher is better</source>
        <translation>越高越好</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="235"/>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="235"/>
        <source>The pinned scenario</source>
        <translation>固定的场景</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="237"/>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="237"/>
        <source>The current scenario</source>
        <translation>当前场景</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="239"/>
        <source>Δ (B − A)</source>
        <translation>Δ (B − A)</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="239"/>
        <source>B minus A, in the row's unit</source>
        <translation>B 减 A，单位同该行</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="241"/>
        <source>Δ %</source>
        <translation>Δ %</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_table_model.cpp" line="241"/>
        <source>B minus A, relative to A, in percent</source>
        <translation>B 减 A，相对 A 的百分比</translation>
    </message>
</context>
<context>
    <name>scalescope::DeltaView</name>
    <message>
        <location filename="../../views/charts/delta_view.cpp" line="71"/>
        <source>Pin a scenario (A) to compare the current one (B) with it.</source>
        <translation>固定一个场景 (A)，以便将当前场景 (B) 与之比较。</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_view.cpp" line="78"/>
        <source>nothing pinned</source>
        <translation>未固定</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_view.cpp" line="80"/>
        <source>not computable</source>
        <translation>无法计算</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_view.cpp" line="81"/>
        <source>unnamed scenario</source>
        <translation>未命名场景</translation>
    </message>
    <message>
        <location filename="../../views/charts/delta_view.cpp" line="95"/>
        <source>A: %1 — B: %2. Green: B is better, red: B is worse.</source>
        <translation>A：%1 — B：%2。绿色：B 更好，红色：B 更差。</translation>
    </message>
</context>
<context>
    <name>scalescope::Document</name>
    <message>
        <location filename="../../app/gui/document.cpp" line="146"/>
        <source>Not saved: a scenario file cannot hold this plan, it would not open again. Fix %1 first: %2</source>
        <translation>未保存：场景文件无法保存此方案，保存后将无法再次打开。请先修正 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/document.cpp" line="182"/>
        <source>File changed on disk</source>
        <translation>文件已在磁盘上被更改</translation>
    </message>
    <message>
        <location filename="../../app/gui/document.cpp" line="183"/>
        <source>“%1” was changed on disk by another window or program (%2) since you opened or last saved it.</source>
        <translation>自您打开或上次保存以来，“%1”已被另一个窗口或程序在磁盘上更改（%2）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/document.cpp" line="188"/>
        <source>Overwrite it with your version (the other changes are lost), save your version under another name, or cancel?</source>
        <translation>用您的版本覆盖它（其他更改将丢失）、以另一个名称保存您的版本，还是取消？</translation>
    </message>
    <message>
        <location filename="../../app/gui/document.cpp" line="190"/>
        <source>Overwrite</source>
        <translation>覆盖</translation>
    </message>
    <message>
        <location filename="../../app/gui/document.cpp" line="191"/>
        <source>Save As…</source>
        <translation>另存为…</translation>
    </message>
    <message>
        <location filename="../../app/gui/document.cpp" line="206"/>
        <source>Save scenario as</source>
        <translation>场景另存为</translation>
    </message>
    <message>
        <location filename="../../app/gui/document.cpp" line="207"/>
        <source>Scenarios (*.json)</source>
        <translation>场景 (*.json)</translation>
    </message>
</context>
<context>
    <name>scalescope::FigureTableModel</name>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="290"/>
        <source>Figure</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="292"/>
        <source>Datasheet</source>
        <translation>数据手册</translation>
    </message>
</context>
<context>
    <name>scalescope::MainWindow</name>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="14"/>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="32"/>
        <source>Claims gallery</source>
        <translation>论断集</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="41"/>
        <location filename="../../app/gui/main_window_ui.cpp" line="332"/>
        <source>Claim %1: %2</source>
        <translation>论断 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="67"/>
        <source>Steps shown:</source>
        <translation>显示步数：</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="82"/>
        <source>Fit</source>
        <translation>显示全部</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="84"/>
        <source>Show the whole timeline (Home)</source>
        <translation>显示整条时间线 (Home)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="85"/>
        <source>Suggest plan…</source>
        <translation>建议方案…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="87"/>
        <source>Search data / tensor / pipeline degrees, ZeRO stage, micro-batch, schedule and recompute for the fastest plan that fits in memory</source>
        <translation>搜索数据/张量/流水线并行度、ZeRO 阶段、微批次、调度和重计算，找出能放入显存的最快方案</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="152"/>
        <source>Scaling</source>
        <translation>扩展</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="153"/>
        <source>Breakdown</source>
        <translation>分解</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="154"/>
        <source>Memory</source>
        <translation>显存</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="155"/>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="156"/>
        <source>Calibration</source>
        <translation>校准</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="157"/>
        <source>A/B compare</source>
        <translation>A/B 比较</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="158"/>
        <source>Measured run</source>
        <translation>实测运行</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="220"/>
        <source>Memory per GPU against the GPU's capacity</source>
        <translation>每块 GPU 所需显存与 GPU 显存容量的对比</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="304"/>
        <location filename="../../app/gui/main_window_ui.cpp" line="223"/>
        <source>Wall time of one optimizer step</source>
        <translation>一次优化器步的墙钟时间</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="224"/>
        <source>Samples (and tokens) per second</source>
        <translation>每秒样本数（及 token 数）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="225"/>
        <source>Model FLOPs utilisation: model FLOP/s over the GPUs' peak at this precision</source>
        <translation>模型 FLOPs 利用率：模型 FLOP/s 与该精度下 GPU 峰值之比</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="169"/>
        <location filename="../../app/gui/main_window_ui.cpp" line="227"/>
        <source>Against one GPU of the same kind</source>
        <translation>相对同型号单块 GPU</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="228"/>
        <source>Speed-up divided by GPU count</source>
        <translation>加速比除以 GPU 数</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="230"/>
        <source>Asynchronous updates: how many steps old the parameters are that an applied gradient was computed on</source>
        <translation>异步更新：所应用的梯度是基于落后多少步的参数计算的</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="251"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="252"/>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="254"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="256"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="260"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="262"/>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="265"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="266"/>
        <source>Timeline as PNG…</source>
        <translation>时间线为 PNG…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="268"/>
        <source>Timeline as SVG…</source>
        <translation>时间线为 SVG…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="270"/>
        <source>Current chart as PNG…</source>
        <translation>当前图表为 PNG…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="272"/>
        <source>Current chart as SVG…</source>
        <translation>当前图表为 SVG…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="274"/>
        <source>Scaling sweep as CSV…</source>
        <translation>扩展扫描为 CSV…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="275"/>
        <source>Timeline as Chrome trace…</source>
        <translation>时间线为 Chrome trace…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="277"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="280"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="281"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="284"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="294"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="297"/>
        <source>&amp;Present the gallery</source>
        <translation>放映论断集(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="302"/>
        <source>Present &amp;my scenario</source>
        <translation>放映我的场景(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="309"/>
        <source>Pin as &amp;A (compare)</source>
        <translation>固定为 A（比较）(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="310"/>
        <source>Ctrl+P</source>
        <translation>Ctrl+P</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="311"/>
        <source>&amp;End compare</source>
        <translation>结束比较(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="320"/>
        <source>&amp;Tools</source>
        <translation>工具(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="322"/>
        <source>&amp;Suggest a parallel plan…</source>
        <translation>建议并行方案(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="324"/>
        <source>Ctrl+Shift+P</source>
        <translation>Ctrl+Shift+P</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="325"/>
        <source>&amp;Calibration profiles</source>
        <translation>校准配置文件(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="328"/>
        <source>&amp;Gallery</source>
        <translation>论断集(&amp;G)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="337"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="354"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="355"/>
        <source>&amp;Keyboard and mouse…</source>
        <translation>键盘和鼠标(&amp;K)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="359"/>
        <source>&amp;About ScaleScope</source>
        <translation>关于 ScaleScope(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="361"/>
        <source>About ScaleScope</source>
        <translation>关于 ScaleScope</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="362"/>
        <source>&lt;h3&gt;ScaleScope %1&lt;/h3&gt;&lt;p&gt;Shows why adding GPUs does not make deep-learning training proportionally faster: compute, communication, pipeline bubbles, stragglers and data loading, simulated per GPU.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;ScaleScope %1&lt;/h3&gt;&lt;p&gt;展示为什么增加 GPU 并不能让深度学习训练按比例加速：计算、通信、流水线气泡、慢节点和数据加载，逐 GPU 模拟。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="393"/>
        <source>Timeline: zoom around the pointer</source>
        <translation>时间线：以指针为中心缩放</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="393"/>
        <source>Wheel (when the timeline has focus)</source>
        <translation>滚轮（时间线获得焦点时）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="394"/>
        <source>Timeline: pan</source>
        <translation>时间线：平移</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="394"/>
        <source>Drag</source>
        <translation>拖动</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="395"/>
        <source>Timeline: fit the whole step</source>
        <translation>时间线：完整显示一步</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="395"/>
        <source>Home or double-click</source>
        <translation>Home 键或双击</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="396"/>
        <source>Timeline: collapse or expand a node</source>
        <translation>时间线：折叠或展开节点</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="396"/>
        <source>Click its name</source>
        <translation>单击节点名称</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="398"/>
        <source>Presentation: next or previous slide</source>
        <translation>演示：下一张或上一张幻灯片</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="398"/>
        <source>Arrow keys, Page Up / Page Down, Space</source>
        <translation>方向键、Page Up / Page Down、空格键</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="406"/>
        <source>Keyboard and mouse</source>
        <translation>键盘和鼠标</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="412"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="412"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="133"/>
        <source>%1[*] — ScaleScope</source>
        <translation>%1[*] — ScaleScope</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="155"/>
        <source>computing…</source>
        <translation>计算中…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="17"/>
        <source>No timeline: the scenario is not valid (%1).</source>
        <translation>无时间线：场景无效（%1）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="19"/>
        <source>No timeline: more segments than can be drawn; the figures come from the closed-form model.</source>
        <translation>无时间线：片段过多，无法绘制；各项数值来自闭式模型。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="53"/>
        <source>Simplified at this size: items closer than %1 stay merged at every zoom, except on the GPUs of the first data-parallel replica, which keep every item (%2 of about %3 segments drawn)</source>
        <translation>此规模下已简化：间隔小于 %1 的条目在任何缩放级别下都保持合并，第一个数据并行副本的 GPU 除外，它们保留全部条目（绘制了约 %3 段中的 %2 段）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="73"/>
        <source>simulating…</source>
        <translation>正在模拟…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="74"/>
        <source>Updating the timeline…</source>
        <translation>正在更新时间线…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="76"/>
        <source>computing the scaling sweep…</source>
        <translation>正在计算扩展曲线…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="192"/>
        <source>The one-GPU reference cannot hold this model (it would need %1 GiB of its %2 GiB): its time is on paper, not a run.</source>
        <translation>作为基准的单块 GPU 装不下这个模型（需要 %1 GiB，而它只有 %2 GiB）：这个基准时间只是纸面上的，并不能真正运行。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="209"/>
        <source>Scaling efficiency %1% (each GPU still idles %2%)</source>
        <translation>扩展效率 %1%（每块 GPU 仍有 %2% 的时间空闲）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="212"/>
        <source>Scaling efficiency %1%</source>
        <translation>扩展效率 %1%</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="223"/>
        <source>Speed-up %1× on %2 GPUs against one %3% slice</source>
        <translation>%2 块 GPU 上加速比 %1×（相对于一个 %3% 切片）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="269"/>
        <source>Does not fit: %1 GiB per GPU against %2 GiB</source>
        <translation>显存放不下：每块 GPU 需要 %1 GiB，而只有 %2 GiB</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="271"/>
        <source>May not fit: %1 GiB per GPU against %2 GiB, within the model's %3 % memory error</source>
        <translation>显存可能放不下：每块 GPU 需要 %1 GiB，而只有 %2 GiB，在模型 %3 % 的显存误差之内</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="276"/>
        <source>If it fitted: step %1</source>
        <translation>假如放得下：每步 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="277"/>
        <source>If it fitted: step %1, %2</source>
        <translation>假如放得下：每步 %1，%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="278"/>
        <source>What this step would take if the memory of each GPU held it. It cannot run: reduce the memory per GPU (ZeRO, tensor or pipeline parallelism, recomputation, a smaller micro-batch) or use GPUs with more memory.</source>
        <translation>这是每块 GPU 的显存放得下时这一步所需的时间。实际上它无法运行：请减少每块 GPU 的显存占用（ZeRO、张量或流水线并行、重计算、更小的微批次），或换用显存更大的 GPU。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="303"/>
        <source>Step %1</source>
        <translation>每步 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="306"/>
        <source>%1 samples/s</source>
        <translation>%1 样本/s</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="308"/>
        <source> · %1 tokens/s</source>
        <translation> · %1 token/s</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="310"/>
        <source>MFU %1%</source>
        <translation>MFU %1%</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="409"/>
        <source>Not computed: %1. Shown greyed: the last valid scenario (%2).</source>
        <translation>无法计算：%1。灰色显示的是上一个有效场景（%2）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="216"/>
        <source>Speed-up %1× on 1 GPU</source>
        <translation>1 块 GPU 上加速比 %1×</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="313"/>
        <source>Speed-up on %1 GPUs: once the fewest GPUs that fit are simulated</source>
        <translation>%1 块 GPU 的加速比：待能放下模型的最少 GPU 数模拟完成后给出</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="231"/>
        <source>%1× as fast as %2 GPUs, the fewest that fit; ideal %3×</source>
        <translation>速度是 %2 块 GPU（能放下模型的最少 GPU 数）的 %1×；理想为 %3×</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="246"/>
        <source>Speed-up %1× on %2 GPUs against 1 GPU on paper</source>
        <translation>%2 块 GPU 上加速比 %1×（相对纸面上的单块 GPU）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="227"/>
        <source>Speed-up %1× on %2 GPUs</source>
        <translation>%2 块 GPU 上加速比 %1×</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="256"/>
        <source>Counted from %1 GPUs, the fewest that hold the model: ideally %2 GPUs would be %3× as fast as they are.</source>
        <translation>以能放下模型的最少 GPU 数 %1 块为基准：理想情况下 %2 块 GPU 的速度应是它们的 %3×。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="198"/>
        <source>Against the one GPU on paper this run is %1× (efficiency %2%).</source>
        <translation>相对纸面上的单块 GPU，本次运行为 %1×（效率 %2%）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="239"/>
        <source>%1 GPUs are the fewest that fit: %2× against 1 GPU on paper</source>
        <translation>%1 块 GPU 是能放下模型的最少数量：相对纸面上的单块 GPU 为 %2×</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="243"/>
        <location filename="../../app/gui/main_window_results.cpp" line="250"/>
        <source>Efficiency %1% against 1 GPU on paper</source>
        <translation>效率 %1%（相对纸面上的单块 GPU）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="236"/>
        <source>Efficiency %1% from %2 GPUs</source>
        <translation>效率 %1%（以 %2 块 GPU 为基准）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="56"/>
        <source>Simplified at this size: items closer than %1 stay merged at every zoom (%2 of about %3 segments drawn)</source>
        <translation>此规模下已简化：间隔小于 %1 的条目在任何缩放级别下都保持合并（绘制了约 %3 段中的 %2 段）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="292"/>
        <source>Step %1
P50 %2 · P90 %3</source>
        <translation>每步 %1
P50 %2 · P90 %3</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="296"/>
        <source>The step is one simulated step from a standing start. Over %1 simulated steps in a row: median %2, P90 %3, P99 %4 (jitter, stragglers, the data loader or throttling make steps differ).</source>
        <translation>每步时间是从静止开始模拟的一步。连续模拟 %1 步：中位数 %2，P90 %3，P99 %4（抖动、慢节点、数据加载或降频使各步时间不同）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="326"/>
        <source>Staleness: 1 step</source>
        <translation>参数过时：1 步</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="327"/>
        <source>Staleness: %1 steps</source>
        <translation>参数过时：%1 步</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="339"/>
        <source>If it fitted: %1</source>
        <translation>假如放得下：%1</translation>
    </message>
    <message>
        <source>If it fits: %1</source>
        <translation>如果放得下：%1</translation>
    </message>
    <message>
        <source>If it fits: step %1</source>
        <translation>如果放得下：每步 %1</translation>
    </message>
    <message>
        <source>If it fits: step %1, %2</source>
        <translation>如果放得下：每步 %1，%2</translation>
    </message>
    <message>
        <source>What this step takes if the memory of each GPU holds it: it needs more than the GPU has, by less than the model's memory error, so it may run. If it does not: reduce the memory per GPU (ZeRO, tensor or pipeline parallelism, recomputation, a smaller micro-batch) or use GPUs with more memory.</source>
        <translation>这是每块 GPU 的显存放得下时这一步所需的时间：它需要的显存超出 GPU 的容量，但超出部分小于模型的显存误差，因此可能可以运行。若不能运行：请减少每块 GPU 的显存占用（ZeRO、张量或流水线并行、重计算、更小的微批次），或换用显存更大的 GPU。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="341"/>
        <source> (closed-form estimate while the simulation runs)</source>
        <translation>（模拟运行期间的闭式估算）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="343"/>
        <source> (timeline not drawn: too many segments; figures from the closed form)</source>
        <translation> (未绘制时间线：片段过多；数值来自闭式模型)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_presentation.cpp" line="298"/>
        <source>This show is your scenario alone. Esc ends it; F5 presents the claims gallery.</source>
        <translation>本次放映只有你的场景。按 Esc 结束；按 F5 放映论断集。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_presentation.cpp" line="378"/>
        <source>Pick a claim to load its scenario. In presentation mode (F5) the arrow keys step through them.</source>
        <translation>选择一个论断以加载其场景。在演示模式 (F5) 下可用方向键逐个切换。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="170"/>
        <source>Use datasheet figures</source>
        <translation>使用数据手册数值</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="175"/>
        <location filename="../../app/gui/main_window.cpp" line="191"/>
        <source>Cannot use this profile</source>
        <translation>无法使用此配置文件</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="181"/>
        <source>Apply calibration profile %1</source>
        <translation>应用校准配置文件 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="192"/>
        <source>The profile was measured on %1, not on the scenario's %2, and %1 is not in the catalog; choose a profile of the %2 or none.</source>
        <translation>该配置文件是在 %1 上测得的，而不是场景中的 %2，并且目录中没有 %1；请选择 %2 的配置文件，或不使用配置文件。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="198"/>
        <source>Profile of another GPU</source>
        <translation>其他 GPU 的配置文件</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="199"/>
        <source>The profile was measured on %1, not on the scenario's %2. Switch the scenario's GPU to %3 and apply it?</source>
        <translation>该配置文件是在 %1 上测得的，而不是场景中的 %2。要把场景的 GPU 切换为 %3 并应用它吗？</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="210"/>
        <source>Apply calibration profile %1 (GPU set to %2, where it was measured; power limit back to its TDP)</source>
        <translation>应用校准配置文件 %1（GPU 设为测量所用的 %2；功耗上限恢复为其 TDP）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="212"/>
        <source>Apply calibration profile %1 (GPU set to %2, where it was measured)</source>
        <translation>应用校准配置文件 %1（GPU 设为测量所用的 %2）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="233"/>
        <source>The step does not move: a measured collective stands only for a group of the shape it ran on, and the profile's ran on %1 node(s) of %2 GPUs, this scenario has %3 of %4.</source>
        <translation>每步时间不变：实测的集合通信只代表与其测量时形状相同的通信组，而该标定配置的集合通信在 %1 个节点 × 每节点 %2 块 GPU 上测得，本场景是 %3 个节点 × 每节点 %4 块 GPU。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="240"/>
        <source>The step does not move: none of the figures the profile measured sets this step's time.</source>
        <translation>每步时间不变：该标定配置测得的数值都不决定这一步的时间。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="254"/>
        <source>Applied %1.</source>
        <translation>已应用 %1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="258"/>
        <source>The GPU is now %1, where the profile was measured.</source>
        <translation>GPU 现为测量该配置文件时所用的 %1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="265"/>
        <source>%1 %2 → %3 %4 (%5%)</source>
        <translation>%1 %2 → %3 %4（%5%）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="272"/>
        <source>Measured instead of datasheet: %1.</source>
        <translation>以实测值代替数据手册：%1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="274"/>
        <source>Datasheet figures restored.</source>
        <translation>已恢复数据手册数值。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="278"/>
        <source>Step %1 → %2 (%3%).</source>
        <translation>单步 %1 → %2（%3%）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="294"/>
        <source>Apply suggested plan</source>
        <translation>应用建议方案</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="304"/>
        <source>A (pinned): %1</source>
        <translation>A（已固定）：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="307"/>
        <source>B (current)</source>
        <translation>B（当前）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="318"/>
        <source>Comparing with pinned A: change anything, see the deltas in the A/B compare tab.</source>
        <translation>正在与固定的 A 比较：修改任意设置，在 A/B 比较标签页中查看差值。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="15"/>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="16"/>
        <source>“%1” has unsaved changes. Save them first?</source>
        <translation>“%1”有未保存的更改。先保存吗？</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="29"/>
        <source>Cannot open scenario</source>
        <translation>无法打开场景</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="29"/>
        <location filename="../../app/gui/main_window_files.cpp" line="46"/>
        <source>%1

%2</source>
        <translation>%1

%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="46"/>
        <source>Cannot save scenario</source>
        <translation>无法保存场景</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="50"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="25"/>
        <location filename="../../app/gui/main_window_files.cpp" line="64"/>
        <source>Save scenario</source>
        <translation>保存场景</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window.cpp" line="25"/>
        <location filename="../../app/gui/main_window_files.cpp" line="64"/>
        <source>Scenarios (*.json)</source>
        <translation>场景 (*.json)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="88"/>
        <source>Open scenario</source>
        <translation>打开场景</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="89"/>
        <source>Scenarios (*.json);;All files (*)</source>
        <translation>场景 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="114"/>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="117"/>
        <source>Clear list</source>
        <translation>清除列表</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="196"/>
        <source>Export timeline</source>
        <translation>导出时间线</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="190"/>
        <source>SVG images (*.svg)</source>
        <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="72"/>
        <source>Measured training steps drawn on the timeline (1-4); with a data loader or asynchronous updates, the warm-up steps simulated before them are drawn too</source>
        <translation>时间线上绘制的测量训练步数（1-4）；有数据加载器或异步更新时，也会绘制在它们之前模拟的预热步</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="45"/>
        <source>1 warm-up step drawn before the measured ones (the data loader or asynchronous updates carry state from step to step)</source>
        <translation>在测量步之前绘制了 1 个预热步（数据加载器或异步更新会把状态带到下一步）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_results.cpp" line="47"/>
        <source>%1 warm-up steps drawn before the measured ones (the data loader or asynchronous updates carry state from step to step)</source>
        <translation>在测量步之前绘制了 %1 个预热步（数据加载器或异步更新会把状态带到下一步）</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="190"/>
        <source>PNG images (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="203"/>
        <location filename="../../app/gui/main_window_files.cpp" line="213"/>
        <location filename="../../app/gui/main_window_files.cpp" line="219"/>
        <location filename="../../app/gui/main_window_files.cpp" line="228"/>
        <location filename="../../app/gui/main_window_files.cpp" line="236"/>
        <location filename="../../app/gui/main_window_files.cpp" line="252"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="208"/>
        <source>Export chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="219"/>
        <source>There is no scaling sweep to export yet.</source>
        <translation>尚无可导出的扩展扫描。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="222"/>
        <source>Export sweep</source>
        <translation>导出扫描</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="222"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="236"/>
        <source>There is no timeline to export.</source>
        <translation>没有可导出的时间线。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="240"/>
        <source>Export Chrome trace</source>
        <translation>导出 Chrome trace</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="240"/>
        <source>Trace files (*.json)</source>
        <translation>Trace 文件 (*.json)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_files.cpp" line="267"/>
        <source>Autosave failed: %1</source>
        <translation>自动保存失败：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="257"/>
        <source>Open &amp;measured trace…</source>
        <translation>打开实测跟踪(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_ui.cpp" line="259"/>
        <source>Close measured trace</source>
        <translation>关闭实测跟踪</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="123"/>
        <source>Open measured trace</source>
        <translation>打开实测跟踪</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="124"/>
        <source>PyTorch profiler traces (*.json *.json.gz *.gz);;All files (*)</source>
        <translation>PyTorch 性能分析器跟踪 (*.json *.json.gz *.gz);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="137"/>
        <source>Reading the measured trace…</source>
        <translation>正在读取实测跟踪…</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="137"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="160"/>
        <source>Cannot open measured trace</source>
        <translation>无法打开实测跟踪</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="172"/>
        <source>Measured: ranks %1, %2, median step %3 ms (compute %4 ms, exposed communication %5 ms, idle %6 ms)</source>
        <translation>实测：rank %1，%2，步时间中位数 %3 ms（计算 %4 ms，暴露的通信 %5 ms，空闲 %6 ms）</translation>
    </message>
    <message>
        <source>The trace ran on %1 and the scenario models %2: the bars compare different GPUs. Set the scenario's GPU to the trace's to compare like with like.</source>
        <translation>该 trace 运行在 %1 上，而场景建模的是 %2：下面的柱状图比较的是不同的 GPU。请把场景的 GPU 设为 trace 所用的 GPU，以便同类比较。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="175"/>
        <source>GPU not named</source>
        <translation>未注明 GPU</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="186"/>
        <source>%1 · %2 step(s) of %3 rank(s) from %4; measured steps from %5 to %6 ms, P90 %7 ms</source>
        <translation>%1 · 来自 %4 的 %3 个 rank 的 %2 步；实测每步 %5 至 %6 ms，P90 %7 ms</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="247"/>
        <source>Save the profile fitted from the measured run</source>
        <translation>保存由实测运行拟合出的标定配置</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="249"/>
        <source>Calibration profiles (*.json)</source>
        <translation>标定配置 (*.json)</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="267"/>
        <source>Cannot write the fitted profile</source>
        <translation>无法写入拟合出的标定配置</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="275"/>
        <source>Wrote %1 from the traces: %2 collective sample(s), %3 GEMM sample(s), %4 launch sample(s), each figure marked as coming from a trace. Applied to the scenario: the Calibration tab says what it changed.</source>
        <translation>已根据跟踪写入 %1：%2 个集合通信样本、%3 个 GEMM 样本、%4 个启动样本，每个数值都标明来自跟踪。已应用到场景：“校准”标签页说明了它改变了什么。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="283"/>
        <source>Not fitted: %1.</source>
        <translation>未拟合：%1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_trace.cpp" line="290"/>
        <source>Wrote %1 from the traces, but it was not applied (see the message).</source>
        <translation>已根据跟踪写入 %1，但未能应用（见提示信息）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_p.h" line="198"/>
        <source>1 GPU</source>
        <translation>1 块 GPU</translation>
    </message>
    <message>
        <location filename="../../app/gui/main_window_p.h" line="198"/>
        <source>%1 GPUs</source>
        <translation>%1 块 GPU</translation>
    </message>
    <message>
        <source>%1.</source>
        <comment>a sentence ending</comment>
        <translation>%1。</translation>
    </message>
</context>
<context>
    <name>scalescope::MeasuredRunView</name>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="34"/>
        <source>step time</source>
        <translation>每步时间</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="36"/>
        <location filename="../../views/charts/measured_run_view.cpp" line="171"/>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="38"/>
        <location filename="../../views/charts/measured_run_view.cpp" line="173"/>
        <source>communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="40"/>
        <source>exposed communication</source>
        <translation>未掩盖的通信</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="42"/>
        <location filename="../../views/charts/measured_run_view.cpp" line="175"/>
        <source>copies</source>
        <translation>拷贝</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="43"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="48"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="63"/>
        <source>No measured run. Open PyTorch profiler traces of your job (one per rank, .json or .json.gz) with File &gt; Open measured trace, or drop them on the window: their step is drawn under the predicted one and compared with it here.</source>
        <translation>尚无实测运行。用“文件 &gt; 打开实测跟踪”打开作业的 PyTorch profiler 跟踪（每个 rank 一个，.json 或 .json.gz），或将其拖放到窗口上：其步骤会画在预测步骤下方，并在此处与之比较。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="70"/>
        <source>Open measured trace…</source>
        <translation>打开实测跟踪…</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="75"/>
        <source>Measured step against the model's prediction</source>
        <translation>实测步骤与模型预测对比</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="76"/>
        <source>Measured vs predicted</source>
        <translation>实测与预测</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="80"/>
        <source>Measured (median over steps and ranks)</source>
        <translation>实测（各步与各 rank 的中位数）</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="81"/>
        <source>Predicted by the model</source>
        <translation>模型预测</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="95"/>
        <source>ms per step</source>
        <translation>每步 ms</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="118"/>
        <source>Fit the model to this run</source>
        <translation>让模型拟合这次运行</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="120"/>
        <source>Writes a calibration profile fitted from the traces (collective bandwidth by size, GEMM throughput where shapes were recorded, the host's launch time), applies it and says what changed</source>
        <translation>根据跟踪写入拟合出的标定配置（按消息大小的集合通信带宽、记录了形状的 GEMM 吞吐、主机的启动时间），应用它并说明改变了什么</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="177"/>
        <source>host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="179"/>
        <source>launch gaps</source>
        <translation>启动间隙</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="181"/>
        <source>untraced</source>
        <translation>未跟踪</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="199"/>
        <source>%1 %2%</source>
        <translation>%1 %2%</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="202"/>
        <source>Critical path of step %1 (rank %2, %3): %4. It is drawn on the measured rows of the timeline.</source>
        <translation>第 %1 步的关键路径（rank %2，%3）：%4。它画在时间线的实测行上。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="206"/>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="209"/>
        <source>Host: the launching thread in and between its CUDA calls (Python, the framework, the data loader); the GPU waited for it.</source>
        <translation>主机：发起启动的线程在其 CUDA 调用之中及之间的时间（Python、框架、数据加载器）；GPU 在等待它。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="212"/>
        <source>Waits between streams are inferred from timing: the trace records no cuda_sync events.</source>
        <translation>流之间的等待是根据时间推断的：该跟踪没有记录 cuda_sync 事件。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="271"/>
        <source>The model's steps (%1 simulated): P50 %2, P90 %3, P99 %4.</source>
        <translation>模型的各步（模拟 %1 步）：P50 %2，P90 %3，P99 %4。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="277"/>
        <source>The model's steps do not vary (no jitter, straggler, data loader or throttling over time): each takes %1.</source>
        <translation>模型的各步没有差别（没有抖动、慢节点、数据加载器或随时间出现的降频）：每步都是 %1。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="303"/>
        <source>The model's prediction of this step is not computed yet.</source>
        <translation>模型对这一步的预测尚未算出。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="308"/>
        <source>No figure of the step to compare.</source>
        <translation>这一步没有可比较的数值。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="315"/>
        <source>The largest disagreement is %1: measured %2, %3 times the model's %4.</source>
        <translation>差异最大的是%1：实测 %2，是模型预测 %4 的 %3 倍。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="321"/>
        <source>The largest disagreement is %1: the model predicts %2, %3 times the measured %4.</source>
        <translation>差异最大的是%1：模型预测 %2，是实测 %4 的 %3 倍。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="328"/>
        <source>The largest disagreement is %1: the model predicts %2, the run measured none.</source>
        <translation>差异最大的是%1：模型预测 %2，而运行中实测为零。</translation>
    </message>
    <message>
        <location filename="../../views/charts/measured_run_view.cpp" line="333"/>
        <source>The largest disagreement is %1: measured %2, which the model does not predict at all.</source>
        <translation>差异最大的是%1：实测 %2，而模型完全没有预测这一项。</translation>
    </message>
</context>
<context>
    <name>scalescope::MemoryView</name>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="53"/>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="55"/>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="57"/>
        <source>Optimizer states</source>
        <translation>优化器状态</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="59"/>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="98"/>
        <source>Memory per GPU</source>
        <translation>每 GPU 显存</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="118"/>
        <source>Memory per GPU (GiB)</source>
        <translation>每 GPU 显存 (GiB)</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="200"/>
        <source>No memory estimate for this scenario.</source>
        <translation>此场景没有显存估算。</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="229"/>
        <source>%1 %2 GiB</source>
        <translation>%1 %2 GiB</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="234"/>
        <source>GPU of stage %1
(most loaded)</source>
        <translation>阶段 %1 的 GPU
（负载最重）</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="235"/>
        <source>Each GPU</source>
        <translation>每块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="237"/>
        <source>Capacity %1 GiB</source>
        <translation>容量 %1 GiB</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="250"/>
        <source>Fits: the tensors take %1 GiB of %2 GiB; the caching allocator holds the rest.</source>
        <translation>可容纳：张量占用 %2 GiB 中的 %1 GiB；其余由缓存分配器持有。</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="296"/>
        <source>With %1 % to spare, less than the model&apos;s %2 % memory error, it may not fit.</source>
        <translation>余量仅 %1 %，小于模型 %2 % 的显存误差，实际可能放不下。</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="298"/>
        <source>%1 % over is less than the model&apos;s %2 % memory error: it may fit.</source>
        <translation>超出 %1 %，小于模型 %2 % 的显存误差：实际可能放得下。</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="256"/>
        <source>Fits: %1 GiB of %2 GiB (%3 %), %4 GiB free.</source>
        <translation>可容纳：%1 GiB / %2 GiB（%3 %），剩余 %4 GiB。</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="262"/>
        <source>Does not fit: needs %1 GiB of %2 GiB — try ZeRO-3, tensor/pipeline parallelism or recompute</source>
        <translation>容纳不下：需要 %1 GiB，容量 %2 GiB — 可尝试 ZeRO-3、张量/流水线并行或重计算</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="271"/>
        <source>Of the parameters, gradients and optimizer states, the routed experts hold %1 GiB.</source>
        <translation>在参数、梯度和优化器状态中，路由专家占 %1 GiB。</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="276"/>
        <source>%1 GiB of activations wait in host memory between forward and backward (offloaded layers), not counted above.</source>
        <translation>另有 %1 GiB 激活在前向与反向之间放在主机内存中（卸载的层），未计入上面的数字。</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="276"/>
        <source>Pipeline stage %1 holds the most; other stages need less.</source>
        <translation>流水线阶段 %1 占用最多；其他阶段需要更少。</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="279"/>
        <source>The tensors take %1 GiB; PyTorch's caching allocator holds the rest of the card and gives it back before it would run out of memory.</source>
        <translation>张量占用 %1 GiB；其余显存由 PyTorch 的缓存分配器持有，在显存将要耗尽之前它会将其归还。</translation>
    </message>
    <message>
        <location filename="../../views/charts/memory_view.cpp" line="286"/>
        <source>The capacity is what one process can allocate of the card's %1 GiB: the driver keeps about 1% and the CUDA context 0.5 GiB.</source>
        <translation>容量是单个进程在这张 %1 GiB 的卡上可分配的显存：驱动保留约 1%，CUDA 上下文占 0.5 GiB。</translation>
    </message>
    <message>
        <source>Does not fit: needs %1 GiB of %2 GiB — %3</source>
        <translation>容纳不下：需要 %1 GiB，容量 %2 GiB — %3</translation>
    </message>
    <message>
        <source>May not fit: needs %1 GiB of %2 GiB — %3</source>
        <translation>可能容纳不下：需要 %1 GiB，容量 %2 GiB — %3</translation>
    </message>
    <message>
        <source>May not fit: needs %1 GiB of %2 GiB — try ZeRO-3, tensor/pipeline parallelism or recompute</source>
        <translation>可能容纳不下：需要 %1 GiB，容量 %2 GiB — 可尝试 ZeRO-3、张量/流水线并行或重计算</translation>
    </message>
</context>
<context>
    <name>scalescope::PlanDialog</name>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="37"/>
        <location filename="../../app/gui/plan_dialog.cpp" line="59"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="40"/>
        <source>GPipe</source>
        <translation>GPipe</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="42"/>
        <source>1F1B</source>
        <translation>1F1B</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="44"/>
        <source>interleaved, %1 virtual</source>
        <translation>交错，%1 个虚拟阶段</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="46"/>
        <source>zero bubble (ZB-H1)</source>
        <translation>零气泡（ZB-H1）</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="48"/>
        <source>zero bubble V (ZB-V)</source>
        <translation>零气泡 V（ZB-V）</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="50"/>
        <source>DualPipe</source>
        <translation>DualPipe</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="61"/>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="63"/>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="99"/>
        <source>GPU count</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="101"/>
        <source>Plans shown</source>
        <translation>显示方案数</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="103"/>
        <source>Scenario</source>
        <translation>场景</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="112"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="119"/>
        <source>Search cancelled after %1 plans (%2 ms); the best of those are shown.</source>
        <translation>搜索在考察 %1 个方案后取消（%2 ms）；显示其中最好的方案。</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="123"/>
        <source>%1 plans considered, %2 fit in memory, %3 dropped for memory, %4 ms</source>
        <translation>已考察 %1 个方案，%2 个可放入显存，%3 个因显存不足被舍弃，%4 ms</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="130"/>
        <source>No plan fits in memory on %1 GPUs: try more GPUs or a smaller model.</source>
        <translation>%1 块 GPU 上没有能放入显存的方案：请尝试更多 GPU 或更小的模型。</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="355"/>
        <source>Suggest plan</source>
        <translation>建议方案</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="361"/>
        <source> GPUs</source>
        <translation> 块 GPU</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="362"/>
        <source>GPUs to plan for (1 to %1); above one node, a multiple of %2 GPUs per node</source>
        <translation>规划的 GPU 数（1 到 %1）；超过一个节点时须为每节点 %2 块 GPU 的倍数</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="371"/>
        <source> plans</source>
        <translation> 个方案</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="372"/>
        <source>How many of the fastest plans to list (1 to 50)</source>
        <translation>列出最快方案的个数（1 到 50）</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="374"/>
        <source>&amp;Search</source>
        <translation>搜索(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="377"/>
        <source>&amp;Cancel search</source>
        <translation>取消搜索(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="389"/>
        <source>&amp;GPU count:</source>
        <translation>GPU 数(&amp;G)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="391"/>
        <source>&amp;Plans shown:</source>
        <translation>显示方案数(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="424"/>
        <source>&amp;Apply plan</source>
        <translation>应用方案(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="428"/>
        <source>Use the selected plan in the scenario</source>
        <translation>在场景中使用所选方案</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="476"/>
        <source>Searching plans on %1 GPUs…</source>
        <translation>正在搜索 %1 块 GPU 上的方案…</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="511"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="571"/>
        <source>Search cancelled.</source>
        <translation>搜索已取消。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <comment>recompute and its modules</comment>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>scalescope::PlanTableModel</name>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="202"/>
        <source>%1 (current)</source>
        <translation>%1（当前）</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="222"/>
        <source>≈ %1</source>
        <comment>closed-form estimate</comment>
        <translation>≈ %1</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="228"/>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="270"/>
        <source>Simulated, as the window shows it once the plan is applied</source>
        <translation>模拟结果，即应用该方案后窗口显示的数值</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="271"/>
        <source>Closed-form estimate (too large to simulate here)</source>
        <translation>闭式估算（规模太大，无法在此模拟）</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="273"/>
        <source>The plan the scenario uses now</source>
        <translation>场景当前使用的方案</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="300"/>
        <source>Rank</source>
        <translation>排名</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="302"/>
        <source>Data (GPUs)</source>
        <translation>数据 (GPU)</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="304"/>
        <source>Tensor (GPUs)</source>
        <translation>张量 (GPU)</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="306"/>
        <source>Pipeline (stages)</source>
        <translation>流水线 (阶段)</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="308"/>
        <source>ZeRO stage</source>
        <translation>ZeRO 阶段</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="310"/>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="312"/>
        <source>Micro-batch (samples)</source>
        <translation>微批次 (样本)</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="314"/>
        <source>Recompute</source>
        <translation>重计算</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="316"/>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="318"/>
        <source>Samples/s</source>
        <translation>样本/s</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="320"/>
        <source>MFU (%)</source>
        <translation>MFU (%)</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="322"/>
        <source>Memory / capacity (GiB per GPU)</source>
        <translation>显存 / 容量 (GiB/GPU)</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="324"/>
        <source>Bottleneck</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="330"/>
        <source>Data-parallel degree: model replicas</source>
        <translation>数据并行度：模型副本数</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="332"/>
        <source>Tensor-parallel degree: GPUs sharing each layer, inside a node</source>
        <translation>张量并行度：节点内共享每一层的 GPU 数</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="334"/>
        <source>Pipeline-parallel degree: stages of consecutive layers</source>
        <translation>流水线并行度：由连续层组成的阶段数</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="336"/>
        <source>ZeRO stage: 0 none, 1 optimizer, 2 + gradients, 3 + parameters sharded</source>
        <translation>ZeRO 阶段：0 不分片，1 分片优化器状态，2 再加梯度，3 再加参数</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="338"/>
        <source>Model FLOPs utilisation: useful FLOPs over peak</source>
        <translation>模型 FLOPs 利用率：有效 FLOPs 与峰值之比</translation>
    </message>
    <message>
        <location filename="../../app/gui/plan_dialog.cpp" line="340"/>
        <source>Memory of the most loaded GPU, and the GPU's capacity</source>
        <translation>负载最重 GPU 的显存及该 GPU 的容量</translation>
    </message>
</context>
<context>
    <name>scalescope::PresentationStage</name>
    <message>
        <location filename="../../app/gui/presentation.cpp" line="308"/>
        <source>your scenario</source>
        <translation>你的场景</translation>
    </message>
    <message>
        <location filename="../../app/gui/presentation.cpp" line="355"/>
        <source>Both GPUs have the same timeline: one row stands for both.</source>
        <translation>两块 GPU 的时间线完全相同：用一行代表两者。</translation>
    </message>
    <message>
        <location filename="../../app/gui/presentation.cpp" line="357"/>
        <source>All %1 GPUs have the same timeline: one row stands for all of them.</source>
        <translation>全部 %1 块 GPU 的时间线完全相同：用一行代表全部。</translation>
    </message>
    <message>
        <location filename="../../app/gui/presentation.cpp" line="364"/>
        <source>GPU %1 stands for GPUs %2</source>
        <translation>GPU %1 代表 GPU %2</translation>
    </message>
    <message>
        <location filename="../../app/gui/presentation.cpp" line="368"/>
        <source>GPUs with identical timelines are drawn once: %1.</source>
        <translation>时间线完全相同的 GPU 只画一次：%1。</translation>
    </message>
    <message>
        <location filename="../../app/gui/presentation.cpp" line="373"/>
        <source>No timeline: more segments than can be drawn; the figures come from the closed-form model.</source>
        <translation>无时间线：片段过多，无法绘制；各项数值来自闭式模型。</translation>
    </message>
    <message>
        <location filename="../../app/gui/presentation.cpp" line="377"/>
        <source>No timeline: the scenario is not valid (%1).</source>
        <translation>无时间线：场景无效（%1）。</translation>
    </message>
</context>
<context>
    <name>scalescope::ProbeRunner</name>
    <message>
        <location filename="../../app/gui/probe_runner.cpp" line="65"/>
        <source>gpuprobe could not be started (%1): %2</source>
        <translation>无法启动 gpuprobe（%1）：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/probe_runner.cpp" line="79"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../../app/gui/probe_runner.cpp" line="82"/>
        <source>gpuprobe stopped unexpectedly (crash or killed).</source>
        <translation>gpuprobe 意外停止（崩溃或被终止）。</translation>
    </message>
    <message>
        <location filename="../../app/gui/probe_runner.cpp" line="85"/>
        <source>Done.</source>
        <translation>完成。</translation>
    </message>
    <message>
        <location filename="../../app/gui/probe_runner.cpp" line="87"/>
        <source>No usable GPU: %1</source>
        <translation>没有可用的 GPU：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/probe_runner.cpp" line="89"/>
        <source>gpuprobe rejected its input: %1</source>
        <translation>gpuprobe 拒绝了其输入：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/probe_runner.cpp" line="91"/>
        <source>gpuprobe failed (exit code %1): %2</source>
        <translation>gpuprobe 失败（退出码 %1）：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/probe_runner.cpp" line="148"/>
        <source>skipped %1: %2</source>
        <translation>已跳过 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/gui/probe_runner.cpp" line="151"/>
        <source>error in %1: %2</source>
        <translation>%1 出错：%2</translation>
    </message>
</context>
<context>
    <name>scalescope::ProfileListModel</name>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="189"/>
        <source>damaged: %1</source>
        <translation>已损坏：%1</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="198"/>
        <source> (the scenario's)</source>
        <translation>(场景所用)</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="199"/>
        <source> (bundled)</source>
        <translation> (内置)</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="211"/>
        <source>Profile</source>
        <translation>配置文件</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="213"/>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="215"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="217"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../../app/gui/profile_library.cpp" line="219"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
</context>
<context>
    <name>scalescope::ScalingView</name>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="129"/>
        <source>GPUs (log scale)</source>
        <translation>GPU 数（对数刻度）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="170"/>
        <source>&amp;Scaling:</source>
        <translation>扩展方式(&amp;S)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="173"/>
        <source>Strong (same global batch)</source>
        <translation>强扩展（全局批大小不变）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="174"/>
        <source>Weak (same batch per replica)</source>
        <translation>弱扩展（每副本批大小不变）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="175"/>
        <source>Strong scaling spreads a fixed global batch over more GPUs; weak scaling grows the global batch with the GPU count.</source>
        <translation>强扩展将固定的全局批分摊到更多 GPU 上；弱扩展则随 GPU 数增大全局批大小。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="198"/>
        <source>&amp;Cluster:</source>
        <translation>集群(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="206"/>
        <source>How the sweep reaches each GPU count: more nodes of the scenario's size, or nodes of %1 GPUs filled before another is added</source>
        <translation>扫描如何达到每块 GPU 数量：增加与场景相同规模的节点，或先把每个节点装满 %1 块 GPU 再增加节点</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="222"/>
        <location filename="../../views/charts/scaling_view.cpp" line="232"/>
        <source>Speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="225"/>
        <location filename="../../views/charts/scaling_view.cpp" line="256"/>
        <source>Ideal</source>
        <translation>理想</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="244"/>
        <source>Speed-up (×, log scale)</source>
        <translation>加速比（×，对数刻度）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="99"/>
        <source>Simulated by the engine</source>
        <translation>由模拟引擎计算</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="113"/>
        <source>Closed form (estimate: too large for the engine)</source>
        <translation>解析公式（估算：规模超出模拟引擎）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="129"/>
        <source>GPUs (log)</source>
        <translation>GPU 数（对数）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="244"/>
        <source>Speed-up (×, log)</source>
        <translation>加速比（×，对数）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="253"/>
        <source>Scaling efficiency</source>
        <translation>扩展效率</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="253"/>
        <location filename="../../views/charts/scaling_view.cpp" line="259"/>
        <source>Efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="267"/>
        <source>Efficiency (%)</source>
        <translation>效率 (%)</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="281"/>
        <source>Where the missing speed-up went</source>
        <translation>缺失的加速比去了哪里</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="281"/>
        <source>Missing speed-up</source>
        <translation>缺失的加速比</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="284"/>
        <source>Achieved speed-up</source>
        <translation>实际加速比</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="300"/>
        <source>GPUs</source>
        <translation>GPU 数</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="303"/>
        <source>Speed-up and lost speed-up (GPUs)</source>
        <translation>加速比与损失的加速比（GPU 数）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="303"/>
        <source>Speed-up (GPUs)</source>
        <translation>加速比（GPU 数）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="368"/>
        <source>add nodes like the scenario's (GPUs per node: %1)</source>
        <translation>按场景的节点规模增加节点（每节点 GPU 数：%1）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="369"/>
        <source>fill nodes of %1 GPUs first</source>
        <translation>先装满每节点 %1 块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="393"/>
        <source>No scaling sweep for this scenario.</source>
        <translation>此场景没有扩展扫描。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="498"/>
        <source>N = %1</source>
        <translation>N = %1</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="549"/>
        <source>Amdahl fit: s = %1 %</source>
        <translation>Amdahl 拟合：s = %1 %</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="551"/>
        <source>No Amdahl or Gustafson fit: both laws count from one GPU, and one GPU cannot hold this model.</source>
        <translation>不做 Amdahl 或 Gustafson 拟合：这两条定律都从单块 GPU 起算，而单块 GPU 放不下这个模型。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="560"/>
        <source>Weak scaling: Gustafson serial fraction s = %1 % (scaled speed-up N - s (N - 1), the work grows with N; R² = %2 over %3 points).</source>
        <translation>弱扩展：Gustafson 串行比例 s = %1 %（扩展加速比 N - s (N - 1)，工作量随 N 增长；R² = %2，基于 %3 个点）。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="564"/>
        <source>No Gustafson fit: it needs at least %1 sweep points with more than one GPU, this sweep has %2.</source>
        <translation>没有 Gustafson 拟合：至少需要 %1 个多于一块 GPU 的扫描点，本次扫描只有 %2 个。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="569"/>
        <source>No Gustafson fit: Gustafson's law does not describe this curve (R² = %1 over %2 points, below %3), so it gives no serial fraction.</source>
        <translation>没有 Gustafson 拟合：Gustafson 定律不能描述这条曲线（R² = %1，基于 %2 个点，低于 %3），因此不给出串行比例。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="612"/>
        <source>No Amdahl fit: it needs at least %1 sweep points with more than one GPU, this sweep has %2.</source>
        <translation>没有 Amdahl 拟合：至少需要 %1 个多于一块 GPU 的扫描点，本次扫描只有 %2 个。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="616"/>
        <source>No Amdahl fit: Amdahl's law does not describe this curve (R² = %1 over %2 points, below %3), so it gives no serial fraction and no ceiling.</source>
        <translation>没有 Amdahl 拟合：Amdahl 定律不能描述这条曲线（R² = %1，基于 %2 个点，低于 %3），因此不给出串行比例，也不给出上限。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="633"/>
        <source>The simulated speed-up already passes 1/s, so the fit gives no ceiling.</source>
        <translation>模拟的加速比已经超过 1/s，因此该拟合不给出上限。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="651"/>
        <source>One GPU cannot hold this model (it would need %1 GiB of its %2 GiB), so speed-up is how many times as fast as %3 GPUs, the fewest that fit, with an ideal of N / %3 on N GPUs; efficiency is speed-up over ideal. Where the missing speed-up went is still counted against the one GPU on paper.</source>
        <translation>单块 GPU 放不下这个模型（需要 %1 GiB，而它只有 %2 GiB），因此加速比表示速度是能放下模型的最少 GPU 数 %3 块的多少倍，N 块 GPU 的理想值为 N / %3；效率为加速比除以理想值。“缺失的加速比去哪了”仍以纸面上的单块 GPU 为基准。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="659"/>
        <source>Speed-up against one GPU, which cannot hold this model (it would need %1 GiB of its %2 GiB): the reference is a time on paper, not a run.</source>
        <translation>加速比以单块 GPU 为基准，但单块 GPU 装不下这个模型（需要 %1 GiB，而它只有 %2 GiB）：这个基准只是纸面上的时间，并不能真正运行。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="732"/>
        <source>Does not fit in memory: the most loaded GPU needs %1 GiB of its %2 GiB; this run cannot start.</source>
        <translation>显存容纳不下：负载最重的 GPU 需要 %1 GiB，而它只有 %2 GiB；这次运行无法启动。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="733"/>
        <source>May not fit in memory: the most loaded GPU needs %1 GiB of its %2 GiB, less over than the model&apos;s %3 % memory error.</source>
        <translation>显存可能容纳不下：负载最重的 GPU 需要 %1 GiB，而它只有 %2 GiB，超出部分小于模型 %3 % 的显存误差。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="751"/>
        <source>N = %1: achieved speed-up %2× of the ideal %1×</source>
        <translation>N = %1：实际加速比 %2×，理想为 %1×</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="755"/>
        <source>N = %1: %2 costs %3 GPUs of speed-up (achieved %4× of the ideal %1×)</source>
        <translation>N = %1：%2 损失了 %3 块 GPU 的加速比（实际 %4×，理想 %1×）</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="759"/>
        <source>This run does not fit in memory and cannot start.</source>
        <translation>这次运行显存容纳不下，无法启动。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="625"/>
        <source>Amdahl fit: serial fraction s = %1 % (R² = %2 over %3 points).</source>
        <translation>Amdahl 拟合：串行比例 s = %1 %（R² = %2，基于 %3 个点）。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="75"/>
        <source>Does not fit in memory</source>
        <translation>显存容纳不下</translation>
    </message>
    <message>
        <source>May not fit in memory</source>
        <translation>显存可能容纳不下</translation>
    </message>
    <message>
        <source>Does not fit / may not fit</source>
        <translation>容纳不下 / 可能容纳不下</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="630"/>
        <source>With a fixed batch, no number of GPUs gets past %1× (1/s).</source>
        <translation>批大小固定时，无论多少 GPU 都无法超过 %1×（1/s）。</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="559"/>
        <source>Gustafson: s = %1 %</source>
        <translation>Gustafson：s = %1 %</translation>
    </message>
    <message>
        <location filename="../../views/charts/scaling_view.cpp" line="726"/>
        <source>N = %1: speed-up %2×, efficiency %3 %, step %4 s</source>
        <translation>N = %1：加速比 %2×，效率 %3 %，步时间 %4 s</translation>
    </message>
</context>
<context>
    <name>scalescope::SweepTableModel</name>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="135"/>
        <source>%1 (closed form)</source>
        <translation>%1（闭式模型）</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="156"/>
        <source>Does not fit: speed-ups count from %1 GPUs, the fewest that fit.</source>
        <translation>放不下：加速比从能放下模型的最少 GPU 数 %1 块起算。</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="159"/>
        <source>More tasks than the window simulates per sweep point: these figures come from the closed-form model, not the event simulation.</source>
        <translation>任务数超过窗口对每个扫描点模拟的上限：这些数字来自闭式模型，而非事件模拟。</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="181"/>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="185"/>
        <source>Samples/s</source>
        <translation>样本/s</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="188"/>
        <source>Speed-up (× from %1 GPUs)</source>
        <translation>加速比（×，从 %1 块 GPU 起算）</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="189"/>
        <source>Speed-up (×)</source>
        <translation>加速比 (×)</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="191"/>
        <source>Efficiency (%)</source>
        <translation>效率 (%)</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="203"/>
        <source>Comm share (%)</source>
        <translation>通信占比 (%)</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="210"/>
        <source>Number of GPUs in this sweep point</source>
        <translation>此扫描点的 GPU 数</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="31"/>
        <location filename="../../views/charts/sweep_table_model.cpp" line="66"/>
        <source>s</source>
        <translation>s</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="34"/>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="37"/>
        <source>µs</source>
        <translation>µs</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="183"/>
        <source>Step time (%1)</source>
        <translation>步时间 (%1)</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="193"/>
        <source>Compute (%1)</source>
        <translation>计算 (%1)</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="195"/>
        <source>Exposed comm (%1)</source>
        <translation>暴露通信 (%1)</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="197"/>
        <source>Bubble (%1)</source>
        <translation>气泡 (%1)</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="199"/>
        <source>Wait (%1)</source>
        <translation>等待 (%1)</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="201"/>
        <source>Data loading (%1)</source>
        <translation>数据加载 (%1)</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="212"/>
        <source>Time of one training step</source>
        <translation>一个训练步的时间</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="214"/>
        <source>Training samples processed per second</source>
        <translation>每秒处理的训练样本数</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="216"/>
        <source>Step-time speed-up over one GPU of the same kind</source>
        <translation>相对同型号单块 GPU 的步时间加速比</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="218"/>
        <source>Speed-up divided by the number of GPUs</source>
        <translation>加速比除以 GPU 数</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="220"/>
        <source>Compute time per step, averaged over GPUs</source>
        <translation>每步计算时间，各 GPU 平均</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="222"/>
        <source>Communication not hidden behind compute, per step</source>
        <translation>每步未被计算掩盖的通信</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="224"/>
        <source>Idle time of the pipeline schedule, per step</source>
        <translation>每步流水线调度的空闲时间</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="226"/>
        <source>Time spent waiting for other GPUs, per step</source>
        <translation>每步等待其他 GPU 的时间</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="228"/>
        <source>Time spent waiting for the data loader, per step</source>
        <translation>每步等待数据加载器的时间</translation>
    </message>
    <message>
        <location filename="../../views/charts/sweep_table_model.cpp" line="230"/>
        <source>Exposed communication as a share of the step time</source>
        <translation>暴露通信占步时间的比例</translation>
    </message>
</context>
<context>
    <name>scalescope::ThermalView</name>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="38"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="43"/>
        <source>%1 °C</source>
        <translation>%1 °C</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="52"/>
        <source>GPU temperature under load</source>
        <translation>负载下的 GPU 温度</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="52"/>
        <source>GPU temperature</source>
        <translation>GPU 温度</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="61"/>
        <source>Time under load (s)</source>
        <translation>负载时间 (s)</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="61"/>
        <source>Time (s)</source>
        <translation>时间 (s)</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="64"/>
        <source>Temperature (°C)</source>
        <translation>温度 (°C)</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="64"/>
        <source>°C</source>
        <translation>°C</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="140"/>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="152"/>
        <source>All %1 GPUs</source>
        <translation>全部 %1 块 GPU</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="155"/>
        <source>GPU %1 (hottest)</source>
        <translation>GPU %1（最热）</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="156"/>
        <source>GPU %1 (coolest)</source>
        <translation>GPU %1（最冷）</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="197"/>
        <source>Throttle threshold (%1)</source>
        <translation>降频阈值（%1）</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="205"/>
        <source>No GPU reaches the throttle threshold of %1 (the hottest settles at %2).</source>
        <translation>没有 GPU 达到 %1 的降频阈值（最热的稳定在 %2）。</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="208"/>
        <source>GPU %1 starts throttling after %2</source>
        <translation>GPU %1 在 %2 后开始降频</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="213"/>
        <source>; GPU %1 after %2</source>
        <translation>；GPU %1 在 %2 后</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="216"/>
        <source>%1 of %2 GPUs throttle.</source>
        <translation>%2 块 GPU 中有 %1 块降频。</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="219"/>
        <source>Throttled clocks drop by %1 %.</source>
        <translation>降频时时钟下降 %1 %。</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="224"/>
        <source>The simulated steps begin after %1 of load.</source>
        <translation>模拟的步骤在负载 %1 后开始。</translation>
    </message>
    <message>
        <location filename="../../views/charts/thermal_view.cpp" line="226"/>
        <source>The simulated steps are in steady state (a long run).</source>
        <translation>模拟的步骤处于稳态（长时间运行）。</translation>
    </message>
</context>
<context>
    <name>scalescope::TimelineWidget</name>
    <message>
        <location filename="../../views/timeline/timeline_paint.cpp" line="312"/>
        <location filename="../../views/timeline/timeline_widget.cpp" line="210"/>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_paint.cpp" line="301"/>
        <location filename="../../views/timeline/timeline_widget.cpp" line="214"/>
        <source>Node %1</source>
        <translation>节点 %1</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_paint.cpp" line="303"/>
        <location filename="../../views/timeline/timeline_widget.cpp" line="214"/>
        <source>(%1 GPUs)</source>
        <translation>（%1 块 GPU）</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_widget.cpp" line="261"/>
        <source>Critical path (what sets the step)</source>
        <translation>关键路径（决定每步时间的部分）</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_widget.cpp" line="374"/>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_widget.cpp" line="376"/>
        <source>collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_widget.cpp" line="378"/>
        <source>p2p send</source>
        <translation>p2p 发送</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_widget.cpp" line="380"/>
        <source>p2p recv</source>
        <translation>p2p 接收</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_widget.cpp" line="382"/>
        <source>loader</source>
        <translation>加载器</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_paint.cpp" line="86"/>
        <source>the timeline has no segments.</source>
        <translation>时间线没有片段。</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_paint.cpp" line="87"/>
        <source>no valid scenario yet, or the timeline was too large to build. Lower the GPU count or the number of steps.</source>
        <translation>尚无有效场景，或时间线过大无法构建。请减少 GPU 数或步数。</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_paint.cpp" line="85"/>
        <source>No timeline: %1</source>
        <translation>无时间线：%1</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_widget.cpp" line="94"/>
        <source>Does not fit in memory: the most loaded GPU needs %1 GiB of its %2 GiB, so this run cannot start. The timeline shows the step as if memory were no limit.</source>
        <translation>显存容纳不下：负载最重的 GPU 需要 %1 GiB，而它只有 %2 GiB，因此这次运行无法启动。时间线显示的是假设显存不受限时的一步。</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_widget.cpp" line="99"/>
        <source>May not fit in memory: the most loaded GPU needs %1 GiB of its %2 GiB, %3 % over, less than the model&apos;s %4 % memory error, so it may run.</source>
        <translation>显存可能容纳不下：负载最重的 GPU 需要 %1 GiB，而它只有 %2 GiB，超出 %3 %，小于模型 %4 % 的显存误差，因此实际可能可以运行。</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_widget.cpp" line="107"/>
        <source>The timeline shows the step as if memory were no limit.</source>
        <translation>时间线显示的是假设显存不受限时的一步。</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_widget.cpp" line="108"/>
        <source>If not, %1. The timeline shows the step as if memory were no limit.</source>
        <translation>若放不下，%1。时间线显示的是假设显存不受限时的一步。</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_paint.cpp" line="374"/>
        <source>step %1</source>
        <translation>第 %1 步</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_paint.cpp" line="423"/>
        <location filename="../../views/timeline/timeline_paint.cpp" line="442"/>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_paint.cpp" line="458"/>
        <source>ScaleScope timeline</source>
        <translation>ScaleScope 时间线</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_paint.cpp" line="459"/>
        <source>Per-GPU timeline exported by ScaleScope</source>
        <translation>由 ScaleScope 导出的逐 GPU 时间线</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="47"/>
        <source>GPU %1, %2</source>
        <translation>GPU %1，%2</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="48"/>
        <source>Start: %1</source>
        <translation>开始：%1</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="49"/>
        <source>Duration: %1</source>
        <translation>时长：%1</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="51"/>
        <source>Micro-batch: %1</source>
        <translation>微批次：%1</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="57"/>
        <source>%1 GB</source>
        <translation>%1 GB</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="58"/>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="59"/>
        <source>%1 kB</source>
        <translation>%1 kB</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="62"/>
        <source>Moves %1 at %2 GB/s (algorithm bandwidth)</source>
        <translation>传输 %1，速率 %2 GB/s（算法带宽）</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="65"/>
        <source>Moves %1</source>
        <translation>传输 %1</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="68"/>
        <source>Step: %1</source>
        <translation>步：%1</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="100"/>
        <source>Node %1, GPUs %2-%3: the dominant activity of all its GPUs. Click to expand.</source>
        <translation>节点 %1，GPU %2-%3：其所有 GPU 的主要活动。点击展开。</translation>
    </message>
    <message>
        <location filename="../../views/timeline/timeline_tooltip.cpp" line="105"/>
        <source>Node %1, GPUs %2-%3. Click to collapse into one summary row.</source>
        <translation>节点 %1，GPU %2-%3。点击折叠为一行汇总。</translation>
    </message>
    <message>
        <source>Does not fit in memory: the most loaded GPU needs %1 GiB of its %2 GiB, so this run cannot start; %3. The timeline shows the step as if memory were no limit.</source>
        <translation>显存容纳不下：负载最重的 GPU 需要 %1 GiB，而它只有 %2 GiB，因此这次运行无法启动；%3。时间线显示的是假设显存不受限时的一步。</translation>
    </message>
</context>
</TS>
