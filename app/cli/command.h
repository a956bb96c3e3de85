// What every scalescope-cli command shares: its collected output, its failure, and the
// parsing of its options (internal to app/cli).
#pragma once

#include "cli/cli.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <map>
#include <optional>
#include <vector>

namespace scalescope::cli
{

/// `text` (names and values from files, file names, messages quoting them) made safe to
/// print as one line: control characters (U+0000-U+001F, U+007F-U+009F), which would let
/// a scenario name move the cursor, recolour the terminal or forge output lines with CR/LF,
/// are written as \n, \r, \t, \e or \xNN; a byte of a file name that is not UTF-8
/// (decodeFileName) as \xNN; a lone surrogate as \uXXXX. Everything else is unchanged. The
/// one helper for every human-readable print of the CLI (Output::line, the error line,
/// warnings and notes on stderr).
QString printable(const QString &text);

/// Collected output, written to stdout only when the command succeeds.
struct Output {
    QByteArray text;
    /// One human-readable line, through printable().
    void line(const QString &s) { text += printable(s).toUtf8() + '\n'; }
};

struct Failure {
    int code = kOk;
    QString message;
};

/// One option a command accepts.
struct OptionSpec {
    enum class Kind {
        Flag,   // --json: no value
        Text,   // --trace OUT.json: a value that never starts with '-'
        Number, // --iterations N: a value that may also be a negative number ("-1", "-1,2")
    };
    const char *name;            // "--trace"
    Kind kind = Kind::Flag;      //
    const char *value_name = ""; // "OUT.json", in messages
};

/// A command's arguments parsed in one pass, left to right: each option is looked up, a
/// valued option takes the next argument (or "--name=value"), which must be present,
/// non-empty and not itself an option; an option given twice, an unknown option and a flag
/// given a value are errors (exit 2) that name the option. "--" ends the options.
/// "-h" and "--help" are accepted by every command.
class Args
{
public:
    static std::optional<Args> parse(const QString &command, const QStringList &argv,
                                     std::initializer_list<OptionSpec> options, Failure *failure);

    bool help() const { return help_; }
    bool flag(const char *name) const;
    std::optional<QString> value(const char *name) const;
    const QStringList &positional() const { return positional_; }

    /// The scenario FILE argument: at most one positional argument, which must not be
    /// empty; with `required`, exactly one. std::nullopt with `failure` set on error; an
    /// empty string when it is optional and absent.
    std::optional<QString> scenarioFile(const QString &command, bool required,
                                        Failure *failure) const;

private:
    bool help_ = false;
    std::map<QString, QString> values_; // flags map to an empty string
    QStringList positional_;
};

/// Appends the usage text to `out`; exit 0 (-h, --help).
int usage(Output &out);

/// Exit 2 with `message`.
int invalid(Failure *failure, const QString &message);

/// `catalog [gpus|links|models|...] [--json]` (catalog_command.cpp).
int cmdCatalog(const QStringList &argv, Output &out, Failure *failure);

} // namespace scalescope::cli
