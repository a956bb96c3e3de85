// Issue 14 (data loss), GUI side: what Document::save writes (the calibration path as the
// file had it, nested "x-" keys), no silent overwrite of a file another window saved, and
// a damaged settings file with 200,000 recent files that must not slow the start.
#include "app.h"
#include "autosave.h"
#include "document.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "main_window.h"
#include "recent_files.h"
#include "recompute.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

#include "../support/no_room.h"

using namespace scalescope;

namespace
{

const char *kProfile = R"({ "scalescope_profile": 1, "created": "2026-11-30T10:00:00Z",
  "tool": "t", "host": { "hostname": "h", "gpus_per_node": 1, "nodes": 1 } })";

const char *kScenario = R"({ "scalescope": 1, "name": "saved by the GUI",
  "hardware": { "gpu": "h200-sxm-141gb", "gpus_per_node": 4, "x-rack": "r12",
                "calibration": "profiles/h200.json", "x-aisle": 3 },
  "model": "gpt2-1.5b",
  "training": { "global_batch": 64, "micro_batch": 4, "x-note": "2024 runs" },
  "parallel": { "data": 4, "x-todo": true } })";

void writeFile(const QString &path, const QByteArray &data)
{
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly | QIODevice::Truncate), qPrintable(path));
    f.write(data);
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QJsonObject hardwareIn(const QByteArray &text)
{
    return QJsonDocument::fromJson(text).object().value(u"hardware").toObject();
}

/// A document edit: another global batch.
void editBatch(Document &document, int64_t batch)
{
    Scenario s = document.scenario();
    s.training.global_batch = batch;
    document.edit(s, QStringLiteral("batch"));
}

/// A test window's context: English, not interactive (errors go to the status bar).
WindowContext windowContext(Document *document, Recomputer *recomputer, QSettings *settings,
                            std::vector<GalleryEntry> *gallery, AutosaveStore *autosave = nullptr)
{
    WindowContext ctx;
    ctx.document = document;
    ctx.recomputer = recomputer;
    ctx.settings = settings;
    ctx.autosave = autosave;
    ctx.gallery = gallery;
    ctx.language = QStringLiteral("en");
    ctx.interactive = false;
    return ctx;
}

} // namespace

class TestDocumentSave : public QObject
{
    Q_OBJECT

    QTemporaryDir dir_;
    QString scenario_; // dir_/s.json (rewritten by init)

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(dir_.isValid());
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("profiles")));
        QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("elsewhere/deeper")));
        writeFile(dir_.filePath(QStringLiteral("profiles/h200.json")), kProfile);
        scenario_ = dir_.filePath(QStringLiteral("s.json"));
    }

    void init() { writeFile(scenario_, kScenario); }

    // Defect 1: the relative calibration path stays relative.
    void saveKeepsRelativeCalibration()
    {
        Document document;
        QString error;
        QVERIFY2(document.open(scenario_, &error), qPrintable(error));
        editBatch(document, 128);
        QVERIFY2(document.save(scenario_, &error), qPrintable(error));
        const QByteArray saved = readFile(scenario_);
        QCOMPARE(hardwareIn(saved).value(u"calibration").toString(),
                 QStringLiteral("profiles/h200.json"));
        QVERIFY2(!saved.contains(dir_.path().toUtf8()), saved.constData());

        // Save As into another folder: relative to that folder.
        const QString copy = dir_.filePath(QStringLiteral("elsewhere/deeper/copy.json"));
        QVERIFY2(document.save(copy, &error), qPrintable(error));
        QCOMPARE(hardwareIn(readFile(copy)).value(u"calibration").toString(),
                 QStringLiteral("../../profiles/h200.json"));
        Document reopened;
        QVERIFY2(reopened.open(copy, &error), qPrintable(error));
        QCOMPARE(QString::fromStdString(reopened.scenario().hardware.calibration_path),
                 dir_.filePath(QStringLiteral("profiles/h200.json")));
    }

    // Defect 2: nested x- keys survive open -> edit -> save, in their object and order.
    void saveKeepsNestedXKeys()
    {
        Document document;
        QString error;
        QVERIFY2(document.open(scenario_, &error), qPrintable(error));
        editBatch(document, 256);
        QVERIFY2(document.save(scenario_, &error), qPrintable(error));
        const QByteArray saved = readFile(scenario_);
        const QJsonObject root = QJsonDocument::fromJson(saved).object();
        QCOMPARE(root[u"hardware"][u"x-rack"].toString(), QStringLiteral("r12"));
        QCOMPARE(root[u"hardware"][u"x-aisle"].toInt(), 3);
        QCOMPARE(root[u"training"][u"x-note"].toString(), QStringLiteral("2024 runs"));
        QCOMPARE(root[u"training"][u"global_batch"].toInt(), 256);
        QCOMPARE(root[u"parallel"][u"x-todo"].toBool(), true);
        QVERIFY2(saved.indexOf("\"x-rack\"") < saved.indexOf("\"x-aisle\""), saved.constData());
    }

    // Defect 3: two windows on one file.
    void conflict_data()
    {
        QTest::addColumn<int>("choice"); // SaveConflictChoice
        QTest::newRow("cancel") << int(SaveConflictChoice::Cancel);
        QTest::newRow("save as") << int(SaveConflictChoice::SaveAs);
        QTest::newRow("overwrite") << int(SaveConflictChoice::Overwrite);
    }

    void conflict()
    {
        QFETCH(int, choice);
        Document first, second;
        QString error;
        QVERIFY2(first.open(scenario_, &error), qPrintable(error));
        QVERIFY2(second.open(scenario_, &error), qPrintable(error));
        int asked = 0;
        QString asked_about;
        const auto handler = [&](const QString &path) {
            ++asked;
            asked_about = path;
            return SaveConflictChoice(choice);
        };
        first.setConflictHandler(handler);
        second.setConflictHandler(handler);
        const QString other = dir_.filePath(QStringLiteral("second-window.json"));
        QFile::remove(other);
        second.setSaveAsHandler([&](const QString &) { return other; });

        // The first window saves: the file is as it opened it, no question.
        editBatch(first, 128);
        QVERIFY2(first.save(scenario_, &error), qPrintable(error));
        QCOMPARE(asked, 0);
        const QByteArray firsts = readFile(scenario_);

        // The second window saves over it: asked, and the first window's work is kept
        // unless the user chose to overwrite it.
        editBatch(second, 512);
        QVERIFY(second.changedOnDisk());
        const bool saved = second.save(scenario_, &error);
        QCOMPARE(asked, 1);
        QCOMPARE(asked_about, QFileInfo(scenario_).absoluteFilePath());
        switch (SaveConflictChoice(choice)) {
        case SaveConflictChoice::Cancel:
            QVERIFY(!saved);
            QVERIFY2(error.isEmpty(), qPrintable(error)); // cancelled, not failed
            QCOMPARE(readFile(scenario_), firsts);
            QVERIFY(second.isModified());
            QCOMPARE(second.filePath(), QFileInfo(scenario_).absoluteFilePath());
            break;
        case SaveConflictChoice::SaveAs:
            QVERIFY2(saved, qPrintable(error));
            QCOMPARE(readFile(scenario_), firsts);
            QCOMPARE(second.filePath(), QFileInfo(other).absoluteFilePath());
            QCOMPARE(QJsonDocument::fromJson(readFile(other))
                         .object()[u"training"][u"global_batch"]
                         .toInt(),
                     512);
            QVERIFY(!second.isModified());
            break;
        case SaveConflictChoice::Overwrite:
            QVERIFY2(saved, qPrintable(error));
            QCOMPARE(QJsonDocument::fromJson(readFile(scenario_))
                         .object()[u"training"][u"global_batch"]
                         .toInt(),
                     512);
            // Now the first window is the one behind.
            QVERIFY(first.changedOnDisk());
            QVERIFY(!second.changedOnDisk());
            break;
        }
    }

    void noConflictWithoutAChange()
    {
        Document document;
        QString error;
        QVERIFY2(document.open(scenario_, &error), qPrintable(error));
        int asked = 0;
        document.setConflictHandler([&](const QString &) {
            ++asked;
            return SaveConflictChoice::Cancel;
        });
        for (int batch : {128, 256, 512}) {
            editBatch(document, batch);
            QVERIFY2(document.save(scenario_, &error), qPrintable(error));
        }
        // Touched (a new modification time) but the same bytes: nothing to lose.
        QFile file(scenario_);
        QVERIFY(file.open(QIODevice::ReadWrite));
        QVERIFY(file.setFileTime(QDateTime::currentDateTime().addSecs(60),
                                 QFileDevice::FileModificationTime));
        file.close();
        QVERIFY(!document.changedOnDisk());
        // Gone: saving loses nothing either.
        QVERIFY(QFile::remove(scenario_));
        QVERIFY(!document.changedOnDisk());
        editBatch(document, 64);
        QVERIFY2(document.save(scenario_, &error), qPrintable(error));
        QCOMPARE(asked, 0);
    }

    void sameSizeAndTimeButOtherContent()
    {
        // Another program rewrote one digit and kept the modification time: the content
        // hash still sees it.
        Document document;
        QString error;
        QVERIFY2(document.open(scenario_, &error), qPrintable(error));
        const QDateTime mtime = QFileInfo(scenario_).lastModified();
        QByteArray text = readFile(scenario_);
        const qsizetype at = text.indexOf("\"global_batch\": 64");
        QVERIFY(at > 0);
        text[at + 16] = '3'; // 64 -> 34
        writeFile(scenario_, text);
        {
            QFile file(scenario_);
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.setFileTime(mtime, QFileDevice::FileModificationTime));
        }
        QCOMPARE(QFileInfo(scenario_).size(), qint64(qstrlen(kScenario)));
        QVERIFY(document.changedOnDisk());
        document.setConflictHandler([](const QString &) { return SaveConflictChoice::Cancel; });
        editBatch(document, 128);
        QVERIFY(!document.save(scenario_, &error));
        QCOMPARE(readFile(scenario_), text);
    }

    // Defect 4: a damaged settings file with 200,000 recent files.
    void recentFilesCapped()
    {
        const QString ini = dir_.filePath(QStringLiteral("damaged.ini"));
        const int entries = 200000;
        {
            QByteArray text = "[files]\nrecent=";
            for (int i = 0; i < entries; ++i) {
                if (i > 0)
                    text += ", ";
                text += dir_.filePath(QStringLiteral("gone/file-%1.json").arg(i % 150000)).toUtf8();
            }
            text += "\n";
            writeFile(ini, text);
        }
        QElapsedTimer timer;
        timer.start();
        QStringList recent;
        {
            QSettings settings(ini, QSettings::IniFormat);
            recent = RecentFiles::read(settings);
        }
        const qint64 first_ms = timer.elapsed();
        QCOMPARE(recent.size(), RecentFiles::kDefaultMax);
        QCOMPARE(recent.first(), dir_.filePath(QStringLiteral("gone/file-0.json")));
        // The list was cut down in the file: the next start reads ten entries.
        timer.restart();
        {
            QSettings settings(ini, QSettings::IniFormat);
            QCOMPARE(settings.value(RecentFiles::key()).toStringList(), recent);
            QCOMPARE(RecentFiles::read(settings), recent);
            // Files that are gone are dropped when looked at, not before.
            QVERIFY(RecentFiles::dropMissing(settings).isEmpty());
            QVERIFY(!settings.contains(RecentFiles::key()));
        }
        const qint64 second_ms = timer.elapsed();
        qInfo("200,000 recent files: first read %lld ms, next start %lld ms", first_ms, second_ms);
    }

    void recentFilesAddAndRepeats()
    {
        QSettings settings(dir_.filePath(QStringLiteral("recent.ini")), QSettings::IniFormat);
        settings.clear();
        settings.setValue(RecentFiles::key(), QStringList{"a", "a", "", "b", "a", "c"});
        QCOMPARE(RecentFiles::read(settings, 2), (QStringList{"a", "b"}));
        QCOMPARE(RecentFiles::add(settings, "c", 2), (QStringList{"c", "a"}));
        QCOMPARE(RecentFiles::add(settings, "a", 2), (QStringList{"a", "c"}));
        QCOMPARE(RecentFiles::remove(settings, "a", 2), (QStringList{"c"}));
        settings.setValue(RecentFiles::key(), QStringLiteral("only"));
        QCOMPARE(RecentFiles::read(settings), (QStringList{"only"}));
    }

    // Defect 4 end to end: the window starts quickly on the damaged settings and its Open
    // Recent menu holds a short list (MainWindow reads the list through RecentFiles).
    void windowStartsOnDamagedSettings()
    {
        const QString ini = dir_.filePath(QStringLiteral("window.ini"));
        {
            QByteArray text = "[files]\nrecent=";
            for (int i = 0; i < 200000; ++i) {
                if (i > 0)
                    text += ", ";
                text += dir_.filePath(QStringLiteral("gone/w-%1.json").arg(i)).toUtf8();
            }
            text += "\n";
            writeFile(ini, text);
        }
        QString error;
        std::vector<GalleryEntry> gallery = Application::loadBuiltinGallery(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QElapsedTimer timer;
        timer.start();
        QSettings settings(ini, QSettings::IniFormat);
        Document document;
        document.reset(loadScenarioFile(QStringLiteral(SCALESCOPE_SOURCE_DIR
                                                       "/resources/scenarios/default.json"),
                                        builtinCatalog())
                           .value(),
                       QString());
        Recomputer recomputer;
        auto window = std::make_unique<MainWindow>(
            windowContext(&document, &recomputer, &settings, &gallery));
        const qint64 ms = timer.elapsed();
        qInfo("window on 200,000 recent files: %lld ms", ms);
        int recent_actions = -1;
        for (QMenu *menu : window->findChildren<QMenu *>()) {
            if (menu->title() == QLatin1String("Open &Recent"))
                recent_actions = int(menu->actions().size());
        }
        QVERIFY(recent_actions >= 0);
        QVERIFY2(recent_actions <= RecentFiles::kDefaultMax + 2,
                 qPrintable(QString::number(recent_actions)));
        window.reset();
    }

    // Issue 29, item 1: on a full disk (here the file size limit, as `ulimit -f 0`) File >
    // Save said "Saved", left the scenario file empty and cleared the autosave. Now the save
    // fails with the system's reason, the file keeps its bytes and the autosave stays.
    void fullDiskKeepsTheFileAndTheAutosave()
    {
        QString error;
        std::vector<GalleryEntry> gallery = Application::loadBuiltinGallery(&error);
        QSettings settings(dir_.filePath(QStringLiteral("full.ini")), QSettings::IniFormat);
        Document document;
        QVERIFY2(document.open(scenario_, &error), qPrintable(error));
        Recomputer recomputer;
        AutosaveStore autosave(dir_.filePath(QStringLiteral("autosave-full")));
        auto window = std::make_unique<MainWindow>(
            windowContext(&document, &recomputer, &settings, &gallery, &autosave));
        editBatch(document, 512);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(autosave.ownPath()), 5000);

        const bool ok = test::withNoRoomForData([&] { return window->saveTo(scenario_); });

        QVERIFY(!ok);
        QCOMPARE(readFile(scenario_), QByteArray(kScenario));
        QVERIFY(document.isModified());
        QVERIFY(QFileInfo::exists(autosave.ownPath()));
        const QString shown = window->statusBar()->currentMessage();
        QVERIFY2(shown.contains(QStringLiteral("File too large")), qPrintable(shown));
        window.reset();
    }
};

QTEST_MAIN(TestDocumentSave)
#include "tst_document_save.moc"
