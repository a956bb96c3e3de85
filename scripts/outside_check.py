#!/usr/bin/env python3
"""Outside check: published MoE and dense runs that are not in ../shared/validation.

Builds scenario files from two public tables and prints the model's error on each, so that
a change can be judged on rows it was not built on. Nothing here is scored by CTest.

Sources (copied as published):
  - NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md, "25.11 NeMo Container":
    the rows of DGX-GB300, DGX-GB200, DGX-B200 and DGX-H100 that ../shared/validation/moe
    does not hold, and docs/performance-summary-archive.md, 26.02 and 25.09 (see
    MEGATRON_BRIDGE_OTHER); Tokens / sec / GPU.
  - yanring/Megatron-MoE-ModelZoo best_practice/Qwen3/readme.md: the intra-node plan with
    Megatron FSDP (17.6 s per step) and the "Long Context" table (TFLOPS with forced
    balance, turned into a step time with Megatron's own FLOP count,
    megatron/training/training.py num_floating_point_operations).

Platforms, precisions and plans follow ../shared/validation/moe/README.md ("Defaults chosen
for what the sources leave unstated"): recompute none unless stated, ZeRO 1 (distributed
optimizer) or ZeRO 3 where FSDP is 1, sequence parallelism with TP, interleaved where VP > 1,
expert-tensor 1, balanced routing.

Usage: scripts/outside_check.py [--cli build/app/scalescope-cli] [--keep DIR]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

PLATFORMS = {
    "h100": dict(gpu="h100-sxm5-80gb", gpus_per_node=8, intra_node="nvlink4",
                 inter_node="ib-ndr-400", nics_per_node=8),
    "b200": dict(gpu="b200-sxm-180gb", gpus_per_node=8, intra_node="nvlink5",
                 inter_node="ib-ndr-400", nics_per_node=8),
    # DGX B300: eight B300 on NVLink 5 + NVSwitch, a ConnectX-8 (800 Gb/s) per GPU.
    "b300": dict(gpu="b300-sxm-288gb", gpus_per_node=8, intra_node="nvlink5",
                 inter_node="ib-xdr-800", nics_per_node=8),
    "gb200": dict(gpu="gb200-186gb", gpus_per_node=4, nvlink_domain=72, intra_node="nvlink5",
                  inter_node="ib-ndr-400", nics_per_node=4),
    "gb300": dict(gpu="gb300-288gb", gpus_per_node=4, nvlink_domain=72, intra_node="nvlink5",
                  inter_node="ib-xdr-800", nics_per_node=4),
}
PRECISION = {"FP8-CS": "fp8", "FP8-MX": "mxfp8", "NVFP4": "nvfp4", "BF16": "bf16"}

# Activation offloading of the Megatron-FSDP recipes (training.activation_offload_layers):
# Megatron-Bridge scripts/performance/configs/llama/llama3_workload_base_configs.py and
# llama31_workload_base_configs.py, cpu_offloading_num_layers of the FP8-CS presets that set
# use_megatron_fsdp (Llama 3 70B: GB200 40, GB300 20, B200 5; Llama 3.1 405B: GB200 92,
# GB300 10). Keyed by platform and model; applied where the row runs FSDP.
FSDP_OFFLOAD_LAYERS = {
    ("gb200", "llama3-70b"): 40,
    ("gb300", "llama3-70b"): 20,
    ("b200", "llama3-70b"): 5,
    ("gb200", "llama3-405b"): 92,
    ("gb300", "llama3-405b"): 10,
}

# Megatron-Bridge 25.11: platform, model, GPUs, precision, GBS, MBS, sequence, FSDP, TP, PP,
# CP, VP, EP, Tokens / sec / GPU.
MEGATRON_BRIDGE_2511 = [
    ("gb300", "llama3-8b", 8, "FP8-CS", 128, 2, 8192, 0, 1, 1, 1, 1, 1, 37556),
    ("gb300", "llama3-70b", 64, "FP8-CS", 256, 2, 8192, 1, 1, 1, 1, 1, 1, 4520),
    ("gb300", "llama3-405b", 256, "FP8-CS", 1536, 1, 8192, 0, 2, 8, 2, 4, 1, 999),
    ("gb300", "deepseek-v3", 256, "BF16", 4096, 1, 4096, 0, 1, 2, 1, 4, 32, 3848),
    ("gb300", "gpt-oss-120b", 64, "BF16", 1280, 2, 8192, 0, 1, 1, 1, 1, 64, 18347),
    ("gb300", "qwen3-30b-a3b", 8, "FP8-MX", 512, 4, 4096, 0, 1, 1, 1, 1, 8, 28934),
    ("gb300", "qwen3-235b-a22b", 256, "BF16", 8192, 2, 4096, 0, 1, 4, 1, 12, 16, 6131),
    ("gb200", "llama3-8b", 8, "FP8-CS", 128, 2, 8192, 0, 1, 1, 1, 1, 1, 31508),
    ("gb200", "llama3-70b", 64, "FP8-CS", 256, 2, 8192, 1, 1, 1, 1, 1, 1, 4312),
    ("gb200", "llama3-405b", 256, "FP8-CS", 1536, 1, 8192, 0, 4, 16, 1, 4, 1, 813),
    ("gb200", "gpt-oss-120b", 64, "BF16", 1280, 1, 8192, 0, 1, 1, 1, 1, 64, 15876),
    ("gb200", "qwen3-30b-a3b", 8, "FP8-MX", 512, 4, 4096, 0, 1, 1, 1, 1, 8, 23766),
    ("b200", "llama3-8b", 8, "FP8-CS", 128, 2, 8192, 0, 1, 1, 1, 1, 1, 30624),
    ("b200", "llama3-405b", 128, "FP8-CS", 64, 1, 8192, 0, 4, 8, 2, 8, 1, 661),
    ("b200", "gpt-oss-120b", 64, "BF16", 512, 4, 4096, 0, 1, 1, 1, 1, 8, 8213),
    ("b200", "qwen3-30b-a3b", 8, "FP8-MX", 512, 1, 4096, 0, 1, 1, 1, 1, 8, 9299),
    ("b200", "qwen3-235b-a22b", 64, "FP8-MX", 1024, 1, 4096, 0, 1, 8, 1, 2, 8, 3269),
    ("h100", "llama3-8b", 8, "FP8-CS", 128, 1, 8192, 1, 1, 1, 1, 1, 1, 14451),
    ("h100", "llama3-70b", 64, "FP8-CS", 128, 1, 8192, 0, 4, 8, 1, 5, 1, 1602),
    ("h100", "llama3-405b", 1024, "FP8-CS", 512, 1, 8192, 0, 8, 8, 2, 8, 1, 292),
]


# Megatron-Bridge docs/performance-summary-archive.md, "26.02 NeMo Container" (its DGX-B300
# rows check the b300-sxm-288gb entry) and the 25.11 DGX-H100 Qwen3-235B row; "25.09 NeMo
# Container" rows that ran dropless (the token-drop MoE rows need a capacity factor the
# table does not give), FP8-CS assumed where that table states no precision.
MEGATRON_BRIDGE_OTHER = [
    ("26.02", "gb300", "llama3-70b", 64, "NVFP4", 256, 1, 8192, 0, 1, 4, 1, 5, 1, 6798),
    ("26.02", "gb200", "llama3-70b", 64, "NVFP4", 256, 1, 8192, 0, 2, 4, 1, 5, 1, 4458),
    ("26.02", "gb300", "llama3-70b", 64, "FP8-MX", 256, 1, 8192, 0, 1, 4, 1, 5, 1, 4596),
    ("26.02", "gb200", "llama3-70b", 64, "FP8-MX", 256, 1, 8192, 0, 2, 4, 1, 5, 1, 3613),
    ("26.02", "gb300", "llama3-70b", 64, "FP8-CS", 256, 2, 8192, 1, 1, 1, 1, 1, 1, 5003),
    ("26.02", "gb200", "llama3-70b", 64, "FP8-CS", 256, 2, 8192, 1, 1, 1, 1, 1, 1, 4040),
    ("26.02", "h100", "llama3-70b", 64, "FP8-CS", 256, 1, 8192, 0, 4, 8, 1, 5, 1, 1621),
    ("26.02", "gb300", "llama3-405b", 256, "NVFP4", 1536, 1, 8192, 0, 4, 8, 1, 4, 1, 1333),
    ("26.02", "gb200", "llama3-405b", 256, "NVFP4", 1536, 1, 8192, 0, 4, 16, 1, 8, 1, 1076),
    ("26.02", "gb300", "llama3-405b", 256, "FP8-MX", 1536, 1, 8192, 0, 2, 8, 2, 4, 1, 931),
    ("26.02", "gb200", "llama3-405b", 256, "FP8-MX", 1536, 1, 8192, 0, 4, 16, 1, 8, 1, 786),
    ("26.02", "gb300", "llama3-405b", 256, "FP8-CS", 1536, 1, 8192, 0, 4, 8, 1, 4, 1, 988),
    ("26.02", "gb200", "llama3-405b", 256, "FP8-CS", 1536, 1, 8192, 0, 4, 16, 1, 4, 1, 793),
    ("26.02", "h100", "llama3-405b", 1024, "FP8-CS", 1536, 1, 8192, 0, 8, 8, 2, 8, 1, 311),
    ("26.02", "gb300", "deepseek-v3", 256, "FP8-MX", 4096, 2, 4096, 0, 1, 2, 1, 8, 32, 4612),
    ("26.02", "gb200", "deepseek-v3", 256, "FP8-MX", 4096, 1, 4096, 0, 1, 4, 1, 4, 64, 3955),
    ("26.02", "b300", "deepseek-v3", 256, "FP8-MX", 4096, 1, 4096, 0, 1, 16, 1, 1, 8, 2983),
    ("26.02", "b200", "deepseek-v3", 256, "FP8-MX", 4096, 1, 4096, 0, 1, 16, 1, 1, 8, 2689),
    ("26.02", "gb300", "gpt-oss-120b", 64, "BF16", 1280, 4, 4096, 0, 1, 1, 1, 1, 64, 19412),
    ("26.02", "gb200", "gpt-oss-120b", 64, "BF16", 1280, 4, 4096, 0, 1, 1, 1, 1, 64, 15784),
    ("26.02", "b300", "gpt-oss-120b", 64, "BF16", 1280, 4, 4096, 0, 1, 1, 1, 1, 64, 8359),
    ("26.02", "b200", "gpt-oss-120b", 64, "BF16", 1280, 4, 4096, 0, 1, 1, 1, 1, 64, 8047),
    ("26.02", "h100", "gpt-oss-120b", 64, "BF16", 1280, 1, 4096, 0, 1, 4, 1, 1, 8, 5993),
    ("26.02", "gb300", "qwen3-30b-a3b", 8, "FP8-MX", 512, 8, 4096, 0, 1, 1, 1, 1, 8, 30376),
    ("26.02", "gb200", "qwen3-30b-a3b", 8, "FP8-MX", 512, 4, 4096, 0, 1, 1, 1, 1, 8, 26084),
    ("26.02", "b300", "qwen3-30b-a3b", 8, "FP8-MX", 512, 8, 4096, 0, 1, 1, 1, 1, 8, 29521),
    ("26.02", "b200", "qwen3-30b-a3b", 8, "FP8-MX", 512, 1, 4096, 0, 1, 1, 1, 1, 8, 9691),
    ("26.02", "h100", "qwen3-30b-a3b", 16, "FP8-CS", 1024, 1, 4096, 0, 1, 2, 1, 12, 8, 5113),
    ("26.02", "gb300", "qwen3-235b-a22b", 256, "FP8-MX", 8192, 2, 4096, 0, 1, 4, 1, 1, 32, 6583),
    ("26.02", "gb200", "qwen3-235b-a22b", 256, "FP8-MX", 8192, 1, 4096, 0, 1, 8, 1, 1, 32, 5448),
    ("26.02", "b300", "qwen3-235b-a22b", 256, "FP8-MX", 8192, 1, 4096, 0, 1, 8, 1, 4, 8, 2691),
    ("26.02", "b200", "qwen3-235b-a22b", 256, "FP8-MX", 8192, 1, 4096, 0, 1, 8, 1, 1, 8, 3805),
    ("26.02", "h100", "qwen3-235b-a22b", 256, "FP8-CS", 8192, 1, 4096, 0, 2, 8, 1, 4, 32, 1633),
    ("25.11", "h100", "qwen3-235b-a22b", 256, "FP8-CS", 2048, 1, 4096, 0, 2, 8, 1, 4, 32, 1575),
    ("25.09", "gb200", "llama3-8b", 8, "FP8-CS", 128, 2, 8192, 0, 1, 1, 1, 1, 1, 31357),
    ("25.09", "gb200", "llama3-70b", 64, "FP8-CS", 128, 2, 8192, 1, 1, 1, 1, 1, 1, 3986),
    ("25.09", "gb200", "llama3-405b", 128, "FP8-CS", 64, 1, 8192, 1, 2, 1, 1, 1, 1, 729),
    ("25.09", "b200", "llama3-8b", 8, "FP8-CS", 128, 2, 8192, 0, 1, 1, 1, 1, 1, 29994),
    ("25.09", "b200", "llama3-405b", 128, "FP8-CS", 64, 1, 8192, 0, 4, 8, 2, 8, 1, 664),
    ("25.09", "h100", "llama3-8b", 8, "FP8-CS", 128, 1, 8192, 1, 1, 1, 1, 1, 1, 14079),
    ("25.09", "h100", "llama3-70b", 64, "FP8-CS", 128, 1, 8192, 0, 4, 8, 1, 5, 1, 1619),
    ("25.09", "h100", "llama3-405b", 1024, "FP8-CS", 512, 1, 8192, 0, 8, 8, 2, 8, 1, 302),
    ("25.09", "h100", "deepseek-v3", 1024, "FP8-CS", 8192, 1, 4096, 0, 2, 8, 1, 4, 64, 1297),
]


def qwen3_235b_flops_per_token(seq):
    """Megatron's count for Qwen3-235B-A22B (94 layers, hidden 4096, 64 query heads and 4
    key/value groups of 128, 8 of 128 experts of 1536, vocabulary 151936): 6 x (the active
    matrices + the output layer) + 6 x layers x query width x seq (causal attention)."""
    layers, h, q, kv = 94, 4096, 64 * 128, 2 * 4 * 128
    per_layer = h * (q + kv) + q * h + 8 * 3 * h * 1536 + h * 128
    return 6 * (layers * per_layer + h * 151936) + 6 * layers * q * seq


def modelzoo_rows():
    base = dict(
        hardware=dict(PLATFORMS["h100"], nodes=32),
        model="qwen3-235b-a22b",
        training=dict(global_batch=2048, micro_batch=1, precision="bf16", optimizer="adam",
                      framework="megatron-core", seq_len=4096),
        parallel=dict(tensor=2, context=1, expert_tensor=1, sequence_parallel=True,
                      expert_dispatcher="deepep", pipeline_counts_embedding=True,
                      pipeline_counts_loss=True),
    )
    rows = []
    # Intra-node EP with Megatron FSDP: TP 2, EP 8, PP 1, DP 128, MBS 4, full recompute.
    s = json.loads(json.dumps(base))
    s["training"].update(micro_batch=4, recompute="full")
    s["parallel"].update(data=128, pipeline=1, expert=8, zero=3, schedule="1f1b")
    rows.append(("mzoo-qwen3-235b-fsdp-ep8", s, "step_time_s", 17.6))
    # Long context, forced balance: TP 4, PP 8, VP 4, EP 8, GBS 256, recompute layernorm + moe.
    for seq, cp, tflops in ((16384, 1, 295), (32768, 2, 335), (65536, 4, 368), (131072, 8, 389)):
        s = json.loads(json.dumps(base))
        s["training"].update(global_batch=256, seq_len=seq, recompute="selective",
                             recompute_modules=["layernorm", "moe"])
        s["parallel"].update(tensor=4, context=cp, pipeline=8, virtual_stages=4,
                             schedule="interleaved", expert=8, data=8 // cp, zero=1)
        step = qwen3_235b_flops_per_token(seq) * 256 * seq / (tflops * 1e12 * 256)
        rows.append((f"mzoo-qwen3-235b-long-{seq // 1024}k", s, "step_time_s", step))
    return rows


def megatron_bridge_rows(table, release=None):
    rows = []
    for row in table:
        if release is None:
            rel, (p, model, gpus, prec, gbs, mbs, seq, fsdp, tp, pp, cp, vp, ep, tok) = "25.11", row
        else:
            rel, p, model, gpus, prec, gbs, mbs, seq, fsdp, tp, pp, cp, vp, ep, tok = row
            if rel != release:
                continue
        hw = dict(PLATFORMS[p])
        if gpus < hw["gpus_per_node"]:
            hw["gpus_per_node"] = gpus
        hw["nodes"] = gpus // hw["gpus_per_node"]
        training = dict(global_batch=gbs, micro_batch=mbs, precision=PRECISION[prec],
                        optimizer="adam", recompute="none", framework="megatron-core",
                        seq_len=seq)
        if fsdp and prec == "FP8-CS" and (p, model) in FSDP_OFFLOAD_LAYERS:
            training["activation_offload_layers"] = FSDP_OFFLOAD_LAYERS[(p, model)]
        if model == "gpt-oss-120b" and p in ("h100", "b200", "gb200"):
            # Megatron-Bridge configs/gpt_oss/gpt_oss_workload_base_configs.py: the H100, B200
            # and GB200 presets recompute the norms and the experts' activation (GB300 and
            # B300 capture CUDA graphs instead).
            training.update(recompute="selective", recompute_modules=["layernorm", "moe_act"])
        if model == "deepseek-v3" and p in ("gb200", "gb300"):
            training["mtp_depth"] = 0  # the GB200/GB300 rows ran without MTP (moe/README.md)
        parallel = dict(data=gpus // (tp * pp * cp), tensor=tp, pipeline=pp, context=cp,
                        schedule="interleaved" if vp > 1 else "1f1b", zero=3 if fsdp else 1)
        if vp > 1:
            parallel["virtual_stages"] = vp
        if tp > 1:
            parallel["sequence_parallel"] = True
        if ep > 1:
            parallel.update(expert=ep, expert_tensor=1)
        if model == "deepseek-v3" and p == "h100":
            # Megatron-Bridge configs/deepseek/deepseek_workload_base_configs.py, H100 preset:
            # the flex dispatcher (moe_flex_dispatcher_backend "hybridep"), recomputing the
            # MLA up-projections and the dense layers' MLP.
            parallel["expert_dispatcher"] = "hybridep"
            training.update(recompute="selective", recompute_modules=["mla_up_proj", "mlp"])
        if model == "qwen3-235b-a22b" and p == "h100":
            # Megatron-Bridge configs/qwen/qwen3_workload_base_configs.py, H100 presets:
            # NCCL all-to-all with Megatron-Core's 1F1B all-to-all overlap (moe_a2a_overlap).
            parallel["expert_overlap"] = True
        if model == "llama3-405b" and pp > 1:
            # 126 layers in 32, 64 or 128 pipeline chunks: the recipes count the embedding and
            # the loss as pipeline layers (--account-for-{embedding,loss}-in-pipeline-split).
            parallel.update(pipeline_counts_embedding=True, pipeline_counts_loss=True)
        s = dict(hardware=hw, model=model, training=training, parallel=parallel)
        tag = rel.replace(".", "")
        rows.append((f"mb{tag}-{p}-{model}-{PRECISION[prec]}", s, "tokens_per_s_per_gpu", tok))
    return rows


# NeMo Automodel performance summary (docs.nvidia.com/nemo/automodel, "Pre-Training
# Performance", DGX-H100, BF16): FSDP2 with expert parallelism and DeepEP, PyTorch eager with
# Transformer Engine kernels (attention, linear, RMSNorm). Settings the table leaves out come
# from the benchmark configs it names (NVIDIA-NeMo/Automodel examples/benchmark/configs/
# *_te_deepep*.yaml): activation checkpointing of every block (activation_checkpointing: true,
# full recompute) for DeepSeek-V3 and Qwen3-30B, none for gpt-oss; reshard_after_forward
# (parameters freed after forward: zero 3) only where a config sets it (gpt-oss-120b), else
# parallelize_model's default False (gathered until backward: zero 2); fake_balanced_gate
# (balanced routing); ep_size 64 for gpt-oss-120b and 8 for gpt-oss-20b, which the table
# prints as "-"; Hugging Face DeepSeek-V3 without its multi-token-prediction module. The
# nearest stack id is torchtitan (FSDP2 + expert parallelism); the Transformer Engine kernels
# have no scenario key, so the eager defaults of torchtitan apply.
# Name, model, GPUs, GBS, MBS, PP, VP, EP, zero, recompute, Tokens / sec / GPU.
AUTOMODEL_H100 = [
    ("deepseek-v3-1024", "deepseek-v3", 1024, 8192, 1, 4, 8, 64, 2, "full", 865),
    ("deepseek-v3-256", "deepseek-v3", 256, 512, 1, 4, 8, 64, 2, "full", 1002),
    ("qwen3-30b-a3b", "qwen3-30b-a3b", 8, 512, 4, 1, 1, 8, 2, "full", 12040),
    ("gpt-oss-20b", "gpt-oss-20b", 8, 256, 2, 1, 1, 8, 2, "none", 13058),
    ("gpt-oss-120b", "gpt-oss-120b", 64, 512, 2, 1, 1, 64, 3, "none", 7626),
]


def automodel_rows():
    rows = []
    for name, model, gpus, gbs, mbs, pp, vp, ep, zero, recompute, tok in AUTOMODEL_H100:
        hw = dict(PLATFORMS["h100"])
        if gpus < hw["gpus_per_node"]:
            hw["gpus_per_node"] = gpus
        hw["nodes"] = gpus // hw["gpus_per_node"]
        training = dict(global_batch=gbs, micro_batch=mbs, precision="bf16", optimizer="adam",
                        recompute=recompute, framework="torchtitan", seq_len=4096)
        if model == "deepseek-v3":
            training["mtp_depth"] = 0
        parallel = dict(data=gpus // pp, tensor=1, pipeline=pp, context=1, zero=zero,
                        expert=ep, expert_tensor=1, expert_dispatcher="deepep")
        if vp > 1:
            parallel.update(schedule="interleaved", virtual_stages=vp)
        s = dict(hardware=hw, model=model, training=training, parallel=parallel)
        rows.append((f"automodel-h100-{name}", s, "tokens_per_s_per_gpu", tok))
    return rows


def torchtitan_rows():
    """torchtitan's own published runs that ../shared/validation does not hold.

    - torchtitan/distributed/deepep/README.md: Qwen3-30B-A3B on DGX-B200 nodes with
      torchtitan/models/qwen3/train_configs/qwen3_30b_a3b_with_deepep.toml (local batch 8,
      sequence 4096, FSDP over every GPU, expert parallelism 8, full activation checkpointing,
      torch.compile, bf16, forced load balance): strong scaling over 1-16 nodes with DeepEP,
      and the default all-to-all at one node (9,930 against DeepEP's 14,796).
    - benchmarks/llama3_8b_h200_2025-06_torchtitan.md (Trainy): Llama 3.1 8B on 32 and 64
      H200 with 400 Gb/s per GPU, llama3_8b.toml (sequence 8192, selective per-op
      checkpointing) with local batch 2, torch.compile and float8 (tensorwise, FP8
      all-gather of the FSDP shards); TPS/GPU and memory (GiB) at the 100th step.
    """
    rows = []
    for nodes, tok in ((1, 14796), (2, 14380), (4, 14276), (8, 14107), (16, 13856)):
        s = dict(hardware=dict(PLATFORMS["b200"], nodes=nodes), model="qwen3-30b-a3b",
                 training=dict(global_batch=64 * nodes, micro_batch=8, precision="bf16",
                               optimizer="adam", recompute="full", framework="torchtitan",
                               compile=True, seq_len=4096),
                 parallel=dict(data=8 * nodes, zero=3, expert=8, expert_tensor=1,
                               expert_dispatcher="deepep"))
        rows.append((f"tt-deepep-b200-qwen3-30b-{8 * nodes}", s, "tokens_per_s_per_gpu", tok))
    s = json.loads(json.dumps(rows[0][1]))
    s["parallel"]["expert_dispatcher"] = "all_to_all"
    rows.append(("tt-alltoall-b200-qwen3-30b-8", s, "tokens_per_s_per_gpu", 9930))
    for nodes, tok, mem in ((4, 10938, 47.96), (8, 10753, 46.97)):
        s = dict(hardware=dict(PLATFORMS["h100"], gpu="h200-sxm-141gb", nodes=nodes),
                 model="llama3-8b",
                 training=dict(global_batch=16 * nodes, micro_batch=2, precision="fp8",
                               optimizer="adam", recompute="selective", framework="torchtitan",
                               compile=True),
                 parallel=dict(data=8 * nodes, zero=3))
        rows.append((f"tt-h200-llama3-8b-{8 * nodes}", s, "tokens_per_s_per_gpu", tok))
        rows.append((f"tt-h200-llama3-8b-{8 * nodes}-mem", s, "memory_gib", mem))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default="build/app/scalescope-cli")
    ap.add_argument("--keep", help="write the scenario files into this folder")
    args = ap.parse_args()
    folder = args.keep or tempfile.mkdtemp(prefix="outside-check-")
    os.makedirs(folder, exist_ok=True)
    errors = {}
    for group, rows in (("Megatron-Bridge 25.11", megatron_bridge_rows(MEGATRON_BRIDGE_2511)),
                        ("Megatron-Bridge 26.02", megatron_bridge_rows(MEGATRON_BRIDGE_OTHER, "26.02")),
                        ("Megatron-Bridge 25.11, DGX-H100 Qwen3-235B",
                         megatron_bridge_rows(MEGATRON_BRIDGE_OTHER, "25.11")),
                        ("Megatron-Bridge 25.09 (dropless and dense rows)",
                         megatron_bridge_rows(MEGATRON_BRIDGE_OTHER, "25.09")),
                        ("Megatron-MoE-ModelZoo Qwen3", modelzoo_rows()),
                        ("NeMo Automodel, DGX-H100 BF16 (FSDP2 + DeepEP)", automodel_rows()),
                        ("torchtitan: DeepEP on DGX-B200, Llama 3.1 8B on H200",
                         torchtitan_rows())):
        print(f"{group}:")
        for name, body, metric, measured in rows:
            scenario = dict(scalescope=1, name=name, **body)
            path = os.path.join(folder, name + ".json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(scenario, f, indent=1)
            proc = subprocess.run([args.cli, "simulate", path, "--json"], capture_output=True,
                                  text=True, env=dict(os.environ, LC_ALL="C"))
            if proc.returncode != 0:
                print(f"  {name:40s} exit {proc.returncode}: {proc.stderr.strip()}")
                errors.setdefault(group, []).append(1.0)
                continue
            d = json.loads(proc.stdout)
            if metric == "tokens_per_s_per_gpu":
                predicted = d["tokens_per_s"] / d["gpus"]
            elif metric == "memory_gib":
                predicted = d["memory_per_gpu_bytes"]["total"] / 2**30
            else:
                predicted = d["step_time_s"]
            error = predicted / measured - 1
            errors.setdefault(group, []).append(abs(error))
            fits = "" if d["fits_in_memory"] else "  (predicted not to fit)"
            print(f"  {name:40s} {metric:22s} measured {measured:9.4g}  predicted "
                  f"{predicted:9.4g}  {100 * error:+6.1f}%{fits}")
        e = errors[group]
        print(f"  MAPE {100 * sum(e) / len(e):.1f}% over {len(e)}, worst {100 * max(e):.1f}%\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
