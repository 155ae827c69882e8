// Constraint equations of joints and their velocity Jacobians.
#include "joint_equations.h"

#include <cassert>
#include <cmath>

namespace lodestone {

namespace {

// A quantity measured on I's body: at I's origin it moves with v_I + ω_I × (p_I − cg_I).
// Φ = d·w with w fixed in ground: Φ̇ = (v_I + ω_I × r_I − v_J − ω_J × r_J)·w, r = p − cg.
void pointAlong(const Vector3& w, const JointFrames& f, EquationValue& out) {
  const Vector3 d = f.positionI - f.positionJ;
  out.value = d.dot(w);
  out.gI << w, (f.positionI - f.cgI).cross(w);
  out.gJ << -w, -(f.positionJ - f.cgJ).cross(w);
}

// Φ = d·w with w an axis of J: w turns with J, so J's row sees the point of J's body at p_I:
// Φ̇ = (v_I + ω_I × r_I − v_J − ω_J × r_J)·w + d·(ω_J × w) = … − ω_J·((p_I − cg_J) × w).
void pointAlongJointAxis(const Vector3& w, const JointFrames& f, EquationValue& out) {
  const Vector3 d = f.positionI - f.positionJ;
  out.value = d.dot(w);
  out.gI << w, (f.positionI - f.cgI).cross(w);
  out.gJ << -w, -(f.positionI - f.cgJ).cross(w);
}

// Φ = a·b, a an axis of I, b an axis of J: Φ̇ = (ω_I × a)·b + a·(ω_J × b) = (ω_I − ω_J)·(a × b).
void addAxesDot(const Vector3& a, const Vector3& b, EquationValue& out) {
  const Vector3 n = a.cross(b);
  out.value += a.dot(b);
  out.gI.tail<3>() += n;
  out.gJ.tail<3>() -= n;
}

// θ = atan2(s, c) with s = a_s·b_s and c = a_c·b_c, each a an axis of I and b of J: the angular rows of
// θ̇ = (c ṡ − s ċ)/(s² + c²).
struct AngleMeasure {
  double s, c;
  Vector3 ds, dc;  // (a × b) of each dot product: its rate is (ω_I − ω_J)·(a × b)
};

AngleMeasure screwAngle(const JointFrames& f) {
  // The rotation of x_I about z_J, measured from x_J (Adams' AZ).
  const Vector3 xI = f.axesI.col(0);
  return {xI.dot(f.axesJ.col(1)), xI.dot(f.axesJ.col(0)), xI.cross(f.axesJ.col(1)), xI.cross(f.axesJ.col(0))};
}

AngleMeasure pinionAngle(const JointFrames& f) {
  // The rotation of the pinion about z_I, measured from the rack's axis z_J: x_I·z_J = cos θ, −y_I·z_J = sin θ.
  const Vector3 zJ = f.axesJ.col(2);
  const Vector3 xI = f.axesI.col(0);
  const Vector3 yI = f.axesI.col(1);
  return {-yI.dot(zJ), xI.dot(zJ), -yI.cross(zJ), xI.cross(zJ)};
}

// The body-fixed 1-2-3 angles (b1, b2, b3) of I's axes from J's: R = J's axes' transpose times I's
// = Rx(b1)·Ry(b2)·Rz(b3), whose entries R_kl = (axis k of J)·(axis l of I) give b1 = atan2(−R_23, R_33),
// b3 = atan2(−R_12, R_11) and b2 = atan2(R_13, √(R_11² + R_12²)) (= asin R_13, within ±π/2). The second's cosine is
// not a product of axes: c = cos b2 = √(1 − s²) moves with s, ċ = −(s/c)·ṡ, so that θ̇ = ṡ/c.
AngleMeasure bodyFixedAngle(int angle, const JointFrames& f) {
  const auto axisI = [&](int k) { return Vector3(f.axesI.col(k)); };
  const auto axisJ = [&](int k) { return Vector3(f.axesJ.col(k)); };
  switch (angle) {
    case 0: return {-axisI(2).dot(axisJ(1)), axisI(2).dot(axisJ(2)), -axisI(2).cross(axisJ(1)),
                    axisI(2).cross(axisJ(2))};
    case 2: return {-axisI(1).dot(axisJ(0)), axisI(0).dot(axisJ(0)), -axisI(1).cross(axisJ(0)),
                    axisI(0).cross(axisJ(0))};
    default: {
      const double r11 = axisI(0).dot(axisJ(0)), r12 = axisI(1).dot(axisJ(0));
      const double sine = axisI(2).dot(axisJ(0)), cosine = std::hypot(r11, r12);
      const Vector3 ds = axisI(2).cross(axisJ(0));
      return {sine, cosine, ds, -(sine / cosine) * ds};
    }
  }
}

AngleMeasure measureAngle(const JointEquation& equation, const JointFrames& frames) {
  switch (equation.kind) {
    case JointEquationKind::RackPinion: return pinionAngle(frames);
    case JointEquationKind::BodyFixedAngle: return bodyFixedAngle(equation.axisI, frames);
    default: return screwAngle(frames);
  }
}

// θ̇'s angular rows for an angle measured by `m`: (c ṡ − s ċ)/(s² + c²).
Vector3 angleRate(const AngleMeasure& m) { return (m.c * m.ds - m.s * m.dc) / (m.s * m.s + m.c * m.c); }

// The value of atan2 nearest `referenceAngle`, whole turns added.
double unwrap(double raw, double referenceAngle) {
  return raw + 2 * M_PI * std::round((referenceAngle - raw) / (2 * M_PI));
}

// Φ = d·z_J − d0 − ratio·(θ − θ0).
void addCoupledTranslation(const JointEquation& equation, const JointFrames& f, double referenceAngle,
                           EquationValue& out) {
  pointAlongJointAxis(f.axesJ.col(2), f, out);
  const AngleMeasure m = measureAngle(equation, f);
  out.angle = unwrap(std::atan2(m.s, m.c), referenceAngle);
  const Vector3 rate = angleRate(m);
  out.value -= equation.offset + equation.ratio * (out.angle - equation.angleOffset);
  out.gI.tail<3>() -= equation.ratio * rate;
  out.gJ.tail<3>() += equation.ratio * rate;
}

}  // namespace

double jointEquationAngle(const JointEquation& equation, const JointFrames& frames) {
  const AngleMeasure m = measureAngle(equation, frames);
  return std::atan2(m.s, m.c);
}

EquationValue evaluateJointEquation(const JointEquation& equation, const JointFrames& frames, double referenceAngle) {
  EquationValue out;
  switch (equation.kind) {
    case JointEquationKind::Point:
      pointAlong(Vector3::Unit(equation.axisI), frames, out);
      break;
    case JointEquationKind::OnJointAxisLine:
      pointAlongJointAxis(frames.axesJ.col(equation.axisJ), frames, out);
      break;
    case JointEquationKind::AxesDot:
      addAxesDot(frames.axesI.col(equation.axisI), frames.axesJ.col(equation.axisJ), out);
      break;
    case JointEquationKind::ConstantVelocity:
      addAxesDot(frames.axesI.col(0), frames.axesJ.col(1), out);
      addAxesDot(frames.axesI.col(1), frames.axesJ.col(0), out);
      break;
    case JointEquationKind::Screw:
    case JointEquationKind::RackPinion:
      addCoupledTranslation(equation, frames, referenceAngle, out);
      break;
    case JointEquationKind::JointTranslation:
      pointAlongJointAxis(frames.axesJ.col(2), frames, out);
      break;
    case JointEquationKind::JointRotation:
    case JointEquationKind::BodyFixedAngle: {
      const AngleMeasure m = measureAngle(equation, frames);
      out.angle = unwrap(std::atan2(m.s, m.c), referenceAngle);
      out.value = out.angle;
      const Vector3 rate = angleRate(m);
      out.gI.tail<3>() = rate;
      out.gJ.tail<3>() = -rate;
      break;
    }
    case JointEquationKind::Coupler:
      // Spans several joints' frames: the constraint system sums its coordinates' measures (evaluated here as the
      // JointTranslation or JointRotation each one is) and never asks for the coupler's own.
      assert(!"a coupler's rows are summed by ConstraintSystem::evaluateJoint");
      break;
  }
  return out;
}

}  // namespace lodestone
