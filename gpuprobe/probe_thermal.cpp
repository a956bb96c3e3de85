// The thermal test: clocks, temperature, power and throttle reasons sampled (NVML) while a
// sustained GEMM load runs on every GPU.
#include "runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>

namespace scalescope::gpuprobe::probe_detail
{

void Runner::runThermal()
{
    const std::string test = "thermal";
    const int samples = thermalSamples();
    const int end = done_ + samples;
    if (!nvml_) {
        skip(test, "NVML unavailable: " + nvml_error_);
        finishTest(end, test);
        return;
    }
    if (!cublas_) {
        skip(test, "no GEMM load: " + cublas_error_);
        finishTest(end, test);
        return;
    }
    // One sustained GEMM load per GPU: bf16 (fp32 where there is none), the largest
    // quick/standard shape that fits.
    struct Load {
        const Gpu *gpu;
        void *nvml = nullptr;
        GemmSpec spec;
        std::unique_ptr<DeviceBuffer> a, b, d;
        std::unique_ptr<GemmPlan> plan;
        // Two batches in flight at most: events around each, and its GEMM count (0 = none).
        std::unique_ptr<Event> start[2], stop[2];
        int batch[2] = {0, 0};
        double gemm_s = 0;
        bool sampling = true;
        std::vector<ProfileThermalSample> samples;
    };
    std::vector<Load> loads;
    for (const Gpu &g : gpus_) {
        Load load;
        load.gpu = &g;
        std::string why;
        const Precision p =
            precisionSupported(g, Precision::BF16, &why) ? Precision::BF16 : Precision::FP32;
        const std::vector<int64_t> sizes = gemmSizes(g, p);
        const int64_t s =
            sizes.empty() ? 1024 : std::min<int64_t>(sizes.back(), o_.quick ? 4096 : 8192);
        load.spec = GemmSpec{p, s, s, s, o_.gemm_library};
        const GemmTypes types = gemmTypes(p);
        const size_t elements = static_cast<size_t>(s) * static_cast<size_t>(s);
        try {
            check(b_.nvmlDeviceHandle(g.info.pci_bus_id, &load.nvml));
            load.a =
                std::make_unique<DeviceBuffer>(b_, g.device, elements * dataTypeBytes(types.ab));
            load.b =
                std::make_unique<DeviceBuffer>(b_, g.device, elements * dataTypeBytes(types.ab));
            load.d =
                std::make_unique<DeviceBuffer>(b_, g.device, elements * dataTypeBytes(types.c));
            check(b_.fillRandom(g.device, load.a->get(), types.ab, elements, kSeedA));
            check(b_.fillRandom(g.device, load.b->get(), types.ab, elements, kSeedB));
            load.plan = std::make_unique<GemmPlan>(b_, g.device, load.spec, load.a->get(),
                                                   load.b->get(), load.d->get());
            for (int slot = 0; slot < 2; ++slot) {
                load.start[slot] = std::make_unique<Event>(b_, g.device);
                load.stop[slot] = std::make_unique<Event>(b_, g.device);
            }
            load.plan->run();
            check(b_.eventRecord(g.device, load.start[0]->get()));
            load.plan->run();
            check(b_.eventRecord(g.device, load.stop[0]->get()));
            check(b_.eventElapsed(load.start[0]->get(), load.stop[0]->get(), &load.gemm_s));
            loads.push_back(std::move(load));
        } catch (const CallFailure &f) {
            failCall(test, gpuLabel(g.device), f.status);
        }
    }
    if (loads.empty()) {
        finishTest(end, test);
        return;
    }

    // Each GPU's queue holds one to two sampling intervals of GEMMs: batch i + 1 is queued
    // before batch i is waited for, so the GPU never runs dry between samples. Each batch is
    // sized from the measured time of the last one (clocks drop as the GPU heats up). NVML
    // is read on a fixed wall-clock schedule, every `interval` seconds from t0.
    const double interval = o_.thermal_sample_s;
    const auto stopLoad = [&](Load &load, const CallStatus &s) {
        failCall(test, gpuLabel(load.gpu->device), s);
        b_.synchronize(load.gpu->device); // nothing of the plan's still queued when it goes
        load.plan.reset();
    };
    const auto enqueue = [&](Load &load, int slot) {
        if (!load.plan)
            return;
        const int batch = static_cast<int>(
            std::clamp(std::ceil(interval / std::max(load.gemm_s, 1e-6)), 1.0, 100000.0));
        try {
            check(b_.eventRecord(load.gpu->device, load.start[slot]->get()));
            for (int k = 0; k < batch; ++k)
                load.plan->run();
            check(b_.eventRecord(load.gpu->device, load.stop[slot]->get()));
            load.batch[slot] = batch;
        } catch (const CallFailure &f) {
            stopLoad(load, f.status);
        }
    };
    const auto wait = [&](Load &load, int slot) {
        if (!load.plan || load.batch[slot] == 0)
            return;
        try {
            double t = 0;
            check(b_.eventElapsed(load.start[slot]->get(), load.stop[slot]->get(), &t));
            if (t > 0)
                load.gemm_s = t / load.batch[slot];
            load.batch[slot] = 0;
        } catch (const CallFailure &f) {
            stopLoad(load, f.status);
        }
    };
    const auto t0 = std::chrono::steady_clock::now();
    for (Load &load : loads)
        enqueue(load, 0);
    for (int i = 0; i < samples; ++i) {
        for (Load &load : loads)
            enqueue(load, (i + 1) % 2);
        std::this_thread::sleep_until(t0 + std::chrono::duration<double>((i + 1) * interval));
        const double t_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::string message = "t " + fmt(t_s, 1) + " s";
        for (Load &load : loads) {
            if (!load.sampling)
                continue;
            try {
                unsigned mhz = 0, celsius = 0, milliwatts = 0;
                unsigned long long reasons = 0;
                check(b_.nvmlSmClock(load.nvml, &mhz));
                check(b_.nvmlTemperature(load.nvml, &celsius));
                check(b_.nvmlPower(load.nvml, &milliwatts));
                check(b_.nvmlThrottleReasons(load.nvml, &reasons));
                load.samples.push_back({t_s, static_cast<double>(mhz), static_cast<double>(celsius),
                                        milliwatts / 1000.0, throttleReasonNames(reasons)});
                message += ", " + gpuLabel(load.gpu->device) + " " + std::to_string(mhz) + " MHz " +
                           std::to_string(celsius) + " C " + fmt(milliwatts / 1000.0, 0) + " W";
            } catch (const CallFailure &f) {
                failCall(test, gpuLabel(load.gpu->device), f.status);
                load.sampling = false;
            }
        }
        for (Load &load : loads)
            wait(load, i % 2);
        step(test, message);
    }
    const double duration =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (Load &load : loads) { // the last batch queued
        if (!load.plan)
            continue;
        const CallStatus s = b_.synchronize(load.gpu->device);
        if (!s.ok())
            stopLoad(load, s);
    }
    for (Load &load : loads) {
        const int d = load.gpu->device;
        // The load must have computed correct results for the samples to describe real work.
        try {
            if (!load.plan)
                continue;
            double max_error = 0;
            check(b_.gemmCheck(d, load.spec, load.a->get(), load.b->get(), load.d->get(), 64,
                               kSeedD, &max_error));
            if (!(max_error <= 4e-2)) {
                fail(test, gpuLabel(d) + ": GEMM load result check failed (max relative error " +
                               fmt(max_error, 4) + "); samples not written");
                continue;
            }
        } catch (const CallFailure &f) {
            failCall(test, gpuLabel(d), f.status);
            continue;
        }
        if (load.samples.empty())
            continue;
        ProfileGpu &pg = profileOf(*load.gpu);
        pg.thermal_duration_s = std::max(duration, 1e-3);
        pg.thermal_samples = std::move(load.samples);
    }
    finishTest(end, test);
}

} // namespace scalescope::gpuprobe::probe_detail
