// Post_Request on models/slider_crank_motor.xml: each request type in requests.csv against the same quantity
// computed here from bodies.csv (positions, Euler parameters, velocities and accelerations of the bodies) and the
// markers' places in the deck, and MARKER_FORCE against the known gas force and against joints.csv.
#include <cmath>
#include <map>
#include <optional>

#include <gtest/gtest.h>

#include "support/joint_testing.h"
#include "support/model_runs.h"
#include "support/results_csv.h"

namespace lodestone::testing {
namespace {

using Mat3 = Eigen::Matrix3d;

// A marker fixed in a body of bodies.csv, followed through the outputs: where it is, how it is turned and how it
// moves, from the body's row (rigid-body kinematics, written out here independently of the solver's).
struct MarkerOnBody {
  long body;
  Vec3 offset;          // from the body's CG, in body axes (the bodies' axes start as ground's)
  Mat3 axes = Mat3::Identity();  // the marker's axes in body axes

  struct Motion {
    Vec3 position, velocity, acceleration, angularVelocity, angularAcceleration;
    Mat3 rotation;
  };
  Motion at(const ResultsTable& bodies, size_t row) const {
    const Mat3 r = rotationOfEulerParameters(bodies.eulerParameters(row));
    const Vec3 arm = r * offset;
    const Vec3 w = bodies.vector3(row, "wx", "wy", "wz"), alpha = bodies.vector3(row, "wdx", "wdy", "wdz");
    return {bodies.vector3(row, "x", "y", "z") + arm, bodies.vector3(row, "vx", "vy", "vz") + w.cross(arm),
            bodies.vector3(row, "ax", "ay", "az") + alpha.cross(arm) + w.cross(w.cross(arm)), w, alpha, r * axes};
  }
};

// Body 3-1-3 angles (ψ, θ, φ) of a rotation matrix away from θ = 0 and π.
Vec3 euler313(const Mat3& r) {
  return {std::atan2(r(0, 2), -r(1, 2)), std::acos(r(2, 2)), std::atan2(r(2, 0), r(2, 1))};
}

class SliderCrankRequests : public ::testing::Test {
 protected:
  // A run per test (ctest runs each test in a process of its own, in parallel: a run shared through one folder
  // would be deleted under another test's feet); runModel names the folder after the test.
  void SetUp() override {
    const std::string dir = runModel("slider_crank_motor");
    bodies_.emplace(dir + "/bodies.csv");
    requests_.emplace(dir + "/requests.csv");
    joints_.emplace(dir + "/joints.csv");
  }

  // The rows of request `id`, and for each the row of body `body` at the same time.
  std::vector<std::pair<size_t, size_t>> rowsOf(long id, long body) const {
    std::map<double, size_t> bodyRows;
    for (const size_t row : bodies_->rowsOfBody(body)) bodyRows[bodies_->at(row, "time")] = row;
    std::vector<std::pair<size_t, size_t>> rows;
    for (const size_t row : requests_->rowsOfBody(id)) rows.emplace_back(row, bodyRows.at(requests_->at(row, "time")));
    return rows;
  }
  std::array<double, 8> values(size_t row) const {
    std::array<double, 8> f;
    for (size_t k = 0; k < 8; ++k) f[k] = requests_->at(row, "f" + std::to_string(k + 1));
    return f;
  }

  std::optional<ResultsTable> bodies_, requests_, joints_;

  // The deck's markers 20 (crank CG), 22 (crank pin) and 32 (rod small end: x along the rod, z across it in the
  // plane of motion).
  const MarkerOnBody crankAxes{2, Vec3::Zero()};
  const MarkerOnBody crankPin{2, Vec3(0.05, 0, 0)};
  const MarkerOnBody smallEnd{3, Vec3(0.15, 0, 0), (Mat3() << 1, 0, 0, 0, 0, 1, 0, -1, 0).finished()};
};

// A vector and its magnitude in F1..F4 (or F5..F8), within `tolerance`.
void expectRequestVector(const std::array<double, 8>& f, size_t first, const Vec3& expected, double tolerance,
                  const std::string& what) {
  EXPECT_NEAR(f[first], expected.norm(), tolerance) << what << " magnitude";
  for (size_t k = 0; k < 3; ++k) EXPECT_NEAR(f[first + 1 + k], expected(k), tolerance) << what << " component " << k;
}

// Every quantity within round-off of the same one computed from bodies.csv: the request reads the state and y' the
// body rows are written from. Fails when: a component is resolved in the wrong axes (ground instead of RM), J's
// motion is not subtracted, the rows are shifted (F1 the x component), or ψ θ φ are of J relative to I.
TEST_F(SliderCrankRequests, MarkerRequestsAreTheMarkersMotionFromBodiesCsv) {
  const auto displacement = rowsOf(101, 2), velocity = rowsOf(102, 2), acceleration = rowsOf(103, 2);
  ASSERT_EQ(displacement.size(), 101u);
  ASSERT_EQ(velocity.size(), 101u);
  ASSERT_EQ(acceleration.size(), 101u);
  const auto bodyRowAt = [&](long body, size_t crankRow) {
    for (const size_t row : bodies_->rowsOfBody(body)) {
      if (bodies_->at(row, "time") == bodies_->at(crankRow, "time")) return row;
    }
    return size_t{0};
  };
  for (size_t k = 0; k < displacement.size(); ++k) {
    const size_t crankRow = displacement[k].second, rodRow = bodyRowAt(3, crankRow);
    const auto i = smallEnd.at(*bodies_, rodRow), j = crankPin.at(*bodies_, crankRow);
    const Mat3 rm = crankAxes.at(*bodies_, crankRow).rotation;
    const std::string at = " at t=" + std::to_string(bodies_->at(crankRow, "time"));

    const std::array<double, 8> d = values(displacement[k].first);
    expectRequestVector(d, 0, rm.transpose() * (i.position - j.position), 1e-13, "displacement" + at);
    EXPECT_EQ(d[4], 0) << "F5 of a displacement is unused";
    const Vec3 angles = euler313(j.rotation.transpose() * i.rotation);
    for (size_t c = 0; c < 3; ++c) {
      EXPECT_NEAR(std::remainder(d[5 + c] - angles(c), 2 * M_PI), 0, 1e-12) << "3-1-3 angle " << c << at;
    }

    const std::array<double, 8> v = values(velocity[k].first);
    expectRequestVector(v, 0, rm.transpose() * (i.velocity - j.velocity), 1e-12, "velocity" + at);
    expectRequestVector(v, 4, rm.transpose() * (i.angularVelocity - j.angularVelocity), 1e-12, "angular velocity" + at);

    const std::array<double, 8> a = values(acceleration[k].first);
    expectRequestVector(a, 0, rm.transpose() * (i.acceleration - j.acceleration), 1e-11, "acceleration" + at);
    expectRequestVector(a, 4, rm.transpose() * (i.angularAcceleration - j.angularAcceleration), 1e-10,
                 "angular acceleration" + at);
  }
  // Not a trivial motion: the small end swings about the pin, and its angles move (ψ follows the rod's angle
  // relative to the crank; θ = 90° since the marker's z lies in the plane of the crank's x-y).
  EXPECT_NEAR(values(displacement[0].first)[6], M_PI / 2, 1e-12);
  EXPECT_GT(std::fabs(values(velocity[30].first)[0]), 0.1);
}

// The gas force is 50 N along ground −x on the slider, from the cylinder head at x = 1: in the guide's axes (its z
// is ground x) the request gives F4 = −50; on the head (I and J the other way round) +50 along ground x; no torque
// about either marker, which lie on its line. Fails when: the request sums the wrong side of the element, leaves
// the components in ground, or takes the torque about another point.
TEST_F(SliderCrankRequests, MarkerForceIsTheGasForceOnEitherSide) {
  const auto onSlider = rowsOf(104, 4), onHead = rowsOf(105, 4);
  ASSERT_EQ(onSlider.size(), 101u);
  ASSERT_EQ(onHead.size(), 101u);
  for (size_t k = 0; k < onSlider.size(); ++k) {
    const std::array<double, 8> slider = values(onSlider[k].first), head = values(onHead[k].first);
    expectRequestVector(slider, 0, Vec3(0, 0, -50), 1e-12, "gas force on the slider, guide axes");
    expectRequestVector(head, 0, Vec3(50, 0, 0), 1e-12, "gas force on the head, ground axes");
    expectRequestVector(slider, 4, Vec3::Zero(), 1e-12, "torque on the slider");
    expectRequestVector(head, 4, Vec3::Zero(), 1e-12, "torque on the head");
  }
}

// Between markers 21 and 10 act the main bearing (Constraint_Joint 1) and the motor (Motion_Joint 5) on the same
// markers: the request is the sum of their rows in joints.csv, whose motor torque is checked against the
// slider-crank's dynamics in example_decks_test. Fails when the motion is left out of the sum.
TEST_F(SliderCrankRequests, MarkerForceSumsTheJointAndTheMotionBetweenItsMarkers) {
  const auto bearing = rowsOf(106, 2);
  const std::vector<size_t> joint = joints_->rowsOf(1, "Constraint_Joint"), motor = joints_->rowsOf(5, "Motion_Joint");
  ASSERT_EQ(bearing.size(), 101u);
  ASSERT_EQ(joint.size(), bearing.size());
  ASSERT_EQ(motor.size(), bearing.size());
  double largestMotorTorque = 0;
  for (size_t k = 0; k < bearing.size(); ++k) {
    const std::array<double, 8> f = values(bearing[k].first);
    const Vec3 force = joints_->vector3(joint[k], "fx", "fy", "fz") + joints_->vector3(motor[k], "fx", "fy", "fz");
    const Vec3 torque = joints_->vector3(joint[k], "tx", "ty", "tz") + joints_->vector3(motor[k], "tx", "ty", "tz");
    expectRequestVector(f, 0, force, 1e-12 * force.norm(), "bearing force");
    expectRequestVector(f, 4, torque, 1e-12 * torque.norm(), "bearing torque");
    largestMotorTorque = std::max(largestMotorTorque, std::fabs(joints_->at(motor[k], "tz")));
  }
  EXPECT_GT(largestMotorTorque, 5) << "the motor torque is in the sum";
}

// expr2..expr4 and expr6..expr8: the slider's x, vx, ax, the crank's ωz, its angular acceleration and its angle
// in degrees, from bodies.csv; expr1 and expr5 are NULL and written 0.
TEST_F(SliderCrankRequests, ExpressionRequestWritesEachExpression) {
  const auto slider = rowsOf(107, 4), crank = rowsOf(107, 2);
  ASSERT_EQ(slider.size(), 101u);
  for (size_t k = 0; k < slider.size(); ++k) {
    const std::array<double, 8> f = values(slider[k].first);
    const size_t s = slider[k].second, c = crank[k].second;
    EXPECT_EQ(f[0], 0);
    EXPECT_EQ(f[4], 0);
    EXPECT_EQ(f[1], bodies_->at(s, "x"));
    EXPECT_EQ(f[2], bodies_->at(s, "vx"));
    EXPECT_EQ(f[3], bodies_->at(s, "ax"));
    EXPECT_NEAR(f[5], bodies_->at(c, "wz"), 1e-15);
    EXPECT_NEAR(f[6], bodies_->at(c, "wdz"), 1e-12);
    const double angle = 2 * std::atan2(bodies_->at(c, "e3"), bodies_->at(c, "e0"));
    EXPECT_NEAR(std::remainder(f[7] - angle * 180 / M_PI, 360), 0, 1e-9);
  }
}

}  // namespace
}  // namespace lodestone::testing
