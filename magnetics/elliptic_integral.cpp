// Bulirsch's cel by Landen transformations (elliptic_integral.h).
#include "magnetics/elliptic_integral.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace lodestone {

double generalisedCompleteEllipticIntegral(double kc, double p, double c, double s) {
  // kc = 0 on a rim of a cylinder or a disc, where the integral diverges (and the means would never meet).
  if (kc == 0) return std::numeric_limits<double>::infinity();
  double geometric = std::fabs(kc), arithmetic = 1;
  // root is √p, after the transformation for p ≤ 0; numeratorC and numeratorS are c and s as the steps change them.
  double root, numeratorC = c, numeratorS = s;
  if (p > 0) {
    root = std::sqrt(p);
    numeratorS = s / root;
  } else {
    const double oneMinusP = 1 - p;
    root = std::sqrt((kc * kc - p) / oneMinusP);
    numeratorC = (c - s) / oneMinusP;
    numeratorS = -(1 - kc * kc) * (s - c * p) / (oneMinusP * oneMinusP * root) + numeratorC * root;
  }
  double product = geometric;  // geometric · arithmetic, of the current step's means
  for (;;) {
    const double previousC = numeratorC;
    numeratorC += numeratorS / root;
    const double ratio = product / root;
    numeratorS = 2 * (numeratorS + previousC * ratio);
    root += ratio;
    const double previousArithmetic = arithmetic;
    arithmetic += geometric;
    if (std::fabs(previousArithmetic - geometric) <= 1e-8 * previousArithmetic) break;
    geometric = 2 * std::sqrt(product);
    product = geometric * arithmetic;
  }
  return 0.5 * std::numbers::pi * (numeratorS + numeratorC * arithmetic) / (arithmetic * (arithmetic + root));
}

}  // namespace lodestone
