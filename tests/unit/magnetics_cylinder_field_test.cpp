// The closed-form field of an axially magnetised cylinder (magnetics/cylinder_field.h), against references that do not
// share its formulas: the elementary field on the axis, the charged end discs integrated numerically, point dipoles,
// Maxwell's equations.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "magnetics/cylinder_field.h"
#include "solver/core/quadrature.h"
#include "support/magnet_testing.h"

namespace lodestone {
namespace {

using namespace magnet_testing;

// A 20 mm × 20 mm cylinder (≈ 1.26 T), and a flat one magnetised the other way.
const Cylinder kSolidCylinder{0.01, 0.01, 1e6};
const Cylinder kThinDisc{0.02, 0.004, -4e5};

// On the axis, integrating the two charged discs' fields is elementary: H_z = (M/2)·[(z + L)/√((z + L)² + R²) − (z −
// L)/√((z − L)² + R²)] outside, minus M inside. The closed form's elliptic integrals are then all at kc = 1, so only
// round-off separates the two (measured ≤ 1.2e-16 of M): 1e-14 of M leaves it room, while a wrong 1/π or a dropped −M
// is off by O(1).
TEST(MagnetCylinderField, OnItsAxisIsTheElementaryFieldOfTwoChargedDiscs) {
  for (const Cylinder& cylinder : {kSolidCylinder, kThinDisc}) {
    const double radius = cylinder.radius, halfLength = cylinder.halfLength, m = cylinder.magnetisation;
    for (const double z : {-5.0, -1.3, -0.999, -0.5, 0.0, 0.2, 0.9, 1.001, 2.0, 30.0}) {
      const double height = z * halfLength;
      const double up = height + halfLength, down = height - halfLength;
      double reference = 0.5 * m * (up / std::hypot(up, radius) - down / std::hypot(down, radius));
      if (std::fabs(height) < halfLength) reference -= m;
      const Vector3 field = cylinderField(cylinder, Vector3(0, 0, height));
      SCOPED_TRACE(::testing::Message() << "z = " << height);
      EXPECT_NEAR(field.z(), reference, 1e-14 * std::fabs(m));
      EXPECT_EQ(field.x(), 0);
      EXPECT_EQ(field.y(), 0);
    }
  }
}

// Off the axis, the reference is the charge model itself: the end discs' charge σ = ±M integrated over the discs by
// nested adaptive Gauss–Kronrod, asked for 1e-13. Points at least 0.1 R from the rims keep the integrand smooth enough
// for that: the two agree within 1.6e-15 of |H| (measured). The charge integral is H inside too, so it also checks the
// −M inside. Points include the mantle's extension (ρ = R, where cel's p is 0) and an end plane beyond the rim (the kc
// of that end is |R − ρ|/(R + ρ)). Tolerance 1e-12 of |H|: the reference's own 1e-13 with room.
Vector3 chargedDiscsField(const Cylinder& cylinder, const Vector3& point) {
  Vector3 field;
  for (int component = 0; component < 3; ++component) {
    double sum = 0;
    for (const double end : {1.0, -1.0}) {  // σ = +M on the disc at z = +L, −M at −L
      sum += end * integrate(
                       [&](double angle) {
                         return integrate(
                             [&](double r) {
                               const Vector3 apart =
                                   point - Vector3(r * std::cos(angle), r * std::sin(angle), end * cylinder.halfLength);
                               return r * apart[component] / std::pow(apart.norm(), 3);
                             },
                             0, cylinder.radius, 1e-13);
                       },
                       0, 2 * std::numbers::pi, 1e-13);
    }
    field[component] = cylinder.magnetisation * sum / (4 * std::numbers::pi);
  }
  return field;
}

TEST(MagnetCylinderField, OffItsAxisIsTheFieldOfItsChargedEndDiscs) {
  for (const Cylinder& cylinder : {kSolidCylinder, kThinDisc}) {
    const double r = cylinder.radius, l = cylinder.halfLength;
    const Vector3 points[] = {Vector3(0.5 * r, 0.3 * r, l + 0.3 * r),
                              Vector3(1.5 * r, -0.4 * r, 0.2 * l),
                              Vector3(0.3 * r, 0.2 * r, 0.4 * l),
                              Vector3(-0.6 * r, 0.8 * r, -1.5 * l - r),
                              Vector3(2 * r, r, -l),
                              Vector3(-0.1 * r, 0.7 * r, -0.3 * l),
                              3 * (r + l) * kSkewDirection};
    for (const Vector3& point : points) {
      SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
      EXPECT_LT(relativeError(cylinderField(cylinder, point), chargedDiscsField(cylinder, point)), 1e-12);
    }
  }
}

// Far away a cylinder is a dipole of moment M·πR²·2L. Its charge distribution is centrosymmetric, so the first
// correction is of relative order (size/d)², falling 4-fold each time the distance doubles; for the cylinder whose
// second moments are isotropic (R²/4 = L²/3, L = (√3/2)·R) that order vanishes and the error falls 16-fold. Bounds on
// the ratios ±5 %, as for the cuboid (measured 3.995–4.000 and 15.98–16.00): an error of any other order fails. At 100
// sizes the 20 × 20 mm cylinder is its dipole within 7.4e-6 (measured), its shape's (size/d)² term.
TEST(MagnetCylinderField, FarAwayIsTheFieldOfItsDipoleWithTheExpectedNextOrder) {
  const auto errorAt = [](const Cylinder& cylinder, double sizes) {
    const Vector3 point = sizes * 2 * std::max(cylinder.radius, cylinder.halfLength) * kSkewDirection;
    return relativeError(cylinderField(cylinder, point),
                         dipoleField(Vector3(0, 0, volume(cylinder) * cylinder.magnetisation), point));
  };
  const Cylinder isotropic{0.01, 0.005 * std::sqrt(3.0), 1e6};
  EXPECT_LT(errorAt(kSolidCylinder, 100), 1e-5);
  for (const double sizes : {10.0, 20.0, 40.0}) {
    EXPECT_NEAR(errorAt(kSolidCylinder, sizes) / errorAt(kSolidCylinder, 2 * sizes), 4, 0.2);
    EXPECT_NEAR(errorAt(kThinDisc, sizes) / errorAt(kThinDisc, 2 * sizes), 4, 0.2);
  }
  // Far enough for round-off to dominate the isotropic cylinder's (size/d)⁴ (1e-12 at 1000 sizes): the ends' terms
  // cancel down to the dipole field and keep 4.8e-11 (measured).
  EXPECT_LT(errorAt(isotropic, 1000), 1e-9);
  for (const double sizes : {5.0, 10.0})
    EXPECT_NEAR(errorAt(isotropic, sizes) / errorAt(isotropic, 2 * sizes), 16, 0.8);
}

// Outside the magnet H is curl-free and divergence-free. Central differences with a step of 1e-5 of the size, as for
// the cuboid: truncation ~1e-10, round-off ~1e-11 of |∇H|; a wrong sign or factor in either component gives a curl or
// divergence of order |∇H|. Points: near the rims, mantle and ends, on the axis, on the mantle's extension, in an end
// plane, far away.
TEST(MagnetCylinderField, IsCurlFreeAndDivergenceFreeOutside) {
  for (const Cylinder& cylinder : {kSolidCylinder, kThinDisc}) {
    const double r = cylinder.radius, l = cylinder.halfLength;
    const double step = 1e-5 * 2 * std::max(r, l);
    const Vector3 points[] = {Vector3(0, 0, l + 0.001),
                              Vector3(r + 0.001, 0.3 * r, 0.2 * l),
                              Vector3(0.6 * r, 0.8 * r + 0.001, l + 0.001),
                              Vector3(0.3 * r, -0.2 * r, -l - 0.002),
                              Vector3(r, 0, 2 * l),
                              Vector3(-2 * r, 0.5 * r, l),
                              6 * (r + l) * kSkewDirection};
    for (const Vector3& point : points) {
      const auto [curl, divergence] = curlAndDivergence(
          fieldGradient([&](const Vector3& x) { return cylinderField(cylinder, x); }, point, step));
      SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
      EXPECT_LT(curl, 1e-7);
      EXPECT_LT(divergence, 1e-7);
    }
  }
}

// On the mantle's extension beyond the ends (ρ = R: cel's p = 0, handled by its own transformation), in the end planes
// beyond the rim (one end's kc is small there) and near the axis, the field is smooth. The value there must be finite
// and match points 1e-9 of the size to either side; the field changes by ~1e-9 relative over that, a wrong branch by
// O(1).
TEST(MagnetCylinderField, IsFiniteAndContinuousOnTheMantlesExtensionTheEndPlanesAndTheAxis) {
  const double r = kSolidCylinder.radius, l = kSolidCylinder.halfLength;
  const double nudge = 1e-9 * 2 * std::max(r, l);
  const Vector3 points[] = {Vector3(r, 0, 1.5 * l), Vector3(0, -r, -3 * l), Vector3(0.6 * r, 0.8 * r, l + 1e-4),
                            Vector3(1.5 * r, 0, l), Vector3(0, -3 * r, -l), Vector3(0, 0, 2 * l),
                            Vector3(0, 0, 0.5 * l)};
  for (const Vector3& point : points) {
    expectContinuousAt([](const Vector3& x) { return cylinderField(kSolidCylinder, x); }, point, nudge);
  }
}

// On a rim the field diverges (logarithmically, as beside any edge of a charged sheet): the answer must say so, not
// hang in the elliptic integral's mean (whose kc is 0 there) or return a finite number.
TEST(MagnetCylinderField, IsNotFiniteOnTheRimsOfItsEndDiscs) {
  const double r = kSolidCylinder.radius, l = kSolidCylinder.halfLength;
  for (const Vector3& point : {Vector3(r, 0, l), Vector3(0, -r, -l), Vector3(0.6 * r, 0.8 * r, l)}) {
    SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
    EXPECT_FALSE(cylinderField(kSolidCylinder, point).allFinite());
  }
}

// A diametrally magnetised cylinder: the 20 × 20 mm one magnetised along x, a flat disc magnetised obliquely across
// its axis, a long rod (length 8 diameters).
const Cylinder kAcrossAxis{0.01, 0.01, 0, Eigen::Vector2d(1e6, 0)};
const Cylinder kDiametralDisc{0.02, 0.003, 0, Eigen::Vector2d(-3e5, 5e5)};
const Cylinder kDiametralRod{0.004, 0.032, 0, Eigen::Vector2d(2e5, 7e5)};

// The diametral part's reference is its charge model: σ = M·n on the mantle, (1/4π)∫∫ σ·(x − y)/|x − y|³ R dφ' dz'
// by nested adaptive Gauss–Kronrod, asked for 1e-13, independent of the Hessian and its elliptic integrals.
Vector3 chargedMantleField(const Cylinder& cylinder, const Vector3& point) {
  const Eigen::Vector2d& m = cylinder.diametralMagnetisation;
  Vector3 field;
  for (int component = 0; component < 3; ++component) {
    field[component] = integrate(
        [&](double angle) {
          const double charge = m.x() * std::cos(angle) + m.y() * std::sin(angle);
          return charge * integrate(
                              [&](double height) {
                                const Vector3 apart = point - Vector3(cylinder.radius * std::cos(angle),
                                                                      cylinder.radius * std::sin(angle), height);
                                return apart[component] / std::pow(apart.norm(), 3);
                              },
                              -cylinder.halfLength, cylinder.halfLength, 1e-13);
        },
        0, 2 * std::numbers::pi, 1e-13);
  }
  return cylinder.radius * field / (4 * std::numbers::pi);
}

// Outside, inside, near a rim (a tenth of the radius from it), near the mantle, on the axis inside and beyond the ends,
// near the axis on either side of where ψ_ρ/ρ switches to its value on the axis (1e-5 R), on the mantle's extension and
// in an end plane beyond the rim: the closed form is the integrated charges within 1e-9 of |H| (measured ≤ 6.2e-11, the
// reference's own error: integrated to 30 digits (mpmath) at the worst two points, the closed form is within 2e-15).
TEST(MagnetCylinderField, AcrossItsAxisIsTheFieldOfItsChargedMantle) {
  for (const Cylinder& cylinder : {kAcrossAxis, kDiametralDisc, kDiametralRod}) {
    const double r = cylinder.radius, l = cylinder.halfLength;
    const Vector3 points[] = {Vector3(1.5 * r, -0.4 * r, 0.2 * l),
                              Vector3(0.3 * r, 0.2 * r, 0.4 * l),
                              Vector3(-0.6 * r, 0.5 * r, -0.7 * l),
                              Vector3(0.9 * r, 0, l + 0.1 * r) ,
                              Vector3(0, 1.1 * r, -0.5 * l),
                              Vector3(0, 0, 0.3 * l),
                              Vector3(0, 0, -l - 0.5 * r),
                              Vector3(0.5e-7 * r, 0.5e-7 * r, 0.6 * l),
                              Vector3(9e-6 * r, 0, -0.2 * l),
                              Vector3(0, 1.2e-5 * r, 0.1 * l),
                              Vector3(1e-3 * r, -1e-3 * r, 1.3 * l),
                              Vector3(0, r, 1.5 * l),
                              Vector3(1.5 * r, 0.3 * r, l),
                              3 * (r + l) * kSkewDirection};
    for (const Vector3& point : points) {
      SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
      const Vector3 reference = chargedMantleField(cylinder, point);
      EXPECT_LT(relativeError(cylinderField(cylinder, point), reference), 1e-9);
    }
  }
}

// On the axis ψ_ρρ = ψ_ρ/ρ = (−χ − ψ_zz)/2, and with Derby's elementary H_z there the diametral field is
// −(M/4)·[(z + L)/√((z + L)² + R²) − (z − L)/√((z − L)² + R²)], inside and out. Within 1e-6 R of the axis the closed
// form takes that value (ψ_ρ/ρ's two elliptic integrals cancel there); just inside and outside that, at 0.99e-5 R and
// 1.02e-5 R, the two ways are within 7e-12 and 8e-12 of |M| of the value on the axis (measured, and the field's own
// change is of that order); at 1e-3 R the general form. Within 1e-10 of |M| plus (ρ/R)², the field's own change.
TEST(MagnetCylinderField, AcrossItsAxisOnTheAxisIsElementary) {
  for (const Cylinder& cylinder : {kAcrossAxis, kDiametralDisc, kDiametralRod}) {
    const double r = cylinder.radius, l = cylinder.halfLength;
    for (const double z : {-3.0, -1.01, -0.7, 0.0, 0.5, 0.999, 1.2, 20.0}) {
      const double height = z * l, up = height + l, down = height - l;
      const Eigen::Vector2d expected =
          -0.25 * (up / std::hypot(up, r) - down / std::hypot(down, r)) * cylinder.diametralMagnetisation;
      for (const double off : {0.0, 1e-9, 1e-7, 7e-6, 7.2e-6, 1e-3}) {
        const Vector3 field = cylinderField(cylinder, Vector3(off * r, -off * r, height));
        SCOPED_TRACE(::testing::Message() << "z = " << height << ", " << off << " R off the axis");
        EXPECT_LT((field.head<2>() - expected).norm(), (1e-10 + off * off) * cylinder.diametralMagnetisation.norm());
      }
    }
  }
}

// The field is linear in M: a tilted magnetisation's field is its axial part's plus its diametral part's, and the
// diametral field of M along y is that of M along x turned a quarter turn about the axis (a check of the azimuthal
// terms' signs that does not depend on the reference).
TEST(MagnetCylinderField, ATiltedMagnetisationIsTheSumOfItsAxialAndDiametralParts) {
  const Cylinder tilted{0.01, 0.015, 6e5, Eigen::Vector2d(3e5, -4e5)};
  const Cylinder axial{0.01, 0.015, 6e5}, diametral{0.01, 0.015, 0, Eigen::Vector2d(3e5, -4e5)};
  const Cylinder alongX{0.01, 0.015, 0, Eigen::Vector2d(5e5, 0)}, alongY{0.01, 0.015, 0, Eigen::Vector2d(0, 5e5)};
  const Matrix3 quarterTurn = Eigen::AngleAxisd(std::numbers::pi / 2, Vector3::UnitZ()).toRotationMatrix();
  for (const Vector3& point : {Vector3(0.012, -0.004, 0.003), Vector3(0.002, 0.003, -0.01), Vector3(0, 0, 0.02),
                               Vector3(-0.03, 0.02, 0.05)}) {
    SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
    const Vector3 sum = cylinderField(axial, point) + cylinderField(diametral, point);
    EXPECT_LT((cylinderField(tilted, point) - sum).norm(), 1e-15 * sum.norm());
    const Vector3 turned = quarterTurn * cylinderField(alongX, quarterTurn.transpose() * point);
    EXPECT_LT(relativeError(cylinderField(alongY, point), turned), 1e-14);
  }
}

// Far away the diametral cylinder is its dipole M·πR²·2L; its charge is centrosymmetric, so the next order is
// (size/d)², falling fourfold as the distance doubles (±5 %, as for the axial one; measured 3.988 to 4.004). At 100
// sizes, 9e-6 to 4e-5 off the dipole.
TEST(MagnetCylinderField, AcrossItsAxisFarAwayIsTheFieldOfItsDipole) {
  for (const Cylinder& cylinder : {kAcrossAxis, kDiametralDisc, kDiametralRod}) {
    const auto errorAt = [&cylinder](double sizes) {
      const Vector3 point = sizes * 2 * std::max(cylinder.radius, cylinder.halfLength) * kSkewDirection;
      const Eigen::Vector2d& m = cylinder.diametralMagnetisation;
      return relativeError(cylinderField(cylinder, point),
                           dipoleField(volume(cylinder) * Vector3(m.x(), m.y(), 0), point));
    };
    EXPECT_LT(errorAt(100), 1e-4);
    for (const double sizes : {10.0, 20.0, 40.0}) EXPECT_NEAR(errorAt(sizes) / errorAt(2 * sizes), 4, 0.2);
  }
}

// Across the mantle the normal B = μ0·(H + M) and the tangential H are continuous (the charge σ = M·n makes the normal
// H jump by it), and outside H is curl-free and divergence-free; as for the ellipsoid, 1e-12 of the size to either side
// of the mantle and central differences of 1e-5 of the size.
TEST(MagnetCylinderField, AcrossItsAxisKeepsMaxwellsEquations) {
  for (const Cylinder& cylinder : {kAcrossAxis, kDiametralDisc, kDiametralRod}) {
    const double r = cylinder.radius, l = cylinder.halfLength;
    const Vector3 magnetisation(cylinder.diametralMagnetisation.x(), cylinder.diametralMagnetisation.y(), 0);
    for (const double angle : {0.0, 0.8, 2.0, -2.5}) {
      const Vector3 normal(std::cos(angle), std::sin(angle), 0);
      const Vector3 onMantle = r * normal + Vector3(0, 0, 0.3 * l);
      const double offset = 1e-12 * std::max(r, l);
      const Vector3 outside = cylinderField(cylinder, onMantle + offset * normal);
      const Vector3 inside = cylinderField(cylinder, onMantle - offset * normal);
      SCOPED_TRACE(::testing::Message() << "angle " << angle);
      EXPECT_LT(std::fabs((outside - inside - magnetisation).dot(normal)), 1e-9 * magnetisation.norm());
      EXPECT_LT(normal.cross(outside - inside).norm(), 1e-9 * magnetisation.norm());
    }
    const double step = 1e-5 * 2 * std::max(r, l);
    for (const Vector3& point : {Vector3(r + 0.001, 0.3 * r, 0.2 * l), Vector3(0.6 * r, 0.8 * r + 0.001, l + 0.001),
                                 Vector3(0, 0, 2 * l), Vector3(-2 * r, 0.5 * r, l),
                                 Vector3(6 * (r + l) * kSkewDirection)}) {
      const auto [curl, divergence] = curlAndDivergence(
          fieldGradient([&](const Vector3& x) { return cylinderField(cylinder, x); }, point, step));
      SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
      EXPECT_LT(curl, 1e-7);
      EXPECT_LT(divergence, 1e-7);
    }
  }
}

}  // namespace
}  // namespace lodestone
