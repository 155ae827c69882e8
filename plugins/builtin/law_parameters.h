// Short constructors for the rows of a law's parameter table, so each law file reads like its table in the brief.
#pragma once

#include <string>
#include <utility>

#include "plugins/contact_law.h"
#include "solver/core/text.h"

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

// A parameter a pair may inherit from its pieces' Contact_Surface properties when the deck leaves it out (PFC).
inline LawParameter inherited(LawParameter parameter, Inheritance how, std::string surfaceProperty) {
  parameter.required = false;
  parameter.inheritance = how;
  parameter.surfaceProperty = std::move(surfaceProperty);
  return parameter;
}

// Findings friction laws share. A law with a stiction peak (μs) that falls to sliding friction (μd) surely meant
// μs ≥ μd: the other way round friction grows as the contact breaks loose (values swapped, most often).
inline void warnDynamicAboveStatic(double muStatic, double muDynamic, LawFindings& findings) {
  if (muDynamic > muStatic) {
    findings.warnings.push_back("mu_dynamic (" + formatReal(muDynamic) + ") is above mu_static (" +
                                formatReal(muStatic) + "): friction would grow as the contact starts to slide instead "
                                "of falling from its stiction peak; were the two swapped?");
  }
}
// Coefficients all 0 give no friction at all, which cff_type="COULOMB_OFF" says plainly (and costs nothing).
inline void warnNoFriction(bool allZero, const std::string& coefficients, LawFindings& findings) {
  if (allZero) {
    findings.warnings.push_back(coefficients + " 0: the law gives no friction; cff_type=\"COULOMB_OFF\" says so");
  }
}

}  // namespace lodestone::law_parameters
