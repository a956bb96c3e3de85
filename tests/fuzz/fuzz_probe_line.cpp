// libFuzzer target: the --progress lines gpuprobe writes and the desktop app reads back
// (parseProbeLine, app/gui/probe_runner). Every line of the input is parsed; a progress
// line must satisfy 0 <= done <= total.
#include "fuzz_util.h"

#include "probe_runner.h"

using namespace scalescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(fuzz::bytes(data, size));
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        const ProbeLine p = parseProbeLine(line);
        if (p.kind == ProbeLine::Progress && (p.done < 0 || p.total < 0 || p.done > p.total))
            fuzz::finding("a progress line with done/total out of range", line.toStdString());
        if (p.kind != ProbeLine::Other && p.test.isEmpty())
            fuzz::finding("a progress/skipped/error line without a test", line.toStdString());
    }
    return 0;
}
