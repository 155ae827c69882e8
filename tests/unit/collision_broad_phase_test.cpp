// The grid broad phase against brute force: boxes moving over many calls, large boxes (floors, walls) among
// small ones, degenerate boxes.
#include <algorithm>
#include <random>

#include <gtest/gtest.h>

#include "collision/broad_phase.h"

namespace lodestone {
namespace {

std::vector<std::pair<int, int>> bruteForce(const std::vector<Aabb>& boxes) {
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    for (int k = i + 1; k < static_cast<int>(boxes.size()); ++k) {
      if (boxes[i].overlaps(boxes[k])) pairs.emplace_back(i, k);
    }
  }
  return pairs;
}

TEST(BroadPhase, MovingBoxesMatchBruteForceOnEveryCall) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> position(0, 10), size(0.05, 1.0), step(-0.2, 0.2);
  std::vector<Aabb> boxes(300);
  std::vector<Vector3> velocities(boxes.size());
  for (std::size_t k = 0; k < boxes.size(); ++k) {
    boxes[k].min = Vector3(position(random), position(random), position(random));
    boxes[k].max = boxes[k].min + Vector3(size(random), size(random), size(random));
    velocities[k] = Vector3(step(random), step(random), step(random));
  }
  // Touching faces count as overlapping: a box sharing a face with box 0.
  boxes[1].min = Vector3(boxes[0].max.x(), boxes[0].min.y(), boxes[0].min.z());
  boxes[1].max = boxes[1].min + Vector3::Ones();
  BroadPhase broadPhase;
  std::vector<std::pair<int, int>> pairs;
  std::size_t totalPairs = 0;
  for (int call = 0; call < 100; ++call) {
    broadPhase.findOverlaps(boxes, pairs);
    const auto expected = bruteForce(boxes);
    ASSERT_EQ(pairs, expected) << "call " << call;
    if (call == 0) {
      EXPECT_TRUE(std::find(pairs.begin(), pairs.end(), std::pair{0, 1}) != pairs.end());
    }
    totalPairs += pairs.size();
    for (std::size_t k = 0; k < boxes.size(); ++k) {
      boxes[k].min += velocities[k];
      boxes[k].max += velocities[k];
      // Now and then a big jump, so the grid's extent changes between calls.
      if (call % 25 == 24 && k % 7 == 0) {
        const Vector3 jump(position(random) - 5, 0, 0);
        boxes[k].min += jump, boxes[k].max += jump;
      }
    }
  }
  EXPECT_GT(totalPairs, 100u);  // the scene is dense enough for the comparison to mean something
}

TEST(BroadPhase, LargeBoxesAmongSmallOnesMatchBruteForce) {
  // A pile of small boxes on a floor between walls, at negative and positive coordinates; some small boxes sit
  // exactly face to face, on cell boundaries.
  std::mt19937 random(5);
  std::uniform_real_distribution<double> position(-2, 2), size(0.1, 0.3);
  std::vector<Aabb> boxes;
  boxes.push_back({Vector3(-3, -3, -3.1), Vector3(3, 3, -2)});    // floor
  boxes.push_back({Vector3(-3.1, -3, -3), Vector3(-2, 3, 10)});   // wall
  boxes.push_back({Vector3(2, -3, -3), Vector3(3.1, 3, 10)});     // wall, touching the floor's corner region
  for (int k = 0; k < 400; ++k) {
    const Vector3 low(position(random), position(random), position(random) - 0.9);
    boxes.push_back({low, low + Vector3::Constant(size(random))});
  }
  for (int k = 0; k < 20; ++k) {
    const Vector3 low(0.2 * k - 2, 0, 0);
    boxes.push_back({low, low + Vector3::Constant(0.2)});  // a row of cubes sharing faces
  }
  boxes.push_back(boxes[10]);  // an exact duplicate
  BroadPhase broadPhase;
  std::vector<std::pair<int, int>> pairs;
  broadPhase.findOverlaps(boxes, pairs);
  const auto expected = bruteForce(boxes);
  EXPECT_EQ(pairs, expected);
  EXPECT_GT(expected.size(), 150u);  // enough pairs for the comparison to mean something
  EXPECT_TRUE(std::find(pairs.begin(), pairs.end(), std::pair{404, 405}) != pairs.end());  // faces shared
}

TEST(BroadPhase, PointBoxesFallBackToComparingEveryPair) {
  std::vector<Aabb> boxes(40, Aabb{Vector3(1, 1, 1), Vector3(1, 1, 1)});
  boxes[39] = {Vector3(5, 5, 5), Vector3(5, 5, 5)};
  BroadPhase broadPhase;
  std::vector<std::pair<int, int>> pairs;
  broadPhase.findOverlaps(boxes, pairs);
  EXPECT_EQ(pairs, bruteForce(boxes));
  EXPECT_EQ(pairs.size(), 39u * 38u / 2u);
}

TEST(BroadPhase, ChangingTheBoxCountRestartsTheOrder) {
  BroadPhase broadPhase;
  std::vector<std::pair<int, int>> pairs;
  std::vector<Aabb> boxes{{Vector3(0, 0, 0), Vector3(1, 1, 1)}, {Vector3(0.5, 0.5, 0.5), Vector3(2, 2, 2)}};
  broadPhase.findOverlaps(boxes, pairs);
  EXPECT_EQ(pairs, (std::vector<std::pair<int, int>>{{0, 1}}));
  boxes.push_back({Vector3(-3, 0, 0), Vector3(0.2, 0.2, 0.2)});
  broadPhase.findOverlaps(boxes, pairs);
  EXPECT_EQ(pairs, (std::vector<std::pair<int, int>>{{0, 1}, {0, 2}}));
  broadPhase.findOverlaps(std::vector<Aabb>{}, pairs);
  EXPECT_TRUE(pairs.empty());
}

}  // namespace
}  // namespace lodestone
