// The closed-form field of a uniformly magnetised ellipsoid (magnetics/ellipsoid_field.h), against references that do
// not share its formulas: the demagnetising factors inside, a sphere's dipole field, the charged surface integrated
// numerically, the far dipole, the jump conditions across the surface, Maxwell's equations.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "magnetics/demagnetising_factors.h"
#include "magnetics/ellipsoid_field.h"
#include "solver/core/quadrature.h"
#include "support/magnet_testing.h"

namespace lodestone {
namespace {

using namespace magnet_testing;

// Triaxial (semi-axes 10, 6 and 4 mm), magnetised obliquely so that every term of the field is in play; a prolate
// needle (30 mm long, 4 mm across) and an oblate disc.
const Ellipsoid kTriaxial{Vector3(0.01, 0.006, 0.004), Vector3(3e5, -5e5, 8e5)};
const Ellipsoid kNeedleEllipsoid{Vector3(0.002, 0.002, 0.015), Vector3(1e5, 0, 9e5)};
const Ellipsoid kOblate{Vector3(0.012, 0.012, 0.003), Vector3(6e5, 2e5, -7e5)};

double ellipsoidVolume(const Ellipsoid& ellipsoid) { return 4 * std::numbers::pi / 3 * ellipsoid.semiAxes.prod(); }

// The point at polar angle θ and azimuth φ of the ellipsoid's surface (x = a·sin θ·cos φ and so on), and its outward
// normal there.
Vector3 surfacePoint(const Ellipsoid& ellipsoid, double theta, double phi) {
  return ellipsoid.semiAxes.cwiseProduct(
      Vector3(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta)));
}
Vector3 surfaceNormal(const Ellipsoid& ellipsoid, const Vector3& onSurface) {
  return onSurface.cwiseQuotient(ellipsoid.semiAxes.cwiseProduct(ellipsoid.semiAxes)).normalized();
}

// Inside, H is uniform and −N·M with Osborn's factors (demagnetising_factors.h, a separate use of R_D): at the centre,
// near the surface and between, the same to 1e-12 of |M| (measured ≤ 1.4e-16: both are R_D at λ = 0, the field's in
// double precision, the factors' in extended).
TEST(MagnetEllipsoidField, InsideIsMinusTheDemagnetisingFactorsTimesM) {
  for (const Ellipsoid& ellipsoid : {kTriaxial, kNeedleEllipsoid, kOblate}) {
    const Vector3 expected = -ellipsoidDemagnetisingFactors(ellipsoid.semiAxes).cwiseProduct(ellipsoid.magnetisation);
    for (const Vector3& point : {Vector3::Zero().eval(), Vector3(0.999 * surfacePoint(ellipsoid, 0.3, 2.0)),
                                 Vector3(0.5 * surfacePoint(ellipsoid, 2.0, -1.0)),
                                 Vector3(0.9999999 * surfacePoint(ellipsoid, 0, 0))}) {
      SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
      EXPECT_LT((ellipsoidField(ellipsoid, point) - expected).norm(), 1e-12 * ellipsoid.magnetisation.norm());
    }
  }
}

// A sphere is an ellipsoid with equal semi-axes; outside, its field is exactly its dipole's. Measured within 2e-16 of
// the field at every point here, just outside, near and far: 1e-12 leaves room, a missing term of the λ-derivative is
// off by O(1).
TEST(MagnetEllipsoidField, ASphereShapedOneIsItsDipoleOutside) {
  const Ellipsoid sphere{Vector3::Constant(0.01), Vector3(2e5, -4e5, 7e5)};
  const Vector3 moment = ellipsoidVolume(sphere) * sphere.magnetisation;
  for (const double distance : {1.0 + 1e-12, 1.001, 1.3, 3.0, 47.0, 1e4}) {
    for (const Vector3& direction : {kSkewDirection, Vector3(1, 0, 0), Vector3(0, -0.6, 0.8)}) {
      const Vector3 point = distance * 0.01 * direction;
      SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
      EXPECT_LT(relativeError(ellipsoidField(sphere, point), dipoleField(moment, point)), 1e-12);
    }
  }
}

// H of the surface charge σ = M·n: (1/4π)∮ σ·(x − y)/|x − y|³ dS, dS·n the vector area element r_θ × r_φ, in θ by
// adaptive Gauss–Kronrod to 1e-13 and in φ (periodic and analytic) by the trapezoid rule of 400 points, which for
// points a fifth of the size or more from the surface has converged far below that. It is H inside too.
Vector3 chargedSurfaceField(const Ellipsoid& ellipsoid, const Vector3& point) {
  constexpr int kAzimuths = 400;
  const Vector3& axes = ellipsoid.semiAxes;
  Vector3 field;
  for (int component = 0; component < 3; ++component) {
    field[component] = integrate(
        [&](double theta) {
          double sum = 0;
          for (int k = 0; k < kAzimuths; ++k) {
            const double phi = 2 * std::numbers::pi * k / kAzimuths;
            const double s = std::sin(theta), c = std::cos(theta);
            const Vector3 alongTheta = axes.cwiseProduct(Vector3(c * std::cos(phi), c * std::sin(phi), -s));
            const Vector3 alongPhi = axes.cwiseProduct(Vector3(-s * std::sin(phi), s * std::cos(phi), 0));
            const Vector3 apart = point - surfacePoint(ellipsoid, theta, phi);
            sum += ellipsoid.magnetisation.dot(alongTheta.cross(alongPhi)) * apart[component] /
                   std::pow(apart.norm(), 3);
          }
          return sum * 2 * std::numbers::pi / kAzimuths;
        },
        0, std::numbers::pi, 1e-13);
  }
  return field / (4 * std::numbers::pi);
}

// Off any symmetry, inside and out, near the surface and away: the closed form and the integrated charges agree within
// 9e-16 of |H| (measured); 1e-11 leaves room for the reference, while an error of either term shows at O(1).
TEST(MagnetEllipsoidField, IsTheFieldOfItsChargedSurface) {
  for (const Ellipsoid& ellipsoid : {kTriaxial, kNeedleEllipsoid, kOblate}) {
    const double size = ellipsoid.semiAxes.maxCoeff();
    const Vector3 points[] = {1.3 * surfacePoint(ellipsoid, 0.7, 0.4), 1.25 * surfacePoint(ellipsoid, 1.6, 2.5),
                              surfacePoint(ellipsoid, 2.8, -2.0) + 0.2 * size * kSkewDirection,
                              0.6 * surfacePoint(ellipsoid, 1.1, 1.0), 3 * size * kSkewDirection,
                              Vector3(0.8 * ellipsoid.semiAxes.x() + 0.3 * size, 0, 0)};
    for (const Vector3& point : points) {
      SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
      const Vector3 reference = chargedSurfaceField(ellipsoid, point);
      EXPECT_LT(relativeError(ellipsoidField(ellipsoid, point), reference), 1e-11);
    }
  }
}

// Far away it is its dipole's (moment M·4πabc/3); the needle's charge is centrosymmetric, so the first correction is
// of relative order (size/d)², falling fourfold as the distance doubles (±5 %, as for the cuboid and the cylinder;
// measured 3.988 to 4.004). The closed form's two terms do not cancel there, so it keeps its digits: at 10⁵ sizes the
// (size/d)² term, 5e-11 and 7e-11, is still resolved (the ratio there still 4.0000).
TEST(MagnetEllipsoidField, FarAwayIsTheFieldOfItsDipoleWithTheExpectedNextOrder) {
  for (const Ellipsoid& ellipsoid : {kNeedleEllipsoid, kTriaxial}) {
    const auto errorAt = [&ellipsoid](double sizes) {
      const Vector3 point = sizes * ellipsoid.semiAxes.maxCoeff() * kSkewDirection;
      return relativeError(ellipsoidField(ellipsoid, point),
                           dipoleField(ellipsoidVolume(ellipsoid) * ellipsoid.magnetisation, point));
    };
    for (const double sizes : {10.0, 100.0, 1e3, 1e4}) {
      SCOPED_TRACE(::testing::Message() << sizes << " sizes away");
      EXPECT_NEAR(errorAt(sizes) / errorAt(2 * sizes), 4, 0.2);
    }
    EXPECT_LT(errorAt(1e5), 1e-9);
    EXPECT_GT(errorAt(1e5), 1e-12);
  }
}

// Across the surface the normal component of B = μ0·(H + M) and the tangential components of H are continuous: at
// 1e-12 of the size to either side of points all over the surface, poles and equator included, within 1e-9 of |M|
// (measured ≤ 1.2e-10: the field's own change over that distance, largest at the needle's sharp tips); a missing
// (M·n)·n term breaks the first by |M·n|.
TEST(MagnetEllipsoidField, NormalBAndTangentialHAreContinuousAcrossTheSurface) {
  for (const Ellipsoid& ellipsoid : {kTriaxial, kNeedleEllipsoid, kOblate}) {
    const double offset = 1e-12 * ellipsoid.semiAxes.maxCoeff();
    for (const double theta : {0.0, 0.3, 1.2, std::numbers::pi / 2, 2.5, std::numbers::pi}) {
      for (const double phi : {0.0, 0.7, 2.0, -1.3}) {
        const Vector3 onSurface = surfacePoint(ellipsoid, theta, phi);
        const Vector3 normal = surfaceNormal(ellipsoid, onSurface);
        const Vector3 outside = ellipsoidField(ellipsoid, onSurface + offset * normal);
        const Vector3 inside = ellipsoidField(ellipsoid, onSurface - offset * normal) + ellipsoid.magnetisation;
        SCOPED_TRACE(::testing::Message() << "θ = " << theta << ", φ = " << phi);
        const double m = ellipsoid.magnetisation.norm();
        EXPECT_LT(std::fabs((outside - inside).dot(normal)), 1e-9 * m);
        EXPECT_LT((normal.cross(outside - (inside - ellipsoid.magnetisation))).norm(), 1e-9 * m);
      }
    }
  }
}

// Outside, H is curl-free and divergence-free: central differences with a step of 1e-5 of the size, at points near the
// surface, near a tip of the needle and far away. Measured ≤ 5.4e-8 of |∇H| (the differences' truncation beside the
// needle's tip, whose radius of curvature is 1/56 of its length); a wrong term gives O(1).
TEST(MagnetEllipsoidField, IsCurlFreeAndDivergenceFreeOutside) {
  for (const Ellipsoid& ellipsoid : {kTriaxial, kNeedleEllipsoid, kOblate}) {
    const double size = ellipsoid.semiAxes.maxCoeff();
    for (const Vector3& point : {Vector3(1.02 * surfacePoint(ellipsoid, 0.4, 1.0)),
                                 Vector3(1.1 * surfacePoint(ellipsoid, 0, 0)),
                                 Vector3(1.5 * surfacePoint(ellipsoid, 2.0, -2.0)),
                                 Vector3(8 * size * kSkewDirection)}) {
      const auto [curl, divergence] = curlAndDivergence(
          fieldGradient([&](const Vector3& x) { return ellipsoidField(ellipsoid, x); }, point, 1e-5 * size));
      SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
      EXPECT_LT(curl, 1e-7);
      EXPECT_LT(divergence, 1e-7);
    }
  }
}

}  // namespace
}  // namespace lodestone
