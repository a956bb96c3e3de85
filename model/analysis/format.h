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

} // namespace scalescope
