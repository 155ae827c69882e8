// Quadrature of the analytical contact patches: polygons by Gauss–Legendre points on a fan of triangles, lines by
// Gauss–Legendre points on panels, each sample weighted by its area (or cross-section) times its depth.
#include "contact_patch.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <Eigen/Eigenvalues>

#include "solver/core/thread_scratch.h"

namespace lodestone::detail {

namespace {

// Two-point Gauss–Legendre rule on [0, 1]: nodes 1/2 ∓ 1/(2√3), weights 1/2 each.
constexpr double kGaussLow = 0.5 - 0.28867513459481287;
constexpr double kGaussHigh = 0.5 + 0.28867513459481287;
constexpr double kGaussNodes[2] = {kGaussLow, kGaussHigh};
constexpr double kGaussWeight = 0.5;

// Panels of a line contact: an even number, so a spin about the line's middle sees |s| exactly.
constexpr int kLinePanels = 4;

}  // namespace

namespace {
std::vector<PatchBuilder::Sample>& sampleStorage() {
  std::vector<PatchBuilder::Sample>& storage =
      threadScratch<std::vector<PatchBuilder::Sample>, struct PatchBuilderSamples>();
  storage.clear();
  return storage;
}
}  // namespace

PatchBuilder::PatchBuilder(const Vector3& normal, bool samplesOnA, double offset)
    : normal_(normal), samplesOnA_(samplesOnA), offset_(offset), samples_(sampleStorage()) {}

double PatchBuilder::depthAt(const Vector3& x) const {
  return offset_ - (samplesOnA_ ? normal_ : Vector3(-normal_)).dot(x);
}

void PatchBuilder::add(const Vector3& position, double measure, double weight) {
  const double depth = depthAt(position);
  if (!(weight > 0) || !(depth > 0)) return;
  samples_.push_back({position, depth, weight, measure});
}

void PatchBuilder::addPolygon(std::span<const Vector3> polygon) {
  const std::size_t count = polygon.size();
  if (count == 0) return;
  // The centroid of the projected area, from a fan about vertex 0 (a vertex added on an edge moves it not at all, so
  // the samples move continuously as clipping adds and drops vertices).
  double area = 0;
  Vector3 centroid = Vector3::Zero();
  double longest = 0;
  for (std::size_t k = 0; k < count; ++k) {
    longest = std::max(longest, (polygon[(k + 1) % count] - polygon[k]).norm());
    if (k == 0 || k + 1 == count) continue;
    const double part = 0.5 * (polygon[k] - polygon[0]).cross(polygon[k + 1] - polygon[0]).dot(normal_);
    area += part;
    centroid += part * (polygon[0] + polygon[k] + polygon[k + 1]) / 3;
  }
  // Seen edge-on (a lying cylinder's cap) it has no area on the patch plane to carry a force over.
  if (!(std::abs(area) > 1e-12 * longest * longest)) return;
  centroid /= area;
  // Two by two points on every fan triangle. (One point across the narrow triangles of a cylinder's end would halve
  // its samples, but a rule chosen by the vertex count jumps as clipping adds and drops vertices, and a cap clipped to
  // a face's square needs two.)
  for (std::size_t k = 0; k < count; ++k) {
    const Vector3& from = polygon[k];
    const Vector3& to = polygon[(k + 1) % count];
    const double triangle = 0.5 * std::abs((from - centroid).cross(to - centroid).dot(normal_));
    if (triangle == 0) continue;
    // The Duffy map x = c + u(p − c) + uv(q − p) of the unit square onto the triangle (c, p, q), Jacobian 2·area·u.
    for (const double u : kGaussNodes) {
      for (const double v : kGaussNodes) {
        const Vector3 x = centroid + u * (from - centroid) + u * v * (to - from);
        const double area = 2 * triangle * u * kGaussWeight * kGaussWeight;
        add(x, area, area * depthAt(x));
      }
    }
  }
}

void PatchBuilder::addLine(const Vector3& start, const Vector3& end, double radius) {
  const double panel = (end - start).norm() / kLinePanels;
  for (int k = 0; k < kLinePanels; ++k) {
    for (const double node : kGaussNodes) {
      const Vector3 x = start + ((k + node) / kLinePanels) * (end - start);
      const double depth = std::min(depthAt(x), radius);
      if (depth <= 0) continue;
      // The strip under the line is 2·√(2Rδ) wide.
      const double length = panel * kGaussWeight;
      add(x, length * 2 * std::sqrt(2 * radius * depth),
          length * (4.0 / 3.0) * std::sqrt(2 * radius) * depth * std::sqrt(depth));
    }
  }
}

std::size_t PatchBuilder::appendTo(std::vector<ContactPoint>& points) const {
  double total = 0;
  for (const Sample& sample : samples_) total += sample.weight;
  if (!(total > 0)) return 0;
  std::vector<DepthSample>& depths = threadScratch<std::vector<DepthSample>, struct AppendToDepths>();
  std::vector<double>& tilts = threadScratch<std::vector<double>, struct AppendToTilts>();
  depths.clear();
  for (const Sample& sample : samples_) depths.push_back({sample.position, sample.depth, sample.measure});
  tilts.resize(depths.size());
  const double patchDepth = lawDepth(depths, normal_, tilts);
  const Vector3 outward = samplesOnA_ ? normal_ : Vector3(-normal_);
  for (size_t k = 0; k < samples_.size(); ++k) {
    const Sample& sample = samples_[k];
    ContactPoint point;
    point.tilt = tilts[k];
    point.normal = normal_;
    point.depth = patchDepth;
    point.area = area_;
    point.share = sample.weight / total;
    // Centred on the middle of the sample's own overlap, the two surface points a patch depth apart.
    const Vector3 middle = sample.position + 0.5 * sample.depth * outward;
    point.pointOnA = middle - 0.5 * patchDepth * normal_;
    point.pointOnB = middle + 0.5 * patchDepth * normal_;
    points.push_back(point);
  }
  return samples_.size();
}

double lawDepth(std::span<const DepthSample> samples, const Vector3& normal, std::span<double> tilts,
                double lineSpread, double enteringMeasure) {
  std::fill(tilts.begin(), tilts.end(), 0.0);
  // The measure-weighted centroid and mean depth, and the least-squares gradient of the depth in the patch plane.
  // And the largest measure of a point of a surface, for `enteringMeasure`.
  double measure = 0, meanDepth = 0, largestMeasure = 0;
  Vector3 centroid = Vector3::Zero();
  for (const DepthSample& sample : samples) {
    measure += sample.measure;
    meanDepth += sample.measure * sample.depth;
    centroid += sample.measure * sample.position;
    if (sample.estimatedArea == 0) largestMeasure = std::max(largestMeasure, sample.measure);
  }
  Eigen::Vector2d gradient = Eigen::Vector2d::Zero();
  const Vector3 first = normal.unitOrthogonal(), second = normal.cross(first);
  if (samples.size() > 1 && measure > 0) {
    meanDepth /= measure;
    centroid /= measure;
    Eigen::Matrix2d spread = Eigen::Matrix2d::Zero();
    Eigen::Vector2d covariance = Eigen::Vector2d::Zero();
    for (const DepthSample& sample : samples) {
      const Vector3 offset = sample.position - centroid;
      const Eigen::Vector2d r(first.dot(offset), second.dot(offset));
      spread += sample.measure * r * r.transpose();
      covariance += sample.measure * r * (sample.depth - meanDepth);
    }
    // Samples along a line (a cylinder lying on a face) spread in one direction only: no tilt across it. The
    // gradient is the least-squares one in the directions the samples spread over; with a `lineSpread`, faded out
    // (C¹) where the spread falls below that share of the widest (see contact_patch.h).
    const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> directions(spread);
    const double widest = directions.eigenvalues().cwiseAbs().maxCoeff();
    for (int k = 0; k < 2; ++k) {
      const double eigenvalue = directions.eigenvalues()[k];
      if (!(eigenvalue > 1e-12 * widest)) continue;
      const Eigen::Vector2d direction = directions.eigenvectors().col(k);
      const double x = lineSpread > 0 ? std::min(eigenvalue / (lineSpread * widest), 1.0) : 1.0;
      gradient += x * x * (3 - 2 * x) * direction * direction.dot(covariance) / eigenvalue;
    }
  }
  // With an `enteringMeasure`, a point of a surface whose measure is below that share of the largest such counts
  // towards the deepest only in part (C¹ in its measure): what the fit leaves of its depth is scaled towards the fit's
  // mean. The largest, not the mean: a sample joining with nothing must not move the others' parts.
  const double fullMeasure = samples.size() > 1 ? enteringMeasure * largestMeasure : 0.0;
  double deepest = 0, estimateSum = 0, estimatedArea = 0;
  for (size_t k = 0; k < samples.size(); ++k) {
    const DepthSample& sample = samples[k];
    const Vector3 offset = sample.position - centroid;
    const double tilt = gradient.dot(Eigen::Vector2d(first.dot(offset), second.dot(offset)));
    if (sample.estimatedArea > 0) {
      estimateSum += sample.measure * (sample.depth - tilt);
      estimatedArea += sample.estimatedArea;
    } else if (sample.measure < fullMeasure) {
      const double x = sample.measure / fullMeasure;
      deepest = std::max(deepest, meanDepth + x * x * (3 - 2 * x) * (sample.depth - tilt - meanDepth));
    } else {
      deepest = std::max(deepest, sample.depth - tilt);
    }
    if (!tilts.empty()) tilts[k] = tilt;
  }
  return estimatedArea > 0 ? std::max(deepest, estimateSum / estimatedArea) : deepest;
}

void clipPolygon(std::span<const Vector3> polygon, const Vector3& plane, double offset, std::vector<Vector3>& clipped) {
  clipped.clear();
  const std::size_t count = polygon.size();
  for (std::size_t i = 0; i < count; ++i) {
    const Vector3& current = polygon[i];
    const Vector3& next = polygon[(i + 1) % count];
    const double currentHeight = plane.dot(current) - offset, nextHeight = plane.dot(next) - offset;
    if (currentHeight <= 0) clipped.push_back(current);
    if ((currentHeight < 0 && nextHeight > 0) || (currentHeight > 0 && nextHeight < 0)) {
      clipped.push_back(current + (next - current) * (currentHeight / (currentHeight - nextHeight)));
    }
  }
}

void clipPolygonInPlace(std::vector<Vector3>& polygon, const Vector3& plane, double offset) {
  std::vector<Vector3>& clipped = threadScratch<std::vector<Vector3>, struct ClipPolygonInPlaceClipped>();
  clipPolygon(polygon, plane, offset, clipped);
  polygon.swap(clipped);
}

double projectedArea(std::span<const Vector3> polygon, const Vector3& normal) {
  Vector3 sum = Vector3::Zero();
  for (std::size_t i = 0; i < polygon.size(); ++i) sum += polygon[i].cross(polygon[(i + 1) % polygon.size()]);
  return 0.5 * std::abs(sum.dot(normal));
}

void capPolygon(const Vector3& centre, double radius, const Vector3& first, const Vector3& second,
                std::vector<Vector3>& polygon) {
  polygon.clear();
  for (int k = 0; k < kCapPolygonSides; ++k) {
    const double angle = 2 * std::numbers::pi * k / kCapPolygonSides;
    polygon.push_back(centre + radius * (std::cos(angle) * first + std::sin(angle) * second));
  }
}

bool clipToPositive(double from, double to, double& low, double& high) {
  if (from <= 0 && to <= 0) return false;
  if (from < 0) low = std::max(low, from / (from - to));
  if (to < 0) high = std::min(high, from / (from - to));
  return low < high;
}

void boxFaceAlong(const Vector3& centre, const Matrix3& axes, const Vector3& half, const Vector3& direction,
                  std::vector<Vector3>& polygon) {
  const Vector3 alignment = axes.transpose() * direction;
  int faceAxis = 0;
  alignment.cwiseAbs().maxCoeff(&faceAxis);
  const Vector3 faceNormal = (alignment[faceAxis] >= 0 ? 1.0 : -1.0) * axes.col(faceAxis);
  const int p = (faceAxis + 1) % 3, q = (faceAxis + 2) % 3;
  const Vector3 faceCentre = centre + half[faceAxis] * faceNormal;
  const Vector3 sideP = half[p] * axes.col(p), sideQ = half[q] * axes.col(q);
  polygon.assign({faceCentre + sideP + sideQ, faceCentre - sideP + sideQ, faceCentre - sideP - sideQ,
                  faceCentre + sideP - sideQ});
}

double lyingCylinderArea(double radius, double depth, double length) {
  const double capped = std::min(depth, radius);
  return 2 * std::sqrt(std::max(0.0, 2 * radius * capped - capped * capped)) * length;
}

double diskSegmentArea(double radius, double chord) {
  if (chord <= -radius) return std::numbers::pi * radius * radius;
  if (chord >= radius) return 0;
  return radius * radius * std::acos(chord / radius) - chord * std::sqrt(radius * radius - chord * chord);
}

}  // namespace lodestone::detail
