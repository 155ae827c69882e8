// The segment loop: output times (every print interval, the end always included, nothing written twice),
// segments that continue from the state reached, a model replaced between segments, and a failure that
// names the body at fault.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "solver/driver/simulation.h"

namespace lodestone {
namespace {

RigidBody fallingBody(long id, const Vector3& velocity) {
  RigidBody body;
  body.id = id;
  body.loc.file = "deck.xml";
  body.loc.line = 12;
  body.loc.element = "Body_Rigid";
  body.loc.id = id;
  body.mass = 2.0;
  body.inertia = Vector3(0.1, 0.2, 0.3).asDiagonal();
  body.velocity = velocity;
  return body;
}

Model projectileModel(double tolerance = 1e-8) {
  Model model;
  model.gravity = {0, 0, -9.81};
  model.integrator.integrTol = tolerance;
  model.bodies.push_back(fallingBody(2, {1, 0, 5}));
  return model;
}

struct Recorded {
  std::vector<double> times;
  std::vector<BodySample> samples;  // the first body at each time
};

void record(Simulation& simulation, Recorded& recorded) {
  simulation.setOutputHandler([&recorded](const OutputFrame& frame) {
    recorded.times.push_back(frame.time);
    if (!frame.bodies.empty()) recorded.samples.push_back(frame.bodies.front());
  });
}

TEST(SimulationTest, OutputsEveryPrintIntervalAndAtTheEnd) {
  Simulation simulation(projectileModel());
  Recorded recorded;
  record(simulation, recorded);
  ASSERT_TRUE(simulation.run({{}, 0.0, 1.0, 0.1}).completed);
  ASSERT_EQ(recorded.times.size(), 11u);
  for (size_t k = 0; k < recorded.times.size(); ++k) EXPECT_EQ(recorded.times[k], k == 10 ? 1.0 : 0.1 * static_cast<double>(k));
}

TEST(SimulationTest, EndTimeOffTheGridIsTheLastOutput) {
  Simulation simulation(projectileModel());
  Recorded recorded;
  record(simulation, recorded);
  ASSERT_TRUE(simulation.run({{}, 0.0, 1.05, 0.1}).completed);
  ASSERT_EQ(recorded.times.size(), 12u);
  EXPECT_EQ(recorded.times[10], 1.0);
  EXPECT_EQ(recorded.times.back(), 1.05);
  EXPECT_EQ(simulation.time(), 1.05);
}

TEST(SimulationTest, InterpolatedOutputsFollowTheParabola) {
  Simulation simulation(projectileModel());
  Recorded recorded;
  record(simulation, recorded);
  ASSERT_TRUE(simulation.run({{}, 0.0, 1.0, 0.05}).completed);
  for (size_t k = 0; k < recorded.times.size(); ++k) {
    const double t = recorded.times[k];
    const Vector3 expected(t, 0, 5 * t - 0.5 * 9.81 * t * t);
    // Tolerance 1e-6 m at integr_tol 1e-8, as for the physics test.
    EXPECT_LT((recorded.samples[k].position - expected).norm(), 1e-6) << "t=" << t;
    EXPECT_LT((recorded.samples[k].velocity - Vector3(1, 0, 5 - 9.81 * t)).norm(), 1e-6) << "t=" << t;
  }
}

TEST(SimulationTest, SegmentsContinueFromTheStateReachedWithoutRepeatingAnOutput) {
  Simulation split(projectileModel());
  Recorded recorded;
  record(split, recorded);
  ASSERT_TRUE(split.run({{}, 0.0, 0.5, 0.1}).completed);
  ASSERT_TRUE(split.run({{}, 0.5, 1.0, 0.1}).completed);
  ASSERT_EQ(recorded.times.size(), 11u);
  EXPECT_EQ(recorded.times[5], 0.5);
  EXPECT_EQ(recorded.times[6], 0.6);
  // Same answer as one segment, to well within the tolerance.
  EXPECT_NEAR(recorded.samples.back().position.z(), 5 - 0.5 * 9.81, 1e-6);
}

TEST(SimulationTest, ReplacedModelContinuesFromTheCurrentState) {
  Simulation simulation(projectileModel());
  ASSERT_TRUE(simulation.run({{}, 0.0, 0.5, 0.1}).completed);
  Model stronger = projectileModel();
  stronger.gravity = {0, 0, -20};
  std::string whyNot;
  ASSERT_TRUE(simulation.replaceModel(stronger, whyNot)) << whyNot;
  Recorded recorded;
  record(simulation, recorded);
  ASSERT_TRUE(simulation.run({{}, 0.5, 1.0, 0.1}).completed);
  // Velocity is continuous at 0.5 s, then changes at the new rate.
  const double z0 = 5 * 0.5 - 0.5 * 9.81 * 0.25, vz0 = 5 - 9.81 * 0.5;
  const BodySample& last = recorded.samples.back();
  EXPECT_NEAR(last.velocity.z(), vz0 - 20 * 0.5, 1e-6);
  EXPECT_NEAR(last.position.z(), z0 + vz0 * 0.5 - 0.5 * 20 * 0.25, 1e-6);
  EXPECT_NEAR(last.position.x(), 1.0, 1e-9);
}

TEST(SimulationTest, ReplacementMayNotChangeTheNumberOfBodies) {
  Simulation simulation(projectileModel());
  Model two = projectileModel();
  two.bodies.push_back(fallingBody(3, {0, 0, 0}));
  std::string whyNot;
  EXPECT_FALSE(simulation.replaceModel(two, whyNot));
  EXPECT_NE(whyNot.find("1 before, 2 after"), std::string::npos) << whyNot;
}

TEST(SimulationTest, FailureNamesTheBodyAtFault) {
  // Body 2 rests; body 3 tumbles fast about a non-principal axis. A tight tolerance with a large minimum step
  // leaves IDAS no way to pass the error test.
  Model model;
  model.integrator.integrTol = 1e-12;
  model.integrator.hMin = 0.05;
  model.integrator.h0Max = 0.05;
  model.bodies.push_back(fallingBody(2, {0, 0, 0}));
  RigidBody tumbling = fallingBody(3, {0, 0, 0});
  tumbling.loc.line = 30;
  tumbling.angularVelocity = {30, 40, 50};
  model.bodies.push_back(tumbling);

  Simulation simulation(std::move(model));
  Recorded recorded;
  record(simulation, recorded);
  const SegmentOutcome outcome = simulation.run({{}, 0.0, 1.0, 0.01});
  ASSERT_FALSE(outcome.completed);
  EXPECT_NE(outcome.reason.find("IDA_"), std::string::npos) << outcome.reason;
  EXPECT_NE(outcome.reason.find("Body_Rigid id=3 (deck.xml:30)"), std::string::npos) << outcome.reason;
  EXPECT_LT(outcome.time, 1.0);
  // The initial output was written before the failure.
  ASSERT_FALSE(recorded.times.empty());
  EXPECT_EQ(recorded.times.front(), 0.0);
}

TEST(SimulationTest, FailureDiagnosisUsesLocalErrorsOnceStepsWereTaken) {
  Model model;
  model.integrator.integrTol = 1e-6;
  model.bodies.push_back(fallingBody(2, {1, 0, 0}));
  RigidBody tumbling = fallingBody(3, {0, 0, 0});
  tumbling.angularVelocity = {3, 4, 5};
  model.bodies.push_back(tumbling);
  PhaseTimes times;
  MultibodySystem system(model, times);
  std::vector<double> y(static_cast<size_t>(system.layout().size()));
  system.initialState(y);
  Integrator integrator(system, model.integrator, 0.0, y, {}, times, {});
  ASSERT_NE(integrator.computeConsistentStart(1.0).status, StepStatus::Failed);
  integrator.setStopTime(1.0);
  for (int step = 0; step < 20; ++step) ASSERT_NE(integrator.step().status, StepStatus::Failed);
  // Body 2 moves uniformly (no local error); body 3's rotation carries all of it.
  const FailureReport report = integrator.diagnoseFailure(IDA_ERR_FAIL);
  EXPECT_FALSE(report.fromResidual);
  EXPECT_EQ(report.flagName, "IDA_ERR_FAIL");
  EXPECT_EQ(system.layout().bodyOfVariable(report.worstVariable), 1);
  EXPECT_GT(report.worstWeightedError, 0.0);
}

TEST(SimulationTest, NonFiniteResidualNamesTheBody) {
  Model model = projectileModel();
  RigidBody broken = fallingBody(3, {0, 0, 0});
  broken.inertia(1, 1) = std::numeric_limits<double>::quiet_NaN();
  model.bodies.push_back(broken);
  Simulation simulation(std::move(model));
  const SegmentOutcome outcome = simulation.run({{}, 0.0, 1.0, 0.1});
  ASSERT_FALSE(outcome.completed);
  EXPECT_NE(outcome.reason.find("Body_Rigid id=3 (deck.xml:12)"), std::string::npos) << outcome.reason;
}

TEST(SimulationTest, ProgressReportsTimesWithinTheSegmentInOrder) {
  SimulationOptions options;
  options.progressCallInterval = 0;  // every step, so the test sees calls without depending on the clock
  Simulation simulation(projectileModel(), options);
  std::vector<double> reported;
  simulation.setProgressHandler([&](double time, double start, double end) {
    EXPECT_EQ(start, 0.5);
    EXPECT_EQ(end, 1.5);
    reported.push_back(time);
  });
  ASSERT_TRUE(simulation.run({{}, 0.5, 1.5, 0.1}).completed);
  ASSERT_FALSE(reported.empty());
  EXPECT_GT(reported.front(), 0.5);
  EXPECT_EQ(reported.back(), 1.5);
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
}

TEST(SimulationTest, ModelWithoutMovingBodiesStillReachesTheEnd) {
  Simulation simulation(Model{});
  Recorded recorded;
  record(simulation, recorded);
  const SegmentOutcome outcome = simulation.run({{}, 0.0, 1.0, 0.25});
  EXPECT_TRUE(outcome.completed);
  EXPECT_EQ(recorded.times.size(), 5u);
  EXPECT_EQ(simulation.time(), 1.0);
}

}  // namespace
}  // namespace lodestone
