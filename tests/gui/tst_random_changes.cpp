// 10,000 random control changes on the whole main window (hardening issue): the controls are
// found by objectName and changed through their own API (setValue, setCurrentIndex, click,
// the Undo and Redo actions) from inside the running event loop, in bursts of 1 to 10 per
// turn of the loop, as a user's input would arrive. Checked: the event loop keeps turning (the
// longest gap between 5 ms timer ticks is printed as a figure; the only pass/fail timing is a
// generous hang guard), and at the end the result shown is the document's scenario, the controls
// show it, and the undo stack goes back to the original scenario and forward to the final one.
//
// SCALESCOPE_STRESS_CHANGES=N runs N changes instead of 10,000 (sanitizer builds);
// SCALESCOPE_STRESS_SEED=S changes the random sequence (the seed is printed).
#include "../controls/random_edit.h"
#include "app.h"
#include "autosave.h"
#include "controls/control_panel.h"
#include "document.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "main_window.h"
#include "recompute.h"

#include <QAbstractButton>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QRandomGenerator>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>
#include <map>
#include <memory>

using namespace scalescope;

namespace
{
constexpr int kDefaultChanges = 10000;
constexpr int kHangGuardMs = 60000; // no progress for this long = the app hung

int envInt(const char *name, int fallback)
{
    bool ok = false;
    const int v = qEnvironmentVariableIntValue(name, &ok);
    return ok && v > 0 ? v : fallback;
}
} // namespace

class TestRandomChanges : public QObject
{
    Q_OBJECT

    QTemporaryDir dir_;
    std::vector<GalleryEntry> gallery_;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        qRegisterMetaType<ResultPtr>("scalescope::ResultPtr");
        QString error;
        gallery_ = Application::loadBuiltinGallery(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void randomChangesOnTheWholeWindow()
    {
        const int changes = envInt("SCALESCOPE_STRESS_CHANGES", kDefaultChanges);
        const quint32 seed = quint32(envInt("SCALESCOPE_STRESS_SEED", 20261130));
        qInfo("%d random changes, seed %u (SCALESCOPE_STRESS_CHANGES, SCALESCOPE_STRESS_SEED)",
              changes, seed);

        QSettings settings(dir_.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        Document document;
        Result<Scenario> start = loadScenarioFile(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json"),
            builtinCatalog());
        QVERIFY(start);
        document.reset(start.value(), QString());
        Recomputer recomputer;
        AutosaveStore autosave(dir_.filePath(QStringLiteral("autosave")));
        WindowContext ctx;
        ctx.document = &document;
        ctx.recomputer = &recomputer;
        ctx.settings = &settings;
        ctx.autosave = &autosave;
        ctx.gallery = &gallery_;
        ctx.language = QStringLiteral("en");
        ctx.interactive = false;
        MainWindow window(ctx);
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const auto resultIsCurrent = [&] {
            return window.currentResult() &&
                   window.currentResult()->generation == recomputer.latestGeneration();
        };
        QVERIFY(QTest::qWaitFor(resultIsCurrent, kHangGuardMs));

        auto *panel = window.findChild<ControlPanel *>(QStringLiteral("controlPanel"));
        auto *undo = window.findChild<QAction *>(QStringLiteral("undoAction"));
        auto *redo = window.findChild<QAction *>(QStringLiteral("redoAction"));
        auto *tabs = window.findChild<QTabWidget *>(QStringLiteral("resultTabs"));
        auto *iterations = window.findChild<QSpinBox *>(QStringLiteral("iterationsSpin"));
        QVERIFY(panel && undo && redo && tabs && iterations);
        const QByteArray original = writeScenario(document.scenario());

        QRandomGenerator rng(seed);
        std::map<QString, int> kinds; // what was changed, for the log
        int done = 0;
        QString broken; // the first change neither refused nor saved and opened unchanged
        const auto changeOne = [&] {
            const int dice = int(rng.bounded(100));
            if (dice < 3) {
                (dice < 2 ? undo : redo)->trigger(); // disabled: nothing happens, as for a user
                ++kinds[QStringLiteral("undo/redo")];
                return;
            }
            if (dice == 3) {
                tabs->setCurrentIndex(int(rng.bounded(tabs->count())));
                ++kinds[QStringLiteral("tab")];
                return;
            }
            if (dice == 4) {
                iterations->setValue(
                    iterations->minimum() +
                    int(rng.bounded(iterations->maximum() - iterations->minimum() + 1)));
                ++kinds[QStringLiteral("iterations")];
                return;
            }
            const QList<QWidget *> candidates = test::editableWidgets(panel);
            if (candidates.isEmpty())
                return;
            QWidget *w = candidates.at(int(rng.bounded(qsizetype(candidates.size()))));
            ++kinds[QString::fromLatin1(w->metaObject()->className())];
            // A slider drag of a few steps: merged into one undo entry.
            test::randomEdit(w, rng, 4);
            if (broken.isEmpty())
                broken = test::refusedOrRoundTrips(document.scenario(), *panel);
        };

        // The changes come from a zero-interval timer, one per turn of the event loop, so
        // the worker's results, repaints and the autosave timer run in between as they would
        // for a user. A 5 ms heartbeat measures how long the loop was ever kept from turning.
        QElapsedTimer clock;
        clock.start();
        qint64 last_tick = 0, longest_gap = 0, last_progress_ms = 0;
        int ticks = 0, shown_at_start = 0, results_shown = 0;
        connect(&window, &MainWindow::resultShown, this, [&] { ++results_shown; });
        shown_at_start = results_shown;
        QEventLoop loop;
        QTimer heartbeat;
        heartbeat.setInterval(5);
        connect(&heartbeat, &QTimer::timeout, this, [&] {
            const qint64 now = clock.elapsed();
            longest_gap = std::max(longest_gap, now - last_tick);
            last_tick = now;
            ++ticks;
        });
        QTimer driver;
        driver.setInterval(0);
        int last_done = -1;
        connect(&driver, &QTimer::timeout, this, [&] {
            // A burst of 1 to 10 changes per turn, as input arrives while the window is busy
            // (a drag, typing): results for most intermediate generations are then dropped.
            const int burst = 1 + int(rng.bounded(10));
            for (int k = 0; k < burst && done < changes; ++k, ++done)
                changeOne();
            if (done >= changes)
                loop.quit();
        });
        QTimer guard; // the only timing that fails the test: no progress for 60 s
        guard.setInterval(1000);
        connect(&guard, &QTimer::timeout, this, [&] {
            if (done != last_done) {
                last_done = done;
                last_progress_ms = clock.elapsed();
            } else if (clock.elapsed() - last_progress_ms > kHangGuardMs) {
                loop.quit();
            }
        });
        heartbeat.start();
        driver.start();
        guard.start();
        loop.exec();
        driver.stop();
        const qint64 drive_ms = clock.elapsed();
        QVERIFY2(done >= changes, qPrintable(QStringLiteral("hung after %1 changes").arg(done)));
        QVERIFY2(broken.isEmpty(), qPrintable(broken));

        // The result of the final generation arrives (hang guard), with the loop still
        // turning; then heartbeat stops.
        const qint64 wait_start = clock.elapsed();
        QVERIFY2(QTest::qWaitFor(resultIsCurrent, kHangGuardMs),
                 "no result for the final generation within 60 s");
        heartbeat.stop();
        QStringList what;
        for (const auto &k : kinds)
            what << QStringLiteral("%1 %2").arg(k.second).arg(k.first);
        qInfo("%d changes in %lld ms (%.0f us each): %s", done, drive_ms,
              1000.0 * double(drive_ms) / std::max(done, 1),
              qPrintable(what.join(QStringLiteral(", "))));
        qInfo("responsiveness: longest gap between 5 ms timer ticks %lld ms over %d ticks; "
              "%d results shown while changing; final result %lld ms after the last change",
              longest_gap, ticks, results_shown - shown_at_start, clock.elapsed() - wait_start);
        QVERIFY(ticks > 0);

        // The final state: the result shown is the document's scenario and the controls show it.
        const QByteArray final_scenario = writeScenario(document.scenario());
        QCOMPARE(writeScenario(window.currentResult()->scenario), final_scenario);
        QCOMPARE(writeScenario(panel->scenario()), final_scenario);
        QVERIFY(final_scenario != original);

        // Undo all the way back through the Undo action, then redo to the end.
        QUndoStack *stack = document.undoStack();
        const int entries = stack->index();
        qInfo("%d undo entries", entries);
        QVERIFY(entries > 0);
        QElapsedTimer walk;
        walk.start();
        int steps = 0;
        while (undo->isEnabled()) {
            undo->trigger();
            if (++steps % 500 == 0)
                QCoreApplication::processEvents();
            QVERIFY(steps <= entries);
        }
        QCOMPARE(stack->index(), 0);
        QCOMPARE(writeScenario(document.scenario()), original);
        QCOMPARE(writeScenario(panel->scenario()), original);
        QVERIFY(QTest::qWaitFor(resultIsCurrent, kHangGuardMs));
        QCOMPARE(writeScenario(window.currentResult()->scenario), original);
        // Redo to where the changes left the stack: a random undo among the last changes
        // leaves commands beyond it, which the final scenario does not include.
        steps = 0;
        while (stack->index() < entries) {
            QVERIFY(redo->isEnabled());
            redo->trigger();
            if (++steps % 500 == 0)
                QCoreApplication::processEvents();
            QVERIFY(steps <= entries);
        }
        QCOMPARE(stack->index(), entries);
        QCOMPARE(writeScenario(document.scenario()), final_scenario);
        QCOMPARE(writeScenario(panel->scenario()), final_scenario);
        QVERIFY(QTest::qWaitFor(resultIsCurrent, kHangGuardMs));
        QCOMPARE(writeScenario(window.currentResult()->scenario), final_scenario);
        qInfo("undo to the original and redo to the final scenario: %lld ms", walk.elapsed());
    }
};

QTEST_MAIN(TestRandomChanges)
#include "tst_random_changes.moc"
