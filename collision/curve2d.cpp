#include "curve2d.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <Eigen/SparseLU>

namespace lodestone {
namespace {

double cross(const Vector2& a, const Vector2& b) { return a.x() * b.y() - a.y() * b.x(); }

// Twice the signed area of the polygon through the points: > 0 counter-clockwise.
double twiceSignedArea(const std::vector<Vector2>& points) {
  double sum = 0;
  for (size_t k = 0; k < points.size(); ++k) sum += cross(points[k], points[(k + 1) % points.size()]);
  return sum;
}

using Bezier = std::array<Vector2, 4>;

std::array<Bezier, 2> splitInHalf(const Bezier& b) {
  const Vector2 p01 = 0.5 * (b[0] + b[1]), p12 = 0.5 * (b[1] + b[2]), p23 = 0.5 * (b[2] + b[3]);
  const Vector2 p012 = 0.5 * (p01 + p12), p123 = 0.5 * (p12 + p23);
  const Vector2 middle = 0.5 * (p012 + p123);
  return {Bezier{b[0], p01, p012, middle}, Bezier{middle, p123, p23, b[3]}};
}

std::array<Vector2, 2> boxOf(const Bezier& b) {
  Vector2 low = b[0], high = b[0];
  for (const Vector2& p : b) {
    low = low.cwiseMin(p);
    high = high.cwiseMax(p);
  }
  return {low, high};
}

bool boxesOverlap(const std::array<Vector2, 2>& a, const std::array<Vector2, 2>& b, double margin) {
  return (a[0].array() <= b[1].array() + margin).all() && (b[0].array() <= a[1].array() + margin).all();
}

// How far a Bézier piece is from its chord: the control polygon's length less the chord's. Zero only for a straight
// piece; a piece turning through a small angle θ has an excess of about θ²/8 of its length.
double bendExcess(const Bezier& b) {
  return (b[1] - b[0]).norm() + (b[2] - b[1]).norm() + (b[3] - b[2]).norm() - (b[3] - b[0]).norm();
}

// A piece of one segment of a curve, [from, to] of the segment's Bézier parameter, for subdivision.
struct BezierPiece {
  int segment;
  double from, to;
  Bezier control;
};

std::array<BezierPiece, 2> splitInHalf(const BezierPiece& piece) {
  const auto halves = splitInHalf(piece.control);
  const double middle = 0.5 * (piece.from + piece.to);
  return {BezierPiece{piece.segment, piece.from, middle, halves[0]},
          BezierPiece{piece.segment, middle, piece.to, halves[1]}};
}

}  // namespace

SplineCurve2d::SplineCurve2d(std::span<const Vector2> points, bool closed, CurveMaterial material) {
  points_.assign(points.begin(), points.end());
  Vector2 low = Vector2::Constant(std::numeric_limits<double>::infinity()), high = -low;
  for (const Vector2& p : points_) {
    low = low.cwiseMin(p);
    high = high.cwiseMax(p);
  }
  const double extent = points_.empty() ? 0 : (high - low).norm();
  // The first point repeated as the last closes the curve (MotionSolve's curve data closes a curve so).
  if (points_.size() >= 2 && (points_.front() - points_.back()).norm() <= 1e-12 * extent) {
    points_.pop_back();
    closed = true;
  }
  closed_ = closed;
  const size_t count = points_.size();
  if (count < (closed ? 3u : 2u)) {
    throw std::invalid_argument(std::string("a ") + (closed ? "closed" : "open") + " curve needs at least " +
                                (closed ? "three" : "two") + " distinct points, not " + std::to_string(count));
  }
  for (size_t k = 0; k + (closed ? 0 : 1) < count; ++k) {
    if ((points_[(k + 1) % count] - points_[k]).norm() <= 1e-12 * extent) {
      throw std::invalid_argument("curve points " + std::to_string(k) + " and " + std::to_string((k + 1) % count) +
                                  " coincide");
    }
  }
  const bool sideFitsClosure = closed ? (material == CurveMaterial::Inside || material == CurveMaterial::Outside)
                                      : (material == CurveMaterial::Left || material == CurveMaterial::Right);
  if (!sideFitsClosure) {
    throw std::invalid_argument(closed ? "a closed curve has its material inside or outside, not left or right"
                                       : "an open curve has its material left or right, not inside or outside");
  }

  // Straight: every point within 1e-9 of the extent from the line through the first point and the farthest one.
  size_t farthest = 0;
  for (size_t k = 0; k < count; ++k) {
    if ((points_[k] - points_[0]).norm() > (points_[farthest] - points_[0]).norm()) farthest = k;
  }
  const Vector2 direction = (points_[farthest] - points_[0]).normalized();
  straight_ = std::all_of(points_.begin(), points_.end(), [&](const Vector2& p) {
    return std::fabs(cross(direction, p - points_[0])) <= 1e-9 * extent;
  });
  if (closed && straight_) throw std::invalid_argument("a closed curve through points on one line encloses nothing");

  // Material on the left of the direction of travel.
  const bool reverse = closed ? ((twiceSignedArea(points_) > 0) != (material == CurveMaterial::Inside))
                              : material == CurveMaterial::Right;
  if (reverse) std::reverse(points_.begin(), points_.end());

  const int segments = static_cast<int>(closed ? count : count - 1);
  const int n = static_cast<int>(count);
  auto point = [&](int k) -> const Vector2& { return points_[(k % n + n) % n]; };
  std::vector<double> spans(segments);
  knots_.assign(1, 0.0);
  for (int k = 0; k < segments; ++k) {
    spans[k] = (point(k + 1) - point(k)).norm();
    knots_.push_back(knots_.back() + spans[k]);
  }
  auto span = [&](int k) { return spans[(k % segments + segments) % segments]; };

  // The second derivatives M_k at the points: continuity of the first derivative at each inner point gives
  // h_{k−1} M_{k−1} + 2 (h_{k−1} + h_k) M_k + h_k M_{k+1} = 6 ((P_{k+1} − P_k)/h_k − (P_k − P_{k−1})/h_{k−1}),
  // cyclic for a closed curve; an open one adds its two end conditions.
  std::vector<Eigen::Triplet<double>> entries;
  Eigen::MatrixX2d rightSide = Eigen::MatrixX2d::Zero(n, 2);
  auto continuityRow = [&](int k) {
    const double before = span(k - 1), after = span(k);
    entries.emplace_back(k, (k - 1 + n) % n, before);
    entries.emplace_back(k, k, 2 * (before + after));
    entries.emplace_back(k, (k + 1) % n, after);
    rightSide.row(k) = (6 * ((point(k + 1) - point(k)) / after - (point(k) - point(k - 1)) / before)).transpose();
  };
  if (closed) {
    for (int k = 0; k < n; ++k) continuityRow(k);
  } else {
    for (int k = 1; k + 1 < n; ++k) continuityRow(k);
    if (n == 2) {  // a straight line: no curvature
      entries.emplace_back(0, 0, 1.0);
      entries.emplace_back(1, 1, 1.0);
    } else if (n == 3) {  // the parabola through three points: one second derivative throughout
      entries.emplace_back(0, 0, 1.0);
      entries.emplace_back(0, 1, -1.0);
      entries.emplace_back(2, 1, 1.0);
      entries.emplace_back(2, 2, -1.0);
    } else {  // not-a-knot: the third derivative continuous across the second and the last but one point
      entries.emplace_back(0, 0, spans[1]);
      entries.emplace_back(0, 1, -(spans[0] + spans[1]));
      entries.emplace_back(0, 2, spans[0]);
      const int last = n - 1;
      entries.emplace_back(last, last - 2, spans[last - 1]);
      entries.emplace_back(last, last - 1, -(spans[last - 2] + spans[last - 1]));
      entries.emplace_back(last, last, spans[last - 2]);
    }
  }
  Eigen::SparseMatrix<double> system(n, n);
  system.setFromTriplets(entries.begin(), entries.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> solver;
  solver.compute(system);
  if (solver.info() != Eigen::Success) throw std::invalid_argument("the curve's spline system is singular");
  const Eigen::MatrixX2d secondDerivatives = solver.solve(rightSide);
  auto second = [&](int k) -> Vector2 { return secondDerivatives.row((k % n + n) % n).transpose(); };

  for (int k = 0; k < segments; ++k) {
    const double h = spans[k];
    const Vector2 m0 = second(k), m1 = second(k + 1);
    coefficients_.push_back(
        {point(k), (point(k + 1) - point(k)) / h - h * (2 * m0 + m1) / 6, m0 / 2, (m1 - m0) / (6 * h)});
  }
  updateBounds();
}

void SplineCurve2d::updateBounds() {
  tree_.clear();
  tree_.reserve(2 * segmentCount());
  buildTree(0, segmentCount());
  boundsMin_ = tree_[0].low;
  boundsMax_ = tree_[0].high;
}

int SplineCurve2d::buildTree(int firstSegment, int endSegment) {
  const int index = static_cast<int>(tree_.size());
  tree_.push_back({Vector2::Zero(), Vector2::Zero(), firstSegment, endSegment, -1, -1});
  if (endSegment - firstSegment == 1) {
    const auto box = boxOf(bezier(firstSegment));
    tree_[index].low = box[0];
    tree_[index].high = box[1];
    return index;
  }
  const int middle = (firstSegment + endSegment) / 2;
  const int lower = buildTree(firstSegment, middle), upper = buildTree(middle, endSegment);
  BoxNode& node = tree_[index];
  node.lowerChild = lower;
  node.upperChild = upper;
  node.low = tree_[lower].low.cwiseMin(tree_[upper].low);
  node.high = tree_[lower].high.cwiseMax(tree_[upper].high);
  return index;
}

SplineCurve2d SplineCurve2d::moved(const Eigen::Matrix2d& rotation, const Vector2& translation) const {
  SplineCurve2d result = *this;
  for (Vector2& p : result.points_) p = rotation * p + translation;
  for (Cubic& c : result.coefficients_) {
    c.c0 = rotation * c.c0 + translation;
    c.c1 = rotation * c.c1;
    c.c2 = rotation * c.c2;
    c.c3 = rotation * c.c3;
  }
  result.updateBounds();
  return result;
}

double SplineCurve2d::wrap(double u) const {
  const double total = length();
  if (!closed_) return std::clamp(u, 0.0, total);
  u = std::fmod(u, total);
  if (u < 0) u += total;
  return u >= total ? 0.0 : u;
}

int SplineCurve2d::segmentOf(double u) const {
  const auto above = std::upper_bound(knots_.begin(), knots_.end(), u);
  return std::clamp(static_cast<int>(above - knots_.begin()) - 1, 0, segmentCount() - 1);
}

Vector2 SplineCurve2d::position(double u) const {
  u = wrap(u);
  const int k = segmentOf(u);
  const Cubic& c = coefficients_[k];
  const double t = u - knots_[k];
  return c.c0 + t * (c.c1 + t * (c.c2 + t * c.c3));
}

Vector2 SplineCurve2d::derivative(double u) const {
  u = wrap(u);
  const int k = segmentOf(u);
  const Cubic& c = coefficients_[k];
  const double t = u - knots_[k];
  return c.c1 + t * (2 * c.c2 + 3 * t * c.c3);
}

Vector2 SplineCurve2d::secondDerivative(double u) const {
  u = wrap(u);
  const int k = segmentOf(u);
  const Cubic& c = coefficients_[k];
  return 2 * c.c2 + 6 * (u - knots_[k]) * c.c3;
}

Vector2 SplineCurve2d::tangent(double u) const { return derivative(u).normalized(); }

Vector2 SplineCurve2d::normal(double u) const {
  const Vector2 t = tangent(u);
  return {t.y(), -t.x()};
}

double SplineCurve2d::curvature(double u) const {
  const Vector2 first = derivative(u);
  return cross(first, secondDerivative(u)) / std::pow(first.norm(), 3);
}

std::array<Vector2, 4> SplineCurve2d::bezier(int k) const {
  const Cubic& c = coefficients_[k];
  const double h = knots_[k + 1] - knots_[k];
  const Vector2 a1 = c.c1 * h, a2 = c.c2 * h * h, a3 = c.c3 * h * h * h;
  return {c.c0, c.c0 + a1 / 3, c.c0 + (2 * a1 + a2) / 3, c.c0 + a1 + a2 + a3};
}

CurvePoint SplineCurve2d::closest(const Vector2& point) const {
  // Down the box tree, the nearer child first; a box farther than the best point found so far holds nothing better.
  auto boxSquaredDistance = [&](const BoxNode& node) {
    return (node.low - point).cwiseMax(point - node.high).cwiseMax(0.0).squaredNorm();
  };
  // Depth first, so the stack holds at most one node more than the tree has levels (a balanced tree of at most 2^62
  // segments); on the stack, not the heap: a contact step calls this thousands of times.
  std::array<int, 64> pending;
  int pendingCount = 0;
  pending[pendingCount++] = 0;
  double bestSquared = std::numeric_limits<double>::infinity(), bestParameter = 0;
  while (pendingCount > 0) {
    const BoxNode& node = tree_[pending[--pendingCount]];
    if (boxSquaredDistance(node) >= bestSquared) continue;
    if (node.lowerChild >= 0) {
      const bool lowerNearer = boxSquaredDistance(tree_[node.lowerChild]) <= boxSquaredDistance(tree_[node.upperChild]);
      pending[pendingCount++] = lowerNearer ? node.upperChild : node.lowerChild;
      pending[pendingCount++] = lowerNearer ? node.lowerChild : node.upperChild;
      continue;
    }
    const int k = node.firstSegment;
    const Cubic& c = coefficients_[k];
    const double h = knots_[k + 1] - knots_[k];
    auto at = [&](double t) { return Vector2(c.c0 + t * (c.c1 + t * (c.c2 + t * c.c3))); };
    auto slope = [&](double t) { return Vector2(c.c1 + t * (2 * c.c2 + 3 * t * c.c3)); };
    // g(t) = (P(t) − point)·P'(t), half the derivative of the squared distance: a minimum where g goes from − to +.
    auto g = [&](double t) { return (at(t) - point).dot(slope(t)); };
    auto consider = [&](double t) {
      const double squared = (at(t) - point).squaredNorm();
      if (squared < bestSquared) {
        bestSquared = squared;
        bestParameter = knots_[k] + t;
      }
    };
    constexpr int kSamples = 8;
    double previousT = 0, previousG = g(0);
    consider(0);
    for (int j = 1; j <= kSamples; ++j) {
      const double t = h * j / kSamples, gt = g(t);
      consider(t);
      if (previousG < 0 && gt > 0) {
        // Newton on g, kept inside the bracket [low, high] where g changes sign; bisection whenever a Newton step
        // would leave it or g' ≤ 0 (away from a minimum).
        double low = previousT, high = t, x = 0.5 * (low + high);
        for (int iteration = 0; iteration < 60; ++iteration) {
          const Vector2 offset = at(x) - point, first = slope(x);
          const Vector2 bend = 2 * c.c2 + 6 * x * c.c3;
          const double value = offset.dot(first), change = first.squaredNorm() + offset.dot(bend);
          (value < 0 ? low : high) = x;
          double next = change > 0 ? x - value / change : 0.5 * (low + high);
          if (!(next > low && next < high)) next = 0.5 * (low + high);
          const bool converged = std::fabs(next - x) <= 1e-15 * (h + std::fabs(knots_[k]));
          x = next;
          if (converged || high - low <= 1e-15 * (h + std::fabs(knots_[k]))) break;
        }
        consider(x);
      }
      previousT = t;
      previousG = gt;
    }
  }
  CurvePoint result;
  result.parameter = bestParameter;
  result.position = position(bestParameter);
  const double distance = std::sqrt(bestSquared);
  result.distance = (point - result.position).dot(normal(bestParameter)) >= 0 ? distance : -distance;
  return result;
}

std::vector<CurveCrossing> SplineCurve2d::crossings(const SplineCurve2d& other) const {
  const double scale = std::max((boundsMax_ - boundsMin_).norm(), (other.boundsMax_ - other.boundsMin_).norm());
  const double margin = 1e-12 * scale;
  std::vector<CurveCrossing> found;

  // Newton on P(u) − Q(v) = 0 from a seed; the crossing when it converges on both curves (an open curve's ends
  // bound its parameter) where the tangents are not parallel.
  auto refine = [&](double u, double v) {
    for (int iteration = 0; iteration < 40; ++iteration) {
      const Vector2 miss = position(u) - other.position(v);
      const Vector2 du = derivative(u), dv = other.derivative(v);
      const double determinant = cross(du, -dv);
      if (std::fabs(determinant) <= 1e-12 * du.norm() * dv.norm()) return;  // parallel: a touch, not a crossing
      // Solve du·Δu − dv·Δv = −miss by Cramer's rule.
      const double stepU = cross(-miss, -dv) / determinant, stepV = cross(du, -miss) / determinant;
      double nextU = u + stepU, nextV = v + stepV;
      if (!closed_ && (nextU < -1e-9 * length() || nextU > length() * (1 + 1e-9))) return;
      if (!other.closed_ && (nextV < -1e-9 * other.length() || nextV > other.length() * (1 + 1e-9))) return;
      u = wrap(nextU);
      v = other.wrap(nextV);
      if (miss.norm() <= 1e-13 * scale && std::fabs(stepU) + std::fabs(stepV) <= 1e-12 * scale) break;
      if (iteration == 39) return;
    }
    const Vector2 here = position(u);
    if ((here - other.position(v)).norm() > 1e-10 * scale) return;
    for (const CurveCrossing& known : found) {
      if ((known.position - here).norm() <= 1e-9 * scale) return;
    }
    found.push_back({u, v, here, cross(derivative(u), other.derivative(v)) < 0});
  };

  // Subdivide both pieces until each is flat (bending excess below 1e-6 of its length: it turns through under
  // about 3e-3 rad, so two flat pieces at an angle cross at most once), then seed Newton at their chords' crossing.
  auto subdivide = [&](auto& self, const BezierPiece& a, const BezierPiece& b, int depth) -> void {
    if (!boxesOverlap(boxOf(a.control), boxOf(b.control), margin)) return;
    const double chordA = (a.control[3] - a.control[0]).norm(), chordB = (b.control[3] - b.control[0]).norm();
    const bool flatA = bendExcess(a.control) <= 1e-6 * chordA || chordA <= 1e-12 * scale;
    const bool flatB = bendExcess(b.control) <= 1e-6 * chordB || chordB <= 1e-12 * scale;
    if ((flatA && flatB) || depth > 50) {
      const Vector2 ra = a.control[3] - a.control[0], rb = b.control[3] - b.control[0];
      const double determinant = cross(ra, -rb);
      double s = 0.5, t = 0.5;  // nearly parallel chords: start in their middles
      if (std::fabs(determinant) > 1e-12 * ra.norm() * rb.norm()) {
        const Vector2 gap = b.control[0] - a.control[0];
        s = cross(gap, -rb) / determinant;
        t = cross(ra, gap) / determinant;
        if (s < -0.01 || s > 1.01 || t < -0.01 || t > 1.01) return;  // the chords miss each other
      }
      const double u = knots_[a.segment] + (a.from + s * (a.to - a.from)) * (knots_[a.segment + 1] - knots_[a.segment]);
      const double v = other.knots_[b.segment] +
                       (b.from + t * (b.to - b.from)) * (other.knots_[b.segment + 1] - other.knots_[b.segment]);
      refine(u, v);
      return;
    }
    if (!flatA && (flatB || chordA >= chordB)) {
      for (const BezierPiece& half : splitInHalf(a)) self(self, half, b, depth + 1);
    } else {
      for (const BezierPiece& half : splitInHalf(b)) self(self, a, half, depth + 1);
    }
  };

  // Pairs of segments whose boxes overlap, down both box trees at once (the larger box split first).
  auto descend = [&](auto& self, int nodeA, int nodeB) -> void {
    const BoxNode& x = tree_[nodeA];
    const BoxNode& y = other.tree_[nodeB];
    if (!boxesOverlap({x.low, x.high}, {y.low, y.high}, margin)) return;
    const bool leafA = x.lowerChild < 0, leafB = y.lowerChild < 0;
    if (leafA && leafB) {
      subdivide(subdivide, BezierPiece{x.firstSegment, 0, 1, bezier(x.firstSegment)},
                BezierPiece{y.firstSegment, 0, 1, other.bezier(y.firstSegment)}, 0);
    } else if (!leafA && (leafB || (x.high - x.low).squaredNorm() >= (y.high - y.low).squaredNorm())) {
      self(self, x.lowerChild, nodeB);
      self(self, x.upperChild, nodeB);
    } else {
      self(self, nodeA, y.lowerChild);
      self(self, nodeA, y.upperChild);
    }
  };
  descend(descend, 0, 0);
  std::sort(found.begin(), found.end(), [](const auto& x, const auto& y) { return x.parameterA < y.parameterA; });
  return found;
}

}  // namespace lodestone
