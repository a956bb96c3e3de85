#include "hardware/kernel_model.h"

#include <algorithm>
#include <cmath>

namespace scalescope
{

namespace
{

// Best achieved fraction of the dense datasheet peak for large, well-shaped GEMMs at the
// datasheet clock (the sustained clock is applied separately, GpuSpec::
// sustained_clock_ratio). Sources: NVIDIA "Matrix Multiplication Background User's Guide"
// (DL performance docs: A100 fp16 GEMMs ~250-270 of 312 TFLOP/s at large sizes, tf32
// ~120 of 156); cuBLAS figures in the A100 and H100
// whitepapers; SemiAnalysis "MI300X vs H100 vs H200 training benchmark" (2024, H100 bf16
// GEMM ~ 0.75 of 989, MI300X ~ 0.5 of 1307); P100/V100 SGEMM/HGEMM results in Jia et al.
// "Dissecting the NVIDIA Volta GPU Architecture via Microbenchmarking" (2018), Fig. 4.
//
// Hopper and Blackwell in 16-bit and FP8 follow the maximum achievable matmul FLOPS
// measured per accelerator (S. Bekman, "Machine Learning Engineering", compute/accelerator,
// MAMF table, mean of 100 runs at the best shape of a brute-force search, sustained clocks
// included): bf16 A100 SXM 86.9%, H100 SXM 80.3% (H200 the same), B200 77.6%; fp8 H100
// 70.9%, H200 73.4%, B200 76.3%. Training shapes reach a fixed share of that best shape:
// the A100's validated 0.84 at its 0.89 sustained clock is 0.86 of its MAMF, so each
// architecture gets 0.86 x MAMF / the sustained clock of the part measured. The faster the
// tensor cores, the lower the share of their peak a real GEMM reaches.
constexpr double kTrainingShareOfMamf = 0.86;
double fromMamf(double mamf, double measured_part_clock_ratio)
{
    return kTrainingShareOfMamf * mamf / measured_part_clock_ratio;
}

double maxGemmEfficiency(GpuFamily family, Precision p)
{
    const bool tensor = p != Precision::FP32;
    switch (family) {
    case GpuFamily::Pascal:
        return 0.85;
    case GpuFamily::Volta:
        return tensor ? 0.80 : 0.88;
    case GpuFamily::Ampere:
        return p == Precision::TF32 ? 0.78 : tensor ? 0.84 : 0.95;
    case GpuFamily::AdaLovelace:
        return tensor ? 0.85 : 0.90;
    case GpuFamily::Hopper: // H100 SXM: sustained clock 0.90 (gpus.json)
        return p == Precision::FP8 ? fromMamf(0.709, 0.90)
               : tensor           ? fromMamf(0.803, 0.90)
                                  : 0.90;
    case GpuFamily::Blackwell: // B200: no sustained-clock entry (1.0)
        return p == Precision::FP8 ? fromMamf(0.763, 1.0) : tensor ? fromMamf(0.776, 1.0) : 0.85;
    case GpuFamily::CDNA3:
        return tensor ? 0.52 : 0.70;
    case GpuFamily::Unknown:
        break;
    }
    return 0.70;
}

// Achieved fraction of datasheet memory bandwidth for streaming kernels: BabelStream
// (Deakin et al. 2018; A100 80GB ~ 1.75 of 2.04 TB/s, H100 ~ 3.0 of 3.35 TB/s) is ~0.86-0.9;
// framework elementwise kernels (norms, activations, optimizer) reach less, ~0.8.
constexpr double kMemoryEfficiency = 0.80;

// Little's law (Little 1961; applied to GPU memory by Volkov, "Understanding Latency Hiding
// on GPUs", PhD thesis, UC Berkeley 2016, ch. 4): a kernel's memory throughput is at most the
// bytes it keeps in flight over the memory latency. Framework elementwise and normalisation
// kernels keep about one 4-element vector of 16-bit values (8 bytes) in flight per resident
// thread (PyTorch's vectorized elementwise loop, vec_size 4: ATen native/cuda/CUDALoops.cuh),
// at full occupancy (resident threads per SM: CUDA C++ Programming Guide, table of compute
// capabilities), against a DRAM latency under load of about 1 us (about twice the 450-600 ns
// idle latency microbenchmarks measure on A100 and H100, Chips and Cheese 2023; latency rises
// towards saturation, Volkov 2016 Fig. 4.4). Each SM then sustains ~16 GB/s: an A100 (108 SMs,
// 1.8 TB/s) still reaches 80% of its 2 TB/s, while an H100 SXM (132 SMs) stops at ~2.2 of its
// 3.35 TB/s and a B200 (148 SMs) at ~2.4 of 8 TB/s: memory-bound work does not follow the
// datasheet bandwidth on GPUs with much bandwidth per SM.
constexpr double kBytesInFlightPerThread = 8.0;
constexpr double kLoadedMemoryLatencyS = 1.0e-6;
int residentThreadsPerSm(GpuFamily family)
{
    switch (family) {
    case GpuFamily::AdaLovelace: // compute capability 8.9
        return 1536;
    default: // 6.0, 7.0, 8.0, 9.0, 10.0; CDNA3: 32 waves of 64 per CU
        return 2048;
    }
}

// Per-kernel floor: launch latency plus the scheduling gap between dependent kernels,
// ~4-6 us in eager frameworks (PyTorch profiler traces; NVIDIA CUDA Graphs blog, 2019:
// "launch overhead of a few microseconds per kernel").
double defaultLaunchUs(GpuFamily family)
{
    switch (family) {
    case GpuFamily::Pascal:
    case GpuFamily::Volta:
        return 6.0;
    default:
        return 5.0;
    }
}

int defaultSmCount(GpuFamily family)
{
    switch (family) {
    case GpuFamily::Pascal:
        return 56;
    case GpuFamily::Volta:
        return 80;
    case GpuFamily::Ampere:
        return 108;
    case GpuFamily::AdaLovelace:
        return 128;
    case GpuFamily::Hopper:
        return 132;
    case GpuFamily::Blackwell:
        return 148;
    case GpuFamily::CDNA3:
        return 304;
    case GpuFamily::Unknown:
        break;
    }
    return 100;
}

struct Tile {
    double m, n;
    double efficiency; // relative to the largest tile (smaller tiles reuse less data)
};

// Thread-block tile shapes a GEMM library picks from, largest first. Relative efficiencies
// follow the CUTLASS profiler's tile sweeps (smaller tiles: lower arithmetic intensity).
constexpr Tile kTiles[] = {{256, 128, 1.0}, {128, 256, 1.0}, {128, 128, 0.92},
                           {128, 64, 0.80}, {64, 128, 0.80}, {64, 64, 0.62}};

} // namespace

ComputeModel::ComputeModel(const GpuSpec &gpu, Precision precision,
                           const CalibrationProfile *calibration)
    : precision_(precision), gpu_(gpu), family_(gpu.family)
{
    peak_flops_ = gpu.peak(precision) * 1e12;
    if (peak_flops_ <= 0) // no hardware support: falls back to fp32 (the parser rejects this)
        peak_flops_ = gpu.peak(Precision::FP32) * 1e12;
    clock_ratio_ = gpu.sustained_clock_ratio > 0 ? gpu.sustained_clock_ratio : 1.0;
    datasheet_clock_ratio_ = clock_ratio_;
    max_eff_ = maxGemmEfficiency(gpu.family, precision);
    // Mainloop fill of the k-loop. Tensor-core kernels stage 32-deep k-blocks through a
    // 3-4-stage shared-memory pipeline (CUTLASS "Efficient GEMM in CUDA", software
    // pipelining; ~48 elements of k before the first MMA); FP32 SIMT kernels use 8-deep
    // k-blocks, double-buffered (CUTLASS SIMT SGEMM tiles 128x128x8), ~16 elements.
    k_prologue_ = precision == Precision::FP32 ? 16.0 : 48.0;
    launch_s_ =
        (gpu.launch_overhead_us > 0 ? gpu.launch_overhead_us : defaultLaunchUs(gpu.family)) * 1e-6;
    sm_count_ = gpu.sm_count > 0 ? gpu.sm_count : defaultSmCount(gpu.family);
    mem_bw_ = std::min(gpu.memory_bandwidth_gbps * 1e9 * kMemoryEfficiency, concurrencyBound());
    elem_bytes_ = activationBytes(precision);
    if (calibration && !calibration->gpus.empty()) {
        const ProfileGpu &g = calibration->gpus.front();
        const auto &points = g.gemm_tflops[static_cast<size_t>(precision)];
        if (!points.empty()) {
            std::vector<GemmPoint> measured;
            for (const ProfileGemmPoint &p : points)
                measured.push_back({p.m, p.n, p.k, p.tflops});
            setMeasuredGemm(std::move(measured));
            clock_ratio_ = 1.0; // the measurement ran at the clocks the GPU really holds
        }
        if (g.sm_count > 0) // before the bandwidth: the per-SM bound counts the SMs
            sm_count_ = g.sm_count;
        setMeasuredMemoryBandwidth(g.memory_bandwidth_gbps);
        setLaunchOverhead(g.launch_overhead_us);
        calibrated_ = true;
    }
}

double ComputeModel::tileEfficiency(double m, double n, double k, double batch) const
{
    // Wave quantisation (NVIDIA Matrix Multiplication Background guide, "Wave
    // Quantization"): tiles = ceil(m/Tm) * ceil(n/Tn) per product; the last wave of
    // thread blocks leaves SMs idle. When the output has too few tiles to fill the GPU,
    // libraries split the reduction dimension (split-K / stream-K, CUTLASS docs "Parallel
    // Reduction"), paying a partial-sum reduction. The library picks the best combination.
    double best = 0;
    for (const Tile &tile : kTiles) {
        const double tiles = std::ceil(m / tile.m) * std::ceil(n / tile.n) * batch;
        // Tile padding: a tile larger than the matrix computes zeros.
        const double fill =
            (m / (std::ceil(m / tile.m) * tile.m)) * (n / (std::ceil(n / tile.n) * tile.n));
        for (double split = 1; split <= 64; split *= 2) {
            const double k_slice = k / split;
            if (split > 1 && k_slice < 128)
                break;
            const double blocks = tiles * split;
            const double waves = std::ceil(blocks / sm_count_);
            const double util = blocks / (waves * sm_count_);
            // Pipeline fill of the k-loop: prologue/epilogue cost k_prologue_ elements of k
            // (set per precision in the constructor), so short reductions run below peak.
            const double k_util = k_slice / (k_slice + k_prologue_);
            const double reduction = split > 1 ? 0.92 : 1.0;
            best = std::max(best, util * fill * tile.efficiency * k_util * reduction);
        }
    }
    return best;
}

double ComputeModel::gemmEfficiency(double m, double n, double k, double batch) const
{
    if (!measured_.empty()) {
        // Calibrated: interpolate measured throughput in log(flops) between the nearest
        // measured shapes.
        const double work = std::log(2.0 * m * n * k * batch);
        const GemmPoint *lo = nullptr, *hi = nullptr;
        double wlo = 0, whi = 0;
        for (size_t i = 0; i < measured_.size(); ++i) {
            const double w = measured_log_work_[i];
            if (w <= work && (!lo || w > wlo)) {
                lo = &measured_[i];
                wlo = w;
            }
            if (w >= work && (!hi || w < whi)) {
                hi = &measured_[i];
                whi = w;
            }
        }
        const GemmPoint *a = lo ? lo : hi;
        const GemmPoint *b = hi ? hi : lo;
        const double wa = lo ? wlo : whi;
        const double wb = hi ? whi : wlo;
        const double f = wb > wa ? (work - wa) / (wb - wa) : 0.0;
        const double tflops = a->tflops + f * (b->tflops - a->tflops);
        // The measured shapes are square; a rectangular GEMM of the same work can fill the
        // GPU's waves better or worse: scale by the tile model's ratio between the two.
        const double shape =
            tileEfficiency(m, n, k, batch) / std::max(1e-6, tileEfficiency(a->m, a->n, a->k, 1.0));
        const double measured_eff =
            std::clamp(tflops * 1e12 / peak_flops_ * std::clamp(shape, 0.25, 1.5), 1e-4, 1.0);
        if (lo && !hi) {
            // Larger than every measured GEMM: a profile of small sizes only (launch-bound
            // kernels) says nothing of large ones, and extended flat it held an H200 at 1%
            // MFU (issue 14). Over the next 8x of work it moves to the datasheet model (the
            // tile and wave model below, at the catalog's sustained clock), never below
            // the measurement; a profile that reaches large sizes is not affected.
            // (A measured profile sets the clock ratio to 1; a later clock drop applies to
            // this part as to the measurement, so the catalog's ratio is not divided by it.)
            const double datasheet =
                max_eff_ * tileEfficiency(m, n, k, batch) * datasheet_clock_ratio_;
            const double f = std::clamp((work - wlo) / std::log(8.0), 0.0, 1.0);
            return std::clamp(measured_eff + f * std::max(0.0, datasheet - measured_eff), 1e-4,
                              1.0);
        }
        return measured_eff;
    }
    return std::max(1e-4, max_eff_ * tileEfficiency(m, n, k, batch));
}

double ComputeModel::gemmTime(double m, double n, double k, double batch, double bytes,
                              double peak_share) const
{
    if (m <= 0 || n <= 0 || k <= 0 || batch <= 0)
        return 0;
    const double flops = 2.0 * m * n * k * batch; // a multiply-add is 2 FLOPs
    const double t_compute =
        flops / (peak_flops_ * peak_share * clock_ratio_ * gemmEfficiency(m, n, k, batch));
    // Roofline (Williams et al. 2009): the kernel cannot beat reading A, B and writing C.
    if (bytes <= 0)
        bytes = (m * k + k * n + m * n) * elem_bytes_ * batch;
    const double t_memory = bytes / mem_bw_;
    return std::max({t_compute, t_memory, launch_s_}) * time_scale_;
}

double ComputeModel::memoryTime(double bytes) const
{
    if (bytes <= 0)
        return 0;
    return std::max(bytes / mem_bw_, launch_s_) * time_scale_;
}

double ComputeModel::communicationSmShare(double blocks) const
{
    // Collectives are kernels: each NCCL channel is one thread block resident on one SM for
    // the collective's whole duration (NCCL user guide, "NCCL Communicator CTA Policy
    // Flags": its efficiency policy uses fewer CTAs "for better compute and communication
    // overlap"), and a GEMM or attention kernel cannot place its own blocks there meanwhile.
    // The count of blocks follows the links (kernel_model.h), not the size of the GPU.
    return std::min(0.5, std::max(0.0, blocks) / std::max(1, sm_count_));
}

double ComputeModel::legacyMmaShare() const
{
    // A measured GEMM curve is what the GPU's own library reaches; the legacy path's share is
    // a property of the tensor cores, so it applies to the datasheet curve only.
    if (precision_ == Precision::FP32 || !measured_.empty())
        return 1.0;
    switch (family_) {
    case GpuFamily::Hopper:
        // mma.sync reaches about 2/3 of Hopper's dense peak; the rest needs the asynchronous
        // warpgroup wgmma (Shah et al. 2024, FlashAttention-3, Sec. 1 and 2.2; Luo et al.
        // 2025, "Dissecting the NVIDIA Hopper Architecture", tensor-core section).
        return 2.0 / 3.0;
    case GpuFamily::Blackwell: {
        // Data-centre Blackwell (sm_100) doubles the dense rate per SM and clock over
        // Hopper through tcgen05 (B200 2.25 PFLOP/s on 148 SMs against H100's 0.99 on 132,
        // at similar clocks); the mma.sync path keeps Hopper's legacy rate per SM: 1/3.
        // GeForce Blackwell (sm_120, a quarter of that peak per SM) runs mma.sync natively.
        const double hopper_per_sm = 989.4e12 / 132.0; // H100 SXM datasheet
        const double per_sm = gpu_.peak(Precision::FP16) * 1e12 / std::max(1, sm_count_);
        return per_sm > hopper_per_sm ? 1.0 / 3.0 : 1.0;
    }
    default:
        return 1.0;
    }
}

void ComputeModel::setMeasuredGemm(std::vector<GemmPoint> points)
{
    measured_ = std::move(points);
    measured_log_work_.clear();
    for (const GemmPoint &p : measured_)
        measured_log_work_.push_back(std::log(2.0 * p.m * p.n * p.k));
}

void ComputeModel::setMeasuredMemoryBandwidth(double gbps)
{
    // Framework kernels vs. a tuned copy kernel; the copy kernel keeps more bytes in flight,
    // so the framework kernels' concurrency bound still applies.
    if (gbps > 0)
        mem_bw_ = std::min(gbps * 1e9 * 0.93, concurrencyBound());
}

double ComputeModel::concurrencyBound() const
{
    return sm_count_ * residentThreadsPerSm(family_) * kBytesInFlightPerThread /
           kLoadedMemoryLatencyS;
}

void ComputeModel::setLaunchOverhead(double us)
{
    if (us > 0)
        launch_s_ = us * 1e-6;
}

} // namespace scalescope

namespace scalescope
{

ComputeModel ComputeModel::at(Precision precision) const
{
    if (precision == precision_)
        return *this;
    ComputeModel other(gpu_, precision);
    // A measured curve ran at the clocks the GPU holds (ratio 1 before drops); the datasheet
    // curve of the other precision needs the catalog's sustained clock again.
    other.clock_ratio_ = datasheet_clock_ratio_ * clockDrop();
    other.time_scale_ = time_scale_;
    other.mem_bw_ = mem_bw_;
    other.launch_s_ = launch_s_;
    other.sm_count_ = sm_count_;
    other.compiled_ = compiled_;
    other.stack_ = stack_;
    other.calibrated_ = calibrated_;
    return other;
}

namespace
{

// Achieved share of the dense datasheet peak of fused attention kernels at head dimension
// 128 and sequences of 2k-16k, forward and backward, as the kernels' authors measured them
// (FLOPs counted as the kernel does them, causal blocks skipped):
//  - FlashAttention-2 (Dao 2023, Fig. 4-6): A100 forward up to 73% (230 of 312 TFLOP/s),
//    backward up to 63%; on H100 it runs Ampere-style mma.sync instructions that reach about
//    2/3 of Hopper's tensor-core peak, and measures 330-350 TFLOP/s forward, ~300 backward
//    (Shah et al. 2024, FlashAttention-3, Sec. 1 and Fig. 5-7): 0.34 and 0.30 of 989. On
//    Blackwell the same kernels lose the new tcgen05 instructions too (~0.30 / 0.25).
//  - cuDNN fused attention (Transformer Engine): on Hopper with wgmma and TMA, 500-600
//    TFLOP/s forward (FlashAttention-3 paper, Fig. 5: cuDNN 9 beside FA3's 600-660), ~0.55
//    forward and 0.45 backward; on Blackwell ~0.55 / 0.45 of its peak (cuDNN 9.7 release
//    notes: SDPA on B200 ~1.2-1.4 PFLOP/s forward). On Ampere cuDNN and FA2 are alike.
//  - Ada, Volta and others: FlashAttention-2's figures for consumer Ampere/Ada cards
//    (~0.6 / 0.5; FA2 repository benchmarks on RTX 3090/4090).
struct AttentionShare {
    double forward, backward;
};

AttentionShare attentionShare(GpuFamily family, FrameworkSpec::AttentionKernel kernel)
{
    const bool cudnn = kernel == FrameworkSpec::AttentionKernel::Cudnn;
    switch (family) {
    case GpuFamily::Ampere:
        return {0.68, 0.58};
    case GpuFamily::Hopper:
        return cudnn ? AttentionShare{0.55, 0.45} : AttentionShare{0.34, 0.30};
    case GpuFamily::Blackwell:
        return cudnn ? AttentionShare{0.55, 0.45} : AttentionShare{0.30, 0.25};
    case GpuFamily::CDNA3: // CK flash attention on MI300X (ROCm blogs, ~0.35 / 0.3)
        return {0.35, 0.30};
    default:
        return {0.60, 0.50};
    }
}

} // namespace

double ComputeModel::attentionTime(double flops, double head_dim, bool backward) const
{
    if (flops <= 0)
        return 0;
    const AttentionShare share = attentionShare(family_, stack_.attention_kernel);
    // Smaller heads do less work per loaded tile: the measured shares fall by ~25% from head
    // dimension 128 to 64 (FlashAttention-2, Fig. 4 vs Fig. 5).
    const double head = std::clamp(head_dim / 128.0, 0.5, 1.0);
    const double head_factor = 0.75 + 0.25 * (head - 0.5) / 0.5;
    const double eff = (backward ? share.backward : share.forward) * head_factor;
    // The softmax's exponentials run on the special function units beside the tensor cores'
    // two GEMMs. On Blackwell (B200/GB200) they take as long as the GEMMs in the forward at
    // head dimension 128 (FlashAttention-4, Zadouri et al. 2026, Sec. 2: 16 exponentials per
    // clock and SM against 8192 BF16 FLOPs, 4 x 128 per score) and once per score against
    // 2.5x the GEMMs in the backward; the measured shares include that. A GPU whose units
    // run `sfu_exp_ratio` times as many (Blackwell Ultra: 2, NVIDIA technical blog "Making
    // Softmax More Efficient with NVIDIA Blackwell Ultra", 2026: ~1.35x the attention
    // forward of GB200) spends that much less on the exponential part.
    double sfu = 1.0;
    if (gpu_.sfu_exp_ratio != 1.0) {
        const double gemm = (backward ? 2.5 : 1.0) * std::max(head_dim, 1.0) / 128.0;
        sfu = (gemm + 1.0 / gpu_.sfu_exp_ratio) / (gemm + 1.0);
    }
    // The measured shares were taken at the clocks the GPU held; a cap or throttling lowers
    // them as it lowers the clock.
    const double t = flops * sfu / (peak_flops_ * eff * clockDrop());
    return std::max(t, launch_s_) * time_scale_;
}

} // namespace scalescope
