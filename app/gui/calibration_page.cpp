#include "calibration_page.h"

#include "io/profile_io.h"

#include "plain_message.h"
#include "probe_runner.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QSplitter>
#include <QStackedWidget>
#include <QSysInfo>
#include <QTableView>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace scalescope
{

CalibrationPage::CalibrationPage(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("calibrationPage"));
    probe_program_ = gpuprobeProgram();
    runner_ = new ProbeRunner(this);
    list_model_ = new ProfileListModel(this);
    figure_model_ = new FigureTableModel(this);

    auto *outer = new QHBoxLayout(this);
    // Profiles and the probe on top, the selection's figures and chart below (the tab is
    // wide and short: both halves get the full width).
    auto *splitter = new QSplitter(Qt::Vertical);
    outer->addWidget(splitter);

    // Left: the profiles and the probe.
    auto *left = new QWidget;
    auto *left_layout = new QVBoxLayout(left);
    left_layout->setContentsMargins(0, 0, 0, 0);
    list_view_ = new QTableView;
    list_view_->setObjectName(QStringLiteral("profileList"));
    list_view_->setModel(list_model_);
    list_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    list_view_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    list_view_->horizontalHeader()->setStretchLastSection(true);
    list_view_->verticalHeader()->hide();
    list_view_->setToolTip(tr("Select one profile to inspect it, several (Ctrl+click) to "
                              "compare them"));
    left_layout->addWidget(list_view_, 1);

    applied_label_ = new QLabel;
    applied_label_->setTextFormat(Qt::PlainText);
    applied_label_->setObjectName(QStringLiteral("appliedProfileLabel"));
    applied_label_->setWordWrap(true);
    left_layout->addWidget(applied_label_);
    apply_report_ = new QLabel;
    apply_report_->setTextFormat(Qt::PlainText);
    apply_report_->setObjectName(QStringLiteral("applyReportLabel"));
    apply_report_->setWordWrap(true);
    apply_report_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    apply_report_->hide();
    left_layout->addWidget(apply_report_);

    auto *buttons = new QHBoxLayout;
    apply_button_ = new QPushButton(tr("Apply to scenario"));
    apply_button_->setObjectName(QStringLiteral("applyProfileButton"));
    datasheet_button_ = new QPushButton(tr("Use datasheet"));
    datasheet_button_->setObjectName(QStringLiteral("datasheetButton"));
    delete_button_ = new QPushButton(tr("Delete…"));
    delete_button_->setObjectName(QStringLiteral("deleteProfileButton"));
    buttons->addWidget(apply_button_);
    buttons->addWidget(datasheet_button_);
    buttons->addWidget(delete_button_);
    left_layout->addLayout(buttons);

    auto *probe_row = new QHBoxLayout;
    measure_button_ = new QPushButton(tr("Measure this machine…"));
    measure_button_->setObjectName(QStringLiteral("measureButton"));
    measure_button_->setToolTip(tr("Runs gpuprobe on the local GPUs and saves a profile"));
    quick_check_ = new QCheckBox(tr("Quick (≈30 s)"));
    quick_check_->setObjectName(QStringLiteral("quickCheck"));
    quick_check_->setChecked(true);
    import_button_ = new QPushButton(tr("Import nccl-tests logs…"));
    import_button_->setObjectName(QStringLiteral("importNcclButton"));
    cancel_button_ = new QPushButton(tr("Cancel"));
    cancel_button_->setObjectName(QStringLiteral("cancelProbeButton"));
    cancel_button_->setEnabled(false);
    probe_row->addWidget(measure_button_);
    probe_row->addWidget(quick_check_);
    probe_row->addWidget(import_button_);
    probe_row->addWidget(cancel_button_);
    left_layout->addLayout(probe_row);
    progress_ = new QProgressBar;
    progress_->setObjectName(QStringLiteral("probeProgress"));
    progress_->setRange(0, 1);
    progress_->setValue(0);
    progress_->setTextVisible(false);
    progress_->setVisible(false); // from the first probe on: an empty bar says nothing
    progress_label_ = new QLabel;
    progress_label_->setTextFormat(Qt::PlainText);
    progress_label_->setObjectName(QStringLiteral("probeStatus"));
    progress_label_->setWordWrap(true);
    log_ = new QPlainTextEdit;
    log_->setObjectName(QStringLiteral("probeLog"));
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000);
    log_->setMaximumHeight(80);
    log_->setVisible(false); // shown once a probe has run
    left_layout->addWidget(progress_);
    left_layout->addWidget(progress_label_);
    left_layout->addWidget(log_);
    splitter->addWidget(left);

    // Right: an empty state, or the figures of the selection.
    stack_ = new QStackedWidget;
    details_ = new QLabel;
    details_->setObjectName(QStringLiteral("calibrationEmptyState"));
    details_->setWordWrap(true);
    details_->setTextFormat(Qt::RichText);
    details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    details_->setText(
        tr("<h3>No calibration profile selected</h3>"
           "<p>The model uses datasheet figures for your GPUs and links. A calibration profile "
           "replaces them with figures measured on your own machine: GEMM throughput by size, "
           "memory bandwidth, kernel launch overhead, host and peer-to-peer bandwidth, and NCCL "
           "collectives.</p>"
           "<p>To make one, press <b>Measure this machine</b> on a computer with NVIDIA GPUs, "
           "or run <code>gpuprobe --output my-gpus.json</code> there (start it with "
           "<code>mpirun</code> to measure collectives across nodes), or import the logs of "
           "nccl-tests your cluster already produced. Then select the profile and press "
           "<b>Apply to scenario</b>.</p>"));
    stack_->addWidget(details_);
    // Figures and chart side by side: the tab is wide and short.
    auto *figures = new QSplitter(Qt::Horizontal);
    figure_view_ = new QTableView;
    figure_view_->setObjectName(QStringLiteral("figureTable"));
    figure_view_->setModel(figure_model_);
    // The figure's name takes the width the numbers leave, wrapping when it must; the numbers'
    // columns are as wide as their contents (at 1280 px a profile's column was cut behind a
    // horizontal scroll bar, issue 26).
    figure_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    figure_view_->horizontalHeader()->setMinimumSectionSize(fontMetrics().averageCharWidth() * 8);
    figure_view_->setWordWrap(true);
    figure_view_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    figure_view_->verticalHeader()->hide();
    connect(figure_model_, &QAbstractItemModel::modelReset, figure_view_, [this] {
        figure_view_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    });
    // The view owns its chart; setChart() would release (and leak) a default one.
    gemm_chart_ = new QChartView(new QChart);
    gemm_chart_->setObjectName(QStringLiteral("gemmChart"));
    gemm_chart_->setRenderHint(QPainter::Antialiasing);
    gemm_note_ = new QLabel(tr("No GEMM throughput in the selected profiles: they measured "
                               "collectives only (an nccl-tests log, or a run whose GEMM tests "
                               "were skipped)."));
    gemm_note_->setObjectName(QStringLiteral("gemmNote"));
    gemm_note_->setWordWrap(true);
    gemm_note_->setAlignment(Qt::AlignCenter);
    gemm_note_->hide();
    auto *chart_box = new QWidget;
    auto *chart_layout = new QVBoxLayout(chart_box);
    chart_layout->setContentsMargins(0, 0, 0, 0);
    chart_layout->addWidget(gemm_chart_, 1);
    chart_layout->addWidget(gemm_note_, 1);
    figures->addWidget(figure_view_);
    figures->addWidget(chart_box);
    figures->setStretchFactor(0, 3); // the table: figure, datasheet and each profile
    figures->setStretchFactor(1, 2);
    figures->setSizes({600, 400}); // scaled to the width at first show
    gemm_chart_->setMinimumWidth(220);
    stack_->addWidget(figures);
    splitter->addWidget(stack_);
    // The profiles keep the height they need; the rest goes to the figures and the chart.
    splitter->setStretchFactor(0, 0);
    splitter->setStretchFactor(1, 1);
    list_view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    connect(list_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CalibrationPage::updateSelection);
    connect(apply_button_, &QPushButton::clicked, this, [this] {
        const QList<int> rows = selectedRows();
        const ProfileEntry *e = rows.isEmpty() ? nullptr : list_model_->entry(rows.front());
        if (e != nullptr && e->profile)
            Q_EMIT applyRequested(e->path);
    });
    connect(datasheet_button_, &QPushButton::clicked, this,
            [this] { Q_EMIT applyRequested(QString()); });
    connect(delete_button_, &QPushButton::clicked, this, [this] {
        const QList<int> rows = selectedRows();
        if (!rows.isEmpty())
            deleteProfile(rows.front(), true);
    });
    connect(measure_button_, &QPushButton::clicked, this,
            [this] { startProbe(quick_check_->isChecked()); });
    connect(import_button_, &QPushButton::clicked, this, [this] {
        const QStringList logs = QFileDialog::getOpenFileNames(
            this, tr("nccl-tests logs"), QString(), tr("Logs (*.log *.txt *.out);;All (*)"));
        if (!logs.isEmpty())
            importNcclTests(logs);
    });
    connect(cancel_button_, &QPushButton::clicked, runner_, &ProbeRunner::cancel);
    connect(runner_, &ProbeRunner::progress, this,
            [this](int done, int total, const QString &test, const QString &message) {
                progress_->setRange(0, total);
                progress_->setValue(done);
                progress_label_->setText(tr("%1: %2").arg(test, message));
            });
    connect(runner_, &ProbeRunner::noteAdded, log_, &QPlainTextEdit::appendPlainText);
    connect(runner_, &ProbeRunner::finished, this, &CalibrationPage::probeFinished);

    setDirectories(bundledProfileDirectories(), userProfileDirectory());
}

CalibrationPage::~CalibrationPage() = default;

void CalibrationPage::setDirectories(const QStringList &read_only_dirs, const QString &writable_dir)
{
    read_only_dirs_ = read_only_dirs;
    writable_dir_ = writable_dir;
    rescan();
}

void CalibrationPage::rescan()
{
    QStringList dirs = read_only_dirs_;
    dirs.prepend(writable_dir_);
    library_ = scanProfiles(dirs, writable_dir_);
    showEntries(false);
}

namespace
{
/// One name per file: the canonical path where the file exists (links, "..").
QString fileKey(const QString &path)
{
    const QFileInfo info(path);
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.absoluteFilePath() : canonical;
}
} // namespace

void CalibrationPage::showEntries(bool select_applied)
{
    QStringList selected;
    for (int r : selectedRows())
        if (const ProfileEntry *e = list_model_->entry(r))
            selected << fileKey(e->path);
    const QString applied = applied_path_.isEmpty() ? QString() : fileKey(applied_path_);
    std::vector<ProfileEntry> entries = library_;
    const bool listed = std::any_of(entries.begin(), entries.end(), [&](const ProfileEntry &e) {
        return fileKey(e.path) == applied;
    });
    if (!applied.isEmpty() && !listed) {
        // A profile the scenario names from elsewhere (beside the scenario, a colleague's
        // folder) is shown and compared like the library's; it is not the library's to
        // delete.
        ProfileEntry e = loadProfileEntry(QFileInfo(applied_path_).absoluteFilePath(), true);
        e.from_scenario = true;
        entries.insert(entries.begin(), std::move(e));
    }
    if (select_applied && !applied.isEmpty())
        selected = QStringList{applied};
    list_model_->setEntries(std::move(entries));
    // As tall as its rows (two to six): on a 1280 x 720 screen the figures and the chart
    // below need the height more than empty rows do.
    const int rows = std::clamp(list_model_->rowCount(), 2, 6);
    list_view_->setMaximumHeight(list_view_->horizontalHeader()->sizeHint().height() +
                                 rows * list_view_->verticalHeader()->defaultSectionSize() +
                                 2 * list_view_->frameWidth() + 2);
    list_view_->clearSelection();
    for (int r = 0; r < list_model_->rowCount(); ++r)
        if (selected.contains(fileKey(list_model_->entry(r)->path)))
            list_view_->selectionModel()->select(
                list_model_->index(r, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    updateSelection();
}

void CalibrationPage::setAppliedProfile(const QString &path)
{
    // Called on every change of the scenario: the list is rebuilt only when the file changes.
    const bool changed = path != applied_path_;
    applied_path_ = path;
    if (changed)
        showEntries(true);
    applied_label_->setText(
        path.isEmpty() ? tr("The scenario uses datasheet figures.")
                       : tr("The scenario uses the profile %1.").arg(QFileInfo(path).fileName()));
}

void CalibrationPage::setHardware(const HardwareSpec &hardware)
{
    hardware_ = hardware;
    updateSelection();
}

void CalibrationPage::setApplyReport(const QString &text)
{
    apply_report_->setText(text);
    apply_report_->setVisible(!text.isEmpty());
}

QString CalibrationPage::applyReport() const
{
    return apply_report_->text();
}

void CalibrationPage::selectRows(const QList<int> &rows)
{
    list_view_->clearSelection();
    for (int r : rows)
        list_view_->selectionModel()->select(
            list_model_->index(r, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    updateSelection();
}

QList<int> CalibrationPage::selectedRows() const
{
    QList<int> rows;
    for (const QModelIndex &i : list_view_->selectionModel()->selectedRows())
        rows << i.row();
    std::sort(rows.begin(), rows.end());
    return rows;
}

void CalibrationPage::updateSelection()
{
    std::vector<const CalibrationProfile *> profiles;
    QStringList names;
    const QList<int> rows = selectedRows();
    bool any_writable = false;
    for (int r : rows) {
        const ProfileEntry *e = list_model_->entry(r);
        if (e == nullptr)
            continue;
        any_writable = any_writable || !e->read_only;
        if (e->profile) {
            profiles.push_back(e->profile.get());
            names << profileDisplayName(*e->profile);
        }
    }
    apply_button_->setEnabled(profiles.size() == 1);
    delete_button_->setEnabled(rows.size() == 1 && any_writable);
    if (profiles.empty()) {
        figure_model_->setFigures({}, {});
        stack_->setCurrentIndex(0);
        return;
    }
    figure_model_->setFigures(compareFigures(profiles, hardware_ ? &*hardware_ : nullptr), names);
    updateChart(profiles);
    stack_->setCurrentIndex(1);
}

void CalibrationPage::updateChart(const std::vector<const CalibrationProfile *> &profiles)
{
    auto *chart = new QChart;
    chart->setTitle(tr("GEMM throughput against size (first GPU of each profile)"));
    chart->setAnimationOptions(QChart::NoAnimation);
    // The tab is wide and short (1280 x 720): the legend beside the plot, not above it.
    chart->legend()->setAlignment(Qt::AlignRight);
    chart->setMargins(QMargins(4, 4, 4, 4));
    auto *x = new QLogValueAxis;
    x->setBase(10);
    x->setTitleText(tr("GEMM work, 2·m·n·k (FLOP)"));
    x->setLabelFormat(QStringLiteral("%.0e"));
    auto *y = new QValueAxis;
    y->setTitleText(tr("TFLOP/s"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    double y_max = 1;
    double x_min = 1e30, x_max = 0;
    int series_count = 0;
    for (size_t p = 0; p < profiles.size(); ++p) {
        if (profiles[p]->gpus.empty())
            continue;
        const ProfileGpu &gpu = profiles[p]->gpus.front();
        for (int pi = 0; pi < kPrecisionCount; ++pi) {
            std::vector<ProfileGemmPoint> points = gpu.gemm_tflops[static_cast<size_t>(pi)];
            if (points.empty())
                continue;
            std::sort(points.begin(), points.end(), [](const auto &a, const auto &b) {
                return a.m * a.n * a.k < b.m * b.n * b.k;
            });
            auto *series = new QLineSeries;
            QString name = QLatin1String(precisionName(static_cast<Precision>(pi)));
            if (profiles.size() > 1)
                name += QStringLiteral(" · %1").arg(p + 1);
            series->setName(name);
            QList<QPointF> pts;
            for (const ProfileGemmPoint &pt : points) {
                const double flops = 2.0 * pt.m * pt.n * pt.k;
                pts << QPointF(flops, pt.tflops);
                y_max = std::max(y_max, pt.tflops);
                x_min = std::min(x_min, flops);
                x_max = std::max(x_max, flops);
            }
            series->replace(pts);
            chart->addSeries(series);
            ++series_count;
            series->attachAxis(x);
            series->attachAxis(y);
        }
    }
    if (x_max > 0)
        x->setRange(x_min / 2, x_max * 2);
    y->setRange(0, y_max * 1.1);
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->applyNiceNumbers();
    QChart *old = gemm_chart_->chart();
    gemm_chart_->setChart(chart);
    delete old;
    // No GEMM measured (a collectives-only profile, an nccl-tests log): no empty chart with
    // ticks "0, 1, 1, 2" (issue 26), but a line saying so.
    gemm_chart_->setVisible(series_count > 0);
    gemm_note_->setVisible(series_count == 0);
}

bool CalibrationPage::startProbe(bool quick)
{
    QStringList args;
    if (quick)
        args << QStringLiteral("--quick");
    return runProbe(QSysInfo::machineHostName(), args, tr("Starting gpuprobe…"));
}

bool CalibrationPage::importNcclTests(const QStringList &logs)
{
    return runProbe(QStringLiteral("nccl-tests"),
                    QStringList{QStringLiteral("--from-nccl-tests")} + logs,
                    tr("Reading nccl-tests logs…"));
}

bool CalibrationPage::runProbe(const QString &name, const QStringList &arguments,
                               const QString &status)
{
    if (runner_->running())
        return false;
    // A new file in the writable folder: "<name>-<UTC time>.json".
    QDir().mkpath(writable_dir_);
    const QString stamp =
        QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    probe_output_ =
        QDir(writable_dir_).absoluteFilePath(QStringLiteral("%1-%2.json").arg(name, stamp));
    log_->clear();
    log_->setVisible(true);
    progress_->setTextVisible(true);
    progress_->setVisible(true);
    progress_->setRange(0, 0); // busy until the first progress line
    progress_label_->setText(status);
    setProbeRunning(true);
    return runner_->start(probe_program_, QStringList{QStringLiteral("--output"), probe_output_} +
                                              arguments + extra_arguments_);
}

void CalibrationPage::setProbeRunning(bool running)
{
    measure_button_->setEnabled(!running);
    import_button_->setEnabled(!running);
    cancel_button_->setEnabled(running);
}

void CalibrationPage::probeFinished(int exit_code, const QString &message)
{
    setProbeRunning(false);
    progress_->setRange(0, 1);
    progress_->setValue(exit_code == 0 ? 1 : 0);
    progress_label_->setText(message);
    log_->appendPlainText(message);
    // A run that measured nothing (no GPU, every test skipped) is not a profile: it would
    // stand in the list as if it could calibrate anything.
    // Whatever the exit code (3: no usable GPU): a run that failed half-way but measured
    // something keeps its profile.
    if (QFileInfo::exists(probe_output_)) {
        const Result<CalibrationProfile> made =
            loadProfileFile(probe_output_, ReadKinds::RegularOnly);
        if (made && made.value().gpus.empty() && made.value().collectives.empty() &&
            made.value().p2p.empty()) {
            QFile::remove(probe_output_);
            // The log above named the file gpuprobe wrote; say that it is gone again (issue 26:
            // "wrote ...json" and then "no profile was saved").
            const QString why = tr("Nothing was measured (no GPU was found or every test was "
                                   "skipped), so %1 was deleted again: no profile was kept.")
                                    .arg(QFileInfo(probe_output_).fileName());
            progress_label_->setText(message + QLatin1Char(' ') + why);
            log_->appendPlainText(why);
        }
    }
    rescan();
    if (exit_code == 0) {
        for (int r = 0; r < list_model_->rowCount(); ++r)
            if (list_model_->entry(r)->path == probe_output_)
                selectRows({r});
    }
}

bool CalibrationPage::deleteProfile(int row, bool ask)
{
    const ProfileEntry *e = list_model_->entry(row);
    if (e == nullptr || e->read_only)
        return false;
    if (ask &&
        plainMessage(
            this, QMessageBox::Question, tr("Delete profile"),
            tr("Delete the profile %1? This cannot be undone.").arg(QFileInfo(e->path).fileName()),
            QMessageBox::Yes | QMessageBox::No) != QMessageBox::Yes)
        return false;
    const QString path = e->path;
    if (!QFile::remove(path))
        return false;
    if (fileKey(path) == fileKey(applied_path_)) {
        // The scenario goes back to datasheet figures (the window follows the request); the
        // deleted file is not listed as the scenario's meanwhile.
        setAppliedProfile(QString());
        Q_EMIT applyRequested(QString());
    }
    rescan();
    return true;
}

} // namespace scalescope
