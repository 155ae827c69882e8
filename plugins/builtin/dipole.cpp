// DIPOLE (linear dipole contact model): a no-tension linear spring with a critically-scaled dashpot on contact,
// plus the magnetic force and moments between the dipoles the two graphics carry, active up to dipole_d apart.
#include "dipole.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "builtin_laws.h"
#include "magnetics/point_dipole.h"
#include "law_parameters.h"

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
enum Slot { kStiffness = 0, kDampingRatio = 1, kMoment1 = 2, kMoment2 = 5, kCap = 8, kActivityDistance = 9 };

double dipoleContactForce(LawValues values, const NormalInput& input) {
  const double delta = input.penetration;
  if (delta <= 0) return 0;
  const double kn = values[kStiffness];
  const double mass = input.effectiveMass;
  // Damping needs a mass to be "a ratio of critical". Without one (0: not known) or with an infinite one (ground
  // against ground, which cannot move) the dashpot is left out rather than made 0 or ∞·0 = NaN.
  const double damping =
      mass > 0 && std::isfinite(mass) ? 2 * values[kDampingRatio] * std::sqrt(mass * kn) : 0.0;
  // Not ramped in: the dashpot jumps by c·δ̇ at onset, as the linear dipole model defines it.
  return std::max(0.0, kn * delta + damping * input.penetrationRate);
}

// The contact is LINEAR's spring and dashpot: the dashpot jumps by c·δ̇ as contact begins and has clipped the force to
// 0 before it ends; without it the spring's rate jumps at both. The magnets' field does not change at contact.
int dipoleSmoothnessAt(LawValues values, ContactChange change) {
  return dashpotSmoothness(values[kDampingRatio] != 0, 1, change);
}

// Without magnetic moments the law is a plain spring and dashpot: a magnet whose moments were left out (or written
// under another name) is surely meant to be a magnet.
void checkDipole(LawValues values, LawFindings& findings) {
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
          required("kn", above(0), "normal spring stiffness, force per length"),
          optional("dp_nratio", 0, atLeast(0), "dashpot damping as a ratio of critical damping, dimensionless"),
          requiredVector("dipole_mo1", "magnetic moment at each I graphic's centre, in its axes, ampere·length²"),
          requiredVector("dipole_mo2", "magnetic moment at each J graphic's centre, in its axes, ampere·length²"),
          required("dipole_cap", above(0), "distance below which the magnetic force stops growing, length"),
          required("dipole_d", atLeast(0), "surface gap up to which the magnets interact, length"),
      },
      .check = checkDipole,
      .force = dipoleContactForce,
      .smoothnessAt = dipoleSmoothnessAt,
      .fieldRange = dipoleFieldRange,
      .field = dipoleField,
  };
  return law;
}

}  // namespace lodestone
