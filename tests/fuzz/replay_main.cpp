// Regression replay of a fuzz target without libFuzzer (tests/fuzz_replay): feeds every file
// of the given folders to LLVMFuzzerTestOneInput. A folder that is missing or empty is a
// failure (the corpus or the regressions were lost). A crash or a sanitizer report ends the
// process as it would under libFuzzer, so CTest reports the test as failed.
//
//   replay_<target> DIR...
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s DIR...\n", argv[0]);
        return 2;
    }
    int total = 0;
    for (int a = 1; a < argc; ++a) {
        const QDir dir(QString::fromLocal8Bit(argv[a]));
        const QFileInfoList files = dir.entryInfoList(QDir::Files, QDir::Name);
        if (!dir.exists() || files.isEmpty()) {
            std::fprintf(stderr, "FAIL: %s is missing or holds no input files\n", argv[a]);
            return 1;
        }
        for (const QFileInfo &info : files) {
            QFile file(info.absoluteFilePath());
            if (!file.open(QIODevice::ReadOnly)) {
                std::fprintf(stderr, "FAIL: cannot read %s\n", qPrintable(info.filePath()));
                return 1;
            }
            const QByteArray data = file.readAll();
            std::fprintf(stderr, "replay %s (%lld bytes)\n", qPrintable(info.filePath()),
                         static_cast<long long>(data.size()));
            LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.constData()),
                                   static_cast<size_t>(data.size()));
            ++total;
        }
    }
    std::printf("PASS: %d inputs replayed\n", total);
    return 0;
}
