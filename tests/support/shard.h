// Runs one shard of a QtTest object's test functions, so that CTest can run a long test as
// several entries, each with its own timeout and in parallel (tst_cli timed out in CI at
// 600 s on a slow machine, where it takes 35 s idle here). SCALESCOPE_TEST_SHARD=k/n picks
// the functions whose declaration index i has i % n == k; every function is in exactly one
// shard, a new one included. Without the variable QtTest runs as usual; with it, the shard's
// function names are appended to the command line.
#pragma once

#include <QByteArray>
#include <QMetaMethod>
#include <QObject>
#include <QStringList>
#include <QTest>

#include <cstdio>

namespace scalescope::test
{

/// The test functions of `object` as QtTest finds them: private slots without parameters,
/// not the *_data tables and not the init/cleanup hooks.
inline QStringList testFunctions(const QObject &object)
{
    static const QStringList hooks = {
        QStringLiteral("initTestCase"), QStringLiteral("initTestCase_data"),
        QStringLiteral("cleanupTestCase"), QStringLiteral("init"), QStringLiteral("cleanup")};
    QStringList names;
    const QMetaObject *meta = object.metaObject();
    for (int i = meta->methodOffset(); i < meta->methodCount(); ++i) {
        const QMetaMethod m = meta->method(i);
        if (m.methodType() != QMetaMethod::Slot || m.access() != QMetaMethod::Private ||
            m.parameterCount() != 0)
            continue;
        const QString name = QString::fromLatin1(m.name());
        if (name.endsWith(QLatin1String("_data")) || hooks.contains(name))
            continue;
        names << name;
    }
    return names;
}

/// QTest::qExec on the functions of the shard SCALESCOPE_TEST_SHARD names; exit code 1 with
/// a message when the variable is not "k/n" with 0 <= k < n <= 64.
inline int execShard(QObject *object, int argc, char **argv)
{
    const QByteArray spec = qgetenv("SCALESCOPE_TEST_SHARD");
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    if (spec.isEmpty())
        return QTest::qExec(object, args);
    const QList<QByteArray> parts = spec.split('/');
    bool okK = false;
    bool okN = false;
    const int k = parts.size() == 2 ? parts[0].toInt(&okK) : -1;
    const int n = parts.size() == 2 ? parts[1].toInt(&okN) : -1;
    if (!okK || !okN || n < 1 || n > 64 || k < 0 || k >= n) {
        std::fprintf(stderr,
                     "SCALESCOPE_TEST_SHARD must be k/n with 0 <= k < n <= 64, not \"%s\"\n",
                     spec.constData());
        return 1;
    }
    const QStringList all = testFunctions(*object);
    const qsizetype given = args.size();
    for (int i = 0; i < all.size(); ++i)
        if (i % n == k)
            args << all[i];
    if (args.size() == given) { // QtTest would run every function
        std::fprintf(stderr, "shard %d/%d has none of the %d test functions\n", k, n,
                     static_cast<int>(all.size()));
        return 1;
    }
    return QTest::qExec(object, args);
}

} // namespace scalescope::test
