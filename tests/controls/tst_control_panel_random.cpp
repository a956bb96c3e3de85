// Random edits through every visible control of the panel, fed back the way the document
// does (setScenario with the edited scenario): nothing crashes, every edit is one signal,
// the panel always shows the scenario it was given, and every edited scenario is either refused
// by the rule table with the error beside its control, or saved and opened unchanged.
#include "controls/control_panel.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "random_edit.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

using namespace scalescope;

class TestControlPanelRandom : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void randomEdits()
    {
        Result<Scenario> start = loadScenarioFile(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json"),
            builtinCatalog());
        QVERIFY(start);
        ControlPanel panel;
        panel.resize(340, 900);
        panel.show();
        panel.setScenario(start.value());
        Scenario current = start.value();
        int edits = 0, refused = 0, refused_in_a_row = 0;
        QString broken; // the first edit that is neither refused nor saved unchanged
        connect(&panel, &ControlPanel::scenarioEdited, this,
                [&](const Scenario &s, const QString &, int) {
                    current = s;
                    ++edits;
                    panel.setScenario(s); // the document's round trip
                    if (broken.isEmpty())
                        broken = test::refusedOrRoundTrips(s, panel);
                    if (firstError(checkRules(s))) {
                        ++refused;
                        // Back to the start now and then: most random walks leave the valid
                        // plans within a few edits, and both kinds must be exercised.
                        if (++refused_in_a_row >= 4) {
                            refused_in_a_row = 0;
                            current = start.value();
                            panel.setScenario(current);
                        }
                    } else {
                        refused_in_a_row = 0;
                    }
                });
        QRandomGenerator rng(20261130);
        constexpr int kSteps = 3000;
        for (int step = 0; step < kSteps; ++step) {
            // Check boxes are the panel's only buttons; editableWidgets() takes them in.
            const QList<QWidget *> candidates = test::editableWidgets(&panel);
            QVERIFY(!candidates.isEmpty());
            test::randomEdit(candidates.at(int(rng.bounded(qsizetype(candidates.size())))), rng);
            if (step % 250 == 0)
                QCoreApplication::processEvents();
        }
        QVERIFY(edits > kSteps / 4);
        QVERIFY2(broken.isEmpty(), qPrintable(broken));
        QVERIFY(refused > 0 && refused < edits); // both kinds were reached
        // The panel shows exactly the last scenario it was given.
        QCOMPARE(writeScenario(panel.scenario()), writeScenario(current));
        qInfo("%d random changes, %d edits emitted, %d refused by the rule table", kSteps, edits,
              refused);
    }
};

QTEST_MAIN(TestControlPanelRandom)
#include "tst_control_panel_random.moc"
