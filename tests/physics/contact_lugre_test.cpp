// LuGre friction (the named law of models/usersub/lugre_friction.c) through the whole pipeline: its bristle state
// rides along the integration, so a sliding block stops where Coulomb's law says, a block sliding down an incline
// accelerates at g(sin θ − μc cos θ), and a block held on an incline does not creep — which a regularised Coulomb
// law cannot do.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "plugins/named_laws.h"
#include "support/contact_runs.h"
#include "support/incline_decks.h"

namespace lodestone::testing {
namespace {


void loadLugre() {
  const LawLibraryProblems problems = loadLawLibraries(std::string(LODESTONE_BINARY_DIR) + "/lib/lugre_friction.so");
  ASSERT_TRUE(problems.errors.empty()) << problems.errors.front();
}

std::string lugre(double sigma1, double muStatic = 0.4, double muDynamic = 0.3) {
  return "cff_type=\"LUGRE\" mu_static=\"" + formatReal(muStatic) + "\" mu_dynamic=\"" + formatReal(muDynamic) +
         "\" stribeck_vel=\"1e-3\" bristle_stiffness=\"1e5\" bristle_damping=\"" + formatReal(sigma1) + "\"";
}

// A block on an incline of `degrees` (support/incline_decks.h), its centre `height` above the face, moving downhill
// at `speed`.
std::string lugreBlock(double degrees, double height, double speed, const std::string& friction, double endTime) {
  return inclineDeck(degrees, inclineBlock(height, speed, degrees), kInclineImpact + friction, endTime);
}

// 1 m/s on a level plane, μc = 0.3: decelerates at μc·g and stops after v0²/(2·μc·g) = 0.16989 m. σ1 = 2 s/m keeps
// the bristle damping's impulse at the start of sliding (σ1·μc·g/σ0 = 6e-5 m/s) negligible. The block starts 98.7 µm
// deep (its weight on its face patch under IMPACT), so it slides from t = 0 without landing.
TEST(ContactLugre, SlidingBlockStopsAtTheCoulombDistance) {
  loadLugre();
  const ContactRun run = runContactDeck("lugre_slide", lugreBlock(0, 0.05 - inclineRestDepth(0), 1.0, lugre(2), 0.5));
  ASSERT_TRUE(run.completed);
  const double deceleration = -accelerationAlongSlope(run.bodies, 0, 0.05, 0.25);
  EXPECT_NEAR(deceleration, 0.3 * kG, 1e-3 * 0.3 * kG);
  const double expected = 1.0 / (2 * 0.3 * kG);
  const double stopped = alongSlope(run.bodies, 0.5, 0, "x", "z") - alongSlope(run.bodies, 0, 0, "x", "z");
  EXPECT_NEAR(stopped, expected, 5e-4 * expected);
  EXPECT_LT(std::fabs(alongSlope(run.bodies, 0.5, 0, "vx", "vz")), 1e-6) << "at rest";
  RecordProperty("stop_distance_relative_error", sci(stopped / expected - 1));
}

// 30°, μs = 0.4 < tan 30°: slides with a = g(sin θ − μc·cos θ) = 2.357 m/s² once the slip is far above the Stribeck
// velocity; the slope of the downhill velocity between 0.2 s and 0.5 s within 1 %.
TEST(ContactLugre, BlockSlidesDownAThirtyDegreeInclineAtTheCoulombAcceleration) {
  loadLugre();
  const ContactRun run = runContactDeck("lugre_slide30", lugreBlock(30, 0.05001, 0, lugre(200), 0.5));
  ASSERT_TRUE(run.completed);
  const double theta = M_PI / 6;
  const double expected = kG * (std::sin(theta) - 0.3 * std::cos(theta));
  const double measured = accelerationAlongSlope(run.bodies, 30, 0.2, 0.5);
  EXPECT_NEAR(measured, expected, 0.01 * expected);
  RecordProperty("acceleration_relative_error", sci(measured / expected - 1));
}

// 20°, μs = 0.5, μc = 0.4, both above tan 20° = 0.364: held. Once the bristles carry the slope's pull (σ0·z = tan θ)
// the block stays: between 0.2 s and 1 s it moves less than 1 nm, and ft/fn = tan θ within 1e-4. The same block with
// COULOMB_ON (vs = 1e-3 m/s; μ(v) = tan θ at v = 0.54·vs) creeps at about 0.54 mm/s: more than 0.1 mm in that time.
// (With μc below tan θ a suddenly loaded LuGre contact can break away: the slip needed to deflect the bristles
// carries it past the Stribeck velocity, where μ has fallen to μc.)
TEST(ContactLugre, HeldBlockDoesNotCreepWhereRegularisedCoulombFrictionDoes) {
  loadLugre();
  const double height = 0.05 - inclineRestDepth(20);
  const ContactRun held = runContactDeck("lugre_hold20", lugreBlock(20, height, 0, lugre(200, 0.5, 0.4), 1.0));
  ASSERT_TRUE(held.completed);
  const double drift = alongSlope(held.bodies, 1.0, 20, "x", "z") - alongSlope(held.bodies, 0.2, 20, "x", "z");
  EXPECT_LT(std::fabs(drift), 1e-9);
  const size_t last = held.contacts.rowCount() - 1;
  EXPECT_NEAR(held.contacts.at(last, "ft") / held.contacts.at(last, "fn"), std::tan(20 * M_PI / 180), 1e-4);
  RecordProperty("lugre_drift_m", sci(drift));

  const ContactRun creeping = runContactDeck(
      "coulomb_hold20", lugreBlock(20, height, 0,
                                  "cff_type=\"COULOMB_ON\" mu_static=\"0.5\" mu_dynamic=\"0.4\" "
                                  "stiction_trans_vel=\"1e-3\" friction_trans_vel=\"2e-3\"",
                                  1.0));
  ASSERT_TRUE(creeping.completed);
  const double creep = alongSlope(creeping.bodies, 1.0, 20, "x", "z") - alongSlope(creeping.bodies, 0.2, 20, "x", "z");
  EXPECT_GT(creep, 1e-4);
  RecordProperty("coulomb_on_creep_m", sci(creep));
}

}  // namespace
}  // namespace lodestone::testing
