// Crash safety of saves and autosaves (hardening issue), with the real `scalescope` program:
// it edits, autosaves and saves in a loop (the hidden --test-save-loop option) and is killed
// with SIGKILL at random moments, many times. After each kill the scenario file is a complete
// old or new version (it parses and is byte for byte what a save writes), no temporary file
// is taken for the document or for an autosave, the autosave left behind is complete and
// consistent with the file, and a new start of the application offers it back (through the
// real Application::offerRecovery, its question answered by the test). Damaged autosaves
// (truncated, garbage, empty, not an object) are reported, set aside as .damaged and never
// loaded; a JSON object the parser refuses (wrong version, not a scenario) likewise, as
// kept-<file>. Work refused for a rule across keys is offered back and opens as it was.
//
// SCALESCOPE_CRASH_ITERATIONS=N runs N kills instead of 50 (sanitizer builds).
#include "app.h"
#include "autosave.h"
#include "document.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"
#include "main_window.h"
#include "plan/rules.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace scalescope;

namespace
{
constexpr int kDefaultIterations = 50;
constexpr int kHangGuardMs = 60000;

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeBytes(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

/// "save loop 12" -> 12, "save loop 12 unsaved" -> 12 (and *unsaved), else -1.
int loopNumber(const std::string &name, bool *unsaved = nullptr)
{
    static const QRegularExpression re(QStringLiteral("^save loop (\\d+)( unsaved)?$"));
    const auto m = re.match(QString::fromStdString(name));
    if (unsaved)
        *unsaved = m.hasMatch() && !m.captured(2).isEmpty();
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

/// Answers the application's message boxes (the recovery question, damaged-autosave
/// warnings) as a user would, and remembers what they said.
class BoxAnswerer : public QObject
{
public:
    explicit BoxAnswerer(QMessageBox::StandardButton answer) : answer_(answer)
    {
        timer_.setInterval(20);
        connect(&timer_, &QTimer::timeout, this, [this] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            if (!box)
                return;
            seen << box->windowTitle() + QStringLiteral(" | ") + box->text();
            QAbstractButton *b = box->button(answer_);
            if (!b)
                b = box->button(QMessageBox::Ok);
            if (b)
                b->click();
            else
                box->reject();
        });
        timer_.start();
    }
    QStringList seen;

private:
    QMessageBox::StandardButton answer_;
    QTimer timer_;
};

} // namespace

class TestCrashSafety : public QObject
{
    Q_OBJECT

    QTemporaryDir dir_;
    QString doc_path_, settings_path_, autosave_dir_;
    QProcessEnvironment env_;

    /// A fresh start of the application in this process on the scenario file, with the
    /// recovery offer (the real offerRecovery) answered by `answer`. Returns what the
    /// message boxes said; `check` looks at the application before it goes.
    QStringList startApplication(QMessageBox::StandardButton answer,
                                 const std::function<void(Application &)> &check)
    {
        AppOptions options;
        options.file = doc_path_;
        options.settings_file = dir_.filePath(QStringLiteral("in-process.ini"));
        options.language = QStringLiteral("en");
        BoxAnswerer answerer(answer);
        {
            Application app(options);
            if (app.start() != -1)
                qFatal("the application did not start");
            // offerRecovery runs from the event loop once the window is up; wait until it
            // has answered everything (no box open for a while).
            QElapsedTimer idle;
            idle.start();
            int last = -1;
            const bool settled = QTest::qWaitFor(
                [&] {
                    if (answerer.seen.size() != last || QApplication::activeModalWidget()) {
                        last = int(answerer.seen.size());
                        idle.restart();
                    }
                    return idle.elapsed() > 500;
                },
                kHangGuardMs);
            if (!settled)
                qWarning("a message box stayed open for 60 s");
            check(app);
        }
        // The in-process run's own autosave (a recovered document is unsaved work) goes;
        // the next round starts clean.
        for (const QString &name :
             QDir(autosave_dir_).entryList({QStringLiteral("autosave-*.json")}, QDir::Files))
            QFile::remove(QDir(autosave_dir_).filePath(name));
        return answerer.seen;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(dir_.isValid());
        qRegisterMetaType<ResultPtr>("scalescope::ResultPtr");
        // The program and this process share an isolated home: its autosave folder is ours.
        const QString home = dir_.filePath(QStringLiteral("home"));
        QVERIFY(QDir().mkpath(home));
        env_ = QProcessEnvironment::systemEnvironment();
        for (const auto &[name, path] : {std::pair{"HOME", home},
                                         {"XDG_DATA_HOME", home + QStringLiteral("/data")},
                                         {"XDG_CONFIG_HOME", home + QStringLiteral("/config")},
                                         {"XDG_CACHE_HOME", home + QStringLiteral("/cache")}}) {
            QVERIFY(QDir().mkpath(path));
            env_.insert(QLatin1String(name), path);
            qputenv(name, path.toLocal8Bit());
        }
        env_.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        QCoreApplication::setOrganizationName(QStringLiteral("ScaleScope"));
        QCoreApplication::setApplicationName(QStringLiteral("ScaleScope"));
        autosave_dir_ = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
                        QStringLiteral("/autosave");
        QVERIFY2(autosave_dir_.startsWith(home), qPrintable(autosave_dir_));
        QVERIFY(QDir().mkpath(autosave_dir_));

        QDir().mkpath(dir_.filePath(QStringLiteral("docs")));
        doc_path_ = dir_.filePath(QStringLiteral("docs/scenario.json"));
        settings_path_ = dir_.filePath(QStringLiteral("settings.ini"));
        QVERIFY(QFile::copy(
            QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources/scenarios/default.json"), doc_path_));
        QFile::setPermissions(doc_path_, QFile::ReadOwner | QFile::WriteOwner);
    }

    void killedDuringSaves()
    {
        bool ok = false;
        int iterations = qEnvironmentVariableIntValue("SCALESCOPE_CRASH_ITERATIONS", &ok);
        if (!ok || iterations <= 0)
            iterations = kDefaultIterations;
        QRandomGenerator rng(20261130);
        int with_autosave = 0, offered = 0, total_saves = 0, leftovers = 0;
        for (int i = 0; i < iterations; ++i) {
            QProcess p;
            p.setProcessEnvironment(env_);
            p.setProcessChannelMode(QProcess::SeparateChannels);
            p.start(QStringLiteral(SCALESCOPE_GUI),
                    {doc_path_, QStringLiteral("--settings"), settings_path_,
                     QStringLiteral("--lang"), QStringLiteral("en"),
                     QStringLiteral("--test-save-loop")});
            QVERIFY2(p.waitForStarted(kHangGuardMs), qPrintable(p.errorString()));
            // Into the loop (the first save done), then a random moment among the saves.
            QByteArray out;
            QElapsedTimer t;
            t.start();
            while (!out.contains("saved 1\n") && t.elapsed() < kHangGuardMs &&
                   p.state() == QProcess::Running) {
                p.waitForReadyRead(100);
                out += p.readAllStandardOutput();
            }
            QVERIFY2(out.contains("saved 1\n"),
                     qPrintable(QStringLiteral("no save within 60 s: %1")
                                    .arg(QString::fromLocal8Bit(p.readAllStandardError()))));
            const int delay_ms = int(rng.bounded(400));
            t.restart();
            while (t.elapsed() < delay_ms) {
                p.waitForReadyRead(std::max<int>(1, delay_ms - int(t.elapsed())));
                out += p.readAllStandardOutput();
            }
            p.kill(); // SIGKILL
            QVERIFY(p.waitForFinished(kHangGuardMs));
            out += p.readAllStandardOutput();
            QCOMPARE(p.exitStatus(), QProcess::CrashExit);
            int printed = 0;
            for (const QByteArray &line : out.split('\n'))
                if (line.startsWith("saved "))
                    printed = std::max(printed, line.mid(6).toInt());
            total_saves += printed;

            // The document: complete, exactly what a save writes, from this run's loop.
            const QByteArray bytes = readAll(doc_path_);
            Result<Scenario> doc = parseScenario(bytes, builtinCatalog());
            QVERIFY2(doc,
                     qPrintable(QStringLiteral("kill %1 after %2 saves: the scenario file "
                                               "does not parse (%3 bytes): %4")
                                    .arg(i)
                                    .arg(printed)
                                    .arg(bytes.size())
                                    .arg(doc ? QString()
                                             : QString::fromStdString(doc.error().toString()))));
            QCOMPARE(writeScenario(doc.value()), bytes);
            const int file_n = loopNumber(doc.value().name);
            QVERIFY2(file_n == printed || file_n == printed + 1,
                     qPrintable(QStringLiteral("file holds save %1, last printed %2")
                                    .arg(file_n)
                                    .arg(printed)));

            // Nothing else beside it looks like the document (a leftover temporary file of an
            // interrupted save has another name and is never opened).
            for (const QString &name : QDir(dir_.filePath(QStringLiteral("docs")))
                                           .entryList(QDir::Files | QDir::Hidden)) {
                if (name == QLatin1String("scenario.json"))
                    continue;
                QVERIFY2(!name.endsWith(QLatin1String(".json")), qPrintable(name));
                ++leftovers;
                QFile::remove(dir_.filePath(QStringLiteral("docs/") + name));
            }

            // The autosave: at most one, complete, consistent with the file.
            std::vector<RecoveredWork> orphans;
            {
                AutosaveStore store(autosave_dir_);
                orphans = store.orphans();
            }
            for (const QString &name : QDir(autosave_dir_).entryList(QDir::Files)) {
                static const QRegularExpression ok_name(
                    QStringLiteral("^autosave-\\d+\\.(json|lock)$"));
                if (!ok_name.match(name).hasMatch())
                    ++leftovers; // a temporary file: never offered (checked below)
            }
            QVERIFY(orphans.size() <= 1);
            if (!orphans.empty()) {
                const RecoveredWork &w = orphans.front();
                QVERIFY2(w.error.isEmpty(), qPrintable(w.error));
                QVERIFY(
                    QFileInfo(w.autosave_path).fileName().startsWith(QLatin1String("autosave-")));
                QCOMPARE(QFileInfo(w.original_path).canonicalFilePath(),
                         QFileInfo(doc_path_).canonicalFilePath());
                Result<Scenario> saved = parseScenario(w.scenario_json, builtinCatalog());
                QVERIFY(saved);
                bool unsaved = false;
                const int n = loopNumber(saved.value().name, &unsaved);
                // Edit n, autosave "n", save n, autosave "n unsaved": never older than the file.
                QVERIFY2((unsaved && n == file_n) || (!unsaved && (n == file_n || n == file_n + 1)),
                         qPrintable(QStringLiteral("file save %1, autosave %2")
                                        .arg(file_n)
                                        .arg(QString::fromStdString(saved.value().name))));
                ++with_autosave;
            }

            // Every fifth kill, and the last: the next start offers it back.
            if (!orphans.empty() && (i % 5 == 0 || i == iterations - 1)) {
                const std::string expected =
                    parseScenario(orphans.front().scenario_json, builtinCatalog()).value().name;
                std::string restored;
                bool modified = false;
                const QStringList boxes = startApplication(QMessageBox::Yes, [&](Application &app) {
                    restored = app.document()->scenario().name;
                    modified = app.document()->isModified();
                });
                QCOMPARE(boxes.size(), qsizetype(1));
                QVERIFY2(boxes.front().startsWith(QLatin1String("Restore unsaved work?")),
                         qPrintable(boxes.front()));
                QCOMPARE(restored, expected);
                QVERIFY(modified);
                QVERIFY(
                    !QFileInfo::exists(orphans.front().autosave_path)); // taken, not offered twice
                ++offered;
            } else {
                for (const RecoveredWork &w : orphans)
                    AutosaveStore::discard(w);
            }
        }
        qInfo("%d kills after %d saves in all: %d left an autosave (the others were killed "
              "between a save and the next edit's autosave), %d offered back by a new start, "
              "%d temporary files left behind",
              iterations, total_saves, with_autosave, offered, leftovers);
        QVERIFY(with_autosave > 0);
        QVERIFY(offered > 0);
    }

    void damagedAutosaveIsReportedNotLoaded_data()
    {
        // Not JSON, or JSON that is no object: damaged, set aside as ".damaged". A JSON object
        // the scenario parser refuses for anything but a rule across keys: "kept-<file>".
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<bool>("damaged");
        Result<Scenario> good = loadScenarioFile(doc_path_, builtinCatalog());
        QVERIFY(good);
        Scenario other = good.value();
        other.name = "damaged autosave";
        const QByteArray valid = writeScenario(other);
        QTest::newRow("truncated JSON") << valid.left(valid.size() / 2) << true;
        QByteArray garbage;
        QRandomGenerator rng(7);
        for (int i = 0; i < 4096; ++i)
            garbage.append(char(rng.bounded(256)));
        QTest::newRow("binary garbage") << garbage << true;
        QTest::newRow("empty file") << QByteArray() << true;
        QByteArray wrong_version = valid;
        wrong_version.replace("\"scalescope\": 1", "\"scalescope\": 99");
        QVERIFY(wrong_version != valid);
        QTest::newRow("wrong version") << wrong_version << false;
        QTest::newRow("not a scenario")
            << QByteArray("{ \"x-autosave\": { \"file\": \"\" } }") << false;
        QTest::newRow("JSON array") << QByteArray("[1, 2, 3]") << true;
    }

    void damagedAutosaveIsReportedNotLoaded()
    {
        QFETCH(QByteArray, content);
        QFETCH(bool, damaged);
        const QByteArray document_before = readAll(doc_path_);
        const QString path = QDir(autosave_dir_).filePath(QStringLiteral("autosave-5.json"));
        const QString kept =
            damaged ? path + QStringLiteral(".damaged")
                    : QDir(autosave_dir_).filePath(QStringLiteral("kept-autosave-5.json"));
        QFile::remove(kept);
        QVERIFY(writeBytes(path, content));
        std::string loaded;
        bool modified = true;
        const QStringList boxes = startApplication(QMessageBox::Ok, [&](Application &app) {
            loaded = app.document()->scenario().name;
            modified = app.document()->isModified();
        });
        // Reported once, named, and kept with its bytes; never loaded.
        QCOMPARE(boxes.size(), qsizetype(1));
        QVERIFY2(boxes.front().startsWith(damaged ? QLatin1String("Damaged autosave")
                                                  : QLatin1String("Unsaved work not opened")),
                 qPrintable(boxes.front()));
        QVERIFY(boxes.front().contains(QLatin1String("It was not loaded")));
        QVERIFY2(boxes.front().contains(kept), qPrintable(boxes.front()));
        QVERIFY(!QFileInfo::exists(path));
        QCOMPARE(readAll(kept), content);
        Result<Scenario> doc = parseScenario(document_before, builtinCatalog());
        QVERIFY(doc);
        QCOMPARE(loaded, doc.value().name); // the file given, not the autosave
        QVERIFY(!modified);
        QCOMPARE(readAll(doc_path_), document_before);
        // Set aside: not offered (or reported) again.
        AutosaveStore store(autosave_dir_);
        QVERIFY(store.orphans().empty());
        QFile::remove(kept);
    }

    void ruleRefusedAutosaveIsOffered()
    {
        // Unsaved work whose plan breaks a rule across keys (8 GPUs are not a multiple of
        // tensor 3; Save refuses it, the autosave keeps it) is offered back like any other,
        // says which rule it breaks, and opens as it was left.
        Result<Scenario> good = loadScenarioFile(doc_path_, builtinCatalog());
        QVERIFY(good);
        Scenario work = good.value();
        work.name = "tensor 3, unsaved";
        work.parallel.tensor = 3;
        const std::optional<InputError> rule = ruleError(work);
        QVERIFY(rule);
        QString orphan;
        {
            AutosaveStore dead(autosave_dir_); // the instance that crashed
            QString error;
            QVERIFY2(dead.write(writeScenario(work), doc_path_, &error), qPrintable(error));
            orphan = dead.ownPath();
        } // its lock goes with it, its file stays
        QVERIFY(QFileInfo::exists(orphan));
        Scenario restored;
        bool modified = false;
        const QStringList boxes = startApplication(QMessageBox::Yes, [&](Application &app) {
            restored = app.document()->scenario();
            modified = app.document()->isModified();
        });
        QCOMPARE(boxes.size(), qsizetype(1));
        QVERIFY2(boxes.front().startsWith(QLatin1String("Restore unsaved work?")),
                 qPrintable(boxes.front()));
        // The rule named at its key path, as the control panel shows it.
        QVERIFY2(
            boxes.front().contains(QLatin1String("breaks a rule")) &&
                boxes.front().contains(QString::fromStdString(rule->path) + QStringLiteral(": ")),
            qPrintable(boxes.front()));
        QCOMPARE(restored.name, work.name);
        QCOMPARE(restored.parallel.tensor, 3);
        restored.extensions = work.extensions;
        QVERIFY(restored == work);
        QVERIFY(modified);
        QVERIFY(!QFileInfo::exists(orphan)); // taken, not offered twice
    }
};

QTEST_MAIN(TestCrashSafety)
#include "tst_crash_safety.moc"
