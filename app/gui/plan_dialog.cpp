#include "plan_dialog.h"

#include "recompute.h"
#include "timeline/timeline_format.h"

#include "io/scenario_io.h"
#include "model_text.h"

#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFont>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace scalescope
{

namespace
{

QString scheduleText(const PlanCandidate &c)
{
    if (c.parallel.pipeline <= 1)
        return PlanDialog::tr("none");
    switch (c.parallel.schedule) {
    case Schedule::GPipe:
        return PlanDialog::tr("GPipe");
    case Schedule::OneFOneB:
        return PlanDialog::tr("1F1B");
    case Schedule::Interleaved:
        return PlanDialog::tr("interleaved, %1 virtual").arg(c.parallel.virtual_stages);
    case Schedule::ZbH1:
        return PlanDialog::tr("zero bubble (ZB-H1)");
    case Schedule::ZbV:
        return PlanDialog::tr("zero bubble V (ZB-V)");
    case Schedule::DualPipe:
        return PlanDialog::tr("DualPipe");
    }
    return QString();
}

QString recomputeText(Recompute r)
{
    switch (r) {
    case Recompute::None:
        return PlanDialog::tr("none");
    case Recompute::Selective:
        return PlanDialog::tr("selective");
    case Recompute::Full:
        return PlanDialog::tr("full");
    }
    return QString();
}

constexpr int kMaxSearchGpus = static_cast<int>(kMaxGpuCount);

PlanSearchRun timedSearch(const PlanDialog::SearchFunction &search, const Scenario &base,
                          const PlanSearchOptions &options)
{
    PlanSearchRun run;
    run.gpus = options.gpus;
    run.top_k = options.top_k;
    QElapsedTimer timer;
    timer.start();
    Result<PlanSearchResult> found = search(base, options);
    run.elapsed_ms = static_cast<double>(timer.nsecsElapsed()) / 1e6;
    if (found) {
        run.result = std::move(found).value();
    } else {
        run.error_field = planErrorField(found.error().path);
        run.error_message = QString::fromStdString(found.error().message);
    }
    return run;
}

} // namespace

PlanSearchRun runPlanSearch(const Scenario &base, const PlanSearchOptions &options)
{
    return timedSearch(searchPlans, base, options);
}

QString planErrorField(const std::string &path)
{
    if (path == kRequestedGpusPath)
        return PlanDialog::tr("GPU count");
    if (path == "--top" || path == "top_k")
        return PlanDialog::tr("Plans shown");
    if (path == "collective")
        return PlanDialog::tr("Scenario");
    return QString::fromStdString(path);
}

QString planSummaryText(const PlanSearchRun &run)
{
    if (!run.ok()) {
        if (run.error_field.isEmpty())
            return run.error_message;
        return PlanDialog::tr("%1: %2").arg(run.error_field, run.error_message);
    }
    const QLocale locale;
    const PlanSearchResult &r = *run.result;
    const size_t fit = r.considered - std::min(r.considered, r.out_of_memory);
    const QString ms = locale.toString(run.elapsed_ms, 'f', run.elapsed_ms < 10 ? 1 : 0);
    if (r.cancelled)
        return PlanDialog::tr(
                   "Search cancelled after %1 plans (%2 ms); the best of those are shown.")
            .arg(locale.toString(static_cast<qulonglong>(r.considered)), ms);
    QString text =
        PlanDialog::tr("%1 plans considered, %2 fit in memory, %3 dropped for memory, %4 ms")
            .arg(locale.toString(static_cast<qulonglong>(r.considered)),
                 locale.toString(static_cast<qulonglong>(fit)),
                 locale.toString(static_cast<qulonglong>(r.out_of_memory)), ms);
    if (r.best.empty())
        text +=
            QLatin1Char('\n') +
            PlanDialog::tr("No plan fits in memory on %1 GPUs: try more GPUs or a smaller model.")
                .arg(run.gpus);
    return text;
}

bool isCurrentPlan(const Scenario &scenario, int gpus, const PlanCandidate &c)
{
    const int own_gpus = scenario.hardware.gpuCount();
    if (gpus != own_gpus)
        return false;
    const ParallelSpec &p = scenario.parallel;
    const int tp = std::max(1, p.tensor) * std::max(1, p.pipeline);
    const int data = p.data > 0 ? p.data : own_gpus / tp;
    if (data != c.parallel.data || p.tensor != c.parallel.tensor ||
        p.pipeline != c.parallel.pipeline || p.zero != c.parallel.zero ||
        scenario.training.micro_batch != c.micro_batch ||
        scenario.training.recompute != c.recompute ||
        (c.recompute == Recompute::Selective &&
         scenario.training.recompute_modules != c.recompute_modules))
        return false;
    if (c.parallel.pipeline <= 1)
        return true; // the schedule does not matter without a pipeline
    if (p.schedule != c.parallel.schedule)
        return false;
    return p.schedule != Schedule::Interleaved || p.virtual_stages == c.parallel.virtual_stages;
}

// ---------------------------------------------------------------------------------------
// PlanTableModel

PlanTableModel::PlanTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void PlanTableModel::setCandidates(std::vector<PlanCandidate> candidates, int current_row)
{
    beginResetModel();
    rows_ = std::move(candidates);
    current_row_ =
        current_row >= 0 && current_row < static_cast<int>(rows_.size()) ? current_row : -1;
    endResetModel();
}

void PlanTableModel::clear()
{
    setCandidates({}, -1);
}

const PlanCandidate *PlanTableModel::candidate(int row) const
{
    if (row < 0 || row >= static_cast<int>(rows_.size()))
        return nullptr;
    return &rows_[static_cast<size_t>(row)];
}

int PlanTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int PlanTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PlanTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PlanCandidate &c = rows_[static_cast<size_t>(index.row())];
    const bool current = index.row() == current_row_;
    const QLocale locale;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case RankColumn:
            return current ? tr("%1 (current)").arg(index.row() + 1)
                           : QString::number(index.row() + 1);
        case DataColumn:
            return c.parallel.data;
        case TensorColumn:
            return c.parallel.tensor;
        case PipelineColumn:
            return c.parallel.pipeline;
        case ZeroColumn:
            return c.parallel.zero;
        case ScheduleColumn:
            return scheduleText(c);
        case MicroBatchColumn:
            return static_cast<qlonglong>(c.micro_batch);
        case RecomputeColumn:
            return c.recompute_modules != 0
                       ? PlanDialog::tr("%1 (%2)", "recompute and its modules")
                             .arg(recomputeText(c.recompute),
                                  QString::fromStdString(recomputeModuleList(c.recompute_modules)))
                       : recomputeText(c.recompute);
        case StepTimeColumn:
            // As the status bar shows it once the plan is applied.
            return c.simulated
                       ? formatStepTime(c.step_time_s)
                       : tr("≈ %1", "closed-form estimate").arg(formatStepTime(c.step_time_s));
        case SamplesPerSColumn:
            return locale.toString(c.samples_per_s, 'f', c.samples_per_s < 100 ? 2 : 1);
        case MfuColumn:
            return locale.toString(c.mfu * 100, 'f', 1);
        case MemoryColumn:
            return tr("%1 / %2").arg(locale.toString(c.memory_bytes / kBytesPerGiB, 'f', 1),
                                     locale.toString(c.capacity_bytes / kBytesPerGiB, 'f', 1));
        case BottleneckColumn:
            return translatedBottleneck(c.bottleneck);
        }
        break;
    case ValueRole:
        switch (index.column()) {
        case RankColumn:
            return index.row() + 1;
        case DataColumn:
            return c.parallel.data;
        case TensorColumn:
            return c.parallel.tensor;
        case PipelineColumn:
            return c.parallel.pipeline;
        case ZeroColumn:
            return c.parallel.zero;
        case ScheduleColumn:
            return static_cast<int>(c.parallel.schedule);
        case MicroBatchColumn:
            return static_cast<qlonglong>(c.micro_batch);
        case RecomputeColumn:
            return static_cast<int>(c.recompute) * 256 + static_cast<int>(c.recompute_modules);
        case StepTimeColumn:
            return c.step_time_s;
        case SamplesPerSColumn:
            return c.samples_per_s;
        case MfuColumn:
            return c.mfu;
        case MemoryColumn:
            return c.memory_bytes;
        case BottleneckColumn:
            return translatedBottleneck(c.bottleneck);
        }
        break;
    case IsCurrentRole:
        return current;
    case Qt::ToolTipRole:
        if (index.column() == BottleneckColumn)
            return translatedBottleneck(c.bottleneck);
        if (index.column() == StepTimeColumn)
            return c.simulated ? tr("Simulated, as the window shows it once the plan is applied")
                               : tr("Closed-form estimate (too large to simulate here)");
        if (current)
            return tr("The plan the scenario uses now");
        break;
    case Qt::FontRole:
        if (current) {
            QFont font;
            font.setBold(true);
            return font;
        }
        break;
    case Qt::TextAlignmentRole:
        if (index.column() == ScheduleColumn || index.column() == RecomputeColumn ||
            index.column() == BottleneckColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    default:
        break;
    }
    return {};
}

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case RankColumn:
            return tr("Rank");
        case DataColumn:
            return tr("Data (GPUs)");
        case TensorColumn:
            return tr("Tensor (GPUs)");
        case PipelineColumn:
            return tr("Pipeline (stages)");
        case ZeroColumn:
            return tr("ZeRO stage");
        case ScheduleColumn:
            return tr("Schedule");
        case MicroBatchColumn:
            return tr("Micro-batch (samples)");
        case RecomputeColumn:
            return tr("Recompute");
        case StepTimeColumn:
            return tr("Step time");
        case SamplesPerSColumn:
            return tr("Samples/s");
        case MfuColumn:
            return tr("MFU (%)");
        case MemoryColumn:
            return tr("Memory / capacity (GiB per GPU)");
        case BottleneckColumn:
            return tr("Bottleneck");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case DataColumn:
            return tr("Data-parallel degree: model replicas");
        case TensorColumn:
            return tr("Tensor-parallel degree: GPUs sharing each layer, inside a node");
        case PipelineColumn:
            return tr("Pipeline-parallel degree: stages of consecutive layers");
        case ZeroColumn:
            return tr("ZeRO stage: 0 none, 1 optimizer, 2 + gradients, 3 + parameters sharded");
        case MfuColumn:
            return tr("Model FLOPs utilisation: useful FLOPs over peak");
        case MemoryColumn:
            return tr("Memory of the most loaded GPU, and the GPU's capacity");
        default:
            break;
        }
    }
    return {};
}

// ---------------------------------------------------------------------------------------
// PlanDialog

PlanDialog::PlanDialog(const Scenario &scenario, QWidget *parent, bool auto_start)
    : QDialog(parent), base_(scenario), search_(searchPlans)
{
    setObjectName(QStringLiteral("planDialog"));
    setWindowTitle(tr("Suggest plan"));

    gpus_spin_ = new QSpinBox(this);
    gpus_spin_->setObjectName(QStringLiteral("planGpusSpin"));
    gpus_spin_->setRange(1, kMaxSearchGpus);
    gpus_spin_->setValue(std::clamp(scenario.hardware.gpuCount(), 1, kMaxSearchGpus));
    gpus_spin_->setSuffix(tr(" GPUs"));
    gpus_spin_->setToolTip(tr("GPUs to plan for (1 to %1); above one node, a multiple of %2 "
                              "GPUs per node")
                               .arg(kMaxSearchGpus)
                               .arg(scenario.hardware.gpus_per_node));

    top_spin_ = new QSpinBox(this);
    top_spin_->setObjectName(QStringLiteral("planTopSpin"));
    top_spin_->setRange(1, 50);
    top_spin_->setValue(10);
    top_spin_->setSuffix(tr(" plans"));
    top_spin_->setToolTip(tr("How many of the fastest plans to list (1 to 50)"));

    search_button_ = new QPushButton(tr("&Search"), this);
    search_button_->setObjectName(QStringLiteral("planSearchButton"));
    search_button_->setDefault(true);
    cancel_button_ = new QPushButton(tr("&Cancel search"), this);
    cancel_button_->setObjectName(QStringLiteral("planCancelButton"));
    cancel_button_->setAutoDefault(false);
    cancel_button_->setEnabled(false);

    progress_ = new QProgressBar(this);
    progress_->setObjectName(QStringLiteral("planProgress"));
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    progress_->setFormat(QStringLiteral("%p%"));

    auto *form = new QFormLayout;
    auto *gpus_label = new QLabel(tr("&GPU count:"), this);
    gpus_label->setBuddy(gpus_spin_);
    auto *top_label = new QLabel(tr("&Plans shown:"), this);
    top_label->setBuddy(top_spin_);
    form->addRow(gpus_label, gpus_spin_);
    form->addRow(top_label, top_spin_);

    auto *controls = new QHBoxLayout;
    controls->addLayout(form);
    controls->addWidget(search_button_);
    controls->addWidget(progress_, 1);
    controls->addWidget(cancel_button_);

    model_ = new PlanTableModel(this);
    table_ = new QTableView(this);
    table_->setObjectName(QStringLiteral("planTable"));
    table_->setModel(model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(PlanTableModel::BottleneckColumn,
                                                     QHeaderView::Stretch);

    summary_ = new QLabel(this);
    summary_->setTextFormat(Qt::PlainText);
    summary_->setObjectName(QStringLiteral("planSummary"));
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    summary_palette_ = summary_->palette();

    auto *buttons = new QDialogButtonBox(this);
    apply_button_ = buttons->addButton(tr("&Apply plan"), QDialogButtonBox::AcceptRole);
    apply_button_->setObjectName(QStringLiteral("planApplyButton"));
    apply_button_->setAutoDefault(false);
    apply_button_->setEnabled(false);
    apply_button_->setToolTip(tr("Use the selected plan in the scenario"));
    QPushButton *close = buttons->addButton(QDialogButtonBox::Close);
    close->setAutoDefault(false);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(table_, 1);
    layout->addWidget(summary_);
    layout->addWidget(buttons);
    resize(1100, 460);

    connect(search_button_, &QPushButton::clicked, this, &PlanDialog::startSearch);
    connect(cancel_button_, &QPushButton::clicked, this, &PlanDialog::cancelSearch);
    connect(apply_button_, &QPushButton::clicked, this, &PlanDialog::applySelected);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    connect(table_, &QTableView::doubleClicked, this, &PlanDialog::applySelected);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &PlanDialog::updateApplyEnabled);
    connect(model_, &QAbstractItemModel::modelReset, this, &PlanDialog::updateApplyEnabled);

    if (auto_start)
        QTimer::singleShot(0, this, &PlanDialog::startSearch);
}

PlanDialog::~PlanDialog()
{
    stopWorker();
}

void PlanDialog::setSearchFunction(SearchFunction search)
{
    search_ = search ? std::move(search) : SearchFunction(searchPlans);
}

void PlanDialog::stopWorker()
{
    cancel_.store(true);
    if (worker_.joinable())
        worker_.join(); // the search checks the flag on every candidate: milliseconds
}

void PlanDialog::startSearch()
{
    stopWorker();
    const quint64 generation = ++generation_;
    cancel_.store(false);
    setSearching(true);
    progress_->setValue(0);
    showSummary(tr("Searching plans on %1 GPUs…").arg(gpus_spin_->value()), false);

    PlanSearchOptions options;
    options.gpus = gpus_spin_->value();
    options.top_k = top_spin_->value();
    options.cancel = &cancel_;
    // The best plans are simulated: the figures listed are those the applied plan shows.
    options.engine_check = true;
    options.engine_max_tasks = kGuiSweepMaxTasks;
    // The worker reads only its own copies (and the cancel flag, which outlives it: the
    // thread is joined before the flag or this dialog go away).
    worker_ = std::thread([this, generation, base = base_, options, search = search_]() mutable {
        int last_permille = -1; // only this thread touches it
        options.progress = [this, generation, &last_permille](double fraction) {
            const int permille = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 1000);
            if (permille == last_permille)
                return;
            last_permille = permille;
            QMetaObject::invokeMethod(
                this, [this, generation, permille] { onProgress(generation, permille); },
                Qt::QueuedConnection);
        };
        PlanSearchRun run = timedSearch(search, base, options);
        QMetaObject::invokeMethod(
            this, [this, generation, run = std::move(run)] { onFinished(generation, run); },
            Qt::QueuedConnection);
    });
}

void PlanDialog::cancelSearch()
{
    if (!searching_)
        return;
    cancel_.store(true);
    cancel_button_->setEnabled(false);
    showSummary(tr("Cancelling…"), false);
}

void PlanDialog::onProgress(quint64 generation, int permille)
{
    if (generation != generation_ || !searching_)
        return;
    progress_->setValue(permille);
}

void PlanDialog::onFinished(quint64 generation, PlanSearchRun run)
{
    if (generation != generation_)
        return; // a search that was replaced by a newer one
    if (worker_.joinable())
        worker_.join(); // it has posted its last call: returns at once
    setSearching(false);
    if (run.ok()) {
        std::vector<PlanCandidate> rows = run.result->best;
        int current = -1;
        for (size_t i = 0; i < rows.size(); ++i)
            if (isCurrentPlan(base_, run.gpus, rows[i])) {
                current = static_cast<int>(i);
                break;
            }
        table_gpus_ = run.gpus;
        model_->setCandidates(std::move(rows), current);
        if (!run.cancelled())
            progress_->setValue(progress_->maximum());
        if (model_->rowCount() > 0)
            table_->selectRow(0);
        showSummary(planSummaryText(run), false);
    } else {
        table_gpus_ = 0;
        model_->clear();
        progress_->setValue(0);
        showSummary(planSummaryText(run), true);
    }
    last_run_ = std::move(run);
    Q_EMIT searchFinished();
}

void PlanDialog::applySelected()
{
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty() || table_gpus_ <= 0)
        return;
    const PlanCandidate *c = model_->candidate(rows.first().row());
    if (!c)
        return;
    chosen_ = applyCandidate(base_, table_gpus_, *c);
    accept();
}

void PlanDialog::done(int result)
{
    stopWorker();
    if (searching_) {
        ++generation_; // drop the stopped search's queued calls
        setSearching(false);
        showSummary(tr("Search cancelled."), false);
    }
    QDialog::done(result);
}

void PlanDialog::setSearching(bool searching)
{
    searching_ = searching;
    cancel_button_->setEnabled(searching);
    updateApplyEnabled();
}

void PlanDialog::showSummary(const QString &text, bool error)
{
    QPalette palette = summary_palette_;
    if (error)
        palette.setColor(QPalette::WindowText, QColor(0xc6, 0x28, 0x28));
    summary_->setPalette(palette);
    summary_->setProperty("error", error);
    summary_->setText(text);
}

void PlanDialog::updateApplyEnabled()
{
    const bool selected =
        table_->selectionModel() && !table_->selectionModel()->selectedRows().isEmpty();
    apply_button_->setEnabled(selected && !searching_ && table_gpus_ > 0);
}

} // namespace scalescope
