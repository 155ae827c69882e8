// DIPOLE (PFC's linear dipole contact model): its normal half — a no-tension linear spring (absolute or incremental)
// from a reference gap, with a dashpot given as a ratio of critical that may or may not pull — plus the magnetic force
// and moments between the dipoles the two graphics carry, active up to dipole_d apart. The shear half is
// LINEAR_SHEAR's, which reads the same dp_mode attribute.
#include "dipole.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "builtin_laws.h"
#include "magnetics/point_dipole.h"
#include "law_parameters.h"
#include "solver/core/text.h"

namespace lodestone {

DipoleInteraction magneticDipoleInteraction(const Vector3& m1, const Vector3& r1, const Vector3& m2,
                                            const Vector3& r2, double cap, double mu0) {
  const Vector3 separation = r2 - r1;
  const double distance = separation.norm();
  if (distance == 0) return {};
  // Below the cap the pair acts as it does at the cap, along the true direction: the formula of
  // magnetics/point_dipole.h at the capped offset, in the deck's units.
  const PointDipoleInteraction pair =
      pointDipoleInteraction(m1, m2, separation * (std::max(distance, cap) / distance));
  const double scale = mu0 / kVacuumPermeability;
  DipoleInteraction result;
  result.forceOn2 = scale * pair.forceOnSecond;
  result.forceOn1 = -result.forceOn2;
  result.momentOn1 = scale * pair.momentOnFirst;
  result.momentOn2 = scale * pair.momentOnSecond;
  return result;
}

double vacuumPermeability(const UnitSystem& units) {
  const double newtonsPerForceUnit = unitInSI(Dimension::Force, units.force).value_or(1.0);
  return 4e-7 * std::numbers::pi / newtonsPerForceUnit;
}

namespace {

// The order of the table below; each moment takes three slots.
enum Slot {
  kStiffness = 0,
  kDampingRatio = 1,
  kMoment1 = 2,
  kMoment2 = 5,
  kCap = 8,
  kActivityDistance = 9,
  kReferenceGap = 10,
  kDashpotMode = 11,
  kUpdateMode = 12,
  kModulus = 13,
  kStiffnessRatio = 14,
};

// lin_mode 1 (incremental) keeps, per contact point at the last accepted step: the linear spring's force, the surface
// overlap it was reached at, and whether the point was active (a point starting afresh has 0 there).
enum State { kLinearForce, kOverlap, kActive, kStateSize };

// PFC's dp_mode packs two halves: bit 0 is the normal dashpot's (1 and 3: no-tension), bit 1 the shear dashpot's
// (2 and 3: cut while slipping, LINEAR_SHEAR's).
bool noTensionDashpot(LawValues values) { return static_cast<int>(values[kDashpotMode]) % 2 == 1; }
bool incremental(LawValues values) { return values[kUpdateMode] == 1; }

// The linear dipole model's normal force at one point (PFC's linear model, in Lodestone's signs: compression > 0).
// The surface overlap is δ_s = δ + rgap, the penetration past the notional surfaces (PFC's surface gap g_s = −δ_s);
// the point acts while δ_s > 0 (PFC: g_s ≤ 0; at δ_s = 0 the spring is 0 either way, and the dashpot begins just
// after). The spring's force F_l is kn·δ_s (lin_mode 0, absolute) or, lin_mode 1, F_l + kn·Δδ_s from the force at
// the last accepted step, never below 0 (the spring takes no tension), starting at 0 when the point becomes active:
// a contact that begins overlapping (an initial overlap) starts unloaded. The dashpot c·δ̇, c = 2·dp_nratio·
// sqrt(m_eff·kn), adds to it: in full (dp_mode 0 and 2) the total may pull; no-tension (1 and 3) it may not:
// F = max(0, F_l + c·δ̇). `state` null: the law without history (absolute).
double dipoleNormalForce(LawValues values, const NormalInput& input, const double* state, double* advanced) {
  const double overlap = input.penetration + values[kReferenceGap];
  if (overlap <= 0) {
    // Inactive: between the piece surfaces and the notional ones (rgap < 0). A point that comes back starts afresh.
    if (advanced) std::fill(advanced, advanced + kStateSize, 0.0);
    return 0;
  }
  const double kn = values[kStiffness];
  double linear = kn * overlap;
  if (state && incremental(values)) {
    linear = state[kActive] != 0 ? std::max(0.0, state[kLinearForce] + kn * (overlap - state[kOverlap])) : 0.0;
  }
  if (advanced) {
    advanced[kLinearForce] = linear;
    advanced[kOverlap] = overlap;
    advanced[kActive] = 1;
  }
  const double mass = input.effectiveMass;
  // Damping needs a mass to be "a ratio of critical". Without one (0: not known) or with an infinite one (ground
  // against ground, which cannot move) the dashpot is left out rather than made 0 or ∞·0 = NaN.
  const double damping =
      mass > 0 && std::isfinite(mass) ? 2 * values[kDampingRatio] * std::sqrt(mass * kn) : 0.0;
  // Not ramped in: the dashpot jumps by c·δ̇ at onset, as the linear dipole model defines it.
  const double total = linear + damping * input.penetrationRate;
  return noTensionDashpot(values) ? std::max(0.0, total) : total;
}

double dipoleContactForce(LawValues values, const NormalInput& input) {
  return dipoleNormalForce(values, input, nullptr, nullptr);
}

int dipoleStateSize(LawValues values) { return incremental(values) ? kStateSize : 0; }

// The contact is LINEAR's spring and dashpot: the dashpot jumps by c·δ̇ as contact begins; at its end the no-tension
// dashpot has clipped the force to 0 already, while the full one still pulls by c·δ̇ and lets go at once. Without a
// dashpot the spring's rate jumps at both. With rgap < 0 nothing acts where the pieces touch, where onsets and
// separations are located: the force begins and ends deeper, at a kink no root locates.
int dipoleSmoothnessAt(LawValues values, ContactChange change) {
  if (values[kReferenceGap] < 0) return kSmoothForce;
  const bool damped = values[kDampingRatio] != 0;
  if (damped && !noTensionDashpot(values)) return 0;
  return dashpotSmoothness(damped, 1, change);
}

// A mode given as a fraction has no meaning; the ranges have refused values outside the modes already.
void checkWhole(double mode, const char* name, const char* modes, LawFindings& findings) {
  if (!std::isnan(mode) && mode != std::floor(mode)) {
    findings.errors.push_back(std::string(name) + " (" + formatReal(mode) + ") must be one of " + modes);
  }
}

// PFC's deformability method: with the effective modulus E* (emod), each pair's kn = A·E*/L, the pieces seen as a
// cylinder of radius r̄ and length L between their centres: ball–ball r̄ = min(R1, R2), L = R1 + R2; ball–facet
// r̄ = L = R of the ball (A = π·r̄²). The stiffness ratio κ* (kratio) then gives ks = kn/κ* to the friction law.
bool dipoleVariesByPair(LawValues values) { return values[kModulus] > 0; }

double dipoleValuesForPair(LawValues values, const PairPieces& pieces, std::span<double> pairValues) {
  const double ballI = pieces.ballRadiusI, ballJ = pieces.ballRadiusJ;
  double radius = 0, length = 0;
  if (ballI > 0 && ballJ > 0) {
    radius = std::min(ballI, ballJ);
    length = ballI + ballJ;
  } else {
    radius = length = std::max(ballI, ballJ);  // neither a ball: refused when the element is built
  }
  const double kn = length > 0 ? std::numbers::pi * radius * radius * values[kModulus] / length : 0.0;
  pairValues[kStiffness] = kn;
  return values[kStiffnessRatio] > 0 ? kn / values[kStiffnessRatio] : 0.0;
}

bool dipoleSetsShearStiffness(LawValues values) { return values[kModulus] > 0 && values[kStiffnessRatio] > 0; }

// Without magnetic moments the law is a plain spring and dashpot: a magnet whose moments were left out (or written
// under another name) is surely meant to be a magnet.
void checkDipole(LawValues values, LawFindings& findings) {
  const double kn = values[kStiffness], modulus = values[kModulus];
  // Neither given is for the element to judge: its pairs may inherit kn from their pieces (Contact_Surface).
  if (kn > 0 && modulus > 0) {
    findings.errors.push_back("kn and emod are both given: emod sets each pair's kn from the sizes of its pieces "
                              "(PFC's deformability method); give one of them");
  }
  if (values[kStiffnessRatio] > 0 && modulus == 0) {
    findings.errors.push_back("kratio sets ks = kn/kratio only with emod (PFC's deformability method); give emod, or "
                              "give the friction law's ks instead of kratio");
  }
  checkWhole(values[kDashpotMode], "dp_mode", "0, 1, 2, 3", findings);
  checkWhole(values[kUpdateMode], "lin_mode", "0 (absolute) or 1 (incremental)", findings);
  if (values[kReferenceGap] > 0) {
    findings.errors.push_back("rgap (" + formatReal(values[kReferenceGap]) + ") > 0 would make the contact act "
                              "before the surfaces touch, where Lodestone's narrow phase gives no contact points; "
                              "give rgap <= 0 (the spring acting from a penetration of -rgap), or grow the graphics");
  }
  for (int slot = kMoment1; slot < kMoment2 + 3; ++slot) {
    if (values[slot] != 0) return;
  }
  findings.warnings.push_back("dipole_mo1 and dipole_mo2 are both 0 0 0: the bodies carry no magnets, and DIPOLE acts "
                              "only as a spring and dashpot on contact; give the magnets' moments (dipole_mo1=\"0 0 1.5\" …) or use "
                              "a plain normal law such as LINEAR or IMPACT");
}

double dipoleFieldRange(LawValues values) { return values[kActivityDistance]; }

void dipoleField(LawValues values, const FieldInput& input, FieldOutput& output) {
  // Moments are given in each body's axes (the rotation of FieldInput's poses) and turn with it.
  const Vector3 moment1 = input.graphicI.rotation * Vector3(values[kMoment1], values[kMoment1 + 1], values[kMoment1 + 2]);
  const Vector3 moment2 = input.graphicJ.rotation * Vector3(values[kMoment2], values[kMoment2 + 1], values[kMoment2 + 2]);
  const DipoleInteraction interaction = magneticDipoleInteraction(
      moment1, input.graphicI.position, moment2, input.graphicJ.position, values[kCap], vacuumPermeability(input.units));
  output.forceOnI = interaction.forceOn1;
  output.forceOnJ = interaction.forceOn2;
  output.momentOnI = interaction.momentOn1;
  output.momentOnJ = interaction.momentOn2;
}

}  // namespace

const NormalLaw& dipoleLaw() {
  using namespace law_parameters;
  static const NormalLaw law{
      .keyword = "DIPOLE",
      .summary = "linear dipole model: no-tension spring kn with a dashpot, plus magnetic dipole force and moments",
      .parameters = {
          inherited(optional("kn", 0, above(0),
                             "normal spring stiffness, force per length; or emod, or inherited (Contact_Surface kn)"),
                    Inheritance::Series, "kn"),
          optional("dp_nratio", 0, atLeast(0), "dashpot damping as a ratio of critical damping, dimensionless"),
          inherited(requiredVector("dipole_mo1", "magnetic moment at each I graphic's centre, in its axes, "
                                                 "ampere·length²; or the I piece's Contact_Surface dipole_mo"),
                    Inheritance::FromI, "dipole_mo"),
          inherited(requiredVector("dipole_mo2", "magnetic moment at each J graphic's centre, in its axes, "
                                                 "ampere·length²; or the J piece's Contact_Surface dipole_mo"),
                    Inheritance::FromJ, "dipole_mo"),
          required("dipole_cap", above(0), "distance below which the magnetic force stops growing, length"),
          required("dipole_d", atLeast(0), "surface gap up to which the magnets interact, length"),
          optional("rgap", 0, Range{},
                   "reference gap (PFC): the spring acts from a penetration of -rgap; <= 0, length"),
          optional("dp_mode", 0, between(0, 3),
                   "dashpot mode (PFC): 0 and 2 full normal dashpot (the total may pull), 1 and 3 no-tension; 2 and "
                   "3 also cut LINEAR_SHEAR's shear dashpot while slipping"),
          optional("lin_mode", 0, between(0, 1),
                   "normal force update (PFC): 0 absolute kn*overlap, 1 incremental from 0 when the contact begins"),
          optional("emod", 0, atLeast(0),
                   "effective modulus (PFC's deformability): each pair's kn = pi*r^2*emod/L, instead of kn; "
                   "force/area"),
          optional("kratio", 0, atLeast(0),
                   "normal-to-shear stiffness ratio with emod: the friction law's ks = kn/kratio, dimensionless"),
      },
      .check = checkDipole,
      .force = dipoleContactForce,
      .stateSize = dipoleStateSize,
      .stateful = dipoleNormalForce,
      .smoothnessAt = dipoleSmoothnessAt,
      .fieldRange = dipoleFieldRange,
      .field = dipoleField,
      .activationEvents = true,
      .variesByPair = dipoleVariesByPair,
      .valuesForPair = dipoleValuesForPair,
      .setsShearStiffness = dipoleSetsShearStiffness,
  };
  return law;
}

}  // namespace lodestone
