// π for the tests' own formulas. One definition for them all: the files of a test folder are compiled together in
// batches (tests/CMakeLists.txt), where each file's own kPi would be a second definition of the same name.
#pragma once

#include <numbers>

namespace lodestone {

inline constexpr double kPi = std::numbers::pi;

}  // namespace lodestone
