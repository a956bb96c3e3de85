#include "probe_runner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

namespace scalescope
{

namespace
{
constexpr int kKillGraceMs = 3000;
}

ProbeLine parseProbeLine(const QString &line)
{
    ProbeLine p;
    const QStringList parts = line.trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (parts.isEmpty())
        return p;
    const QString &word = parts.front();
    if (word == QLatin1String("progress") && parts.size() >= 4) {
        bool ok_done = false, ok_total = false;
        p.done = parts.at(1).toInt(&ok_done);
        p.total = parts.at(2).toInt(&ok_total);
        // "progress 0 0 start ..." = nothing counted yet (the bar shows "busy").
        if (!ok_done || !ok_total || p.total < 0 || p.done < 0 || p.done > p.total) {
            p = ProbeLine{};
            p.text = line;
            return p; // not a progress line after all
        }
        p.kind = ProbeLine::Progress;
        p.test = parts.at(3);
        p.text = parts.mid(4).join(QLatin1Char(' '));
    } else if ((word == QLatin1String("skipped") || word == QLatin1String("error")) &&
               parts.size() >= 2) {
        p.kind = word == QLatin1String("skipped") ? ProbeLine::Skipped : ProbeLine::Error;
        p.test = parts.at(1);
        p.text = parts.mid(2).join(QLatin1Char(' '));
    } else {
        p.text = line;
    }
    return p;
}

QString gpuprobeProgram()
{
    return QDir(QCoreApplication::applicationDirPath())
        .absoluteFilePath(QStringLiteral("gpuprobe"));
}

ProbeRunner::ProbeRunner(QObject *parent) : QObject(parent)
{
    process_.setProcessChannelMode(QProcess::SeparateChannels);
    connect(&process_, &QProcess::readyReadStandardOutput, this, &ProbeRunner::readOutput);
    connect(&process_, &QProcess::readyReadStandardError, this, [this] {
        const QString text = QString::fromUtf8(process_.readAllStandardError());
        log_ += text;
        for (const QString &l : text.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
            last_error_line_ = l.trimmed();
    });
    connect(&process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            Q_EMIT finished(-1, tr("gpuprobe could not be started (%1): %2")
                                    .arg(process_.program(), process_.errorString()));
    });
    connect(&process_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus st) {
        readOutput();
        // gpuprobe's words without its own "gpuprobe: " and, where the message says it
        // already, "no usable GPU: " (issue 26: "No usable GPU: gpuprobe: no usable GPU").
        QString words = last_error_line_;
        if (words.startsWith(QLatin1String("gpuprobe: ")))
            words = words.mid(10);
        if (code == 3 && words.startsWith(QLatin1String("no usable GPU: ")))
            words = words.mid(15);
        QString message;
        if (cancelled_) {
            message = tr("Cancelled.");
            code = -1;
        } else if (st == QProcess::CrashExit) {
            message = tr("gpuprobe stopped unexpectedly (crash or killed).");
            code = -1;
        } else if (code == 0) {
            message = tr("Done.");
        } else if (code == 3) {
            message = tr("No usable GPU: %1").arg(words);
        } else if (code == 2) {
            message = tr("gpuprobe rejected its input: %1").arg(words);
        } else {
            message = tr("gpuprobe failed (exit code %1): %2").arg(code).arg(words);
        }
        Q_EMIT finished(code, message);
    });
}

ProbeRunner::~ProbeRunner()
{
    if (process_.state() != QProcess::NotRunning) {
        process_.kill();
        process_.waitForFinished(kKillGraceMs);
    }
}

bool ProbeRunner::start(const QString &program, const QStringList &arguments)
{
    if (running())
        return false;
    cancelled_ = false;
    log_.clear();
    last_error_line_.clear();
    pending_.clear();
    process_.start(program, QStringList{QStringLiteral("--progress")} + arguments);
    return true;
}

void ProbeRunner::cancel()
{
    if (!running())
        return;
    cancelled_ = true;
    process_.terminate();
    QTimer::singleShot(kKillGraceMs, this, [this] {
        if (process_.state() != QProcess::NotRunning)
            process_.kill();
    });
}

bool ProbeRunner::running() const
{
    return process_.state() != QProcess::NotRunning;
}

void ProbeRunner::readOutput()
{
    pending_ += process_.readAllStandardOutput();
    int nl;
    while ((nl = pending_.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(pending_.left(nl));
        pending_.remove(0, nl + 1);
        log_ += line + QLatin1Char('\n');
        const ProbeLine p = parseProbeLine(line);
        switch (p.kind) {
        case ProbeLine::Progress:
            Q_EMIT progress(p.done, p.total, p.test, p.text);
            break;
        case ProbeLine::Skipped:
            Q_EMIT noteAdded(tr("skipped %1: %2").arg(p.test, p.text));
            break;
        case ProbeLine::Error:
            Q_EMIT noteAdded(tr("error in %1: %2").arg(p.test, p.text));
            break;
        case ProbeLine::Other:
            if (!line.trimmed().isEmpty())
                Q_EMIT noteAdded(line);
            break;
        }
    }
}

} // namespace scalescope
