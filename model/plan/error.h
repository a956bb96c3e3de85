// Errors for user input: a key path, the offending value, and what is allowed.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace scalescope
{

struct InputError {
    std::string path;    // key path such as "parallel.pipeline" ("" for the whole document)
    std::string message; // names the value and what is allowed

    std::string toString() const { return path.empty() ? message : path + ": " + message; }
};

/// Either a value or an InputError. The model never throws for user input.
template <typename T> class Result
{
public:
    Result(T value) : v_(std::move(value)) {}
    Result(InputError error) : v_(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(v_); }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return std::get<T>(v_); }
    T &value() & { return std::get<T>(v_); }
    T &&value() && { return std::get<T>(std::move(v_)); }
    const InputError &error() const { return std::get<InputError>(v_); }

private:
    std::variant<T, InputError> v_;
};

} // namespace scalescope
