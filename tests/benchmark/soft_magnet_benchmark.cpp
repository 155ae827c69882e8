// The cost of one evaluation of the soft magnets' loads (magnetics/induced_magnets.h, inducedMagnetLoads: the coupled
// solve of the induced moments and the forces on every body) against the number of soft samples N, with the direct
// O(N²) sums and with the octree (InductionSettings::treeFrom, treeOpeningAngle) at three opening angles, and the
// tree's errors against the direct sums: of the bodies' moments and net forces. Prints; asserts nothing.
//
//   soft_magnet_benchmark [largest N, default 60000] [largest N run directly, default 9000]
//
// The scene: tests/support/soft_block.h, a block of nickel spheres (χ = 100) of 8 samples each over a permanent sphere.
// Up to N = 300 the moments are solved densely (InductionSettings::denseUpTo), beyond by GMRES, whose operator products
// are what the tree replaces; the soft–soft forces are summed directly or over the tree at every N here, to show where
// the tree starts to pay. Each call moves the block by 1 nm from the previous call's place and back, so that every
// call builds its tree and evaluates the permanent field afresh, as a simulation's steps do. Times are CPU time of
// this process, one thread, the median of three repeats of at least a quarter of a second each (a single call where
// one takes over two seconds). The table measured is in magnetics/induced_magnetisation.h.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "support/soft_block.h"

using namespace lodestone;

namespace {

double cpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

template <class Call>
double secondsPerCall(Call call) {
  double repeats[3];
  for (double& seconds : repeats) {
    const double start = cpuSeconds();
    long calls = 0;
    double elapsed = 0;
    do {
      call();
      ++calls;
      elapsed = cpuSeconds() - start;
    } while (elapsed < 0.25);
    seconds = elapsed / static_cast<double>(calls);
    if (seconds > 2) return seconds;
  }
  std::sort(repeats, repeats + 3);
  return repeats[1];
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const int largest = argc > 1 ? std::atoi(argv[1]) : 60000;
  const int directLargest = argc > 2 ? std::atoi(argv[2]) : 9000;
  const double angles[] = {0.15, 0.2, 0.3};
  std::printf("%6s %5s | %10s %4s | %10s %10s %10s %4s | %35s %35s %35s\n", "N", "bodies", "direct[ms]", "its",
              "θ=.15 [ms]", "θ=.2 [ms]", "θ=.3 [ms]", "its", "θ=0.15: m rms, F rms, F max, F worst",
              "θ=0.2: m rms, F rms, F max, F worst", "θ=0.3: m rms, F rms, F max, F worst");
  for (const int side : {3, 4, 5, 6, 7, 8, 10, 13, 16, 20}) {
    soft_block::Scene scene = soft_block::scene(side);
    const int count = scene.samples();
    if (count > largest) break;
    std::vector<MagnetPose> moved = scene.poses;
    for (MagnetPose& pose : moved) pose.position.x() += 1e-9;
    long calls = 0;
    const auto evaluate = [&](const InductionSettings& settings) {
      return inducedMagnetLoads(scene.permanent, scene.soft, ++calls % 2 ? moved : scene.poses, settings);
    };
    InductionSettings direct;
    direct.treeFrom = INT_MAX;
    const bool runDirect = count <= directLargest;
    InducedMagnetLoads reference;
    double directCost = 0;
    if (runDirect) {
      reference = inducedMagnetLoads(scene.permanent, scene.soft, scene.poses, direct);
      directCost = secondsPerCall([&] { evaluate(direct); });
    }
    std::printf("%6d %5zu | ", count, scene.soft.size());
    if (runDirect) {
      std::printf("%10.4g %4d | ", 1e3 * directCost, reference.induction.iterations);
    } else {
      std::printf("%10s %4s | ", "—", "");
    }
    soft_block::LoadErrors errors[3];
    int iterations = 0;
    for (int a = 0; a < 3; ++a) {
      InductionSettings tree;
      tree.treeFrom = 0;
      tree.treeOpeningAngle = angles[a];
      const InducedMagnetLoads loads = inducedMagnetLoads(scene.permanent, scene.soft, scene.poses, tree);
      if (runDirect) errors[a] = soft_block::loadErrors(loads, reference);
      if (a == 1) iterations = loads.induction.iterations;
      std::printf("%10.4g ", 1e3 * secondsPerCall([&] { evaluate(tree); }));
    }
    std::printf("%4d |", iterations);
    for (const soft_block::LoadErrors& e : errors) {
      if (runDirect) {
        std::printf("  %8.1e %8.1e %8.1e %8.1e", e.momentRms, e.forceRms, e.forceMax, e.forceWorst);
      } else {
        std::printf("  %35s", "—");
      }
    }
    std::printf("\n");
  }
  return 0;
}
