// Deactivate and Activate of a Force_Contact between Simulates: while deactivated the contact exerts nothing (a
// ball falls through its plate as in free fall); activated again, it acts from the state reached.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"

namespace lodestone::testing {
namespace {

// The ball drop of contact_runs.h with `commands` in place of its one Simulate.
std::string activationWithCommands(const std::string& commands) {
  BallDrop drop;
  drop.law = "cnf_type=\"IMPACT\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\"";
  std::string deck = ballDropDeck(drop);
  const size_t from = deck.find("<Command>") + 9, to = deck.find("</Command>");
  return deck.replace(from, to - from, commands);
}

double heightAt(const ResultsTable& bodies, double time) {
  for (size_t row : bodies.rowsOfBody(2)) {
    if (std::fabs(bodies.at(row, "time") - time) < 1e-9) return bodies.at(row, "z");
  }
  ADD_FAILURE() << "no output at t=" << time;
  return NAN;
}

// Deactivated from the start, the ball (centre 0.1 m above the plate) falls freely: z(0.4) = 0.1 − g·0.4²/2.
TEST(ContactActivation, ADeactivatedContactExertsNothing) {
  const ContactRun run = runContactDeck(
      "deactivated", activationWithCommands("<Deactivate element_type=\"CONTACT\" element_id=\"300\"/>"
                                  "<Simulate analysis_type=\"Transient\" end_time=\"0.4\" print_interval=\"0.01\"/>"));
  ASSERT_TRUE(run.completed);
  EXPECT_NEAR(heightAt(run.bodies, 0.4), 0.1 - 0.5 * 9.81 * 0.4 * 0.4, 1e-6);
  EXPECT_TRUE(run.events.empty());
}

double speedAt(const ResultsTable& bodies, double time) {
  for (size_t row : bodies.rowsOfBody(2)) {
    if (std::fabs(bodies.at(row, "time") - time) < 1e-9) return bodies.at(row, "vz");
  }
  ADD_FAILURE() << "no output at t=" << time;
  return NAN;
}

// With contact the ball bounces and stays above the plate (z > radius − 1 mm) to 0.3 s; deactivated then, it falls
// through the plate (1 m thick) and below it by 0.8 s; activated again it is apart from the plate, so it goes on in
// free fall: z(0.9) = z(0.8) + vz(0.8)·0.1 − g·0.1²/2.
TEST(ContactActivation, DeactivatingBetweenSimulatesLetsTheBallThrough) {
  const ContactRun run = runContactDeck(
      "switched",
      activationWithCommands("<Simulate analysis_type=\"Transient\" end_time=\"0.3\" print_interval=\"0.01\"/>"
                   "<Deactivate element_type=\"CONTACT\" element_id=\"300\"/>"
                   "<Simulate analysis_type=\"Transient\" end_time=\"0.8\" print_interval=\"0.01\"/>"
                   "<Activate element_type=\"CONTACT\" element_id=\"300\"/>"
                   "<Simulate analysis_type=\"Transient\" end_time=\"0.9\" print_interval=\"0.01\"/>"));
  ASSERT_TRUE(run.completed);
  for (double t = 0; t <= 0.3 + 1e-9; t += 0.01) EXPECT_GT(heightAt(run.bodies, t), 0.029) << t;
  EXPECT_LT(heightAt(run.bodies, 0.8), -1.03) << "below the plate";
  const double expected = heightAt(run.bodies, 0.8) + speedAt(run.bodies, 0.8) * 0.1 - 0.5 * 9.81 * 0.01;
  EXPECT_NEAR(heightAt(run.bodies, 0.9), expected, 1e-6);
}

}  // namespace
}  // namespace lodestone::testing
