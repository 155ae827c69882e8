// The integrator's step limits as the contact guard relies on them: IDAS (SUNDIALS 6.4) chooses each step's size at
// the end of the step before and applies h_max only when it changes the size, so a new h_max acts late;
// limitNextStep cuts the very next step, and nextStepBound is never shorter than the step IDAS then takes.
#include <gtest/gtest.h>

#include "solver/driver/integrator.h"

namespace lodestone {
namespace {

// A body tumbling under gravity: its rotation carries a local error, so IDAS's steps grow and settle.
Model tumblingModel() {
  Model model;
  model.gravity = {0, 0, -9.81};
  model.integrator.integrTol = 1e-6;
  RigidBody body;
  body.id = 2;
  body.mass = 2.0;
  body.inertia = Vector3(0.1, 0.2, 0.3).asDiagonal();
  body.angularVelocity = {3, 4, 5};
  model.bodies.push_back(body);
  return model;
}

class IntegratorStepLimits : public ::testing::Test {
 protected:
  IntegratorStepLimits() : system(model, times), y(static_cast<size_t>(system.layout().size())) {
    system.initialState(y);
    integrator = std::make_unique<Integrator>(system, model.integrator, 0.0, y, IntegratorOptions{}, times,
                                              Integrator::MessageHandler{});
    EXPECT_NE(integrator->computeConsistentStart(1.0).status, StepStatus::Failed);
    integrator->setStopTime(1.0);
  }
  // One step; the size IDAS took.
  double step() {
    const double before = integrator->time();
    const StepResult result = integrator->step();
    EXPECT_EQ(result.status, StepStatus::Stepped);
    return result.time - before;
  }

  Model model = tumblingModel();
  PhaseTimes times;
  MultibodySystem system;
  std::vector<double> y;
  std::unique_ptr<Integrator> integrator;
};

TEST_F(IntegratorStepLimits, TheFirstStepIsWithinItsBound) {
  // No h0_max: IDAS's first guess is a thousandth of the way to the stop time, which its error estimate only shrinks.
  EXPECT_DOUBLE_EQ(integrator->nextStepBound(), 1e-3);
  EXPECT_LE(step(), 1e-3 * (1 + 1e-12));
}

TEST_F(IntegratorStepLimits, AnHMaxActsLateWhileLimitNextStepActsAtOnce) {
  for (int k = 0; k < 30; ++k) step();
  // The bound is the step IDAS has chosen, and IDAS takes it.
  const double chosen = integrator->nextStepBound();
  EXPECT_NEAR(step(), chosen, 1e-12 * chosen);
  // A new h_max: the next step keeps the size already chosen, and so does the one after (IDAS applies h_max when it
  // changes the step size, not to a size it keeps). This is why the guard cuts steps with a stop time.
  const double late = integrator->nextStepBound();
  integrator->setMaxStep(late / 10);
  EXPECT_NEAR(step(), late, 1e-12 * late);
  EXPECT_GT(step(), late / 10);
  integrator->setMaxStep(0);
  for (int k = 0; k < 10; ++k) step();
  // limitNextStep: the very next step ends there, and the run goes on (not reported as the stop time).
  const double limit = integrator->nextStepBound() / 7;
  integrator->limitNextStep(limit);
  EXPECT_NEAR(step(), limit, 1e-9 * limit);
  integrator->limitNextStep(std::numeric_limits<double>::infinity());
  EXPECT_GT(step(), 0.0);
  // Up to the real stop time, reported as such.
  StepResult result;
  do result = integrator->step();
  while (result.status == StepStatus::Stepped);
  EXPECT_EQ(result.status, StepStatus::ReachedStopTime);
  EXPECT_DOUBLE_EQ(result.time, 1.0);
}

// A restart at a contact event starts from a given first step (the step that crossed the event), for that restart
// alone: the bound says so and IDAS takes it (its error test passes it: a fifth of its own first guess, which passes
// too); the next restart without one starts from IDAS's own first guess again, here h·|y'| = 0.5 in the error weights
// of the tumbling body, far below.
TEST_F(IntegratorStepLimits, ARestartTakesTheFirstStepItIsGivenOnce) {
  for (int k = 0; k < 30; ++k) step();
  const double given = 0.2e-3 * (1.0 - integrator->time());
  integrator->restartAtReturnedState(integrator->time(), given);
  EXPECT_DOUBLE_EQ(integrator->nextStepBound(), given);
  EXPECT_NEAR(step(), given, 1e-12);
  for (int k = 0; k < 5; ++k) step();
  integrator->restartAtReturnedState(integrator->time());
  const double ownGuess = 1e-3 * (1.0 - integrator->time());
  EXPECT_DOUBLE_EQ(integrator->nextStepBound(), ownGuess);
  const double taken = step();
  EXPECT_LE(taken, ownGuess * (1 + 1e-12));
  EXPECT_LT(taken, 0.01 * given);
}

}  // namespace
}  // namespace lodestone
