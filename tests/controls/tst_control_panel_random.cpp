// Random edits through every visible control of the panel, fed back the way the document
// does (setScenario with the edited scenario): nothing crashes, every edit is one signal,
// and the panel always shows the scenario it was given.
#include "controls/control_panel.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

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
        int edits = 0;
        connect(&panel, &ControlPanel::scenarioEdited, this,
                [&](const Scenario &s, const QString &, int) {
                    current = s;
                    ++edits;
                    panel.setScenario(s); // the document's round trip
                });
        QRandomGenerator rng(20261130);
        constexpr int kSteps = 3000;
        for (int step = 0; step < kSteps; ++step) {
            QList<QWidget *> candidates;
            for (QWidget *w : panel.findChildren<QWidget *>()) {
                if (!w->isVisibleTo(&panel) || !w->isEnabled() || w->objectName().isEmpty())
                    continue;
                if (qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w) ||
                    qobject_cast<QCheckBox *>(w) || qobject_cast<QSlider *>(w))
                    candidates << w;
            }
            QVERIFY(!candidates.isEmpty());
            QWidget *w = candidates.at(int(rng.bounded(qsizetype(candidates.size()))));
            if (auto *c = qobject_cast<QComboBox *>(w)) {
                if (c->count() > 0)
                    c->setCurrentIndex(int(rng.bounded(c->count())));
            } else if (auto *sp = qobject_cast<QSpinBox *>(w)) {
                // Mostly small steps, sometimes a jump anywhere in the range.
                const int v = rng.bounded(4) == 0
                                  ? sp->minimum() +
                                        int(rng.bounded(qint64(sp->maximum()) - sp->minimum() + 1))
                                  : sp->value() + int(rng.bounded(5)) - 2;
                sp->setValue(v);
            } else if (auto *dsp = qobject_cast<QDoubleSpinBox *>(w)) {
                dsp->setValue(dsp->minimum() +
                              rng.generateDouble() * (dsp->maximum() - dsp->minimum()));
            } else if (auto *cb = qobject_cast<QCheckBox *>(w)) {
                cb->setChecked(!cb->isChecked());
            } else if (auto *sl = qobject_cast<QSlider *>(w)) {
                sl->setSliderDown(true);
                sl->setValue(sl->minimum() + int(rng.bounded(sl->maximum() - sl->minimum() + 1)));
                sl->setSliderDown(false);
            }
            if (step % 250 == 0)
                QCoreApplication::processEvents();
        }
        QVERIFY(edits > kSteps / 4);
        // The panel shows exactly the last scenario it was given.
        QCOMPARE(writeScenario(panel.scenario()), writeScenario(current));
        qInfo("%d random changes, %d edits emitted", kSteps, edits);
    }
};

QTEST_MAIN(TestControlPanelRandom)
#include "tst_control_panel_random.moc"
