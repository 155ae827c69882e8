// DebugOutput: attributes.
#include "debug_output.h"

namespace lodestone {

const ElementSchema<DebugOutputSpec>& debugOutputSchema() {
  using S = DebugOutputSpec;
  static const ElementSchema<S> schema{
      .element = "DebugOutput",
      .attributes = {
          attr::boolean("switch_on", &S::switch_on).byDefault(true),
          attr::boolean("screen_output", &S::screen_output).byDefault(false),
          attr::ignored<S>("debug_anim", "animation frames of iterations are not written; debug.log has the trace"),
      }};
  return schema;
}

}  // namespace lodestone
