// Random changes to input widgets, shared by the random-edit tests of the control panel
// (tst_control_panel_random) and of the whole window (tst_random_changes).
#pragma once

#include "analysis/summary.h"
#include "controls/control_checks.h"
#include "controls/control_panel.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "plan/rules.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QList>
#include <QMenu>
#include <QRandomGenerator>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QWidget>

namespace scalescope::test
{

/// The visible, enabled, named input widgets under `root` that randomEdit() can change
/// (combo boxes, spin boxes, sliders and buttons, check boxes among them).
inline QList<QWidget *> editableWidgets(QWidget *root)
{
    QList<QWidget *> widgets;
    for (QWidget *w : root->findChildren<QWidget *>()) {
        if (w->objectName().isEmpty() || !w->isVisibleTo(root) || !w->isEnabled())
            continue;
        if (qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w) ||
            qobject_cast<QSlider *>(w) || qobject_cast<QAbstractButton *>(w))
            widgets << w;
    }
    return widgets;
}

/// One random change to `w`: a combo's index; a spin box by a small step or, one time in
/// four, anywhere in its range; a double spin box anywhere; a check box toggled; a slider
/// dragged through 1 to `max_slider_moves` random positions (one drag, one undo entry); a
/// menu button's action triggered; another button clicked.
inline void randomEdit(QWidget *w, QRandomGenerator &rng, int max_slider_moves = 1)
{
    if (auto *c = qobject_cast<QComboBox *>(w)) {
        if (c->count() > 0)
            c->setCurrentIndex(int(rng.bounded(c->count())));
    } else if (auto *sp = qobject_cast<QSpinBox *>(w)) {
        const int v =
            rng.bounded(4) == 0
                ? sp->minimum() + int(rng.bounded(qint64(sp->maximum()) - sp->minimum() + 1))
                : sp->value() + int(rng.bounded(5)) - 2;
        sp->setValue(v);
    } else if (auto *dsp = qobject_cast<QDoubleSpinBox *>(w)) {
        dsp->setValue(dsp->minimum() + rng.generateDouble() * (dsp->maximum() - dsp->minimum()));
    } else if (auto *sl = qobject_cast<QSlider *>(w)) {
        sl->setSliderDown(true);
        const int moves = max_slider_moves > 1 ? 1 + int(rng.bounded(max_slider_moves)) : 1;
        for (int i = 0; i < moves; ++i)
            sl->setValue(sl->minimum() + int(rng.bounded(sl->maximum() - sl->minimum() + 1)));
        sl->setSliderDown(false);
    } else if (auto *tb = qobject_cast<QToolButton *>(w); tb && tb->menu()) {
        // A menu button (its click would open the menu and wait): one of its actions.
        const QList<QAction *> actions = tb->menu()->actions();
        if (!actions.isEmpty())
            actions.at(int(rng.bounded(actions.size())))->trigger();
    } else if (auto *b = qobject_cast<QAbstractButton *>(w)) {
        if (b->isCheckable())
            b->setChecked(!b->isChecked());
        else
            b->click();
    }
}

/// What every scenario an edit produces must be (issue 11): either refused by the rule table,
/// with its error shown beside the control that owns it and its file refused too; or a file
/// that opens to the same scenario (derived degrees filled in) with the same result. Empty
/// when it holds, else what failed.
inline QString refusedOrRoundTrips(const Scenario &s, const ControlPanel &panel)
{
    const Result<Scenario> reopened = parseScenario(writeScenario(s), builtinCatalog());
    const QList<ControlIssue> issues = checkScenario(s);
    for (const ControlIssue &issue : issues) {
        if (issue.severity != ControlIssue::Severity::Error)
            continue;
        const QLabel *label = panel.messageLabel(issue.key_path);
        if (!label || !label->text().contains(issue.message))
            return QStringLiteral("the error at %1 is not shown beside its control: %2")
                .arg(issue.key_path, issue.message);
        if (reopened.ok())
            return QStringLiteral("refused at %1, but its file opens").arg(issue.key_path);
        return {};
    }
    if (!reopened.ok())
        return QStringLiteral("no rule refuses it, but its file does not open: ") +
               QString::fromStdString(reopened.error().toString());
    Scenario expected = s;
    fillDerivedPlan(expected);
    // An effect that is off is left out of the file (spec/scenario.md): its fields are not
    // saved, so they come back as defaults.
    EffectsSpec &e = expected.effects;
    if (!e.thermal.enabled)
        e.thermal = ThermalSpec{};
    if (!e.data_loader.enabled)
        e.data_loader = DataLoaderSpec{};
    if (!e.virtual_gpu.enabled)
        e.virtual_gpu = VirtualGpuSpec{};
    if (!e.failures.enabled)
        e.failures = FailureSpec{};
    const Scenario &r = reopened.value();
    if (!(r == expected)) {
        // Which part changed (QtTest shortens long messages, so not the whole files).
        QStringList parts;
        const auto differs = [&](bool same, const char *part) {
            if (!same)
                parts << QLatin1String(part);
        };
        differs(r.name == expected.name, "name");
        differs(r.hardware == expected.hardware, "hardware");
        differs(r.model == expected.model, "model");
        differs(r.stacks == expected.stacks, "stacks");
        differs(r.training == expected.training, "training");
        differs(r.parallel == expected.parallel, "parallel");
        differs(r.effects.data_loader == expected.effects.data_loader, "effects.data_loader");
        differs(r.effects.thermal == expected.effects.thermal, "effects.thermal");
        differs(r.effects.failures == expected.effects.failures, "effects.failures");
        differs(r.effects == expected.effects, "effects");
        differs(r.effects.seed == expected.effects.seed, "effects.seed");
        differs(r.effects.jitter == expected.effects.jitter, "effects.jitter");
        differs(r.effects.stragglers == expected.effects.stragglers, "effects.stragglers");
        differs(r.effects.virtual_gpu == expected.effects.virtual_gpu, "effects.virtual_gpu");
        differs(r.cost == expected.cost, "cost");
        differs(r.extensions == expected.extensions, "extensions");
        return QStringLiteral("save -> open changed %1 of %2")
            .arg(parts.join(QStringLiteral(", ")), QString::fromStdString(s.name));
    }
    if (expected.isCollective())
        return {};
    const auto before = makeContext(s);
    const auto after = makeContext(reopened.value());
    if (!before.ok() || !after.ok())
        return QStringLiteral("valid, but the model refuses it: ") +
               QString::fromStdString((before.ok() ? after : before).error().toString());
    const Summary a = analyticSummary(*before.value());
    const Summary b = analyticSummary(*after.value());
    if (a.step_time_s != b.step_time_s || a.memory.total != b.memory.total)
        return QStringLiteral("save -> open changed the result: %1 s -> %2 s")
            .arg(a.step_time_s)
            .arg(b.step_time_s);
    return {};
}

} // namespace scalescope::test
