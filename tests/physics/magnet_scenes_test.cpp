// The scenes of Westhofen et al. 2024 as example decks (models/magnets/), each run shortened: the compass needles
// around a bar magnet.
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "magnetics/magnet_pair.h"
#include "support/contact_runs.h"

namespace lodestone::testing {
namespace {

using Kind = MagnetShape::Kind;

std::string readText(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// `text` with its one `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The figures of models/magnets/make_compass_needles.py.
const Magnet kBar{{Kind::kCuboid, 0, 0, Vector3(0.05, 0.02, 0.02)}, Vector3(156250, 0, 0)};
const Magnet kNeedle{{Kind::kCuboid, 0, 0, Vector3(0.01, 0.0015, 0.001)}, Vector3(0.05 / 1.2e-7, 0, 0)};
const double kNeedleInertiaZ = 7800 * 1.2e-7 * (0.02 * 0.02 + 0.003 * 0.003) / 12;

// At the start every needle turns as the torque of the bar and of the 117 other needles on it says: its angular
// acceleration about its pivot is that torque over its inertia, the torque summed here pair by pair, each pair asked
// 1e-7, to within 2e-4 of the sum of the pairs' torques' sizes (the deck asks 1e-4 per pair, and leaves far pairs out
// of the Jacobian). After 20 ms every needle still turns the way it started to: towards the field.
TEST(MagnetScenes, CompassNeedlesStartTurningAsTheirMagnetsTorquesSay) {
  std::string deck = readText(std::string(LODESTONE_SOURCE_DIR) + "/models/magnets/compass_needles.xml");
  deck = replaced(replaced(deck, "end_time=\"15\"", "end_time=\"0.02\""), "print_interval=\"0.05\"",
                  "print_interval=\"0.02\"");
  const DeckRun run = runDeckText("compass_needles", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  struct Needle {
    int id;
    MagnetPose pose;
    double angularAcceleration, turnRate;
  };
  std::vector<Needle> needles;
  for (int id = 101; id <= 218; ++id) {
    const std::vector<size_t> rows = bodies.rowsOfBody(id);
    ASSERT_EQ(rows.size(), 2u) << id;
    const Eigen::Quaterniond turn(bodies.at(rows[0], "e0"), bodies.at(rows[0], "e1"), bodies.at(rows[0], "e2"),
                                  bodies.at(rows[0], "e3"));
    needles.push_back({id, {turn.toRotationMatrix(), bodies.vector3(rows[0], "x", "y", "z")},
                       bodies.at(rows[0], "wdz"), bodies.at(rows[1], "wz")});
  }
  double worst = 0;
  for (const Needle& needle : needles) {
    MagnetPairLoads bar = magnetPairInteraction(kBar, MagnetPose{}, kNeedle, needle.pose, 1e-7);
    double torque = bar.torqueOnSecond.z(), sizes = std::abs(bar.torqueOnSecond.z());
    for (const Needle& other : needles) {
      if (other.id == needle.id) continue;
      const double pair = magnetPairInteraction(kNeedle, other.pose, kNeedle, needle.pose, 1e-7).torqueOnSecond.z();
      torque += pair;
      sizes += std::abs(pair);
    }
    SCOPED_TRACE(::testing::Message() << "needle body " << needle.id);
    const double error = std::abs(needle.angularAcceleration * kNeedleInertiaZ - torque);
    EXPECT_LT(error, 2e-4 * sizes);
    worst = std::max(worst, error / sizes);
    EXPECT_GT(needle.turnRate * torque, 0) << "torque " << torque << " N·m, turn rate " << needle.turnRate;
  }
  ::testing::Test::RecordProperty("worst_torque_error_over_sum_of_sizes", std::to_string(worst));
}

}  // namespace
}  // namespace lodestone::testing
