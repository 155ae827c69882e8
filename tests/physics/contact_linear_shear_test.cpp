// LINEAR_SHEAR (PFC's linear model's shear part: a shear spring ks with a Coulomb slip limit fric·Fn) through the
// whole pipeline, on the 1 kg block of support/incline_decks.h: a held block does not creep at all, slip starts where
// tan θ = fric, a sliding block feels exactly fric·Fn, and the spring's held energy, the slip's and the dashpot's
// dissipation close the run's energy balance.
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/incline_decks.h"

namespace lodestone::testing {
namespace {


std::string linearShear(double fric, double dampingRatio = 0, int dashpotMode = 0, double ks = 1e5) {
  return "cff_type=\"LINEAR_SHEAR\" ks=\"" + formatReal(ks) + "\" fric=\"" + formatReal(fric) + "\" dp_sratio=\"" +
         formatReal(dampingRatio) + "\" dp_mode=\"" + std::to_string(dashpotMode) + "\"";
}

// The block resting on an incline of `degrees` (already pressed in by its weight), moving downhill at `speed`.
std::string blockDeck(double degrees, double speed, const std::string& friction, double endTime) {
  return inclineDeck(degrees, inclineBlock(0.05 - inclineRestDepth(degrees), speed, degrees),
                     kInclineImpact + friction, endTime);
}


// events.csv without its contact_activated rows (the block's contact begins at t = 0, PFC's contact_activated),
// which each run here has exactly one of: the slip changes, as row numbers.
std::vector<size_t> slipChanges(const ResultsTable& events) {
  std::vector<size_t> rows;
  int activations = 0;
  for (size_t row = 0; row < events.rowCount(); ++row) {
    if (events.text(row, "action") == "contact_activated") {
      EXPECT_EQ(events.at(row, "time"), 0) << "the block touches from the start";
      ++activations;
    } else {
      rows.push_back(row);
    }
  }
  EXPECT_EQ(activations, 1);
  return rows;
}

// 25°, fric 0.6 > tan 25° = 0.466: the spring takes the slope's pull m·g·sin θ = 4.15 N within a few milliseconds
// (ks = 1e5 N/m, damped at half its critical ratio) and then holds: from 0.5 s to 10.5 s the block moves less than
// 1 nm along the slope. COULOMB_ON with μs = 0.6 (vs = 1e-3 m/s) on the same block creeps: more than 10 µm in 0.5 s.
TEST(ContactLinearShear, BlockOnATwentyFiveDegreeInclineHoldsWithoutCreep) {
  const ContactRun held = runContactDeck("shear_hold25", blockDeck(25, 0, linearShear(0.6, 0.5), 10.5));
  ASSERT_TRUE(held.completed);
  const double drift = alongSlope(held.bodies, 10.5, 25, "x", "z") - alongSlope(held.bodies, 0.5, 25, "x", "z");
  EXPECT_LT(std::fabs(drift), 1e-9);
  const size_t last = held.contacts.rowCount() - 1;
  EXPECT_NEAR(held.contacts.at(last, "ft") / held.contacts.at(last, "fn"), std::tan(25 * M_PI / 180), 1e-6);
  RecordProperty("linear_shear_drift_10s_m", sci(drift));

  const ContactRun creeping = runContactDeck(
      "shear_coulomb_hold25", blockDeck(25, 0,
                                        "cff_type=\"COULOMB_ON\" mu_static=\"0.6\" mu_dynamic=\"0.5\" "
                                        "stiction_trans_vel=\"1e-3\" friction_trans_vel=\"2e-3\"",
                                        1.0));
  ASSERT_TRUE(creeping.completed);
  const double creep = alongSlope(creeping.bodies, 1.0, 25, "x", "z") - alongSlope(creeping.bodies, 0.5, 25, "x", "z");
  EXPECT_GT(creep, 1e-5);
  RecordProperty("coulomb_on_creep_0_5s_m", sci(creep));
}

// PFC's linear dipole model whole: DIPOLE's normal spring kn with its dashpot and magnets (a 1 A·m² dipole in the
// block, another at the incline box's centre), and LINEAR_SHEAR's shear spring with its slip limit. On the same 25°
// incline the block takes the slope's pull and holds: from 0.5 s to 10.5 s it moves less than 1 nm along the slope,
// the friction force balancing the pull and no more (ft/fn = tan 25° within 1e-6).
TEST(ContactLinearShear, ThePfcLinearDipoleModelHoldsTheBlockWithoutCreep) {
  const double kn = 1e6, degrees = 25;
  const double restDepth = kG * std::cos(degrees * M_PI / 180) / kn;  // the magnets' pull, 7e-6 N, aside
  const std::string dipole = "cnf_type=\"DIPOLE\" kn=\"" + formatReal(kn) +
                             "\" dp_nratio=\"0.5\" dipole_mo1=\"0 0 1\" dipole_mo2=\"0 0 1\" dipole_cap=\"0.01\" "
                             "dipole_d=\"0.01\" ";
  const ContactRun held = runContactDeck(
      "shear_dipole_hold25", inclineDeck(degrees, inclineBlock(0.05 - restDepth, 0, degrees),
                                         dipole + linearShear(0.6, 0.5), 10.5));
  ASSERT_TRUE(held.completed);
  const double drift =
      alongSlope(held.bodies, 10.5, degrees, "x", "z") - alongSlope(held.bodies, 0.5, degrees, "x", "z");
  EXPECT_LT(std::fabs(drift), 1e-9);
  const size_t last = held.contacts.rowCount() - 1;
  EXPECT_NEAR(held.contacts.at(last, "ft") / held.contacts.at(last, "fn"), std::tan(degrees * M_PI / 180), 1e-6);
  RecordProperty("dipole_linear_shear_drift_10s_m", sci(drift));
}

// Slip starts where the tangential load reaches fric·Fn, within 0.1 %: the block on a level face (fric 0.5, Fn =
// m·g) pushed along x at its centre by a force that rises smoothly over 1 s (STEP) to 0.999·fric·m·g holds (it moves
// less than 1 nm from 1.5 s to 3 s); to 1.001·fric·m·g it slides, accelerating from 1.5 s to 3 s at
// (F − fric·m·g)/m = 4.9 mm/s² within 1 %. The dashpot is cut while slipping (dp_mode 2), so the friction is the slip
// limit alone. events.csv says when the face patch as a whole began to slip (slip_change 0): never while held, and
// once sliding, when the rising load F(t) = F·STEP(t, 0, 0, 1, 1) stood at fric·m·g within 0.1 % (measured
// 1.00024). (The load rises slowly: put on at once, as tilting the incline to 0.999·fric would, it rocks the block
// on its face, the edge that lifts has its limit fall below its spring's force and the block slips, 0.6 mm at
// tan θ = 0.999·fric with dp_sratio 1, before it holds.)
TEST(ContactLinearShear, SlipStartsWhereTheLoadReachesFricTimesTheNormalForce) {
  const double fric = 0.5, limit = fric * kG;
  const auto pushed = [&](const std::string& name, double force) {
    const std::string push = "\n<Force_Vector_OneBody id=\"8\" type=\"ForceOnly\" marker_id=\"20\" fx_expression=\"" +
                             formatReal(force) + "*STEP(TIME, 0, 0, 1, 1)\" fy_expression=\"0\" fz_expression=\"0\"/>";
    return runContactDeck(name, inclineDeck(0, inclineBlock(0.05 - inclineRestDepth(0)) + push,
                                            kInclineImpact + linearShear(fric, 0.5, 2), 3.0));
  };
  const ContactRun held = pushed("shear_onset_below", limit * (1 - 1e-3));
  ASSERT_TRUE(held.completed);
  const double drift = alongSlope(held.bodies, 3.0, 0, "x", "z") - alongSlope(held.bodies, 1.5, 0, "x", "z");
  EXPECT_LT(std::fabs(drift), 1e-9);
  RecordProperty("drift_below_m", sci(drift));
  EXPECT_EQ(slipChanges(ResultsTable((resultsFolderOf("shear_onset_below") / "events.csv").string())).size(), 0u);

  const ContactRun sliding = pushed("shear_onset_above", limit * (1 + 1e-3));
  ASSERT_TRUE(sliding.completed);
  const double expected = limit * 1e-3;
  const double measured = accelerationAlongSlope(sliding.bodies, 0, 1.5, 3.0);
  EXPECT_NEAR(measured, expected, 0.01 * expected);
  RecordProperty("acceleration_above_relative_error", sci(measured / expected - 1));
  const ResultsTable events((resultsFolderOf("shear_onset_above") / "events.csv").string());
  const std::vector<size_t> slips = slipChanges(events);
  ASSERT_EQ(slips.size(), 1u);
  EXPECT_EQ(events.text(slips[0], "action"), "slip_change");
  EXPECT_EQ(events.at(slips[0], "id"), 300);
  EXPECT_EQ(events.at(slips[0], "value"), 0) << "slip began";
  const double t = events.at(slips[0], "time");
  const double load = (1 + 1e-3) * t * t * (3 - 2 * t);  // over fric·m·g: STEP's cubic, t < 1
  EXPECT_NEAR(load, 1, 1e-3);
  RecordProperty("load_over_limit_at_slip_onset", sci(load));
}

// Sliding, the friction is exactly fric·Fn: the block launched downhill at 1 m/s on 10° with fric 0.5 decelerates at
// g·(fric·cos θ − sin θ) = 3.127 m/s² (measured between 0.05 s and 0.25 s, before it stops at 0.32 s) within 1e-4.
TEST(ContactLinearShear, SlidingBlockDeceleratesAtTheCoulombRate) {
  const double fric = 0.5;
  const ContactRun run = runContactDeck("shear_slide10", blockDeck(10, 1.0, linearShear(fric, 0.3, 3), 0.3));
  ASSERT_TRUE(run.completed);
  const double theta = 10 * M_PI / 180;
  const double expected = kG * (fric * std::cos(theta) - std::sin(theta));
  const double measured = -accelerationAlongSlope(run.bodies, 10, 0.05, 0.25);
  EXPECT_NEAR(measured, expected, 1e-4 * expected);
  RecordProperty("deceleration_relative_error", sci(measured / expected - 1));
}

// The block launched downhill at 1 m/s on 25° with fric 0.6 slides 0.42 m, stops after 0.84 s and is held, its
// spring then carrying m·g·sin θ = 4.146 N and holding ½F²/ks = 8.59e-5 J (a patch's points share the force as they
// share ks: their energies add up to ½F²/ks). The shear dashpot (dp_sratio 0.3, dp_mode 2) damps the spring once it
// sticks. energy.csv: strain_contact holds the spring's energy besides the normal law's (the same slide under
// COULOMB_ON, held at the same friction force, stores the same normal energy: the difference is ½F²/ks within 5 %),
// dashpot_contact has the shear dashpot's part, and the balance closes with every leftover below 1e-4 J, within 3×
// COULOMB_ON's on the same slide. (Measured: 9.1e-5 J and 4.2e-5 J, of the 2.2 J the slide dissipates.) events.csv:
// slip began at once (slip_change 0 within 1 ms) and ended as the block stopped, 0.833 s: within 0.02 s of
// v0/(g·(fric·cos θ − sin θ)) = 0.841 s (sticking for its first 72 µs, the dashpot took 0.013 N·s off the block).
TEST(ContactLinearShear, SpringSlipAndDashpotEnergiesCloseTheBalance) {
  const double ks = 1e5;
  const auto slide = [](const std::string& name, const std::string& friction) {
    const DeckRun run = runDeckText(name, blockDeck(25, 1.0, friction, 1.5));
    return std::pair{run.completed, run.output};
  };
  const auto [completed, output] = slide("shear_energy25", linearShear(0.6, 0.3, 2, ks));
  ASSERT_TRUE(completed);
  const auto [coulombCompleted, coulombOutput] =
      slide("shear_energy25_coulomb", "cff_type=\"COULOMB_ON\" mu_static=\"0.6\" mu_dynamic=\"0.6\" "
                                      "stiction_trans_vel=\"1e-3\" friction_trans_vel=\"2e-3\"");
  ASSERT_TRUE(coulombCompleted);
  const ResultsTable energy((output / "energy.csv").string());
  const ResultsTable coulomb((coulombOutput / "energy.csv").string());
  const ResultsTable contacts((output / "contacts.csv").string());
  const double pull = contacts.at(contacts.rowCount() - 1, "ft");
  EXPECT_NEAR(pull, kG * std::sin(25 * M_PI / 180), 1e-6);
  const double held = 0.5 * pull * pull / ks;
  const size_t last = energy.rowCount() - 1;
  const double spring = energy.at(last, "strain_contact") - coulomb.at(coulomb.rowCount() - 1, "strain_contact");
  EXPECT_NEAR(spring, held, 0.05 * held);
  const auto worstLeftover = [](const ResultsTable& table) {
    double worst = 0;
    for (size_t row = 0; row < table.rowCount(); ++row) worst = std::max(worst, std::fabs(table.at(row, "leftover")));
    return worst;
  };
  const double worst = worstLeftover(energy), coulombWorst = worstLeftover(coulomb);
  EXPECT_LT(worst, 1e-4);
  EXPECT_LT(worst, 3 * coulombWorst);
  EXPECT_GT(energy.at(last, "slip_contact"), 2.0);
  EXPECT_GT(energy.at(last, "dashpot_contact"), 10 * coulomb.at(coulomb.rowCount() - 1, "dashpot_contact"))
      << "the shear dashpot's part";
  RecordProperty("largest_leftover_J", sci(worst));
  RecordProperty("coulomb_on_largest_leftover_J", sci(coulombWorst));
  RecordProperty("spring_energy_relative_error", sci(spring / held - 1));
  RecordProperty("slip_J", sci(energy.at(last, "slip_contact")));
  RecordProperty("dashpot_J", sci(energy.at(last, "dashpot_contact")));
  const ResultsTable events((output / "events.csv").string());
  const std::vector<size_t> slips = slipChanges(events);
  ASSERT_EQ(slips.size(), 2u);
  EXPECT_EQ(events.at(slips[0], "value"), 0) << "slip began";
  EXPECT_LT(events.at(slips[0], "time"), 1e-3);
  EXPECT_EQ(events.at(slips[1], "value"), 1) << "slip ended";
  const double stop = 1.0 / (kG * (0.6 * std::cos(25 * M_PI / 180) - std::sin(25 * M_PI / 180)));
  EXPECT_NEAR(events.at(slips[1], "time"), stop, 0.02);
  RecordProperty("slip_ended_s", sci(events.at(slips[1], "time")));
}

}  // namespace
}  // namespace lodestone::testing
