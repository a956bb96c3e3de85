// Runs the `gpuprobe` program as a child process (a driver fault must not take the GUI
// down, DESIGN.md section 1) and turns its --progress lines into signals.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace scalescope
{

/// One --progress line (gpuprobe/README.md): "progress DONE TOTAL TEST MESSAGE...",
/// "skipped TEST REASON...", "error TEST MESSAGE...". Other lines are plain output.
struct ProbeLine {
    enum Kind { Progress, Skipped, Error, Other } kind = Other;
    int done = 0, total = 0;
    QString test;
    QString text;
};
ProbeLine parseProbeLine(const QString &line);

/// The gpuprobe executable: beside this program (installed and build tree alike).
QString gpuprobeProgram();

class ProbeRunner : public QObject
{
    Q_OBJECT
public:
    explicit ProbeRunner(QObject *parent = nullptr);
    ~ProbeRunner() override;

    /// Starts `program` with `arguments` (--progress is added). False if already running.
    bool start(const QString &program, const QStringList &arguments);
    /// Asks the probe to stop (SIGTERM), then kills it after a grace period.
    void cancel();
    bool running() const;
    QString log() const { return log_; }

Q_SIGNALS:
    void progress(int done, int total, const QString &test, const QString &message);
    void noteAdded(const QString &line);
    /// exit_code follows gpuprobe: 0 ok, 2 bad input, 3 no usable GPU, 1 other; -1 crashed
    /// or cancelled. `message` explains it in one line.
    void finished(int exit_code, const QString &message);

private:
    void readOutput();

    QProcess process_;
    QByteArray pending_;
    QString log_;
    QString last_error_line_;
    bool cancelled_ = false;
};

} // namespace scalescope
