// Force_SpringDamper: attributes, checks and the spring-damper force or torque.
#include "force_spring_damper.h"

#include <cmath>
#include <numbers>

#include "solver/core/marker_measures.h"
#include "solver/core/text.h"
#include "solver/expr/expression.h"

namespace lodestone {

using S = ForceSpringDamperSpec;

const ElementSchema<ForceSpringDamperSpec>& forceSpringDamperSchema() {
  static const ElementSchema<S> schema{
      .element = "Force_SpringDamper",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::keyword("type", &S::type, {"TRANSLATIONAL", "ROTATIONAL"})
              .required()
              .hint("TRANSLATION and ROTATION are the Python API's words; the XML element writes TRANSLATIONAL and "
                    "ROTATIONAL"),
          attr::reference("i_marker_id", &S::i_marker_id, "Reference_Marker").required().modifiable(),
          attr::reference("j_marker_id", &S::j_marker_id, "Reference_Marker").required().modifiable(),
          attr::real("stiffness", &S::stiffness).atLeast(0).byDefault(0.0).modifiable(),
          attr::real("damping", &S::damping).atLeast(0).byDefault(0.0).modifiable(),
          attr::real("length", &S::length).byDefault(0.0).modifiable(),
          attr::real("preload", &S::preload).byDefault(0.0).modifiable(),
          attr::presentation<S>("full_label"),
      },
      // Adams' SPRINGDAMPER statement (and MotionSolve's Python API, in lower case) names them so.
      .foreignNames = {
          {"k", "Adams' SPRINGDAMPER K", "'stiffness'"},
          {"c", "Adams' SPRINGDAMPER C", "'damping'"},
          {"kt", "Adams' SPRINGDAMPER KT", "'stiffness' (with type=\"ROTATIONAL\")"},
          {"ct", "Adams' SPRINGDAMPER CT", "'damping' (with type=\"ROTATIONAL\")"},
          {"force", "Adams' SPRINGDAMPER FORCE", "'preload'"},
          {"torque", "Adams' SPRINGDAMPER TORQUE", "'preload' (with type=\"ROTATIONAL\")"},
          {"angle", "Adams' SPRINGDAMPER ANGLE", "'length' (with type=\"ROTATIONAL\", in radians)"},
      }};
  return schema;
}

namespace {

void checkFreeLength(const ForceSpringDamperSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "TRANSLATIONAL" && spec.length < 0) {
    diagnostics.error(spec.loc, "length is the spring's free length and must be >= 0 for type=\"TRANSLATIONAL\" (got " +
                                    formatReal(spec.length) + ")");
  }
}

}  // namespace

void checkForceSpringDamper(const ForceSpringDamperSpec& spec, Diagnostics& diagnostics) {
  checkFreeLength(spec, diagnostics);
  // Most often the stiffness went into an attribute the element does not have (k="20", ignored with a warning).
  if (spec.stiffness == 0 && spec.damping == 0 && spec.preload == 0) {
    diagnostics.warning(spec.loc, "stiffness, damping and preload are all 0: the element exerts no force or torque");
  }
}

std::optional<SpringDamper> buildSpringDamper(const ForceSpringDamperSpec& spec, const Model& model,
                                              ForceConnection& connection, Diagnostics& diagnostics) {
  const int errorsBefore = diagnostics.errorCount();
  checkFreeLength(spec, diagnostics);  // again: a command may have changed length
  if (diagnostics.errorCount() != errorsBefore) return std::nullopt;
  connection.markerI = spec.i_marker_id;
  connection.markerJ = spec.j_marker_id;
  connection.bodyI = bodyOfMarker(model, spec.i_marker_id, connection);
  connection.bodyJ = bodyOfMarker(model, spec.j_marker_id, connection);
  return SpringDamper{.rotational = spec.type == "ROTATIONAL",
                      .iMarker = spec.i_marker_id,
                      .jMarker = spec.j_marker_id,
                      .stiffness = spec.stiffness,
                      .damping = spec.damping,
                      .length = spec.length,
                      .preload = spec.preload};
}

namespace {

// The elastic part −k(x − length) + preload is the gradient of ½k(x − length)² − preload·(x − length), zero at the
// free length; the damping dissipates c·ẋ².
void setSpringEnergy(const SpringDamper& spring, double extension, double rate, ElementAction& action) {
  const double stretch = extension - spring.length;
  action.strain = 0.5 * spring.stiffness * stretch * stretch - spring.preload * stretch;
  action.dashpotPower = spring.damping * rate * rate;
}

}  // namespace

ElementAction springDamperAction(const SpringDamper& spring, const ExpressionContext& context, double& angle) {
  const MarkerMotion i = context.marker(static_cast<int>(spring.iMarker));
  const MarkerMotion j = context.marker(static_cast<int>(spring.jMarker));
  ElementAction action;
  if (spring.rotational) {
    const Vector3 axis = j.rotation.col(2);
    const double principal = markerMeasure(MarkerMeasure::AZ, i, j, MarkerMotion{});
    constexpr double kTurn = 2 * std::numbers::pi;
    angle = std::isfinite(angle) ? principal + kTurn * std::round((angle - principal) / kTurn) : principal;
    const double rate = (i.angularVelocity - j.angularVelocity).dot(axis);
    const double torque = -spring.stiffness * (angle - spring.length) - spring.damping * rate + spring.preload;
    action.torque = torque * axis;
    action.reactionTorque = -action.torque;
    setSpringEnergy(spring, angle, rate, action);
    return action;
  }
  // With I on J's origin the line has no direction: the force is then NaN, and the run fails naming the element.
  const Vector3 separation = i.position - j.position;
  const double distance = separation.norm();
  const Vector3 direction = separation / distance;
  const double rate = direction.dot(i.velocity - j.velocity);
  const double force = -spring.stiffness * (distance - spring.length) - spring.damping * rate + spring.preload;
  action.force = force * direction;
  action.point = i.position;
  action.reactionForce = -action.force;
  action.reactionPoint = j.position;
  setSpringEnergy(spring, distance, rate, action);
  return action;
}

}  // namespace lodestone
