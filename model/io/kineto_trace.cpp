// Streaming Kineto trace reader (kineto_trace.h). Definitions: spec/cli.md, section "trace: a
// measured run, and the prediction beside it"; the event layout: PyTorch's Kineto
// (pytorch/kineto, libkineto/src/output_json.cpp) as torch.profiler writes it.
#include "io/kineto_trace.h"

#include "io/file_io.h"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <memory>
#include <string_view>
#include <unordered_map>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace scalescope
{

namespace
{

// ---- Bytes in, JSON text out -------------------------------------------------------------

// Where the (possibly compressed) bytes come from.
class ByteSource
{
public:
    virtual ~ByteSource() = default;
    // Up to `n` bytes into `buf`; 0 at the end; -1 on error (with `error()` set).
    virtual long read(unsigned char *buf, size_t n) = 0;
    virtual int64_t size() const = 0;
    const std::string &error() const { return error_; }

protected:
    std::string error_;
};

class FileSource final : public ByteSource
{
public:
    explicit FileSource(int fd, int64_t size) : fd_(fd), size_(size) {}
    ~FileSource() override { ::close(fd_); }
    long read(unsigned char *buf, size_t n) override
    {
        for (;;) {
            const ssize_t got = ::read(fd_, buf, n);
            if (got >= 0)
                return static_cast<long>(got);
            if (errno != EINTR) {
                error_ = std::strerror(errno);
                return -1;
            }
        }
    }
    int64_t size() const override { return size_; }

private:
    int fd_;
    int64_t size_;
};

class MemorySource final : public ByteSource
{
public:
    explicit MemorySource(const QByteArray &bytes) : bytes_(bytes) {}
    long read(unsigned char *buf, size_t n) override
    {
        const size_t left = static_cast<size_t>(bytes_.size()) - at_;
        const size_t take = std::min(n, left);
        std::memcpy(buf, bytes_.constData() + at_, take);
        at_ += take;
        return static_cast<long>(take);
    }
    int64_t size() const override { return bytes_.size(); }

private:
    const QByteArray &bytes_;
    size_t at_ = 0;
};

// The JSON text: the source's bytes, inflated when they start with gzip's magic 1f 8b
// (spec/cli.md "trace": gzip is recognised by its first two bytes, not by the file's name).
// Concatenated gzip members are read one after the other, as gunzip and Python's gzip do.
class TextSource
{
public:
    explicit TextSource(ByteSource &in) : in_(in), input_(kInputBytes)
    {
        std::memset(&z_, 0, sizeof z_);
    }
    ~TextSource()
    {
        if (inflating_)
            inflateEnd(&z_);
    }
    TextSource(const TextSource &) = delete;
    TextSource &operator=(const TextSource &) = delete;

    // Up to `n` bytes of text; 0 at the end; -1 on error (error() says what).
    long read(char *out, size_t n)
    {
        if (!started_ && !start())
            return -1;
        if (!gzip_) {
            if (in_at_ < in_end_) { // the two bytes peeked at the start
                const size_t take = std::min(n, in_end_ - in_at_);
                std::memcpy(out, input_.data() + in_at_, take);
                in_at_ += take;
                return static_cast<long>(take);
            }
            const long got = in_.read(reinterpret_cast<unsigned char *>(out), n);
            if (got < 0)
                error_ = "cannot read: " + in_.error();
            consumed_ += got > 0 ? got : 0;
            return got;
        }
        z_.next_out = reinterpret_cast<Bytef *>(out);
        z_.avail_out = static_cast<uInt>(n);
        while (z_.avail_out == n) {
            if (z_.avail_in == 0) {
                if (!fill())
                    return -1;
                if (z_.avail_in == 0) {
                    if (member_open_) {
                        error_ = "gzip data is damaged (it ends before its end-of-stream marker)";
                        return -1;
                    }
                    return 0;
                }
            }
            if (!member_open_) { // another member follows the last one
                if (inflateReset(&z_) != Z_OK) {
                    error_ = "gzip data is damaged";
                    return -1;
                }
                member_open_ = true;
            }
            const int rc = inflate(&z_, Z_NO_FLUSH);
            if (rc == Z_STREAM_END) {
                member_open_ = false;
            } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
                error_ =
                    std::string("gzip data is damaged (") + (z_.msg ? z_.msg : "zlib error") + ")";
                return -1;
            }
        }
        return static_cast<long>(n - z_.avail_out);
    }
    int64_t consumed() const { return consumed_; }
    const std::string &error() const { return error_; }

private:
    static constexpr size_t kInputBytes = size_t{256} << 10;

    bool start()
    {
        started_ = true;
        // Peek at two bytes (a short read may give one: read again).
        size_t have = 0;
        while (have < 2) {
            const long got = in_.read(input_.data() + have, 2 - have);
            if (got < 0) {
                error_ = "cannot read: " + in_.error();
                return false;
            }
            if (got == 0)
                break;
            have += static_cast<size_t>(got);
        }
        consumed_ = static_cast<int64_t>(have);
        in_at_ = 0;
        in_end_ = have;
        gzip_ = have == 2 && input_[0] == 0x1f && input_[1] == 0x8b;
        if (gzip_) {
            // 15 + 16: a gzip wrapper (zlib manual, inflateInit2).
            if (inflateInit2(&z_, 15 + 16) != Z_OK) {
                error_ = "cannot start gzip decompression";
                return false;
            }
            inflating_ = true;
            member_open_ = true;
            z_.next_in = input_.data();
            z_.avail_in = static_cast<uInt>(have);
            in_at_ = in_end_ = 0;
        }
        return true;
    }

    bool fill()
    {
        const long got = in_.read(input_.data(), input_.size());
        if (got < 0) {
            error_ = "cannot read: " + in_.error();
            return false;
        }
        consumed_ += got;
        z_.next_in = input_.data();
        z_.avail_in = static_cast<uInt>(got);
        return true;
    }

    ByteSource &in_;
    std::vector<unsigned char> input_;
    z_stream z_;
    bool started_ = false, gzip_ = false, inflating_ = false, member_open_ = false;
    size_t in_at_ = 0, in_end_ = 0;
    int64_t consumed_ = 0;
    std::string error_;
};

// RapidJSON's input stream concept (Peek, Take, Tell) over TextSource, buffered as
// rapidjson::FileReadStream is: a '\0' after the last byte marks the end.
class JsonStream
{
public:
    using Ch = char;
    JsonStream(TextSource &text, const TraceReadOptions &options, int64_t total)
        : text_(text), options_(options), total_(total), buffer_(kBufferBytes + 1)
    {
        current_ = last_ = buffer_.data();
        *current_ = '\0';
        refill();
    }
    Ch Peek() const { return *current_; }
    Ch Take()
    {
        const Ch c = *current_;
        if (current_ < last_) {
            ++current_;
            if (current_ == last_)
                refill();
        }
        return c;
    }
    size_t Tell() const { return before_ + static_cast<size_t>(current_ - buffer_.data()); }
    // Output side of the concept; never used by a non-in-situ parse.
    Ch *PutBegin() { return nullptr; }
    void Put(Ch) {}
    void Flush() {}
    size_t PutEnd(Ch *) { return 0; }

    bool failed() const { return failed_; }
    bool stop() const { return stop_; }
    bool sawText() const { return saw_text_; }

private:
    static constexpr size_t kBufferBytes = size_t{1} << 20;

    void refill()
    {
        if (eof_)
            return;
        before_ += static_cast<size_t>(last_ - buffer_.data());
        const long got = text_.read(buffer_.data(), kBufferBytes);
        if (got <= 0) {
            eof_ = true;
            failed_ = got < 0;
            stop_ = stop_ || failed_;
            current_ = last_ = buffer_.data();
            *current_ = '\0';
            return;
        }
        current_ = buffer_.data();
        last_ = current_ + got;
        *last_ = '\0';
        if (!saw_text_) {
            for (const char *p = current_; p < last_ && !saw_text_; ++p)
                saw_text_ = !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r');
        }
        if (options_.cancel && options_.cancel->load(std::memory_order_relaxed)) {
            cancelled_ = stop_ = true;
        }
        if (options_.progress)
            options_.progress(text_.consumed(), total_);
    }

public:
    bool cancelled() const { return cancelled_; }

private:
    TextSource &text_;
    const TraceReadOptions &options_;
    int64_t total_;
    std::vector<char> buffer_;
    char *current_ = nullptr;
    char *last_ = nullptr;
    size_t before_ = 0;
    bool eof_ = false, failed_ = false, stop_ = false, cancelled_ = false, saw_text_ = false;
};

// ---- The SAX handler ---------------------------------------------------------------------

// A JSON scalar as the handler sees it.
struct Scalar {
    enum Type { Null, Bool, Number, String } type = Null;
    double number = 0;
    bool integral = false;
    int64_t integer = 0;
    std::string_view text;
    bool isNumber() const { return type == Number && std::isfinite(number); }
    static Scalar of(Type t)
    {
        Scalar s;
        s.type = t;
        return s;
    }
};

// A device as the file names it (args.device, else pid): numbers compare by value, as the
// spec's "device id" does (0 and 0.0 are one device), strings by text.
struct DeviceKey {
    enum Type { Missing, Null, Number, String, Other } type = Missing;
    double number = 0;
    std::string text;
    bool operator==(const DeviceKey &o) const
    {
        return type == o.type && (type != Number || number == o.number) &&
               (type != String || text == o.text);
    }
    void set(const Scalar &s)
    {
        switch (s.type) {
        case Scalar::Null:
            type = Null;
            break;
        case Scalar::Bool:
            type = Other;
            break;
        case Scalar::Number:
            type = std::isfinite(s.number) ? Number : Other;
            number = s.number;
            break;
        case Scalar::String:
            type = String;
            text.assign(s.text);
            break;
        }
    }
    std::string display() const
    {
        switch (type) {
        case Number: {
            char b[32];
            std::snprintf(b, sizeof b, "%.17g", number);
            return b;
        }
        case String:
            return text;
        case Null:
            return "null";
        default:
            return "?";
        }
    }
};

enum class Top { Other, Events, DeviceProperties, DistributedInfo };
enum class EventField { None, Name, Cat, Ph, Ts, Dur, Pid, Tid, Args };
enum class ArgField {
    None,
    Device,
    Correlation,
    Stream,
    CollectiveName,
    InElements,
    OutElements,
    GroupSize,
    Dtype,
    InputDims,
    InputType,
    WaitOnStream,
    WaitOnRecordCorrelation
};
enum class Cat {
    Other,
    Kernel,
    Memcpy,
    Memset,
    CudaRuntime,
    CudaDriver,
    CudaSync,
    UserAnnotation,
    CpuOp
};

Cat catOf(std::string_view s)
{
    if (s == "kernel")
        return Cat::Kernel;
    if (s == "gpu_memcpy")
        return Cat::Memcpy;
    if (s == "gpu_memset")
        return Cat::Memset;
    if (s == "cuda_runtime")
        return Cat::CudaRuntime;
    if (s == "cuda_driver")
        return Cat::CudaDriver;
    if (s == "cuda_sync")
        return Cat::CudaSync;
    if (s == "user_annotation")
        return Cat::UserAnnotation;
    if (s == "cpu_op")
        return Cat::CpuOp;
    return Cat::Other;
}

// Bytes per element of a PyTorch dtype as Kineto writes it ("Float", "BFloat16", "Half", ...).
int dtypeBytes(std::string_view d)
{
    if (d == "Float" || d == "Int" || d == "float" || d == "int")
        return 4;
    if (d == "BFloat16" || d == "Half" || d == "Short")
        return 2;
    if (d == "Double" || d == "Long")
        return 8;
    if (d == "Byte" || d == "Char" || d == "Bool" || d == "Float8_e4m3fn" || d == "Float8_e5m2")
        return 1;
    return 0;
}

// The profile's precision name of a GEMM's "Input type" (the first input's).
const char *gemmPrecision(std::string_view t)
{
    if (t == "float")
        return "fp32";
    if (t == "c10::BFloat16")
        return "bf16";
    if (t == "c10::Half")
        return "fp16";
    return nullptr;
}

// spec/cli.md "trace": a step annotation is named ProfilerStep#N, N an integer.
bool stepNumber(std::string_view name, int64_t *n)
{
    static constexpr std::string_view kPrefix = "ProfilerStep#";
    if (name.substr(0, kPrefix.size()) != kPrefix)
        return false;
    std::string_view digits = name.substr(kPrefix.size());
    if (!digits.empty() && digits.back() == '\n') // as Python's `$` allows
        digits.remove_suffix(1);
    if (digits.empty())
        return false;
    int64_t v = 0;
    for (char c : digits) {
        if (c < '0' || c > '9')
            return false;
        v = v > (INT64_MAX - 9) / 10 ? INT64_MAX : v * 10 + (c - '0');
    }
    *n = v;
    return true;
}

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler>
{
public:
    explicit Handler(const JsonStream &stream) : stream_(stream) {}

    // Results.
    bool root_object = false;
    bool events_array = false;
    std::vector<TraceActivity> activities;
    std::vector<uint16_t> activity_device; // per activity: index into devices
    std::vector<DeviceKey> devices;
    std::vector<TraceLaunch> launches;
    std::vector<TraceSync> syncs;
    std::vector<uint16_t> sync_device; // per sync: index into devices
    std::vector<TraceStepMark> steps;
    std::vector<TraceCollectiveRecord> collectives;
    std::vector<TraceGemmRecord> gemms;
    std::vector<float> launch_host_us;
    std::vector<std::pair<DeviceKey, std::string>> device_names; // deviceProperties
    int64_t rank = 0, world_size = 0;
    std::string nccl_version;
    uint64_t events = 0;

    // ---- SAX callbacks
    bool Null() { return scalar(Scalar{}); }
    bool Bool(bool) { return scalar(Scalar::of(Scalar::Bool)); }
    bool Int(int i) { return integer(i); }
    bool Uint(unsigned u) { return integer(u); }
    bool Int64(int64_t i) { return integer(i); }
    bool Uint64(uint64_t u)
    {
        if (u <= static_cast<uint64_t>(INT64_MAX))
            return integer(static_cast<int64_t>(u));
        return Double(static_cast<double>(u));
    }
    bool Double(double d)
    {
        Scalar s = Scalar::of(Scalar::Number);
        s.number = d;
        s.integral = std::isfinite(d) && std::floor(d) == d && std::fabs(d) < 9.2e18;
        s.integer = s.integral ? static_cast<int64_t>(d) : 0;
        return scalar(s);
    }
    bool String(const char *str, rapidjson::SizeType length, bool)
    {
        Scalar s = Scalar::of(Scalar::String);
        s.text = std::string_view(str, length);
        return scalar(s);
    }
    bool Key(const char *str, rapidjson::SizeType length, bool)
    {
        const std::string_view k(str, length);
        if (depth_ == 1) {
            top_ = k == "traceEvents"        ? Top::Events
                   : k == "deviceProperties" ? Top::DeviceProperties
                   : k == "distributedInfo"  ? Top::DistributedInfo
                                             : Top::Other;
            if (top_ == Top::Events)
                events_array = false; // the last "traceEvents" is the one (as JSON readers keep)
        } else if (depth_ == 2 && top_ == Top::DistributedInfo) {
            info_key_ = k == "rank" ? 1 : k == "world_size" ? 2 : k == "nccl_version" ? 3 : 0;
        } else if (depth_ == 3 && top_ == Top::DeviceProperties) {
            prop_key_ = k == "id" ? 1 : k == "name" ? 2 : 0;
        } else if (depth_ == 3 && in_event_) {
            field_ = eventField(k);
        } else if (depth_ == 4 && in_args_) {
            arg_ = argField(k);
        }
        return !stream_.stop();
    }
    bool StartObject()
    {
        ++depth_;
        if (depth_ == 1) {
            root_object = true;
        } else if (depth_ == 3 && in_events_) {
            beginEvent();
        } else if (depth_ == 3 && top_ == Top::DeviceProperties && in_props_) {
            prop_ = DeviceKey{};
            prop_name_.clear();
            prop_has_name_ = false;
            prop_key_ = 0;
        } else if (depth_ == 4 && in_event_ && field_ == EventField::Args) {
            in_args_ = true;
            resetArgs(); // a repeated "args" replaces the earlier one
        }
        clearFieldsBelow();
        return true;
    }
    bool EndObject(rapidjson::SizeType)
    {
        if (depth_ == 3 && in_event_) {
            endEvent();
        } else if (depth_ == 3 && in_props_ && top_ == Top::DeviceProperties) {
            if (prop_.type != DeviceKey::Missing && prop_has_name_)
                device_names.emplace_back(prop_, prop_name_);
        } else if (depth_ == 4 && in_args_) {
            in_args_ = false;
        }
        --depth_;
        afterValue();
        return !stream_.stop();
    }
    bool StartArray()
    {
        ++depth_;
        if (depth_ == 2 && top_ == Top::Events) {
            in_events_ = true;
            events_array = true;
        } else if (depth_ == 2 && top_ == Top::DeviceProperties) {
            in_props_ = true;
        } else if (depth_ == 5 && in_args_ && arg_ == ArgField::InputDims) {
            in_dims_ = true;
            dims_.clear();
        } else if (depth_ == 6 && in_dims_) {
            dims_.emplace_back();
        } else if (depth_ == 5 && in_args_ && arg_ == ArgField::InputType) {
            in_types_ = true;
            types_.clear();
        }
        clearFieldsBelow();
        return true;
    }
    bool EndArray(rapidjson::SizeType)
    {
        if (depth_ == 2) {
            in_events_ = false;
            in_props_ = false;
        } else if (depth_ == 5) {
            in_dims_ = in_types_ = false;
        }
        --depth_;
        afterValue();
        return !stream_.stop();
    }

private:
    const JsonStream &stream_;
    int depth_ = 0;
    Top top_ = Top::Other;
    bool in_events_ = false, in_event_ = false, in_args_ = false, in_props_ = false;
    bool in_dims_ = false, in_types_ = false;
    int info_key_ = 0, prop_key_ = 0;
    EventField field_ = EventField::None;
    ArgField arg_ = ArgField::None;
    DeviceKey prop_;
    std::string prop_name_;
    bool prop_has_name_ = false;
    std::unordered_map<int64_t, int32_t> thread_numbers_;
    std::unordered_map<std::string, int32_t> thread_texts_;

    // The event being read.
    std::string name_;
    bool has_name_ = false;
    Cat cat_ = Cat::Other;
    bool ph_x_ = false;
    Scalar ts_, dur_;
    DeviceKey pid_, device_;
    bool has_device_ = false;
    Scalar tid_;
    std::string tid_text_;
    bool has_stream_ = false;
    int64_t stream_number_ = 0;
    int64_t correlation_ = kNoCorrelation;
    int64_t wait_on_stream_ = -1, wait_on_record_ = kNoCorrelation;
    std::string collective_, dtype_;
    double in_elements_ = 0, out_elements_ = 0;
    int64_t group_size_ = 0;
    std::vector<std::vector<double>> dims_;
    std::vector<std::string> types_;

    static EventField eventField(std::string_view k)
    {
        if (k == "name")
            return EventField::Name;
        if (k == "cat")
            return EventField::Cat;
        if (k == "ph")
            return EventField::Ph;
        if (k == "ts")
            return EventField::Ts;
        if (k == "dur")
            return EventField::Dur;
        if (k == "pid")
            return EventField::Pid;
        if (k == "tid")
            return EventField::Tid;
        if (k == "args")
            return EventField::Args;
        return EventField::None;
    }
    static ArgField argField(std::string_view k)
    {
        if (k == "device")
            return ArgField::Device;
        if (k == "correlation")
            return ArgField::Correlation;
        if (k == "stream")
            return ArgField::Stream;
        if (k == "Collective name")
            return ArgField::CollectiveName;
        if (k == "In msg nelems")
            return ArgField::InElements;
        if (k == "Out msg nelems")
            return ArgField::OutElements;
        if (k == "Group size")
            return ArgField::GroupSize;
        if (k == "dtype")
            return ArgField::Dtype;
        if (k == "Input Dims")
            return ArgField::InputDims;
        if (k == "Input type")
            return ArgField::InputType;
        if (k == "wait_on_stream")
            return ArgField::WaitOnStream;
        if (k == "wait_on_cuda_event_record_corr_id")
            return ArgField::WaitOnRecordCorrelation;
        return ArgField::None;
    }

    // A key's value is over once a scalar or container at the key's own depth ends: the
    // field names only the direct value.
    void afterValue()
    {
        if (depth_ == 3)
            field_ = EventField::None;
        if (depth_ == 4)
            arg_ = ArgField::None;
        if (depth_ == 2)
            info_key_ = 0;
        if (depth_ == 3)
            prop_key_ = 0;
    }
    // Inside a container opened under a key, the key's field does not apply.
    void clearFieldsBelow()
    {
        if (depth_ > 3 && !(depth_ == 4 && in_args_))
            field_ = EventField::None;
        if (depth_ > 4 && !in_dims_ && !in_types_)
            arg_ = ArgField::None;
        if (depth_ > 2)
            info_key_ = 0;
        if (depth_ > 3)
            prop_key_ = 0;
    }

    bool integer(int64_t i)
    {
        Scalar s = Scalar::of(Scalar::Number);
        s.number = static_cast<double>(i);
        s.integral = true;
        s.integer = i;
        return scalar(s);
    }

    bool scalar(const Scalar &s)
    {
        if (depth_ == 3 && in_event_) {
            eventScalar(s);
        } else if (depth_ == 4 && in_args_) {
            argScalar(s);
        } else if (depth_ == 6 && in_dims_ && !dims_.empty()) {
            if (s.isNumber())
                dims_.back().push_back(s.number);
        } else if (depth_ == 5 && in_types_) {
            if (s.type == Scalar::String && types_.size() < 4)
                types_.emplace_back(s.text);
        } else if (depth_ == 2 && top_ == Top::DistributedInfo) {
            if (info_key_ == 1 && s.isNumber() && s.integral)
                rank = s.integer;
            else if (info_key_ == 2 && s.isNumber() && s.integral)
                world_size = s.integer;
            else if (info_key_ == 3 && s.type == Scalar::String)
                nccl_version.assign(s.text);
        } else if (depth_ == 3 && in_props_ && top_ == Top::DeviceProperties) {
            if (prop_key_ == 1)
                prop_.set(s);
            else if (prop_key_ == 2 && s.type == Scalar::String) {
                prop_name_.assign(s.text);
                prop_has_name_ = true;
            }
        }
        afterValue();
        return !stream_.stop();
    }

    void eventScalar(const Scalar &s)
    {
        switch (field_) {
        case EventField::Name:
            has_name_ = s.type == Scalar::String;
            if (has_name_)
                name_.assign(s.text);
            break;
        case EventField::Cat:
            cat_ = s.type == Scalar::String ? catOf(s.text) : Cat::Other;
            break;
        case EventField::Ph:
            ph_x_ = s.type == Scalar::String && s.text == "X";
            break;
        case EventField::Ts:
            ts_ = s;
            ts_.text = {};
            break;
        case EventField::Dur:
            dur_ = s;
            dur_.text = {};
            break;
        case EventField::Pid:
            pid_.set(s);
            break;
        case EventField::Tid:
            tid_ = s;
            if (s.type == Scalar::String)
                tid_text_.assign(s.text);
            tid_.text = {};
            break;
        case EventField::Args:
            resetArgs();
            break; // "args" that is not an object
        case EventField::None:
            break;
        }
    }

    void argScalar(const Scalar &s)
    {
        switch (arg_) {
        case ArgField::Device:
            device_.set(s);
            has_device_ = true;
            break;
        case ArgField::Correlation:
            // Kineto's correlation ids are integers; another value links nothing.
            correlation_ = s.isNumber() && s.integral && s.integer != kNoCorrelation
                               ? s.integer
                               : kNoCorrelation;
            break;
        case ArgField::Stream:
            has_stream_ = s.isNumber() && s.integral;
            stream_number_ = s.integer;
            break;
        case ArgField::CollectiveName:
            if (s.type == Scalar::String)
                collective_.assign(s.text);
            break;
        case ArgField::InElements:
            in_elements_ = s.isNumber() ? s.number : 0;
            break;
        case ArgField::OutElements:
            out_elements_ = s.isNumber() ? s.number : 0;
            break;
        case ArgField::GroupSize:
            group_size_ = s.isNumber() && s.integral ? s.integer : 0;
            break;
        case ArgField::Dtype:
            if (s.type == Scalar::String)
                dtype_.assign(s.text);
            break;
        case ArgField::WaitOnStream:
            wait_on_stream_ = s.isNumber() && s.integral ? s.integer : -1;
            break;
        case ArgField::WaitOnRecordCorrelation:
            wait_on_record_ =
                s.isNumber() && s.integral && s.integer >= 0 ? s.integer : kNoCorrelation;
            break;
        default:
            break;
        }
    }

    void resetArgs()
    {
        device_ = DeviceKey{};
        has_device_ = false;
        has_stream_ = false;
        correlation_ = kNoCorrelation;
        wait_on_stream_ = -1;
        wait_on_record_ = kNoCorrelation;
        collective_.clear();
        dtype_.clear();
        in_elements_ = out_elements_ = 0;
        group_size_ = 0;
        dims_.clear();
        types_.clear();
    }

    void beginEvent()
    {
        in_event_ = true;
        has_name_ = false;
        cat_ = Cat::Other;
        ph_x_ = false;
        ts_ = dur_ = tid_ = Scalar{};
        pid_ = DeviceKey{};
        resetArgs();
    }

    int32_t thread()
    {
        if (tid_.type == Scalar::Number && tid_.integral)
            return thread_numbers_
                .try_emplace(tid_.integer,
                             static_cast<int32_t>(thread_numbers_.size() + thread_texts_.size()))
                .first->second;
        const std::string key = tid_.type == Scalar::String ? tid_text_ : std::string();
        return thread_texts_
            .try_emplace(key, static_cast<int32_t>(thread_numbers_.size() + thread_texts_.size()))
            .first->second;
    }

    uint16_t deviceIndex(const DeviceKey &key)
    {
        for (size_t i = 0; i < devices.size(); ++i) {
            if (devices[i] == key)
                return static_cast<uint16_t>(i);
        }
        if (devices.size() >= 65535) // a pathological file: fold the rest into the last one
            return static_cast<uint16_t>(devices.size() - 1);
        devices.push_back(key);
        return static_cast<uint16_t>(devices.size() - 1);
    }

    void endEvent()
    {
        in_event_ = false;
        ++events;
        switch (cat_) {
        case Cat::Kernel:
        case Cat::Memcpy:
        case Cat::Memset:
            addActivity();
            break;
        case Cat::CudaRuntime:
        case Cat::CudaDriver:
            addLaunch();
            break;
        case Cat::CudaSync:
            addSync();
            break;
        case Cat::UserAnnotation:
        case Cat::CpuOp:
            addAnnotation();
            break;
        case Cat::Other:
            break;
        }
    }

    void addActivity()
    {
        // spec/cli.md "trace": an activity without a numeric ts is no activity; a dur that
        // is missing, not a number or negative is length 0.
        if (!ts_.isNumber())
            return;
        TraceActivity a;
        a.start_us = ts_.number;
        a.end_us = ts_.number + (dur_.isNumber() && dur_.number >= 0 ? dur_.number : 0.0);
        a.correlation = correlation_;
        a.stream =
            static_cast<int32_t>(has_stream_                                    ? stream_number_
                                 : tid_.type == Scalar::Number && tid_.integral ? tid_.integer
                                                                                : 0);
        a.kernel = cat_ == Cat::Kernel;
        if (a.kernel) {
            const KernelClass k =
                has_name_ ? classifyKernel(name_.data(), name_.size()) : KernelClass{};
            a.cls = k.cls;
            a.kind = k.kind;
        } else {
            a.cls = ActivityClass::Copy;
        }
        // spec/cli.md "trace": the device is args.device, else pid.
        activity_device.push_back(deviceIndex(has_device_ ? device_ : pid_));
        if (a.cls == ActivityClass::Communication && !collective_.empty()) {
            TraceCollectiveRecord c;
            c.activity = static_cast<uint32_t>(activities.size());
            c.collective = collective_;
            c.in_elements = in_elements_;
            c.out_elements = out_elements_;
            c.group_size = static_cast<int>(std::clamp<int64_t>(group_size_, 0, 1 << 24));
            c.element_bytes = dtypeBytes(dtype_);
            collectives.push_back(std::move(c));
        }
        activities.push_back(a);
    }

    void addLaunch()
    {
        if (correlation_ != kNoCorrelation && ts_.isNumber()) {
            TraceLaunch l;
            l.correlation = correlation_;
            l.start_us = ts_.number;
            l.thread = thread();
            l.dur_us = dur_.isNumber() && dur_.number >= 0 ? static_cast<float>(dur_.number) : 0;
            l.wait = has_name_ ? hostWaitOf(name_.data(), name_.size()) : HostWait::None;
            launches.push_back(l);
        }
        // The host's time to issue one kernel launch (profile.md host_launch_us).
        if (has_name_ && dur_.isNumber() && dur_.number >= 0 &&
            (name_ == "cudaLaunchKernel" || name_ == "cudaLaunchKernelExC" ||
             name_ == "cuLaunchKernel" || name_ == "cuLaunchKernelEx"))
            launch_host_us.push_back(static_cast<float>(dur_.number));
    }

    // A `cuda_sync` event (measured_trace.h TraceSync): its kind by name, on the device of
    // args.device, else pid, as activities are.
    void addSync()
    {
        if (!ts_.isNumber() || !has_name_)
            return;
        TraceSync w;
        if (name_ == "Stream Wait Event")
            w.kind = SyncKind::StreamWaitEvent;
        else if (name_ == "Event Sync")
            w.kind = SyncKind::EventSync;
        else if (name_ == "Stream Sync")
            w.kind = SyncKind::StreamSync;
        else if (name_ == "Context Sync")
            w.kind = SyncKind::ContextSync;
        else
            return;
        w.ts_us = ts_.number;
        w.correlation = correlation_;
        w.record_correlation = wait_on_record_;
        w.stream =
            static_cast<int32_t>(has_stream_                                    ? stream_number_
                                 : tid_.type == Scalar::Number && tid_.integral ? tid_.integer
                                                                                : -1);
        w.producer_stream = static_cast<int32_t>(wait_on_stream_);
        sync_device.push_back(deviceIndex(has_device_ ? device_ : pid_));
        syncs.push_back(w);
    }

    void addAnnotation()
    {
        if (!ph_x_ || !has_name_ || !ts_.isNumber() || !dur_.isNumber())
            return;
        int64_t n = 0;
        if (stepNumber(name_, &n)) {
            steps.push_back({n, ts_.number, ts_.number + dur_.number});
            return;
        }
        if (cat_ == Cat::CpuOp)
            addGemm();
    }

    // aten::mm [[M,K],[K,N]], aten::addmm [bias, [M,K], [K,N]], aten::bmm [[B,M,K],[B,K,N]],
    // aten::baddbmm [bias, [B,M,K], [B,K,N]] (PyTorch's native_functions.yaml signatures).
    void addGemm()
    {
        size_t first = 0;
        bool batched = false;
        if (name_ == "aten::mm")
            first = 0;
        else if (name_ == "aten::addmm")
            first = 1;
        else if (name_ == "aten::bmm")
            first = 0, batched = true;
        else if (name_ == "aten::baddbmm")
            first = 1, batched = true;
        else
            return;
        const size_t rank_of = batched ? 3 : 2;
        if (dims_.size() < first + 2 || types_.size() < first + 1)
            return;
        const std::vector<double> &a = dims_[first];
        const std::vector<double> &b = dims_[first + 1];
        if (a.size() != rank_of || b.size() != rank_of)
            return;
        const char *precision = gemmPrecision(types_[first]);
        if (!precision)
            return;
        TraceGemmRecord g;
        g.start_us = ts_.number;
        g.end_us = ts_.number + dur_.number;
        g.thread = thread();
        g.m = batched ? a[0] * a[1] : a[0];
        g.k = a[rank_of - 1];
        g.n = b[rank_of - 1];
        if (!(g.m > 0 && g.n > 0 && g.k > 0) || b[rank_of - 2] != g.k)
            return;
        g.precision = precision;
        gemms.push_back(std::move(g));
    }
};

InputError fileError(const QString &name, const std::string &what)
{
    return InputError{std::string(), displayFileName(name).toStdString() + ": " + what};
}

Result<KinetoTrace> parse(ByteSource &source, const QString &name, const TraceReadOptions &options)
{
    TextSource text(source);
    JsonStream stream(text, options, source.size());
    Handler handler(stream);
    rapidjson::Reader reader;
    // NaN and Infinity are accepted as Python's json module accepts them (they are then not
    // numbers for the spec's tests); strings must be valid UTF-8, as a decoder requires.
    constexpr unsigned kFlags = rapidjson::kParseNanAndInfFlag |
                                rapidjson::kParseValidateEncodingFlag |
                                rapidjson::kParseIterativeFlag;
    const rapidjson::ParseResult ok = reader.Parse<kFlags>(stream, handler);
    if (stream.cancelled())
        return InputError{kTraceCancelled, displayFileName(name).toStdString() + ": cancelled"};
    if (stream.failed())
        return fileError(name, text.error());
    if (!ok) {
        if (!stream.sawText())
            return fileError(name, "empty file, not a trace (no traceEvents)");
        std::string why = rapidjson::GetParseError_En(ok.Code());
        if (!why.empty() && why.back() == '.')
            why.pop_back();
        return fileError(name, "not JSON (" + why + " at byte " + std::to_string(ok.Offset()) +
                                   " of the text), not a trace");
    }
    if (!handler.root_object || !handler.events_array)
        return fileError(name, "no traceEvents array at the top level, not a Kineto trace");

    KinetoTrace t;
    t.path = displayFileName(name).toStdString();
    t.rank = handler.rank;
    t.world_size = handler.world_size;
    t.nccl_version = handler.nccl_version;
    t.events = handler.events;

    // spec/cli.md "trace": the rank's device is the one that ran most kernels (ties: the
    // lowest id; numbers before other ids).
    std::vector<size_t> per_device(handler.devices.size(), 0);
    size_t all_kernels = 0;
    for (size_t i = 0; i < handler.activities.size(); ++i) {
        if (handler.activities[i].kernel) {
            ++per_device[handler.activity_device[i]];
            ++all_kernels;
        }
    }
    if (all_kernels == 0)
        return fileError(name, "no GPU kernels (no \"cat\": \"kernel\" events), not a profiler "
                               "trace with GPU activity");
    size_t best = 0;
    auto before = [&](size_t a, size_t b) { // a ranks before b
        if (per_device[a] != per_device[b])
            return per_device[a] > per_device[b];
        const DeviceKey &x = handler.devices[a], &y = handler.devices[b];
        const bool xn = x.type == DeviceKey::Number, yn = y.type == DeviceKey::Number;
        if (xn != yn)
            return xn;
        if (xn)
            return x.number < y.number;
        return x.display() < y.display();
    };
    for (size_t d = 1; d < per_device.size(); ++d) {
        if (before(d, best))
            best = d;
    }
    const DeviceKey &device = handler.devices[best];
    t.device = device.display();
    t.kernels = per_device[best];
    t.kernels_other_devices = all_kernels - per_device[best];

    // Activities of the rank's device only, in file order, compacted in place (no second
    // copy of the largest array); the collective records follow their activity.
    std::vector<TraceActivity> &acts = handler.activities;
    size_t kept = 0;
    size_t next_collective = 0;
    for (size_t i = 0; i < acts.size(); ++i) {
        const bool ours = handler.activity_device[i] == best;
        // Collective records are in activity order: renumber or drop those of activity i.
        while (next_collective < handler.collectives.size() &&
               handler.collectives[next_collective].activity == i) {
            TraceCollectiveRecord &c = handler.collectives[next_collective++];
            if (ours) {
                c.activity = static_cast<uint32_t>(kept);
                t.collectives.push_back(std::move(c));
            }
        }
        if (ours)
            acts[kept++] = acts[i];
    }
    acts.resize(kept);
    acts.shrink_to_fit();
    std::vector<uint16_t>().swap(handler.activity_device);
    t.activities = std::move(acts);
    for (size_t i = 0; i < handler.syncs.size(); ++i) {
        if (handler.sync_device[i] == best)
            t.syncs.push_back(handler.syncs[i]);
    }

    // One launch per correlation: the last in the file, as a map filled in file order keeps.
    std::stable_sort(
        handler.launches.begin(), handler.launches.end(),
        [](const TraceLaunch &a, const TraceLaunch &b) { return a.correlation < b.correlation; });
    std::vector<TraceLaunch> &launches = handler.launches;
    size_t out = 0;
    for (size_t i = 0; i < launches.size(); ++i) {
        if (i + 1 < launches.size() && launches[i + 1].correlation == launches[i].correlation)
            continue;
        launches[out++] = launches[i];
    }
    launches.resize(out);
    launches.shrink_to_fit();
    t.launches = std::move(launches);
    t.steps = std::move(handler.steps);
    t.gemms = std::move(handler.gemms);
    t.launch_host_us = std::move(handler.launch_host_us);

    // deviceProperties: the entry whose id is the rank's device (the last, should several be).
    for (const auto &[id, gpu] : handler.device_names) {
        const bool same = id == device ||
                          (id.type == DeviceKey::String && device.type == DeviceKey::Number &&
                           id.text == device.display()) ||
                          (id.type == DeviceKey::Number && device.type == DeviceKey::String &&
                           id.display() == device.text);
        if (same) {
            t.has_gpu_name = true;
            t.gpu_name = gpu;
        }
    }
    return t;
}

} // namespace

Result<KinetoTrace> readKinetoTrace(const QString &path, const TraceReadOptions &options)
{
    const QByteArray native = encodeFileName(path);
    const int fd = ::open(native.constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return fileError(path, std::string("cannot read: ") + std::strerror(errno));
    struct stat st {
    };
    if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        ::close(fd);
        return fileError(path, "cannot read: it is a folder, not a trace file");
    }
    FileSource source(fd, S_ISREG(st.st_mode) ? static_cast<int64_t>(st.st_size) : 0);
    return parse(source, path, options);
}

Result<KinetoTrace> parseKinetoTrace(const QByteArray &bytes, const QString &name,
                                     const TraceReadOptions &options)
{
    MemorySource source(bytes);
    return parse(source, name, options);
}

} // namespace scalescope
