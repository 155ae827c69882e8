// A body turning about the ground z axis, read from bodies.csv: its angle unwrapped along its rows and its wz, for
// the tests of geared decks.
#pragma once

#include <cmath>
#include <numbers>
#include <vector>

#include "support/results_csv.h"

namespace lodestone::testing {

struct Turning {
  std::vector<double> time, angle, rate;
  double turned() const { return angle.back() - angle.front(); }
  double meanRate() const {
    double sum = 0;
    for (double w : rate) sum += w;
    return sum / static_cast<double>(rate.size());
  }
};

// Body `id`'s turning from `from` on (its angle unwrapped from the start).
inline Turning turning(const ResultsTable& bodies, long id, double from) {
  Turning result;
  double previous = 0;
  bool first = true;
  for (size_t row : bodies.rowsOfBody(id)) {
    double angle = 2 * std::atan2(bodies.at(row, "e3"), bodies.at(row, "e0"));
    if (!first) angle += 2 * std::numbers::pi * std::round((previous - angle) / (2 * std::numbers::pi));
    previous = angle;
    first = false;
    if (bodies.at(row, "time") < from - 1e-9) continue;
    result.time.push_back(bodies.at(row, "time"));
    result.angle.push_back(angle);
    result.rate.push_back(bodies.at(row, "wz"));
  }
  return result;
}

}  // namespace lodestone::testing
