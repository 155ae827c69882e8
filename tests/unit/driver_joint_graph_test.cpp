// The blocks redundancy is decided in (solver/driver/joint_graph.h): edges that share a loop are in one block,
// edges that only meet at a node are not. Node 9 plays ground in each graph.
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "solver/driver/joint_graph.h"

namespace lodestone {
namespace {

using Edges = std::vector<std::pair<int, int>>;
constexpr int kGround = 9;

int distinct(const std::vector<int>& blocks) {
  return static_cast<int>(std::set<int>(blocks.begin(), blocks.end()).size());
}

TEST(JointGraph, EveryLinkOfAChainIsItsOwnBlock) {
  const std::vector<int> blocks = biconnectedBlocks(10, Edges{{kGround, 0}, {0, 1}, {1, 2}, {2, 3}});
  EXPECT_EQ(distinct(blocks), 4);
}

TEST(JointGraph, AFourBarIsOneBlockAndItsTailAnother) {
  // Ground, crank 0, coupler 1, rocker 2, closing at ground; a pendulum 3 hangs from the rocker.
  const std::vector<int> blocks = biconnectedBlocks(10, Edges{{kGround, 0}, {0, 1}, {1, 2}, {2, kGround}, {2, 3}});
  EXPECT_EQ(blocks[0], blocks[1]);
  EXPECT_EQ(blocks[0], blocks[2]);
  EXPECT_EQ(blocks[0], blocks[3]);
  EXPECT_NE(blocks[4], blocks[0]);
  EXPECT_EQ(distinct(blocks), 2);
}

TEST(JointGraph, TwoLoopsMeetingAtOneBodyAreTwoBlocks) {
  // Triangles ground-0-1 and 1-2-3 share body 1 only.
  const std::vector<int> blocks =
      biconnectedBlocks(10, Edges{{kGround, 0}, {0, 1}, {1, kGround}, {1, 2}, {2, 3}, {3, 1}});
  EXPECT_EQ(blocks[0], blocks[1]);
  EXPECT_EQ(blocks[1], blocks[2]);
  EXPECT_EQ(blocks[3], blocks[4]);
  EXPECT_EQ(blocks[4], blocks[5]);
  EXPECT_NE(blocks[0], blocks[3]);
}

TEST(JointGraph, TwoJointsBetweenTheSameBodiesShareABlock) {
  // A door on two hinges (both to ground), and a motion beside the joint of a second body.
  const std::vector<int> blocks = biconnectedBlocks(10, Edges{{0, kGround}, {0, kGround}, {1, 0}, {1, 0}});
  EXPECT_EQ(blocks[0], blocks[1]);
  EXPECT_EQ(blocks[2], blocks[3]);
  EXPECT_NE(blocks[0], blocks[2]);
}

TEST(JointGraph, AJointOnOneBodyAndSeparateMechanismsAreTheirOwnBlocks) {
  const std::vector<int> blocks =
      biconnectedBlocks(10, Edges{{4, 4}, {kGround, 5}, {6, 7}, {6, 7}, {kGround, kGround}});
  EXPECT_EQ(distinct(blocks), 4);  // the self-loops, the bridge to 5, the pair 6–7
  EXPECT_EQ(blocks[2], blocks[3]);
  for (const int block : blocks) EXPECT_GE(block, 0);
}

TEST(JointGraph, ALongChainNeedsNoDeepStack) {
  Edges chain{{0, 1}};
  for (int k = 1; k < 200000; ++k) chain.emplace_back(k, k + 1);
  chain.emplace_back(200000, 0);  // and closes into one loop
  const std::vector<int> blocks = biconnectedBlocks(200001, chain);
  EXPECT_EQ(distinct(blocks), 1);
}

}  // namespace
}  // namespace lodestone
