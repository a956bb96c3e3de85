#include "cli/command.h"

#include <algorithm>

namespace scalescope::cli
{

namespace
{

const OptionSpec kHelp{"--help"};
const OptionSpec kShortHelp{"-h"};

bool isOption(const QString &arg)
{
    return arg.size() > 1 && arg.startsWith(QLatin1Char('-'));
}

// "-1", "-0.5", "-1,2": a value that a numeric option may take although it starts with '-'.
bool looksNegativeNumber(const QString &arg)
{
    return arg.size() > 1 && arg.at(0) == QLatin1Char('-') &&
           (arg.at(1).isDigit() || arg.at(1) == QLatin1Char('.'));
}

QString expected(const OptionSpec &o)
{
    return QStringLiteral("expected %1").arg(QString::fromLatin1(o.value_name));
}

} // namespace

QString printable(const QString &text)
{
    QString out;
    out.reserve(text.size());
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char16_t c = text.at(i).unicode();
        if (QChar::isHighSurrogate(c) && i + 1 < n && text.at(i + 1).isLowSurrogate()) {
            out.append(text.at(i));
            out.append(text.at(++i));
        } else if (c == u'\n') {
            out.append(QLatin1String("\\n"));
        } else if (c == u'\r') {
            out.append(QLatin1String("\\r"));
        } else if (c == u'\t') {
            out.append(QLatin1String("\\t"));
        } else if (c == 0x1B) {
            out.append(QLatin1String("\\e"));
        } else if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
            out.append(QStringLiteral("\\x%1").arg(int(c), 2, 16, QLatin1Char('0')));
        } else if (c >= 0xDC80 && c <= 0xDCFF) {
            out.append(QStringLiteral("\\x%1").arg(int(c - 0xDC00), 2, 16, QLatin1Char('0')));
        } else if (QChar::isSurrogate(c)) {
            out.append(QStringLiteral("\\u%1").arg(int(c), 4, 16, QLatin1Char('0')));
        } else {
            out.append(text.at(i));
        }
    }
    return out;
}

int invalid(Failure *failure, const QString &message)
{
    *failure = {kInvalidInput, message};
    return kInvalidInput;
}

std::optional<Args> Args::parse(const QString &command, const QStringList &argv,
                                std::initializer_list<OptionSpec> options, Failure *failure)
{
    Args args;
    auto fail = [&](const QString &message) {
        invalid(failure, message);
        return std::nullopt;
    };
    bool options_ended = false;
    for (qsizetype i = 0; i < argv.size(); ++i) {
        const QString &arg = argv.at(i);
        if (options_ended || !isOption(arg)) {
            args.positional_.append(arg);
            continue;
        }
        if (arg == QStringLiteral("--")) {
            options_ended = true;
            continue;
        }
        // "--name=value" is "--name value".
        const qsizetype eq =
            arg.startsWith(QStringLiteral("--")) ? arg.indexOf(QLatin1Char('=')) : -1;
        const QString name = eq < 0 ? arg : arg.left(eq);
        const OptionSpec *spec = nullptr;
        for (const OptionSpec &o : options) {
            if (name == QLatin1String(o.name))
                spec = &o;
        }
        if (name == QLatin1String(kHelp.name) || name == QLatin1String(kShortHelp.name))
            spec = &kHelp;
        if (!spec) {
            QStringList allowed;
            for (const OptionSpec &o : options)
                allowed.append(QString::fromLatin1(o.name));
            allowed.append(QString::fromLatin1(kHelp.name));
            return fail(QStringLiteral("%1: unknown option \"%2\"; allowed: %3")
                            .arg(command, name, allowed.join(QStringLiteral(", "))));
        }
        const QString key = QString::fromLatin1(spec->name);
        if (args.values_.count(key) || (spec == &kHelp && args.help_))
            return fail(QStringLiteral("%1: option %2 is given more than once; give it once")
                            .arg(command, name));
        if (spec->kind == OptionSpec::Kind::Flag) {
            if (eq >= 0)
                return fail(QStringLiteral("%1: takes no value, got \"%2\"").arg(name, arg));
            if (spec == &kHelp)
                args.help_ = true;
            else
                args.values_[key] = QString();
            continue;
        }
        QString value;
        if (eq >= 0) {
            value = arg.mid(eq + 1);
        } else {
            if (i + 1 >= argv.size())
                return fail(QStringLiteral("%1: missing value; %2").arg(name, expected(*spec)));
            value = argv.at(++i);
            const bool number_ok =
                spec->kind == OptionSpec::Kind::Number && looksNegativeNumber(value);
            if (isOption(value) && !number_ok)
                return fail(QStringLiteral("%1: missing value (got the option \"%2\"); %3; a "
                                           "value never starts with \"-\" (write ./%2 for a "
                                           "file of that name)")
                                .arg(name, value, expected(*spec)));
        }
        if (value.isEmpty())
            return fail(QStringLiteral("%1: the value is empty; %2").arg(name, expected(*spec)));
        args.values_[key] = value;
    }
    return args;
}

bool Args::flag(const char *name) const
{
    return values_.count(QString::fromLatin1(name)) > 0;
}

std::optional<QString> Args::value(const char *name) const
{
    const auto it = values_.find(QString::fromLatin1(name));
    if (it == values_.end())
        return std::nullopt;
    return it->second;
}

std::optional<QString> Args::scenarioFile(const QString &command, bool required,
                                          Failure *failure) const
{
    if (positional_.size() > 1) {
        invalid(failure, QStringLiteral("%1: unexpected argument \"%2\"; expected one scenario "
                                        "FILE")
                             .arg(command, positional_.at(1)));
        return std::nullopt;
    }
    if (positional_.isEmpty()) {
        if (!required)
            return QString();
        invalid(failure, QStringLiteral("%1: expected one scenario FILE").arg(command));
        return std::nullopt;
    }
    if (positional_.first().isEmpty()) {
        invalid(failure, QStringLiteral("%1: FILE is empty; expected the path of a scenario "
                                        "file")
                             .arg(command));
        return std::nullopt;
    }
    return positional_.first();
}

} // namespace scalescope::cli
