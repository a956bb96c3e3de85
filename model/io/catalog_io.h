// Loading of the catalogs: resources/catalogs, installed as share/scalescope/catalogs and
// also compiled in as Qt resources (":/catalogs/").
#pragma once

#include "io/catalog.h"
#include "plan/error.h"

#include <QByteArray>
#include <QJsonArray>
#include <QString>

#include <optional>
#include <string_view>

namespace scalescope
{

/// Parses one catalog document (gpus.json, links.json, models.json or cnn_models.json
/// layout) and appends its entries to `catalog`. `file` names the document in errors.
Result<bool> parseCatalogInto(Catalog &catalog, const QByteArray &json, const QString &file);

/// One section of `catalog` ("gpus", "intra_node", "inter_node", "models", "frameworks") as
/// `scalescope-cli catalog --json` lists it: each entry as a catalog document holds it, its
/// "id" and every key the loader reads (the inline writers' Keys::Every, io/spec_json.h), so
/// the listing loads back as the same catalog and an entry pasted inline into a scenario, id
/// aside, is the same hardware or model as its id. Empty for another section name.
QJsonArray catalogListing(const Catalog &catalog, std::string_view section);

/// Loads the four catalog documents (gpus.json, links.json, models.json, cnn_models.json)
/// of `dir`, a real folder or a Qt resource folder such as ":/catalogs". Every document is
/// required; errors name the file by its full path ("/usr/share/scalescope/catalogs/
/// gpus.json: gpus[3].memory_gb: ...").
Result<Catalog> loadCatalogFolder(const QString &dir);

/// Where the program's catalog comes from: dataDirectory() + "/catalogs" when there is a
/// data folder (installed, or the source's resources/ from the build tree), which then
/// replaces the compiled-in copy; ":/catalogs" otherwise.
QString builtinCatalogFolder();

/// loadCatalogFolder(builtinCatalogFolder()).
Result<Catalog> loadBuiltinCatalog();

/// Loads the catalog once (thread-safe) and returns its error, if any: lets a program
/// report a damaged installed catalog its own way before anything calls builtinCatalog().
std::optional<InputError> builtinCatalogError();

/// The program's catalog, loaded once (thread-safe). A catalog that cannot be loaded (a
/// damaged or missing installed file) is reported on stderr, naming the file, and the
/// program exits with status 1: it never runs on a partial catalog.
const Catalog &builtinCatalog();

} // namespace scalescope
