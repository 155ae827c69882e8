// SMOOTH_STICK_SLIP (ours, shaped after Simscape's documented curve): μ is 0 at rest, peaks at μs at the critical
// velocity and decays smoothly (Stribeck-like) to μd, with no kinks at all.
#include <cmath>

#include "builtin_laws.h"
#include "law_parameters.h"

namespace lodestone {
namespace {

enum Slot { kStatic, kDynamic, kCriticalVelocity };  // the order of the table below

double smoothStickSlipCoefficient(LawValues values, double slipSpeed) {
  // Speeds are magnitudes; a rounding-negative one must not give a negative μ.
  if (slipSpeed <= 0) return 0;
  const double x = slipSpeed / values[kCriticalVelocity];
  const double muStatic = values[kStatic], muDynamic = values[kDynamic];
  if (x <= 1) return muStatic * x * (2 - x);  // parabola with its peak μs at x = 1
  const double beyond = x - 1;
  return muDynamic + (muStatic - muDynamic) * std::exp(-beyond * beyond);
}

// μd above μs would make the curve dip after its "peak" at vc and climb back to μd.
void checkSmoothStickSlip(LawValues values, LawFindings& findings) {
  law_parameters::warnDynamicAboveStatic(values[kStatic], values[kDynamic], findings);
  law_parameters::warnNoFriction(values[kStatic] == 0 && values[kDynamic] == 0, "mu_static and mu_dynamic are both",
                                 findings);
}

}  // namespace

const FrictionLaw& smoothStickSlipLaw() {
  using namespace law_parameters;
  static const FrictionLaw law{
      .keyword = "SMOOTH_STICK_SLIP",
      .summary = "stick-slip friction shaped after Simscape: 0 at rest, peak μs at vc, decaying to μd",
      .parameters = {
          required("mu_static", atLeast(0), "peak (static) friction coefficient μs, dimensionless"),
          required("mu_dynamic", atLeast(0), "friction coefficient μd approached at high slip speed, dimensionless"),
          required("critical_velocity", above(0), "slip speed vc at which μ peaks at μs, velocity"),
      },
      .check = checkSmoothStickSlip,
      .coefficient = smoothStickSlipCoefficient,
  };
  return law;
}

}  // namespace lodestone
