#include "parallel_loop.h"

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace lodestone {

// An arena of its own, so the thread count is this run's and not the process's (a batch of runs, Python).
struct ParallelLoop::Arena {
  explicit Arena(int threads) : arena(threads) {}
  tbb::task_arena arena;
};

ParallelLoop::ParallelLoop(int threads)
    : threads_(threads > 0 ? threads : tbb::info::default_concurrency()) {
  if (threads_ > 1) arena_ = std::make_unique<Arena>(threads_);
}

ParallelLoop::~ParallelLoop() = default;

void ParallelLoop::run(int count, int grain, const std::function<void(int begin, int end)>& body) const {
  if (!arena_ || count <= grain) {
    if (count > 0) body(0, count);
    return;
  }
  arena_->arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<int>(0, count, grain),
                      [&](const tbb::blocked_range<int>& range) { body(range.begin(), range.end()); });
  });
}

void ParallelLoop::runBlocks(int count, int blockSize,
                             const std::function<void(int block, int begin, int end)>& body) const {
  run(blockCount(count, blockSize), 1, [&](int first, int last) {
    for (int b = first; b < last; ++b) body(b, b * blockSize, std::min((b + 1) * blockSize, count));
  });
}

}  // namespace lodestone
