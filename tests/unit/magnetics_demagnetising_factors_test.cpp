// The demagnetising factors (magnetics/demagnetising_factors.h) against references that do not share their formulas:
// symmetry, the sum rule, the thin-plate and long-rod limits, the volume average of the closed-form fields, the
// cylinder's Hankel integral evaluated independently.
#include "magnetics/demagnetising_factors.h"

#include <numbers>
#include <utility>

#include <gtest/gtest.h>

#include "magnetics/cuboid_field.h"
#include "magnetics/cylinder_field.h"
#include "solver/core/quadrature.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {


// By symmetry each of a cube's three factors is a third of their sum, 1; the closed form's terms do not know that.
TEST(MagnetDemagnetisingFactors, AreOneThirdForACube) {
  const Vector3 factors = prismDemagnetisingFactors(Vector3::Constant(0.02));
  for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(factors[axis], 1.0 / 3.0, 1e-15);
  EXPECT_EQ(sphereDemagnetisingFactors(), Vector3::Constant(1.0 / 3.0));
}

// An ellipsoid's factors: a sphere's thirds; the spheroids' closed forms (Osborn 1945; Landau & Lifshitz, ECM §4):
// prolate (a = b < c, e² = 1 − a²/c²) N_z = (1 − e²)/e³·(atanh e − e), oblate (a = b > c, e² = 1 − c²/a²)
// N_z = (1/e²)·(1 − √(1 − e²)·asin(e)/e); a triaxial one against its defining integral taken numerically
// (s = L²·t/(1 − t) over t in [0, 1)), and the sum rule.
TEST(MagnetDemagnetisingFactors, OfEllipsoidsAreOsbornsAndStonersIntegrals) {
  const Vector3 sphere = ellipsoidDemagnetisingFactors(Vector3::Constant(0.3));
  for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(sphere[axis], 1.0 / 3.0, 1e-15);
  const double prolateE = std::sqrt(1 - 0.01 / 0.09);
  const Vector3 prolate = ellipsoidDemagnetisingFactors({0.1, 0.1, 0.3});
  EXPECT_NEAR(prolate.z(), (1 - prolateE * prolateE) / std::pow(prolateE, 3) * (std::atanh(prolateE) - prolateE),
              1e-14);
  EXPECT_NEAR(prolate.x(), (1 - prolate.z()) / 2, 1e-14);
  const double oblateE = std::sqrt(1 - 0.01 / 0.16);
  const Vector3 oblate = ellipsoidDemagnetisingFactors({0.4, 0.4, 0.1});
  EXPECT_NEAR(oblate.z(),
              (1 - std::sqrt(1 - oblateE * oblateE) * std::asin(oblateE) / oblateE) / (oblateE * oblateE), 1e-14);
  const Vector3 semiAxes(0.02, 0.05, 0.11);
  const Vector3 factors = ellipsoidDemagnetisingFactors(semiAxes);
  EXPECT_NEAR(factors.sum(), 1, 1e-14);
  const double scale = semiAxes.squaredNorm();
  for (int axis = 0; axis < 3; ++axis) {
    const auto integrand = [&](double t) {
      const double s = scale * t / (1 - t), ds = scale / ((1 - t) * (1 - t));
      const Vector3 shifted = semiAxes.cwiseAbs2() + Vector3::Constant(s);
      return ds / (shifted[axis] * std::sqrt(shifted.prod()));
    };
    EXPECT_NEAR(factors[axis], semiAxes.prod() / 2 * integrate(integrand, 0.0, 1.0, 1e-12), 1e-10) << "axis " << axis;
  }
}

// The sum rule N_x + N_y + N_z = 1 holds for any body (the trace of the demagnetising tensor); each factor comes from
// Aharoni's formula on its own, with the edges in another order.
TEST(MagnetDemagnetisingFactors, OfAnyPrismAddUpToOne) {
  for (const Vector3& halfExtents : {Vector3(1, 2, 3), Vector3(0.3, 0.01, 0.7), Vector3(5, 5, 0.2),
                                     Vector3(0.1, 0.1, 4), Vector3(2e-3, 1e-3, 3e-3)}) {
    SCOPED_TRACE(::testing::Message() << "half-extents " << halfExtents.transpose());
    const Vector3 factors = prismDemagnetisingFactors(halfExtents);
    EXPECT_NEAR(factors.sum(), 1, 1e-13);
    EXPECT_TRUE((factors.array() > 0).all());
    // The longer the edge, the smaller its factor.
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        if (halfExtents[i] > halfExtents[j]) {
          EXPECT_LT(factors[i], factors[j]);
        }
      }
    }
  }
}

// A thin plate is an infinite sheet (N = 1 across, 0 in-plane) up to the edges' share, of order
// (thickness/side)·ln(side/thickness); a long rod is an infinite cylinder (0 along, ½ across) up to its ends' share,
// of order width/length.
TEST(MagnetDemagnetisingFactors, TendToTheThinPlateAndTheLongRod) {
  const Vector3 plate = prismDemagnetisingFactors({1, 1, 1e-4});
  EXPECT_GT(plate.z(), 1 - 1e-3);
  EXPECT_LT(plate.x(), 5e-4);
  EXPECT_NEAR(plate.x(), plate.y(), 1e-15);
  const Vector3 rod = prismDemagnetisingFactors({1, 1, 1e3});
  EXPECT_LT(rod.z(), 1e-3);
  EXPECT_NEAR(rod.x(), 0.5, 1e-3);
  // For each, the share beyond the limit shrinks as the aspect grows tenfold: the limits are approached.
  EXPECT_LT(1 - prismDemagnetisingFactors({1, 1, 1e-5}).z(), 0.2 * (1 - plate.z()));
  EXPECT_LT(prismDemagnetisingFactors({1, 1, 1e4}).z(), 0.2 * rod.z());
}

// N is minus the volume average of the demagnetising field over M: here that average taken numerically over
// cuboidField (magnetics/cuboid_field.h, tested on its own), an independent route through the face charges. One
// octant suffices, the field's component along M being even in x, y and z. It diverges logarithmically on the edges,
// which the adaptive rule handles; asked for 1e-5 per level (≈ 0.15 s an axis), it agreed within 3e-8 (1e-9 when
// asked for 1e-7, at 15 times the cost). The bound, 1e-6, is far below what a wrong term would cost.
TEST(MagnetDemagnetisingFactors, OfAPrismAreTheVolumeAverageOfItsField) {
  const Vector3 halfExtents(0.01, 0.02, 0.03);
  const Vector3 factors = prismDemagnetisingFactors(halfExtents);
  for (int axis = 0; axis < 3; ++axis) {
    const Cuboid prism{halfExtents, 1e6 * Vector3::Unit(axis)};
    const auto along = [&](double x, double y, double z) { return cuboidField(prism, {x, y, z})[axis]; };
    const double integral = integrate(
        [&](double x) {
          return integrate(
              [&](double y) { return integrate([&](double z) { return along(x, y, z); }, 0, halfExtents.z(), 1e-5); },
              0, halfExtents.y(), 1e-5);
        },
        0, halfExtents.x(), 1e-5);
    const double average = integral / halfExtents.prod();
    EXPECT_NEAR(-average / 1e6, factors[axis], 1e-6) << "axis " << axis;
  }
}

// The cylinder's axial factor against N_z = (1/τ)·[4/(3π) − ∫₀^∞ e^{−2τu} J₁(u)²/u² du] (τ = half-length/radius),
// the integral evaluated independently (mpmath's quadosc, 20 digits): the closed form's elliptic integrals must
// reproduce it to round-off, which its bracket's cancellation makes ≈ 1e-16/τ (measured 2.3e-14 at τ = 0.1).
// 0.31158 at length = diameter is Chen, Brug & Goldfarb's 0.3116 (1991, Table I).
TEST(MagnetDemagnetisingFactors, OfACylinderMatchTheHankelIntegral) {
  const std::pair<double, double> references[] = {{0.1, 0.79667648247808673668},
                                                  {0.5, 0.47448997574807252403},
                                                  {1, 0.31157739267962331368},
                                                  {3, 0.12776868267600819848}};
  for (const auto& [tau, reference] : references) {
    const Vector3 factors = cylinderDemagnetisingFactors(0.01, tau * 0.01);
    EXPECT_NEAR(factors.z(), reference, 1e-14 / tau) << "half-length/radius " << tau;
    EXPECT_NEAR(factors.sum(), 1, 1e-15);
    EXPECT_EQ(factors.x(), factors.y());
  }
  // The limits: a thin disc is a sheet; a long rod's N_z·τ tends to 4/(3π), the end discs' charges far apart.
  EXPECT_GT(cylinderDemagnetisingFactors(1, 1e-5).z(), 1 - 1e-4);
  EXPECT_NEAR(cylinderDemagnetisingFactors(1, 1e3).z() * 1e3, 4 / (3 * kPi), 1e-3);
}

// The same average over cylinderField (magnetics/cylinder_field.h), in the cylinder's (ρ, z): H_z's average over the
// volume is 2/(R²L)·∫∫ H_z ρ dρ dz over a quarter section.
TEST(MagnetDemagnetisingFactors, OfACylinderAreTheVolumeAverageOfItsField) {
  const Cylinder cylinder{0.01, 0.015, 1e6};
  const double integral = integrate(
      [&](double rho) {
        return rho * integrate(
                         [&](double z) {
                           return cylinderField(cylinder, {rho, 0, z}).z();
                         },
                         0, cylinder.halfLength, 1e-10);
      },
      0, cylinder.radius, 1e-10);
  const double average = 2 * integral / (cylinder.radius * cylinder.radius * cylinder.halfLength);
  EXPECT_NEAR(-average / 1e6, cylinderDemagnetisingFactors(cylinder.radius, cylinder.halfLength).z(), 1e-8);
}

// A frustum's factors (a volume average of frustumField): with equal radii, a cylinder's closed form
// (half-length/radius 0.1, 1 and 10; measured ≤ 2.7e-11); a thin one tends to a sheet's N_z = 1 as a disc does; a
// long cone's axial factor is small, as a rod's; and the sum rule holds, the transverse factors equal. A cone's and a
// frustum's own values: 0.28327772288 (10 mm radius, 30 mm high) and 0.3507545952 (12 to 4 mm, 20 mm high), changing
// by 2e-12 and 2.3e-11 from the 48-point rule to a 64-point one.
TEST(MagnetDemagnetisingFactors, OfAFrustumAreTheVolumeAverageOfItsField) {
  for (const double tau : {0.1, 1.0, 10.0}) {
    const Vector3 factors = frustumDemagnetisingFactors(0.01, 0.01, 2 * tau * 0.01);
    EXPECT_NEAR(factors.z(), cylinderDemagnetisingFactors(0.01, tau * 0.01).z(), 1e-10) << "half-length/radius " << tau;
  }
  const Vector3 cone = frustumDemagnetisingFactors(0.01, 0, 0.03);
  const Vector3 frustum = frustumDemagnetisingFactors(0.012, 0.004, 0.02);
  EXPECT_NEAR(cone.z(), 0.28327772288, 1e-10);
  EXPECT_NEAR(frustum.z(), 0.3507545952, 1e-9);
  for (const Vector3& factors : {cone, frustum}) {
    EXPECT_NEAR(factors.sum(), 1, 1e-15);
    EXPECT_EQ(factors.x(), factors.y());
  }
  EXPECT_GT(frustumDemagnetisingFactors(1, 0.9, 1e-4).z(), 1 - 1e-3);
  // A cone 500 mm long on a 10 mm radius: 0.0240 (measured), a cylinder as long and as wide 0.0176.
  EXPECT_LT(frustumDemagnetisingFactors(0.01, 0, 0.5).z(), 0.03);
}
}  // namespace
}  // namespace lodestone
