// Typed reading of JSON documents with key-path errors (json_util.h). About 650 lines on
// purpose: one ObjectReader with a typed getter per JSON kind, each with its range check and
// the error text naming the key path, the value and what is allowed.
#include "io/json_util.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QLocale>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_set>

namespace scalescope::json
{

namespace
{

constexpr qsizetype kMaxDescribedChars = 48;

std::string intRangeText(IntRange range)
{
    if (range.min == range.max)
        return std::to_string(range.min);
    return std::to_string(range.min) + " to " + std::to_string(range.max);
}

/// Compact JSON text of any value (strings quoted and escaped).
QByteArray encode(const QJsonValue &value)
{
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return wrapped.mid(1, wrapped.size() - 2); // drop the wrapping [ ]
}

QString keyString(std::string_view key)
{
    return QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()));
}

} // namespace

void fail(std::string path, std::string message)
{
    throw Failure{InputError{std::move(path), std::move(message)}};
}

std::string childPath(const std::string &parent, std::string_view key)
{
    return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string indexPath(const std::string &parent, qsizetype index)
{
    return parent + "[" + std::to_string(index) + "]";
}

std::string formatNumber(double value)
{
    if (std::isfinite(value) && value == std::trunc(value) && std::abs(value) < 1e15)
        return std::to_string(static_cast<int64_t>(value));
    return QByteArray::number(value, 'g', QLocale::FloatingPointShortest).toStdString();
}

std::string describe(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return "null";
    case QJsonValue::Bool:
        return value.toBool() ? "true" : "false";
    case QJsonValue::Double: {
        // Whole numbers that QJsonValue holds exactly as integers print exactly.
        const qint64 whole = value.toInteger(0);
        if (whole != 0 && static_cast<double>(whole) == value.toDouble())
            return std::to_string(whole);
        return formatNumber(value.toDouble());
    }
    case QJsonValue::String: {
        QString text = value.toString();
        if (text.size() > kMaxDescribedChars)
            text = text.left(kMaxDescribedChars) + QStringLiteral("...");
        return encode(QJsonValue(text)).toStdString();
    }
    case QJsonValue::Array:
        return "an array";
    case QJsonValue::Object:
        return "an object";
    case QJsonValue::Undefined:
        break;
    }
    return "nothing";
}

std::string joinNames(const std::vector<std::string> &names)
{
    std::string joined;
    for (const std::string &name : names) {
        if (!joined.empty())
            joined += ", ";
        joined += name;
    }
    return joined;
}

namespace
{

// The key path at `offset` of a (possibly broken) JSON text, found by a light scan that
// tracks strings, objects and arrays: it lets a syntax error (a NaN, a stray comma) name
// the key it sits under. Empty at the top level or when nested too deeply to be useful.
std::string keyPathAt(const QByteArray &json, qsizetype offset)
{
    struct Frame {
        bool object;
        std::string key;
        qsizetype index;
    };
    constexpr size_t kMaxDepth = 64;
    std::vector<Frame> stack;
    bool in_string = false, escaped = false, overflow = false;
    size_t depth = 0;
    std::string last_string, current;
    for (qsizetype i = 0; i < offset && i < json.size(); ++i) {
        const char c = json[i];
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"') {
                in_string = false;
                last_string = current;
            } else
                current += c;
            continue;
        }
        switch (c) {
        case '"':
            in_string = true;
            current.clear();
            break;
        case '{':
        case '[':
            if (++depth > kMaxDepth)
                overflow = true;
            else
                stack.push_back({c == '{', "", 0});
            break;
        case '}':
        case ']':
            if (depth > 0 && depth-- <= kMaxDepth && !stack.empty())
                stack.pop_back();
            break;
        case ':':
            if (!stack.empty() && stack.back().object && depth <= kMaxDepth)
                stack.back().key = last_string;
            break;
        case ',':
            if (!stack.empty() && depth <= kMaxDepth) {
                if (stack.back().object)
                    stack.back().key.clear();
                else
                    ++stack.back().index;
            }
            break;
        default:
            break;
        }
    }
    if (overflow)
        return {};
    std::string path;
    for (const Frame &f : stack) {
        if (f.object) {
            if (f.key.empty())
                break;
            path = childPath(path, f.key);
        } else {
            path = indexPath(path, f.index);
        }
    }
    return path;
}

/// Offset of the first '{' or '[' (outside strings) that opens level kMaxJsonDepth + 1,
/// or -1. A light scan like keyPathAt's: it runs before Qt's parser, which would recurse
/// much deeper and then report only "too deeply nested document".
qsizetype tooDeepAt(const QByteArray &json)
{
    int depth = 0;
    bool in_string = false, escaped = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (in_string) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"')
            in_string = true;
        else if (c == '{' || c == '[') {
            if (++depth > kMaxJsonDepth)
                return i;
        } else if ((c == '}' || c == ']') && depth > 0)
            --depth;
    }
    return -1;
}

/// "offset 12 (line 2, column 5)".
std::string positionText(const QByteArray &json, qsizetype offset)
{
    const QByteArray before = json.left(offset);
    const qsizetype line = before.count('\n') + 1;
    const qsizetype column = offset - (before.lastIndexOf('\n') + 1) + 1;
    return "offset " + std::to_string(offset) + " (line " + std::to_string(line) + ", column " +
           std::to_string(column) + ")";
}

/// Offset of the first byte that shows the text is not UTF-8 JSON (a NUL byte, as every
/// ASCII character of UTF-16 or UTF-32 text has, or a UTF-16 byte order mark), or -1.
qsizetype notUtf8At(const QByteArray &json)
{
    if (json.startsWith("\xFF\xFE") || json.startsWith("\xFE\xFF"))
        return 0;
    return json.indexOf('\0');
}

/// The decimal spelling of a hexadecimal number token ("0x10", "-0X1f"), or empty when
/// `token` is not one.
std::string hexadecimalAsDecimal(const QByteArray &token)
{
    QByteArray digits = token;
    const bool negative = digits.startsWith('-');
    if (negative || digits.startsWith('+'))
        digits.remove(0, 1);
    if (digits.size() < 3 || digits[0] != '0' || (digits[1] != 'x' && digits[1] != 'X'))
        return {};
    digits.remove(0, 2);
    for (const char c : digits) {
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return {};
    }
    bool ok = false;
    const qulonglong value = digits.toULongLong(&ok, 16);
    if (!ok)
        return "it in decimal";
    return (negative ? "-" : "") + std::to_string(value);
}

/// Fails at the key path of the first key that appears twice in one object. QJsonDocument
/// keeps the last of duplicated keys silently; a linear scan of the (already parsed, so
/// well-formed) text finds them. Keys are compared after unescaping ("a" == "\u0061").
void failOnDuplicateKeys(const QByteArray &json)
{
    struct Frame {
        bool object;
        bool expect_key;
        std::string key; // the member being read (objects)
        qsizetype index; // the item being read (arrays)
        std::vector<std::string> keys;
        std::unordered_set<std::string> key_set; // used once an object has many keys
    };
    constexpr size_t kLinearKeys = 16;
    std::vector<Frame> stack;
    stack.reserve(kMaxJsonDepth + 1);
    const qsizetype n = json.size();
    for (qsizetype i = 0; i < n; ++i) {
        const char c = json[i];
        if (c == '"') {
            const qsizetype begin = i;
            bool escaped = false;
            for (++i; i < n; ++i) {
                if (json[i] == '\\') {
                    escaped = true;
                    ++i;
                } else if (json[i] == '"') {
                    break;
                }
            }
            if (stack.empty() || !stack.back().object || !stack.back().expect_key)
                continue;
            Frame &f = stack.back();
            f.expect_key = false;
            const QByteArray raw = json.mid(begin, i - begin + 1);
            std::string key = escaped ? QJsonDocument::fromJson("[" + raw + "]")
                                            .array()
                                            .at(0)
                                            .toString()
                                            .toStdString()
                                      : raw.mid(1, raw.size() - 2).toStdString();
            bool duplicate = false;
            if (f.keys.size() < kLinearKeys) {
                duplicate = std::find(f.keys.begin(), f.keys.end(), key) != f.keys.end();
                if (!duplicate) {
                    f.keys.push_back(key);
                    if (f.keys.size() == kLinearKeys)
                        f.key_set.insert(f.keys.begin(), f.keys.end());
                }
            } else {
                duplicate = !f.key_set.insert(key).second;
            }
            f.key = key;
            if (duplicate) {
                std::string path;
                for (const Frame &frame : stack)
                    path = frame.object ? childPath(path, frame.key) : indexPath(path, frame.index);
                fail(path, "duplicate key: \"" + key +
                               "\" appears more than once in this "
                               "object (again at " +
                               positionText(json, begin) + "); allowed: each key once");
            }
            continue;
        }
        switch (c) {
        case '{':
        case '[':
            stack.push_back({c == '{', c == '{', "", 0, {}, {}});
            break;
        case '}':
        case ']':
            if (!stack.empty())
                stack.pop_back();
            break;
        case ',':
            if (!stack.empty()) {
                if (stack.back().object)
                    stack.back().expect_key = true;
                else
                    ++stack.back().index;
            }
            break;
        default:
            break;
        }
    }
}

} // namespace

void limitItems(const QJsonArray &array, const std::string &path, qsizetype max, const char *what)
{
    if (array.size() > max)
        fail(path, std::to_string(array.size()) + " " + what + " are too many; allowed: at most " +
                       std::to_string(max));
}

QJsonObject parseObjectDocument(const QByteArray &json)
{
    if (const qsizetype deep = tooDeepAt(json); deep >= 0) {
        // A whole-document error (like other syntax errors) that names the key the deep
        // part sits under, without the run of "[0]" that leads down to it.
        std::string under = keyPathAt(json, deep);
        while (!under.empty() && under.back() == ']') {
            // Only "[N]" groups: a key may itself end with ']' ("gpus]").
            const size_t open = under.rfind('[');
            if (open == std::string::npos || open + 2 > under.size() - 1 ||
                under.find_first_not_of("0123456789", open + 1) != under.size() - 1)
                break;
            under.erase(open);
        }
        if (under.size() > 200)
            under = under.substr(0, 200) + "...";
        fail("", "not valid JSON: objects and arrays nested more than " +
                     std::to_string(kMaxJsonDepth) + " levels deep at " +
                     positionText(json, deep) + (under.empty() ? "" : " under \"" + under + "\"") +
                     "; allowed: at most " + std::to_string(kMaxJsonDepth) + " levels");
    }
    if (const qsizetype at = notUtf8At(json); at >= 0)
        fail("", "not valid JSON at " + positionText(json, at) +
                     ": the file is UTF-16 (or has NUL bytes); allowed: UTF-8 JSON");
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) {
        const qsizetype offset = std::clamp<qsizetype>(error.offset, 0, json.size());
        std::string message = "not valid JSON: " + error.errorString().toStdString() + " at " +
                              positionText(json, offset);
        if (json.trimmed().isEmpty())
            message += "; the document is empty";
        // Name the offending token (NaN, Infinity, 1e400 ...) and where it sits.
        qsizetype end = offset;
        while (end < json.size() && end - offset < 24 &&
               QByteArray(",}]\n\r\t ").indexOf(json[end]) < 0)
            ++end;
        qsizetype begin = offset;
        while (begin > 0 && offset - begin < 24 &&
               QByteArray(",{[:\n\r\t ").indexOf(json[begin - 1]) < 0)
            --begin;
        const QByteArray token = json.mid(begin, std::max<qsizetype>(0, end - begin)).trimmed();
        if (const std::string decimal = hexadecimalAsDecimal(token); !decimal.empty())
            fail(keyPathAt(json, begin),
                 "not valid JSON at " + positionText(json, begin) + ": got " + token.toStdString() +
                     "; hexadecimal numbers are not JSON; write " + decimal);
        if (!token.isEmpty() && error.error == QJsonParseError::IllegalNumber)
            message += "; got " + token.toStdString() +
                       ", allowed: a finite JSON number (NaN and Infinity are not JSON)";
        fail(keyPathAt(json, begin), std::move(message));
    }
    if (!document.isObject())
        fail("", std::string("expected a JSON object at the top level, got ") +
                     (document.isArray() ? "an array" : "a single value"));
    failOnDuplicateKeys(json);
    return document.object();
}

std::string RealRange::text() const
{
    if (zero_allowed)
        return "0 or " + formatNumber(min) + " to " + formatNumber(max);
    if (min_exclusive)
        return "> " + formatNumber(min) + " and <= " + formatNumber(max);
    return formatNumber(min) + " to " + formatNumber(max);
}

int64_t readInt(const QJsonValue &value, const std::string &path, IntRange range)
{
    const std::string allowed = "; allowed: " + intRangeText(range);
    const double number = value.toDouble();
    if (!value.isDouble() || !std::isfinite(number) || number != std::trunc(number))
        fail(path, "expected a whole number, got " + describe(value) + allowed);
    if (number < static_cast<double>(range.min) || number > static_cast<double>(range.max))
        fail(path, describe(value) + " is out of range" + allowed);
    // In range, so exactly representable; toInteger() keeps integers above 2^53 exact.
    const int64_t whole = value.toInteger();
    if (whole < range.min || whole > range.max)
        fail(path, describe(value) + " is out of range" + allowed);
    return whole;
}

double readDouble(const QJsonValue &value, const std::string &path, RealRange range)
{
    const std::string allowed = "; allowed: " + range.text();
    if (!value.isDouble())
        fail(path, "expected a number, got " + describe(value) + allowed);
    const double number = value.toDouble();
    if (!std::isfinite(number))
        fail(path, "expected a finite number, got " + describe(value) + allowed);
    if (!range.contains(number))
        fail(path, describe(value) + " is out of range" + allowed);
    return number;
}

bool readBool(const QJsonValue &value, const std::string &path)
{
    if (!value.isBool())
        fail(path, "expected true or false, got " + describe(value));
    return value.toBool();
}

std::string readString(const QJsonValue &value, const std::string &path)
{
    if (!value.isString())
        fail(path, "expected a string, got " + describe(value));
    const QString text = value.toString();
    if (text.size() > kMaxStringChars)
        fail(path, "a string of " + std::to_string(text.size()) +
                       " characters is too long; allowed: at most " +
                       std::to_string(kMaxStringChars) + " characters");
    return text.toStdString();
}

QJsonObject readObject(const QJsonValue &value, const std::string &path)
{
    if (!value.isObject())
        fail(path, "expected an object, got " + describe(value));
    return value.toObject();
}

QJsonArray readArray(const QJsonValue &value, const std::string &path)
{
    if (!value.isArray())
        fail(path, "expected an array, got " + describe(value));
    QJsonArray array = value.toArray();
    limitItems(array, path, kMaxArrayItems, "items");
    return array;
}

bool ObjectReader::has(std::string_view key) const
{
    return object_.contains(keyString(key));
}

QJsonValue ObjectReader::value(std::string_view key) const
{
    return object_.value(keyString(key));
}

void ObjectReader::allowKeys(std::span<const std::string_view> allowed) const
{
    for (const QString &key : object_.keys()) {
        if (key.startsWith(QStringLiteral("x-")))
            continue;
        const std::string name = key.toStdString();
        if (std::find(allowed.begin(), allowed.end(), name) != allowed.end())
            continue;
        std::vector<std::string> names(allowed.begin(), allowed.end());
        fail(pathOf(name), "unknown key; allowed keys: " + joinNames(names) +
                               " (and any key starting with \"x-\")");
    }
}

void ObjectReader::require(std::string_view key) const
{
    if (!has(key))
        fail(pathOf(key), "missing; this key is required");
}

void ObjectReader::forbid(std::string_view key, std::string_view why) const
{
    if (has(key))
        fail(pathOf(key), std::string(why));
}

void ObjectReader::requireVersion(std::string_view key, int64_t version) const
{
    if (!has(key))
        fail(pathOf(key), "missing; this key is required and must be " + std::to_string(version));
    const QJsonValue found = value(key);
    if (!found.isDouble() || found.toDouble() != static_cast<double>(version))
        fail(pathOf(key), "unsupported format version " + describe(found) +
                              "; allowed: " + std::to_string(version));
}

int64_t ObjectReader::requiredInt(std::string_view key, IntRange range) const
{
    require(key);
    return readInt(value(key), pathOf(key), range);
}

int64_t ObjectReader::optionalInt(std::string_view key, IntRange range, int64_t fallback) const
{
    return has(key) ? readInt(value(key), pathOf(key), range) : fallback;
}

double ObjectReader::requiredDouble(std::string_view key, RealRange range) const
{
    require(key);
    return readDouble(value(key), pathOf(key), range);
}

double ObjectReader::optionalDouble(std::string_view key, RealRange range, double fallback) const
{
    return has(key) ? readDouble(value(key), pathOf(key), range) : fallback;
}

bool ObjectReader::requiredBool(std::string_view key) const
{
    require(key);
    return readBool(value(key), pathOf(key));
}

bool ObjectReader::optionalBool(std::string_view key, bool fallback) const
{
    return has(key) ? readBool(value(key), pathOf(key)) : fallback;
}

std::string ObjectReader::requiredString(std::string_view key) const
{
    require(key);
    return readString(value(key), pathOf(key));
}

std::string ObjectReader::optionalString(std::string_view key, std::string fallback) const
{
    return has(key) ? readString(value(key), pathOf(key)) : std::move(fallback);
}

ObjectReader ObjectReader::requiredObject(std::string_view key) const
{
    require(key);
    return ObjectReader(readObject(value(key), pathOf(key)), pathOf(key));
}

std::optional<ObjectReader> ObjectReader::optionalObject(std::string_view key) const
{
    if (!has(key))
        return std::nullopt;
    return ObjectReader(readObject(value(key), pathOf(key)), pathOf(key));
}

QJsonArray ObjectReader::requiredArray(std::string_view key) const
{
    require(key);
    return readArray(value(key), pathOf(key));
}

QJsonArray ObjectReader::optionalArray(std::string_view key) const
{
    return has(key) ? readArray(value(key), pathOf(key)) : QJsonArray();
}

OrderedObject &OrderedObject::add(const char *key, QJsonValue value)
{
    members_.push_back(Member{encode(QJsonValue(QString::fromUtf8(key))), std::move(value)});
    return *this;
}

OrderedObject &OrderedObject::add(const char *key, OrderedObject object)
{
    members_.push_back(Member{encode(QJsonValue(QString::fromUtf8(key))), std::move(object)});
    return *this;
}

OrderedObject &OrderedObject::add(const char *key, std::vector<OrderedObject> array)
{
    members_.push_back(Member{encode(QJsonValue(QString::fromUtf8(key))), std::move(array)});
    return *this;
}

QByteArray OrderedObject::toJson() const
{
    QByteArray out;
    write(out, 0);
    out += '\n';
    return out;
}

void OrderedObject::write(QByteArray &out, int depth) const
{
    if (members_.empty()) {
        out += "{}";
        return;
    }
    const QByteArray indent(4 * (depth + 1), ' ');
    out += "{\n";
    for (size_t i = 0; i < members_.size(); ++i) {
        const Member &member = members_[i];
        out += indent + member.key + ": ";
        if (const auto *value = std::get_if<QJsonValue>(&member.value)) {
            out += encode(*value);
        } else if (const auto *object = std::get_if<OrderedObject>(&member.value)) {
            object->write(out, depth + 1);
        } else {
            const auto &array = std::get<std::vector<OrderedObject>>(member.value);
            if (array.empty()) {
                out += "[]";
            } else {
                out += "[\n";
                for (size_t j = 0; j < array.size(); ++j) {
                    out += indent + "    ";
                    array[j].write(out, depth + 2);
                    out += j + 1 < array.size() ? ",\n" : "\n";
                }
                out += indent + "]";
            }
        }
        out += i + 1 < members_.size() ? ",\n" : "\n";
    }
    out += QByteArray(4 * depth, ' ') + "}";
}

} // namespace scalescope::json
