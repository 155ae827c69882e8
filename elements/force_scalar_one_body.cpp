// Force_Scalar_OneBody: attributes, and the action-only Force_Scalar_TwoBody it is.
#include "force_scalar_one_body.h"

namespace lodestone {

using S = ForceScalarTwoBodySpec;

const ElementSchema<ForceScalarTwoBodySpec>& forceScalarOneBodySchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
      .element = "Force_Scalar_OneBody",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::keyword("type", &S::type, {"FORCE", "TORQUE"}).required(),
          attr::reference("marker_id", &S::i_marker_id, "Reference_Marker").required().modifiable(),
          attr::reference("ref_marker_id", &S::j_marker_id, "Reference_Marker").groundFrame().byDefault(0L)
              .modifiable(),
          attr::real("val", &S::val).modifiable(),
          attr::text("val_expression", &S::val_expression).modifiable(),
          attr::presentation<S>("full_label"),
      }};
    addSubroutineRows(made.attributes, &S::subroutine);
    return made;
  }();
  return schema;
}

namespace {

ForceScalarTwoBodySpec asActionOnly(const ForceScalarTwoBodySpec& spec) {
  ForceScalarTwoBodySpec actionOnly = spec;
  actionOnly.is_action_only = true;
  return actionOnly;
}

}  // namespace

void checkForceScalarOneBody(const ForceScalarTwoBodySpec& spec, Diagnostics& diagnostics) {
  checkForceScalarTwoBody(asActionOnly(spec), diagnostics);
}

std::optional<ScalarForce> buildScalarForceOneBody(const ForceScalarTwoBodySpec& spec, const Model& model,
                                                   ForceConnection& connection, Diagnostics& diagnostics) {
  std::optional<ScalarForce> force = buildScalarForce(asActionOnly(spec), model, connection, diagnostics);
  connection.markerJ = 0;  // no J side: MARKER_FORCE requests see it as the one-body element it is
  return force;
}

}  // namespace lodestone
