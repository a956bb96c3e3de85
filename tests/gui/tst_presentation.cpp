// Presentation mode and window geometry (issue 13, item 5 and parts of 9), on the offscreen
// platform with two screens, 1280 x 720 and 1920 x 1080 (the sizes talks are given at): every
// gallery slide shows the view its entry names, whole and inside the window, without menu,
// tool bar or docks; the slide keys step whatever has focus; the timeline is refitted on
// every step; --present FILE starts at FILE; windows open inside the screen; a wheel notch
// over an unfocused control changes nothing.
#include "app.h"
#include "document.h"
#include "io/catalog_io.h"
#include "io/gallery_io.h"
#include "io/scenario_io.h"
#include "main_window.h"
#include "options.h"
#include "recompute.h"
#include "timeline/timeline_widget.h"

#include "../support/screenshot.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QScreen>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QUndoStack>
#include <QWheelEvent>

#include <cmath>
#include <memory>
#include <utility>

using namespace scalescope;

namespace
{

const QSize kScreens[] = {QSize(1280, 720), QSize(1920, 1080)};

// The view a gallery file names ("x-gallery": {"view": ...}); "timeline" when it names none.
QString viewOf(const GalleryEntry &entry)
{
    QFile f(entry.path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("<unreadable %1>").arg(entry.path);
    const QJsonObject gallery =
        QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("x-gallery")).toObject();
    return gallery.value(QStringLiteral("view")).toString(QStringLiteral("timeline"));
}

QString stageNameOf(const QString &view)
{
    return QStringLiteral("presentation") + view.left(1).toUpper() + view.mid(1);
}

QRect rectInWindow(const QWidget *w)
{
    return QRect(w->mapTo(w->window(), QPoint(0, 0)), w->size());
}

// Whether `range` is one whole step of `timeline`: all of it when it holds one step; with
// warm-up steps simulated before the measured one, a window as long as the step time.
QString wholeStepProblem(const Timeline &timeline, std::pair<double, double> range,
                         double step_time_s)
{
    const double end = timeline.endTime();
    const auto [from, to] = range;
    const QString where = QStringLiteral("[%1, %2] s, timeline of %3 s, step %4 s")
                              .arg(from)
                              .arg(to)
                              .arg(end)
                              .arg(step_time_s);
    if (timeline.iterations() <= 1) {
        if (from > 1e-12 || to < end * 0.999 || to > end * 1.05)
            return QStringLiteral("not the whole step: ") + where;
        return {};
    }
    if (from < -1e-12 || to > end * 1.001 ||
        std::abs((to - from) - step_time_s) > 0.01 * step_time_s)
        return QStringLiteral("not one whole step: ") + where;
    return {};
}

} // namespace

class TestPresentation : public QObject
{
    Q_OBJECT

    QTemporaryDir dir_;
    std::vector<GalleryEntry> gallery_;
    std::unique_ptr<QSettings> settings_;
    std::unique_ptr<Document> document_;
    std::unique_ptr<Recomputer> recomputer_;
    std::unique_ptr<MainWindow> window_;

    QScreen *screenOf(QSize size)
    {
        for (QScreen *s : QGuiApplication::screens())
            if (s->geometry().size() == size)
                return s;
        return nullptr;
    }
    // A window on `screen` (the window of a fresh start: no saved geometry).
    void makeWindow(QScreen *screen)
    {
        window_.reset();
        settings_ = std::make_unique<QSettings>(dir_.filePath(QStringLiteral("settings.ini")),
                                                QSettings::IniFormat);
        settings_->clear();
        document_ = std::make_unique<Document>();
        Result<Scenario> s = loadScenarioFile(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json"),
            builtinCatalog());
        QVERIFY(s);
        document_->reset(s.value(), QString());
        recomputer_ = std::make_unique<Recomputer>();
        WindowContext ctx;
        ctx.document = document_.get();
        ctx.recomputer = recomputer_.get();
        ctx.settings = settings_.get();
        ctx.gallery = &gallery_;
        ctx.language = QStringLiteral("en");
        ctx.interactive = false;
        window_ = std::make_unique<MainWindow>(ctx);
        window_->move(screen->availableGeometry().topLeft() + QPoint(10, 10));
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(waitForResult());
    }
    bool waitForResult()
    {
        return QTest::qWaitFor(
            [this] {
                return window_->currentResult() &&
                       window_->currentResult()->generation == recomputer_->latestGeneration();
            },
            30000);
    }
    QWidget *stage() { return window_->findChild<QWidget *>(QStringLiteral("presentationStage")); }
    // Waits until the layouts settled (the stage refits on resizes).
    void settle()
    {
        QTest::qWait(20);
        QCoreApplication::processEvents();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        qRegisterMetaType<ResultPtr>("scalescope::ResultPtr");
        QString error;
        gallery_ = Application::loadBuiltinGallery(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(gallery_.size() >= 20);
        for (QSize size : kScreens)
            QVERIFY2(screenOf(size), "the offscreen platform has no screen of this size");
    }

    void cleanup()
    {
        window_.reset();
        recomputer_.reset();
        document_.reset();
    }

    void everyGalleryEntryNamesItsView()
    {
        const QStringList views = {"timeline", "scaling", "breakdown", "memory", "cost"};
        for (const GalleryEntry &e : gallery_) {
            QFile f(e.path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QJsonObject g = QJsonDocument::fromJson(f.readAll())
                                      .object()
                                      .value(QStringLiteral("x-gallery"))
                                      .toObject();
            QVERIFY2(views.contains(g.value(QStringLiteral("view")).toString()),
                     qPrintable(e.path));
            QCOMPARE(g.value(QStringLiteral("zoom")).toString(), QStringLiteral("step"));
        }
    }

    // Issue 26: slide 13 said "about 16 bytes per parameter ... about 125 GB" beside a Memory
    // chart of 18 bytes per parameter and 133 GB. Its text says the chart's figures (in GiB,
    // as the chart prints them).
    void memorySlideSaysItsChartsFigures()
    {
        const GalleryEntry *entry = nullptr;
        for (const GalleryEntry &e : gallery_)
            if (QFileInfo(e.path).fileName() == QStringLiteral("claim08-a-ddp-out-of-memory.json"))
                entry = &e;
        QVERIFY(entry);
        QCOMPARE(entry->view, GalleryView::Memory);
        RecomputeRequest request;
        request.scenario = entry->scenario;
        const ResultPtr r = computeResult(request);
        QVERIFY(r && r->ok());
        const MemoryBreakdown &m = r->summary().memory;
        QCOMPARE(entry->scenario.training.precision, Precision::BF16); // 2 bytes per weight
        const double params = m.parameters / 2;
        const double states = m.parameters + m.gradients + m.optimizer_states;
        const QString per_parameter = QString::number(std::lround(states / params));
        const QString states_gib = QString::number(std::lround(states / kBytesPerGiB));
        const QString total_gib = QString::number(std::lround(m.total / kBytesPerGiB));
        for (const QString &text : {entry->explanation_en, entry->explanation_zh}) {
            QVERIFY2(text.contains(per_parameter + QStringLiteral(" ")), qPrintable(text));
            QVERIFY2(text.contains(states_gib + QStringLiteral(" GiB")), qPrintable(text));
            QVERIFY2(text.contains(total_gib + QStringLiteral(" GiB")), qPrintable(text));
        }
    }

    // "x-gallery": {"view": ..., "zoom": ...} (model/io/gallery_io.h).
    void galleryViewAndZoom_data()
    {
        QTest::addColumn<QString>("extra"); // members added to x-gallery
        QTest::addColumn<int>("view");      // GalleryView, or -1 for an error
        QTest::addColumn<QString>("error_path");
        QTest::newRow("default") << QString() << int(GalleryView::Timeline) << QString();
        QTest::newRow("memory") << R"("view": "memory", "zoom": "step")" << int(GalleryView::Memory)
                                << QString();
        QTest::newRow("cost") << R"("view": "cost")" << int(GalleryView::Cost) << QString();
        QTest::newRow("unknown view") << R"("view": "gantt")" << -1 << "x-gallery.view";
        QTest::newRow("view not a string") << R"("view": 3)" << -1 << "x-gallery.view";
        QTest::newRow("unknown zoom") << R"("zoom": "all")" << -1 << "x-gallery.zoom";
    }
    void galleryViewAndZoom()
    {
        QFETCH(QString, extra);
        QFETCH(int, view);
        QFETCH(QString, error_path);
        QFile f(QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray doc = f.readAll().trimmed();
        QVERIFY(doc.endsWith('}'));
        doc.chop(1);
        doc += R"(, "x-gallery": {"claim": 3, "title": {"en": "T", "zh_CN": "标题"},
                  "explanation": {"en": "E", "zh_CN": "说明"})";
        if (!extra.isEmpty())
            doc += ", " + extra.toUtf8();
        doc += "}}";
        const Result<GalleryEntry> entry = parseGalleryEntry(doc);
        if (view < 0) {
            QVERIFY(!entry);
            QCOMPARE(QString::fromStdString(entry.error().path), error_path);
            QVERIFY2(QString::fromStdString(entry.error().message).contains("allowed"),
                     entry.error().message.c_str());
            return;
        }
        QVERIFY2(entry, entry ? "" : entry.error().toString().c_str());
        QCOMPARE(int(entry.value().view), view);
        QCOMPARE(entry.value().zoom, GalleryZoom::Step);
    }

    // Every slide at both sizes: the named view whole and inside the window, nothing else.
    void slideShowsItsView_data()
    {
        QTest::addColumn<QSize>("screen_size");
        QTest::addColumn<int>("index");
        for (QSize size : kScreens)
            for (int i = 0; i < static_cast<int>(gallery_.size()); ++i)
                QTest::addRow("%dx%d slide %d %s", size.width(), size.height(), i + 1,
                              qPrintable(QFileInfo(gallery_[size_t(i)].path).baseName()))
                    << size << i;
    }
    void slideShowsItsView()
    {
        QFETCH(QSize, screen_size);
        QFETCH(int, index);
        makeWindow(screenOf(screen_size));
        window_->loadGalleryEntry(index);
        QVERIFY(waitForResult());
        window_->setPresentationMode(true);
        QVERIFY(window_->presentationMode());
        QVERIFY(waitForResult());
        settle();
        const QRect window_rect = window_->rect();
        QCOMPARE(window_->size(), screen_size); // full screen on its screen

        // No menu bar, tool bar, docks or status bar.
        QVERIFY(!window_->menuBar()->isVisible());
        QVERIFY(!window_->statusBar()->isVisible());
        for (QToolBar *bar : window_->findChildren<QToolBar *>())
            QVERIFY(!bar->isVisible());
        for (QDockWidget *dock : window_->findChildren<QDockWidget *>())
            QVERIFY2(!dock->isVisible(), qPrintable(dock->objectName()));
        auto *spin = window_->findChild<QWidget *>(QStringLiteral("iterationsSpin"));
        QVERIFY(spin && !spin->isVisible()); // the timeline's tool bar

        QWidget *stage_widget = stage();
        QVERIFY(stage_widget && stage_widget->isVisible());
        // Title and text whole, inside the window.
        for (const char *name : {"presentationBanner", "presentationText", "presentationStatus"}) {
            auto *label = stage_widget->findChild<QLabel *>(QLatin1String(name));
            QVERIFY2(label && label->isVisible(), name);
            QVERIFY2(window_rect.contains(rectInWindow(label)), name);
            QVERIFY2(label->heightForWidth(label->width()) <= label->height(), name);
        }
        auto *banner = stage_widget->findChild<QLabel *>(QStringLiteral("presentationBanner"));
        QVERIFY(banner->text().contains(gallery_[size_t(index)].title_en.toHtmlEscaped()));

        // The named view: visible, inside the window, the stage's width and most of its
        // height, and not squeezed below what it needs.
        const QString view_name = viewOf(gallery_[size_t(index)]);
        auto *view = stage_widget->findChild<QWidget *>(stageNameOf(view_name));
        QVERIFY2(view && view->isVisible(), qPrintable(view_name));
        const QRect view_rect = rectInWindow(view);
        QVERIFY2(window_rect.contains(view_rect), qPrintable(view_name));
        QVERIFY(view_rect.width() >= window_rect.width() * 9 / 10);
        QVERIFY2(view_rect.height() >= window_rect.height() * 2 / 5,
                 qPrintable(QStringLiteral("%1 px high").arg(view_rect.height())));
        QVERIFY(view->height() >= view->minimumSizeHint().height());
        QVERIFY(view->width() >= view->minimumSizeHint().width());
        // It is the only view on the stage.
        for (const char *other : {"timeline", "scaling", "breakdown", "memory", "cost"}) {
            if (view_name == QLatin1String(other))
                continue;
            auto *w = stage_widget->findChild<QWidget *>(stageNameOf(QLatin1String(other)));
            QVERIFY2(!w || !w->isVisible(), other);
        }
        if (view_name == QLatin1String("timeline")) {
            auto *timeline = qobject_cast<TimelineWidget *>(view);
            QVERIFY(timeline && timeline->timeline());
            // Every row fits: no scrolling (identical replicas folded, nodes collapsed).
            auto *scroll = timeline->findChild<QScrollBar *>(QStringLiteral("timelineScrollBar"));
            QVERIFY(scroll);
            QVERIFY2(!scroll->isVisible(),
                     qPrintable(QStringLiteral("rows %1 px, plot %2 px")
                                    .arg(timeline->rowLayout().totalHeightPx())
                                    .arg(timeline->plotRect().height())));
            // Readable: not shrunk below 11 px.
            QVERIFY(timeline->font().pixelSize() >= 11 || timeline->font().pointSizeF() >= 8);
            // The slide's zoom: one whole step.
            const QString problem =
                wholeStepProblem(*timeline->timeline(), timeline->timeRange(),
                                 window_->currentResult()->summary().step_time_s);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
        }
    }

    // A file that is not in the gallery, 16 GPUs that all differ (jitter, a straggler) on two
    // nodes: a one-slide deck whose rows fit at 1280 x 720 (the other node collapsed).
    void distinctGpusFitTheScreen()
    {
        const QString path = dir_.filePath(QStringLiteral("jitter16.json"));
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"scalescope": 1, "name": "16 jittery GPUs",
              "hardware": {"gpu": "a100-sxm4-80gb", "nodes": 2, "gpus_per_node": 8,
                           "intra_node": "nvlink3", "inter_node": "ib-hdr-200", "nics_per_node": 1},
              "model": "bert-large",
              "training": {"global_batch": 256, "micro_batch": 16, "precision": "bf16", "optimizer": "adam"},
              "parallel": {"overlap": true, "bucket_mb": 25},
              "effects": {"seed": 3, "jitter": 0.05, "stragglers": [{"gpu": 11, "slowdown": 1.3}]}})");
        }
        makeWindow(screenOf(kScreens[0]));
        QVERIFY(window_->openFile(path));
        QVERIFY(waitForResult());
        window_->setPresentationMode(true);
        QVERIFY(waitForResult());
        settle();
        QCOMPARE(window_->galleryIndex(), -1);
        QVERIFY(window_->presentsSingleSlide());
        QVERIFY(stage());
        auto *timeline =
            stage()->findChild<TimelineWidget *>(QStringLiteral("presentationTimeline"));
        QVERIFY(timeline && timeline->isVisible() && timeline->timeline());
        QCOMPARE(timeline->timeline()->gpus(), 16); // nothing to fold
        auto *scroll = timeline->findChild<QScrollBar *>(QStringLiteral("timelineScrollBar"));
        QVERIFY(scroll && !scroll->isVisible());
        // GPU 11, the straggler the others wait for, is on node 1: shown in full.
        QVERIFY(timeline->isNodeCollapsed(0));
        QVERIFY(!timeline->isNodeCollapsed(1));
        QVERIFY(timeline->font().pixelSize() >= 11);
    }

    // F5 from the keyboard leaves focus in a spin box; the slide keys step anyway.
    void slideKeysStepWhateverHasFocus()
    {
        makeWindow(screenOf(kScreens[0]));
        window_->loadGalleryEntry(0);
        QVERIFY(waitForResult());
        auto *spin = window_->findChild<QSpinBox *>(QStringLiteral("iterationsSpin"));
        QVERIFY(spin);
        spin->setFocus();
        QVERIFY(spin->hasFocus());
        QTest::keyClick(spin, Qt::Key_F5);
        QVERIFY(window_->presentationMode());
        const int spin_value = spin->value();
        // No click: the keys go to whatever has focus now.
        const auto focused = [this]() -> QWidget * {
            QWidget *w = QApplication::focusWidget();
            return w != nullptr ? w : window_.get();
        };
        QTest::keyClick(focused(), Qt::Key_Right);
        QCOMPARE(window_->galleryIndex(), 1);
        QTest::keyClick(focused(), Qt::Key_PageDown);
        QCOMPARE(window_->galleryIndex(), 2);
        QTest::keyClick(focused(), Qt::Key_Space);
        QCOMPARE(window_->galleryIndex(), 3);
        QTest::keyClick(focused(), Qt::Key_PageUp);
        QCOMPARE(window_->galleryIndex(), 2);
        // Even with focus put in a spin box on purpose (the spin box of the timeline's tool
        // bar is hidden; F6 shows the scenario controls for a live demonstration).
        QTest::keyClick(window_.get(), Qt::Key_F6);
        auto *gpus = window_->findChild<QSpinBox *>(QStringLiteral("gpusPerNodeSpin"));
        QVERIFY(gpus && gpus->isVisible());
        gpus->setFocus();
        QVERIFY(gpus->hasFocus());
        QTest::keyClick(gpus, Qt::Key_Up);
        QCOMPARE(window_->galleryIndex(), 1);
        QTest::keyClick(gpus, Qt::Key_Down);
        QCOMPARE(window_->galleryIndex(), 2);
        QTest::keyClick(gpus, Qt::Key_Left);
        QCOMPARE(window_->galleryIndex(), 1);
        QCOMPARE(document_->undoStack()->count(), 0); // the keys edited nothing
        QCOMPARE(spin->value(), spin_value);
        // A clicker's start key while presenting: still presenting, same slide.
        QTest::keyClick(gpus, Qt::Key_F5);
        QVERIFY(window_->presentationMode());
        QCOMPARE(window_->galleryIndex(), 1);
        // Its blank key blacks the screen; the next key only ends the black screen.
        QTest::keyClick(gpus, Qt::Key_B);
        QVERIFY(stage());
        auto *blank = stage()->findChild<QWidget *>(QStringLiteral("presentationBlank"));
        QVERIFY(blank && blank->isVisible());
        QTest::keyClick(gpus, Qt::Key_PageDown);
        QVERIFY(!blank->isVisible());
        QCOMPARE(window_->galleryIndex(), 1);
        QTest::keyClick(gpus, Qt::Key_End);
        QCOMPARE(window_->galleryIndex(), int(gallery_.size()) - 1);
        QTest::keyClick(gpus, Qt::Key_Home);
        QCOMPARE(window_->galleryIndex(), 0);
        // Esc leaves, with the window's menu and status bar back.
        QTest::keyClick(gpus, Qt::Key_Escape);
        QVERIFY(!window_->presentationMode());
        QVERIFY(window_->menuBar()->isVisible());
        QVERIFY(window_->statusBar()->isVisible());
    }

    // Issue 26: F5 on an edited scenario showed "1/1" under the title it was loaded with
    // (naming links it no longer had), the arrows did nothing without a word, and the window
    // title kept the old link names. The document shown alone is titled by what it runs on
    // now, has no slide number, says why the arrows do nothing, and stays the document.
    void editedScenarioIsPresentedAsItIsNow()
    {
        makeWindow(screenOf(kScreens[0]));
        QVERIFY(window_->windowTitle().contains(QStringLiteral("25 GbE")));
        Scenario edited = document_->scenario();
        const InterLinkSpec *fast = builtinCatalog().findInter("eth-100g");
        QVERIFY(fast);
        edited.hardware.inter = *fast;
        document_->edit(edited, QStringLiteral("network"));
        QVERIFY(waitForResult());
        const QString title = window_->windowTitle();
        QVERIFY2(!title.contains(QStringLiteral("25 GbE")), qPrintable(title));
        QVERIFY2(title.contains(QStringLiteral("Ethernet 100 Gb/s")), qPrintable(title));

        window_->present(MainWindow::ShowWhat::Document, false);
        QVERIFY(window_->presentationMode());
        QVERIFY(window_->presentsSingleSlide());
        auto *banner = window_->findChild<QLabel *>(QStringLiteral("presentationBanner"));
        QVERIFY(banner);
        QVERIFY2(banner->text().contains(QStringLiteral("Ethernet 100 Gb/s")),
                 qPrintable(banner->text()));
        QVERIFY2(!banner->text().contains(QStringLiteral("25 GbE")), qPrintable(banner->text()));
        QVERIFY2(!banner->text().contains(QStringLiteral("1/1")), qPrintable(banner->text()));
        QTest::keyClick(window_.get(), Qt::Key_Right);
        QVERIFY2(banner->text().contains(QStringLiteral("Esc ends it")),
                 qPrintable(banner->text()));
        QCOMPARE(window_->galleryIndex(), -1);
        QTest::keyClick(window_.get(), Qt::Key_Escape);
        QVERIFY(!window_->presentationMode());
        QCOMPARE(document_->scenario(), edited);
        QVERIFY(document_->isModified());
        QCOMPARE(document_->undoStack()->count(), 1); // the history is the user's still
    }

    // Issue 26: leaving a gallery show left its last scenario as the document. The gallery
    // (F5) is presented from the first claim over edited work, and the work is the document
    // again when the show ends.
    void galleryShowGivesTheDocumentBack()
    {
        makeWindow(screenOf(kScreens[0]));
        Scenario edited = document_->scenario();
        edited.hardware.gpus_per_node = 2;
        document_->edit(edited, QStringLiteral("GPUs"));
        QVERIFY(waitForResult());
        QTest::keyClick(window_.get(), Qt::Key_F5);
        QVERIFY(window_->presentationMode());
        QVERIFY(!window_->presentsSingleSlide());
        QCOMPARE(window_->galleryIndex(), 0);
        QCOMPARE(document_->scenario(), gallery_[0].scenario);
        auto *banner = window_->findChild<QLabel *>(QStringLiteral("presentationBanner"));
        QVERIFY(banner->text().contains(QStringLiteral("1/%1").arg(gallery_.size())));
        QTest::keyClick(window_.get(), Qt::Key_Right);
        QCOMPARE(window_->galleryIndex(), 1);
        QTest::keyClick(window_.get(), Qt::Key_Escape);
        QVERIFY(!window_->presentationMode());
        QCOMPARE(document_->scenario(), edited);
        QVERIFY(document_->isModified());
        QCOMPARE(window_->galleryIndex(), -1);
        auto *list = window_->findChild<QListWidget *>(QStringLiteral("galleryList"));
        QVERIFY(list);
        QVERIFY(list->selectedItems().isEmpty());
    }

    // Issue 26: the claim loaded last stayed highlighted after File > Open.
    void galleryHighlightFollowsTheDocument()
    {
        makeWindow(screenOf(kScreens[0]));
        window_->loadGalleryEntry(3);
        auto *list = window_->findChild<QListWidget *>(QStringLiteral("galleryList"));
        QVERIFY(list);
        QCOMPARE(list->currentRow(), 3);
        QVERIFY(window_->openFile(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json")));
        QCOMPARE(window_->galleryIndex(), -1);
        QCOMPARE(list->currentRow(), -1);
        QVERIFY(list->selectedItems().isEmpty());
        // The gallery in front (at 1280 px it shares its dock area with the scenario's).
        for (QWidget *w = list; w != nullptr; w = w->parentWidget())
            if (auto *dock = qobject_cast<QDockWidget *>(w))
                dock->raise();
        QVERIFY(waitForResult());
        QVERIFY(
            screenshot::saveBothSizes(*window_, QStringLiteral("gallery-highlight-after-open")));
    }

    // Each step refits the timeline to the new slide's whole step (slide 18, thermal
    // throttling, lost its last 0.6 s to the range kept from slide 17).
    void timelineCoversTheWholeNewStep()
    {
        makeWindow(screenOf(kScreens[1]));
        window_->loadGalleryEntry(0);
        QVERIFY(waitForResult());
        window_->setPresentationMode(true);
        QVERIFY(waitForResult());
        int checked = 0;
        for (int i = 1; i < static_cast<int>(gallery_.size()); ++i) {
            QTest::keyClick(window_.get(), Qt::Key_Right);
            QCOMPARE(window_->galleryIndex(), i);
            QVERIFY(waitForResult());
            settle();
            if (viewOf(gallery_[size_t(i)]) != QLatin1String("timeline"))
                continue;
            // The timeline on screen (the stage's).
            TimelineWidget *timeline = nullptr;
            for (TimelineWidget *t : window_->findChildren<TimelineWidget *>())
                if (t->isVisible() && t->objectName() != QLatin1String("pinnedTimeline"))
                    timeline = t;
            QVERIFY(timeline && timeline->timeline());
            const QString problem =
                wholeStepProblem(*timeline->timeline(), timeline->timeRange(),
                                 window_->currentResult()->summary().step_time_s);
            QVERIFY2(problem.isEmpty(),
                     qPrintable(QStringLiteral("slide %1: ").arg(i + 1) + problem));
            ++checked;
        }
        QVERIFY(checked >= 10);
    }

    // --present FILE: the file's slide when it is a gallery scenario, else a one-slide deck.
    void presentFileStartsAtFile_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("in_gallery");
        QTest::newRow("gallery file")
            << QStringLiteral(SCALESCOPE_SOURCE_DIR
                              "/resources/scenarios/claim09-b-few-micro-batches.json")
            << true;
        QTest::newRow("other file")
            << QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json") << false;
    }
    void presentFileStartsAtFile()
    {
        QFETCH(QString, file);
        QFETCH(bool, in_gallery);
        AppOptions options;
        options.file = file;
        options.present = true;
        options.no_restore = true;
        options.settings_file = dir_.filePath(QStringLiteral("app-settings.ini"));
        QFile::remove(options.settings_file);
        options.language = QStringLiteral("en");
        Application app(options);
        QCOMPARE(app.start(), -1);
        MainWindow *w = app.window();
        QVERIFY(w && w->presentationMode());
        const QString name = QFileInfo(file).fileName();
        int expected = -1;
        for (size_t i = 0; i < app.gallery().size(); ++i)
            if (QFileInfo(app.gallery()[i].path).fileName() == name)
                expected = static_cast<int>(i);
        QCOMPARE(expected >= 0, in_gallery);
        QCOMPARE(w->galleryIndex(), expected);
        auto *banner = w->findChild<QLabel *>(QStringLiteral("presentationBanner"));
        QVERIFY(banner && banner->isVisible());
        if (in_gallery) {
            QVERIFY(
                banner->text().contains(app.gallery()[size_t(expected)].title_en.toHtmlEscaped()));
        } else {
            QVERIFY(banner->text().contains(
                QString::fromStdString(app.document()->scenario().name).toHtmlEscaped()));
            // A one-slide deck: the slide keys stay on it.
            QTest::keyClick(w, Qt::Key_Right);
            QCOMPARE(w->galleryIndex(), -1);
            QCOMPARE(app.document()->filePath(), QFileInfo(file).absoluteFilePath());
        }
        QTest::qWait(50);
        w->setPresentationMode(false);
    }

    // A fresh start on a 1280 x 720 screen (the default size was 1500 x 940), a geometry
    // saved on a larger screen, and --size larger than the screen.
    void windowOpensInsideTheScreen()
    {
        QScreen *small = screenOf(kScreens[0]);
        makeWindow(small);
        const QRect available = window_->screen()->availableGeometry();
        QCOMPARE(window_->screen(), small);
        QVERIFY2(available.contains(window_->frameGeometry()),
                 qPrintable(QStringLiteral("%1x%2 at %3,%4")
                                .arg(window_->frameGeometry().width())
                                .arg(window_->frameGeometry().height())
                                .arg(window_->frameGeometry().x())
                                .arg(window_->frameGeometry().y())));

        // Geometry saved from a window larger than this screen.
        {
            QWidget big;
            big.setGeometry(QRect(available.topLeft() + QPoint(0, 0), QSize(1900, 1060)));
            settings_->setValue(QStringLiteral("window/geometry"), big.saveGeometry());
        }
        WindowContext ctx;
        ctx.document = document_.get();
        ctx.recomputer = recomputer_.get();
        ctx.settings = settings_.get();
        ctx.gallery = &gallery_;
        ctx.language = QStringLiteral("en");
        ctx.interactive = false;
        window_.reset();
        auto restored = std::make_unique<MainWindow>(ctx);
        restored->show();
        QVERIFY(QTest::qWaitForWindowExposed(restored.get()));
        QVERIFY(restored->frameGeometry().width() <= available.width());
        QVERIFY(restored->frameGeometry().height() <= available.height());
        restored.reset();

        // The application with --size larger than the screen.
        AppOptions options;
        options.size = QSize(1500, 940);
        options.no_restore = true;
        options.settings_file = dir_.filePath(QStringLiteral("size-settings.ini"));
        QFile::remove(options.settings_file);
        Application app(options);
        QCOMPARE(app.start(), -1);
        QVERIFY(QTest::qWaitForWindowExposed(app.window()));
        const QRect screen_available = app.window()->screen()->availableGeometry();
        QVERIFY(screen_available.contains(app.window()->frameGeometry()));
    }

    // One wheel notch over an unfocused combo switched the strategy.
    void wheelOverUnfocusedControlDoesNothing_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("strategy combo") << QStringLiteral("strategyCombo");
        QTest::newRow("GPU combo") << QStringLiteral("gpuCombo");
        QTest::newRow("GPUs per node spin box") << QStringLiteral("gpusPerNodeSpin");
    }
    void wheelOverUnfocusedControlDoesNothing()
    {
        QFETCH(QString, name);
        makeWindow(screenOf(kScreens[1]));
        auto *control = window_->findChild<QWidget *>(name);
        QVERIFY(control && control->isVisible());
        auto value = [control]() -> QVariant {
            if (auto *combo = qobject_cast<QComboBox *>(control))
                return combo->currentIndex();
            return qobject_cast<QAbstractSpinBox *>(control)->text();
        };
        window_->setFocus();
        QVERIFY(!control->hasFocus());
        const QVariant before = value();
        const QPointF centre = QPointF(control->rect().center());
        for (int notch : {-120, 120}) {
            QWheelEvent wheel(centre, control->mapToGlobal(centre), QPoint(), QPoint(0, notch),
                              Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
            QApplication::sendEvent(control, &wheel);
        }
        QCOMPARE(value(), before);
        QCOMPARE(document_->undoStack()->count(), 0);
        QVERIFY(!control->hasFocus()); // a notch does not take focus either
        QCOMPARE(control->focusPolicy(), Qt::StrongFocus);
        // With focus, the wheel works as before.
        control->setFocus();
        QWheelEvent wheel(centre, control->mapToGlobal(centre), QPoint(), QPoint(0, -120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(control, &wheel);
        QVERIFY(value() != before);
    }
};

// Two offscreen screens of the sizes talks are given at, side by side.
int main(int argc, char *argv[])
{
    QTemporaryDir config_dir;
    const QString config = config_dir.filePath(QStringLiteral("screens.json"));
    {
        QFile f(config);
        if (!f.open(QIODevice::WriteOnly))
            return 1;
        f.write(R"({"windowFrameMargins": false, "screens": [
            {"name": "projector-720p", "x": 0, "y": 0, "width": 1280, "height": 720,
             "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1},
            {"name": "projector-1080p", "x": 1280, "y": 0, "width": 1920, "height": 1080,
             "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]})");
    }
    qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + config.toLocal8Bit());
    QApplication app(argc, argv);
    TestPresentation test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_presentation.moc"
