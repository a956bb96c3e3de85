// The Calibration tab (issue 4): profiles listed, compared against the datasheet, deleted
// and applied; gpuprobe run as a child process (on its simulated GPUs) with progress and
// cancel; the empty state.
#include "calibration_page.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "probe_runner.h"
#include "profile_library.h"

#include "../support/screenshot.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace scalescope;

namespace
{
const QString kProfiles = QStringLiteral(SCALESCOPE_SOURCE_DIR "/tests/io/data/profiles");
}

class TestCalibrationPage : public QObject
{
    Q_OBJECT
    QTemporaryDir dir_;

    QString userDir() const { return dir_.filePath(QStringLiteral("profiles")); }
    void copyProfile(const QString &name)
    {
        QDir().mkpath(userDir());
        QFile::remove(QDir(userDir()).filePath(name));
        QVERIFY(QFile::copy(QDir(kProfiles).filePath(name), QDir(userDir()).filePath(name)));
    }

    // A quick probe run on no (simulated) GPU: gpuprobe exits 3 with its reason.
    void runWithoutGpus(CalibrationPage &page)
    {
        page.setDirectories({}, userDir());
        page.setProbeProgram(QStringLiteral(SCALESCOPE_GPUPROBE));
        page.setExtraProbeArguments({QStringLiteral("--fake-gpus"), QStringLiteral("0")});
        QSignalSpy finished(page.runner(), &ProbeRunner::finished);
        QVERIFY(page.startProbe(true));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toInt(), 3);
    }

private Q_SLOTS:
    void cleanup() { QDir(userDir()).removeRecursively(); }

    // Issue 29, item 14: a symlink to a FIFO in the library hung the window at start (the
    // profile was opened for reading in the GUI thread). Now it is listed as damaged at once.
    void fifoInTheLibraryDoesNotBlock()
    {
        QDir().mkpath(userDir());
        copyProfile(QStringLiteral("h200-1gpu.json"));
        const QString fifo = dir_.filePath(QStringLiteral("pipe"));
        QFile::remove(fifo);
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QVERIFY(QFile::link(fifo, QDir(userDir()).filePath(QStringLiteral("fifo.json"))));
        QVERIFY(
            ::mkfifo(
                QFile::encodeName(QDir(userDir()).filePath(QStringLiteral("raw.json"))).constData(),
                0600) == 0);
        const std::vector<ProfileEntry> entries = scanProfiles({userDir()}, userDir());
        bool good = false;
        for (const ProfileEntry &e : entries) {
            if (e.path.endsWith(QStringLiteral("h200-1gpu.json")))
                good = e.profile != nullptr;
            if (e.path.endsWith(QStringLiteral("fifo.json")) ||
                e.path.endsWith(QStringLiteral("raw.json")))
                QVERIFY2(e.error.contains(QStringLiteral("FIFO")), qPrintable(e.error));
        }
        QVERIFY(good);
        CalibrationPage page;
        page.setDirectories({}, userDir());
        QVERIFY(page.profileModel()->rowCount() >= 1);
        QFile::remove(fifo);
    }

    void emptyStateExplainsHowToMakeAProfile()
    {
        CalibrationPage page;
        page.setDirectories({}, userDir());
        QCOMPARE(page.profileModel()->rowCount(), 0);
        auto *empty = page.findChild<QLabel *>(QStringLiteral("calibrationEmptyState"));
        QVERIFY(empty);
        QVERIFY(empty->text().contains(QStringLiteral("gpuprobe")));
        QCOMPARE(page.findChild<QStackedWidget *>()->currentIndex(), 0);
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("applyProfileButton"))->isEnabled());
    }

    void listsComparesAndApplies()
    {
        copyProfile(QStringLiteral("h200-1gpu.json"));
        copyProfile(QStringLiteral("h100-2node-8gpu.json"));
        copyProfile(QStringLiteral("broken-bandwidth.json"));
        CalibrationPage page;
        page.setDirectories({}, userDir());
        QAbstractItemModelTester list_tester(
            page.profileModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester figure_tester(
            page.figureModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(page.profileModel()->rowCount(), 3);
        int h200 = -1, broken = -1, h100 = -1;
        for (int r = 0; r < 3; ++r) {
            const ProfileEntry *e = page.profileModel()->entry(r);
            if (e->path.endsWith(QStringLiteral("h200-1gpu.json")))
                h200 = r;
            else if (e->path.endsWith(QStringLiteral("broken-bandwidth.json")))
                broken = r;
            else
                h100 = r;
        }
        // A damaged profile is listed with its error, never dropped silently.
        QVERIFY(!page.profileModel()->entry(broken)->error.isEmpty());
        QVERIFY(page.profileModel()
                    ->data(page.profileModel()->index(broken, 0))
                    .toString()
                    .contains(QStringLiteral("damaged")));

        page.selectRows({h200});
        QCOMPARE(page.findChild<QStackedWidget *>()->currentIndex(), 1);
        QVERIFY(page.figureModel()->rowCount() >= 3);
        QCOMPARE(page.figureModel()->columnCount(), 3); // figure, datasheet, one profile
        // The H200's datasheet is found in the catalog: the bf16 GEMM row has both figures.
        bool compared = false;
        for (int r = 0; r < page.figureModel()->rowCount(); ++r) {
            const QString figure = page.figureModel()->index(r, 0).data().toString();
            if (figure.contains(QStringLiteral("bf16")))
                compared =
                    page.figureModel()->index(r, 1).data().toString() != QStringLiteral("—") &&
                    page.figureModel()->index(r, 2).data().toString().contains('%');
        }
        QVERIFY(compared);

        page.selectRows({h200, h100}); // compare two
        QCOMPARE(page.figureModel()->columnCount(), 4);
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("applyProfileButton"))->isEnabled());

        page.selectRows({h200});
        QSignalSpy apply(&page, &CalibrationPage::applyRequested);
        QTest::mouseClick(page.findChild<QPushButton *>(QStringLiteral("applyProfileButton")),
                          Qt::LeftButton);
        QCOMPARE(apply.count(), 1);
        QVERIFY(apply.at(0).at(0).toString().endsWith(QStringLiteral("h200-1gpu.json")));
        page.setAppliedProfile(apply.at(0).at(0).toString());
        QVERIFY(page.findChild<QLabel *>(QStringLiteral("appliedProfileLabel"))
                    ->text()
                    .contains(QStringLiteral("h200-1gpu.json")));

        // Deleting the applied profile returns the scenario to datasheet figures.
        QVERIFY(page.deleteProfile(h200, false));
        QCOMPARE(apply.count(), 2);
        QVERIFY(apply.at(1).at(0).toString().isEmpty());
        QCOMPARE(page.profileModel()->rowCount(), 2);
        QVERIFY(!QFile::exists(QDir(userDir()).filePath(QStringLiteral("h200-1gpu.json"))));
    }

    void scenarioProfileOutsideTheLibraryIsShown()
    {
        // A scenario may name a profile that lies beside it, not in the library: the tab
        // showed "No calibration profile selected" under "The scenario uses the profile ...".
        copyProfile(QStringLiteral("h100-2node-8gpu.json"));
        QTemporaryDir elsewhere;
        const QString outside = elsewhere.filePath(QStringLiteral("colleague-h200.json"));
        QVERIFY(QFile::copy(QDir(kProfiles).filePath(QStringLiteral("h200-1gpu.json")), outside));
        CalibrationPage page;
        page.setDirectories({}, userDir());
        QCOMPARE(page.profileModel()->rowCount(), 1);
        page.setAppliedProfile(outside);
        QCOMPARE(page.profileModel()->rowCount(), 2);
        const ProfileEntry *first = page.profileModel()->entry(0);
        QVERIFY(first->from_scenario);
        QVERIFY(first->profile);
        QVERIFY(page.profileModel()
                    ->data(page.profileModel()->index(0, ProfileListModel::File))
                    .toString()
                    .contains(QStringLiteral("scenario")));
        // Selected and compared against its datasheet; not the library's to delete.
        QCOMPARE(page.findChild<QStackedWidget *>()->currentIndex(), 1);
        QCOMPARE(page.figureModel()->columnCount(), 3);
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("deleteProfileButton"))->isEnabled());
        QVERIFY(!page.deleteProfile(0, false));
        QVERIFY(QFile::exists(outside));
        // Every change of the scenario calls setAppliedProfile: the same file is not added
        // twice, and the user's own selection stays.
        page.selectRows({1});
        page.setAppliedProfile(outside);
        QCOMPARE(page.profileModel()->rowCount(), 2);
        QCOMPARE(page.figureModel()->columnCount(), 3);
        QVERIFY(
            page.profileModel()->entry(1)->path.endsWith(QStringLiteral("h100-2node-8gpu.json")));
        // A profile of the library is listed once, as the library's.
        const QString listed = QDir(userDir()).filePath(QStringLiteral("h100-2node-8gpu.json"));
        page.setAppliedProfile(listed);
        QCOMPARE(page.profileModel()->rowCount(), 1);
        QVERIFY(!page.profileModel()->entry(0)->from_scenario);
        QCOMPARE(page.findChild<QStackedWidget *>()->currentIndex(), 1);
        page.setAppliedProfile(QString());
        QCOMPARE(page.profileModel()->rowCount(), 1);
    }

    void bundledProfilesAreReadOnly()
    {
        CalibrationPage page;
        page.setDirectories({kProfiles}, userDir());
        QVERIFY(page.profileModel()->rowCount() >= 3);
        QVERIFY(page.profileModel()->entry(0)->read_only);
        QVERIFY(!page.deleteProfile(0, false));
    }

    void matchesCatalogGpus_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("memory");
        QTest::addColumn<QString>("id");
        QTest::newRow("h200") << "NVIDIA H200" << 150e9 << "h200-sxm-141gb";
        QTest::newRow("4090") << "NVIDIA GeForce RTX 4090" << 24e9 << "rtx-4090-24gb";
        QTest::newRow("a100 40") << "NVIDIA A100-SXM4-40GB" << 40e9 << "a100-sxm4-40gb";
        // NVML's names: memory type and size are not model words; a PCIe part says so.
        QTest::newRow("h100 hbm3") << "NVIDIA H100 80GB HBM3" << 85.5e9 << "h100-sxm5-80gb";
        QTest::newRow("h100 pcie") << "NVIDIA H100 PCIe" << 85.5e9 << "h100-pcie-80gb";
        QTest::newRow("a100 80 pcie") << "NVIDIA A100 80GB PCIe" << 85.1e9 << "a100-pcie-80gb";
        QTest::newRow("l4") << "NVIDIA L4" << 24e9 << "l4-24gb";
        QTest::newRow("unknown") << "Matrox G200" << 0.0 << "";
    }
    void matchesCatalogGpus()
    {
        QFETCH(QString, name);
        QFETCH(double, memory);
        QFETCH(QString, id);
        const GpuSpec *g = builtinCatalog().matchGpuName(name.toStdString(), memory);
        QCOMPARE(g ? QString::fromStdString(g->id) : QString(), id);
    }

    void probeLinesParse_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("done");
        QTest::addColumn<QString>("test");
        QTest::newRow("progress") << "progress 3 12 gemm bf16 4096" << int(ProbeLine::Progress) << 3
                                  << "gemm";
        QTest::newRow("skipped") << "skipped p2p one GPU only" << int(ProbeLine::Skipped) << 0
                                 << "p2p";
        QTest::newRow("error") << "error nccl ncclCommInitAll: unhandled" << int(ProbeLine::Error)
                               << 0 << "nccl";
        QTest::newRow("bad numbers") << "progress x 12 gemm" << int(ProbeLine::Other) << 0 << "";
        QTest::newRow("done > total") << "progress 13 12 gemm" << int(ProbeLine::Other) << 0 << "";
        QTest::newRow("text") << "gpuprobe 0.1.0" << int(ProbeLine::Other) << 0 << "";
    }
    void probeLinesParse()
    {
        QFETCH(QString, line);
        QFETCH(int, kind);
        QFETCH(int, done);
        QFETCH(QString, test);
        const ProbeLine p = parseProbeLine(line);
        QCOMPARE(int(p.kind), kind);
        QCOMPARE(p.done, done);
        QCOMPARE(p.test, test);
    }

    void runsTheProbeWithProgress()
    {
        CalibrationPage page;
        page.setDirectories({}, userDir());
        page.setProbeProgram(QStringLiteral(SCALESCOPE_GPUPROBE));
        page.setExtraProbeArguments({QStringLiteral("--fake-gpus"), QStringLiteral("2")});
        QSignalSpy progress(page.runner(), &ProbeRunner::progress);
        QSignalSpy finished(page.runner(), &ProbeRunner::finished);
        QVERIFY(page.startProbe(true));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toInt(), 0);
        QVERIFY(progress.count() >= 3);
        auto *bar = page.findChild<QProgressBar *>(QStringLiteral("probeProgress"));
        QCOMPARE(bar->value(), bar->maximum());
        QCOMPARE(page.profileModel()->rowCount(), 1);
        QVERIFY(page.profileModel()->entry(0)->profile);
        QCOMPARE(page.profileModel()->entry(0)->profile->gpus.size(), size_t(2));
        QCOMPARE(page.findChild<QStackedWidget *>()->currentIndex(), 1); // new one selected
    }

    void importedLogCountsItsRanks()
    {
        // Issue 13: an 8-rank nccl-tests log listed "GPUs 0" and "-" as its datasheet figure.
        CalibrationPage page;
        page.setDirectories({}, userDir());
        Result<Scenario> s =
            loadScenarioFile(QStringLiteral(SCALESCOPE_SOURCE_DIR
                                            "/resources/scenarios/claim06-a-one-node-of-8.json"),
                             builtinCatalog());
        QVERIFY(s.ok());
        page.setHardware(s.value().hardware);
        page.setProbeProgram(QStringLiteral(SCALESCOPE_GPUPROBE));
        QSignalSpy finished(page.runner(), &ProbeRunner::finished);
        QVERIFY(page.importNcclTests(
            {QStringLiteral(SCALESCOPE_SOURCE_DIR
                            "/tests/fuzz/corpus/nccl_tests_log/all_gather_perf_8xa100.log")}));
        QVERIFY(finished.wait(60000));
        QCOMPARE(finished.at(0).at(0).toInt(), 0);
        ProfileListModel *list = page.profileModel();
        int row = -1;
        for (int r = 0; r < list->rowCount(); ++r)
            if (list->entry(r)->profile)
                row = r;
        QVERIFY(row >= 0);
        QCOMPARE(list->index(row, ProfileListModel::Gpus).data().toInt(), 8);
        page.selectRows({row});
        FigureTableModel *figures = page.figureModel();
        bool found = false;
        for (int r = 0; r < figures->rowCount(); ++r) {
            if (!figures->index(r, 0).data().toString().contains(QStringLiteral("all_gather")))
                continue;
            found = true;
            const QString sheet = figures->index(r, 1).data().toString();
            QVERIFY2(sheet != QStringLiteral("—"), qPrintable(sheet));
            QVERIFY(figures->index(r, 1)
                        .data(Qt::ToolTipRole)
                        .toString()
                        .contains(QStringLiteral("datasheet links")));
            QVERIFY(figures->index(r, 2).data().toString().contains(QStringLiteral("%")));
        }
        QVERIFY(found);
        // Issue 26: a collectives-only profile showed an empty GEMM chart (ticks "0, 1, 1, 2");
        // a line says that no GEMM was measured instead.
        auto *chart = page.findChild<QWidget *>(QStringLiteral("gemmChart"));
        auto *note = page.findChild<QLabel *>(QStringLiteral("gemmNote"));
        QVERIFY(chart && note);
        QVERIFY(!chart->isVisibleTo(&page));
        QVERIFY(note->isVisibleTo(&page));
        QVERIFY(note->text().contains(QStringLiteral("collectives only")));
    }

    void noGpuIsExplained()
    {
        CalibrationPage page;
        runWithoutGpus(page);
        const QString status = page.findChild<QLabel *>(QStringLiteral("probeStatus"))->text();
        QVERIFY2(status.startsWith(QStringLiteral("No usable GPU: ")), qPrintable(status));
        // Issue 26: the reason once, not "No usable GPU: gpuprobe: no usable GPU: ...".
        QVERIFY2(!status.contains(QStringLiteral("gpuprobe:")), qPrintable(status));
        QCOMPARE(status.count(QStringLiteral("usable GPU"), Qt::CaseInsensitive), 1);
        // Issue 13: nothing measured, nothing saved: no empty profile joins the list.
        QCOMPARE(QDir(userDir()).entryList({QStringLiteral("*.json")}, QDir::Files).size(), 0);
        // Issue 26: the log named the file gpuprobe wrote, then said no profile was saved;
        // it says that this file was deleted again.
        const QString log =
            page.findChild<QPlainTextEdit *>(QStringLiteral("probeLog"))->toPlainText();
        const QRegularExpression wrote(QStringLiteral("wrote \\S*/([^/\\s]+\\.json)"));
        const QRegularExpressionMatch m = wrote.match(log);
        if (m.hasMatch())
            QVERIFY2(log.contains(m.captured(1) + QStringLiteral(" was deleted again")),
                     qPrintable(log));
        QVERIFY2(!log.contains(QStringLiteral("no profile was saved")), qPrintable(log));
        // The tab alone at the windows' sizes, and in Chinese (a page built in Chinese).
        page.show();
        QVERIFY(screenshot::saveBothSizes(page, QStringLiteral("calibration-no-gpu-page")));
        if (screenshot::wanted()) {
            screenshot::Chinese chinese(QStringLiteral(":/i18n/scalescope_zh_CN.qm"));
            QVERIFY(chinese.loaded());
            CalibrationPage zh;
            runWithoutGpus(zh);
            zh.show();
            QVERIFY(screenshot::save(zh, QStringLiteral("calibration-no-gpu-page"),
                                     QSize(1280, 720), QStringLiteral("zh_CN")));
        }
    }

    void cancelStopsTheProbe()
    {
        CalibrationPage page;
        page.setDirectories({}, userDir());
        page.setProbeProgram(QStringLiteral(SCALESCOPE_GPUPROBE));
        // A long run: the full (not quick) probe with a thermal soak on simulated GPUs.
        page.setExtraProbeArguments({QStringLiteral("--fake-gpus"), QStringLiteral("4"),
                                     QStringLiteral("--thermal"), QStringLiteral("600")});
        QSignalSpy finished(page.runner(), &ProbeRunner::finished);
        QVERIFY(page.startProbe(false));
        QTest::qWait(200);
        QTest::mouseClick(page.findChild<QPushButton *>(QStringLiteral("cancelProbeButton")),
                          Qt::LeftButton);
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.at(0).at(0).toInt(), -1);
        QCOMPARE(finished.at(0).at(1).toString(), QStringLiteral("Cancelled."));
        QVERIFY(page.findChild<QPushButton *>(QStringLiteral("measureButton"))->isEnabled());
    }

    void missingProgramIsReported()
    {
        CalibrationPage page;
        page.setDirectories({}, userDir());
        page.setProbeProgram(dir_.filePath(QStringLiteral("no-such-gpuprobe")));
        QSignalSpy finished(page.runner(), &ProbeRunner::finished);
        QVERIFY(page.startProbe(true));
        QVERIFY(finished.wait(10000));
        QCOMPARE(finished.at(0).at(0).toInt(), -1);
        QVERIFY(finished.at(0).at(1).toString().contains(QStringLiteral("could not be started")));
    }
};

QTEST_MAIN(TestCalibrationPage)
#include "tst_calibration_page.moc"
