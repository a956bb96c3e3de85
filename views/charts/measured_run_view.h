// The measured run beside its prediction (issue 28, item 3): bars of the measured step's
// figures (medians over steps and ranks of the traces, spec/cli.md "trace") against the
// model's prediction of the same step, the largest disagreement in a sentence, and
// "Fit the model to this run", which the window answers by writing a profile from the
// traces and applying it.
#pragma once

#include "analysis/measured_critical_path.h"
#include "analysis/measured_run.h"
#include "analysis/step_spread.h"

#include <QString>
#include <QWidget>

#include <optional>

class QBarSet;
class QBarCategoryAxis;
class QChart;
class QChartView;
class QLabel;
class QPushButton;
class QValueAxis;

namespace scalescope
{

class MeasuredRunView : public QWidget
{
    Q_OBJECT

public:
    explicit MeasuredRunView(QWidget *parent = nullptr);

    /// The measured run's medians and a one-line description of it; nullopt: no run loaded
    /// (the page says how to open one).
    void setMeasured(const std::optional<StepFigures> &measured, const QString &description);
    /// The model's prediction of the same step (nullopt while none is computed).
    void setPredicted(const std::optional<StepFigures> &predicted);
    /// What fitting the model to the run wrote and changed (empty: nothing yet).
    void setFitReport(const QString &text);
    /// The critical path of rank `rank`'s median step (analysis/measured_critical_path.h),
    /// said in a sentence under the bars; nullopt: none.
    void setCriticalPath(const std::optional<MeasuredCriticalPath> &path, int64_t rank);
    QString criticalPathText() const;
    /// The model's step spread over many simulated steps (analysis/step_spread.h), said
    /// beside the measured steps' range; nullopt: not computed for this scenario.
    void setPredictedSpread(const std::optional<StepSpread> &spread);
    QString spreadText() const;

    /// How far to trust the prediction before and beside a measured run: the model's error
    /// on published runs of the scenario's kind (trackRecordSentence; empty: none).
    void setTrackRecord(const QString &sentence);
    QString trackRecordText() const;
    /// A warning above the bars when the traced run and the scenario are not the same kind
    /// of GPU (empty: none); shown only while a run is loaded.
    void setGpuMismatch(const QString &sentence);
    QString gpuMismatchText() const;
    /// The sentence under the bars (empty when there is nothing to compare).
    QString disagreementText() const;
    QString fitReport() const;
    /// Bar values in milliseconds per figure, from the bottom of the chart up (idle, exposed
    /// communication, communication, compute, step time).
    QList<qreal> measuredBars() const;
    QList<qreal> predictedBars() const;

Q_SIGNALS:
    void fitRequested();
    void openRequested();

private:
    void refresh();

    std::optional<StepFigures> measured_, predicted_;
    QLabel *description_ = nullptr;
    QLabel *gpu_mismatch_ = nullptr;
    QLabel *empty_ = nullptr;
    QChart *chart_ = nullptr;
    QChartView *chart_view_ = nullptr;
    QBarSet *measured_set_ = nullptr;
    QBarSet *predicted_set_ = nullptr;
    QBarCategoryAxis *x_ = nullptr;
    QValueAxis *y_ = nullptr;
    QLabel *disagreement_ = nullptr;
    QLabel *track_record_ = nullptr;
    QLabel *critical_ = nullptr;
    QLabel *spread_ = nullptr;
    std::optional<StepSpread> spread_figures_;
    QPushButton *fit_ = nullptr;
    QPushButton *open_ = nullptr;
    QLabel *fit_report_ = nullptr;
};

} // namespace scalescope
