// Force_Scalar_OneBody: a force or torque of given magnitude (val, val_expression or an SFOSUB user subroutine) on
// the body of one marker, directed by another marker's z axis, with no reaction. The deck element and its checks;
// its law is Force_Scalar_TwoBody's action-only law (elements/force_scalar_two_body), shared, not copied.
//
//   type="FORCE": along the z axis of ref_marker_id, on marker_id's body at marker_id's origin.
//   type="TORQUE": about the z axis of ref_marker_id by the right-hand rule, on marker_id's body.
// ref_marker_id 0 or left out: ground's z axis (ours). MotionSolve's reference page for this element was not
// available; the attribute names follow Force_Vector_OneBody's (marker_id, ref_marker_id) and the magnitude's
// Force_Scalar_TwoBody's. SFORCE(id, …) in expressions reads Force_Scalar_TwoBody elements only.
#pragma once

#include <optional>

#include "elements/force_scalar_two_body.h"

namespace lodestone {

// The spec is Force_Scalar_TwoBody's: marker_id is its i_marker_id, ref_marker_id its j_marker_id, and it is
// always action-only (forceScalarOneBodyAsActionOnly).
const ElementSchema<ForceScalarTwoBodySpec>& forceScalarOneBodySchema();
void checkForceScalarOneBody(const ForceScalarTwoBodySpec& spec, Diagnostics& diagnostics);

// The element on a built model; nothing when it has errors (reported). Its connection has no J side.
std::optional<ScalarForce> buildScalarForceOneBody(const ForceScalarTwoBodySpec& spec, const Model& model,
                                                   ForceConnection& connection, Diagnostics& diagnostics);

}  // namespace lodestone
