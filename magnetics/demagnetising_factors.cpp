// Demagnetising factors in closed form: Aharoni's prism, the cylinder's elliptic-integral form.
#include "magnetics/demagnetising_factors.h"

#include <cmath>
#include <numbers>

#include <boost/math/special_functions/ellint_rd.hpp>

namespace lodestone {
namespace {

// Aharoni's Eq. 1: π·N along c for the prism 2a × 2b × 2c.
double prismFactorAlongC(double a, double b, double c) {
  const double a2 = a * a, b2 = b * b, c2 = c * c;
  const double abc = a * b * c;
  const double r = std::sqrt(a2 + b2 + c2);
  const double ab = std::sqrt(a2 + b2), bc = std::sqrt(b2 + c2), ac = std::sqrt(a2 + c2);
  // ln((q − p)/(q + p)) for q > p ≥ 0 with q² − p² known as a sum of squares: q − p = (q² − p²)/(q + p) keeps its
  // digits where q ≈ p (a long or thin prism), where the difference taken literally would not.
  const auto logRatio = [](double q, double p, double qSquaredMinusPSquared) {
    return std::log(qSquaredMinusPSquared / ((q + p) * (q + p)));
  };
  double sum = (b2 - c2) / (2 * b * c) * logRatio(r, a, b2 + c2) + (a2 - c2) / (2 * a * c) * logRatio(r, b, a2 + c2) -
               b / (2 * c) * logRatio(ab, a, b2) - a / (2 * c) * logRatio(ab, b, a2) +
               c / (2 * a) * logRatio(bc, b, c2) + c / (2 * b) * logRatio(ac, a, c2);
  sum += 2 * std::atan(a * b / (c * r));
  sum += (a2 * a + b2 * b - 2 * c2 * c) / (3 * abc) + (a2 + b2 - 2 * c2) / (3 * abc) * r + c / (a * b) * (ac + bc);
  sum -= (ab * ab * ab + bc * bc * bc + ac * ac * ac) / (3 * abc);
  return sum / std::numbers::pi;
}

}  // namespace

Vector3 sphereDemagnetisingFactors() { return Vector3::Constant(1.0 / 3.0); }

Vector3 ellipsoidDemagnetisingFactors(const Vector3& semiAxes) {
  const double a2 = semiAxes.x() * semiAxes.x(), b2 = semiAxes.y() * semiAxes.y(), c2 = semiAxes.z() * semiAxes.z();
  const double third = semiAxes.prod() / 3;
  using boost::math::ellint_rd;
  return {third * ellint_rd(b2, c2, a2), third * ellint_rd(c2, a2, b2), third * ellint_rd(a2, b2, c2)};
}

Vector3 prismDemagnetisingFactors(const Vector3& halfExtents) {
  const double a = halfExtents.x(), b = halfExtents.y(), c = halfExtents.z();
  return {prismFactorAlongC(b, c, a), prismFactorAlongC(c, a, b), prismFactorAlongC(a, b, c)};
}

Vector3 cylinderDemagnetisingFactors(double radius, double halfLength) {
  const double tau = halfLength / radius, tau2 = tau * tau;
  const double k = 1 / std::sqrt(1 + tau2);
  const double bracket = 1 - std::sqrt(1 + tau2) * ((1 - tau2) * std::comp_ellint_2(k) + tau2 * std::comp_ellint_1(k));
  const double axial = 1 + 4 / (3 * std::numbers::pi * tau) * bracket;
  const double transverse = (1 - axial) / 2;
  return {transverse, transverse, axial};
}

}  // namespace lodestone
