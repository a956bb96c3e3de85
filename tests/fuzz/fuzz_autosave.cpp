// libFuzzer target: autosave files read back at start-up (app/gui/autosave). The input is
// left behind as the autosave of a dead instance; AutosaveStore::orphans() reads it (a
// damaged one is reported, not loaded) and, as the app does, the recovered document is
// opened with AutosaveStore::openScenario (the scenario parser, and the rebuilding of work
// it refuses for a rule across keys).
#include "fuzz_util.h"

#include "autosave.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QJsonDocument>
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
        const RecoveredScenario opened = AutosaveStore::openScenario(work, catalog);
        if (!opened.scenario && !opened.refused())
            fuzz::finding("a scenario that cannot be opened without a reason");
        // Work opened with a rule error is what the window holds: saved (its autosave is
        // the window's canonical document, not the fuzzer's input) and opened again, it is
        // the same scenario with the same rule error, and writing it again gives the same
        // bytes. The input itself need not be canonical (keys left at their defaults are
        // written out), so it is not compared with the first write.
        if (opened.scenario && opened.refused()) {
            const QByteArray written = writeScenario(*opened.scenario);
            RecoveredWork again = work;
            again.scenario_json = written;
            const RecoveredScenario reopened = AutosaveStore::openScenario(again, catalog);
            if (!reopened.scenario)
                fuzz::finding("rebuilt work cannot be opened again",
                              reopened.refusal.message);
            if (!(*reopened.scenario == *opened.scenario))
                fuzz::finding("rebuilt work opens as another scenario");
            if (reopened.refusal.message != opened.refusal.message)
                fuzz::finding("rebuilt work opens with another rule error",
                              reopened.refusal.message);
            if (writeScenario(*reopened.scenario) != written)
                fuzz::finding("rebuilt work writes another document");
        }
    }
    return 0;
}
