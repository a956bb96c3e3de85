#include "backend.h"

#include <cstdio>

namespace scalescope::gpuprobe
{

size_t dataTypeBytes(DataType t)
{
    switch (t) {
    case DataType::F64:
        return 8;
    case DataType::F32:
        return 4;
    case DataType::F16:
    case DataType::BF16:
        return 2;
    case DataType::F8E4M3:
        return 1;
    }
    return 1;
}

const char *dataTypeName(DataType t)
{
    switch (t) {
    case DataType::F64:
        return "f64";
    case DataType::F32:
        return "f32";
    case DataType::F16:
        return "f16";
    case DataType::BF16:
        return "bf16";
    case DataType::F8E4M3:
        return "e4m3";
    }
    return "?";
}

GemmTypes gemmTypes(Precision p)
{
    switch (p) {
    case Precision::FP32:
    case Precision::TF32:
        return {DataType::F32, DataType::F32};
    case Precision::FP16:
        return {DataType::F16, DataType::F16};
    case Precision::BF16:
        return {DataType::BF16, DataType::BF16};
    case Precision::FP8:
        return {DataType::F8E4M3, DataType::BF16};
    }
    return {DataType::F32, DataType::F32};
}

const char *gemmLibraryName(GemmLibrary l)
{
    return l == GemmLibrary::Cublas ? "cublas" : "cublaslt";
}

std::vector<std::string> throttleReasonNames(unsigned long long mask)
{
    // nvml.h: nvmlClocksEventReason* / nvmlClocksThrottleReason* bit values.
    static const struct {
        unsigned long long bit;
        const char *name;
    } kReasons[] = {
        {0x1ULL, "gpu_idle"},
        {0x2ULL, "applications_clocks_setting"},
        {0x4ULL, "sw_power_cap"},
        {0x8ULL, "hw_slowdown"},
        {0x10ULL, "sync_boost"},
        {0x20ULL, "sw_thermal_slowdown"},
        {0x40ULL, "hw_thermal_slowdown"},
        {0x80ULL, "hw_power_brake_slowdown"},
        {0x100ULL, "display_clock_setting"},
    };
    std::vector<std::string> names;
    unsigned long long known = 0;
    for (const auto &r : kReasons) {
        known |= r.bit;
        if (mask & r.bit)
            names.emplace_back(r.name);
    }
    if (const unsigned long long other = mask & ~known) {
        char text[32];
        std::snprintf(text, sizeof text, "other_0x%llx", other);
        names.emplace_back(text);
    }
    return names;
}

} // namespace scalescope::gpuprobe
