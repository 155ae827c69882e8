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
  // Sweep over a contiguous copy in sorted order: the inner loop then walks memory linearly.
  sorted_.resize(count);
  for (int i = 0; i < count; ++i) sorted_[i] = boxes[order_[i]];
  // Every box whose min.x lies within [min.x, max.x] of an earlier box overlaps it on x; y and z decide.
  for (int i = 0; i < count; ++i) {
    const Aabb& first = sorted_[i];
    const double endX = first.max.x();
    for (int k = i + 1; k < count; ++k) {
      const Aabb& second = sorted_[k];
      if (second.min.x() > endX) break;
      if (second.min.y() <= first.max.y() && first.min.y() <= second.max.y() && second.min.z() <= first.max.z() &&
          first.min.z() <= second.max.z()) {
        const int a = order_[i], b = order_[k];
        pairs.emplace_back(std::min(a, b), std::max(a, b));
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
}

}  // namespace lodestone
