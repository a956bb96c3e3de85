// The nccl test: all_reduce, all_gather and reduce_scatter over nccl-tests' sizes, on the
// node's GPUs or across MPI ranks, with the collective watchdog.
#include "runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

namespace scalescope::gpuprobe::probe_detail
{

namespace
{

constexpr CollectiveOp kCollectiveOps[] = {CollectiveOp::AllReduce, CollectiveOp::AllGather,
                                           CollectiveOp::ReduceScatter};

} // namespace

void Runner::runCollectives(NcclGroup &group, const std::vector<int> &devices, int nranks,
                            int first_rank)
{
    const size_t max_bytes = collectiveMaxBytes();
    const size_t max_count = max_bytes / sizeof(float);
    std::vector<std::unique_ptr<DeviceBuffer>> send, recv;
    std::vector<const float *> send_ptrs;
    std::vector<float *> recv_ptrs;
    for (size_t i = 0; i < devices.size(); ++i) {
        send.push_back(std::make_unique<DeviceBuffer>(b_, devices[i], max_bytes));
        recv.push_back(std::make_unique<DeviceBuffer>(b_, devices[i], max_bytes));
        send_ptrs.push_back(send.back()->as<float>());
        recv_ptrs.push_back(recv.back()->as<float>());
        // Each rank's data depends only on (rank, index): fill once for every size.
        check(b_.fillRanked(devices[i], send.back()->as<float>(), max_count, kSeedD,
                            first_rank + static_cast<int>(i)));
    }
    std::vector<std::unique_ptr<Event>> starts, ends;
    for (int d : devices) {
        starts.push_back(std::make_unique<Event>(b_, d));
        ends.push_back(std::make_unique<Event>(b_, d));
    }
    const int nodes = cluster_.nodes();

    for (CollectiveOp op : kCollectiveOps) {
        const std::string test = std::string("nccl.") + collectiveOpName(op);
        double previous_bytes = 0;
        for (size_t target : collectiveSizes()) {
            // nccl-tests' sizes: all_reduce moves `count` elements; all_gather and
            // reduce_scatter report the larger side, n * count.
            const bool per_rank = op != CollectiveOp::AllReduce;
            const size_t count = std::max<size_t>(
                1, target / sizeof(float) / (per_rank ? static_cast<size_t>(nranks) : 1));
            const size_t elements = count * (per_rank ? static_cast<size_t>(nranks) : 1);
            const double bytes = static_cast<double>(elements * sizeof(float));
            const std::string where = std::to_string(static_cast<long long>(bytes)) + " bytes";
            if (elements > max_count || bytes == previous_bytes) {
                // Sizes below n x 4 bytes round up to the same one (as in nccl-tests).
                step(test,
                     where + (bytes == previous_bytes ? ": measured already" : ": does not fit"));
                continue;
            }
            previous_bytes = bytes;
            try {
                const size_t recv_count = op == CollectiveOp::ReduceScatter ? count : elements;
                for (size_t i = 0; i < devices.size(); ++i) // not a possible result
                    check(
                        b_.fillRandom(devices[i], recv_ptrs[i], DataType::F32, recv_count, kSeedA));
                const auto run = [&] {
                    check(b_.ncclRun(group.get(), op, send_ptrs, recv_ptrs, count));
                };
                const int batch = bytes <= 1048576 && o_.min_batch_s > 0 ? 10 : 1;
                const std::string what = std::string(collectiveOpName(op)) + " of " +
                                         sizeText(bytes) + " on " + std::to_string(nranks) +
                                         " GPUs";
                for (int i = 0; i < method_.warmup; ++i)
                    run();
                // Never block on a collective: a hang would stop the whole run.
                waitCollective(group, what);
                std::vector<double> times;
                for (int r = 0; r < method_.repetitions; ++r) {
                    for (size_t i = 0; i < devices.size(); ++i)
                        check(b_.eventRecord(devices[i], starts[i]->get()));
                    for (int k = 0; k < batch; ++k)
                        run();
                    double slowest = 0;
                    for (size_t i = 0; i < devices.size(); ++i)
                        check(b_.eventRecord(devices[i], ends[i]->get()));
                    waitCollective(group, what); // the end events below are then complete
                    for (size_t i = 0; i < devices.size(); ++i) {
                        double t = 0;
                        check(b_.eventElapsed(starts[i]->get(), ends[i]->get(), &t));
                        slowest = std::max(slowest, t);
                    }
                    // A collective ends when its slowest rank does.
                    times.push_back(cluster_.maxOverRanks(slowest) / batch);
                }
                double wrong = 0;
                for (size_t i = 0; i < devices.size(); ++i) {
                    uint64_t w = 0;
                    const CollectiveCheck c{op, count, nranks, first_rank + static_cast<int>(i),
                                            kSeedD};
                    check(b_.verifyCollective(devices[i], recv_ptrs[i], c, &w));
                    wrong += static_cast<double>(w);
                }
                wrong = cluster_.sumOverRanks(wrong);
                if (wrong != 0) {
                    fail(test, where + ": result check failed (" + fmt(wrong, 0) +
                                   " wrong elements); figure not written");
                    step(test, where + ": check failed");
                    continue;
                }
                ProfileCollective c;
                c.op = collectiveOpName(op);
                c.gpus = nranks;
                c.nodes = std::min(nodes, nranks);
                c.bytes = bytes;
                c.time_s = median(times);
                c.algbw_gbps = bytes / c.time_s / 1e9;
                c.busbw_gbps = c.algbw_gbps * busBandwidthFactor(op, nranks);
                r_.profile.collectives.push_back(c);
                step(test, where + ": " + fmt(c.time_s * 1e6, 1) + " us, busbw " +
                               fmt(c.busbw_gbps, 2) + " GB/s");
            } catch (const CallFailure &f) {
                failCall(test, where, f.status);
                step(test, where + ": failed");
            } catch (const CollectiveAborted &t) {
                // The communicators are gone: no further collective can run. runNccl
                // counts the remaining steps; the other tests go on.
                fail(test, t.message);
                step(test, where + ": hung, aborted");
                return;
            }
        }
    }
}

void Runner::waitCollective(NcclGroup &group, const std::string &what)
{
    using Clock = std::chrono::steady_clock;
    const auto deadline =
        Clock::now() + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(o_.collective_timeout_s));
    auto pause = std::chrono::microseconds(20);
    const auto abort = [&](const std::string &why) {
        const CallStatus aborted = b_.ncclAbort(group.get());
        throw CollectiveAborted{
            what + " " + why + "; " +
            (aborted.ok() ? std::string("NCCL communicator aborted (ncclCommAbort)")
                          : "aborting the NCCL communicator failed too: " + aborted.call + ": " +
                                aborted.message)};
    };
    for (;;) {
        bool done = false;
        const CallStatus s = b_.ncclQuery(group.get(), &done);
        // NCCL's advice after an asynchronous error: abort the communicator.
        if (!s.ok() && s.call == "ncclCommGetAsyncError")
            abort("failed: " + s.call + ": " + s.message);
        check(s);
        if (done)
            return;
        if (Clock::now() >= deadline) {
            char limit[32];
            std::snprintf(limit, sizeof limit, "%g", o_.collective_timeout_s);
            abort(std::string("did not complete within ") + limit + " s");
        }
        // Short at first (a collective of a few bytes takes microseconds), then 10 ms.
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(10000));
    }
}

void Runner::runNccl()
{
    if (!multiRank() && gpus_.size() < 2) {
        skip("nccl", "one GPU only");
        return;
    }
    const int end = done_ + 3 * static_cast<int>(collectiveSizes().size());
    std::string version;
    const CallStatus loaded = b_.ncclLoad(&version);
    // Every rank must agree before any of them enters a collective call.
    if (cluster_.sumOverRanks(loaded.ok() ? 0 : 1) != 0) {
        skip("nccl",
             loaded.ok() ? "NCCL is missing on another rank" : loaded.call + ": " + loaded.message);
        finishTest(end, "nccl");
        return;
    }
    r_.profile.nccl = version;
    try {
        NcclGroup group(b_);
        std::vector<int> devices;
        for (const Gpu &g : gpus_)
            devices.push_back(g.device);
        if (multiRank()) {
            NcclId id{};
            CallStatus s = CallStatus::success();
            if (cluster_.rank() == 0)
                s = b_.ncclGetUniqueId(&id);
            cluster_.broadcast(id.data(), id.size());
            if (cluster_.sumOverRanks(s.ok() ? 0 : 1) != 0)
                check(s.ok() ? CallStatus::failure("ncclGetUniqueId", "failed on rank 0") : s);
            check(b_.ncclInitRank(devices.front(), cluster_.size(), cluster_.rank(), id,
                                  group.out()));
            runCollectives(group, devices, cluster_.size(), cluster_.rank());
        } else {
            check(b_.ncclInitAll(devices, group.out()));
            runCollectives(group, devices, static_cast<int>(devices.size()), 0);
        }
    } catch (const CallFailure &f) {
        failCall("nccl", gpuLabel(gpus_.front().device), f.status);
    }
    finishTest(end, "nccl");
}

} // namespace scalescope::gpuprobe::probe_detail
