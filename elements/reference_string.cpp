// Reference_String: attributes and checks.
#include "reference_string.h"

namespace lodestone {

namespace {
using S = ReferenceStringSpec;
const char* const kNoStringSubroutine =
    "strings computed by a user subroutine are not available yet; give the text with string=\"…\"";
}  // namespace

const ElementSchema<ReferenceStringSpec>& referenceStringSchema() {
  static const ElementSchema<S> schema{
      .element = "Reference_String",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::text("string", &S::string),
          attr::presentation<S>("full_label"),
          attr::unsupported<S>("usrsub_dll_name", kNoStringSubroutine),
          attr::unsupported<S>("usrsub_fnc_name", kNoStringSubroutine),
          attr::unsupported<S>("usrsub_param_string", kNoStringSubroutine),
          attr::unsupported<S>("script_name", kNoStringSubroutine),
          attr::unsupported<S>("interpreter", kNoStringSubroutine),
      }};
  return schema;
}

void checkReferenceString(const ReferenceStringSpec& spec, Diagnostics& diagnostics) {
  // Naming usrsub_dll_name lets the reader drop this where that attribute was refused already (one cause, said once).
  if (!spec.string) {
    diagnostics.error(spec.loc, "needs string, the text it holds (a text computed by a user subroutine, "
                                "usrsub_dll_name, is not available yet)");
  }
}

}  // namespace lodestone
