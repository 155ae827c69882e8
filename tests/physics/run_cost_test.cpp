// The cost warning: a run whose steps stay far shorter than its motion needs says so in run.log early, naming the
// contact whose natural period 2π√(m/k) holds them short, and what would change it.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <regex>

#include <gtest/gtest.h>

#include "support/contact_runs.h"

namespace lodestone::testing {
namespace {

// models/incline_sticking.xml (a 1 kg block resting on a ramp, IMPACT with stiffness 1e7) with the stiffness
// 1e16 of issue 18: the whole second would take about a million steps. A sensor halts it at t = 0.1 s, long after
// the warning could appear and long before the million.
std::string stiffInclineDeck() {
  std::string deck = fileText(std::string(LODESTONE_SOURCE_DIR) + "/models/incline_sticking.xml");
  const size_t stiffness = deck.find("stiffness=\"1e7\"");
  EXPECT_NE(stiffness, std::string::npos);
  deck.replace(stiffness, 15, "stiffness=\"1e16\"");
  deck.insert(deck.find("  </Model>"), "    <Sensor_Event id=\"41\" type=\"EXPRESSION\" expr=\"TIME\" compare=\"GE\" "
                                       "value=\"0.1\" error_tol=\"1e-9\" halt=\"TRUE\"/>\n");
  return deck;
}

TEST(RunCost, AStiffContactThatHoldsTheStepsShortIsNamedEarly) {
  const std::string deck = stiffInclineDeck();
  const DeckRun run = runDeckText("stiff_incline", deck);
  ASSERT_TRUE(run.completed);
  const std::string log = fileText(run.output / "run.log");
  const std::regex pace(
      " WARNING: this segment has taken (\\d+) steps to t=(\\S+) \\(mean step (\\S+)\\); at this pace it needs about "
      "(\\S+) steps to t=1.000000E\\+00\\.");
  std::smatch steps;
  ASSERT_TRUE(std::regex_search(log, steps, pace)) << log;
  const double count = std::stod(steps[1]), time = std::stod(steps[2]), meanStep = std::stod(steps[3]);
  const double projected = std::stod(steps[4]);
  // Early: within the first tenth of a second and a few per cent of the million steps the run would take.
  EXPECT_LE(count, 65536);
  EXPECT_LT(time, 0.1);
  EXPECT_NEAR(meanStep, time / count, 1e-3 * meanStep);
  EXPECT_NEAR(projected, 1.0 / meanStep, 1e-2 * projected);
  EXPECT_GE(projected, 2e5);

  const std::string element =
      "Force_Contact id=300 (" + scratchFile("stiff_incline.xml").string() + ":" +
      std::to_string(lineOf(deck, "<Force_Contact")) + ":5)";
  const std::regex culprit(" WARNING: " + std::regex_replace(element, std::regex("[.()]"), "\\$&") +
                           " sets the pace: its contact stiffness dFn/dpenetration = (\\S+) with mass (\\S+) vibrates "
                           "with period (\\S+) \\((\\S+) mean steps\\), and the steps must follow it\\. A lower "
                           "stiffness \\(100 times lower makes the period 10 times longer\\) or more damping would "
                           "let them grow \\(not repeated in this segment\\)\\.");
  std::smatch named;
  ASSERT_TRUE(std::regex_search(log, named, culprit)) << log;
  const double stiffness = std::stod(named[1]), mass = std::stod(named[2]), period = std::stod(named[3]);
  EXPECT_EQ(mass, 1.0) << "the block against ground: its own mass";
  // The natural period of the block on the contact's tangent stiffness, to the four digits printed.
  EXPECT_NEAR(period, 2 * std::numbers::pi * std::sqrt(mass / stiffness), 2e-3 * period);
  EXPECT_NEAR(std::stod(named[4]), period / meanStep, 2e-2 * period / meanStep);
  // Once per segment.
  EXPECT_EQ(log.find("sets the pace", log.find("sets the pace") + 1), std::string::npos);
}

}  // namespace
}  // namespace lodestone::testing
