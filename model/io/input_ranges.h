// Every range an input file's key may take (scenarios, catalogs, calibration profiles, the
// gallery), in one table: the readers name them, and a name means one range everywhere.
#pragma once

#include "io/gallery_io.h"
#include "io/json_util.h"
#include "io/profile_io.h"
#include "plan/rules.h"

#include <cstdint>

namespace scalescope::json
{

// ---- Scenarios (io/scenario_io.cpp)
inline constexpr IntRange kNodesRange{1, 65536};
inline constexpr IntRange kGpusPerNodeRange{1, 64};
inline constexpr IntRange kNicsPerNodeRange{1, 64};
inline constexpr IntRange kNvlinkDomainRange{1, 576}; // GB200 NVL576 is the largest NVLink domain
inline constexpr IntRange kCpuCoresRange{1, 4096};
inline constexpr IntRange kGlobalBatchRange{1, 1000000000};
inline constexpr IntRange kZeroRange{0, 3};
inline constexpr IntRange kVirtualStagesRange{1, 1024};
inline constexpr RealRange kBucketMbRange = RealRange::closed(0, 1e6);
inline constexpr IntRange kCollectiveBytesRange{1, 10000000000000};
inline constexpr IntRange kGpuIndexRange{0, kMaxGpuCount - 1};
inline constexpr IntRange kSeedRange{0, int64_t(1) << 53};
inline constexpr RealRange kJitterRange = RealRange::closed(0, 1);
inline constexpr IntRange kSeqLenRange{1, 10000000};
inline constexpr IntRange kMtpDepthRange{0, 8};
// Transformer layers whose activations wait in host memory (training.activation_offload_layers);
// the rule table bounds it by the model's layers.
inline constexpr IntRange kOffloadLayersRange{0, 100000};
// The busiest expert's tokens over the mean: 1 (balanced) up to every token of the layer on
// one expert of 1024.
inline constexpr RealRange kExpertImbalanceRange = RealRange::closed(1, 1024);
inline constexpr RealRange kSlowdownRange = RealRange::closed(1, 100);
inline constexpr RealRange kThrottleRange = RealRange::closed(20, 120);
inline constexpr RealRange kClockDropRange = RealRange::closed(0, 0.9);
inline constexpr RealRange kWarmupRange = RealRange::positive(1e6);
inline constexpr IntRange kWorkersRange{0, 1024};
// Rates, times and shares start where a real device or run does (issue 29: 5e-324 gave inf
// and NaN): 0.001 samples/s per worker, 1% of a GPU (time slicing among 100 jobs), an MTBF
// of 36 seconds, 1 MB/s of storage, a checkpoint every second, 0.01 years (3.7 days) of
// amortisation, one run in 1000 months.
inline constexpr RealRange kSamplesPerWorkerRange = RealRange::closed(1e-3, 1e12);
inline constexpr IntRange kPrefetchRange{1, 64};
inline constexpr RealRange kAmbientRange = RealRange::closed(-20, 60);
inline constexpr RealRange kSteadyRange = RealRange::closed(0, 150);
inline constexpr RealRange kStartRange = RealRange::closed(0, 1e9);
inline constexpr RealRange kFractionRange = RealRange::closed(0.01, 1);
inline constexpr RealRange kMtbfRange = RealRange::closed(0.01, 1e9);
inline constexpr RealRange kCheckpointBytesRange = RealRange::closed(0, 1e16);
inline constexpr RealRange kWriteGbpsRange = RealRange::closed(1e-3, 1e6);
inline constexpr RealRange kRestartRange = RealRange::closed(0, 1e7);
inline constexpr RealRange kIntervalRange = RealRange::zeroOr(1, 1e9); // 0: the optimum
inline constexpr RealRange kPriceRange = RealRange::closed(0, 1e9);
inline constexpr RealRange kHourPriceRange = RealRange::closed(0, 1e4);
inline constexpr RealRange kYearsRange = RealRange::closed(0.01, 50);
inline constexpr RealRange kKwhPriceRange = RealRange::closed(0, 100);
inline constexpr RealRange kPueRange = RealRange::closed(1, 5);
inline constexpr RealRange kWorkRange = RealRange::positive(1e18);
inline constexpr RealRange kRunsRange = RealRange::closed(1e-3, 1e6);
inline constexpr RealRange kDaysRange = RealRange::closed(0, 3650);
inline constexpr RealRange kDayRateRange = RealRange::closed(0, 1e6);
// One CPU socket's DRAM bandwidth in GB/s (an intra-node link's `host_memory_gbps`, the
// scenario's `hardware.host_memory_gbps`): from a 4-channel DDR4 desktop (~40) to 12-channel
// DDR5 and HBM server parts (~1,000), at least 0.1 (one DDR channel of 2000 has ~1.6; the
// GUI's step); 0 = not stated.
inline constexpr RealRange kHostMemoryRange = RealRange::zeroOr(0.1, 5000);

// ---- Catalog entries and inline objects (io/spec_json.cpp)
// Ranges shared by catalog entries and inline objects. Each physical quantity starts at the
// smallest figure a real device has (issue 29: 5e-324 Gb/s or a 5e-324 peak gave "step time
// inf s" and "nan%"): 1 GFLOP/s (an embedded GPU of 2008 has ~10), 100 MB of memory, 1 GB/s
// of memory bandwidth, 1 W, 10 KB of L2, 0.01 us of latency (an NVLink hop is ~1 us),
// 0.1 GB/s inside a node (PCIe 1.0 x1: 0.25 GB/s), 1 Mb/s between nodes (1BASE5).
inline constexpr double kMinTflops = 1e-3;
inline constexpr double kMaxTflops = 1e5;
inline constexpr RealRange kPeakTflopsRange = RealRange::closed(kMinTflops, kMaxTflops);
// 0: the GPU has no support for the precision.
inline constexpr RealRange kOptionalPeakTflopsRange = RealRange::zeroOr(kMinTflops, kMaxTflops);
inline constexpr RealRange kMemoryGbRange = RealRange::closed(0.1, 1e5);
inline constexpr RealRange kMemoryBandwidthGbpsRange = RealRange::closed(1, 1e6);
inline constexpr RealRange kTdpWRange = RealRange::closed(1, 1e5);
inline constexpr IntRange kSmCountRange{1, 10000};
// 0: not stated (the family's figure).
inline constexpr RealRange kL2MbRange = RealRange::zeroOr(0.01, 1e5);
// A GPU's copy bandwidth to host memory per direction, GB/s (0: its PCIe generation's).
inline constexpr RealRange kHostLinkGbpsRange = RealRange::zeroOr(0.1, 1e5);
// 0: none (a latency) or the family's figure (a launch overhead).
inline constexpr RealRange kLatencyUsRange = RealRange::zeroOr(0.01, 1e6);
inline constexpr RealRange kLinkBandwidthGbpsRange = RealRange::closed(0.1, 1e5);
inline constexpr RealRange kLineRateGbitRange = RealRange::closed(1e-3, 1e5);
inline constexpr IntRange kNvswitchGenRange{0, 10};

// ---- Calibration profiles (io/profile_io.cpp)
inline constexpr IntRange kProfileGpusPerNodeRange{0, kMaxProfileGpusPerNode}; // 0: the probe found no GPU
inline constexpr IntRange kProfileNodesRange{1, kMaxProfileNodes};
inline constexpr IntRange kDeviceIndexRange{0, kMaxProfileGpus - 1};
inline constexpr IntRange kMemoryBytesRange{1, int64_t(1) << 50};
inline constexpr IntRange kGemmDimRange{1, 10000000};
inline constexpr IntRange kCollectiveGpusRange{1, kMaxProfileCollectiveGpus};
inline constexpr RealRange kTflopsRange = RealRange::positive(1e5);
inline constexpr RealRange kBandwidthRange = RealRange::closed(0, kMaxProfileBandwidthGbps); // GB/s; 0 = not measured
// A GPU's memory bandwidth replaces the datasheet's for every memory-bound operation: from
// 1 GB/s, as a catalog GPU (issue 29: 5e-324 GB/s gave "step time inf s"); 0 = not measured.
// (A collective's algbw may be far below 1 GB/s: 8 bytes in 20 us.)
inline constexpr RealRange kDeviceMemoryBandwidthRange = RealRange::zeroOr(1, kMaxProfileBandwidthGbps);
inline constexpr RealRange kMicrosecondsRange = RealRange::closed(0, 1e6);
inline constexpr RealRange kDurationRange = RealRange::positive(1e7);
inline constexpr RealRange kSampleTimeRange = RealRange::closed(0, 1e7);
inline constexpr RealRange kClockRange = RealRange::closed(0, 10000);
inline constexpr RealRange kTemperatureRange = RealRange::closed(-50, 150);
inline constexpr RealRange kPowerRange = RealRange::closed(0, 10000);
inline constexpr RealRange kCollectiveTimeRange = RealRange::positive(kMaxProfileCollectiveTimeS);

// ---- The gallery (io/gallery_io.cpp)
inline constexpr IntRange kClaimRange{1, kMaxGalleryClaim};
inline constexpr IntRange kSweepGpusRange{1, kMaxGpuCount};

} // namespace scalescope::json
