// writeFileSafely() (io/file_io.h): regular files replaced atomically; FIFOs and devices
// written directly, never replaced; inputs and standard output refused; folders, missing
// and read-only folders fail with a message naming the folder.
#include "io/file_io.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace scalescope;

namespace
{

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeAll(const QString &path, const QByteArray &data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

mode_t typeOf(const QString &path)
{
    struct stat st = {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

} // namespace

class TestFileIo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void regularFileReplaced();
    void newFileCreated();
    void fifoWrittenDirectly();
    void characterDeviceWrittenDirectly();
    void fullDeviceFails();
    void inputRefused_data();
    void inputRefused();
    void standardOutputRefused();
    void folderFails();
    void missingFolderFails();
    void emptyNameRefused();
    void readOnlyFolder();
    void writeFileAtomicallyUsesTheSameRules();
};

void TestFileIo::regularFileReplaced()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("out.json"));
    QVERIFY(writeAll(path, "old content, longer than the new"));
    const WriteResult r = writeFileSafely(path, "new");
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(readAll(path), QByteArray("new"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("out.json")});
}

void TestFileIo::newFileCreated()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("new.json"));
    QVERIFY(writeFileSafely(path, "x").ok);
    QCOMPARE(readAll(path), QByteArray("x"));
}

void TestFileIo::fifoWrittenDirectly()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("pipe"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    // A reader that does not block, so that the writer's open succeeds at once.
    const int reader = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
    QVERIFY(reader >= 0);
    const WriteResult r = writeFileSafely(fifo, "through the pipe");
    char buf[64] = {};
    const ssize_t n = ::read(reader, buf, sizeof buf);
    ::close(reader);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(QByteArray(buf, static_cast<qsizetype>(std::max<ssize_t>(n, 0))),
             QByteArray("through the pipe"));
    QCOMPARE(typeOf(fifo), mode_t(S_IFIFO));
}

// A copy of /dev/null's node where we may create one (root), /dev/null itself otherwise
// (which an unprivileged process cannot replace, so a regression cannot harm it).
void TestFileIo::characterDeviceWrittenDirectly()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString device = dir.filePath(QStringLiteral("null"));
    if (::mknod(QFile::encodeName(device).constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
        device = QStringLiteral("/dev/null");
    const WriteResult r = writeFileSafely(device, "discarded");
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(typeOf(device), mode_t(S_IFCHR));
    // Also through a symlink to it.
    const QString link = dir.filePath(QStringLiteral("link"));
    QVERIFY(QFile::link(device, link));
    QVERIFY(writeFileSafely(link, "discarded").ok);
    QCOMPARE(typeOf(device), mode_t(S_IFCHR));
    QCOMPARE(typeOf(link), mode_t(S_IFLNK));
}

void TestFileIo::fullDeviceFails()
{
    if (!QFileInfo::exists(QStringLiteral("/dev/full")))
        QSKIP("this system has no /dev/full");
    const WriteResult r = writeFileSafely(QStringLiteral("/dev/full"), QByteArray(4096, 'x'));
    QVERIFY(!r.ok);
    QVERIFY(!r.refused);
    QVERIFY2(r.error.contains(QStringLiteral("\"/dev/full\"")), qPrintable(r.error));
    QCOMPARE(typeOf(QStringLiteral("/dev/full")), mode_t(S_IFCHR));
}

void TestFileIo::inputRefused_data()
{
    QTest::addColumn<QString>("target"); // relative to the temporary folder
    QTest::addColumn<QString>("input");
    QTest::addRow("same") << QStringLiteral("in.json") << QStringLiteral("in.json");
    QTest::addRow("dot-dot") << QStringLiteral("sub/../in.json") << QStringLiteral("in.json");
    QTest::addRow("symlink-target") << QStringLiteral("link.json") << QStringLiteral("in.json");
    QTest::addRow("symlink-input") << QStringLiteral("in.json") << QStringLiteral("link.json");
    QTest::addRow("hard-link") << QStringLiteral("hard.json") << QStringLiteral("in.json");
}

void TestFileIo::inputRefused()
{
    QFETCH(QString, target);
    QFETCH(QString, input);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString in = dir.filePath(QStringLiteral("in.json"));
    QVERIFY(writeAll(in, "input"));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("sub")));
    QVERIFY(QFile::link(in, dir.filePath(QStringLiteral("link.json"))));
    QVERIFY(::link(QFile::encodeName(in).constData(),
                   QFile::encodeName(dir.filePath(QStringLiteral("hard.json"))).constData()) == 0);
    const QString saved = QDir::currentPath();
    QVERIFY(QDir::setCurrent(dir.path()));
    const WriteResult r =
        writeFileSafely(target, "output", WriteGuard{{QStringLiteral("other"), input}});
    QDir::setCurrent(saved);
    QVERIFY(!r.ok);
    QVERIFY(r.refused);
    QVERIFY2(r.error.contains(QLatin1Char('"') + target + QLatin1Char('"')), qPrintable(r.error));
    QVERIFY2(r.error.contains(QStringLiteral("input \"") + input + QLatin1Char('"')),
             qPrintable(r.error));
    QCOMPARE(readAll(in), QByteArray("input"));
    QCOMPARE(typeOf(dir.filePath(QStringLiteral("link.json"))), mode_t(S_IFLNK));
}

// With stdout redirected to a file, that file as the target is refused when stdout is in
// use, and written otherwise.
void TestFileIo::standardOutputRefused()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("stdout.txt"));
    QVERIFY(writeAll(path, ""));
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO);
    QVERIFY(saved >= 0);
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY);
    QVERIFY(fd >= 0);
    ::dup2(fd, STDOUT_FILENO);
    ::close(fd);
    WriteGuard guard;
    guard.stdout_in_use = true;
    const WriteResult via_path = writeFileSafely(path, "trace", guard);
    const WriteResult via_alias = writeFileSafely(QStringLiteral("/dev/stdout"), "trace", guard);
    const WriteResult unused = writeFileSafely(path, "trace");
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    QVERIFY(!via_path.ok && via_path.refused);
    QVERIFY2(via_path.error.contains(QStringLiteral("standard output")),
             qPrintable(via_path.error));
    if (QFileInfo::exists(QStringLiteral("/dev/stdout")))
        QVERIFY2(!via_alias.ok && via_alias.refused, qPrintable(via_alias.error));
    QVERIFY2(unused.ok, qPrintable(unused.error));
}

void TestFileIo::folderFails()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const WriteResult r = writeFileSafely(dir.path(), "x");
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QStringLiteral("folder")), qPrintable(r.error));
    QVERIFY(QFileInfo(dir.path()).isDir());
}

void TestFileIo::missingFolderFails()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const WriteResult r = writeFileSafely(dir.filePath(QStringLiteral("no/such/out.json")), "x");
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(QStringLiteral("does not exist")), qPrintable(r.error));
    QVERIFY2(r.error.contains(dir.filePath(QStringLiteral("no/such"))), qPrintable(r.error));
}

void TestFileIo::emptyNameRefused()
{
    const WriteResult r = writeFileSafely(QString(), "x");
    QVERIFY(!r.ok && r.refused);
    QVERIFY2(r.error.contains(QStringLiteral("empty")), qPrintable(r.error));
}

void TestFileIo::readOnlyFolder()
{
    if (::geteuid() == 0)
        QSKIP("running as root, which writes into read-only folders anyway");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString folder = dir.filePath(QStringLiteral("ro"));
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("ro")));
    const QString existing = folder + QStringLiteral("/existing.json");
    QVERIFY(writeAll(existing, "old"));
    QVERIFY(QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner));
    const WriteResult in_place = writeFileSafely(existing, "new");
    const WriteResult created = writeFileSafely(folder + QStringLiteral("/new.json"), "x");
    QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QVERIFY2(in_place.ok, qPrintable(in_place.error));
    QCOMPARE(readAll(existing), QByteArray("new"));
    QVERIFY(!created.ok);
    QVERIFY2(created.error.contains(QStringLiteral("folder \"") + folder +
                                    QStringLiteral("\" is not writable")),
             qPrintable(created.error));
}

// The older entry point (scenario and profile saving, gpuprobe -o, the GUI's trace export)
// follows the same rules.
void TestFileIo::writeFileAtomicallyUsesTheSameRules()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("pipe"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    const int reader = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK);
    QVERIFY(reader >= 0);
    QString error;
    const bool ok = writeFileAtomically(fifo, "x", &error);
    ::close(reader);
    QVERIFY2(ok, qPrintable(error));
    QCOMPARE(typeOf(fifo), mode_t(S_IFIFO));
    QVERIFY(!writeFileAtomically(dir.path(), "x", &error));
    QVERIFY2(error.contains(QStringLiteral("folder")), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestFileIo)
#include "tst_file_io.moc"
