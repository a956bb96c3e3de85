// libFuzzer target: gallery entries (model/io/gallery_io): a scenario document with an
// "x-gallery" object. A parse error is expected.
#include "fuzz_util.h"

#include "io/gallery_io.h"

using namespace scalescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const Result<GalleryEntry> entry = parseGalleryEntry(fuzz::bytes(data, size), fuzz::workDir());
    if (!entry) {
        (void)entry.error().toString();
        return 0;
    }
    (void)entry.value().title(QStringLiteral("zh_CN"));
    (void)entry.value().explanation(QStringLiteral("en"));
    return 0;
}
