// Body_Point: attributes, checks, and the turning rows that keep a point mass from turning.
#include "body_point.h"

namespace lodestone {

using S = BodyPointSpec;

const ElementSchema<BodyPointSpec>& bodyPointSchema() {
  static const ElementSchema<S> schema{
      .element = "Body_Point",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::presentation<S>("full_label"),
          attr::reference("cg_id", &S::cg_id, "Reference_Marker"),
          attr::reference("lprf_id", &S::lprf_id, "Reference_Marker"),
          attr::real("mass", &S::mass).above(0).modifiable(),
          attr::real("v_ic_x", &S::v_ic_x).byDefault(0.0),
          attr::real("v_ic_y", &S::v_ic_y).byDefault(0.0),
          attr::real("v_ic_z", &S::v_ic_z).byDefault(0.0),
          attr::boolean("v_ic_x_flag", &S::v_ic_x_flag).byDefault(true),
          attr::boolean("v_ic_y_flag", &S::v_ic_y_flag).byDefault(true),
          attr::boolean("v_ic_z_flag", &S::v_ic_z_flag).byDefault(true),
      }};
  return schema;
}

void checkBodyPoint(const BodyPointSpec& spec, Diagnostics& diagnostics) {
  // The schema's range reports mass ≤ 0; only a missing mass is left to say.
  if (!spec.mass) diagnostics.error(spec.loc, "a point body needs mass > 0");
  if (!spec.cg_id) diagnostics.error(spec.loc, "a point body needs cg_id, the marker where the point is");
  if (!(spec.v_ic_x_flag && spec.v_ic_y_flag && spec.v_ic_z_flag)) {
    diagnostics.warning(spec.loc, "v_ic_*_flag=FALSE have no effect: the initial-condition solve keeps every given "
                                  "velocity that the joints allow, exact or not");
  }
}

void pointBodyTurnResidual(const RigidBody& body, double massFactor, const double* yp, double* residual) {
  using namespace body_state;
  Eigen::Map<Vector3>(residual + kAngularVelocity) =
      pointTurnRowScale(body, massFactor) * Eigen::Map<const Vector3>(yp + kAngularVelocity);
}

void pointBodyTurnJacobian(const RigidBody& body, double massFactor, double cj, BodyBlock& block) {
  using namespace body_state;
  block.middleRows<3>(kAngularVelocity).setZero();
  block.block<3, 3>(kAngularVelocity, kAngularVelocity) =
      cj * pointTurnRowScale(body, massFactor) * Matrix3::Identity();
}

}  // namespace lodestone
