// MotionSolve's fixed scientific number style for the run log. (Results use formatReal, solver/core/text.h:
// the shortest text that reads back as the same double.)
#pragma once

#include <string>

namespace lodestone {

// "1.000E-03": what MotionSolve logs print.
std::string scientific(double value, int digitsAfterPoint = 3);

}  // namespace lodestone
