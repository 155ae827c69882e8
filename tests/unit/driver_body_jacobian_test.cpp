// The analytic 13×13 block of one rigid body (elements/body_rigid.cpp) against a central finite difference of
// its residual: ∂F/∂y + cj·∂F/∂y' with the load held fixed, including the turning of a torque fixed in ground.
#include <random>

#include <gtest/gtest.h>

#include "elements/body_rigid.h"

namespace lodestone {
namespace {

using namespace body_state;

RigidBody asymmetricBody() {
  RigidBody body;
  body.id = 7;
  body.mass = 2.5;
  body.inertia << 0.30, -0.02, 0.01,
                  -0.02, 0.50, -0.03,
                  0.01, -0.03, 0.70;
  return body;
}

BodyBlock finiteDifferenceJacobian(const RigidBody& body, double massFactor, const double* y, const double* yp,
                                   double cj, const BodyLoad& load) {
  BodyBlock block;
  const double h = 1e-6;
  for (int column = 0; column < kSize; ++column) {
    double yPlus[kSize], yMinus[kSize], ypPlus[kSize], ypMinus[kSize];
    std::copy(y, y + kSize, yPlus);
    std::copy(y, y + kSize, yMinus);
    std::copy(yp, yp + kSize, ypPlus);
    std::copy(yp, yp + kSize, ypMinus);
    yPlus[column] += h;
    yMinus[column] -= h;
    ypPlus[column] += h;
    ypMinus[column] -= h;
    double plus[kSize], minus[kSize], plusRate[kSize], minusRate[kSize];
    bodyResidual(body, massFactor, yPlus, yp, load, plus);
    bodyResidual(body, massFactor, yMinus, yp, load, minus);
    bodyResidual(body, massFactor, y, ypPlus, load, plusRate);
    bodyResidual(body, massFactor, y, ypMinus, load, minusRate);
    for (int row = 0; row < kSize; ++row) {
      block(row, column) = (plus[row] - minus[row]) / (2 * h) + cj * (plusRate[row] - minusRate[row]) / (2 * h);
    }
  }
  return block;
}

void expectJacobianMatchesFiniteDifference(const BodyLoad& load, double eulerParameterScale,
                                           const RigidBody& body = asymmetricBody()) {
  std::mt19937 random(3);
  std::normal_distribution<double> normal;
  double y[kSize], yp[kSize];
  for (double& value : y) value = normal(random);
  for (double& value : yp) value = normal(random);
  // A slightly non-unit e, as Newton iterates have: the residual's R(e/|e|) must be differentiated through |e|.
  Eigen::Map<Vector4> e(y + kEulerParameters);
  e = eulerParameterScale * e.normalized();
  const double massFactor = 1e-3;
  const double cj = 37.0;

  BodyBlock analytic;
  bodyJacobian(body, massFactor, y, cj, load, analytic);
  const BodyBlock numeric = finiteDifferenceJacobian(body, massFactor, y, yp, cj, load);
  // Central differences with h = 1e-6 on O(1) entries: truncation ~1e-12, rounding ~1e-10 × entry size.
  const double scale = std::max(1.0, numeric.cwiseAbs().maxCoeff());
  for (int row = 0; row < kSize; ++row) {
    for (int column = 0; column < kSize; ++column) {
      EXPECT_NEAR(analytic(row, column), numeric(row, column), 1e-8 * scale) << "row " << row << " column " << column;
    }
  }
}

TEST(BodyJacobianTest, MatchesFiniteDifferenceWithoutLoad) { expectJacobianMatchesFiniteDifference(BodyLoad{}, 1.0); }

TEST(BodyJacobianTest, MatchesFiniteDifferenceWithForceAndTorque) {
  BodyLoad load;
  load.force = {3.0, -1.0, 2.0};
  load.torque = {0.7, -1.3, 2.1};
  expectJacobianMatchesFiniteDifference(load, 1.0);
}

TEST(BodyJacobianTest, MatchesFiniteDifferenceForNonUnitEulerParameters) {
  BodyLoad load;
  load.torque = {-0.4, 0.9, 1.5};
  expectJacobianMatchesFiniteDifference(load, 1.05);
  expectJacobianMatchesFiniteDifference(load, 0.97);
}

// A point body (Body_Point): its turning rows are m·ω', whatever the torque; the block is their derivative too.
TEST(BodyJacobianTest, PointBodyMatchesFiniteDifferenceAndIgnoresTorque) {
  RigidBody point;
  point.mass = 2.5;
  point.point = true;
  BodyLoad load;
  load.force = {3.0, -1.0, 2.0};
  load.torque = {0.7, -1.3, 2.1};
  expectJacobianMatchesFiniteDifference(load, 1.0, point);

  double y[kSize] = {1, 2, 3, 1, 0, 0, 0, 0.5, 0, 4, 0, 0, 0};
  double yp[kSize] = {0.5, 0, 4, 0, 0, 0, 0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  double residual[kSize];
  bodyResidual(point, 2.0, y, yp, load, residual);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(residual[kAngularVelocity + i], 2.0 * 2.5 * yp[kAngularVelocity + i]) << i;
  BodyBlock block;
  bodyJacobian(point, 2.0, y, 37.0, load, block);
  const Matrix3 expected = 37.0 * 2.0 * 2.5 * Matrix3::Identity();
  EXPECT_EQ(Matrix3(block.block<3, 3>(kAngularVelocity, kAngularVelocity)), expected);
  EXPECT_TRUE(block.middleRows<3>(kAngularVelocity).leftCols<kAngularVelocity>().isZero());
  // The rate product is the block's cj part.
  double v[kSize], product[kSize] = {};
  for (int i = 0; i < kSize; ++i) v[i] = 0.1 * (i + 1);
  addBodyRateProduct(point, 2.0, 1.0, v, product);
  for (int i = 0; i < 3; ++i) EXPECT_DOUBLE_EQ(product[kAngularVelocity + i], 2.0 * 2.5 * v[kAngularVelocity + i]);
}

TEST(BodyJacobianTest, ResidualVanishesOnTheExactMotion) {
  // Free fall with spin about a principal axis: p' = v, e' = ½Qω, m v' = m g, Jω' + ω×Jω = 0.
  RigidBody body;
  body.mass = 2.0;
  body.inertia = Vector3(0.1, 0.2, 0.3).asDiagonal();
  const Vector3 gravity(0, 0, -9.81);
  double y[kSize] = {1, 2, 3, 1, 0, 0, 0, 0.5, 0, 4, 0, 0, 5};
  double yp[kSize] = {0.5, 0, 4, 0, 0, 0, 2.5, 0, 0, -9.81, 0, 0, 0};
  BodyLoad load;
  load.force = body.mass * gravity;
  double residual[kSize];
  bodyResidual(body, 1.0, y, yp, load, residual);
  for (int i = 0; i < kSize; ++i) EXPECT_NEAR(residual[i], 0, 1e-15) << i;
}

}  // namespace
}  // namespace lodestone
