// The cost of one evaluation of the interactions among N dipole samples (magnetics/dipole_samples.h), direct and by the
// octree at three opening angles, and the tree's force error against the direct sum. Prints; asserts nothing.
//
//   magnet_samples_benchmark [largest N, default 100000]
//
// The samples: touching cubic magnets of 3×3×3 samples 5 mm apart, each magnetised at 1e6 A/m in its own random
// direction, stacked in a block as close to a cube as the count allows (N rounded to a multiple of 27). The direct sum
// is run up to N = 30 000 (≈ 12 s per evaluation there) and extrapolated as N² beyond. Times are medians of three
// repeats of the process's CPU time, in one thread; the
// column "2 thr" is wall time with two threads; the table measured is in magnetics/dipole_samples.h.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

#include "magnetics/cuboid_field.h"
#include "magnetics/dipole_samples.h"
#include "support/sample_force_errors.h"

using namespace lodestone;

namespace {

std::vector<GroupedDipoleSample> magnetBlock(int requested) {
  const int magnets = std::max(1, static_cast<int>(std::lround(requested / 27.0)));
  const int side = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(magnets)) - 1e-9));
  const double h = 0.005;
  std::mt19937 random(2024);
  std::normal_distribution<double> normal;
  std::vector<GroupedDipoleSample> samples;
  for (int group = 0; group < magnets; ++group) {
    const Vector3 corner(3 * (group % side), 3 * ((group / side) % side), 3 * (group / (side * side)));
    const Vector3 moment =
        1e6 * h * h * h * Vector3(normal(random), normal(random), normal(random)).normalized();
    for (int i = 0; i < 27; ++i) {
      samples.push_back({h * (corner + Vector3(i % 3, (i / 3) % 3, i / 9)), moment, group});
    }
  }
  return samples;
}

// This process's CPU time: the machine is shared, and a one-thread evaluation's wall time would also count the others'
// work. The two-thread column needs wall time, and is the noisier for it.
double cpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double wallSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Seconds per call, the median of three repeats, each calling until a quarter of a second has passed.
template <class Call>
double secondsPerCall(Call call, double (*clock)() = cpuSeconds) {
  double repeats[3];
  for (double& seconds : repeats) {
    const double start = clock();
    long calls = 0;
    double elapsed = 0;
    do {
      call();
      ++calls;
      elapsed = clock() - start;
    } while (elapsed < 0.25);
    seconds = elapsed / static_cast<double>(calls);
  }
  std::sort(repeats, repeats + 3);
  return repeats[1];
}

// The least-squares slope of log(cost) against log(N).
double fittedExponent(const std::vector<double>& counts, const std::vector<double>& costs) {
  const double n = static_cast<double>(counts.size());
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (size_t i = 0; i < counts.size(); ++i) {
    const double x = std::log(counts[i]), y = std::log(costs[i]);
    sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each row as it is measured: the whole run takes minutes
  const int largest = argc > 1 ? std::atoi(argv[1]) : 100000;
  const int directLimit = 30000;
  const double angles[] = {0.2, 0.3, 0.4};
  const ParallelLoop twoThreads(2);
  std::printf("%7s | %12s | %10s %10s %10s | %10s | %23s %23s %23s\n", "N", "direct [ms]", "θ=0.2 [ms]", "θ=0.3 [ms]",
              "θ=0.4 [ms]", "0.3, 2 thr", "θ=0.2 rms max magnets", "θ=0.3 rms max magnets",
              "θ=0.4 rms max magnets");
  std::vector<double> counts, directCounts, directCosts, treeCosts[3];
  double lastDirect = 0, lastDirectCount = 0;
  volatile double sink = 0;
  for (const int requested : {100, 300, 1000, 3000, 10000, 30000, 100000}) {
    if (requested > largest) break;
    const std::vector<GroupedDipoleSample> samples = magnetBlock(requested);
    const double count = static_cast<double>(samples.size());
    std::vector<SampleInteraction> direct;
    double directCost = 0;
    const bool runDirect = requested <= directLimit;
    if (runDirect) {
      directCost = secondsPerCall([&] { direct = directInteractions(samples, 0, kVacuumPermeability); });
      lastDirect = directCost, lastDirectCount = count;
      if (count >= 1000) directCounts.push_back(count), directCosts.push_back(directCost);
    } else {
      directCost = lastDirect * (count / lastDirectCount) * (count / lastDirectCount);
    }
    std::printf("%7d | %10.4g%s |", static_cast<int>(count), 1e3 * directCost, runDirect ? "  " : " *");
    double costs[3];
    SampleForceErrors errors[3];
    for (int a = 0; a < 3; ++a) {
      std::vector<SampleInteraction> tree;
      costs[a] = secondsPerCall([&] { tree = treeInteractions(samples, 0, kVacuumPermeability, angles[a]); });
      if (runDirect) errors[a] = sampleForceErrors(samples, tree, direct);
      if (count >= 1000) treeCosts[a].push_back(costs[a]);
      std::printf(" %10.4g", 1e3 * costs[a]);
    }
    const double threaded = secondsPerCall([&] {
      sink = sink + treeInteractions(samples, 0, kVacuumPermeability, 0.3, &twoThreads)[0].force.x();
    }, wallSeconds);
    std::printf(" | %10.4g |", 1e3 * threaded);
    for (int a = 0; a < 3; ++a) {
      if (runDirect) {
        std::printf("  %7.1e %7.1e %7.1e", errors[a].rms, errors[a].max, errors[a].magnets);
      } else {
        std::printf("  %23s", "—");
      }
    }
    std::printf("\n");
    if (count >= 1000) counts.push_back(count);
  }
  std::printf("* extrapolated as N² from the largest N run directly\n");
  if (directCounts.size() >= 2) {
    std::printf("fitted exponent of cost vs N, N ≥ 1000: direct %.2f", fittedExponent(directCounts, directCosts));
    for (int a = 0; a < 3; ++a) std::printf(", θ=%.1f %.2f", angles[a], fittedExponent(counts, treeCosts[a]));
    std::printf("\n");
  }
  return 0;
}
