// Reference_String: a text by id (a file name, a role, a mode) that user subroutines and vendor elements read.
// Kept in the model's data (elements/reference_spline.h, DataModel); no expression reads strings. A text computed by a
// STRING_READ subroutine (usrsub_dll_name or script_name) is read, so that MotionSolve decks read, and refused by
// `run` (a warning under `check`), naming its library.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plugins/element_subroutine.h"
#include "solver/core/diagnostics.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ReferenceStringSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::optional<std::string> string;
  SubroutineAttributeValues subroutine;  // STRING_READ
};

const ElementSchema<ReferenceStringSpec>& referenceStringSchema();
// The text must be given (string=…), or a STRING_READ subroutine named.
void checkReferenceString(const ReferenceStringSpec& spec, Diagnostics& diagnostics);
// The STRING_READ subroutines the strings name, looked up (a library that is not found is said once with every element
// that needs it: reportMissingLibraries); one that is found is refused by `run`: Lodestone does not call STRING_READ.
void checkStringSubroutines(const std::vector<ReferenceStringSpec>& specs, Diagnostics& diagnostics);

struct ReferenceString {
  long id = 0;
  SourceLoc loc;
  std::string text;
};

}  // namespace lodestone
