// Owners of the probe's backend objects (buffers, events, GEMM plans, NCCL groups), released
// on every path, failures included; and CallFailure, the failed call they throw.
#pragma once

#include "backend.h"

#include <algorithm>
#include <cstddef>

namespace scalescope::gpuprobe::probe_detail
{

/// A failed call, thrown inside one measurement and caught by the step that made it.
struct CallFailure {
    CallStatus status;
};

inline void check(const CallStatus &s)
{
    if (!s.ok())
        throw CallFailure{s};
}

class DeviceBuffer
{
public:
    DeviceBuffer(Backend &b, int device, size_t bytes) : b_(b), device_(device), bytes_(bytes)
    {
        check(b.deviceMalloc(device, std::max<size_t>(bytes, 1), &ptr_));
    }
    ~DeviceBuffer()
    {
        if (ptr_)
            b_.deviceFree(device_, ptr_);
    }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    void *get() const { return ptr_; }
    template <typename T> T *as() const { return static_cast<T *>(ptr_); }
    size_t bytes() const { return bytes_; }

private:
    Backend &b_;
    int device_;
    size_t bytes_;
    void *ptr_ = nullptr;
};

class HostBuffer
{
public:
    HostBuffer(Backend &b, size_t bytes, bool pinned) : b_(b), pinned_(pinned)
    {
        check(b.hostMalloc(bytes, pinned, &ptr_));
    }
    ~HostBuffer()
    {
        if (ptr_)
            b_.hostFree(ptr_, pinned_);
    }
    HostBuffer(const HostBuffer &) = delete;
    HostBuffer &operator=(const HostBuffer &) = delete;
    template <typename T> T *as() const { return static_cast<T *>(ptr_); }

private:
    Backend &b_;
    bool pinned_;
    void *ptr_ = nullptr;
};

class Event
{
public:
    Event(Backend &b, int device) : b_(b), device_(device) { check(b.eventCreate(device, &ev_)); }
    ~Event()
    {
        if (ev_)
            b_.eventDestroy(device_, ev_);
    }
    Event(const Event &) = delete;
    Event &operator=(const Event &) = delete;
    void *get() const { return ev_; }

private:
    Backend &b_;
    int device_;
    void *ev_ = nullptr;
};

class GemmPlan
{
public:
    GemmPlan(Backend &b, int device, const GemmSpec &spec, const void *a, const void *bm, void *d)
        : b_(b)
    {
        check(b.gemmSetup(device, spec, a, bm, d, &plan_));
    }
    ~GemmPlan()
    {
        if (plan_)
            b_.gemmDestroy(plan_);
    }
    GemmPlan(const GemmPlan &) = delete;
    GemmPlan &operator=(const GemmPlan &) = delete;
    void run() const { check(b_.gemmRun(plan_)); }

private:
    Backend &b_;
    void *plan_ = nullptr;
};

class NcclGroup
{
public:
    explicit NcclGroup(Backend &b) : b_(b) {}
    ~NcclGroup()
    {
        if (group_)
            b_.ncclDestroy(group_);
    }
    NcclGroup(const NcclGroup &) = delete;
    NcclGroup &operator=(const NcclGroup &) = delete;
    void **out() { return &group_; }
    void *get() const { return group_; }

private:
    Backend &b_;
    void *group_ = nullptr;
};

} // namespace scalescope::gpuprobe::probe_detail
