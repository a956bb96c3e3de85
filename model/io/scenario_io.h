// Scenario files (spec/scenario.md): parsing with key-path errors, and writing.
#pragma once

#include "io/catalog.h"
#include "plan/error.h"
#include "plan/rules.h"
#include "plan/scenario.h"

#include <QByteArray>
#include <QJsonArray>
#include <QString>

namespace scalescope
{

/// Largest scenario file accepted (bytes).
inline constexpr qint64 kMaxScenarioFileBytes = 16 * 1024 * 1024;

/// Parses a scenario document. `baseDir` resolves a relative `hardware.calibration` path.
/// Checks types and ranges, then the rules across keys (plan/rules.h: degrees multiply to the
/// GPU count, batch divisibility, ...); every error names the key path, the value and what
/// is allowed.
Result<Scenario> parseScenario(const QByteArray &json, const Catalog &catalog,
                               const QString &baseDir = QString());

/// A scenario as written and the rules across keys it breaks.
struct ScenarioDraft {
    Scenario scenario;
    std::vector<RuleFinding> findings; // plan/rules.h checkRules (errors and warnings)
};

/// Parses a scenario document as parseScenario does, but a rule across keys refuses
/// nothing: the findings come back with the scenario. For work in progress that the window
/// holds and autosaves while a rule is broken (it shows each finding beside its control);
/// files, the CLI and every evaluation use parseScenario.
Result<ScenarioDraft> parseScenarioDraft(const QByteArray &json, const Catalog &catalog,
                                         const QString &baseDir = QString());

/// Reads and parses a scenario file (size-limited).
Result<Scenario> loadScenarioFile(const QString &path, const Catalog &catalog);

/// Serialises a scenario to the spec format (catalog ids where the spec came from the
/// catalog, inline objects otherwise). parseScenario(writeScenario(s)) == s.
/// "x-" keys read from a file are written back in their object, in file order (an x- key of
/// an object the scenario no longer has, such as a thermal block turned off, is dropped).
/// `targetDir` is the folder of the file the text is written to: hardware.calibration is
/// then written as the file had it (a relative path relative to `targetDir`, rewritten when
/// the file moves to another folder; an absolute one as it was); a profile chosen without
/// a written path is relative when it lies inside `targetDir`. Without `targetDir` (text
/// that may be stored anywhere: autosave, comparisons) the path is absolute.
QByteArray writeScenario(const Scenario &scenario, const QString &targetDir = QString());

/// training.recompute_modules as the file writes it: the names in kRecomputeModules order.
QJsonArray recomputeModulesJson(unsigned set);

/// Writes atomically (writeFileSafely, io/file_io.h), with writeScenario(scenario, folder of
/// `path`). Returns
/// false and sets `error` on failure.
bool saveScenarioFile(const QString &path, const Scenario &scenario, QString *error);

} // namespace scalescope
