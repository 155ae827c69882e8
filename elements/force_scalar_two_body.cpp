// Force_Scalar_TwoBody: attributes, checks and the force or torque it applies.
#include "force_scalar_two_body.h"

#include "elements/expression_context.h"
#include "elements/subroutine_state.h"

namespace lodestone {

using S = ForceScalarTwoBodySpec;

const ElementSchema<ForceScalarTwoBodySpec>& forceScalarTwoBodySchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
      .element = "Force_Scalar_TwoBody",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::keyword("type", &S::type, {"FORCE", "TORQUE"}).required(),
          attr::reference("i_marker_id", &S::i_marker_id, "Reference_Marker").required().modifiable(),
          attr::reference("j_marker_id", &S::j_marker_id, "Reference_Marker").required().modifiable(),
          attr::boolean("is_action_only", &S::is_action_only).byDefault(false).modifiable(),
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

// Both given can also come from a command that set one of them on an element written with the other.
bool valueGivenOnce(const S& spec, Diagnostics& diagnostics) {
  const int given = (spec.val ? 1 : 0) + (spec.val_expression ? 1 : 0) + (spec.subroutine.named() ? 1 : 0);
  if (given > 1) {
    diagnostics.error(spec.loc, spec.subroutine.named() ? "give one of val, val_expression and an SFOSUB subroutine "
                                                       "(usrsub_dll_name or script_name), not several"
                                                     : "give either val or val_expression, not both");
    return false;
  }
  if (given == 0) {
    diagnostics.error(spec.loc, "needs the magnitude: val (a number), val_expression (an expression) or an SFOSUB "
                                "subroutine (usrsub_dll_name, or script_name with interpreter=\"PYTHON\")");
    return false;
  }
  return true;
}

}  // namespace

void checkForceScalarTwoBody(const ForceScalarTwoBodySpec& spec, Diagnostics& diagnostics) {
  valueGivenOnce(spec, diagnostics);
  if (spec.subroutine.named()) checkSubroutineAttributes(spec.subroutine, "SFOSUB", spec.loc, diagnostics);
  else if (spec.subroutine.any()) warnUnusedSubroutineAttributes(spec.subroutine, "the magnitude is val or "
                                                                  "val_expression, not SFOSUB", spec.loc, diagnostics);
  if (spec.val_expression) compileAttribute("val_expression", *spec.val_expression, spec.loc, diagnostics);
}

std::optional<ScalarForce> buildScalarForce(const ForceScalarTwoBodySpec& spec, const Model& model,
                                            ForceConnection& connection, Diagnostics& diagnostics) {
  if (!valueGivenOnce(spec, diagnostics)) return std::nullopt;
  ScalarForce force{.torque = spec.type == "TORQUE",
                    .actionOnly = spec.is_action_only,
                    .iMarker = spec.i_marker_id,
                    .jMarker = spec.j_marker_id,
                    .constant = spec.val.value_or(0)};
  connection.markerI = spec.i_marker_id;
  connection.markerJ = spec.j_marker_id;
  connection.bodyI = bodyOfMarker(model, spec.i_marker_id, connection);
  const int bodyJ = bodyOfMarker(model, spec.j_marker_id, connection);  // J's axes direct an action-only force
  connection.bodyJ = spec.is_action_only ? -1 : bodyJ;
  if (spec.val_expression) {
    force.value =
        buildForceExpression("val_expression", *spec.val_expression, spec.loc, model, connection, diagnostics);
    if (!force.value) return std::nullopt;
  }
  if (spec.subroutine.named()) {
    force.subroutine = buildForceSubroutine(spec.subroutine, "SFOSUB", 1, "[value], the force or torque's magnitude",
                                            spec.loc, model, connection, diagnostics);
    if (!force.subroutine) return std::nullopt;
  }
  return force;
}

ElementAction scalarForceAction(const ScalarForce& force, const ExpressionContext& context,
                                const SubroutineState* state, bool differencing) {
  const double value = force.subroutine ? callElementSubroutine(*force.subroutine, *state, differencing)[0]
                       : force.value    ? force.value->evaluate(context)
                                        : force.constant;
  ElementAction action;
  if (value == 0) return action;  // even with I on J's origin, where a force has no direction
  const MarkerMotion i = context.marker(static_cast<int>(force.iMarker));
  const MarkerMotion j = context.marker(static_cast<int>(force.jMarker));
  const Vector3 jAxis = j.rotation.col(2);
  if (force.torque) {
    action.torque = value * jAxis;
    if (!force.actionOnly) action.reactionTorque = -action.torque;
    return action;
  }
  action.point = i.position;
  if (force.actionOnly) {
    action.force = value * jAxis;
    return action;
  }
  // With I on J's origin the line has no direction: a nonzero force is then NaN, and the run fails naming the
  // element.
  const Vector3 separation = i.position - j.position;
  action.force = value * separation / separation.norm();
  action.reactionForce = -action.force;
  action.reactionPoint = j.position;
  return action;
}

}  // namespace lodestone
