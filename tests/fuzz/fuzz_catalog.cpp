// libFuzzer target: catalog documents (model/io/catalog_io: gpus.json, links.json,
// models.json, cnn_models.json layouts). A parse error is expected; entries appended to a
// catalog that already holds the built-in ones must keep it consistent.
#include "fuzz_util.h"

#include "io/catalog_io.h"

using namespace scalescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const Catalog &builtin = builtinCatalog();
    Catalog empty;
    const QByteArray json = fuzz::bytes(data, size);
    const Result<bool> first = parseCatalogInto(empty, json, QStringLiteral("fuzz.json"));
    if (!first)
        (void)first.error().toString();
    Catalog merged = builtin;
    const Result<bool> second = parseCatalogInto(merged, json, QStringLiteral("fuzz.json"));
    if (!second)
        (void)second.error().toString();
    return 0;
}
