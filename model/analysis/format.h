// Numbers in the model's English sentences (bottleneck, advice), the same under every locale:
// std::to_chars never reads the C locale, unlike printf ("124.6 GB", never "124,6 GB").
#pragma once

#include <string>

namespace scalescope
{

/// `x` with `decimals` digits after the point ("%.*f" in the C locale).
std::string fixedText(double x, int decimals);
/// `x` with `significant` significant digits ("%.*g" in the C locale).
std::string generalText(double x, int significant);
/// Decimals (at least `decimals`, at most 6) with which `x` printed beside a `threshold` it
/// is compared with shows on the right side of it: 0.8951 against 0.90 needs 3 ("0.895
/// below 0.90", never "0.90 below 0.90").
int decimalsApart(double x, double threshold, int decimals);

} // namespace scalescope
