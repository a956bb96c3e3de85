// Kernel-level compute cost on one GPU: GEMMs at a size-dependent efficiency, memory-bound
// kernels at memory bandwidth, a per-kernel launch floor.
#pragma once

#include "hardware/framework.h"
#include "hardware/hardware.h"

#include <vector>

namespace scalescope
{

/// A measured GEMM throughput point (from a calibration profile).
struct GemmPoint {
    double m = 0, n = 0, k = 0;
    double tflops = 0;
};

class ComputeModel
{
public:
    /// Datasheet figures, replaced by `calibration`'s measurements of its first GPU when
    /// given: GEMM throughput by size at this precision, memory bandwidth, launch overhead.
    ComputeModel(const GpuSpec &gpu, Precision precision,
                 const CalibrationProfile *calibration = nullptr);
    bool calibrated() const { return calibrated_; }

    /// Time of C[m x n] = A[m x k] B[k x n], `batch` independent products in one kernel.
    /// `bytes` overrides the memory traffic of the roofline (implicit-GEMM convolutions read
    /// the input once, not the k-times larger im2col matrix); 0 = dense operands.
    /// `peak_share`: the share of the tensor peak the kernel's instructions can reach
    /// (legacyMmaShare() for kernels without the architecture's newest MMA path).
    double gemmTime(double m, double n, double k, double batch = 1, double bytes = 0,
                    double peak_share = 1.0) const;
    /// Share of this GPU's dense tensor peak that kernels built on the warp-level mma.sync
    /// instruction (Ampere's path) reach: 1 up to Ada; below 1 where the peak needs Hopper's
    /// wgmma or data-centre Blackwell's tcgen05 (cuDNN's convolutions, FlashAttention-2).
    double legacyMmaShare() const;
    /// Achieved fraction of peak for that GEMM (before the launch floor).
    double gemmEfficiency(double m, double n, double k, double batch = 1) const;
    /// Time of one memory-bound kernel moving `bytes` (read + written).
    double memoryTime(double bytes) const;
    /// Share of this GPU's SMs that communication kernels running beside compute hold
    /// (kernel_model.cpp): compute that overlaps them runs on the rest. `blocks`: the
    /// kernels' thread blocks (kNvlinkCommunicationBlocks for collectives between GPUs that
    /// share NVLink, kPcieCommunicationBlocks otherwise).
    double communicationSmShare(double blocks = kNvlinkCommunicationBlocks) const;
    /// DeepSeek-V3's dispatch and combine kernels take 20 of the H800's 132 SMs (DeepSeek-V3
    /// report, Sec. 3.2.2); NCCL runs one block per channel and opens 16 to 32 channels over
    /// NVLink / NVSwitch.
    static constexpr double kNvlinkCommunicationBlocks = 20.0;
    /// NCCL's rings over PCIe, or through host memory, run 2 channels.
    static constexpr double kPcieCommunicationBlocks = 2.0;
    /// Shortest time any kernel takes (launch and scheduling floor).
    double launchFloor() const { return launch_s_; }
    /// Datasheet peak at this precision (the MFU denominator).
    double peakFlops() const { return peak_flops_; }
    /// Peak at the sustained clock (what kernels can approach).
    double sustainedPeakFlops() const { return peak_flops_ * clock_ratio_; }
    double achievedBandwidth() const { return mem_bw_; }
    Precision precision() const { return precision_; }

    /// Replaces the efficiency curve with measured points (calibration profile).
    void setMeasuredGemm(std::vector<GemmPoint> points);
    void setMeasuredMemoryBandwidth(double gbps);
    void setLaunchOverhead(double us);
    /// Steady-state thermal throttling: SM clocks lose `fraction` (memory clocks do not).
    void applyClockDrop(double fraction) { clock_ratio_ *= (1.0 - fraction); }
    /// Time-sliced (shared or virtual) GPU: this job gets `share` of the GPU's time, so every
    /// kernel takes 1/share as long (NVIDIA vGPU time-sliced scheduling, vGPU user guide).
    void applyTimeShare(double share) { time_scale_ /= share; }
    double timeScale() const { return time_scale_; }
    /// The step is compiled (training.compile): chains of elementwise kernels run as one
    /// fused kernel each, and the host issues those instead of every eager operation
    /// (layers/layer_cost.cpp).
    void setCompiled(bool compiled) { compiled_ = compiled; }
    bool compiled() const { return compiled_; }
    /// CNN activations are channels first (training.memory_format nchw): 16-bit tensor-core
    /// convolutions transpose them (layers/layer_cost.cpp, tableLayer).
    void setChannelsFirst(bool nchw) { channels_first_ = nchw; }
    bool channelsFirst() const { return channels_first_; }
    /// The FP8 scaling recipe (training.fp8_recipe); Stack: the stack's own.
    void setFp8Scaling(Fp8Scaling s) { fp8_scaling_ = s; }
    /// The recipe in force: the scenario's, else the stack's (Transformer Engine: delayed;
    /// torchao: tensorwise).
    Fp8Scaling fp8Scaling() const
    {
        if (fp8_scaling_ != Fp8Scaling::Stack)
            return fp8_scaling_;
        return stack_.fp8_recipe == FrameworkSpec::Fp8Recipe::Torchao ? Fp8Scaling::Tensorwise
                                                                      : Fp8Scaling::Delayed;
    }

    /// The kernels the software stack runs (its catalog entry's "kernels").
    void setStackKernels(const FrameworkSpec &stack) { stack_ = stack; }
    const FrameworkSpec &stack() const { return stack_; }
    /// Elementwise chains run fused: the stack's own kernels, or compiled.
    bool fusedElementwise() const { return compiled_ || stack_.fused_elementwise; }

    /// The same GPU, clocks and effects at another precision (FP8 recipes run only the
    /// linear layers in FP8; attention and the output layer stay in bf16). A calibration
    /// profile's GEMM curve belongs to its own precision: the copy uses the datasheet curve.
    ComputeModel at(Precision precision) const;

    /// Time of fused attention over `flops` (forward or backward, as the kernel does them)
    /// for head dimension `head_dim`: the stack's kernel at its measured share of the peak
    /// on this architecture.
    double attentionTime(double flops, double head_dim, bool backward) const;
    GpuFamily family() const { return family_; }
    /// SM clock now over the catalog's sustained clock (power cap, thermal throttling).
    double clockDrop() const
    {
        return measured_.empty() ? clock_ratio_ / datasheet_clock_ratio_ : clock_ratio_;
    }

private:
    double tileEfficiency(double m, double n, double k, double batch) const;
    /// Bandwidth the framework's memory-bound kernels can sustain on all SMs (Little's law).
    double concurrencyBound() const;

    Precision precision_;
    double peak_flops_ = 0;    // FLOP/s at this precision
    double max_eff_ = 0.8;     // best achieved fraction of peak for large GEMMs
    double k_prologue_ = 48.0; // k elements of mainloop fill (tileEfficiency)
    double time_scale_ = 1.0;  // 1/share of a time-sliced GPU
    double clock_ratio_ = 1.0; // sustained clock / datasheet clock
    double datasheet_clock_ratio_ = 1.0; // the catalog's, kept when a profile replaces it
    double mem_bw_ = 0;        // achieved bytes/s
    double launch_s_ = 0;
    int sm_count_ = 0;
    double elem_bytes_ = 2;
    std::vector<GemmPoint> measured_;
    std::vector<double> measured_log_work_; // log(FLOPs) of each measured point
    bool calibrated_ = false;
    bool compiled_ = false;
    bool channels_first_ = false;
    Fp8Scaling fp8_scaling_ = Fp8Scaling::Stack;
    GpuSpec gpu_;
    GpuFamily family_ = GpuFamily::Unknown;
    FrameworkSpec stack_;
};

} // namespace scalescope
