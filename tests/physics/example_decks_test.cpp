// The figures the contact example decks in models/ promise in their comments, checked on their results: a user
// who runs a deck must see what its comment says.
#include <cmath>
#include <numbers>
#include <set>

#include <gtest/gtest.h>

#include "solver/driver/run.h"
#include "support/results_csv.h"

namespace lodestone::testing {
namespace {

std::string runExample(const std::string& name) {
  RunRequest request;
  request.deckPath = std::string(LODESTONE_SOURCE_DIR) + "/models/" + name + ".xml";
  request.outputDir = std::string(LODESTONE_BINARY_DIR) + "/test_output/example_" + name;
  const RunOutcome outcome = runDeck(request);
  EXPECT_EQ(outcome.status, RunStatus::Completed) << outcome.message << "\n" << outcome.diagnostics.formatAll();
  return request.outputDir;
}

TEST(ExampleDecks, NewtonsCradlePassesTheMomentumToTheLastBall) {
  const std::string dir = runExample("newtons_cradle");
  const ResultsTable bodies(dir + "/bodies.csv");
  ASSERT_GT(bodies.rowCount(), 5u);
  const size_t last = bodies.rowCount() - 5;  // the five balls' rows at the last output
  for (size_t row = last; row < bodies.rowCount(); ++row) {
    const double expected = bodies.at(row, "id") == 6 ? 0.5 : 0.0;
    EXPECT_NEAR(bodies.at(row, "vx"), expected, 1e-4) << "body " << bodies.at(row, "id");
  }
  // Five spheres listed as I and as J: ten pairs, each written once per output, never also in the other order.
  const ResultsTable contacts(dir + "/contacts.csv");
  std::set<std::pair<long, long>> pairs;
  for (size_t row = 0; row < contacts.rowCount(); ++row) {
    pairs.insert({static_cast<long>(contacts.at(row, "i_graphic")), static_cast<long>(contacts.at(row, "j_graphic"))});
  }
  EXPECT_EQ(pairs.size(), 10u);
  for (const auto& [i, j] : pairs) EXPECT_FALSE(pairs.count({j, i})) << i << " and " << j << " written both ways";
  EXPECT_EQ(contacts.rowCount() % 10, 0u);
}

TEST(ExampleDecks, BlockSlidesAtTheCoulombAcceleration) {
  const ResultsTable bodies(runExample("incline_sliding") + "/bodies.csv");
  const size_t last = bodies.rowCount() - 1;
  ASSERT_DOUBLE_EQ(bodies.at(last, "time"), 1.0);
  const double theta = std::numbers::pi / 6;
  const double a = 9.81 * (std::sin(theta) - 0.3 * std::cos(theta));
  EXPECT_NEAR(bodies.at(last, "vx"), a * std::cos(theta), 1e-3);
  EXPECT_NEAR(bodies.at(last, "vz"), -a * std::sin(theta), 1e-3);
}

TEST(ExampleDecks, BlockSticksWithFrictionCarryingTheSlope) {
  const ResultsTable contacts(runExample("incline_sticking") + "/contacts.csv");
  const size_t last = contacts.rowCount() - 1;
  EXPECT_NEAR(contacts.at(last, "ft") / contacts.at(last, "fn"), std::tan(20 * std::numbers::pi / 180), 1e-4);
  EXPECT_LT(contacts.at(last, "slip_speed"), 1e-4) << "creep stays below stiction_trans_vel";
}

TEST(ExampleDecks, MagnetsComeToRestTouchingWithoutABounce) {
  const std::string dir = runExample("dipole_magnets");
  const ResultsTable contacts(dir + "/contacts.csv");
  const ResultsTable bodies(dir + "/bodies.csv");
  bool touched = false;
  for (size_t row = 0; row < contacts.rowCount(); ++row) {
    if (contacts.at(row, "in_contact") == 1) touched = true;
    if (!touched) continue;
    EXPECT_EQ(contacts.at(row, "in_contact"), 1) << "apart again at t=" << contacts.at(row, "time");
    EXPECT_GE(contacts.at(row, "penetration_rate"), -1e-9) << "receding at t=" << contacts.at(row, "time");
  }
  ASSERT_TRUE(touched);
  const size_t last = contacts.rowCount() - 1;
  EXPECT_NEAR(contacts.at(last, "penetration"), 16.449417 / 1e5, 1e-8) << "the spring carries the magnetic force";
  const std::vector<size_t> one = bodies.rowsOfBody(2), two = bodies.rowsOfBody(3);
  EXPECT_NEAR(bodies.at(two.back(), "vx") - bodies.at(one.back(), "vx"), 0, 1e-6);
}

}  // namespace
}  // namespace lodestone::testing
