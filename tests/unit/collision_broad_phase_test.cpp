// The grid broad phase against brute force: boxes moving over many calls, large boxes (floors, walls) among
// small ones, degenerate boxes. The kept list (VerletList) against a fresh broad phase: shapes moving and turning,
// some jumping beyond its margin.
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "collision/broad_phase.h"
#include "collision/mesh_geometry.h"
#include "mesh_test_support.h"

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

// A scene as the contact evaluator sees it: spheres, boxes and meshes (cubes and tori) moving and turning in a 4 m
// cube above a floor, each box grown by a tenth of its shape's bounding radius.
struct MovingScene {
  std::vector<Shape> shapes;
  std::vector<Pose> poses;
  std::vector<Vector3> velocities, spins;  // per call: a move and a turn (axis · angle)

  std::vector<Aabb> boxes() const {
    std::vector<Aabb> boxes;
    for (size_t k = 0; k < shapes.size(); ++k) {
      boxes.push_back(boundsOf(shapes[k], poses[k]).inflated(0.1 * shapes[k].boundingRadius()));
    }
    return boxes;
  }
};

MovingScene movingScene(std::mt19937& random) {
  std::uniform_real_distribution<double> position(0, 4), size(0.1, 0.25), unit(-1, 1);
  const auto cube = std::make_shared<MeshGeometry>(testing::scaledAndMoved(testing::unitCube(), 0.3,
                                                                           Vector3(-0.15, -0.15, -0.15)));
  const auto torus = std::make_shared<MeshGeometry>(testing::torus(12, 6, 0.2, 0.06));
  MovingScene scene;
  scene.shapes.push_back(Shape::box(Vector3(3, 3, 0.1)));  // a floor, large and still
  scene.poses.push_back({Vector3(2, 2, -0.1), Matrix3::Identity()});
  for (int k = 0; k < 240; ++k) {
    switch (k % 4) {
      case 0: scene.shapes.push_back(Shape::sphere(size(random))); break;
      case 1: scene.shapes.push_back(Shape::box(Vector3(size(random), size(random), 0.5 * size(random)))); break;
      case 2: scene.shapes.push_back(Shape::mesh(cube)); break;
      default: scene.shapes.push_back(Shape::mesh(torus)); break;
    }
    const Vector3 axis = Vector3(unit(random), unit(random), unit(random)).normalized();
    scene.poses.push_back({Vector3(position(random), position(random), position(random)),
                           Eigen::AngleAxisd(3 * unit(random), axis).toRotationMatrix()});
  }
  scene.velocities.push_back(Vector3::Zero());
  scene.spins.push_back(Vector3::Zero());
  for (size_t k = 1; k < scene.shapes.size(); ++k) {
    scene.velocities.push_back(0.004 * Vector3(unit(random), unit(random), unit(random)));
    scene.spins.push_back(0.02 * Vector3(unit(random), unit(random), unit(random)));
  }
  return scene;
}

TEST(VerletList, GivesTheFreshBroadPhasesPairsAsShapesMoveTurnAndJump) {
  std::mt19937 random(17);
  std::uniform_real_distribution<double> position(0, 4);
  MovingScene scene = movingScene(random);
  VerletList list(0.1);
  std::vector<std::pair<int, int>> kept, fresh;
  size_t totalPairs = 0;
  int jumps = 0;
  const int calls = 400;
  for (int call = 0; call < calls; ++call) {
    const std::vector<Aabb> boxes = scene.boxes();
    const long buildsBefore = list.builds();
    list.findOverlaps(boxes, kept);
    BroadPhase().findOverlaps(boxes, fresh);
    ASSERT_EQ(kept, fresh) << "call " << call;
    totalPairs += fresh.size();
    // After a jump far beyond the margin the list cannot cover the boxes: it is built again.
    if (call > 0 && call % 50 == 0) {
      EXPECT_EQ(list.builds(), buildsBefore + 1) << "call " << call;
    }
    for (size_t k = 1; k < scene.shapes.size(); ++k) {
      Pose& pose = scene.poses[k];
      pose.position += scene.velocities[k];
      const Vector3& spin = scene.spins[k];
      pose.rotation = Eigen::AngleAxisd(spin.norm(), spin.normalized()).toRotationMatrix() * pose.rotation;
    }
    if (call % 50 == 49) {  // a few shapes jump anywhere in the scene
      for (size_t k = 1 + static_cast<size_t>(call / 50); k < scene.shapes.size(); k += 37) {
        scene.poses[k].position = Vector3(position(random), position(random), position(random));
      }
      ++jumps;
    }
  }
  EXPECT_GT(totalPairs, 40u * calls);  // enough pairs for the comparison to mean something
  // Kept most of the time, yet built again more often than the jumps alone ask: steady motion and turning carry
  // boxes out of theirs too.
  EXPECT_LT(list.builds(), calls / 4);
  EXPECT_GT(list.builds(), 1 + jumps);
}

TEST(VerletList, CoversOnlyBoxesWithinItsGrownBoxes) {
  VerletList list(0.1);
  std::vector<Aabb> boxes{{Vector3(0, 0, 0), Vector3(1, 1, 1)}, {Vector3(1.05, 0, 0), Vector3(2.05, 1, 1)}};
  std::vector<std::pair<int, int>> pairs;
  list.findOverlaps(boxes, pairs);
  EXPECT_TRUE(pairs.empty());
  EXPECT_EQ(list.kept(), (std::vector<std::pair<int, int>>{{0, 1}}));  // grown by 0.1 each, they overlap
  EXPECT_TRUE(list.covers(boxes));
  // Moved by less than the margin, into contact: covered, and the kept pair now overlaps.
  boxes[1].min.x() -= 0.09, boxes[1].max.x() -= 0.09;
  EXPECT_TRUE(list.covers(boxes));
  list.findOverlaps(boxes, pairs);
  EXPECT_EQ(pairs, (std::vector<std::pair<int, int>>{{0, 1}}));
  EXPECT_EQ(list.builds(), 1);
  // Beyond it: built again.
  boxes[1].min.x() -= 0.02, boxes[1].max.x() -= 0.02;
  EXPECT_FALSE(list.covers(boxes));
  list.findOverlaps(boxes, pairs);
  EXPECT_EQ(list.builds(), 2);
  // A box that is not a number is never covered, and overlaps nothing.
  boxes[0].min.x() = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(list.covers(boxes));
  list.findOverlaps(boxes, pairs);
  EXPECT_TRUE(pairs.empty());
  EXPECT_FALSE(list.covers(boxes));
  // Another count of boxes: built again.
  boxes.push_back(boxes[1]);
  EXPECT_FALSE(list.covers(boxes));
  list.findOverlaps(boxes, pairs);
  EXPECT_EQ(pairs, (std::vector<std::pair<int, int>>{{1, 2}}));
}

}  // namespace
}  // namespace lodestone
