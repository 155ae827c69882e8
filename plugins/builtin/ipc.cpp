// IPC (Westhofen et al. 2024, §3.4, after Li et al.'s Incremental Potential Contact): the cubic barrier energy
// κ·(d̂ − d)³ of the gap d below the contact thickness d̂, acting before the surfaces touch; its force is −dE/dd.
#include "builtin_laws.h"
#include "law_parameters.h"

namespace lodestone {
namespace {

enum Slot { kStiffness, kThickness };  // the order of the table below

// The paper's p(d, d̂) = k(d̂ − d)³ is an energy (its E_contact = κ·Σ p sums it over the primitive pairs; k and κ are
// read as one stiffness, κ), so the force pushing the surfaces apart is −dE/dd = 3κ(d̂ − d)². The law has one formula
// for every signed gap: called with a penetration δ = −d, it is the barrier while apart (the field below hands it
// −gap) and the same cubic energy continued through d = 0 while the surfaces overlap, where the paper's optimiser
// never goes but an integrator may: the force at d = 0 is finite (3κd̂²), so it goes on growing, as 3κ(d̂ + δ)²,
// instead of jumping.
double ipcForce(LawValues values, const NormalInput& input) {
  const double reach = values[kThickness] + input.penetration;  // d̂ − d
  if (!(reach > 0)) return 0;
  return 3 * values[kStiffness] * reach * reach;
}

// While apart the barrier is a potential of the gap: the force on I is f·∂d/∂x_I (f = −dE/dd pushes along the gap's
// growth), J's its opposite, and each graphic turns by f·∂d/∂θ. Overlapping (gap ≤ 0), the contact points carry the
// same law (ipcForce on their patch), so the field stays out rather than count it twice.
void ipcField(LawValues values, const FieldInput& input, FieldOutput& output) {
  if (!(input.gap > 0)) return;
  NormalInput apart;
  apart.penetration = -input.gap;
  const double force = ipcForce(values, apart);
  if (force == 0) return;
  output.forceOnI = force * input.gapGradient.translationI;
  output.forceOnJ = -output.forceOnI;
  output.momentOnI = force * input.gapGradient.rotationI;
  output.momentOnJ = force * input.gapGradient.rotationJ;
}

double ipcFieldRange(LawValues values) { return values[kThickness]; }

// At d̂ the force starts from zero with zero slope (3κ(d̂ − d)²) while the pair is apart; where the surfaces touch, the
// force is continuous (the same polynomial on both sides) but moves from the gap's gradient to the contact patch's
// points, whose spread over a face the gradient does not have: only its value is promised there.
int ipcSmoothnessAt(LawValues, ContactChange) { return 1; }

}  // namespace

const NormalLaw& ipcLaw() {
  using namespace law_parameters;
  static const NormalLaw law{
      .keyword = "IPC",
      .summary = "cubic barrier of Westhofen et al. (IPC): energy κ·(d̂ − d)³ below the gap d̂, force 3κ·(d̂ − d)², "
                 "undamped",
      .parameters = {
          required("ipc_stiffness", above(0), "barrier stiffness κ of the energy κ·(d̂ − d)³, force per length²"),
          required("ipc_thickness", above(0), "contact thickness d̂: the gap below which the barrier acts, length"),
      },
      .force = ipcForce,
      .smoothnessAt = ipcSmoothnessAt,
      .fieldRange = ipcFieldRange,
      .field = ipcField,
      .needsGapGradient = true,
  };
  return law;
}

}  // namespace lodestone
