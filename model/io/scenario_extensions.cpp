// The "x-" keys a scenario file holds in any object, kept in file order through a save, and
// hardware.calibration as the file wrote it (scenario_io.cpp reads and writes the rest).
#include "io/scenario_extensions.h"

#include "io/json_util.h"

#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

namespace scalescope
{

namespace
{

using json::OrderedObject;

// ---------------------------------------------------------------------------------------
// "x-" keys in any object, in file order. QJsonObject sorts its keys, so the order and the
// place of each x- key come from a scan of the document text itself (run on text that is
// already known to be valid JSON: a parsed file, or what the writer produced).
//
// Scenario::extensions holds them as (key, value): a top-level key as itself ("x-note"), a
// nested one behind the key path of its object ("hardware.x-rack",
// "effects.stragglers[0].x-note"). Spec keys never start with "x-", so the first path
// segment that does starts the key. The value is the file's JSON text without whitespace
// (the order inside it kept as written).

/// Extension key under which the calibration path is kept as the file wrote it: a JSON array
/// [as written, resolved absolute path]. Not an x- key: never written as a member.
constexpr const char *kCalibrationAsWrittenKey = "hardware.calibration";

class JsonScanner
{
public:
    struct Span {
        qsizetype open = 0;  // offset of '{'
        qsizetype close = 0; // offset of '}'
        int members = 0;
    };
    struct XMember {
        std::string parent; // key path of the object ("" = the top level)
        QString key;
        QByteArray value; // minified JSON text
    };

    /// `wanted`: the key paths of the objects whose spans to note (none without).
    explicit JsonScanner(const QByteArray &text, const std::set<std::string> *wanted = nullptr)
        : text_(text), wanted_(wanted)
    {
    }

    /// Scans the whole document; false when it is not the JSON expected.
    bool run()
    {
        if (text_.startsWith("\xEF\xBB\xBF"))
            pos_ = 3;
        if (!value("", true))
            return false;
        skipSpace();
        return pos_ == text_.size();
    }

    std::map<std::string, Span> objects; // the wanted ones, by key path
    std::vector<XMember> xMembers;       // in document order

private:
    char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
    void skipSpace()
    {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                       text_[pos_] == '\n' || text_[pos_] == '\r'))
            ++pos_;
    }
    bool skipString()
    {
        if (peek() != '"')
            return false;
        for (++pos_; pos_ < text_.size(); ++pos_) {
            if (text_[pos_] == '\\')
                ++pos_;
            else if (text_[pos_] == '"') {
                ++pos_;
                return true;
            }
        }
        return false;
    }
    static QString decodeString(const QByteArray &quoted)
    {
        if (!quoted.contains('\\'))
            return QString::fromUtf8(quoted.mid(1, quoted.size() - 2));
        return QJsonDocument::fromJson("[" + quoted + "]").array().at(0).toString();
    }
    /// Parses one value at `path`; `record` = note objects and x- members (false inside the
    /// value of an x- key, which is kept whole).
    bool value(const std::string &path, bool record)
    {
        skipSpace();
        switch (peek()) {
        case '{':
            return object(path, record);
        case '[':
            return array(path, record);
        case '"':
            return skipString();
        case '\0':
            return false;
        default:
            break;
        }
        const qsizetype begin = pos_;
        while (pos_ < text_.size() &&
               std::string_view(",]} \t\r\n").find(text_[pos_]) == std::string_view::npos)
            ++pos_;
        return pos_ > begin;
    }
    bool object(const std::string &path, bool record)
    {
        Span span;
        span.open = pos_++;
        skipSpace();
        if (peek() != '}') {
            for (;;) {
                skipSpace();
                const qsizetype key_begin = pos_;
                if (!skipString())
                    return false;
                const QString key =
                    record ? decodeString(text_.mid(key_begin, pos_ - key_begin)) : QString();
                skipSpace();
                if (peek() != ':')
                    return false;
                ++pos_;
                skipSpace();
                ++span.members;
                const bool extension = record && key.startsWith(QLatin1String("x-"));
                const qsizetype value_begin = pos_;
                const std::string child =
                    record && !extension ? json::childPath(path, key.toStdString()) : std::string();
                if (!value(child, record && !extension))
                    return false;
                if (extension)
                    xMembers.push_back(
                        {path, key, minify(text_.mid(value_begin, pos_ - value_begin))});
                skipSpace();
                if (peek() == ',') {
                    ++pos_;
                    continue;
                }
                if (peek() != '}')
                    return false;
                break;
            }
        }
        span.close = pos_++;
        if (record && wanted_ != nullptr && wanted_->count(path) != 0)
            objects[path] = span;
        return true;
    }
    bool array(const std::string &path, bool record)
    {
        ++pos_;
        skipSpace();
        if (peek() == ']') {
            ++pos_;
            return true;
        }
        for (qsizetype index = 0;; ++index) {
            if (!value(record ? json::indexPath(path, index) : std::string(), record))
                return false;
            skipSpace();
            if (peek() == ',') {
                ++pos_;
                continue;
            }
            if (peek() != ']')
                return false;
            ++pos_;
            return true;
        }
    }
    static QByteArray minify(const QByteArray &json)
    {
        QByteArray out;
        out.reserve(json.size());
        bool in_string = false;
        for (qsizetype i = 0; i < json.size(); ++i) {
            const char c = json[i];
            if (in_string) {
                out += c;
                if (c == '\\' && i + 1 < json.size())
                    out += json[++i];
                else if (c == '"')
                    in_string = false;
            } else if (c == '"') {
                in_string = true;
                out += c;
            } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                out += c;
            }
        }
        return out;
    }

    const QByteArray &text_;
    const std::set<std::string> *wanted_;
    qsizetype pos_ = 0;
};

/// The key path of the object an extension key belongs to, and the key itself; false for an
/// entry that is not an x- key (the calibration path as written).
bool splitExtensionKey(const std::string &key, std::string *parent, std::string *member)
{
    if (key.rfind("x-", 0) == 0) {
        parent->clear();
        *member = key;
        return true;
    }
    const size_t at = key.find(".x-");
    if (at == std::string::npos)
        return false;
    *parent = key.substr(0, at);
    *member = key.substr(at + 1);
    return true;
}

/// One member to add to the written text: a JSON value, or an object of members.
struct ExtraMember {
    QByteArray key; // JSON-encoded
    QByteArray value;
    std::vector<ExtraMember> object; // when value is empty
};

QByteArray renderMembers(const std::vector<ExtraMember> &members, qsizetype indent)
{
    QByteArray out;
    const QByteArray spaces(indent, ' ');
    for (size_t i = 0; i < members.size(); ++i) {
        const ExtraMember &m = members[i];
        out += spaces + m.key + ": ";
        if (!m.value.isEmpty())
            out += m.value;
        else
            out += "{\n" + renderMembers(m.object, indent + 4) + "\n" + spaces + "}";
        if (i + 1 < members.size())
            out += ",\n";
    }
    return out;
}

} // namespace

/// The x- keys of `json` (already parsed as `root`) and the calibration path as written, as
/// Scenario::extensions entries.
std::vector<std::pair<std::string, std::string>>
readExtensions(const QByteArray &json, const QJsonObject &root, const Scenario &scenario)
{
    std::vector<std::pair<std::string, std::string>> out;
    JsonScanner scanner(json);
    if (scanner.run()) {
        for (const JsonScanner::XMember &m : scanner.xMembers)
            out.emplace_back(json::childPath(m.parent, m.key.toStdString()), m.value.toStdString());
    } else {
        // Not expected (the text was parsed): the top-level keys at least.
        for (auto it = root.begin(); it != root.end(); ++it)
            if (it.key().startsWith(QLatin1String("x-"))) {
                const QByteArray wrapped =
                    QJsonDocument(QJsonArray{it.value()}).toJson(QJsonDocument::Compact);
                out.emplace_back(it.key().toStdString(),
                                 wrapped.mid(1, wrapped.size() - 2).toStdString());
            }
    }
    const QJsonValue written = root.value(u"hardware").toObject().value(u"calibration");
    if (written.isString() && !scenario.hardware.calibration_path.empty()) {
        const QJsonArray pair{written, QString::fromStdString(scenario.hardware.calibration_path)};
        out.emplace_back(kCalibrationAsWrittenKey,
                         QJsonDocument(pair).toJson(QJsonDocument::Compact).toStdString());
    }
    return out;
}

/// Adds the x- keys of `extensions` to `text` (what OrderedObject wrote: four spaces per
/// level), each in its object, in the order of `extensions`.
QByteArray addExtensions(QByteArray text,
                         const std::vector<std::pair<std::string, std::string>> &extensions)
{
    // Members by object, objects in order of their first key.
    std::vector<std::pair<std::string, std::vector<ExtraMember>>> groups;
    std::set<std::pair<std::string, std::string>> seen;
    for (const auto &[key, value] : extensions) {
        std::string parent, member;
        if (!splitExtensionKey(key, &parent, &member) || !seen.emplace(parent, member).second)
            continue;
        const QByteArray value_text = QByteArray::fromStdString(value).trimmed();
        const QJsonDocument check = QJsonDocument::fromJson("[" + value_text + "]");
        if (!check.isArray() || check.array().size() != 1)
            continue;
        const QByteArray encoded_key = QJsonDocument(QJsonArray{QString::fromStdString(member)})
                                           .toJson(QJsonDocument::Compact);
        auto group = std::find_if(groups.begin(), groups.end(),
                                  [&](const auto &g) { return g.first == parent; });
        if (group == groups.end()) {
            groups.emplace_back(parent, std::vector<ExtraMember>{});
            group = groups.end() - 1;
        }
        group->second.push_back({encoded_key.mid(1, encoded_key.size() - 2), value_text, {}});
    }
    if (groups.empty())
        return text;

    std::set<std::string> wanted{std::string()}; // the top level: for a re-created "effects"
    for (const auto &group : groups)
        wanted.insert(group.first);
    JsonScanner scanner(text, &wanted);
    if (!scanner.run())
        return text;
    // An "effects" block the writer left out (all defaults) comes back as an object holding
    // only its x- keys; other objects the scenario no longer has take their keys with them.
    const auto group_of = [&groups](const char *path) {
        return std::find_if(groups.begin(), groups.end(),
                            [path](const auto &g) { return g.first == path; });
    };
    if (auto effects = group_of("effects");
        effects != groups.end() && scanner.objects.count("effects") == 0) {
        ExtraMember block{"\"effects\"", {}, std::move(effects->second)};
        effects->second.clear();
        auto root = group_of("");
        if (root == groups.end()) {
            groups.emplace_back(std::string(), std::vector<ExtraMember>{});
            root = groups.end() - 1;
        }
        root->second.insert(root->second.begin(), std::move(block));
    }

    struct Edit {
        qsizetype at;
        qsizetype replaced;
        QByteArray text;
    };
    std::vector<Edit> edits;
    for (const auto &[parent, members] : groups) {
        const auto found = scanner.objects.find(parent);
        if (members.empty() || found == scanner.objects.end())
            continue;
        const JsonScanner::Span &span = found->second;
        // The closing brace is indented like the line the object starts on.
        const qsizetype line = text.lastIndexOf('\n', span.open) + 1;
        qsizetype indent = 0;
        while (line + indent < span.open && text[line + indent] == ' ')
            ++indent;
        const QByteArray body = renderMembers(members, indent + 4);
        if (span.members == 0) {
            edits.push_back({span.open, span.close + 1 - span.open,
                             "{\n" + body + "\n" + QByteArray(indent, ' ') + "}"});
        } else {
            qsizetype end = span.close;
            while (end > span.open &&
                   std::string_view(" \t\r\n").find(text[end - 1]) != std::string_view::npos)
                --end;
            edits.push_back({end, 0, ",\n" + body});
        }
    }
    std::sort(edits.begin(), edits.end(), [](const Edit &a, const Edit &b) { return a.at > b.at; });
    for (const Edit &e : edits)
        text.replace(e.at, e.replaced, e.text);
    return text;
}

/// hardware.calibration as written to a file in `targetDir` (scenario_io.h, writeScenario).
QString calibrationText(const Scenario &scenario, const QString &targetDir)
{
    const QString resolved = QString::fromStdString(scenario.hardware.calibration_path);
    if (targetDir.isEmpty() || QDir::isRelativePath(resolved))
        return resolved;
    QString written;
    for (const auto &[key, value] : scenario.extensions) {
        if (key != kCalibrationAsWrittenKey)
            continue;
        const QJsonArray pair = QJsonDocument::fromJson(QByteArray::fromStdString(value)).array();
        if (pair.size() == 2 && pair.at(1).toString() == resolved)
            written = pair.at(0).toString();
    }
    const QDir target(targetDir);
    // As written, where it still names the same file from the target folder.
    if (!written.isEmpty() &&
        QDir::cleanPath(target.absoluteFilePath(written)) == QDir::cleanPath(resolved))
        return written;
    const QString relative = target.relativeFilePath(resolved);
    if (QDir::isAbsolutePath(relative))
        return resolved; // another drive: no relative path
    if (!written.isEmpty())
        return relative; // written relative: relative to the new folder
    // Chosen in the app: relative inside the scenario's folder, absolute elsewhere.
    return relative.startsWith(QLatin1String("../")) || relative == QLatin1String("..") ? resolved
                                                                                        : relative;
}

} // namespace scalescope
