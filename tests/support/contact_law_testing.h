// Builds a law's value slots from attribute names, as the deck reader will: defaults for what is absent, a test
// failure for unknown names or missing required ones. Placing values by name (slotOf), not by position, is what
// lets the hand-computed law tests also catch a law reading the wrong slot.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "plugins/contact_law.h"

namespace lodestone::testing {

struct NamedValue {
  std::string name;
  std::vector<double> value;  // one number, or three for a vector parameter
};

inline std::vector<double> lawValues(const std::vector<LawParameter>& parameters,
                                     std::initializer_list<NamedValue> given) {
  std::vector<double> slots(slotCount(parameters), 0.0);
  int slot = 0;
  for (const LawParameter& parameter : parameters) {
    for (int k = 0; k < parameter.size; ++k) slots[slot + k] = parameter.defaultValue;
    bool found = false;
    for (const NamedValue& value : given) found = found || value.name == parameter.name;
    if (parameter.required && !found) ADD_FAILURE() << "test gives no value for required '" << parameter.name << "'";
    slot += parameter.size;
  }
  for (const NamedValue& value : given) {
    const int at = slotOf(parameters, value.name);
    if (at < 0) {
      ADD_FAILURE() << "no parameter '" << value.name << "'";
      continue;
    }
    for (size_t k = 0; k < value.value.size(); ++k) slots[at + k] = value.value[k];
  }
  return slots;
}

inline double normalForce(const NormalLaw& law, const std::vector<double>& values, double penetration,
                          double penetrationRate, double area = 0, double effectiveMass = 0) {
  return law.force(values, NormalInput{.penetration = penetration, .penetrationRate = penetrationRate,
                                       .area = area, .effectiveMass = effectiveMass});
}

}  // namespace lodestone::testing
