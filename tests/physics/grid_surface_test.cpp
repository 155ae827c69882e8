// models/ball_on_wavy_grid.xml: a ball sliding over a grid surface that samples z = a·sin(kx) follows the analytic
// surface within the spline's stated error.
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/model_runs.h"
#include "support/results_csv.h"

namespace lodestone::testing {
namespace {

// At every output the ball touches (in_contact), and its centre's distance from the analytic surface z = a·sin(kx)
// (the surface is uniform in y: the nearest point is found along x, by a fine scan refined by golden sections), less
// its radius, is minus the contact's penetration within the spline's error bound (5/384)·h⁴·a·k⁴ = 3.1 µm. A ball
// on the chords between samples (the surface as a polyline) would miss by up to h²·a·k²/8 = 19 µm; a ball that left
// the surface at a crest would report no contact.
TEST(GridSurfaceRuns, ABallSlidingOverWavesFollowsTheAnalyticSurface) {
  const std::string dir = runModel("ball_on_wavy_grid");
  if (::testing::Test::HasFailure()) return;
  const ResultsTable bodies(dir + "/bodies.csv"), contacts(dir + "/contacts.csv");
  const double a = 0.01, k = 4 * std::numbers::pi, radius = 0.05, h = 1.5 / 48;
  const double bound = 5.0 / 384 * std::pow(h, 4) * a * std::pow(k, 4);
  const auto distance = [&](double cx, double cz) {
    const auto squared = [&](double x) { return std::pow(x - cx, 2) + std::pow(a * std::sin(k * x) - cz, 2); };
    double best = cx;
    for (double x = cx - 0.06; x <= cx + 0.06; x += 1e-4) best = squared(x) < squared(best) ? x : best;
    double low = best - 1e-4, high = best + 1e-4;
    const double golden = (std::sqrt(5.0) - 1) / 2;
    while (high - low > 1e-13) {
      const double p = high - golden * (high - low), q = low + golden * (high - low);
      if (squared(p) < squared(q)) high = q;
      else low = p;
    }
    return std::sqrt(squared(0.5 * (low + high)));
  };
  const std::vector<size_t> ball = bodies.rowsOfBody(2);
  ASSERT_EQ(ball.size(), contacts.rowCount());
  double worst = 0, farthest = 0;
  for (size_t row = 0; row < ball.size(); ++row) {
    EXPECT_EQ(contacts.at(row, "in_contact"), 1) << contacts.at(row, "time");
    const double x = bodies.at(ball[row], "x"), z = bodies.at(ball[row], "z");
    EXPECT_NEAR(bodies.at(ball[row], "y"), 0, 1e-12);
    worst = std::max(worst, std::fabs(distance(x, z) - radius + contacts.at(row, "penetration")));
    farthest = std::max(farthest, x);
  }
  RecordProperty("worst_surface_error_m", sci(worst));
  RecordProperty("bound_m", sci(bound));
  EXPECT_GT(farthest, 0.9);  // over two crests
  EXPECT_LT(worst, bound);
}

}  // namespace
}  // namespace lodestone::testing
