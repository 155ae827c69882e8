// Number formatting shared by the writers: shortest round-trip text for results (a reader gets back the exact
// double), and MotionSolve's fixed scientific style for the log.
#pragma once

#include <string>

namespace lodestone {

// Appends the shortest text that reads back as exactly `value` ("0.1", "1e-07", "-3.0000000000000004").
void appendRoundTrip(std::string& out, double value);
std::string roundTrip(double value);

// "1.000E-03": what MotionSolve logs print.
std::string scientific(double value, int digitsAfterPoint = 3);

}  // namespace lodestone
