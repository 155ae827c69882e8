// Measuring oscillations in results: the times a sampled signal crosses a level, located between outputs with the
// cubic through the value and rate at each end (error of order h⁴, so 100 outputs a period locate a crossing to
// ~1e-8 of the period), and the period from them.
#pragma once

#include <cmath>
#include <vector>

#include "support/results_csv.h"

namespace lodestone::testing {

struct Signal {
  std::vector<double> times, values, rates;  // rates: the values' time derivatives
};

// Column `value` and its rate column `rate` of body `id`'s rows, less `level`.
inline Signal signalOf(const ResultsTable& table, long id, const std::string& value, const std::string& rate,
                       double level = 0) {
  Signal signal;
  for (size_t row : table.rowsOfBody(id)) {
    signal.times.push_back(table.at(row, "time"));
    signal.values.push_back(table.at(row, value) - level);
    signal.rates.push_back(table.at(row, rate));
  }
  return signal;
}

// Every time the signal passes through zero, in order.
inline std::vector<double> zeroCrossings(const Signal& signal) {
  std::vector<double> crossings;
  for (size_t k = 0; k + 1 < signal.times.size(); ++k) {
    const double f0 = signal.values[k], f1 = signal.values[k + 1];
    if (!(f0 < 0 && f1 >= 0) && !(f0 > 0 && f1 <= 0)) continue;
    const double h = signal.times[k + 1] - signal.times[k];
    const double d0 = h * signal.rates[k], d1 = h * signal.rates[k + 1];
    const auto hermite = [&](double s) {
      const double s2 = s * s, s3 = s2 * s;
      return (2 * s3 - 3 * s2 + 1) * f0 + (s3 - 2 * s2 + s) * d0 + (-2 * s3 + 3 * s2) * f1 + (s3 - s2) * d1;
    };
    double low = 0, high = 1;  // the cubic changes sign on [low, high]
    for (int i = 0; i < 60; ++i) {
      const double middle = 0.5 * (low + high);
      if ((hermite(middle) > 0) == (f0 > 0)) low = middle;
      else high = middle;
    }
    crossings.push_back(signal.times[k] + 0.5 * (low + high) * h);
  }
  return crossings;
}

// The mean period of a signal that crosses zero twice a period: twice the mean spacing of its crossings.
inline double periodOf(const std::vector<double>& crossings) {
  if (crossings.size() < 3) return NAN;
  return 2 * (crossings.back() - crossings.front()) / static_cast<double>(crossings.size() - 1);
}

}  // namespace lodestone::testing
