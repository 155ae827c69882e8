// The cylinder's B outside equals that of the ideal solenoid carrying the surface current K = M on its mantle; Derby &
// Olbert write it in cylindrical coordinates (ρ, z) as a difference of two terms, one per end, each a generalised
// complete elliptic integral. H = B/μ0 outside and B/μ0 − M inside.
#include "magnetics/cylinder_field.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace lodestone {
namespace {

// Bulirsch's cel(kc, p, c, s) = ∫₀^{π/2} (c cos²φ + s sin²φ) / ((cos²φ + p sin²φ) √(cos²φ + kc² sin²φ)) dφ, kc ≠ 0, by
// Landen transformations: an arithmetic–geometric mean of 1 and |kc| carried along with the numerator. The mean
// converges quadratically, so stopping when the two means agree to 1e-8 leaves an error of order 1e-16; a p ≤ 0 is
// first transformed to a positive one (Bulirsch 1969), which the cylinder needs on its mantle's extension (p = 0).
double generalisedCompleteEllipticIntegral(double kc, double p, double c, double s) {
  // kc = 0 on a rim of the cylinder, where the integral diverges (and the means would never meet).
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

}  // namespace

Vector3 cylinderField(const Cylinder& cylinder, const Vector3& point) {
  const double radius = cylinder.radius;
  const double rho = std::hypot(point.x(), point.y());
  // γ = (R − ρ)/(R + ρ) changes sign across the mantle's extension; the elliptic integrals stay continuous there.
  const double gamma = (radius - rho) / (radius + rho);
  double radialSum = 0, axialSum = 0;
  for (const double end : {1.0, -1.0}) {  // z± = z ± L: the term of the end disc at z = ∓L, with sign ±
    const double height = point.z() + end * cylinder.halfLength;
    const double farDistance = std::hypot(height, radius + rho), nearDistance = std::hypot(height, radius - rho);
    const double kc = nearDistance / farDistance;
    radialSum += end * radius / farDistance * generalisedCompleteEllipticIntegral(kc, 1, 1, -1);
    axialSum += end * height / farDistance * generalisedCompleteEllipticIntegral(kc, gamma * gamma, 1, gamma);
  }
  // Derby & Olbert's B0 = μ0·K/π with K = M; H = B/μ0.
  const double scale = cylinder.magnetisation / std::numbers::pi;
  const double radial = scale * radialSum;
  double axial = scale * radius / (radius + rho) * axialSum;
  if (rho < radius && std::fabs(point.z()) < cylinder.halfLength) axial -= cylinder.magnetisation;
  // On the axis the radial field vanishes by symmetry (and radialSum is 0 there: cel(1, 1, 1, −1) = 0).
  const Vector3 outward = rho > 0 ? Vector3(point.x() / rho, point.y() / rho, 0) : Vector3::Zero();
  return radial * outward + Vector3(0, 0, axial);
}

}  // namespace lodestone
