// Sweep and prune on x. The order of the boxes by min.x is kept between calls and repaired by insertion sort,
// which costs about one pass when the scene moved a little since the previous call.
#include "broad_phase.h"

#include <algorithm>
#include <numeric>

namespace lodestone {

void BroadPhase::findOverlaps(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  const int count = static_cast<int>(boxes.size());
  if (static_cast<int>(order_.size()) != count) {
    order_.resize(count);
    std::iota(order_.begin(), order_.end(), 0);
  }
  // Insertion sort: near-linear on an almost sorted order, which is what a small time step leaves behind.
  for (int i = 1; i < count; ++i) {
    const int moving = order_[i];
    const double key = boxes[moving].min.x();
    int slot = i;
    while (slot > 0 && boxes[order_[slot - 1]].min.x() > key) {
      order_[slot] = order_[slot - 1];
      --slot;
    }
    order_[slot] = moving;
  }
  // Sweep: every box whose min.x lies within [min.x, max.x] of an earlier box overlaps it on x.
  for (int i = 0; i < count; ++i) {
    const Aabb& first = boxes[order_[i]];
    for (int k = i + 1; k < count; ++k) {
      const Aabb& second = boxes[order_[k]];
      if (second.min.x() > first.max.x()) break;
      if (first.overlaps(second)) {
        const int a = order_[i], b = order_[k];
        pairs.emplace_back(std::min(a, b), std::max(a, b));
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
}

}  // namespace lodestone
