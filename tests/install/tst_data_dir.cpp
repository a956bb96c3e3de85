// dataDirectoryFor(): installed layout first, then the build tree's marker, never the
// current directory.
#include "io/catalog_io.h"
#include "io/data_dir.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace scalescope;

class TestDataDir : public QObject
{
    Q_OBJECT

private:
    static void write(const QString &path, const QByteArray &data)
    {
        QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
    }

private Q_SLOTS:
    void installedLayout()
    {
        QTemporaryDir root;
        QVERIFY(QDir(root.path()).mkpath(QStringLiteral("usr/bin")));
        QVERIFY(QDir(root.path()).mkpath(QStringLiteral("usr/share/scalescope")));
        QCOMPARE(dataDirectoryFor(root.filePath(QStringLiteral("usr/bin"))),
                 QDir::cleanPath(root.filePath(QStringLiteral("usr/share/scalescope"))));
    }

    void installedWinsOverMarker()
    {
        QTemporaryDir root, resources;
        QVERIFY(QDir(root.path()).mkpath(QStringLiteral("bin")));
        QVERIFY(QDir(root.path()).mkpath(QStringLiteral("share/scalescope")));
        write(root.filePath(QLatin1String(kBuildTreeMarker)), resources.path().toUtf8() + '\n');
        QCOMPARE(dataDirectoryFor(root.filePath(QStringLiteral("bin"))),
                 QDir::cleanPath(root.filePath(QStringLiteral("share/scalescope"))));
    }

    void buildTreeMarker()
    {
        QTemporaryDir build, resources;
        QVERIFY(QDir(build.path()).mkpath(QStringLiteral("app")));
        write(build.filePath(QLatin1String(kBuildTreeMarker)), resources.path().toUtf8() + '\n');
        QCOMPARE(dataDirectoryFor(build.filePath(QStringLiteral("app"))),
                 QDir::cleanPath(resources.path()));
    }

    void neitherIsEmpty()
    {
        QTemporaryDir build;
        QVERIFY(QDir(build.path()).mkpath(QStringLiteral("app")));
        QCOMPARE(dataDirectoryFor(build.filePath(QStringLiteral("app"))), QString());
        QCOMPARE(dataDirectoryFor(QString()), QString());
    }

    void relativeOrMissingMarkerPathIsIgnored()
    {
        QTemporaryDir build;
        QVERIFY(QDir(build.path()).mkpath(QStringLiteral("app")));
        QVERIFY(QDir(build.path()).mkpath(QStringLiteral("resources")));
        // Relative to the current directory: never used.
        write(build.filePath(QLatin1String(kBuildTreeMarker)), "resources\n");
        const QString saved = QDir::currentPath();
        QDir::setCurrent(build.path());
        const QString relative = dataDirectoryFor(build.filePath(QStringLiteral("app")));
        QDir::setCurrent(saved);
        QCOMPARE(relative, QString());
        write(build.filePath(QLatin1String(kBuildTreeMarker)),
              build.filePath(QStringLiteral("gone")).toUtf8() + '\n');
        QCOMPARE(dataDirectoryFor(build.filePath(QStringLiteral("app"))), QString());
    }

    void buildTreeProgramsUseTheSourceResources()
    {
        // This test runs from build/tests/install; the programs are built into build/app.
        const QString app = QDir(QCoreApplication::applicationDirPath())
                                .absoluteFilePath(QStringLiteral("../../app"));
        QCOMPARE(QDir(dataDirectoryFor(app)).canonicalPath(),
                 QDir(QStringLiteral(SCALESCOPE_SOURCE_DIR "/resources")).canonicalPath());
        // This program itself is not beside app/, so it uses the compiled-in data.
        QCOMPARE(dataDirectory(), QString());
        QCOMPARE(builtinCatalogFolder(), QStringLiteral(":/catalogs"));
    }

    void catalogFolderErrorsNameTheFile()
    {
        QTemporaryDir data;
        const QDir catalogs(data.filePath(QStringLiteral("catalogs")));
        QVERIFY(QDir().mkpath(catalogs.path()));
        for (const char *name :
             {"gpus.json", "links.json", "models.json", "cnn_models.json", "frameworks.json"}) {
            QFile in(QStringLiteral(":/catalogs/") + QLatin1String(name));
            QVERIFY(in.open(QIODevice::ReadOnly));
            write(catalogs.filePath(QLatin1String(name)), in.readAll());
        }
        const Result<Catalog> good = loadCatalogFolder(catalogs.path());
        QVERIFY2(good.ok(), good.ok() ? "" : good.error().toString().c_str());
        QVERIFY(good.value().findGpu("h100-sxm5-80gb") != nullptr);

        write(catalogs.filePath(QStringLiteral("links.json")), "{ broken");
        const Result<Catalog> broken = loadCatalogFolder(catalogs.path());
        QVERIFY(!broken.ok());
        QVERIFY2(broken.error().toString().find(
                     catalogs.filePath(QStringLiteral("links.json")).toStdString()) == 0,
                 broken.error().toString().c_str());

        QVERIFY(QFile::remove(catalogs.filePath(QStringLiteral("models.json"))));
        write(catalogs.filePath(QStringLiteral("links.json")), [] {
            QFile in(QStringLiteral(":/catalogs/links.json"));
            return in.open(QIODevice::ReadOnly) ? in.readAll() : QByteArray();
        }());
        const Result<Catalog> missing = loadCatalogFolder(catalogs.path());
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error().path ==
                     catalogs.filePath(QStringLiteral("models.json")).toStdString(),
                 missing.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestDataDir)
#include "tst_data_dir.moc"
