#include "io/catalog_io.h"

#include "io/data_dir.h"
#include "io/file_io.h"
#include "io/json_util.h"
#include "io/spec_json.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

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
        document.allowKeys(
            {"scalescope_catalog", "gpus", "intra_node", "inter_node", "models", "frameworks"});
        document.requireVersion("scalescope_catalog", kCatalogVersion);
        readEntries(document, "gpus", updated.gpus, json::readGpu);
        readEntries(document, "intra_node", updated.intra_links, json::readIntraLink);
        readEntries(document, "inter_node", updated.inter_links, json::readInterLink);
        readEntries(document, "models", updated.models, json::readModel);
        readEntries(document, "frameworks", updated.frameworks, json::readFramework);
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

namespace
{
template <typename Spec, typename Write>
QJsonArray listEntries(const std::vector<Spec> &entries, Write write)
{
    QJsonArray out;
    for (const Spec &entry : entries) {
        QJsonObject o = QJsonDocument::fromJson(write(entry).toJson()).object();
        o.insert(QStringLiteral("id"), QString::fromStdString(entry.id));
        out.append(o);
    }
    return out;
}
} // namespace

QJsonArray catalogListing(const Catalog &catalog, std::string_view section)
{
    constexpr json::Keys every = json::Keys::Every;
    if (section == "gpus")
        return listEntries(catalog.gpus, [](const GpuSpec &g) { return json::writeGpu(g, every); });
    if (section == "intra_node")
        return listEntries(catalog.intra_links,
                           [](const IntraLinkSpec &l) { return json::writeIntraLink(l, every); });
    if (section == "inter_node")
        return listEntries(catalog.inter_links,
                           [](const InterLinkSpec &l) { return json::writeInterLink(l, every); });
    if (section == "models")
        return listEntries(catalog.models,
                           [](const ModelSpec &m) { return json::writeModel(m, every); });
    if (section == "frameworks")
        return listEntries(catalog.frameworks, json::writeFramework);
    return {};
}

namespace
{
constexpr const char *kCatalogFiles[] = {"gpus.json", "links.json", "models.json",
                                         "cnn_models.json", "frameworks.json"};
} // namespace

Result<Catalog> loadCatalogFolder(const QString &dir)
{
    // A catalog document is a few hundred kilobytes; anything near this is not a catalog.
    constexpr qint64 kMaxCatalogFileBytes = 64 * 1024 * 1024;
    const bool resource = dir.startsWith(QLatin1Char(':'));
    Catalog catalog;
    for (const char *name : kCatalogFiles) {
        const QString path =
            resource ? dir + QLatin1Char('/') + QString::fromUtf8(name)
                     : QDir::cleanPath(QDir(dir).absoluteFilePath(QString::fromUtf8(name)));
        QByteArray data;
        if (resource) {
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                return InputError{path.toStdString(), "cannot read the built-in catalog: " +
                                                          file.errorString().toStdString()};
            data = file.readAll();
        } else {
            if (!QFileInfo::exists(path))
                return InputError{path.toStdString(),
                                  "missing: the installed data is incomplete (reinstall "
                                  "ScaleScope)"};
            Result<QByteArray> read = readFileLimited(path, kMaxCatalogFileBytes, "catalog");
            if (!read)
                return read.error(); // names the file
            data = std::move(read).value();
        }
        Result<bool> parsed = parseCatalogInto(catalog, data, path);
        if (!parsed.ok())
            return parsed.error();
    }
    return catalog;
}

QString builtinCatalogFolder()
{
    const QString data = dataDirectory();
    return data.isEmpty() ? QStringLiteral(":/catalogs") : data + QStringLiteral("/catalogs");
}

Result<Catalog> loadBuiltinCatalog()
{
    return loadCatalogFolder(builtinCatalogFolder());
}

namespace
{
const Result<Catalog> &cachedCatalog()
{
    static const Result<Catalog> catalog = loadBuiltinCatalog();
    return catalog;
}
} // namespace

std::optional<InputError> builtinCatalogError()
{
    const Result<Catalog> &catalog = cachedCatalog();
    if (catalog)
        return std::nullopt;
    return catalog.error();
}

const Catalog &builtinCatalog()
{
    const Result<Catalog> &catalog = cachedCatalog();
    if (!catalog) {
        // A damaged installed file is not the user's input: say which file, and stop.
        const QString program = QCoreApplication::instance() != nullptr
                                    ? QFileInfo(QCoreApplication::applicationFilePath()).fileName()
                                    : QStringLiteral("scalescope");
        std::fprintf(stderr, "%s: the catalog cannot be loaded: %s\n", qPrintable(program),
                     catalog.error().toString().c_str());
        std::exit(1);
    }
    return catalog.value();
}

} // namespace scalescope
