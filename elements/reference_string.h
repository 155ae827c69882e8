// Reference_String: a text by id (a file name, a role, a mode) that user subroutines and vendor elements read.
// Kept in the model's data (elements/reference_spline.h, DataModel); no expression reads strings.
#pragma once

#include <optional>
#include <string>

#include "solver/core/diagnostics.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ReferenceStringSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::optional<std::string> string;
};

const ElementSchema<ReferenceStringSpec>& referenceStringSchema();
// The text must be given (string=…).
void checkReferenceString(const ReferenceStringSpec& spec, Diagnostics& diagnostics);

struct ReferenceString {
  long id = 0;
  SourceLoc loc;
  std::string text;
};

}  // namespace lodestone
