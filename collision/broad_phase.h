// The broad phase: which bounding boxes overlap. One instance serves every Force_Contact of a model; it keeps its
// sort order between calls, so that a scene that moves a little costs about linearly in the number of boxes
// plus the number of overlapping pairs.
#pragma once

#include <span>
#include <utility>
#include <vector>

#include "shape.h"

namespace lodestone {

class BroadPhase {
 public:
  // Replaces `pairs` with every (i, k), i < k, whose boxes overlap, sorted. `boxes` must keep its size between
  // calls (one box per contact graphic, same order).
  void findOverlaps(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs);

 private:
  std::vector<int> order_;  // box indices sorted by min.x, kept between calls
  std::vector<Aabb> sorted_;  // the boxes in that order, contiguous for the sweep (scratch kept between calls)
};

}  // namespace lodestone
