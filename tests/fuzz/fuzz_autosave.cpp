// libFuzzer target: autosave files read back at start-up (app/gui/autosave). The input is
// left behind as the autosave of a dead instance; AutosaveStore::orphans() reads it (a
// damaged one is reported, not loaded) and, as the app does, the recovered document is
// opened with the scenario parser.
#include "fuzz_util.h"

#include "autosave.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QSaveFile>

using namespace scalescope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const Catalog &catalog = builtinCatalog();
    static const QString dir = fuzz::workDir() + QStringLiteral("/autosave");
    static AutosaveStore store(dir); // owns slot 0; the input plays the dead slot 1
    const QString orphan = dir + QStringLiteral("/autosave-1.json");
    {
        QFile file(orphan);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            file.write(reinterpret_cast<const char *>(data), qint64(size)) != qint64(size))
            fuzz::finding("cannot write the autosave file");
    }
    const std::vector<RecoveredWork> found = store.orphans();
    if (found.size() != 1)
        fuzz::finding("the autosave left behind is not found", std::to_string(found.size()));
    const RecoveredWork &work = found.front();
    if (work.error.isEmpty()) {
        const Result<Scenario> s = parseScenario(work.scenario_json, catalog, fuzz::workDir());
        if (!s)
            (void)s.error().toString();
    }
    return 0;
}
