#include "analysis/format.h"

#include <charconv>
#include <cmath>

namespace scalescope
{

namespace
{
std::string toChars(double x, std::chars_format format, int precision)
{
    if (!std::isfinite(x))
        return std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf");
    char buf[400]; // the longest fixed rendering of a double with a few decimals
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, x, format, precision);
    return r.ec == std::errc() ? std::string(buf, r.ptr) : std::string();
}
} // namespace

std::string fixedText(double x, int decimals)
{
    return toChars(x, std::chars_format::fixed, decimals);
}

std::string generalText(double x, int significant)
{
    return toChars(x, std::chars_format::general, significant);
}

int decimalsApart(double x, double threshold, int decimals)
{
    // Rounded half away from zero, as printing does.
    const auto rounded = [](double v, int d) {
        const double scale = std::pow(10.0, d);
        return std::round(v * scale) / scale;
    };
    int d = decimals;
    while (d < 6 && (x < threshold) != (rounded(x, d) < rounded(threshold, d)))
        ++d;
    return d;
}

} // namespace scalescope
