// The ellipsoid's field: the ellipsoidal coordinate of the point by Newton's method, then three Carlson integrals.
#include "magnetics/ellipsoid_field.h"

#include <algorithm>
#include <cmath>

#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/ellint_rd.hpp>

namespace lodestone {
namespace {

// Carlson's R_D in double precision: Boost's default promotes to long double, which costs six times as much here (a
// field evaluation took 1.5 µs, now 0.26) for digits the field does not need: it still agrees with the charged surface
// integrated numerically within 9e-16 (tests/unit/magnetics_ellipsoid_field_test.cpp).
double carlsonRD(double x, double y, double z) {
  using namespace boost::math::policies;
  return boost::math::ellint_rd(x, y, z, policy<promote_double<false>>());
}

// λ ≥ 0, the largest root of F(s) = Σ x_i²/(a_i² + s) = 1, for a point outside (F(0) > 1). Newton's method on
// G(s) = 1/F(s) rather than on F: G is concave and increasing (a parallel sum of the lines (a_i² + s)/x_i²), so from
// a point left of the root its steps never overshoot, and it is nearly straight (exactly, when one term dominates,
// as beside a thin ellipsoid's long side), so that a few steps reach round-off where Newton on F took up to twenty.
double ellipsoidalCoordinate(const Vector3& squaredAxes, const Vector3& squaredPoint) {
  // F(s) ≥ x_i²/(a_i² + s) for each i: a start left of the root, and near it when one coordinate dominates.
  double s = std::max(0.0, (squaredPoint - squaredAxes).maxCoeff());
  for (int iteration = 0; iteration < 100; ++iteration) {
    const Vector3 shifted = squaredAxes.array() + s;
    const double sum = squaredPoint.cwiseQuotient(shifted).sum();
    if (sum <= 1) break;  // at the root, to round-off
    const double slope = squaredPoint.cwiseQuotient(shifted.cwiseProduct(shifted)).sum();  // −F'(s)
    const double step = (sum - 1) * sum / slope;  // (1 − G)/G' with G' = −F'/F²
    s += step;
    if (step <= 1e-16 * (s + squaredAxes.minCoeff())) break;
  }
  return s;
}

}  // namespace

Vector3 ellipsoidField(const Ellipsoid& ellipsoid, const Vector3& point) {
  const Vector3 squaredAxes = ellipsoid.semiAxes.cwiseProduct(ellipsoid.semiAxes);
  const Vector3 squaredPoint = point.cwiseProduct(point);
  const bool inside = squaredPoint.cwiseQuotient(squaredAxes).sum() < 1;
  const double lambda = inside ? 0 : ellipsoidalCoordinate(squaredAxes, squaredPoint);
  const Vector3 shifted = squaredAxes.array() + lambda;
  const double third = ellipsoid.semiAxes.prod() / 3;
  const Vector3 integrals(carlsonRD(shifted.y(), shifted.z(), shifted.x()),
                          carlsonRD(shifted.z(), shifted.x(), shifted.y()),
                          carlsonRD(shifted.x(), shifted.y(), shifted.z()));
  Vector3 field = -third * ellipsoid.magnetisation.cwiseProduct(integrals);
  if (inside) return field;
  // ∂λ/∂x_i = 2·(x_i/(a_i² + λ)) / Σ_k x_k²/(a_k² + λ)², along the normal of the confocal ellipsoid through the point.
  const Vector3 gradientDirection = point.cwiseQuotient(shifted);
  const Vector3 normal = gradientDirection.normalized();
  const double root = std::sqrt(shifted.x()) * std::sqrt(shifted.y()) * std::sqrt(shifted.z());
  return field + 3 * third * normal.dot(ellipsoid.magnetisation) / root * normal;
}

}  // namespace lodestone
