// Mesh gears driven through contact: models/epicyclic_gears.xml (a sun driven by a Motion_Joint, three planets on
// a carrier, a fixed ring; a friction brake on the carrier) and models/spur_gear_pair.xml (a driven pinion and a
// braked gear). Once the drive is up to speed, the output turns at the tooth ratio, and the brake's load goes
// through the teeth.
//
// What fails these checks (each tried on the epicyclic deck): teeth that pass through each other (with the
// planets' nodes measured against the narrower sun, master_surface="I", they lie outside it and the carrier stays
// still: ratio 0); a mesh without contact (without the ring's, the planets spin on the pins of a carrier the brake
// holds still: carrier ratio 0, planets at −15/21 of the sun); a brake that does not load the teeth (without it the
// ratios hold but the meshes carry 3 % of the force). A tooth skipped at either mesh of a planet would move the
// carrier by 2π/(Zs + Zr) = 0.087 rad against the sun, over a third of its 0.24 rad turn in the window.
#include <cmath>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "solver/driver/run.h"
#include "support/contact_runs.h"
#include "support/model_runs.h"
#include "support/results_csv.h"
#include "support/turning.h"

namespace lodestone::testing {
namespace {

// Running: the drive's speed ramp ends at 12.5 ms; from 20 ms on the gears turn at a steady speed.
constexpr double kRunning = 0.02;

// Results of a run, column by column.
using Results = ResultsTable;

// The mean over the outputs from `from` on of the normal force element `id` exerts on the J graphics whose ids
// lie in [jFirst, jLast] (one gear's teeth), summed over the pairs at each output. (An element of more than 100
// pairs writes only the close ones: an output where none of these is close counts as no force.)
double meanNormalForce(const Results& contacts, int id, int jFirst, int jLast, double from) {
  std::map<double, double> byTime;
  for (size_t row = 0; row < contacts.rowCount(); ++row) {
    const double time = contacts.at(row, "time");
    if (static_cast<int>(contacts.at(row, "id")) != id || time < from - 1e-9) continue;
    const int j = static_cast<int>(contacts.at(row, "j_graphic"));
    byTime[time] += j >= jFirst && j <= jLast ? contacts.at(row, "fn") : 0.0;
  }
  double sum = 0;
  for (const auto& [time, force] : byTime) sum += force;
  return byTime.empty() ? 0 : sum / static_cast<double>(byTime.size());
}

// models/epicyclic_gears.xml: from 20 ms on (45 ms, two tooth-mesh periods), the carrier turns through 15/72 of
// the sun's angle within 1 % (measured: 0.03 %), its mean speed too; each planet spins at −(5/14) of the sun's
// speed within 3 % (measured: 0.03 %); and each of the six meshes pushes with the brake's load, 1.76 N along the
// normal, on average within 10 % (measured: within 1 %).
TEST(GearTrain, EpicyclicCarrierTurnsAtTheToothRatio) {
  const std::string dir = runModel("epicyclic_gears");
  const Results bodies(dir + "/bodies.csv");
  const double zs = 15, zp = 21, zr = 57;
  const double ratio = zs / (zs + zr);
  const double planetSpin = ratio - (1 - ratio) * zs / zp;  // −5/14, in ground
  const Turning sun = turning(bodies, 2, kRunning);
  const Turning carrier = turning(bodies, 3, kRunning);
  ASSERT_GT(sun.time.size(), 40u);
  // Running: the sun at its 8π rad/s, and turned, relative to the carrier, through two of its tooth pitches or
  // more, so that the means take in whole tooth engagements.
  EXPECT_NEAR(sun.meanRate(), 8 * std::numbers::pi, 1e-6);
  EXPECT_GT(sun.turned() - carrier.turned(), 2 * (2 * std::numbers::pi / zs));

  const double turnedRatio = carrier.turned() / sun.turned();
  const double speedRatio = carrier.meanRate() / sun.meanRate();
  RecordProperty("carrier_turn_over_sun_turn", sci(turnedRatio));
  RecordProperty("carrier_speed_over_sun_speed", sci(speedRatio));
  EXPECT_NEAR(turnedRatio / ratio, 1, 0.01) << turnedRatio << " against " << ratio;
  EXPECT_NEAR(speedRatio / ratio, 1, 0.01) << speedRatio << " against " << ratio;
  for (long planet = 4; planet <= 6; ++planet) {
    const Turning spin = turning(bodies, planet, kRunning);
    const double spinRatio = spin.meanRate() / sun.meanRate();
    RecordProperty("planet_" + std::to_string(planet) + "_speed_over_sun_speed", sci(spinRatio));
    EXPECT_NEAR(spinRatio / planetSpin, 1, 0.03)
        << "planet " << planet << ": " << spinRatio << " against " << planetSpin;
    // On its pin, relative to the carrier, as the ring's teeth turn it: −(Zr/Zp) · carrier.
    EXPECT_NEAR((spin.turned() - carrier.turned()) / carrier.turned() / (-zr / zp), 1, 0.03) << "planet " << planet;
  }

  // The load goes through the teeth: the brake's 2 · 0.5 · 8.94 N · 40 mm at the carrier is, at the sun, shared by
  // three planets, F = T·Zs/(Zs + Zr) / (3 · 15 mm) at the sun's pitch circle, F / cos 20° along the normal; the
  // ring pushes on each planet as hard as the sun does.
  const double brakeTorque = 2 * 0.5 * 1e8 * std::pow(2e-5, 1.5) * 0.04;
  const double normalForce = brakeTorque * ratio / (3 * 0.015) / std::cos(20 * std::numbers::pi / 180);
  const Results contacts(dir + "/contacts.csv");
  for (int planet = 4; planet <= 6; ++planet) {
    for (int element = 1; element <= 2; ++element) {
      const double force = meanNormalForce(contacts, element, planet * 1000, planet * 1000 + 999, kRunning);
      EXPECT_NEAR(force / normalForce, 1, 0.1)
          << (element == 1 ? "sun" : "ring") << " on planet " << planet - 3 << ": " << force << " N against "
          << normalForce << " N";
    }
  }
}

// models/spur_gear_pair.xml: from 20 ms on (180 ms, eleven tooth-mesh periods), the gear turns through −15/21 of
// the pinion's angle within 1 % (measured: 0.01 %), its mean speed too, and the teeth push with the brake's
// load, 1.92 N along the normal, on average within 10 % (measured: 2 %).
TEST(GearTrain, SpurPairTurnsAtTheToothRatio) {
  const std::string dir = runModel("spur_gear_pair");
  const Results bodies(dir + "/bodies.csv");
  const double ratio = -15.0 / 21.0;
  const Turning pinion = turning(bodies, 2, kRunning);
  const Turning gear = turning(bodies, 3, kRunning);
  ASSERT_GT(pinion.time.size(), 100u);
  EXPECT_NEAR(pinion.meanRate(), 8 * std::numbers::pi, 1e-6);
  const double turnedRatio = gear.turned() / pinion.turned();
  const double speedRatio = gear.meanRate() / pinion.meanRate();
  RecordProperty("gear_turn_over_pinion_turn", sci(turnedRatio));
  RecordProperty("gear_speed_over_pinion_speed", sci(speedRatio));
  EXPECT_NEAR(turnedRatio / ratio, 1, 0.01) << turnedRatio << " against " << ratio;
  EXPECT_NEAR(speedRatio / ratio, 1, 0.01) << speedRatio << " against " << ratio;

  const double brakeTorque = 2 * 0.5 * 1e8 * std::pow(1e-5, 1.5) * 0.012;
  const double normalForce = brakeTorque / 0.021 / std::cos(20 * std::numbers::pi / 180);
  const double force = meanNormalForce(Results(dir + "/contacts.csv"), 1, 3001, 3021, kRunning);
  EXPECT_NEAR(force / normalForce, 1, 0.1) << force << " N against " << normalForce << " N";
}

}  // namespace
}  // namespace lodestone::testing
