// Force_Vector_TwoBody (Adams GFORCE, VFORCE, VTORQUE) and Force_Vector_OneBody: a force and a torque given by
// their components in a reference marker's axes, each an expression, or all from a VFOSUB, VTOSUB or GFOSUB user
// subroutine. The deck elements, their checks, and their law.
//
//   Force_Vector_TwoBody: the force acts on I's body at I's origin, the torque on I's body; the reaction, equal and
//     opposite, acts on the body of j_floating_marker_id at the point where I's origin is (Adams moves the floating
//     marker to keep it on I, so only its body matters).
//   Force_Vector_OneBody: the same on the body of marker_id; the reaction goes to ground.
// Components are resolved in the axes of ref_marker_id (ground when it is 0 or left out, ours for a missing
// attribute). type="ForceOnly" takes fx/fy/fz_expression, "TorqueOnly" tx/ty/tz_expression, "ForceAndTorque" all
// six; a component left out is 0 (ours).
#pragma once

#include <array>
#include <optional>
#include <string>

#include "elements/force_law.h"
#include "plugins/element_subroutine.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

// One struct for both elements: a one-body element has no floating marker.
struct ForceVectorSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;
  long i_marker_id = 0;                    // marker_id of Force_Vector_OneBody
  std::optional<long> j_floating_marker_id;  // Force_Vector_TwoBody only
  long ref_marker_id = 0;
  // fx, fy, fz, tx, ty, tz
  std::array<std::optional<std::string>, 6> components;
  // VFOSUB (ForceOnly), VTOSUB (TorqueOnly) or GFOSUB (ForceAndTorque): usrsub_dll_name or script_name instead of
  // the components.
  SubroutineAttributeValues subroutine;
  bool active = true;  // false after <Deactivate element_type="GFORCE"> (or VFORCE, VTORQUE, FORCE)
};

const ElementSchema<ForceVectorSpec>& forceVectorTwoBodySchema();
const ElementSchema<ForceVectorSpec>& forceVectorOneBodySchema();
// Components that do not belong to the type are errors; each expression compiles (errors point at its column).
void checkForceVector(const ForceVectorSpec& spec, Diagnostics& diagnostics);

struct VectorForce {
  long iMarker = 0;
  long refMarker = 0;
  bool reacts = false;  // a two-body element: the reaction acts on the floating marker's body
  std::array<std::optional<Expression>, 6> components;  // fx…tz; nothing is 0
  std::optional<ElementSubroutine> subroutine;          // in place of the components
  size_t firstComponent = 0;                            // where its results go: 0 (fx…) or 3 (tx…, VTOSUB)
};

std::optional<VectorForce> buildVectorForce(const ForceVectorSpec& spec, const Model& model,
                                            ForceConnection& connection, Diagnostics& diagnostics);

// `state` answers a subroutine's utilities (needed when the force has one); `differencing`: its dflag.
ElementAction vectorForceAction(const VectorForce& force, const ExpressionContext& context,
                                const SubroutineState* state = nullptr, bool differencing = false);

}  // namespace lodestone
