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

// The broad phase's pairs kept from call to call while the boxes move little (a Verlet list, after molecular
// dynamics' neighbour lists). The list holds the overlapping pairs of the boxes grown by a margin when it was built;
// while every box stays within its grown box, a pair that overlaps now overlapped grown, so the kept pairs whose
// boxes overlap now are all the overlapping pairs, and checking a few thousand kept pairs costs far less than
// hashing every box into the grid again. A box that has left its grown box (its graphic moved or turned by more than
// the margin allows) has the list built again.
class VerletList {
 public:
  // Boxes are grown by `marginFraction` times the median box's extent when the list is built.
  explicit VerletList(double marginFraction) : marginFraction_(marginFraction) {}

  // Replaces `pairs` with exactly BroadPhase::findOverlaps's pairs for `boxes` (sorted, i < k), building the list
  // again first when it does not cover them.
  void findOverlaps(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs);
  // Builds the list again when it does not cover `boxes`; true when it did.
  bool update(std::span<const Aabb> boxes);
  // Whether each box lies within the grown box of its index: then the kept pairs include every overlapping pair.
  bool covers(std::span<const Aabb> boxes) const;
  // Replaces `pairs` with the kept pairs whose boxes overlap; all the overlapping pairs when covers(boxes).
  void overlapsAmong(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs) const;
  // The pairs whose grown boxes overlap, sorted (i < k).
  const std::vector<std::pair<int, int>>& kept() const { return kept_; }
  // How often the list was built.
  long builds() const { return builds_; }

 private:
  void build(std::span<const Aabb> boxes);

  double marginFraction_;
  BroadPhase broadPhase_;
  std::vector<Aabb> grown_;
  std::vector<std::pair<int, int>> kept_;
  std::vector<double> extents_;  // scratch
  long builds_ = 0;
};

}  // namespace lodestone
