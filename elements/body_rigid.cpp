// Body_Rigid: attributes, checks, inertia handling, and the kinematic and Newton–Euler residuals.
#include "body_rigid.h"

#include "elements/body_point.h"

namespace lodestone {

using S = BodyRigidSpec;

const ElementSchema<BodyRigidSpec>& bodyRigidSchema() {
  static const std::string kVelocityMarkerNote =
      "initial velocities are read along the global axes; give v_ic_* and w_ic_* in ground";
  static const ElementSchema<S> schema{
      .element = "Body_Rigid",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::presentation<S>("full_label"),
          attr::boolean("isground", &S::isground).byDefault(false),
          attr::real("mass", &S::mass).atLeast(0).modifiable(),
          attr::real("inertia_xx", &S::inertia_xx).atLeast(0).byDefault(0.0).modifiable(),
          attr::real("inertia_yy", &S::inertia_yy).atLeast(0).byDefault(0.0).modifiable(),
          attr::real("inertia_zz", &S::inertia_zz).atLeast(0).byDefault(0.0).modifiable(),
          attr::real("inertia_xy", &S::inertia_xy).byDefault(0.0).modifiable(),
          attr::real("inertia_yz", &S::inertia_yz).byDefault(0.0).modifiable(),
          attr::real("inertia_xz", &S::inertia_xz).byDefault(0.0).modifiable(),
          attr::reference("cg_id", &S::cg_id, "Reference_Marker"),
          attr::reference("im_id", &S::im_id, "Reference_Marker"),
          attr::reference("lprf_id", &S::lprf_id, "Reference_Marker"),
          attr::real("v_ic_x", &S::v_ic_x).byDefault(0.0),
          attr::real("v_ic_y", &S::v_ic_y).byDefault(0.0),
          attr::real("v_ic_z", &S::v_ic_z).byDefault(0.0),
          attr::real("w_ic_x", &S::w_ic_x).byDefault(0.0),
          attr::real("w_ic_y", &S::w_ic_y).byDefault(0.0),
          attr::real("w_ic_z", &S::w_ic_z).byDefault(0.0),
          attr::boolean("v_ic_x_flag", &S::v_ic_x_flag).byDefault(true),
          attr::boolean("v_ic_y_flag", &S::v_ic_y_flag).byDefault(true),
          attr::boolean("v_ic_z_flag", &S::v_ic_z_flag).byDefault(true),
          attr::boolean("w_ic_x_flag", &S::w_ic_x_flag).byDefault(true),
          attr::boolean("w_ic_y_flag", &S::w_ic_y_flag).byDefault(true),
          attr::boolean("w_ic_z_flag", &S::w_ic_z_flag).byDefault(true),
          attr::unsupported<S>("vm_id", kVelocityMarkerNote),
          attr::unsupported<S>("wm_id", kVelocityMarkerNote),
          attr::ignored<S>("is_wet_body", "fluid coupling is not modelled"),
          attr::ignored<S>("cp_inp_id", "fluid coupling is not modelled"),
      }};
  return schema;
}

void checkBodyRigid(const BodyRigidSpec& spec, Diagnostics& diagnostics) {
  if (spec.isground) {
    if (spec.mass && *spec.mass > 0) diagnostics.warning(spec.loc, "mass of a ground body is ignored");
    return;
  }
  if (!spec.mass || *spec.mass <= 0) {
    diagnostics.error(spec.loc, "a moving body needs mass > 0 (massless bodies need joints, which this version does not "
                                "support); or set isground=\"TRUE\"");
  }
  if (!spec.cg_id) diagnostics.error(spec.loc, "a moving body needs cg_id, the marker at its centre of mass");
  const bool allExact = spec.v_ic_x_flag && spec.v_ic_y_flag && spec.v_ic_z_flag && spec.w_ic_x_flag &&
                        spec.w_ic_y_flag && spec.w_ic_z_flag;
  if (!allExact) {
    diagnostics.warning(spec.loc, "v_ic_*_flag/w_ic_*_flag=FALSE have no effect: without joints there is no "
                                  "initial-condition solve, so every initial velocity is kept as given");
  }
}

BodyKinematics bodyKinematics(const double* state) {
  using namespace body_state;
  BodyKinematics k;
  k.position = Eigen::Map<const Vector3>(state + kPosition);
  k.rotation = rotationFromEulerParameters(Eigen::Map<const Vector4>(state + kEulerParameters));
  k.velocity = Eigen::Map<const Vector3>(state + kVelocity);
  k.angularVelocity = k.rotation * Eigen::Map<const Vector3>(state + kAngularVelocity);
  return k;
}

void addAccelerations(const double* stateDerivative, BodyKinematics& kinematics) {
  using namespace body_state;
  kinematics.acceleration = Eigen::Map<const Vector3>(stateDerivative + kVelocity);
  kinematics.angularAcceleration = kinematics.rotation * Eigen::Map<const Vector3>(stateDerivative + kAngularVelocity);
}

Matrix3 inertiaTensor(const BodyRigidSpec& spec) {
  Matrix3 inertia;
  inertia << spec.inertia_xx, -spec.inertia_xy, -spec.inertia_xz,
             -spec.inertia_xy, spec.inertia_yy, -spec.inertia_yz,
             -spec.inertia_xz, -spec.inertia_yz, spec.inertia_zz;
  return inertia;
}

Matrix3 inertiaAboutCg(const Matrix3& inertiaAtIm, const Matrix3& imAxes, const Vector3& imOrigin, double mass,
                       const Vector3& cg, const Matrix3& bodyAxes) {
  const Matrix3 groundAtIm = imAxes * inertiaAtIm * imAxes.transpose();
  // Parallel axis theorem, from the IM origin back to the CG.
  const Vector3 d = imOrigin - cg;
  const Matrix3 groundAtCg = groundAtIm - mass * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
  return bodyAxes.transpose() * groundAtCg * bodyAxes;
}

namespace {

using namespace body_state;

Vector3 vec3(const double* v) { return {v[0], v[1], v[2]}; }
Vector4 vec4(const double* v) { return {v[0], v[1], v[2], v[3]}; }

}  // namespace

void bodyResidual(const RigidBody& body, double massFactor, const double* y, const double* yp, const BodyLoad& load,
                  double* residual) {
  bodyResidual(body, massFactor, rotationFromEulerParameters(vec4(y + kEulerParameters)), y, yp, load, residual);
}

void bodyResidual(const RigidBody& body, double massFactor, const Matrix3& rotation, const double* y,
                  const double* yp, const BodyLoad& load, double* residual) {
  const Vector4 e = vec4(y + kEulerParameters);
  const Vector3 omega = vec3(y + kAngularVelocity);
  const Matrix3 inertia = massFactor * body.inertia;

  Eigen::Map<Vector3>(residual + kPosition) = vec3(yp + kPosition) - vec3(y + kVelocity);
  Eigen::Map<Vector4>(residual + kEulerParameters) = vec4(yp + kEulerParameters) - 0.5 * eulerParameterRateMatrix(e) * omega;
  Eigen::Map<Vector3>(residual + kVelocity) = massFactor * body.mass * vec3(yp + kVelocity) - load.force;
  if (body.point) return pointBodyTurnResidual(body, massFactor, yp, residual);
  Eigen::Map<Vector3>(residual + kAngularVelocity) =
      inertia * vec3(yp + kAngularVelocity) + omega.cross(inertia * omega) - rotation.transpose() * load.torque;
}

void bodyJacobian(const RigidBody& body, double massFactor, const double* y, double cj, const BodyLoad& load,
                  BodyBlock& block) {
  const Vector4 e = vec4(y + kEulerParameters);
  const Vector3 omega = vec3(y + kAngularVelocity);
  const Matrix3 inertia = massFactor * body.inertia;
  block.setZero();

  // p' − v
  block.block<3, 3>(kPosition, kPosition) = cj * Matrix3::Identity();
  block.block<3, 3>(kPosition, kVelocity) = -Matrix3::Identity();

  // e' − ½ Q(e) ω, where Q(e) ω = W(ω) e
  Eigen::Matrix4d w;
  w << 0, -omega.x(), -omega.y(), -omega.z(),
       omega.x(), 0, omega.z(), -omega.y(),
       omega.y(), -omega.z(), 0, omega.x(),
       omega.z(), omega.y(), -omega.x(), 0;
  block.block<4, 4>(kEulerParameters, kEulerParameters) = cj * Eigen::Matrix4d::Identity() - 0.5 * w;
  block.block<4, 3>(kEulerParameters, kAngularVelocity) = -0.5 * eulerParameterRateMatrix(e);

  // M v' − f
  block.block<3, 3>(kVelocity, kVelocity) = cj * massFactor * body.mass * Matrix3::Identity();

  if (body.point) return pointBodyTurnJacobian(body, massFactor, cj, block);
  // J ω' + ω × Jω − Rᵀ(e) τ
  block.block<3, 3>(kAngularVelocity, kAngularVelocity) = cj * inertia + skew(omega) * inertia - skew(inertia * omega);
  if (!load.torque.isZero()) {
    // Rᵀτ = (e0² − ε·ε) τ + 2 ε (ε·τ) − 2 e0 ε × τ for unit e; R uses e/|e|, hence the projection (I − e eᵀ).
    const Vector4 unit = e.normalized();
    const double e0 = unit(0);
    const Vector3 eps = unit.tail<3>();
    const Vector3& tau = load.torque;
    Eigen::Matrix<double, 3, 4> d;
    d.col(0) = 2 * e0 * tau - 2 * eps.cross(tau);
    d.rightCols<3>() = -2 * tau * eps.transpose() + 2 * eps.dot(tau) * Matrix3::Identity() + 2 * eps * tau.transpose() +
                       2 * e0 * skew(tau);
    const Eigen::Matrix4d projection = (Eigen::Matrix4d::Identity() - unit * unit.transpose()) / e.norm();
    block.block<3, 4>(kAngularVelocity, kEulerParameters) = -d * projection;
  }
}

void addBodyRateProduct(const RigidBody& body, double massFactor, double scale, const double* v, double* out) {
  for (int k = kPosition; k < kVelocity; ++k) out[k] += scale * v[k];  // positions and Euler parameters
  Eigen::Map<Vector3>(out + kVelocity) += (scale * massFactor * body.mass) * Eigen::Map<const Vector3>(v + kVelocity);
  if (body.point) {
    Eigen::Map<Vector3>(out + kAngularVelocity) +=
        (scale * pointTurnRowScale(body, massFactor)) * Eigen::Map<const Vector3>(v + kAngularVelocity);
    return;
  }
  Eigen::Map<Vector3>(out + kAngularVelocity) +=
      (scale * massFactor) * (body.inertia * Eigen::Map<const Vector3>(v + kAngularVelocity));
}

void bodyInitialState(const RigidBody& body, double* y) {
  Eigen::Map<Vector3>(y + kPosition) = body.position;
  Eigen::Map<Vector4>(y + kEulerParameters) = body.eulerParameters;
  Eigen::Map<Vector3>(y + kVelocity) = body.velocity;
  Eigen::Map<Vector3>(y + kAngularVelocity) =
      rotationFromEulerParameters(body.eulerParameters).transpose() * body.angularVelocity;
}

KineticEnergy bodyKineticEnergy(const RigidBody& body, double massFactor, const double* state) {
  const Eigen::Map<const Vector3> velocity(state + kVelocity);
  const Eigen::Map<const Vector3> angularVelocity(state + kAngularVelocity);
  return {0.5 * massFactor * body.mass * velocity.squaredNorm(),
          0.5 * massFactor * angularVelocity.dot(body.inertia * angularVelocity)};
}

MarkerMotion markerMotion(const Marker& marker, const BodyKinematics* body) {
  MarkerMotion motion;
  if (!body) {
    motion.position = marker.position;
    motion.rotation = marker.orientation;
    return motion;
  }
  motion.position = body->position + body->rotation * marker.position;
  motion.rotation = body->rotation * marker.orientation;
  motion.velocity = body->velocityAt(motion.position);
  motion.angularVelocity = body->angularVelocity;
  motion.acceleration = body->accelerationAt(motion.position);
  motion.angularAcceleration = body->angularAcceleration;
  return motion;
}

}  // namespace lodestone
