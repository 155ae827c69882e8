// Reference_Array: a list of numbers that ARYVAL(id, n) reads (IC arrays and arrays without a type), or the list of
// Reference_Variable ids a U array names, or the size of the X and Y arrays whose values a Control_StateEqn owns.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "solver/core/diagnostics.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ReferenceArraySpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::optional<std::string> type;  // X, U, Y or IC; absent: plain numbers, as IC
  std::optional<int> num_element;
  std::vector<double> values;  // from the text: the numbers (IC, plain) or the variable ids (U)
};

const ElementSchema<ReferenceArraySpec>& referenceArraySchema();
// Reads the text: num_element numbers for IC and plain arrays, num_element whole Reference_Variable ids for U
// arrays, nothing for X and Y arrays (their values are the states and outputs of a Control_StateEqn).
void completeReferenceArray(ReferenceArraySpec& spec, const std::string& elementText, Diagnostics& diagnostics);

struct ReferenceArray {
  long id = 0;
  SourceLoc loc;
  std::string type;  // "X", "U", "Y", "IC", or "" for plain numbers
  int size = 0;
  std::vector<double> values;
};

}  // namespace lodestone
