// Uniform-grid broad phase. Each ordinary box is entered once, in the cell holding its low corner; the cells are
// bucketed by a hash with a counting sort. A box then looks for partners of higher index in the cells where the
// low corner of an overlapping box can lie — its own range extended by one cell downwards — so every pair is
// found once, by its first box, and the pairs come out in order without a global sort.
#include "broad_phase.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lodestone {

namespace {

// A box counts as large — compared with every box, kept out of the grid — when it is this many times the median
// box's size or more.
constexpr double kLargeBoxRatio = 4.0;
// Below this many boxes, comparing every pair is cheaper than building a grid.
constexpr int kBruteForceMaxBoxes = 24;

void compareAll(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs) {
  const int count = static_cast<int>(boxes.size());
  for (int i = 0; i < count; ++i) {
    for (int k = i + 1; k < count; ++k) {
      if (boxes[static_cast<size_t>(i)].overlaps(boxes[static_cast<size_t>(k)])) pairs.emplace_back(i, k);
    }
  }
}

double extentOf(const Aabb& box) { return (box.max - box.min).maxCoeff(); }

}  // namespace

BroadPhase::Cell BroadPhase::cellOf(const Vector3& point) const {
  const Vector3 scaled = (point - origin_) / cellSize_;
  return {static_cast<std::int64_t>(std::floor(scaled.x())), static_cast<std::int64_t>(std::floor(scaled.y())),
          static_cast<std::int64_t>(std::floor(scaled.z()))};
}

std::uint32_t BroadPhase::bucketOf(const Cell& cell) const {
  // The three coordinates folded into one word, then mixed (splitmix64's finaliser) so neighbouring cells land in
  // unrelated buckets.
  std::uint64_t h = static_cast<std::uint64_t>(cell.x) * 0x9E3779B97F4A7C15ull ^
                    static_cast<std::uint64_t>(cell.y) * 0xC2B2AE3D27D4EB4Full ^
                    static_cast<std::uint64_t>(cell.z) * 0x165667B19E3779F9ull;
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  return static_cast<std::uint32_t>(h ^ (h >> 31)) & bucketMask_;
}

void BroadPhase::findOverlaps(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs) {
  pairs.clear();
  const int count = static_cast<int>(boxes.size());
  if (count <= kBruteForceMaxBoxes) {
    compareAll(boxes, pairs);
    return;
  }

  // Which boxes are large: kLargeBoxRatio times the median extent.
  extents_.resize(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) extents_[static_cast<size_t>(i)] = extentOf(boxes[static_cast<size_t>(i)]);
  const auto middle = extents_.begin() + count / 2;
  std::nth_element(extents_.begin(), middle, extents_.end());
  const double largeExtent = kLargeBoxRatio * *middle;
  isLarge_.assign(static_cast<size_t>(count), false);
  large_.clear();
  cellSize_ = 0;
  origin_ = Vector3::Constant(std::numeric_limits<double>::infinity());
  for (int i = 0; i < count; ++i) {
    const Aabb& box = boxes[static_cast<size_t>(i)];
    const double extent = extentOf(box);
    if (extent > largeExtent) {
      isLarge_[static_cast<size_t>(i)] = true;
      large_.push_back(i);
    } else {
      cellSize_ = std::max(cellSize_, extent);  // a cell holds the largest ordinary box
      origin_ = origin_.cwiseMin(box.min);
    }
  }
  if (!(cellSize_ > 0) || !std::isfinite(cellSize_) || !origin_.allFinite()) {  // points or non-finite boxes
    compareAll(boxes, pairs);
    return;
  }

  // Counting sort of the ordinary boxes into a power-of-two table of buckets by the hash of their low corner's
  // cell. Different cells may share a bucket: each entry keeps its cell.
  size_t buckets = 1;
  while (buckets < 2 * static_cast<size_t>(count)) buckets *= 2;
  bucketMask_ = static_cast<std::uint32_t>(buckets - 1);
  bucketStarts_.assign(buckets + 1, 0);
  entryBuckets_.resize(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) {
    if (isLarge_[static_cast<size_t>(i)]) continue;
    entryBuckets_[static_cast<size_t>(i)] = bucketOf(cellOf(boxes[static_cast<size_t>(i)].min));
    ++bucketStarts_[entryBuckets_[static_cast<size_t>(i)] + 1];
  }
  for (size_t b = 0; b < buckets; ++b) bucketStarts_[b + 1] += bucketStarts_[b];
  entries_.resize(static_cast<size_t>(count - static_cast<int>(large_.size())));
  fill_.assign(bucketStarts_.begin(), bucketStarts_.end() - 1);
  for (int i = 0; i < count; ++i) {  // in index order, so each bucket lists its boxes in index order
    if (isLarge_[static_cast<size_t>(i)]) continue;
    entries_[static_cast<size_t>(fill_[entryBuckets_[static_cast<size_t>(i)]]++)] = {i, cellOf(boxes[static_cast<size_t>(i)].min)};
  }

  std::vector<int>& partners = partners_;
  for (int i = 0; i < count; ++i) {
    const Aabb& box = boxes[static_cast<size_t>(i)];
    partners.clear();
    if (isLarge_[static_cast<size_t>(i)]) {
      for (int k = i + 1; k < count; ++k) {
        if (box.overlaps(boxes[static_cast<size_t>(k)])) partners.push_back(k);
      }
    } else {
      // An ordinary box overlapping this one has its low corner in [min − cell, max].
      const Cell low = cellOf(box.min - Vector3::Constant(cellSize_)), high = cellOf(box.max);
      for (std::int64_t x = low.x; x <= high.x; ++x) {
        for (std::int64_t y = low.y; y <= high.y; ++y) {
          for (std::int64_t z = low.z; z <= high.z; ++z) {
            const Cell cell{x, y, z};
            const std::uint32_t bucket = bucketOf(cell);
            for (int e = bucketStarts_[bucket]; e < bucketStarts_[bucket + 1]; ++e) {
              const Entry& entry = entries_[static_cast<size_t>(e)];
              if (entry.box > i && entry.cell == cell && box.overlaps(boxes[static_cast<size_t>(entry.box)])) {
                partners.push_back(entry.box);
              }
            }
          }
        }
      }
      for (const int l : large_) {
        if (l > i && box.overlaps(boxes[static_cast<size_t>(l)])) partners.push_back(l);
      }
    }
    std::sort(partners.begin(), partners.end());
    for (const int k : partners) pairs.emplace_back(i, k);
  }
}

// ---- VerletList -------------------------------------------------------------------------------------------------

void VerletList::findOverlaps(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs) {
  update(boxes);
  overlapsAmong(boxes, pairs);
}

bool VerletList::update(std::span<const Aabb> boxes) {
  if (covers(boxes)) return false;
  build(boxes);
  return true;
}

bool VerletList::covers(std::span<const Aabb> boxes) const {
  if (boxes.size() != grown_.size()) return false;
  for (size_t i = 0; i < boxes.size(); ++i) {
    if (!grown_[i].contains(boxes[i])) return false;
  }
  return true;
}

void VerletList::overlapsAmong(std::span<const Aabb> boxes, std::vector<std::pair<int, int>>& pairs) const {
  pairs.clear();
  for (const auto& [i, k] : kept_) {
    if (boxes[static_cast<size_t>(i)].overlaps(boxes[static_cast<size_t>(k)])) pairs.emplace_back(i, k);
  }
}

void VerletList::build(std::span<const Aabb> boxes) {
  ++builds_;
  double margin = 0;
  if (!boxes.empty()) {
    extents_.resize(boxes.size());
    for (size_t i = 0; i < boxes.size(); ++i) extents_[i] = extentOf(boxes[i]);
    const auto middle = extents_.begin() + static_cast<std::ptrdiff_t>(extents_.size() / 2);
    std::nth_element(extents_.begin(), middle, extents_.end());
    if (std::isfinite(*middle)) margin = marginFraction_ * *middle;
  }
  grown_.resize(boxes.size());
  for (size_t i = 0; i < boxes.size(); ++i) grown_[i] = boxes[i].inflated(margin);
  broadPhase_.findOverlaps(grown_, kept_);
}

}  // namespace lodestone
