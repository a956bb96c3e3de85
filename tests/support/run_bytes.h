// Runs a program with its arguments as bytes: QProcess re-encodes arguments, losing bytes
// that are not UTF-8, which the tests of file names need to pass (issue 29, item 6).
#pragma once

#include <QByteArray>

#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace scalescope::test
{

struct RunBytesSetup {
    QByteArray working_dir; // the test's when empty
    QByteArray out_file;    // stdout goes there (the test's stdout when empty)
    QByteArray err_file;    // stderr goes there (the test's stderr when empty)
    /// stdout is a pipe whose reading end is closed before the program starts (as
    /// `| head -1` once head has exited).
    bool reader_gone = false;
};

/// The exit code; -1 when the program died of a signal, -2 when it could not be run.
inline int runBytes(const char *program, const std::vector<QByteArray> &args,
                    const RunBytesSetup &setup = {})
{
    int pipe_fds[2] = {-1, -1};
    if (setup.reader_gone) {
        if (::pipe(pipe_fds) != 0)
            return -2;
        ::close(pipe_fds[0]);
    }
    const pid_t child = ::fork();
    if (child == 0) {
        if (!setup.working_dir.isEmpty() && ::chdir(setup.working_dir.constData()) != 0)
            ::_exit(126);
        if (!setup.out_file.isEmpty())
            ::dup2(::open(setup.out_file.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600), 1);
        if (setup.reader_gone)
            ::dup2(pipe_fds[1], 1);
        if (!setup.err_file.isEmpty())
            ::dup2(::open(setup.err_file.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600), 2);
        std::vector<char *> argv{const_cast<char *>(program)};
        for (const QByteArray &a : args)
            argv.push_back(const_cast<char *>(a.constData()));
        argv.push_back(nullptr);
        ::execv(program, argv.data());
        ::_exit(127);
    }
    if (setup.reader_gone)
        ::close(pipe_fds[1]);
    int status = 0;
    if (child < 0 || ::waitpid(child, &status, 0) != child)
        return -2;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace scalescope::test
