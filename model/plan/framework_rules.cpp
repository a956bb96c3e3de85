#include "plan/framework_rules.h"

namespace scalescope
{

std::string autoFrameworkId(const ParallelSpec &p)
{
    // Asynchronous (stale-gradient) updates of a data-parallel job: parameter-server
    // training as TensorFlow runs it (Abadi et al., OSDI 2016, Sec. 4.4). torchtitan composes
    // FSDP2 with pipeline parallelism (Liang et al., ICLR 2025, Sec. 3); Megatron-LM is the
    // reference implementation of tensor and pipeline parallelism (Narayanan et al. SC21);
    // FSDP is PyTorch's ZeRO-2/3 (Zhao et al., VLDB 2023).
    if (p.update == UpdateMode::Async && p.tensor == 1 && p.pipeline == 1 && p.zero == 0)
        return "tensorflow";
    // Context and expert parallelism: Megatron-Core (its CP and MoE parallel folding; Korthikanti
    // et al. and the Megatron-Core MoE docs), torchtitan where parameters are sharded.
    if (p.context > 1 || p.expert > 1)
        return p.zero >= 2 ? "torchtitan" : "megatron-core";
    if (p.zero >= 2 && p.pipeline > 1)
        return "torchtitan";
    if (p.tensor > 1 || p.pipeline > 1)
        return "megatron-lm";
    if (p.zero >= 2)
        return "pytorch-fsdp";
    return "pytorch-ddp";
}

std::string stackIdFor(const TrainingSpec &training, const ParallelSpec &parallel)
{
    return training.framework == kFrameworkAuto ? autoFrameworkId(parallel) : training.framework;
}

FrameworkSpec stackOf(const Scenario &s)
{
    const std::string id = stackIdFor(s.training, s.parallel);
    if (const FrameworkSpec *entry = s.stacks.find(id))
        return *entry;
    FrameworkSpec generic;
    generic.id = id;
    generic.name = id;
    return generic;
}

bool overlapOf(const Scenario &s, const FrameworkSpec &stack)
{
    return s.parallel.overlap.value_or(stack.grad_overlap);
}

double bucketMbOf(const Scenario &s, const FrameworkSpec &stack)
{
    return s.parallel.bucket_mb.value_or(stack.bucket_mb);
}

bool flashAttentionOf(const Scenario &s, const FrameworkSpec &stack)
{
    return s.training.flash_attention.value_or(stack.fused_attention);
}

std::optional<FrameworkFinding> frameworkRejects(const FrameworkSpec &f, const ParallelSpec &p)
{
    using Kind = FrameworkFinding::Kind;
    if (p.tensor > 1 && !f.tensor_parallel)
        return FrameworkFinding{Kind::Tensor, "parallel.tensor", p.tensor, 1, p.pipeline};
    if (p.pipeline > 1 && !f.pipeline_parallel)
        return FrameworkFinding{Kind::Pipeline, "parallel.pipeline", p.pipeline, 1, p.pipeline};
    if (p.zero > f.max_zero)
        return FrameworkFinding{Kind::Zero, "parallel.zero", p.zero, f.max_zero, p.pipeline};
    if (p.pipeline > 1 && p.zero > f.max_zero_with_pipeline)
        return FrameworkFinding{Kind::ZeroWithPipeline, "parallel.zero", p.zero,
                                f.max_zero_with_pipeline, p.pipeline};
    if (p.update == UpdateMode::Async && !f.async_update)
        return FrameworkFinding{Kind::Async, "parallel.update", 0, 0, p.pipeline};
    if (p.context > 1 && !f.context_parallel)
        return FrameworkFinding{Kind::Context, "parallel.context", p.context, 1, p.pipeline};
    if (p.expert > 1 && !f.expert_parallel)
        return FrameworkFinding{Kind::Expert, "parallel.expert", p.expert, 1, p.pipeline};
    return std::nullopt;
}

InputError frameworkError(const FrameworkSpec &f, const FrameworkFinding &x)
{
    using Kind = FrameworkFinding::Kind;
    const std::string who = "\"" + f.id + "\" (" + f.name + ") cannot run ";
    std::string what, allowed;
    switch (x.kind) {
    case Kind::Tensor:
        what = "tensor = " + std::to_string(x.value);
        allowed = "tensor = 1, or a framework with tensor parallelism (megatron-lm, "
                  "megatron-deepspeed, megatron-core, torchtitan)";
        break;
    case Kind::Pipeline:
        what = "pipeline = " + std::to_string(x.value);
        allowed = "pipeline = 1, or a framework with pipeline parallelism (deepspeed, "
                  "megatron-lm, megatron-deepspeed, megatron-core, torchtitan)";
        break;
    case Kind::Zero:
        what = "ZeRO stage " + std::to_string(x.value);
        allowed = "zero at most " + std::to_string(x.allowed);
        break;
    case Kind::ZeroWithPipeline:
        what = "ZeRO stage " + std::to_string(x.value) + " together with pipeline = " +
               std::to_string(x.pipeline);
        allowed = "zero at most " + std::to_string(x.allowed) +
                  " with pipeline > 1, or torchtitan (FSDP2 with pipeline parallelism)";
        break;
    case Kind::Async:
        what = "asynchronous updates";
        allowed = "update \"sync\", or tensorflow (parameter-server training)";
        break;
    case Kind::Context:
        what = "context = " + std::to_string(x.value);
        allowed = "context = 1, or a framework with context parallelism (megatron-core, "
                  "torchtitan, deepspeed, megatron-deepspeed)";
        break;
    case Kind::Expert:
        what = "expert = " + std::to_string(x.value);
        allowed = "expert = 1, or a framework with expert parallelism (megatron-core, "
                  "torchtitan, deepspeed, megatron-deepspeed)";
        break;
    }
    return InputError{"training.framework", who + what + " (" + x.key + "); allowed: " + allowed};
}

} // namespace scalescope
