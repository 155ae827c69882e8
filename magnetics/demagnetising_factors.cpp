// Demagnetising factors in closed form: Aharoni's prism, the cylinder's elliptic-integral form.
#include "magnetics/demagnetising_factors.h"

#include <cmath>
#include <numbers>

#include <boost/math/special_functions/ellint_rd.hpp>

#include "magnetics/frustum_field.h"
#include "solver/core/quadrature.h"

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

Vector3 frustumDemagnetisingFactors(double bottomRadius, double topRadius, double height) {
  const Frustum frustum{bottomRadius, topRadius, 0, height, Vector3::UnitZ()};
  const double r0 = bottomRadius, r1 = topRadius;
  const double volume = std::numbers::pi / 3 * height * (r0 * r0 + r0 * r1 + r1 * r1);
  // u ↦ 3u² − 2u³ maps [0, 1] onto itself with a vanishing derivative at both ends: the field's logarithmic singularity
  // at a rim, at the end of both coordinates, is damped to u²·log u, which a Gauss–Legendre rule integrates well.
  // 48 points each way: 2304 field evaluations, about 2 ms; 32 points were within 7e-10 of the cylinder's, 48 within
  // 3e-11, and a cone's and a frustum's factors changed by 2e-12 and 2.3e-11 from 48 to 64.
  const GaussLegendreRule rule = gaussLegendreRule(48);
  double integral = 0;
  for (size_t i = 0; i < rule.nodes.size(); ++i) {
    const double u = 0.5 * (rule.nodes[i] + 1), zFraction = u * u * (3 - 2 * u);
    const double z = height * zFraction, dz = height * 6 * u * (1 - u) * 0.5 * rule.weights[i];
    const double radius = r0 + (r1 - r0) * zFraction;
    for (size_t j = 0; j < rule.nodes.size(); ++j) {
      const double v = 0.5 * (rule.nodes[j] + 1), q = v * v * (3 - 2 * v);
      const double dq = 6 * v * (1 - v) * 0.5 * rule.weights[j];
      const double field = frustumField(frustum, Vector3(q * radius, 0, z)).z();
      integral += field * 2 * std::numbers::pi * q * radius * radius * dq * dz;
    }
  }
  const double axial = -integral / volume;
  const double transverse = (1 - axial) / 2;
  return {transverse, transverse, axial};
}

}  // namespace lodestone
