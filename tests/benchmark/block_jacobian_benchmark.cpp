// GMRES's block operations on their own (BlockJacobian: the product, the diagonal blocks' inversion and the
// preconditioner's solve) for a pile-shaped pattern: N bodies' 13×13 blocks and 6 contact couplings per body (6×13),
// on 1 and 2 threads. Prints microseconds per call.
//
//   block_jacobian_benchmark [N]   (default 1000, the peers' pile)
//
// Release on the 2-core VM, N=1000, 1 -> 2 threads, with the second core free: product 125 -> 69 us, inversion
// 1025 -> 521 us, solve 31 -> 17 us. With another session's benchmark on the second core: 132 -> 129, 1061 -> 1042,
// 32 -> 32 us; N=100 there: 11.4 -> 11.6, 105 -> 106, 3.1 -> 3.1 us (the solves of 100 bodies stay in one thread).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "solver/driver/jacobian_assembly.h"
#include "solver/core/parallel_loop.h"

using namespace lodestone;

namespace {

template <typename Operation>
double microsecondsPerCall(Operation operation) {
  int calls = 0;
  const auto start = std::chrono::steady_clock::now();
  double elapsed = 0;
  while (elapsed < 0.5) {
    operation();
    ++calls;
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return 1e6 * elapsed / calls;
}

}  // namespace

int main(int argc, char** argv) {
  const int bodies = argc > 1 ? std::atoi(argv[1]) : 1000;
  JacobianPattern pattern(13 * bodies);
  for (int body = 0; body < bodies; ++body) pattern.addBlock({13 * body, 13, 13 * body, 13});
  std::mt19937 random(1);
  std::uniform_int_distribution<int> neighbour(0, bodies - 1);
  for (int body = 0; body < bodies; ++body) {
    for (int k = 0; k < 6; ++k) pattern.addBlock({13 * body + 7, 6, 13 * neighbour(random), 13});
  }
  std::uniform_real_distribution<double> unit(-1, 1);
  std::vector<double> values(13 * 13), x(static_cast<size_t>(pattern.size())), y(x.size());
  for (double& value : x) value = unit(random);
  for (const int threads : {1, 2}) {
    const ParallelLoop loop(threads);
    BlockJacobian blocks(pattern, &loop);
    blocks.begin();
    for (size_t b = 0; b < pattern.blocks().size(); ++b) {
      const JacobianBlock& block = pattern.blocks()[b];
      for (double& value : values) value = unit(random);
      if (block.rowOffset == block.columnOffset) {
        for (int i = 0; i < 13; ++i) values[static_cast<size_t>(14 * i)] += 10;
      }
      blocks.addBlock(static_cast<int>(b), values.data());
    }
    const double product = microsecondsPerCall([&] { blocks.multiplyAdd(0.5, x.data(), y.data()); });
    const double inversion = microsecondsPerCall([&] { blocks.factoriseDiagonalBlocks(); });
    const double solve = microsecondsPerCall([&] { blocks.solveDiagonalBlocks(x.data(), y.data()); });
    std::printf("N=%d, %d thread(s): product %.1f us   inversion %.1f us   solve %.1f us\n", bodies, threads, product,
                inversion, solve);
  }
  return 0;
}
