// libFuzzer target: nccl-tests output logs (gpuprobe/nccl_tests_log). A parse error is
// expected; an accepted log becomes a profile that must write and parse as a valid profile.
#include "fuzz_util.h"

#include "io/profile_io.h"
#include "nccl_tests_log.h"

using namespace scalescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string file = "all_reduce_perf.log";
    const Result<gpuprobe::NcclTestsLog> log =
        gpuprobe::parseNcclTestsLog(fuzz::bytes(data, size), file);
    if (!log) {
        (void)log.error().toString();
        return 0;
    }
    const CalibrationProfile profile =
        gpuprobe::profileFromNcclTests({log.value()}, {file}, "nccl-tests");
    const QByteArray written = writeProfile(profile);
    const Result<CalibrationProfile> again = parseProfile(written);
    if (!again)
        fuzz::finding("the profile made from an nccl-tests log does not parse",
                      again.error().toString() + "\n" + written.toStdString());
    return 0;
}
