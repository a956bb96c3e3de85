// The simulation context: the compute model and hardware a scenario's effects leave the job.
#include "sim/simulator.h"

#include <algorithm>

namespace scalescope
{

namespace
{
ComputeModel computeFor(const Scenario &s, const Plan &p)
{
    ComputeModel c(s.hardware.gpu, p.precision, s.hardware.calibration.get());
    // A board power cap below TDP lowers the sustained SM clock (hardware.power_limit_w);
    // a calibration profile measured the clock the GPU holds at its limit already.
    if (!c.calibrated())
        c.applyClockDrop(1.0 - powerLimitedClockRatio(s.hardware.gpu, s.hardware.power_limit_w));
    c.setCompiled(s.training.compile);
    c.setChannelsFirst(s.training.memory_format == MemoryFormat::NCHW);
    c.setFp8Scaling(s.training.fp8_recipe);
    c.setStackKernels(p.stack);
    // Thermal effect in steady state: a training run lasts far longer than warmup_s, so
    // every GPU has heated past throttle_above_c and runs its SM clock clock_drop lower
    // (NVML throttle reason "hw_thermal_slowdown"/"sw_thermal_slowdown"). GPUs that differ
    // (cooling per GPU, or the heating during the simulated steps) are slowed per GPU in the
    // engine instead.
    const ThermalSpec &th = s.effects.thermal;
    if (th.enabled && !th.varies(p.gpus) && th.throttledAt(0, 0))
        c.applyClockDrop(th.clock_drop);
    if (s.effects.virtual_gpu.enabled)
        c.applyTimeShare(s.effects.virtual_gpu.fraction);
    return c;
}
} // namespace

HardwareSpec effectiveHardware(const Scenario &s)
{
    HardwareSpec hw = s.hardware.communicationView(); // an NVLink domain as one node
    const VirtualGpuSpec &v = s.effects.virtual_gpu;
    if (v.enabled && v.host_routed && hw.gpus_per_node > 1) {
        // Virtual GPUs have no peer-to-peer access: NCCL falls back to its SHM transport
        // through host memory (NVIDIA vGPU user guide, "peer-to-peer CUDA transfers" need
        // full-GPU profiles; NCCL docs NCCL_P2P_DISABLE), over a PCIe 4.0 x16 uplink at most
        // (32 GB/s per direction, PCI-SIG).
        hw.gpu.pcie_p2p = false;
        hw.intra.kind = LinkKind::PCIe;
        hw.intra.switched = false;
        hw.intra.nvswitch_gen = 0;
        hw.intra.bandwidth_gbps = std::min(hw.intra.bandwidth_gbps, 32.0);
        hw.intra.name += " (routed through host memory)";
    }
    return hw;
}

double effectiveMemoryBytes(const Scenario &s)
{
    // A vGPU profile gets its share of the frame buffer (NVIDIA vGPU user guide).
    const VirtualGpuSpec &v = s.effects.virtual_gpu;
    return s.hardware.gpu.usableMemoryBytes() * (v.enabled ? v.fraction : 1.0);
}

SimContext::SimContext(const Scenario &s, const Plan &p)
    : scenario(s), plan(p), compute(computeFor(s, p)), comm(effectiveHardware(s)),
      workload(buildWorkloadCost(s.model, p, compute, p.flash_attention)),
      memory_capacity_bytes(effectiveMemoryBytes(s))
{
    step = describeStep(*this);
}

SimContext::SimContext(const Scenario &s, const Plan &p, WorkloadCost w)
    : scenario(s), plan(p), compute(computeFor(s, p)), comm(effectiveHardware(s)),
      workload(std::move(w)), memory_capacity_bytes(effectiveMemoryBytes(s))
{
    step = describeStep(*this);
}

ComputeModel computeModelFor(const Scenario &s, const Plan &p)
{
    return computeFor(s, p);
}

} // namespace scalescope
