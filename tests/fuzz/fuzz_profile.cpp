// libFuzzer target: calibration profiles (model/io/profile_io, spec/profile.md).
// A parse error is expected; an accepted profile must write back to a document that parses
// and writes the same text again (profile_io.h: parseProfile(writeProfile(p)) gives p back).
#include "fuzz_util.h"

#include "io/profile_io.h"

using namespace scalescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Result<CalibrationProfile> parsed = parseProfile(fuzz::bytes(data, size));
    if (!parsed) {
        (void)parsed.error().toString();
        return 0;
    }
    const QByteArray written = writeProfile(parsed.value());
    const Result<CalibrationProfile> again = parseProfile(written);
    if (!again)
        fuzz::finding("a written profile does not parse",
                      again.error().toString() + "\n" + written.toStdString());
    const QByteArray rewritten = writeProfile(again.value());
    if (rewritten != written)
        fuzz::finding("a profile changes when written and read back",
                      written.toStdString() + "\n---\n" + rewritten.toStdString());
    return 0;
}
