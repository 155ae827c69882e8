// Force_Scalar_TwoBody (Adams SFORCE): a force or torque of given magnitude (a constant val, an expression
// val_expression, or an SFOSUB user subroutine) between markers I and J, in a direction the element type fixes.
// The deck element, its checks, and its law.
//
// Directions, as Adams defines SFORCE (MotionSolve's page defers to the same conventions):
//   type="FORCE", action-reaction: along the line from J's origin to I's origin, on I at I's origin; a positive
//     value pushes I away from J. The reaction, equal and opposite, acts on J at J's origin.
//   type="FORCE", is_action_only="TRUE": along the z axis of J, on I at I's origin; no reaction. (Adams SFORCE:
//     "if SFORCE defines an action-only force, I specifies the point of application, and the z-axis of J specifies
//     the direction of the force".)
//   type="TORQUE": about the z axis of J by the right-hand rule, on I; the reaction, equal and opposite, on J unless
//     action-only. (Adams asks that an action-reaction torque's I and J z axes be parallel; Lodestone uses J's.)
#pragma once

#include <optional>
#include <string>

#include "elements/force_law.h"
#include "plugins/element_subroutine.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct ForceScalarTwoBodySpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;
  long i_marker_id = 0, j_marker_id = 0;
  bool is_action_only = false;
  std::optional<double> val;
  std::optional<std::string> val_expression;
  SubroutineAttributeValues subroutine;  // SFOSUB: usrsub_dll_name or script_name instead of val / val_expression
  bool active = true;  // false after <Deactivate element_type="SFORCE"> (or "FORCE")
};

const ElementSchema<ForceScalarTwoBodySpec>& forceScalarTwoBodySchema();
// Exactly one of val, val_expression and a subroutine (usrsub_dll_name or script_name); the expression compiles
// (errors point at its column).
void checkForceScalarTwoBody(const ForceScalarTwoBodySpec& spec, Diagnostics& diagnostics);

struct ScalarForce {
  bool torque = false;
  bool actionOnly = false;
  long iMarker = 0, jMarker = 0;
  std::optional<Expression> value;  // val_expression; otherwise `constant`
  double constant = 0;
  std::optional<ElementSubroutine> subroutine;  // SFOSUB, in place of both
};

// The element on a built model; nothing when it has errors (reported).
std::optional<ScalarForce> buildScalarForce(const ForceScalarTwoBodySpec& spec, const Model& model,
                                            ForceConnection& connection, Diagnostics& diagnostics);

// `state` answers a subroutine's utilities (needed when the force has one); `differencing`: its dflag.
ElementAction scalarForceAction(const ScalarForce& force, const ExpressionContext& context,
                                const SubroutineState* state = nullptr, bool differencing = false);

}  // namespace lodestone
