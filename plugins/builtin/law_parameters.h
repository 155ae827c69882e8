// Short constructors for the rows of a law's parameter table, so each law file reads like its table in the brief.
#pragma once

#include <string>
#include <utility>

#include "plugins/contact_law.h"

namespace lodestone::law_parameters {

inline Range above(double limit) {
  Range range;
  range.min = limit;
  range.minInclusive = false;
  return range;
}
inline Range atLeast(double limit) {
  Range range;
  range.min = limit;
  return range;
}
inline Range between(double low, double high) {  // both ends included
  Range range;
  range.min = low;
  range.max = high;
  return range;
}

inline LawParameter required(std::string name, Range range, std::string meaning) {
  return {.name = std::move(name), .required = true, .range = std::move(range), .meaning = std::move(meaning)};
}
inline LawParameter optional(std::string name, double defaultValue, Range range, std::string meaning) {
  return {.name = std::move(name), .defaultValue = defaultValue, .range = std::move(range),
          .meaning = std::move(meaning)};
}
// A required vector written "x y z"; ranges do not apply to vectors.
inline LawParameter requiredVector(std::string name, std::string meaning) {
  return {.name = std::move(name), .size = 3, .required = true, .meaning = std::move(meaning)};
}

}  // namespace lodestone::law_parameters
