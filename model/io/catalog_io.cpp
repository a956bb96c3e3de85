#include "io/catalog_io.h"

#include "io/json_util.h"
#include "io/spec_json.h"

#include <QFile>

#include <cstdio>
#include <cstdlib>

namespace scalescope
{

namespace
{

constexpr int kCatalogVersion = 1;

/// Reads the array `key` of entries with `read` and appends them to `entries`; ids must be
/// unique in the whole catalog (`entries` already holds what earlier documents gave).
template <typename Spec, typename Read>
void readEntries(const json::ObjectReader &document, std::string_view key,
                 std::vector<Spec> &entries, Read read)
{
    const std::string path = document.pathOf(key);
    const QJsonArray array = document.optionalArray(key);
    for (qsizetype i = 0; i < array.size(); ++i) {
        const std::string entryPath = json::indexPath(path, i);
        Spec spec = read(json::ObjectReader(json::readObject(array[i], entryPath), entryPath),
                         json::Origin::Catalog);
        for (const Spec &other : entries) {
            if (other.id == spec.id)
                json::fail(json::childPath(entryPath, "id"),
                           "duplicate id \"" + spec.id + "\"; ids must be unique in the catalog");
        }
        entries.push_back(std::move(spec));
    }
}

} // namespace

Result<bool> parseCatalogInto(Catalog &catalog, const QByteArray &json, const QString &file)
{
    // Parse into a copy so that a failing document leaves `catalog` as it was.
    Catalog updated = catalog;
    Result<bool> result = json::guard<bool>([&] {
        const json::ObjectReader document(json::parseObjectDocument(json), "");
        document.allowKeys({"scalescope_catalog", "gpus", "intra_node", "inter_node", "models"});
        document.requireVersion("scalescope_catalog", kCatalogVersion);
        readEntries(document, "gpus", updated.gpus, json::readGpu);
        readEntries(document, "intra_node", updated.intra_links, json::readIntraLink);
        readEntries(document, "inter_node", updated.inter_links, json::readInterLink);
        readEntries(document, "models", updated.models, json::readModel);
        return true;
    });
    if (!result.ok()) {
        // Errors name the document: "gpus.json: gpus[3].memory_gb".
        InputError error = result.error();
        const std::string name = file.toStdString();
        error.path = error.path.empty() ? name : name + ": " + error.path;
        return error;
    }
    catalog = std::move(updated);
    return true;
}

Result<Catalog> loadBuiltinCatalog()
{
    Catalog catalog;
    for (const char *name : {"gpus.json", "links.json", "models.json", "cnn_models.json"}) {
        const QString path = QStringLiteral(":/catalogs/") + QString::fromUtf8(name);
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return InputError{path.toStdString(), "cannot read the built-in catalog: " +
                                                      file.errorString().toStdString()};
        Result<bool> parsed = parseCatalogInto(catalog, file.readAll(), path);
        if (!parsed.ok())
            return parsed.error();
    }
    return catalog;
}

const Catalog &builtinCatalog()
{
    static const Catalog catalog = [] {
        Result<Catalog> loaded = loadBuiltinCatalog();
        if (!loaded.ok()) {
            std::fprintf(stderr, "scalescope: the built-in catalog is broken: %s\n",
                         loaded.error().toString().c_str());
            std::abort();
        }
        return std::move(loaded).value();
    }();
    return catalog;
}

} // namespace scalescope
