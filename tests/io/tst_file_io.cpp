// writeFileSafely() (io/file_io.h): regular files replaced atomically; FIFOs and devices
// written directly, never replaced; inputs and standard output refused; folders, missing
// and read-only folders fail with a message naming the folder.
#include "io/file_io.h"

#include "../support/no_room.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <functional>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
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

using test::withNoRoomForData;

// Runs `body` in a child process as the unprivileged user "nobody" (65534) when we are
// root, in this process otherwise: root writes into read-only folders. Returns body's
// result (the child's exit status), or -1 when the child could not run.
int asUnprivileged(const std::function<int()> &body)
{
    if (::geteuid() != 0)
        return body();
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t child = ::fork();
    if (child < 0)
        return -1;
    if (child == 0) {
        if (::setgid(65534) != 0 || ::setuid(65534) != 0)
            ::_exit(100);
        ::_exit(body());
    }
    int status = 0;
    if (::waitpid(child, &status, 0) != child || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

// A folder "ro" holding existing.json ("old"), both owned by the user that
// asUnprivileged() runs as, the folder read-only (r-x).
struct ReadOnlyFolder {
    QTemporaryDir dir;
    QString folder, existing;
    bool setUp()
    {
        if (!dir.isValid())
            return false;
        folder = dir.filePath(QStringLiteral("ro"));
        existing = folder + QStringLiteral("/existing.json");
        if (!QDir(dir.path()).mkdir(QStringLiteral("ro")) || !writeAll(existing, "old"))
            return false;
        if (::geteuid() == 0) {
            for (const QString &p : {dir.path(), folder, existing})
                if (::chown(QFile::encodeName(p).constData(), 65534, 65534) != 0)
                    return false;
        }
        return QFile::setPermissions(folder, QFile::ReadOwner | QFile::ExeOwner);
    }
    ~ReadOnlyFolder()
    {
        QFile::setPermissions(folder, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
};

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
    void fullDiskKeepsTheOldFile_data();
    void fullDiskKeepsTheOldFile();
    void fullDiskInPlaceKeepsTheOldBytes();
    void longNameReplaced();
    void fileNameBytesKept_data();
    void fileNameBytesKept();
    void nonUtf8FileWrittenAndRead();
    void regularOnlyRefusesFifo();
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

// As root, run as "nobody" in a child process (root writes into read-only folders).
void TestFileIo::readOnlyFolder()
{
    ReadOnlyFolder ro;
    QVERIFY(ro.setUp());
    const QString folder = ro.folder, existing = ro.existing;
    const int code = asUnprivileged([&] {
        const WriteResult in_place = writeFileSafely(existing, "new");
        const WriteResult created = writeFileSafely(folder + QStringLiteral("/new.json"), "x");
        if (!in_place.ok) {
            std::fprintf(stderr, "in place: %s\n", qPrintable(in_place.error));
            return 1;
        }
        if (created.ok || !created.error.contains(QStringLiteral("folder \"") + folder +
                                                  QStringLiteral("\" is not writable"))) {
            std::fprintf(stderr, "created: %s\n", qPrintable(created.error));
            return 2;
        }
        return 0;
    });
    QCOMPARE(code, 0);
    QCOMPARE(readAll(existing), QByteArray("new"));
    QCOMPARE(QDir(folder).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("existing.json")});
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

// Issue 29, item 1: a write that fails for want of room (here the file size limit, as
// `ulimit -f 0`; a full disk fails the same way) used to go unnoticed below Qt's write
// buffer (16 KiB), and the empty temporary file was renamed over the target; larger files
// failed with "Unknown error". Now the old file stays, no temporary file is left and the
// message gives the system's reason.
void TestFileIo::fullDiskKeepsTheOldFile_data()
{
    QTest::addColumn<qsizetype>("bytes");
    QTest::addRow("small") << qsizetype(100);
    QTest::addRow("larger than the write buffer") << qsizetype(100000);
}

void TestFileIo::fullDiskKeepsTheOldFile()
{
    QFETCH(qsizetype, bytes);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("doc.json"));
    QVERIFY(writeAll(path, "old content"));
    const WriteResult r =
        withNoRoomForData([&] { return writeFileSafely(path, QByteArray(bytes, 'x')); });
    QVERIFY(!r.ok);
    QVERIFY(!r.refused);
    QVERIFY2(r.error.contains(QStringLiteral("File too large")), qPrintable(r.error));
    QCOMPARE(readAll(path), QByteArray("old content"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("doc.json")});
    QString error;
    QVERIFY(!withNoRoomForData([&] { return writeFileAtomically(path, "{}", &error); }));
    QVERIFY2(error.contains(QStringLiteral("File too large")), qPrintable(error));
    QCOMPARE(readAll(path), QByteArray("old content"));
}

// Issue 29, item 2: the in-place write into a read-only folder opened the target with
// truncation, so that a failed write left it empty. Now it keeps the old bytes.
void TestFileIo::fullDiskInPlaceKeepsTheOldBytes()
{
    ReadOnlyFolder ro;
    QVERIFY(ro.setUp());
    const QString existing = ro.existing;
    const int code = asUnprivileged([&] {
        const WriteResult r =
            withNoRoomForData([&] { return writeFileSafely(existing, "new, longer content"); });
        if (r.ok)
            return 1;
        if (!r.error.contains(QStringLiteral("File too large"))) {
            std::fprintf(stderr, "%s\n", qPrintable(r.error));
            return 2;
        }
        return 0;
    });
    QCOMPARE(code, 0);
    QCOMPARE(readAll(existing), QByteArray("old"));
}

// Issue 29, item 7: the temporary file was NAME.XXXXXX, longer than NAME_MAX (255) for a
// name of 249 bytes or more, so that such a file could not be replaced.
void TestFileIo::longNameReplaced()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString name = QString(250, QLatin1Char('a')) + QStringLiteral(".json");
    QCOMPARE(name.size(), 255);
    const QString path = dir.filePath(name);
    QVERIFY(writeAll(path, "old"));
    const WriteResult r = writeFileSafely(path, "new");
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(readAll(path), QByteArray("new"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList{name});
}

// Issue 29, item 6: bytes that are not UTF-8 survive decoding and encoding.
void TestFileIo::fileNameBytesKept_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addRow("ascii") << QByteArray("plain/name.json");
    QTest::addRow("utf-8") << QByteArray("\xE5\x9C\xBA\xE6\x99\xAF \xF0\x9F\x98\x80.json");
    QTest::addRow("0xFF") << QByteArray("tr\xFF.json");
    QTest::addRow("latin-1") << QByteArray("caf\xE9.json");
    QTest::addRow("truncated sequence") << QByteArray("a\xE5\x9C");
    QTest::addRow("overlong slash") << QByteArray("a\xC0\xAF"
                                                  "b");
    QTest::addRow("encoded surrogate") << QByteArray("\xED\xB2\x80");
    QTest::addRow("above U+10FFFF") << QByteArray("\xF4\x90\x80\x80");
}

void TestFileIo::fileNameBytesKept()
{
    QFETCH(QByteArray, bytes);
    const QString name = decodeFileName(bytes);
    QCOMPARE(encodeFileName(name), bytes);
    if (QString::fromUtf8(bytes).toUtf8() == bytes)
        QCOMPARE(name, QString::fromUtf8(bytes));
}

void TestFileIo::nonUtf8FileWrittenAndRead()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QByteArray native = QFile::encodeName(dir.path()) + "/tr\xFF.json";
    const QString path = decodeFileName(native);
    const WriteResult r = writeFileSafely(path, "trace");
    QVERIFY2(r.ok, qPrintable(r.error));
    struct stat st = {};
    QVERIFY(::stat(native.constData(), &st) == 0);
    QCOMPARE(qint64(st.st_size), qint64(5));
    const Result<QByteArray> read = readFileLimited(path, 100, "trace");
    ::unlink(native.constData()); // QTemporaryDir cannot name it
    QVERIFY(read.ok());
    QCOMPARE(read.value(), QByteArray("trace"));
    char arg0[] = "prog", arg1[] = "tr\xFF.json";
    char *argv[] = {arg0, arg1, nullptr};
    QCOMPARE(decodeArguments(2, argv), QStringList{decodeFileName("tr\xFF.json")});
}

// Issue 29, item 14: a FIFO (also through a symlink) blocked the opening thread; the GUI
// reads with ReadKinds::RegularOnly, which refuses it at once. Regular files are read.
void TestFileIo::regularOnlyRefusesFifo()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString fifo = dir.filePath(QStringLiteral("pipe"));
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    const QString link = dir.filePath(QStringLiteral("profile.json"));
    QVERIFY(QFile::link(fifo, link));
    for (const QString &path : {fifo, link}) {
        const Result<QByteArray> r =
            readFileLimited(path, 1000, "calibration profile", ReadKinds::RegularOnly);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("it is a FIFO; allowed: a regular file") !=
                     std::string::npos,
                 r.error().message.c_str());
    }
    const QString regular = dir.filePath(QStringLiteral("regular.json"));
    QVERIFY(writeAll(regular, "{}"));
    const Result<QByteArray> r = readFileLimited(regular, 1000, "x", ReadKinds::RegularOnly);
    QVERIFY(r.ok());
    QCOMPARE(r.value(), QByteArray("{}"));
}

QTEST_GUILESS_MAIN(TestFileIo)
#include "tst_file_io.moc"
