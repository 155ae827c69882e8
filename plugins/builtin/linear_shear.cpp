// LINEAR_SHEAR (PFC's linear contact model, its shear part): a shear spring ks with a Coulomb slip limit fric·Fn and
// a shear dashpot. The spring's force is state kept per contact point and advanced once per accepted step, so a
// contact at rest sticks exactly, with no creep: within a step its force is the accepted one less ks times the slip
// over the step, which the step's Newton iteration solves for with the rest of the motion.
#include <cmath>

#include "builtin_laws.h"
#include "law_parameters.h"
#include "solver/core/text.h"

namespace lodestone {
namespace {

enum Slot { kShearStiffness, kFriction, kDampingRatio, kDashpotMode };  // the order of the table below

// Each point keeps, at the last accepted step: its spring's force (ground), whether it slipped, its slip velocity
// (ground), from which the slip over the step is integrated, and the energy its spring held.
enum State { kForceX, kForceY, kForceZ, kSlipping, kSlipX, kSlipY, kSlipZ, kEnergy, kStateSize };

// A vector kept at the last accepted step, turned into the current tangent plane: its normal part taken off, its
// magnitude kept (the contact plane may have turned since).
Vector3 intoPlane(const double* stored, const Vector3& normal) {
  Vector3 vector(stored[0], stored[1], stored[2]);
  const double magnitude = vector.norm();
  vector -= vector.dot(normal) * normal;
  const double inPlane = vector.norm();
  return inPlane > 0 ? Vector3(vector * (magnitude / inPlane)) : Vector3::Zero();
}

void checkLinearShear(LawValues values, LawFindings& findings) {
  const double mode = values[kDashpotMode];
  if (!std::isnan(mode) && mode != std::floor(mode)) {
    findings.errors.push_back("dp_mode (" + formatReal(mode) + ") must be one of 0, 1, 2, 3");
  }
  law_parameters::warnNoFriction(values[kFriction] == 0, "fric is", findings);
}

// PFC's update of the linear model's shear force, at one point that carries `share` of the patch (stiffness and
// damping share·ks and share·c, so the patch's points in parallel make ks and c):
//   F* = F_s (last accepted step, turned into the current tangent plane) − share·ks·Δδ_s;
//   |F*| ≤ fric·Fn: F_s = F* (stick), else F_s = fric·Fn·F*/|F*| (slip);
//   dashpot −2·dp_sratio·sqrt(m_c·ks)·share·v, which dp_mode 2 and 3 cut while slipping (PFC's "slip-cut shear").
// The slip increment Δδ_s is the mean of the slip velocities at the last accepted step and now times the time
// between (the trapezoidal rule; PFC takes the mid-step velocity of its explicit scheme). With the velocity now
// alone (the backward Euler rule) a sticking spring would lose ½·ks·(v·h)² at every step h: a numerical damper of
// ks·h/2, 8 % of critical for a 1 kg body on ks = 1e5 at h = 1e-3.
void linearShearForce(LawValues values, const FrictionInput& input, const double* state, double* advanced,
                      FrictionOutput& output) {
  const double stiffness = input.share * values[kShearStiffness];
  const Vector3& n = input.normal;
  output.slippedBefore = state[kSlipping] != 0 ? 1 : 0;  // read before `advanced`, which may be `state`
  Vector3 spring = intoPlane(state + kForceX, n);
  spring -= stiffness * input.elapsed * 0.5 * (intoPlane(state + kSlipX, n) + input.slip);
  const double limit = values[kFriction] * std::fabs(input.normalForce);
  const double trial = spring.norm();
  const bool slipping = trial > limit;
  output.slipsNow = slipping ? 1 : 0;
  if (slipping) spring *= trial > 0 ? limit / trial : 0.0;
  const bool dashpotActs = !(slipping && values[kDashpotMode] >= 2);
  const double damping =
      dashpotActs ? 2 * values[kDampingRatio] * std::sqrt(input.effectiveMass * values[kShearStiffness]) * input.share
                  : 0.0;
  output.force = spring - damping * input.slip;
  // Held ½|F_s|²/k, and how fast it changes: over the step so far, from the energy held at the last accepted step
  // (the energy balance takes the powers once per step, at its end). That rate sees what −F_s·v alone does not: a
  // slipping spring whose limit falls with Fn (a rocking block's lifting edge) gives up its energy to slip. At the
  // instant of a step itself (no time elapsed) it is −F_s·v sticking, 0 slipping.
  output.strain = stiffness > 0 ? 0.5 * spring.squaredNorm() / stiffness : 0.0;
  if (input.elapsed > 0) output.strainRate = (output.strain - state[kEnergy]) / input.elapsed;
  else output.strainRate = slipping ? 0.0 : -spring.dot(input.slip);
  output.dashpotPower = damping * input.slip.squaredNorm();
  if (advanced) {
    advanced[kForceX] = spring.x();
    advanced[kForceY] = spring.y();
    advanced[kForceZ] = spring.z();
    advanced[kSlipping] = slipping ? 1 : 0;
    advanced[kSlipX] = input.slip.x();
    advanced[kSlipY] = input.slip.y();
    advanced[kSlipZ] = input.slip.z();
    advanced[kEnergy] = output.strain;
  }
}

}  // namespace

const FrictionLaw& linearShearLaw() {
  using namespace law_parameters;
  static const FrictionLaw law{
      .keyword = "LINEAR_SHEAR",
      .summary = "PFC linear model's shear part: a shear spring ks with slip limit fric·Fn and a shear dashpot; "
                 "sticks without creep",
      .parameters = {
          inherited(optional("ks", 0, above(0),
                             "shear stiffness ks of the contact patch, force/length; or DIPOLE's emod and kratio, or "
                             "inherited (Contact_Surface ks)"),
                    Inheritance::Series, "ks"),
          inherited(required("fric", atLeast(0),
                             "friction coefficient: the spring slips at fric·Fn, dimensionless; or inherited "
                             "(Contact_Surface fric)"),
                    Inheritance::Minimum, "fric"),
          optional("dp_sratio", 0, between(0, 1),
                   "shear critical damping ratio: dashpot 2·dp_sratio·sqrt(m·ks), m the effective mass, "
                   "dimensionless"),
          optional("dp_mode", 0, between(0, 3),
                   "dashpot mode (PFC): 0 and 1 the shear dashpot always acts, 2 and 3 not while slipping; 1 and 3 "
                   "also make DIPOLE's normal dashpot no-tension"),
      },
      .check = checkLinearShear,
      .stateSize = kStateSize,
      .stateful = linearShearForce,
      .activationEvents = true,
  };
  return law;
}

}  // namespace lodestone
