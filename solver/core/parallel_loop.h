// Work spread over a fixed number of threads (`lodestone run --threads N`): a loop whose iterations are independent
// runs them on TBB's workers, each index exactly once. Callers write each index's result to its own place and
// combine them afterwards in index order, so results are the same bit for bit whatever the thread count.
#pragma once

#include <functional>
#include <memory>

namespace lodestone {

class ParallelLoop {
 public:
  // `threads` 0: one per core of the machine (what TBB sees, which honours the process's CPU affinity).
  explicit ParallelLoop(int threads = 1);
  ~ParallelLoop();
  ParallelLoop(const ParallelLoop&) = delete;
  ParallelLoop& operator=(const ParallelLoop&) = delete;

  int threads() const { return threads_; }
  // Calls body(begin, end) over ranges covering [0, count); in parallel when there are threads to spare and more
  // than `grain` indices, serially in this thread otherwise.
  void run(int count, int grain, const std::function<void(int begin, int end)>& body) const;
  // Calls body(block, begin, end) for the blocks of `blockSize` indices that cover [0, count), in parallel as run()
  // does. The blocks are the same whatever the thread count, so results kept per block and joined in block order
  // are too.
  static int blockCount(int count, int blockSize) { return (count + blockSize - 1) / blockSize; }
  void runBlocks(int count, int blockSize, const std::function<void(int block, int begin, int end)>& body) const;

 private:
  struct Arena;
  int threads_ = 1;
  std::unique_ptr<Arena> arena_;
};

}  // namespace lodestone
