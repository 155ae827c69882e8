// The broad phase: which bounding boxes overlap. One instance serves every Force_Contact of a model. A uniform
// grid sized to the typical box keeps the cost linear in the number of boxes plus the number of overlapping pairs
// however the boxes are arranged (sweep and prune along one axis, used before, grows as N^(5/3) in a cubic pile:
// every box meets the whole slab of boxes that share its x range; collision_benchmark compares them). The few
// boxes much larger than the median — floors, walls — are tested against every box instead of setting the cell.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "shape.h"

namespace lodestone {

class BroadPhase {
 public:
  // Replaces `pairs` with every (i, k), i < k, whose boxes overlap (touching faces count), sorted.
  void findOverlaps(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs);

 private:
  struct Cell {
    std::int64_t x, y, z;
    bool operator==(const Cell&) const = default;
  };
  struct Entry {
    int box;
    Cell cell;
  };
  Cell cellOf(const Vector3& point) const;
  std::uint32_t bucketOf(const Cell& cell) const;

  double cellSize_ = 0;
  Vector3 origin_ = Vector3::Zero();
  std::uint32_t bucketMask_ = 0;
  // Scratch kept between calls, so a call allocates nothing once sizes have settled.
  std::vector<double> extents_;
  std::vector<bool> isLarge_;
  std::vector<int> large_;
  std::vector<std::uint32_t> entryBuckets_;  // per box: the bucket of its low corner's cell
  std::vector<int> bucketStarts_;            // entries_ of bucket b: [bucketStarts_[b], bucketStarts_[b + 1])
  std::vector<int> fill_;
  std::vector<Entry> entries_;
  std::vector<int> partners_;
};

}  // namespace lodestone
