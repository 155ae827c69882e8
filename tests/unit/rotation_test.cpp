// Rotation conventions: 3-1-3 Euler angles and Euler parameters round-trip, and the Euler-parameter rate matrix
// agrees with the derivative of the rotation it produces (Ṙ = R·skew(ω) for ω in body axes).
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "solver/core/rotation.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {


TEST(RotationTest, Euler313RoundTripsAwayFromGimbalLock) {
  std::mt19937 random(7);
  std::uniform_real_distribution<double> angle(-kPi + 1e-3, kPi - 1e-3);
  std::uniform_real_distribution<double> tilt(0.05, kPi - 0.05);
  for (int trial = 0; trial < 200; ++trial) {
    const double psi = angle(random), theta = tilt(random), phi = angle(random);
    const Matrix3 rotation = rotationFromEuler313(psi, theta, phi);
    EXPECT_LT(orthonormalityError(rotation), 1e-14);
    const Vector3 angles = euler313FromRotation(rotation);
    // Tolerance: a few ulps of π amplified by 1/sin θ ≤ 20.
    EXPECT_NEAR(angles.x(), psi, 1e-12);
    EXPECT_NEAR(angles.y(), theta, 1e-12);
    EXPECT_NEAR(angles.z(), phi, 1e-12);
  }
}

TEST(RotationTest, Euler313MatchesItsDefinitionForOneCase) {
  // psi = 90° about z, then theta = 90° about the new x: the body x axis is ground y, body y is ground z.
  const Matrix3 rotation = rotationFromEuler313(kPi / 2, kPi / 2, 0);
  EXPECT_NEAR((rotation.col(0) - Vector3::UnitY()).norm(), 0, 1e-15);
  EXPECT_NEAR((rotation.col(1) - Vector3::UnitZ()).norm(), 0, 1e-15);
  EXPECT_NEAR((rotation.col(2) - Vector3::UnitX()).norm(), 0, 1e-15);
}

TEST(RotationTest, Euler313AtGimbalLockStillReproducesTheRotation) {
  const Matrix3 rotation = rotationFromEuler313(0.3, 0.0, 0.4);
  const Vector3 angles = euler313FromRotation(rotation);
  EXPECT_LT((rotationFromEuler313(angles.x(), angles.y(), angles.z()) - rotation).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_NEAR(angles.x() + angles.z(), 0.7, 1e-15);
}

TEST(RotationTest, EulerParametersRoundTripThroughRotation) {
  std::mt19937 random(11);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 200; ++trial) {
    Vector4 e(normal(random), normal(random), normal(random), normal(random));
    e.normalize();
    if (e(0) < 0) e = -e;
    const Matrix3 rotation = rotationFromEulerParameters(e);
    EXPECT_LT(orthonormalityError(rotation), 1e-14);
    EXPECT_LT((eulerParametersFromRotation(rotation) - e).cwiseAbs().maxCoeff(), 1e-14);
  }
}

TEST(RotationTest, EulerParametersAreNormalisedBeforeUse) {
  const Vector4 e = Vector4(0.9, 0.1, -0.3, 0.2).normalized();
  EXPECT_LT((rotationFromEulerParameters(1.7 * e) - rotationFromEulerParameters(e)).cwiseAbs().maxCoeff(), 1e-15);
}

TEST(RotationTest, RateMatrixGivesTheDerivativeOfTheRotation) {
  std::mt19937 random(13);
  std::normal_distribution<double> normal;
  for (int trial = 0; trial < 50; ++trial) {
    const Vector4 e = Vector4(normal(random), normal(random), normal(random), normal(random)).normalized();
    const Vector3 omega(normal(random), normal(random), normal(random));  // body axes
    const Vector4 rate = 0.5 * eulerParameterRateMatrix(e) * omega;
    // The rate keeps |e| fixed.
    EXPECT_NEAR(e.dot(rate), 0, 1e-15);
    // Central difference of R along ė; its O(h²) error is ~1e-10 for h = 1e-5.
    const double h = 1e-5;
    const Matrix3 derivative =
        (rotationFromEulerParameters(e + h * rate) - rotationFromEulerParameters(e - h * rate)) / (2 * h);
    const Matrix3 expected = rotationFromEulerParameters(e) * skew(omega);
    EXPECT_LT((derivative - expected).cwiseAbs().maxCoeff(), 1e-9) << "trial " << trial;
  }
}

// Turning e by φ in ground axes is the rotation about φ by |φ| applied after R(e), for large and tiny angles (the
// assembly and the static solver step with both); |e| is kept.
TEST(RotationTest, RotateEulerParametersAppliesTheRotationVectorInGround) {
  const Vector4 e = eulerParametersFromRotation(rotationFromEuler313(0.3, 1.1, -0.7));
  for (const Vector3& phi : {Vector3(0.4, -1.2, 2.0), Vector3(1e-9, 2e-9, -3e-9), Vector3::Zero().eval()}) {
    const Vector4 turned = rotateEulerParameters(e, phi);
    const Matrix3 about = phi.norm() > 0 ? Eigen::AngleAxisd(phi.norm(), phi.normalized()).toRotationMatrix()
                                         : Matrix3::Identity();
    EXPECT_LT((rotationFromEulerParameters(turned) - about * rotationFromEulerParameters(e)).cwiseAbs().maxCoeff(),
              1e-14);
    EXPECT_NEAR(turned.norm(), 1, 1e-15);
  }
}

TEST(RotationTest, SkewIsTheCrossProduct) {
  const Vector3 a(1, -2, 3), b(-0.5, 4, 2);
  EXPECT_LT((skew(a) * b - a.cross(b)).norm(), 1e-15);
}

}  // namespace
}  // namespace lodestone
