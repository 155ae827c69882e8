// EXPRESSION (Simscape's "Provided by Input", Adams' function-driven contact): a normal and a friction law whose force
// is an expression of the deck. The descriptors say only which expressions each takes; the element compiles them and
// evaluates them at each contact point (elements/contact_laws.cpp), as the formula of a built-in law is evaluated.
#include "builtin_laws.h"

namespace lodestone {
namespace {

// An expression may begin and end with any value, a jump included (c·DELTA_DOT at an onset): taken as one, so that
// IDAS restarts at every onset and separation rather than carry its history across a jump it was not told of.
int expressionSmoothnessAt(LawValues, ContactChange) { return 0; }

}  // namespace

const NormalLaw& expressionNormalLaw() {
  static const NormalLaw law{
      .keyword = "EXPRESSION",
      .summary = "the force is normal_force_expression at each contact point (of DELTA, DELTA_DOT, TIME…), never "
                 "pulling",
      .parameters = {},
      .expressions = {{.name = "normal_force_expression",
                       .meaning = "normal force of a patch, force; reads DELTA (δ), DELTA_DOT (δ̇), TIME; clipped "
                                  "at 0"}},
      .smoothnessAt = expressionSmoothnessAt,
  };
  return law;
}

const FrictionLaw& expressionFrictionLaw() {
  static const FrictionLaw law{
      .keyword = "EXPRESSION",
      .summary = "the friction force's components along the contact frame's tangents t1, t2 are expressions",
      .parameters = {},
      .expressions = {{.name = "friction_force_expression_t1",
                       .meaning = "friction force on I along t1, force; reads SLIP_T1, SLIP_T2, NORMAL_FORCE, DELTA, "
                                  "DELTA_DOT, TIME"},
                      {.name = "friction_force_expression_t2",
                       .meaning = "friction force on I along t2 = n × t1, force; reads the same"}},
  };
  return law;
}

}  // namespace lodestone
