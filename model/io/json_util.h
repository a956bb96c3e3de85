// Typed reading of JSON documents with key-path errors (internal to model/io).
//
// The readers check type, finiteness, wholeness and range and report the first problem as
// a json::Failure carrying an InputError ("parallel.pipeline", "out of range ..."). The
// failure never leaves model/io: the public parse functions catch it with json::guard()
// and return the InputError.
#pragma once

#include "plan/error.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace scalescope::json
{

/// A problem in the input. Thrown by the readers, caught by guard().
struct Failure {
    InputError error;
};

[[noreturn]] void fail(std::string path, std::string message);

/// Runs `parse` and turns a Failure into the InputError of the returned Result.
template <typename T, typename F> Result<T> guard(F &&parse)
{
    try {
        return Result<T>(parse());
    } catch (Failure &failure) {
        return Result<T>(std::move(failure.error));
    }
}

/// "parent.key" ("key" when parent is empty).
std::string childPath(const std::string &parent, std::string_view key);
/// "parent[index]".
std::string indexPath(const std::string &parent, qsizetype index);

/// A number as written in messages and ranges: 65536, 0.15, 1e+300.
std::string formatNumber(double value);
/// A value as written in messages: "four" (quoted, shortened), 2.5, true, null, an object.
std::string describe(const QJsonValue &value);
/// "a, b, c".
std::string joinNames(const std::vector<std::string> &names);

/// Deepest nesting of objects and arrays accepted in a document (the formats need 6; Qt's
/// own limit is higher and its message does not say what is allowed).
inline constexpr int kMaxJsonDepth = 64;
/// Longest string value accepted (characters): names, paths, notes.
inline constexpr qsizetype kMaxStringChars = 65536;
/// Most items accepted in any array (formats with a smaller bound check it themselves).
inline constexpr qsizetype kMaxArrayItems = qsizetype(1) << 21;

/// Parses a whole document whose top level must be an object. Errors have an empty path
/// and name the parse error, its offset, line and column; a document nested deeper than
/// kMaxJsonDepth fails before parsing and names the key the deep part is under.
QJsonObject parseObjectDocument(const QByteArray &json);

/// Fails at `path` when `array` holds more than `max` items; `what` names the items
/// ("stragglers").
void limitItems(const QJsonArray &array, const std::string &path, qsizetype max,
                const char *what);

/// Inclusive integer range.
struct IntRange {
    int64_t min;
    int64_t max;
};

/// Range of a real number; the lower bound may be exclusive (> 0), and 0 may be allowed
/// besides the range ("not stated", "no support").
struct RealRange {
    double min;
    double max;
    bool min_exclusive = false;
    bool zero_allowed = false;

    static constexpr RealRange positive(double max) { return {0, max, true}; }
    static constexpr RealRange closed(double min, double max) { return {min, max, false}; }
    /// 0, or `min` to `max`: a physical quantity where 0 means "not stated" and a tiny
    /// positive figure (5e-324 GB/s) is no device.
    static constexpr RealRange zeroOr(double min, double max) { return {min, max, false, true}; }
    bool contains(double x) const
    {
        return (zero_allowed && x == 0) || ((min_exclusive ? x > min : x >= min) && x <= max);
    }
    std::string text() const;
};

// Readers of one value at `path`.
int64_t readInt(const QJsonValue &value, const std::string &path, IntRange range);
double readDouble(const QJsonValue &value, const std::string &path, RealRange range);
bool readBool(const QJsonValue &value, const std::string &path);
std::string readString(const QJsonValue &value, const std::string &path);
QJsonObject readObject(const QJsonValue &value, const std::string &path);
QJsonArray readArray(const QJsonValue &value, const std::string &path);

/// Reads a string naming one of `values` (as spelled by `nameOf`); `also` lists further
/// names the caller accepts before asking (they appear in the error's allowed list).
template <typename E>
E readEnum(const QJsonValue &value, const std::string &path, std::span<const E> values,
           const char *(*nameOf)(E), const std::vector<std::string> &also = {})
{
    std::vector<std::string> names;
    names.reserve(values.size() + also.size());
    for (E e : values)
        names.emplace_back(nameOf(e));
    const size_t own = names.size();
    names.insert(names.end(), also.begin(), also.end());
    if (!value.isString())
        fail(path, "expected a string, got " + describe(value) + "; allowed: " + joinNames(names));
    const std::string text = value.toString().toStdString();
    for (size_t i = 0; i < own; ++i) {
        if (names[i] == text)
            return values[i];
    }
    fail(path, "unknown value " + describe(value) + "; allowed: " + joinNames(names));
}

/// Reads the members of one JSON object; every accessor names the full key path.
class ObjectReader
{
public:
    ObjectReader(QJsonObject object, std::string path)
        : object_(std::move(object)), path_(std::move(path))
    {
    }

    const QJsonObject &object() const { return object_; }
    const std::string &path() const { return path_; }
    std::string pathOf(std::string_view key) const { return childPath(path_, key); }
    bool has(std::string_view key) const;
    QJsonValue value(std::string_view key) const;

    /// Fails on the first key that is not in `allowed` and does not start with "x-".
    void allowKeys(std::span<const std::string_view> allowed) const;
    void allowKeys(std::initializer_list<std::string_view> allowed) const
    {
        allowKeys(std::span<const std::string_view>(allowed.begin(), allowed.size()));
    }
    /// Fails when `key` is absent.
    void require(std::string_view key) const;
    /// Fails when `key` is present (`why` says what excludes it).
    void forbid(std::string_view key, std::string_view why) const;

    /// Fails unless `key` holds the format version `version`.
    void requireVersion(std::string_view key, int64_t version) const;

    int64_t requiredInt(std::string_view key, IntRange range) const;
    int64_t optionalInt(std::string_view key, IntRange range, int64_t fallback) const;
    double requiredDouble(std::string_view key, RealRange range) const;
    double optionalDouble(std::string_view key, RealRange range, double fallback) const;
    bool requiredBool(std::string_view key) const;
    bool optionalBool(std::string_view key, bool fallback) const;
    std::string requiredString(std::string_view key) const;
    std::string optionalString(std::string_view key, std::string fallback) const;
    ObjectReader requiredObject(std::string_view key) const;
    std::optional<ObjectReader> optionalObject(std::string_view key) const;
    QJsonArray requiredArray(std::string_view key) const;
    QJsonArray optionalArray(std::string_view key) const;

    template <typename E>
    E requiredEnum(std::string_view key, std::span<const E> values, const char *(*nameOf)(E)) const
    {
        require(key);
        return readEnum(value(key), pathOf(key), values, nameOf);
    }
    template <typename E>
    E optionalEnum(std::string_view key, std::span<const E> values, const char *(*nameOf)(E),
                   E fallback, const std::vector<std::string> &also = {}) const
    {
        return has(key) ? readEnum(value(key), pathOf(key), values, nameOf, also) : fallback;
    }

private:
    QJsonObject object_;
    std::string path_;
};

/// A JSON object that keeps its members in insertion order when written (QJsonObject
/// sorts them), so that written files read in the order of the spec.
class OrderedObject
{
public:
    OrderedObject &add(const char *key, QJsonValue value);
    OrderedObject &add(const char *key, OrderedObject object);
    OrderedObject &add(const char *key, std::vector<OrderedObject> array);
    bool empty() const { return members_.empty(); }

    /// Indented JSON text (four spaces per level), ending with a newline.
    QByteArray toJson() const;

private:
    struct Member;
    void write(QByteArray &out, int depth) const;

    std::vector<Member> members_;
};

struct OrderedObject::Member {
    QByteArray key; // JSON-encoded
    std::variant<QJsonValue, OrderedObject, std::vector<OrderedObject>> value;
};

} // namespace scalescope::json
