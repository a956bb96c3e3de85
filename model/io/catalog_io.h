// Loading of the built-in catalogs (resources/catalogs, compiled in as Qt resources).
#pragma once

#include "hardware/catalog.h"
#include "plan/error.h"

#include <QByteArray>
#include <QString>

namespace scalescope
{

/// Parses one catalog document (gpus.json, links.json, models.json or cnn_models.json
/// layout) and appends its entries to `catalog`. `file` names the document in errors.
Result<bool> parseCatalogInto(Catalog &catalog, const QByteArray &json, const QString &file);

/// Loads every built-in catalog from the ":/catalogs/" resources.
Result<Catalog> loadBuiltinCatalog();

/// The built-in catalog, loaded once (thread-safe). Aborts with a message if the built-in
/// resources are broken (a build defect, not user input).
const Catalog &builtinCatalog();

} // namespace scalescope
