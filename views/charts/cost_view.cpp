// The Cost tab (cost_view.h). About 800 lines on purpose: its two pages (the engine's run
// length, energy and money; the cost report with its verdict) edit and show one CostSpec and
// share its spin boxes; splitting them would pass the same widgets between files.
#include "charts/cost_view.h"

#include "analysis/economics.h"

#include "charts/chart_common.h"
#include "charts/run_cost.h"
#include "model_text.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <cmath>

namespace scalescope
{

namespace
{

QLabel *outputLabel(const QString &object_name, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(object_name);
    label->setTextFormat(Qt::PlainText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}

bool hasTokens(const ResultPtr &r)
{
    return r && r->ok() && r->summary().is_transformer &&
           r->scenario.model.kind == ModelSpec::Kind::Transformer &&
           r->scenario.model.transformer.seq_len > 0 && r->scenario.training.global_batch > 0;
}

/// Money in USD: cents below 100, whole dollars above.
QString usd(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("—");
    return CostView::tr("%1 USD").arg(
        QLocale().toString(value, 'f', std::fabs(value) < 100 ? 2 : 0));
}

/// Hours for people: "12.5 h", or "130 h (5.4 days)" from two days up.
QString hours(double h)
{
    const QLocale locale;
    if (!std::isfinite(h) || h < 0)
        return QStringLiteral("—");
    if (h < 48)
        return CostView::tr("%1 h").arg(locale.toString(h, 'f', 1));
    return CostView::tr("%1 h (%2 days)")
        .arg(locale.toString(h, 'f', 0), locale.toString(h / 24.0, 'f', 1));
}

/// A figure of the report, or a dash where it is infinite (a run that never ends).
QString figure(double value, int decimals)
{
    return std::isfinite(value) ? QLocale().toString(value, 'f', decimals) : QStringLiteral("—");
}

/// The rule of thumb's bands (CostVerdict, economics.h), translated.
QString durationBand(DurationBand band)
{
    switch (band) {
    case DurationBand::UnderADay:
        return CostView::tr("under a day");
    case DurationBand::OneToThreeDays:
        return CostView::tr("1-3 days");
    case DurationBand::ThreeToFourteenDays:
        return CostView::tr("3-14 days");
    case DurationBand::OverTwoWeeks:
        return CostView::tr("over two weeks");
    }
    return {};
}

QString usageBand(UsageBand band)
{
    switch (band) {
    case UsageBand::Under50:
        return CostView::tr("under 50 GPU-hours a month");
    case UsageBand::From50To200:
        return CostView::tr("50-200 GPU-hours a month");
    case UsageBand::Over200:
        return CostView::tr("over 200 GPU-hours a month");
    }
    return {};
}

/// What a missing input is called in "Enter ... for a verdict".
QString costInputName(CostInput input)
{
    switch (input) {
    case CostInput::GpuPrice:
        return CostView::tr("the GPU price");
    case CostInput::CloudPrice:
        return CostView::tr("the cloud price per GPU-hour");
    case CostInput::PowerPrice:
        return CostView::tr("the power price");
    case CostInput::DayRate:
        return CostView::tr("the day rate");
    case CostInput::Work:
        return CostView::tr("the work per run");
    }
    return {};
}

/// A spin box that writes its value without trailing zeros ("90 epochs", "2 runs", not
/// "90.00" and "2.00"; issue 26), in the widget's locale; typing and stepping are unchanged.
class TrimmedSpinBox final : public QDoubleSpinBox
{
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override
    {
        QString text = QDoubleSpinBox::textFromValue(value);
        const QString point = locale().decimalPoint();
        if (decimals() > 0 && text.contains(point)) {
            while (text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(point))
                text.chop(point.size());
        }
        return text;
    }
};

/// "1 GPU", "8 GPUs" (issue 26: "on 1 GPUs").
QString gpuCount(int gpus)
{
    return gpus == 1 ? CostView::tr("1 GPU")
                     : CostView::tr("%1 GPUs").arg(QLocale().toString(gpus));
}

/// Tokens per unit of the token spin boxes: a billion, or in Chinese 亿 (10^8), the unit
/// large numbers are counted in there ("100 亿 token", not "10 十亿 token"; issue 26).
double tokenUnit()
{
    return QLocale().language() == QLocale::Chinese ? 1e8 : 1e9;
}

QString tokenSuffix()
{
    return tokenUnit() == 1e8 ? CostView::tr(" hundred million tokens")
                              : CostView::tr(" billion tokens");
}

/// Decimals that reach a million tokens in the unit of tokenUnit().
int tokenDecimals()
{
    return tokenUnit() == 1e8 ? 2 : 3;
}

} // namespace

CostView::CostView(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("costView"));
    updating_ = true; // the spin boxes' initial values are no edits
    message_ = makeEmptyStateLabel(this);
    engine_page_ = buildEnginePage();
    report_page_ = buildReportPage();
    stack_ = new QStackedWidget(this);
    stack_->addWidget(message_);
    stack_->addWidget(engine_page_);
    stack_->addWidget(report_page_);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(stack_, 1);
    updating_ = false;
    setResult(nullptr);
}

QWidget *CostView::buildEnginePage()
{
    auto *page = new QWidget(this);
    run_length_ = new QComboBox(page);
    run_length_->setObjectName(QStringLiteral("runLength"));
    run_length_->addItem(tr("Number of steps"), int(RunLength::Steps));
    run_length_->addItem(tr("Tokens to train"), int(RunLength::Tokens));
    steps_ = new QSpinBox(page);
    steps_->setObjectName(QStringLiteral("runSteps"));
    steps_->setRange(1, 1'000'000'000);
    steps_->setValue(10'000);
    steps_->setSuffix(tr(" steps"));
    steps_->setGroupSeparatorShown(true);
    steps_->setToolTip(tr("Training steps in the run (1 to 1,000,000,000)"));
    tokens_ = new TrimmedSpinBox(page);
    tokens_->setObjectName(QStringLiteral("runTokens"));
    tokens_->setDecimals(tokenDecimals());
    tokens_->setRange(1e6 / tokenUnit(), 1e15 / tokenUnit());
    tokens_->setValue(300e9 / tokenUnit());
    tokens_->setSuffix(tokenSuffix());
    tokens_->setGroupSeparatorShown(true);
    tokens_->setToolTip(
        tr("Tokens to train, in billions (0.001 to 1,000,000); steps = tokens / (global batch "
           "× sequence length)"));
    steps_from_tokens_ = new QLabel(page);
    steps_from_tokens_->setTextFormat(Qt::PlainText);
    steps_from_tokens_->setObjectName(QStringLiteral("stepsFromTokens"));
    price_ = new QDoubleSpinBox(page);
    price_->setObjectName(QStringLiteral("electricityPrice"));
    price_->setDecimals(3);
    price_->setRange(0, 10);
    price_->setSingleStep(0.01);
    price_->setValue(0.15);
    price_->setSuffix(tr(" per kWh"));
    price_->setToolTip(tr("Electricity price per kWh, in any currency (0 to 10)"));

    auto *inputs = new QGroupBox(tr("Run"), page);
    auto *in_form = new QFormLayout(inputs);
    in_form->addRow(tr("Run &length:"), run_length_);
    in_form->addRow(tr("&Steps:"), steps_);
    in_form->addRow(tr("&Tokens:"), tokens_);
    in_form->addRow(QString(), steps_from_tokens_);
    in_form->addRow(tr("Electricity &price:"), price_);

    auto *outputs = new QGroupBox(tr("Time and energy"), page);
    auto *out_form = new QFormLayout(outputs);
    time_per_step_ = outputLabel(QStringLiteral("timePerStep"), outputs);
    time_per_run_ = outputLabel(QStringLiteral("timePerRun"), outputs);
    gpu_hours_ = outputLabel(QStringLiteral("gpuHours"), outputs);
    energy_per_step_ = outputLabel(QStringLiteral("energyPerStep"), outputs);
    energy_per_run_ = outputLabel(QStringLiteral("energyPerRun"), outputs);
    electricity_cost_ = outputLabel(QStringLiteral("electricityCost"), outputs);
    out_form->addRow(tr("Time per step:"), time_per_step_);
    out_form->addRow(tr("Time per run:"), time_per_run_);
    out_form->addRow(tr("GPU-hours per run:"), gpu_hours_);
    out_form->addRow(tr("Energy per step:"), energy_per_step_);
    out_form->addRow(tr("Energy per run:"), energy_per_run_);
    out_form->addRow(tr("Electricity per run:"), electricity_cost_);
    assumption_ = outputLabel(QStringLiteral("energyAssumption"), outputs);
    out_form->addRow(assumption_);

    add_cost_ = new QPushButton(tr("&Add a cost section"), page);
    add_cost_->setObjectName(QStringLiteral("addCostButton"));
    add_cost_->setToolTip(
        tr("Add prices, usage and migration effort to the scenario for the full cost report: "
           "owning against renting, break-even and whether more GPUs are worth it"));
    connect(add_cost_, &QPushButton::clicked, this, &CostView::addCostSection);
    auto *add_row = new QHBoxLayout;
    add_row->addWidget(add_cost_);
    add_row->addStretch(1);

    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(inputs);
    layout->addWidget(outputs);
    layout->addLayout(add_row);
    layout->addStretch(1);

    connect(run_length_, &QComboBox::currentIndexChanged, this,
            [this](int) { updateEngineOutputs(); });
    connect(steps_, &QSpinBox::valueChanged, this, [this](int) { updateEngineOutputs(); });
    connect(tokens_, &QDoubleSpinBox::valueChanged, this,
            [this](double) { updateEngineOutputs(); });
    connect(price_, &QDoubleSpinBox::valueChanged, this, [this](double) { updateEngineOutputs(); });
    return page;
}

QDoubleSpinBox *CostView::addCostSpin(const char *object_name, double CostSpec::*member, double min,
                                      double max, int decimals, double single_step,
                                      const QString &suffix, const QString &tool_tip,
                                      const QString &description, double scale)
{
    auto *spin = new TrimmedSpinBox(this);
    spin->setObjectName(QLatin1String(object_name));
    spin->setRange(min, max);
    spin->setDecimals(decimals);
    spin->setSingleStep(single_step);
    spin->setSuffix(suffix);
    spin->setToolTip(tool_tip);
    spin->setGroupSeparatorShown(true);
    spin->setAccelerated(true);
    // One edit per value the user settles on (Enter, focus out, or a step), not per keystroke.
    spin->setKeyboardTracking(false);
    if (member) {
        fields_.push_back({spin, member, scale, description});
        const size_t index = fields_.size() - 1;
        connect(spin, &QDoubleSpinBox::valueChanged, this,
                [this, index](double) { costSpinEdited(fields_[index]); });
    }
    return spin;
}

QWidget *CostView::buildReportPage()
{
    auto *page = new QWidget;

    verdict_ = outputLabel(QStringLiteral("costVerdict"), page);
    QFont big = verdict_->font();
    big.setBold(true);
    if (big.pointSizeF() > 0)
        big.setPointSizeF(big.pointSizeF() * 1.4);
    verdict_->setFont(big);
    verdict_detail_ = outputLabel(QStringLiteral("costVerdictDetail"), page);
    rule_of_thumb_ = outputLabel(QStringLiteral("costRuleOfThumb"), page);

    // Inputs: the scenario's cost section.
    auto *inputs = new QGroupBox(tr("Prices and work"), page);
    auto *in_form = new QFormLayout(inputs);
    const QString usd_suffix = tr(" USD");
    in_form->addRow(tr("&GPU price:"),
                    gpu_price_ = addCostSpin(
                        "gpuPriceSpin", &CostSpec::gpu_price_usd, 0, 1e9, 0, 100, usd_suffix,
                        tr("Price of one GPU (0 to 1,000,000,000 USD)"), tr("Change GPU price")));
    in_form->addRow(tr("Ser&ver price:"),
                    addCostSpin("serverPriceSpin", &CostSpec::server_price_usd, 0, 1e9, 0, 100,
                                tr(" USD per node"),
                                tr("Price of one server (node) beyond its GPUs (0 to "
                                   "1,000,000,000 USD)"),
                                tr("Change server price")));
    in_form->addRow(tr("A&mortisation:"),
                    addCostSpin("amortisationSpin", &CostSpec::amortisation_years, 0.1, 50, 1, 0.5,
                                tr(" years"),
                                tr("Years over which the hardware is written off (0.1 to 50)"),
                                tr("Change amortisation period")));
    in_form->addRow(tr("Po&wer price:"),
                    power_price_ = addCostSpin("powerPriceSpin", &CostSpec::power_price_per_kwh, 0,
                                               100, 3, 0.01, tr(" USD/kWh"),
                                               tr("Electricity price (0 to 100 USD per kWh)"),
                                               tr("Change power price")));
    in_form->addRow(tr("P&UE:"),
                    addCostSpin("pueSpin", &CostSpec::pue, 1, 5, 2, 0.05, QString(),
                                tr("Power usage effectiveness: facility power over IT power (1 "
                                   "to 5; 1.58 is the 2023 average)"),
                                tr("Change PUE")));
    in_form->addRow(tr("&Cloud price:"),
                    cloud_price_ =
                        addCostSpin("cloudPriceSpin", &CostSpec::cloud_price_per_gpu_hour, 0, 1e4,
                                    2, 0.1, tr(" USD per GPU-hour"),
                                    tr("Rent of one cloud GPU for an hour (0 to 10,000 USD)"),
                                    tr("Change cloud price")));

    work_kind_ = new QComboBox(page);
    work_kind_->setObjectName(QStringLiteral("workKindCombo"));
    work_kind_->addItem(tr("Tokens"), int(WorkKind::Tokens));
    work_kind_->addItem(tr("Epochs × samples"), int(WorkKind::Epochs));
    work_kind_->addItem(tr("Steps"), int(WorkKind::Steps));
    work_kind_->setToolTip(tr("How the work of one training run is given"));
    connect(work_kind_, &QComboBox::currentIndexChanged, this, [this](int) { workKindEdited(); });
    in_form->addRow(tr("&Work per run:"), work_kind_);
    work_tokens_ = addCostSpin("tokensSpin", &CostSpec::tokens, 1e6 / tokenUnit(),
                               1e18 / tokenUnit(), tokenDecimals(), 1, tokenSuffix(),
                               tr("Tokens to train per run, in billions (0.001 to 1,000,000,000; "
                                  "transformers only)"),
                               tr("Change tokens per run"), tokenUnit());
    work_tokens_->setValue(10e9 / tokenUnit());
    in_form->addRow(tr("T&okens:"), work_tokens_);
    work_epochs_ = addCostSpin("epochsSpin", &CostSpec::epochs, 0.01, 1e6, 2, 1, tr(" epochs"),
                               tr("Passes over the data set per run (0.01 to 1,000,000)"),
                               tr("Change epochs per run"));
    work_epochs_->setValue(10);
    in_form->addRow(tr("&Epochs:"), work_epochs_);
    work_samples_ = addCostSpin("samplesPerEpochSpin", &CostSpec::samples_per_epoch, 1, 1e15, 0,
                                1000, tr(" samples"), tr("Samples in one epoch (1 to 1e15)"),
                                tr("Change samples per epoch"));
    work_samples_->setValue(1'000'000);
    in_form->addRow(tr("Samples per e&poch:"), work_samples_);
    work_steps_ =
        addCostSpin("stepsSpin", &CostSpec::steps, 1, 1e15, 0, 1000, tr(" steps"),
                    tr("Optimizer steps per run (1 to 1e15)"), tr("Change steps per run"));
    work_steps_->setValue(10'000);
    in_form->addRow(tr("S&teps:"), work_steps_);
    in_form->addRow(tr("&Runs per month:"),
                    addCostSpin("runsPerMonthSpin", &CostSpec::runs_per_month, 0.01, 1e6, 2, 1,
                                tr(" runs"), tr("Training runs a month (0.01 to 1,000,000)"),
                                tr("Change runs per month")));
    in_form->addRow(tr("M&igration:"),
                    addCostSpin("migrationDaysSpin", &CostSpec::migration_days, 0, 3650, 1, 0.5,
                                tr(" days"),
                                tr("Engineering days to move the job to several GPUs (0 to "
                                   "3,650)"),
                                tr("Change migration days")));
    in_form->addRow(tr("&Day rate:"),
                    day_rate_ = addCostSpin(
                        "dayRateSpin", &CostSpec::day_rate_usd, 0, 1e6, 0, 50, tr(" USD/day"),
                        tr("Cost of one engineering day; waiting is valued at a "
                           "eighth of it per hour (0 to 1,000,000 USD)"),
                        tr("Change day rate")));

    // A price of 0 is no price: the spin box says so (and the verdict waits for it).
    for (QDoubleSpinBox *spin : {gpu_price_, cloud_price_, power_price_, day_rate_})
        spin->setSpecialValueText(tr("not set"));

    // Outputs: the report.
    auto *outputs = new QGroupBox(tr("Time, energy and money"), page);
    auto *out_form = new QFormLayout(outputs);
    steps_per_run_ = outputLabel(QStringLiteral("stepsPerRun"), outputs);
    time_to_train_ = outputLabel(QStringLiteral("timeToTrain"), outputs);
    gpu_hours_per_run_ = outputLabel(QStringLiteral("gpuHoursPerRun"), outputs);
    energy_ = outputLabel(QStringLiteral("energyPerRunReport"), outputs);
    power_ = outputLabel(QStringLiteral("powerUse"), outputs);
    capital_ = outputLabel(QStringLiteral("capital"), outputs);
    cost_per_month_ = outputLabel(QStringLiteral("costPerMonth"), outputs);
    cost_per_run_ = outputLabel(QStringLiteral("costPerRun"), outputs);
    break_even_ = outputLabel(QStringLiteral("breakEven"), outputs);
    migration_ = outputLabel(QStringLiteral("migrationCost"), outputs);
    hours_saved_ = outputLabel(QStringLiteral("hoursSaved"), outputs);
    out_form->addRow(tr("Steps per run:"), steps_per_run_);
    out_form->addRow(tr("Time to train:"), time_to_train_);
    out_form->addRow(tr("GPU-hours per run:"), gpu_hours_per_run_);
    out_form->addRow(tr("Energy per run:"), energy_);
    out_form->addRow(tr("Power:"), power_);
    out_form->addRow(tr("Hardware:"), capital_);
    out_form->addRow(tr("Per month:"), cost_per_month_);
    out_form->addRow(tr("Per run:"), cost_per_run_);
    out_form->addRow(tr("Break-even:"), break_even_);
    out_form->addRow(tr("Migration:"), migration_);
    out_form->addRow(tr("Waiting saved:"), hours_saved_);

    auto *advice_box = new QGroupBox(tr("Advice"), page);
    advice_ = outputLabel(QStringLiteral("costAdvice"), advice_box);
    advice_->setTextFormat(Qt::PlainText);
    auto *advice_layout = new QVBoxLayout(advice_box);
    advice_layout->addWidget(advice_);

    auto *columns = new QHBoxLayout;
    columns->addWidget(inputs, 1);
    auto *right = new QVBoxLayout;
    right->addWidget(outputs);
    right->addWidget(advice_box);
    right->addStretch(1);
    columns->addLayout(right, 2);

    auto *layout = new QVBoxLayout(page);
    layout->addWidget(verdict_);
    layout->addWidget(verdict_detail_);
    layout->addWidget(rule_of_thumb_);
    layout->addLayout(columns, 1);

    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("costReport"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(page);
    return scroll;
}

CostView::RunLength CostView::runLength() const
{
    return RunLength(run_length_->currentData().toInt());
}

void CostView::setRunLength(RunLength mode)
{
    run_length_->setCurrentIndex(run_length_->findData(int(mode)));
}

void CostView::setRunSteps(int steps)
{
    steps_->setValue(steps);
}

void CostView::setRunTokensBillions(double tokens_billions)
{
    tokens_->setValue(tokens_billions * 1e9 / tokenUnit());
}

void CostView::setPricePerKwh(double price)
{
    price_->setValue(price);
}

bool CostView::showsReport() const
{
    return stack_->currentWidget() == report_page_;
}

QString CostView::verdictText() const
{
    return showsReport() ? verdict_->text() : QString();
}

CostView::WorkKind CostView::workKind() const
{
    return WorkKind(work_kind_->currentData().toInt());
}

void CostView::setResult(const ResultPtr &result)
{
    result_ = result;
    const QString message = emptyStateMessage(result_);
    if (!message.isEmpty()) {
        message_->setText(message);
        steps_from_tokens_->clear();
        stack_->setCurrentWidget(message_);
        return;
    }
    if (!result_->cost()) {
        updateEngineOutputs();
        stack_->setCurrentWidget(engine_page_);
        return;
    }
    spec_ = result_->scenario.cost.value_or(CostSpec{});
    showCostSpec();
    report_ = *result_->cost(); // every stage of the evaluation carries it
    showReport(report_);
    stack_->setCurrentWidget(report_page_);
    markMissingPrices(report_.verdict);
}

double CostView::runSteps() const
{
    if (runLength() == RunLength::Tokens && hasTokens(result_))
        return stepsForTokens(tokens_->value() * tokenUnit(),
                              result_->scenario.training.global_batch,
                              result_->scenario.model.transformer.seq_len);
    return steps_->value();
}

CostReport CostView::engineReport() const
{
    if (!result_ || !result_->ok())
        return {};
    // The full cost model with what this page asks for; the prices it does not ask for stay
    // 0, so its verdict is "no verdict" (and not shown here).
    CostSpec spec;
    spec.steps = runSteps();
    spec.power_price_per_kwh = price_->value();
    return costReport(result_->scenario, spec, result_->summary(),
                      costBaseline(result_->reference(), result_->summary()));
}

void CostView::updateEngineOutputs()
{
    const bool tokens_possible = hasTokens(result_);
    // The Tokens entry is offered only where tokens mean something.
    if (auto *model = qobject_cast<QStandardItemModel *>(run_length_->model()); model)
        model->item(1)->setEnabled(tokens_possible || runLength() == RunLength::Tokens);
    const bool by_tokens = runLength() == RunLength::Tokens;
    steps_->setEnabled(!by_tokens || !tokens_possible);
    tokens_->setEnabled(by_tokens && tokens_possible);
    if (!emptyStateMessage(result_).isEmpty())
        return;

    const CostReport r = engineReport();
    const QLocale locale;
    if (by_tokens && tokens_possible)
        steps_from_tokens_->setText(
            tr("= %1 steps of %2 samples × %3 tokens")
                .arg(locale.toString(r.steps_per_run, 'f', 0),
                     locale.toString(qlonglong(result_->scenario.training.global_batch)),
                     locale.toString(qlonglong(result_->scenario.model.transformer.seq_len))));
    else if (by_tokens)
        steps_from_tokens_->setText(tr("Tokens need a transformer model; using the steps."));
    else
        steps_from_tokens_->clear();

    time_per_step_->setText(formatRunDuration(r.step_time_s));
    // Goodput 0: failures come faster than checkpoints can be written; the run never ends.
    const bool never = !std::isfinite(r.time_to_train_h);
    const QString never_text = tr("never ends: failures come faster than checkpoints");
    time_per_run_->setText(never ? never_text : formatRunDuration(r.time_to_train_h * 3600.0));
    gpu_hours_->setText(never ? QStringLiteral("—")
                              : tr("%1 GPU-h").arg(figure(r.gpu_hours_per_run, 1)));
    const QString gpu_name = QString::fromStdString(result_->scenario.hardware.gpu.name);
    const QString goodput_note =
        r.goodput < 1 ? QLatin1Char(' ') + tr("The time per run includes failures, restarts and "
                                              "checkpoints: %1% of the time is useful.")
                                               .arg(locale.toString(100.0 * r.goodput, 'f', 1))
                      : QString();
    if (r.energy_known) {
        energy_per_step_->setText(tr("%1 kWh").arg(locale.toString(r.energy_kwh_per_step, 'g', 3)));
        energy_per_run_->setText(tr("%1 kWh").arg(figure(r.energy_kwh_per_run, 1)));
        electricity_cost_->setText(tr("%1 (at %2 per kWh)")
                                       .arg(locale.toString(r.energy_cost_per_run_usd, 'f', 2),
                                            locale.toString(price_->value(), 'f', 3)));
        QString text =
            tr("Energy = GPUs (%1) × board power (%2 W: an idle draw of 30% of the %3's TDP, the "
               "rest in proportion to the compute share of the step, %4%) × time × PUE %5 (the "
               "cost section's default: cooling and power delivery). Cloud and ownership costs "
               "are in the full cost report: add a cost section.")
                .arg(locale.toString(r.gpus), locale.toString(r.power_per_gpu_w, 'f', 0), gpu_name,
                     locale.toString(100.0 * r.utilisation, 'f', 0),
                     locale.toString(CostSpec{}.pue, 'f', 2));
        assumption_->setText(text + goodput_note);
    } else {
        const QString unknown = tr("unknown");
        energy_per_step_->setText(unknown);
        energy_per_run_->setText(unknown);
        electricity_cost_->setText(unknown);
        assumption_->setText(tr("The board power (TDP) of the %1 is not known, so energy cannot "
                                "be estimated.")
                                 .arg(gpu_name) +
                             goodput_note);
    }
}

void CostView::showCostSpec()
{
    updating_ = true;
    for (const CostField &f : fields_) {
        const double value = spec_.*(f.member) / f.scale;
        // The inactive ways of stating the work keep what they showed (they are 0 in spec_).
        if (value > 0 || (f.spin != work_tokens_ && f.spin != work_epochs_ &&
                          f.spin != work_samples_ && f.spin != work_steps_))
            f.spin->setValue(value);
    }
    const WorkKind kind = spec_.tokens > 0   ? WorkKind::Tokens
                          : spec_.epochs > 0 ? WorkKind::Epochs
                                             : WorkKind::Steps;
    const bool tokens_possible =
        result_->scenario.model.kind == ModelSpec::Kind::Transformer || kind == WorkKind::Tokens;
    if (auto *model = qobject_cast<QStandardItemModel *>(work_kind_->model()); model)
        model->item(work_kind_->findData(int(WorkKind::Tokens)))->setEnabled(tokens_possible);
    work_kind_->setCurrentIndex(work_kind_->findData(int(kind)));
    enableWorkSpins();
    updating_ = false;
}

void CostView::enableWorkSpins()
{
    const WorkKind kind = workKind();
    work_tokens_->setEnabled(kind == WorkKind::Tokens);
    work_epochs_->setEnabled(kind == WorkKind::Epochs);
    work_samples_->setEnabled(kind == WorkKind::Epochs);
    work_steps_->setEnabled(kind == WorkKind::Steps);
}

void CostView::costSpinEdited(const CostField &field)
{
    if (updating_)
        return;
    const double value = field.spin->value() * field.scale;
    if (spec_.*(field.member) == value)
        return;
    spec_.*(field.member) = value;
    Q_EMIT costEdited(spec_, field.description);
}

void CostView::workKindEdited()
{
    enableWorkSpins();
    if (updating_)
        return;
    spec_.tokens = spec_.epochs = spec_.samples_per_epoch = spec_.steps = 0;
    QString description;
    switch (workKind()) {
    case WorkKind::Tokens:
        spec_.tokens = work_tokens_->value() * tokenUnit();
        description = tr("Give the work per run in tokens");
        break;
    case WorkKind::Epochs:
        spec_.epochs = work_epochs_->value();
        spec_.samples_per_epoch = work_samples_->value();
        description = tr("Give the work per run in epochs");
        break;
    case WorkKind::Steps:
        spec_.steps = work_steps_->value();
        description = tr("Give the work per run in steps");
        break;
    }
    Q_EMIT costEdited(spec_, description);
}

void CostView::addCostSection()
{
    // The format's documented defaults (docs/scenario.md: amortisation, PUE, migration, day
    // rate) with the power price and run length this page showed. The GPU and cloud prices
    // have no default: they stay 0, which the report shows as "not set", and the verdict waits
    // for them (markMissingPrices opens the first one for typing).
    CostSpec spec;
    spec.power_price_per_kwh = price_->value();
    if (runLength() == RunLength::Tokens && hasTokens(result_))
        spec.tokens = tokens_->value() * tokenUnit();
    else
        spec.steps = steps_->value();
    focus_missing_ = true;
    Q_EMIT costEdited(spec, tr("Add a cost section"));
}

void CostView::markMissingPrices(const CostVerdict &v)
{
    const struct {
        QDoubleSpinBox *spin;
        CostInput input;
    } prices[] = {{gpu_price_, CostInput::GpuPrice},
                  {cloud_price_, CostInput::CloudPrice},
                  {power_price_, CostInput::PowerPrice},
                  {day_rate_, CostInput::DayRate}};
    QDoubleSpinBox *first = nullptr;
    for (const auto &p : prices) {
        const bool missing = v.decision == CostDecision::NoVerdict && v.isMissing(p.input);
        p.spin->setProperty("missingPrice", missing);
        p.spin->setStyleSheet(missing ? QStringLiteral("QDoubleSpinBox { border: 2px solid "
                                                       "#c77c00; }")
                                      : QString());
        if (missing && !first)
            first = p.spin;
    }
    if (focus_missing_ && first) {
        first->setFocus(Qt::OtherFocusReason);
        first->selectAll();
    }
    focus_missing_ = false;
}

void CostView::showReport(const CostReport &r)
{
    const QLocale locale;
    const CostVerdict &v = r.verdict;
    const QString where = v.venue == CostVenue::Own ? tr("buy and own") : tr("rent in the cloud");
    QString headline, detail;
    QColor color = palette().color(QPalette::WindowText);
    switch (v.decision) {
    case CostDecision::NoVerdict: {
        QStringList missing;
        for (int i = 0; i < kCostInputCount; ++i)
            if (v.isMissing(CostInput(i)))
                missing.append(costInputName(CostInput(i)));
        headline = tr("No verdict: prices missing");
        color = QColor(0xc7, 0x7c, 0x00);
        detail = tr("Enter %1 for a verdict: a price of 0 counts as not set. The power price, "
                    "PUE, amortisation, migration days and day rate start at the scenario "
                    "format's documented defaults; change them to yours.")
                     .arg(locale.createSeparatedList(missing));
        break;
    }
    case CostDecision::AtReference:
        headline = r.reference_gpus <= 1
                       ? tr("1 GPU: %1").arg(where)
                       : tr("%1 GPUs, the fewest that fit: %2").arg(locale.toString(r.gpus), where);
        break;
    case CostDecision::DoesNotFit:
        headline = tr("%1: not worth it — the plan does not fit in memory").arg(gpuCount(r.gpus));
        color = QColor(0xc6, 0x28, 0x28);
        detail = tr("Each GPU would need %1 GiB of its %2 GiB: this plan does not run, whatever it "
                    "costs.")
                     .arg(locale.toString(r.memory_total_bytes / kBytesPerGiB, 'f', 1),
                          locale.toString(r.memory_capacity_bytes / kBytesPerGiB, 'f', 1));
        break;
    case CostDecision::MoreGpusPay:
    case CostDecision::MoreGpusDoNotPay: {
        const bool pay = v.decision == CostDecision::MoreGpusPay;
        headline = (pay ? tr("%1 GPUs: worth it — %2") : tr("%1 GPUs: not worth it — %2"))
                       .arg(locale.toString(r.gpus), where);
        color = pay ? QColor(0x1b, 0x7f, 0x3b) : QColor(0xc6, 0x28, 0x28);
        detail = tr("They save %1 of waiting a month, worth %2 at %3 an hour (the day rate "
                    "over 8 hours), against %4 a month more: %5 of hardware or cloud time and "
                    "%6 of migration spread over the amortisation period.")
                     .arg(hours(v.waiting_saved_h_per_month), usd(v.waiting_value_usd_per_month),
                          usd(v.hour_value_usd), usd(v.extra_cost_usd_per_month),
                          usd(v.hardware_extra_usd_per_month), usd(v.migration_usd_per_month));
        break;
    }
    }
    // Goodput 0: there are no costs to compare, the run does not end (economics.cpp), so
    // no venue is cheaper (both costs are infinite; "rent in the cloud" was a tie's default).
    if (!std::isfinite(r.time_to_train_h) && v.decision != CostDecision::NoVerdict) {
        headline = tr("%1: not worth it — the run never ends").arg(gpuCount(r.gpus));
        detail = tr("The run never ends on %1: failures come faster than checkpoints "
                    "can be written (goodput 0).")
                     .arg(gpuCount(r.gpus));
    }
    // The count of the scaling sweep that pays best, where it is not this one (economics.h):
    // named in the headline too (issue 26, finding 3: "16 GPUs: worth it" read as advice
    // where 8 were faster for half the hardware).
    if (r.best &&
        (v.decision == CostDecision::MoreGpusPay || v.decision == CostDecision::MoreGpusDoNotPay) &&
        std::isfinite(r.time_to_train_h)) {
        const bool pay = v.decision == CostDecision::MoreGpusPay;
        headline = (pay ? tr("%1 GPUs: worth it, but %2 GPUs pay best — %3")
                        : tr("%1 GPUs: not worth it; %2 GPUs pay best — %3"))
                       .arg(locale.toString(r.gpus), locale.toString(r.best->gpus), where);
    }
    if (r.best) {
        const SweepCostChoice &b = *r.best;
        const QString best =
            tr("Best on the scaling sweep: %1 GPUs, %2× as fast as %3 GPUs at %4 a month, "
               "%5 a month better than %3 GPUs.")
                .arg(locale.toString(b.gpus), locale.toString(b.faster_than_scenario, 'f', 2),
                     locale.toString(r.gpus), usd(b.cost_usd_per_month), usd(b.gain_usd_per_month));
        detail = detail.isEmpty() ? best : detail + QLatin1Char(' ') + best;
    }
    // Over the capacity by less than the model's memory error the run may fit: the verdict is
    // given as if it ran, and says so (CostReport::may_not_fit).
    if (r.may_not_fit && v.decision != CostDecision::NoVerdict) {
        const QString caveat =
            tr("It may not fit in memory (%1 of %2 GiB per GPU, within the model's %3 % memory "
               "error): the verdict takes it as running.")
                .arg(locale.toString(r.memory_total_bytes / kBytesPerGiB, 'f', 1),
                     locale.toString(r.memory_capacity_bytes / kBytesPerGiB, 'f', 1),
                     memoryErrorPercent());
        detail = detail.isEmpty() ? caveat : detail + QLatin1Char(' ') + caveat;
    }
    verdict_->setText(headline);
    verdict_->setStyleSheet(QStringLiteral("color: %1;").arg(color.name()));
    verdict_detail_->setText(detail);

    // The rule of thumb beside the comparison, and why they differ.
    const QString suggested = v.recommended_gpus >= 8   ? tr("8+ GPUs")
                              : v.recommended_gpus <= 1 ? tr("1 GPU")
                                                        : tr("%1 GPUs").arg(v.recommended_gpus);
    const QString use = figure(r.usage_hours_per_month, 0);
    const QString takes =
        r.reference_gpus <= 1
            ? tr("the job takes %1 on one GPU").arg(durationBand(v.duration))
            : tr("the job takes %1 of GPU time (%2 GPUs hold the model)")
                  .arg(durationBand(v.duration), locale.toString(r.reference_gpus));
    // One break-even on the page (issue 26: "over about 200" here disagreed with the
    // Break-even line): the rule's own 200 hours only while the prices give none.
    const bool priced = !v.isMissing(CostInput::GpuPrice) && !v.isMissing(CostInput::PowerPrice) &&
                        !v.isMissing(CostInput::CloudPrice);
    const QString venue =
        priced
            ? (v.rule_own
                   ? tr("at %1 hours of use a month the rule says owning pays").arg(use)
                   : tr("at %1 hours of use a month the rule says renting is cheaper").arg(use))
            : (v.rule_own ? tr("at %1 hours of use a month owning pays (over about 200)").arg(use)
                          : tr("at %1 hours of use a month renting is cheaper (owning pays "
                               "over about 200)")
                                .arg(use));
    QString rule = tr("Rule of thumb: %1, %2, so the decision table suggests %3; %4.")
                       .arg(takes, usageBand(v.usage), suggested, venue);
    if (v.gap == RuleGap::WaitingValued)
        rule += QLatin1Char(' ') +
                tr("The verdict differs: the rule counts GPU-hours, not the %1 of waiting a "
                   "month the %2 GPUs save, worth %3 against %4.")
                    .arg(hours(v.waiting_saved_h_per_month), locale.toString(r.gpus),
                         usd(v.waiting_value_usd_per_month), usd(v.extra_cost_usd_per_month));
    else if (v.gap == RuleGap::CostOutweighs)
        rule += QLatin1Char(' ') +
                tr("The verdict differs: the %1 GPUs add %2 a month, more than the %3 of waiting "
                   "they save is worth (%4).")
                    .arg(locale.toString(r.gpus), usd(v.extra_cost_usd_per_month),
                         hours(v.waiting_saved_h_per_month), usd(v.waiting_value_usd_per_month));
    if (v.venue_differs && priced)
        rule += QLatin1Char(' ') + tr("At these prices the break-even below says otherwise.");
    rule_of_thumb_->setText(rule);

    steps_per_run_->setText(tr("%1 steps").arg(locale.toString(r.steps_per_run, 'f', 0)));
    const double faster = r.time_to_train_h > 0 ? r.reference_time_h / r.time_to_train_h : 0;
    const QString reference =
        r.reference_gpus <= 1
            ? tr("one GPU")
            : tr("%1 GPUs, the fewest that fit").arg(locale.toString(r.reference_gpus));
    if (!std::isfinite(r.time_to_train_h)) {
        time_to_train_->setText(tr("never ends on %1: failures come faster than "
                                   "checkpoints; %2 on %3")
                                    .arg(gpuCount(r.gpus), hours(r.reference_time_h), reference));
        gpu_hours_per_run_->setText(QStringLiteral("—"));
    } else if (r.gpus <= r.reference_gpus) { // the run is its own reference
        time_to_train_->setText(tr("%1 on %2").arg(hours(r.time_to_train_h), gpuCount(r.gpus)));
        gpu_hours_per_run_->setText(tr("%1 GPU-h").arg(figure(r.gpu_hours_per_run, 1)));
    } else {
        time_to_train_->setText(tr("%1 on %2; %3 on %5 (%4× faster)")
                                    .arg(hours(r.time_to_train_h), gpuCount(r.gpus),
                                         hours(r.reference_time_h), locale.toString(faster, 'f', 1),
                                         reference));
        gpu_hours_per_run_->setText(tr("%1 GPU-h").arg(figure(r.gpu_hours_per_run, 1)));
    }
    energy_->setText(tr("%1 kWh, %2 of electricity")
                         .arg(figure(r.energy_kwh_per_run, 1),
                              v.isMissing(CostInput::PowerPrice) ? tr("— (price not set)")
                                                                 : usd(r.energy_cost_per_run_usd)));
    power_->setText(tr("%1 W per GPU at %2 % utilisation (compute share of the step; idle draws "
                       "%3 % of TDP), PUE %4")
                        .arg(locale.toString(r.power_per_gpu_w, 'f', 0),
                             locale.toString(r.utilisation * 100.0, 'f', 0),
                             locale.toString(kIdlePowerShare * 100.0, 'f', 0),
                             locale.toString(spec_.pue, 'f', 2)));
    // Figures that rest on a price that is not set are not shown as if it were 0.
    const bool own_known = !v.isMissing(CostInput::GpuPrice) && !v.isMissing(CostInput::PowerPrice);
    const bool rent_known = !v.isMissing(CostInput::CloudPrice);
    const QString not_set = tr("— (price not set)");
    auto own_usd = [&](double value) { return own_known ? usd(value) : not_set; };
    auto rent_usd = [&](double value) { return rent_known ? usd(value) : not_set; };
    capital_->setText(
        v.isMissing(CostInput::GpuPrice)
            ? not_set
            : tr("%1, written off over %2 years")
                  .arg(usd(r.capital_usd), locale.toString(spec_.amortisation_years, 'g', 3)));
    cost_per_month_->setText(tr("own %1, rent %2 (%3 machine-hours)")
                                 .arg(own_usd(r.own_cost_per_month_usd),
                                      rent_usd(r.rent_cost_per_month_usd),
                                      figure(r.usage_hours_per_month, 0)));
    cost_per_run_->setText(
        tr("own %1, rent %2")
            .arg(own_usd(r.own_cost_per_run_usd), rent_usd(r.rent_cost_per_run_usd)));
    if (!own_known || !rent_known)
        break_even_->setText(not_set);
    else if (std::isfinite(r.break_even_hours_per_month))
        break_even_->setText(tr("owning pays above %1 machine-hours a month (this job: %2)")
                                 .arg(locale.toString(r.break_even_hours_per_month, 'f', 0),
                                      figure(r.usage_hours_per_month, 0)));
    else
        break_even_->setText(tr("never: renting is cheaper at any usage"));
    migration_->setText(r.gpus > r.reference_gpus
                            ? tr("%1 (%2 days at %3 a day)")
                                  .arg(usd(r.migration_cost_usd),
                                       locale.toString(spec_.migration_days, 'g', 4),
                                       usd(spec_.day_rate_usd))
                            : tr("none (the reference itself)"));
    hours_saved_->setText(
        tr("%1 a month against %2").arg(hours(r.hours_saved_per_month), reference));
    QStringList advice;
    for (const Advice &a : r.advice)
        advice.append(QStringLiteral("• ") + translatedAdvice(a));
    advice_->setText(advice.join(QLatin1Char('\n')));
}

} // namespace scalescope
