// Force_Bushing: attributes and the bushing's force and torque.
#include "force_bushing.h"

#include "solver/expr/expression.h"

namespace lodestone {

using S = ForceBushingSpec;

const ElementSchema<ForceBushingSpec>& forceBushingSchema() {
  // Coefficients are not negative (MotionSolve: "all stiffness values must be non-negative"); preloads are any sign.
  const auto coefficient = [](const char* name, double S::*field) {
    return attr::real(name, field).atLeast(0).byDefault(0.0).modifiable();
  };
  const auto preload = [](const char* name, double S::*field) {
    return attr::real(name, field).byDefault(0.0).modifiable();
  };
  static const ElementSchema<S> schema{
      .element = "Force_Bushing",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::reference("i_marker_id", &S::i_marker_id, "Reference_Marker").required().modifiable(),
          attr::reference("j_marker_id", &S::j_marker_id, "Reference_Marker").required().modifiable(),
          coefficient("kx", &S::kx), coefficient("ky", &S::ky), coefficient("kz", &S::kz),
          coefficient("ktx", &S::ktx), coefficient("kty", &S::kty), coefficient("ktz", &S::ktz),
          coefficient("cx", &S::cx), coefficient("cy", &S::cy), coefficient("cz", &S::cz),
          coefficient("ctx", &S::ctx), coefficient("cty", &S::cty), coefficient("ctz", &S::ctz),
          preload("preload_x", &S::preload_x), preload("preload_y", &S::preload_y),
          preload("preload_z", &S::preload_z), preload("preload_tx", &S::preload_tx),
          preload("preload_ty", &S::preload_ty), preload("preload_tz", &S::preload_tz),
          attr::presentation<S>("full_label"),
      },
      // Adams' BUSHING statement gives each as three values in one (K=kx,ky,kz).
      .foreignNames = {
          {"k", "Adams' BUSHING K", "'kx', 'ky' and 'kz'"},
          {"c", "Adams' BUSHING C", "'cx', 'cy' and 'cz'"},
          {"kt", "Adams' BUSHING KT", "'ktx', 'kty' and 'ktz'"},
          {"ct", "Adams' BUSHING CT", "'ctx', 'cty' and 'ctz'"},
          {"force", "Adams' BUSHING FORCE", "'preload_x', 'preload_y' and 'preload_z'"},
          {"torque", "Adams' BUSHING TORQUE", "'preload_tx', 'preload_ty' and 'preload_tz'"},
      }};
  return schema;
}

void checkForceBushing(const ForceBushingSpec& spec, Diagnostics& diagnostics) {
  for (const double S::*field : {&S::kx, &S::ky, &S::kz, &S::ktx, &S::kty, &S::ktz, &S::cx, &S::cy, &S::cz, &S::ctx,
                                 &S::cty, &S::ctz, &S::preload_x, &S::preload_y, &S::preload_z, &S::preload_tx,
                                 &S::preload_ty, &S::preload_tz}) {
    if (spec.*field != 0) return;
  }
  diagnostics.warning(spec.loc, "every stiffness, damping and preload is 0: the element exerts no force or torque");
}

Bushing buildBushing(const ForceBushingSpec& spec, const Model& model, ForceConnection& connection) {
  connection.markerI = spec.i_marker_id;
  connection.markerJ = spec.j_marker_id;
  connection.bodyI = bodyOfMarker(model, spec.i_marker_id, connection);
  connection.bodyJ = bodyOfMarker(model, spec.j_marker_id, connection);
  return Bushing{.iMarker = spec.i_marker_id,
                 .jMarker = spec.j_marker_id,
                 .stiffness = {spec.kx, spec.ky, spec.kz},
                 .damping = {spec.cx, spec.cy, spec.cz},
                 .preload = {spec.preload_x, spec.preload_y, spec.preload_z},
                 .torsionalStiffness = {spec.ktx, spec.kty, spec.ktz},
                 .torsionalDamping = {spec.ctx, spec.cty, spec.ctz},
                 .torquePreload = {spec.preload_tx, spec.preload_ty, spec.preload_tz}};
}

ElementAction bushingAction(const Bushing& bushing, const ExpressionContext& context) {
  const RelativeDeflection deflection = relativeDeflection(context.marker(static_cast<int>(bushing.iMarker)),
                                                           context.marker(static_cast<int>(bushing.jMarker)));
  const Vector3 displacement = deflection.displacement.head<3>(), rotation = deflection.displacement.tail<3>();
  const Vector3 velocity = deflection.rate.head<3>(), angularVelocity = deflection.rate.tail<3>();
  Vector6 load;
  load.head<3>() = -bushing.stiffness.cwiseProduct(displacement) - bushing.damping.cwiseProduct(velocity) +
                   bushing.preload;
  load.tail<3>() = -bushing.torsionalStiffness.cwiseProduct(rotation) -
                   bushing.torsionalDamping.cwiseProduct(angularVelocity) + bushing.torquePreload;
  ElementAction action = deflectionLoadAction(deflection, load);
  // Translation: F·v is exactly the rate of ½d·K·d − preload·d, v being d's rate in J's axes. Rotation: a's rate is
  // w only to first order, so for large turns the torque is not quite the gradient of ½a·Kt·a − preload·a.
  action.strain = 0.5 * displacement.dot(bushing.stiffness.cwiseProduct(displacement)) -
                  bushing.preload.dot(displacement) +
                  0.5 * rotation.dot(bushing.torsionalStiffness.cwiseProduct(rotation)) -
                  bushing.torquePreload.dot(rotation);
  action.dashpotPower = velocity.dot(bushing.damping.cwiseProduct(velocity)) +
                        angularVelocity.dot(bushing.torsionalDamping.cwiseProduct(angularVelocity));
  return action;
}

}  // namespace lodestone
