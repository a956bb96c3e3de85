// The "x-" keys of a scenario file (spec/scenario.md: ignored by the model, kept by a save) and
// hardware.calibration as the file wrote it. Internal to model/io (scenario_io.cpp).
#pragma once

#include "plan/scenario.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <string>
#include <utility>
#include <vector>

namespace scalescope
{

/// The x- keys of `json` (already parsed as `root`) and the calibration path as written, as
/// Scenario::extensions entries.
std::vector<std::pair<std::string, std::string>>
readExtensions(const QByteArray &json, const QJsonObject &root, const Scenario &scenario);

/// Adds the x- keys of `extensions` to `text` (what OrderedObject wrote: four spaces per
/// level), each in its object, in the order of `extensions`.
QByteArray addExtensions(QByteArray text,
                         const std::vector<std::pair<std::string, std::string>> &extensions);

/// hardware.calibration as written to a file in `targetDir` (scenario_io.h, writeScenario).
QString calibrationText(const Scenario &scenario, const QString &targetDir);

} // namespace scalescope
