// Random changes to input widgets, shared by the random-edit tests of the control panel
// (tst_control_panel_random) and of the whole window (tst_random_changes).
#pragma once

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QList>
#include <QRandomGenerator>
#include <QSlider>
#include <QSpinBox>
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
/// dragged through 1 to `max_slider_moves` random positions (one drag, one undo entry);
/// another button clicked.
inline void randomEdit(QWidget *w, QRandomGenerator &rng, int max_slider_moves = 1)
{
    if (auto *c = qobject_cast<QComboBox *>(w)) {
        if (c->count() > 0)
            c->setCurrentIndex(int(rng.bounded(c->count())));
    } else if (auto *sp = qobject_cast<QSpinBox *>(w)) {
        const int v = rng.bounded(4) == 0
                          ? sp->minimum() +
                                int(rng.bounded(qint64(sp->maximum()) - sp->minimum() + 1))
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
    } else if (auto *b = qobject_cast<QAbstractButton *>(w)) {
        if (b->isCheckable())
            b->setChecked(!b->isChecked());
        else
            b->click();
    }
}

} // namespace scalescope::test
