// What several scalescope-cli commands share: counts given to options, the scenario and its
// simulation context, and numbers and times as text.
#include "cli/commands.h"

#include "plan/rules.h"

#include "analysis/summary.h"
#include "analysis/sweep.h"
#include "io/catalog_io.h"
#include "io/scenario_io.h"

#include <QFile>

namespace scalescope::cli
{

std::optional<int> parseCount(const QString &option, const QString &text, int lo, int hi,
                              Failure *failure)
{
    bool ok = false;
    const int v = text.toInt(&ok);
    if (!ok || v < lo || v > hi) {
        *failure = {kInvalidInput,
                    QStringLiteral("%1: value \"%2\" is not allowed; expected a whole "
                                   "number from %3 to %4")
                        .arg(option, text)
                        .arg(lo)
                        .arg(hi)};
        return std::nullopt;
    }
    return v;
}

QString modelErrorText(const InputError &error)
{
    if (error.path == kRequestedGpusPath)
        return QStringLiteral("--gpus: ") + QString::fromStdString(error.message);
    return QString::fromStdString(error.toString());
}

std::optional<int> countOption(const Args &args, const char *option, int lo, int hi, int fallback,
                               Failure *failure)
{
    const auto text = args.value(option);
    return text ? parseCount(QString::fromLatin1(option), *text, lo, hi, failure)
                : std::optional<int>(fallback);
}

std::optional<Scenario> scenarioArgument(const Args &args, const QString &command, bool required,
                                         Failure *failure)
{
    const auto file = args.scenarioFile(command, required, failure);
    if (!file)
        return std::nullopt;
    return loadScenario(*file, failure);
}

std::optional<Scenario> loadScenario(const QString &path, Failure *failure)
{
    Result<Scenario> s = path.isEmpty()
                             ? parseScenario(
                                   [] {
                                       QFile f(QStringLiteral(":/scenarios/default.json"));
                                       f.open(QIODevice::ReadOnly);
                                       return f.readAll();
                                   }(),
                                   builtinCatalog())
                             : loadScenarioFile(path, builtinCatalog());
    if (!s) {
        *failure = {kInvalidInput, QString::fromStdString(s.error().toString())};
        return std::nullopt;
    }
    if (const Result<bool> ok = checkCollective(s.value()); !ok) {
        *failure = {kInvalidInput, QString::fromStdString(ok.error().toString())};
        return std::nullopt;
    }
    return std::move(s).value();
}

void printRuleWarnings(const Scenario &s)
{
    for (const RuleFinding &f : checkRules(s))
        if (f.severity == RuleSeverity::Warning)
            std::fprintf(err_, "scalescope-cli: warning: %s\n",
                         printable(QString::fromStdString(f.path + ": " + ruleMessage(f)))
                             .toUtf8()
                             .constData());
}

std::shared_ptr<const SimContext> contextOf(const Scenario &s, Failure *failure)
{
    Result<std::shared_ptr<const SimContext>> ctx = makeContext(s);
    if (!ctx) {
        *failure = {kInvalidInput, QString::fromStdString(ctx.error().toString())};
        return nullptr;
    }
    return ctx.value();
}

QString fmt(double v, int prec)
{
    return QString::number(v, 'g', prec);
}
QString fixed(double v, int decimals)
{
    return QString::number(v, 'f', decimals);
}

QString humanTime(double s)
{
    if (s >= 1.0)
        return fixed(s, 3) + QStringLiteral(" s");
    if (s >= 1e-3)
        return fixed(s * 1e3, 2) + QStringLiteral(" ms");
    return fixed(s * 1e6, 1) + QStringLiteral(" us");
}

} // namespace scalescope::cli
