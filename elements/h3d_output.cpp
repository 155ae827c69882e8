// H3DOutput: attributes.
#include "h3d_output.h"

namespace lodestone {

const ElementSchema<H3DOutputSpec>& h3dOutputSchema() {
  using S = H3DOutputSpec;
  static const ElementSchema<S> schema{
      .element = "H3DOutput",
      .attributes = {
          attr::boolean("switch_on", &S::switch_on).byDefault(true).modifiable(),
          attr::integer("increment", &S::increment).byDefault(1L).atLeast(1).modifiable(),
          attr::ignored<S>("format_option", "the animation is written as VTK XML files (animation.pvd)"),
          attr::ignored<S>("stress_option", "flexible bodies are not available, so there are no stresses to animate"),
          attr::ignored<S>("strain_option", "flexible bodies are not available, so there are no strains to animate"),
      }};
  return schema;
}

}  // namespace lodestone
