// Input pipelines on the host CPU: their cost per sample and what a node's cores deliver
// (effects.h, effects.data_loader.pipeline).
#include "effects/effects.h"

#include <algorithm>

namespace scalescope
{

namespace
{

// Pixels x channels of the sample the costs below are stated for: an ImageNet training
// crop, 224 x 224 x 3 (torchvision reference recipe).
constexpr double kReferenceElements = 224.0 * 224.0 * 3.0;

// One CPU core's time per ImageNet training sample (decode, augment, collate), on a server
// core of the A100/H100 generation. Sources per stage:
//  - JPEG decode of an average ImageNet image (~500 x 400, 110 kB) with libjpeg-turbo:
//    ~1.6 ms (imread-benchmark, Iglovikov & Kosarevsky 2026, arXiv 2605.08731: Pillow 537-726
//    images/s on one thread of 2023 server cores; ~1.3x slower on 2019-2020 cores);
//  - torchvision RandomResizedCrop through Pillow's antialiased bilinear resize ~2 ms, and
//    Pillow-SIMD's resize 4-6x faster (Pillow-SIMD README, "Why Pillow-SIMD is faster");
//  - flip, ToTensor and Normalize on one thread ~1.5 ms, collate and the worker's
//    shared-memory hand-off ~1 ms (torchvision PR #86361 times one 600x400 -> 224x224
//    interpolate at 1.0 ms with num_threads = 1, "a typical torchvision ImageNet training
//    job");
//  - DALI's CPU pipeline decodes only the random crop (fn.decoders.image_random_crop) and
//    fuses crop, mirror and normalise in C++ threads, no Python per sample (DALI docs,
//    "ResNet-50 ImageNet training"); its GPU ("mixed") pipeline leaves the CPU the file
//    read and nvJPEG's host-side Huffman stage (nvJPEG docs, hybrid backend).
double referenceCostS(LoaderPipeline p)
{
    switch (p) {
    case LoaderPipeline::Pil:
        return 7.0e-3; // 2.1 decode + 2.0 resize + 1.9 tensor ops + 1.0 collate (2019-20 core)
    case LoaderPipeline::PilSimd:
        return 5.4e-3; // the same with the resize 5x faster
    case LoaderPipeline::DaliCpu:
        return 2.5e-3; // region-of-interest decode + fused crop/mirror/normalise
    case LoaderPipeline::DaliGpu:
        return 0.5e-3; // file read + Huffman stage; decode and augment on the GPU
    case LoaderPipeline::None:
        break;
    }
    return 0.0;
}

} // namespace

const char *loaderPipelineName(LoaderPipeline p)
{
    switch (p) {
    case LoaderPipeline::Pil:
        return "pil";
    case LoaderPipeline::PilSimd:
        return "pil-simd";
    case LoaderPipeline::DaliCpu:
        return "dali-cpu";
    case LoaderPipeline::DaliGpu:
        return "dali-gpu";
    case LoaderPipeline::None:
        break;
    }
    return "none";
}

double loaderCpuSecondsPerSample(LoaderPipeline pipeline, double input_elements)
{
    // Decode, resize and normalise all scale with the pixels handled (the costs above are
    // per pixel of the reference crop); a model without a stated input takes the reference.
    const double scale = input_elements > 0 ? input_elements / kReferenceElements : 1.0;
    return referenceCostS(pipeline) * scale;
}

double loaderSamplesPerWorker(const DataLoaderSpec &d, const HardwareSpec &hw,
                              const ModelSpec &model)
{
    if (d.pipeline == LoaderPipeline::None)
        return d.samples_per_s_per_worker;
    const double cost =
        loaderCpuSecondsPerSample(d.pipeline, static_cast<double>(model.input_elements_per_sample));
    if (cost <= 0)
        return d.samples_per_s_per_worker;
    // Each GPU's training process keeps one core busy issuing work (one process per GPU);
    // the workers share what is left, and a worker never gets more than one core.
    const int gpus = hw.gpus_per_node;
    const double workers = static_cast<double>(std::max(1, d.workers_per_gpu) * gpus);
    const double free_cores = std::max(1.0, static_cast<double>(hw.cpuCores() - gpus));
    const double share = std::min(1.0, free_cores / workers);
    return share / cost;
}

} // namespace scalescope
