// VOLUME (MotionSolve): an elastic-foundation (layer) model whose force grows with the overlap area, for
// conforming contacts where a point spring would be far too soft or too stiff.
#include <algorithm>
#include <cmath>

#include "builtin_laws.h"
#include "law_parameters.h"

namespace lodestone {
namespace {

enum Slot { kModulusI, kModulusJ, kLayerDepthI, kLayerDepthJ, kExponent, kDamping };  // the table's order

double volumeForce(LawValues values, const NormalInput& input) {
  const double delta = input.penetration;
  if (delta <= 0) return 0;
  // Two elastic layers in series: each is a modulus over its depth (force per cubed length).
  const double layerI = values[kModulusI] / values[kLayerDepthI];
  const double layerJ = values[kModulusJ] / values[kLayerDepthJ];
  const double stiffness = layerI * layerJ / (layerI + layerJ);
  const double elastic = input.area * stiffness * penetrationPower(delta, values[kExponent]);
  // The damping term is not ramped in: it jumps by c·δ̇ at onset, as MotionSolve defines it.
  return std::max(0.0, elastic + values[kDamping] * input.penetrationRate);
}

// The damper jumps by c·δ̇ as contact begins; as it ends the force is 0 already, as LINEAR's is. The layers' force
// begins at least as smoothly as δ^exponent (the area grows from 0 with it).
int volumeSmoothnessAt(LawValues values, ContactChange change) {
  return dashpotSmoothness(values[kDamping] != 0, powerSmoothness(values[kExponent]), change);
}

}  // namespace

const NormalLaw& volumeLaw() {
  using namespace law_parameters;
  static const NormalLaw law{
      .keyword = "VOLUME",
      .summary = "MotionSolve VOLUME: elastic layers in series, A·K·δ^exponent over the overlap area A, plus damping",
      .parameters = {
          required("i_elastic_modulus", above(0), "elastic (P-wave) modulus of the I layer, force per area"),
          required("j_elastic_modulus", above(0), "elastic (P-wave) modulus of the J layer, force per area"),
          required("i_layer_depth", above(0), "depth of the I elastic layer, length"),
          required("j_layer_depth", above(0), "depth of the J elastic layer, length"),
          optional("exponent", 1, atLeast(1), "exponent of the penetration, dimensionless"),
          optional("damping", 0, atLeast(0), "damping coefficient c, force per velocity"),
      },
      .force = volumeForce,
      .smoothnessAt = volumeSmoothnessAt,
      .needsArea = true,
  };
  return law;
}

}  // namespace lodestone
