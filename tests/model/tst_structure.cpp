// The structure of model/ (DESIGN.md section 1): its folders in one order, from the hardware
// up to file input and output, and every #include of a model file pointing to its own folder
// or one below it, never up. The order is written here once; a new folder must take a place
// in it, and an include that points up fails with the file, the line and both folders.
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

namespace
{

/// model/'s folders, lowest first: each may include its own folder and the ones before it.
const QStringList kLayers = {
    QStringLiteral("hardware"), // GPUs, links, clusters, stacks; the GPU's kernel model
    QStringLiteral("workload"), // model specifications
    QStringLiteral("effects"),  // jitter, stragglers, thermal, loaders
    QStringLiteral("plan"),     // the scenario, its plan and its rule table
    QStringLiteral("layers"),   // per-layer cost on one GPU; layers over pipeline stages
    QStringLiteral("comm"),     // collectives on a topology
    QStringLiteral("sim"),      // the step description, task graph, engine and timeline
    QStringLiteral("analysis"), // summaries, sweeps, reference, cost, planner
    QStringLiteral("io"),       // scenario, catalog, profile and report files
};

} // namespace

class TestStructure : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyFolderHasAPlace();
    void includesPointDown();
};

void TestStructure::everyFolderHasAPlace()
{
    const QDir model(QStringLiteral(SCALESCOPE_SOURCE_DIR "/model"));
    QVERIFY2(model.exists(), qPrintable(model.path()));
    const QStringList folders = model.entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    QVERIFY(!folders.isEmpty());
    for (const QString &folder : folders)
        QVERIFY2(kLayers.contains(folder),
                 qPrintable(QStringLiteral("model/%1 has no place in the layer order of "
                                           "tst_structure.cpp")
                                .arg(folder)));
}

void TestStructure::includesPointDown()
{
    const QString root = QStringLiteral(SCALESCOPE_SOURCE_DIR "/model/");
    const QRegularExpression include(QStringLiteral("^\\s*#\\s*include\\s+\"([a-z_]+)/"));
    QStringList up;
    int files = 0, includes = 0;
    QDirIterator it(root, {QStringLiteral("*.h"), QStringLiteral("*.cpp")}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = path.mid(root.size());
        const QString folder = relative.section(QLatin1Char('/'), 0, 0);
        const qsizetype own = kLayers.indexOf(folder);
        if (own < 0)
            continue; // everyFolderHasAPlace names it
        QFile file(path);
        QVERIFY2(file.open(QIODevice::ReadOnly), qPrintable(path));
        ++files;
        int line = 0;
        while (!file.atEnd()) {
            ++line;
            const QRegularExpressionMatch m = include.match(QString::fromUtf8(file.readLine()));
            if (!m.hasMatch())
                continue;
            const qsizetype target = kLayers.indexOf(m.captured(1));
            if (target < 0)
                continue; // a library's header ("Eigen/Dense")
            ++includes;
            if (target > own)
                up.append(QStringLiteral("model/%1:%2 includes %3/ from %4/, a folder above it")
                              .arg(relative)
                              .arg(line)
                              .arg(m.captured(1), folder));
        }
    }
    QVERIFY2(files > 50 && includes > 100, "the scan found too little of model/ to judge");
    QVERIFY2(up.isEmpty(), qPrintable(up.join(QLatin1Char('\n'))));
}

QTEST_GUILESS_MAIN(TestStructure)
#include "tst_structure.moc"
