// Reference_String: attributes and checks, and the refusal of strings computed by STRING_READ.
#include "reference_string.h"

#include "solver/core/excerpt.h"

namespace lodestone {

namespace {
using S = ReferenceStringSpec;
}  // namespace

const ElementSchema<ReferenceStringSpec>& referenceStringSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
        .element = "Reference_String",
        .idField = &S::id,
        .attributes = {
            attr::text("label", &S::label),
            attr::text("string", &S::string),
            attr::presentation<S>("full_label"),
        }};
    addSubroutineRows(made.attributes, &S::subroutine);
    return made;
  }();
  return schema;
}

void checkReferenceString(const ReferenceStringSpec& spec, Diagnostics& diagnostics) {
  if (spec.subroutine.named()) {
    if (spec.string) diagnostics.warning(spec.loc, "string is ignored: a STRING_READ subroutine gives the text");
    checkSubroutineAttributes(spec.subroutine, "STRING_READ", spec.loc, diagnostics);
    return;
  }
  if (!spec.string) {
    diagnostics.error(spec.loc, "needs string, the text it holds, or usrsub_dll_name naming the library whose "
                                "STRING_READ computes it");
    return;
  }
  warnUnusedSubroutineAttributes(spec.subroutine, "string gives the text", spec.loc, diagnostics);
}

void checkStringSubroutines(const std::vector<ReferenceStringSpec>& specs, Diagnostics& diagnostics) {
  for (const ReferenceStringSpec& spec : specs) {
    if (!spec.subroutine.named()) continue;
    const std::optional<UserSubroutine> routine = loadSubroutine(spec.subroutine, "STRING_READ", spec.loc, diagnostics);
    // Not found: said by reportMissingLibraries, once for the library.
    if (!routine || (!routine->isPython() && !routine->address)) continue;
    reportNeededAtRun(spec.loc, "the text of " + routine->describe() + " is not available: Lodestone does not call "
                                "STRING_READ subroutines yet; give the text with string=\"...\"",
                      diagnostics);
  }
}

}  // namespace lodestone
