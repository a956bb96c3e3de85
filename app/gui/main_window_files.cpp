// The main window's files: open, save, recent files, exports, autosave, close and drops.
#include "main_window_p.h"
#include "plain_message.h"

namespace scalescope
{

using namespace window_detail;

bool MainWindow::maybeSave()
{
    if (!ctx_.document->isModified() || !ctx_.interactive)
        return true;
    const auto answer = plainMessage(
        this, QMessageBox::Warning, tr("Unsaved changes"),
        tr("“%1” has unsaved changes. Save them first?").arg(ctx_.document->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

bool MainWindow::openFile(const QString &path)
{
    if (!maybeSave())
        return false;
    QString error;
    if (!ctx_.document->open(path, &error)) {
        showError(tr("Cannot open scenario"), tr("%1\n\n%2").arg(path, error));
        return false;
    }
    gallery_index_ = -1;
    sweep_counts_.clear();
    showGalleryRow(-1); // no claim highlighted for a file the gallery did not load
    updateGalleryText();
    addRecentFile(ctx_.document->filePath());
    return true;
}

bool MainWindow::saveTo(const QString &path)
{
    QString error;
    if (!ctx_.document->save(path, &error)) {
        // An empty error: the user cancelled (the file changed on disk and they chose so).
        if (!error.isEmpty())
            showError(tr("Cannot save scenario"), tr("%1\n\n%2").arg(path, error));
        return false;
    }
    addRecentFile(ctx_.document->filePath());
    statusBar()->showMessage(tr("Saved %1").arg(path), 4000);
    return true;
}

bool MainWindow::save()
{
    if (ctx_.document->filePath().isEmpty())
        return saveAs();
    return saveTo(ctx_.document->filePath());
}

bool MainWindow::saveAs()
{
    const QString path =
        askSavePath(tr("Save scenario"), tr("Scenarios (*.json)"), QStringLiteral("json"));
    return !path.isEmpty() && saveTo(path);
}

void MainWindow::newDocument()
{
    if (!maybeSave())
        return;
    QFile f(QStringLiteral(":/scenarios/default.json"));
    if (!f.open(QIODevice::ReadOnly))
        return;
    gallery_index_ = -1;
    sweep_counts_.clear();
    showGalleryRow(-1);
    Scenario s = ctx_.document->scenario();
    if (Result<Scenario> r = parseScenario(f.readAll(), builtinCatalog()))
        s = r.value();
    ctx_.document->reset(s, QString());
    updateGalleryText();
}

void MainWindow::openDialog()
{
    const QString dir = ctx_.settings->value(QStringLiteral("files/lastDir")).toString();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), dir,
                                                      tr("Scenarios (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    ctx_.settings->setValue(QStringLiteral("files/lastDir"), QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::addRecentFile(const QString &path)
{
    RecentFiles::add(*ctx_.settings, path, kMaxRecentFiles);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    recent_menu_->clear();
    // At most kMaxRecentFiles entries, whatever a damaged settings file holds.
    const QStringList recent = RecentFiles::read(*ctx_.settings, kMaxRecentFiles);
    for (const QString &path : recent) {
        QAction *a = recent_menu_->addAction(QFileInfo(path).fileName(), this,
                                             [this, path] { openFile(path); });
        a->setToolTip(path);
        a->setEnabled(QFileInfo::exists(path));
    }
    if (recent.isEmpty())
        recent_menu_->addAction(tr("(none)"))->setEnabled(false);
    else {
        recent_menu_->addSeparator();
        recent_menu_->addAction(tr("Clear list"), this, [this] {
            ctx_.settings->remove(QStringLiteral("files/recent"));
            rebuildRecentMenu();
        });
    }
}

QString MainWindow::suggestedFileName(const QString &what, const QString &suffix) const
{
    // The scenario's file name without its suffix, else its name made safe for a file
    // system (letters, digits, '-', '_', '.'; runs of anything else become one '-').
    QString base;
    if (!ctx_.document->filePath().isEmpty()) {
        base = QFileInfo(ctx_.document->filePath()).completeBaseName();
    } else {
        const QString name = QString::fromStdString(ctx_.document->scenario().name);
        for (const QChar c : name) {
            if (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_') ||
                c == QLatin1Char('.'))
                base += c;
            else if (!base.endsWith(QLatin1Char('-')))
                base += QLatin1Char('-');
        }
        while (base.startsWith(QLatin1Char('-')) || base.startsWith(QLatin1Char('.')))
            base.remove(0, 1);
        while (base.endsWith(QLatin1Char('-')))
            base.chop(1);
        base.truncate(80);
    }
    if (base.isEmpty())
        base = QStringLiteral("scenario");
    if (!what.isEmpty())
        base += QLatin1Char('-') + what;
    return base + QLatin1Char('.') + suffix;
}

QString MainWindow::chartFileTag() const
{
    const QWidget *page = currentPage();
    if (page == scaling_view_)
        return QStringLiteral("scaling");
    if (page == breakdown_view_)
        return QStringLiteral("breakdown");
    if (page == memory_view_)
        return QStringLiteral("memory");
    if (page == cost_view_)
        return QStringLiteral("cost");
    if (page == calibration_page_)
        return QStringLiteral("calibration");
    if (page == delta_view_)
        return QStringLiteral("compare");
    return QStringLiteral("chart");
}

QString MainWindow::askSavePath(const QString &title, const QString &filter, const QString &suffix,
                                const QString &what)
{
    const QString dir = ctx_.settings->value(QStringLiteral("files/lastDir")).toString();
    // A file name to start from: the scenario's, with what is exported (sweep, trace, ...).
    const QString start =
        QDir(dir.isEmpty() ? QDir::homePath() : dir).filePath(suggestedFileName(what, suffix));
    QString path = QFileDialog::getSaveFileName(this, title, start, filter);
    if (path.isEmpty())
        return path;
    if (QFileInfo(path).suffix().isEmpty())
        path += QLatin1Char('.') + suffix;
    ctx_.settings->setValue(QStringLiteral("files/lastDir"), QFileInfo(path).absolutePath());
    return path;
}

QString MainWindow::askImagePath(const QString &title, const QString &format, const QString &what)
{
    return askSavePath(
        title, format == QLatin1String("svg") ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"),
        format, what);
}

void MainWindow::exportTimeline(const QString &format)
{
    const QString path = askImagePath(tr("Export timeline"), format, QStringLiteral("timeline"));
    if (path.isEmpty())
        return;
    QString error;
    const bool ok = format == QLatin1String("svg") ? timeline_->exportSvg(path, &error)
                                                   : timeline_->exportPng(path, &error);
    if (!ok)
        showError(tr("Export failed"), error);
}

void MainWindow::exportChart(const QString &format)
{
    const QString path = askImagePath(tr("Export chart"), format, chartFileTag());
    if (path.isEmpty())
        return;
    QString error;
    if (!exportWidgetImage(currentPage(), path, &error))
        showError(tr("Export failed"), error);
}

void MainWindow::exportSweepCsv()
{
    if (!current_ || current_->sweep().empty()) {
        showError(tr("Export failed"), tr("There is no scaling sweep to export yet."));
        return;
    }
    const QString path = askSavePath(tr("Export sweep"), tr("CSV files (*.csv)"),
                                     QStringLiteral("csv"), QStringLiteral("sweep"));
    if (path.isEmpty())
        return;
    QString error;
    if (!scalescope::exportSweepCsv(current_->sweep(), path, &error))
        showError(tr("Export failed"), error);
}

void MainWindow::exportTrace()
{
    // The timeline on screen: a large scenario's arrives before the rest of its result.
    const std::shared_ptr<const Timeline> shown = timeline_->timeline();
    if (!shown) {
        showError(tr("Export failed"), tr("There is no timeline to export."));
        return;
    }
    const QString name = QString::fromStdString(ctx_.document->scenario().name);
    const QString path = askSavePath(tr("Export Chrome trace"), tr("Trace files (*.json)"),
                                     QStringLiteral("json"), QStringLiteral("trace"));
    if (path.isEmpty())
        return;
    // The one guard of every writer: never over the scenario file or its calibration
    // profile (compared by device and inode).
    WriteGuard guard;
    guard.inputs =
        QStringList{ctx_.document->filePath(),
                    QString::fromStdString(ctx_.document->scenario().hardware.calibration_path)};
    const WriteResult written = writeFileSafely(path, timelineToChromeTrace(*shown, name), guard);
    if (!written)
        showError(tr("Export failed"), written.error);
}

void MainWindow::scheduleAutosave()
{
    if (ctx_.autosave && ctx_.document->isModified())
        autosave_timer_->start();
}

void MainWindow::writeAutosave()
{
    if (!ctx_.autosave || !ctx_.document->isModified())
        return;
    QString error;
    if (!ctx_.autosave->write(ctx_.document->serialized(), ctx_.document->filePath(), &error))
        statusBar()->showMessage(tr("Autosave failed: %1").arg(error), 6000);
}

void MainWindow::showError(const QString &title, const QString &text)
{
    if (ctx_.interactive)
        plainMessage(this, QMessageBox::Warning, title, text);
    else
        statusBar()->showMessage(title + QStringLiteral(": ") + text, 10000);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (presenting_)
        setPresentationMode(false);
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    ctx_.settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
    ctx_.settings->setValue(QStringLiteral("window/state"), saveState());
    if (ctx_.autosave)
        ctx_.autosave->clear();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile())
        event->acceptProposedAction();
}

namespace
{
/// A PyTorch profiler trace rather than a scenario: gzip (scenarios are plain JSON), or JSON
/// whose beginning has "traceEvents" and no "scalescope" key.
bool looksLikeTrace(const QString &path)
{
    if (path.endsWith(QLatin1String(".gz"), Qt::CaseInsensitive))
        return true;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = f.read(64 * 1024);
    return head.contains("\"traceEvents\"") && !head.contains("\"scalescope\"");
}
} // namespace

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList files;
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile())
            files << url.toLocalFile();
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    // Profiler traces (one per rank) open as the measured run beside the prediction; a
    // scenario opens as the document.
    if (std::all_of(files.begin(), files.end(), looksLikeTrace)) {
        if (openMeasuredTraces(files))
            showTab(QStringLiteral("measured"));
        return;
    }
    openFile(files.front());
}

} // namespace scalescope
