// What the files of ControlPanel share (control_panel.cpp and one file per group:
// control_panel_hardware.cpp, _model, _parallel, _effects): ranges, defaults and the widget
// helpers. Private to views/controls.
#pragma once

#include "controls/blocked_range_slider.h"
#include "controls/control_panel.h"

#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "plan/framework_rules.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPalette>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cmath>

namespace scalescope::panel_detail
{

inline constexpr int kMaxGpuCountLog2 = 10;            // GPU count slider: 1..1024
inline constexpr int kMaxGlobalBatchLog2 = 16;         // global batch slider: 1..65536
inline constexpr double kMaxSeed = 9007199254740992.0; // 2^53, as the scenario file allows
inline constexpr int kDefaultLoaderWorkers = 4;
// Samples/s per loader worker when the loader is first switched on: an assumption shown in the
// field for the user to replace with their own (it depends on the data and the CPU; a few
// hundred JPEG images/s per core is the order PyTorch ImageNet pipelines reach).
inline constexpr double kDefaultLoaderRate = 500;
inline constexpr double kDefaultVirtualFraction = 0.5; // shown for a slice never set
inline constexpr double kMinVirtualFraction = 0.05;
inline constexpr double kBytesPerGb = 1e9;
inline constexpr double kMaxCheckpointBytes = 1e16; // as the scenario file allows
inline constexpr double kNoCoolingC = -1;           // cooling combo: steady_c unset
inline constexpr double kCustomCoolingC = -2;       // cooling combo: steady_c matches no preset
inline constexpr double kStartSteadyState = -1;     // start spin minimum: start_s unset
// Stages the Pipeline and Hybrid presets start from, a starting point the user edits: with
// m >= 4p micro-batches the bubble (p-1)/m (Narayanan et al. SC21, Sec. 2.2.1) stays under a
// quarter of the step; Hybrid keeps fewer stages beside node-wide tensor parallelism.
inline constexpr int kPipelinePresetStages = 8;
inline constexpr int kHybridPresetStages = 4;
inline constexpr int kCoolingPresetItems = 4; // none, datacenter, workstation, poor
inline const QString kCustomTransformer = QStringLiteral("#custom");

/// A new merge key for each slider drag, unique over all panels of the process.
inline int nextMergeKey()
{
    static std::atomic<int> last{0};
    int key = ++last;
    if (key <= 0) { // wrapped after 2^31 drags
        last = 1;
        key = 1;
    }
    return key;
}

inline int nearestLog2(int64_t value, int maxExponent)
{
    if (value <= 1)
        return 0;
    return std::clamp(int(std::lround(std::log2(double(value)))), 0, maxExponent);
}

inline int largestDivisorAtMost(int n, int cap, int alsoDivides = 0)
{
    for (int d = std::min(cap, n); d > 1; --d) {
        if (n % d == 0 && (alsoDivides <= 0 || alsoDivides % d == 0))
            return d;
    }
    return 1;
}

inline QString qs(const std::string &text)
{
    return QString::fromStdString(text);
}

inline QSpinBox *makeSpin(QWidget *parent, const char *name, int min, int max, const QString &tip,
                          const QString &suffix = {})
{
    auto *spin = new QSpinBox(parent);
    spin->setObjectName(QLatin1String(name));
    spin->setRange(min, max);
    spin->setSuffix(suffix);
    spin->setToolTip(tip);
    spin->setKeyboardTracking(false); // one edit per committed value, not per keystroke
    spin->setAccelerated(true);
    return spin;
}

inline QDoubleSpinBox *makeDoubleSpin(QWidget *parent, const char *name, double min, double max,
                                      int decimals, const QString &tip, const QString &suffix = {})
{
    auto *spin = new QDoubleSpinBox(parent);
    spin->setObjectName(QLatin1String(name));
    spin->setDecimals(decimals);
    spin->setRange(min, max);
    spin->setSuffix(suffix);
    spin->setToolTip(tip);
    spin->setKeyboardTracking(false);
    spin->setAccelerated(true);
    return spin;
}

inline QComboBox *makeCombo(QWidget *parent, const char *name, const QString &tip)
{
    auto *combo = new QComboBox(parent);
    combo->setObjectName(QLatin1String(name));
    combo->setToolTip(tip);
    // Long catalog names must not widen the dock: elide, the popup shows them whole.
    combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    combo->setMinimumContentsLength(10);
    return combo;
}

inline QCheckBox *makeCheck(QWidget *parent, const char *name, const QString &text,
                            const QString &tip)
{
    auto *check = new QCheckBox(text, parent);
    check->setObjectName(QLatin1String(name));
    check->setToolTip(tip);
    return check;
}

template <typename Slider = QSlider>
inline Slider *makeLogSlider(QWidget *parent, const char *name, int maxExponent, const QString &tip)
{
    auto *slider = new Slider(parent);
    slider->setOrientation(Qt::Horizontal);
    slider->setObjectName(QLatin1String(name));
    slider->setRange(0, maxExponent);
    slider->setSingleStep(1);
    slider->setPageStep(1);
    slider->setTickPosition(QSlider::TicksBelow);
    slider->setTickInterval(1);
    slider->setToolTip(tip);
    return slider;
}

inline QFormLayout *makeForm(QWidget *group)
{
    auto *form = new QFormLayout(group);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(QFormLayout::DontWrapRows);
    return form;
}

inline QWidget *makeRowBox(QWidget *parent, QHBoxLayout **layout)
{
    auto *box = new QWidget(parent);
    *layout = new QHBoxLayout(box);
    (*layout)->setContentsMargins(0, 0, 0, 0);
    return box;
}

inline void setSpin(QSpinBox *spin, int64_t value)
{
    const QSignalBlocker blocker(spin);
    // A file may hold more than the usual range; show it rather than clamp it.
    if (value > spin->maximum())
        spin->setMaximum(int(std::min<int64_t>(value, INT_MAX)));
    spin->setValue(int(std::clamp<int64_t>(value, INT_MIN, INT_MAX)));
}

inline void setDouble(QDoubleSpinBox *spin, double value)
{
    const QSignalBlocker blocker(spin);
    // A file may hold more than the usual range; show it rather than clamp it.
    if (value > spin->maximum())
        spin->setMaximum(value);
    spin->setValue(value);
}

inline void setCheck(QCheckBox *check, bool on)
{
    const QSignalBlocker blocker(check);
    check->setChecked(on);
}

inline void setSlider(QSlider *slider, int value)
{
    const QSignalBlocker blocker(slider);
    slider->setValue(value);
}

inline void setComboData(QComboBox *combo, const QVariant &data)
{
    const QSignalBlocker blocker(combo);
    combo->setCurrentIndex(combo->findData(data));
}

inline QColor errorColor()
{
    return QColor(0xc6, 0x28, 0x28);
}

inline QColor warningColor()
{
    return QColor(0xa6, 0x5e, 0x00);
}

/// Selects the item with `id`; an entry not in the catalog gets a trailing "(from file)" item.
inline void syncCatalogCombo(QComboBox *combo, int fixedItems, const std::string &id,
                             const QString &fromFileText)
{
    const QSignalBlocker blocker(combo);
    while (combo->count() > fixedItems)
        combo->removeItem(combo->count() - 1);
    int index = id.empty() ? -1 : combo->findData(qs(id));
    if (index < 0) {
        combo->addItem(fromFileText, QString());
        index = combo->count() - 1;
    }
    combo->setCurrentIndex(index);
}

} // namespace scalescope::panel_detail
