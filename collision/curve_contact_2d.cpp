#include "curve_contact_2d.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numeric>

#include <boost/math/tools/minima.hpp>

#include "solver/core/quadrature.h"
#include "solver/core/thread_scratch.h"

namespace lodestone {
namespace {

double cross(const Vector2& a, const Vector2& b) { return a.x() * b.y() - a.y() * b.x(); }

// How far an arc runs along its curve (through the seam of a closed curve when `to` < `from`).
double spanOf(const SplineCurve2d& curve, double from, double to) {
  return to > from || !curve.closed() ? to - from : to + curve.length() - from;
}

// The boundary integrals of Green's theorem along an arc, relative to `origin` (so that a region far from the
// plane's origin loses no digits): ∮ ½(X dY − Y dX) = area, ∮ ½X² dY = ∬ X, −∮ ½Y² dX = ∬ Y.
struct Moments {
  double area = 0, firstX = 0, firstY = 0;
};

void addArc(const SplineCurve2d& curve, double from, double to, const Vector2& origin, Moments& sum) {
  const double end = from + spanOf(curve, from, to);
  // Break at the knots, so that each piece is one cubic and its integrands polynomials (degree ≤ 8: the 15-point
  // Kronrod rule takes each in one panel).
  std::vector<double> breaks{from};
  for (int lap = 0; lap < 2; ++lap) {
    for (int k = 0; k <= curve.segmentCount(); ++k) {
      const double knot = curve.knot(k) + lap * curve.length();
      if (knot > from && knot < end) breaks.push_back(knot);
    }
  }
  breaks.push_back(end);
  std::sort(breaks.begin(), breaks.end());
  for (size_t k = 0; k + 1 < breaks.size(); ++k) {
    // Evaluate inside the piece only: a parameter on a knot could be taken by the neighbouring cubic.
    auto along = [&](auto integrand) { return integrate(integrand, breaks[k], breaks[k + 1]); };
    sum.area += along([&](double u) {
      const Vector2 p = curve.position(u) - origin, d = curve.derivative(u);
      return 0.5 * cross(p, d);
    });
    sum.firstX += along([&](double u) {
      const Vector2 p = curve.position(u) - origin;
      return 0.5 * p.x() * p.x() * curve.derivative(u).y();
    });
    sum.firstY += along([&](double u) {
      const Vector2 p = curve.position(u) - origin;
      return -0.5 * p.y() * p.y() * curve.derivative(u).x();
    });
  }
}

// Illinois regula falsi for a root of f in [low, high], f(low) > 0 ≥ f(high).
template <class F>
double rootBetween(F&& f, double low, double high, double valueLow, double valueHigh, double tolerance) {
  int lastSide = 0;
  double x = low;
  for (int iteration = 0; iteration < 100 && high - low > tolerance; ++iteration) {
    x = (low * valueHigh - high * valueLow) / (valueHigh - valueLow);
    if (!(x > low && x < high)) x = 0.5 * (low + high);
    const double value = f(x);
    if (value > 0) {
      low = x;
      valueLow = value;
      if (lastSide == 1) valueHigh *= 0.5;
      lastSide = 1;
    } else {
      high = x;
      valueHigh = value;
      if (lastSide == -1) valueLow *= 0.5;
      lastSide = -1;
    }
    if (value == 0) break;
  }
  return x;
}

}  // namespace

const char* curveContactStatusName(CurveContactStatus status) {
  switch (status) {
    case CurveContactStatus::Contact: return "contact";
    case CurveContactStatus::Apart: return "apart";
    case CurveContactStatus::SingleCrossing: return "single crossing";
    case CurveContactStatus::NoClosedOverlap: return "no closed overlap";
    case CurveContactStatus::BothStraight: return "both straight";
  }
  return "unknown";
}

std::vector<OverlapRegion> overlapRegions(const SplineCurve2d& a, const SplineCurve2d& b,
                                          const std::vector<CurveCrossing>& crossings) {
  const int count = static_cast<int>(crossings.size());
  if (count < 2) return {};
  // The crossings are in order along A; their order along B.
  std::vector<int> orderAlongB(count), rankAlongB(count);
  std::iota(orderAlongB.begin(), orderAlongB.end(), 0);
  std::sort(orderAlongB.begin(), orderAlongB.end(),
            [&](int x, int y) { return crossings[x].parameterB < crossings[y].parameterB; });
  for (int r = 0; r < count; ++r) rankAlongB[orderAlongB[r]] = r;
  auto nextAlongA = [&](int i) { return i + 1 < count ? i + 1 : (a.closed() ? 0 : -1); };
  auto nextAlongB = [&](int i) {
    const int r = rankAlongB[i];
    return r + 1 < count ? orderAlongB[r + 1] : (b.closed() ? orderAlongB[0] : -1);
  };

  // Where A enters B's material an arc of A inside B begins and runs to A's next crossing, where A leaves; there B
  // enters A's material and an arc of B runs to B's next crossing. Each crossing begins one arc and ends one, so the
  // arcs close into loops, each of which bounds one region with the material of both on its left.
  std::vector<OverlapRegion> regions;
  std::vector<bool> visited(count, false);
  for (int start = 0; start < count; ++start) {
    if (visited[start]) continue;
    OverlapRegion region;
    bool closes = false;
    int i = start;
    for (int step = 0; step <= count; ++step) {
      visited[i] = true;
      region.corners.push_back(crossings[i].position);
      const bool alongA = crossings[i].entersOther;
      const int j = alongA ? nextAlongA(i) : nextAlongB(i);
      // The arc must end where its curve leaves the other's material; anything else means a crossing was missed
      // (a touch) or the arc runs off an open curve's end.
      if (j < 0 || crossings[j].entersOther == alongA) break;
      region.boundary.push_back(alongA ? CurveArc{true, crossings[i].parameterA, crossings[j].parameterA}
                                       : CurveArc{false, crossings[i].parameterB, crossings[j].parameterB});
      i = j;
      if (i == start) {
        closes = true;
        break;
      }
    }
    if (!closes) continue;
    Moments moments;
    const Vector2 origin = region.corners.front();
    for (const CurveArc& arc : region.boundary) addArc(arc.onA ? a : b, arc.from, arc.to, origin, moments);
    if (!(moments.area > 0)) continue;  // the outside of two holes: unbounded, no region
    region.area = moments.area;
    region.centroid = origin + Vector2(moments.firstX, moments.firstY) / moments.area;
    regions.push_back(std::move(region));
  }
  return regions;
}

CurveContactResult curveContact(const SplineCurve2d& a, const SplineCurve2d& b, std::optional<double> stability) {
  CurveContactResult result;
  if (a.straight() && b.straight()) {
    result.status = CurveContactStatus::BothStraight;
    return result;
  }
  const std::vector<CurveCrossing> crossings = a.crossings(b);
  if (crossings.empty()) {
    result.status = CurveContactStatus::Apart;
    return result;
  }
  if (crossings.size() == 1) {
    result.status = CurveContactStatus::SingleCrossing;
    return result;
  }
  const std::vector<OverlapRegion> regions = overlapRegions(a, b, crossings);
  if (regions.empty()) {
    result.status = CurveContactStatus::NoClosedOverlap;
    return result;
  }
  result.status = CurveContactStatus::Contact;

  for (const OverlapRegion& region : regions) {
    CurveContact2d contact;
    contact.area = region.area;
    contact.centroid = region.centroid;
    Vector2 chordFrom = region.corners[0], chordTo = region.corners[1];
    for (size_t p = 0; p < region.corners.size(); ++p) {
      for (size_t q = p + 1; q < region.corners.size(); ++q) {
        if ((region.corners[q] - region.corners[p]).norm() > (chordTo - chordFrom).norm()) {
          chordFrom = region.corners[p];
          chordTo = region.corners[q];
        }
      }
    }
    contact.chord = (chordTo - chordFrom).norm();

    if (stability && *stability <= 0) {
      // Out of B: the side B's outward normals point to, in the middle of the region's arcs of B.
      Vector2 outOfB = Vector2::Zero();
      for (const CurveArc& arc : region.boundary) {
        if (!arc.onA) outOfB += b.normal(arc.from + 0.5 * spanOf(b, arc.from, arc.to));
      }
      const Vector2 along = (chordTo - chordFrom).normalized();
      contact.normal = Vector2(along.y(), -along.x());
      if (contact.normal.dot(outOfB) < 0) contact.normal = -contact.normal;
      contact.depth = 1.5 * region.area / contact.chord;
      contact.pointOnA = region.centroid - 0.5 * contact.depth * contact.normal;
      contact.pointOnB = region.centroid + 0.5 * contact.depth * contact.normal;
      result.contacts.push_back(contact);
      continue;
    }

    // Φ(u) = pen(u) − ½k|x(u) − c|² over the region's arcs of A, and Φ'(u) = −x'·n_B(y) − k (x − c)·x'.
    const double k = stability.value_or(0.0);
    auto objective = [&](double u) {
      const CurvePoint nearest = b.closest(a.position(u));
      return -nearest.distance - 0.5 * k * (a.position(u) - region.centroid).squaredNorm();
    };
    auto slope = [&](double u) {
      const Vector2 x = a.position(u), dx = a.derivative(u);
      const CurvePoint nearest = b.closest(x);
      return -dx.dot(b.normal(nearest.parameter)) - k * (x - region.centroid).dot(dx);
    };
    double bestValue = -std::numeric_limits<double>::infinity(), bestParameter = 0;
    auto consider = [&](double u) {
      const double value = objective(u);
      if (value > bestValue) {
        bestValue = value;
        bestParameter = a.wrap(u);
      }
    };
    for (const CurveArc& arc : region.boundary) {
      if (!arc.onA) continue;
      const double span = spanOf(a, arc.from, arc.to);
      // At least 4 samples per spline segment the arc spans, so a maximum is bracketed by a sign change of Φ'.
      const int samples = std::clamp(static_cast<int>(4 * span / a.length() * a.segmentCount()) + 1, 16, 1024);
      double previousU = arc.from, previousSlope = slope(arc.from);
      for (int j = 1; j <= samples; ++j) {
        const double u = arc.from + span * j / samples, slopeHere = slope(u);
        consider(u);
        if (previousSlope > 0 && slopeHere <= 0) {
          consider(rootBetween(slope, previousU, u, previousSlope, slopeHere, 1e-14 * a.length()));
        }
        previousU = u;
        previousSlope = slopeHere;
      }
    }
    const Vector2 x = a.position(bestParameter);
    const CurvePoint nearest = b.closest(x);
    contact.pointOnA = x;
    contact.pointOnB = nearest.position;
    contact.normal = b.normal(nearest.parameter);
    contact.depth = -nearest.distance;
    result.contacts.push_back(contact);
  }
  return result;
}

namespace {

// The least |distance| from a point of `from` to `to`, near the best of its knots and segment middles: (value, u).
std::pair<double, double> nearestApproach(const SplineCurve2d& from, const SplineCurve2d& to) {
  const auto distance = [&](double u) { return std::fabs(to.closest(from.position(from.wrap(u))).distance); };
  double best = std::numeric_limits<double>::infinity(), bestU = 0;
  int bestSegment = 0;
  for (int k = 0; k < from.segmentCount(); ++k) {
    for (const double u : {from.knot(k), 0.5 * (from.knot(k) + from.knot(k + 1))}) {
      const double value = distance(u);
      if (value < best) {
        best = value;
        bestU = u;
        bestSegment = k;
      }
    }
  }
  if (!from.closed() && distance(from.length()) < best) {
    best = distance(from.length());
    bestU = from.length();
    bestSegment = from.segmentCount() - 1;
  }
  // Brent over the segments on either side of the best sample (through the seam of a closed curve): 52 bits of u
  // would be wasted on a minimum whose value is flat there, so half of them, as Brent's accuracy bound allows.
  double low = from.knot(bestSegment) - (bestSegment > 0 || from.closed() ? from.length() / from.segmentCount() : 0);
  double high = from.knot(bestSegment + 1) + (bestSegment + 1 < from.segmentCount() || from.closed()
                                                  ? from.length() / from.segmentCount() : 0);
  if (!from.closed()) {
    low = std::max(low, 0.0);
    high = std::min(high, from.length());
  }
  const auto [u, value] = boost::math::tools::brent_find_minima(distance, low, high, 26);
  return value < best ? std::pair{value, u} : std::pair{best, bestU};
}

bool sameBits(double x, double y) { return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y); }

// Where B's curve lies in A's plane: all the curves' contact depends on.
struct CurvePlacement {
  std::shared_ptr<const SplineCurve2d> a, b;
  double angle;
  Vector2 shift;
  std::optional<double> stability;

  // Bit for bit (0 and −0 apart), so that a result is reused only where computing it again would give it.
  bool operator==(const CurvePlacement& other) const {
    return a == other.a && b == other.b && sameBits(angle, other.angle) && sameBits(shift.x(), other.shift.x()) &&
           sameBits(shift.y(), other.shift.y()) && stability == other.stability;
  }
};

// The curves' contact at a placement, and their gap when they do not overlap.
struct PlacedCurves {
  CurvePlacement placement;
  CurveContactResult contact;
  double gap = 0;
};

// The contact of two curves at `placement`, computed once per placement on each thread. One step asks for the same
// pair at the same state three or four times (the residual's and the energy rates' detection, the pair's loads, its
// measures), and the crossings of two splines (their Bézier subdivision to 1e-6 flatness) and the Brent search of
// their gap were most of a 2D-curve run. A placement equal bit for bit gives the same result, so the answers do not
// change; the entries hold the curves, so a curve's address is never reused while it is a key.
const PlacedCurves& placedCurves(const CurvePlacement& placement) {
  struct Recent {
    std::array<PlacedCurves, 4> entries;
    size_t next = 0;
  };
  Recent& recent = threadScratch<Recent, struct PlacedCurvesTag>();
  for (const PlacedCurves& entry : recent.entries) {
    if (entry.placement.a && entry.placement == placement) return entry;
  }
  PlacedCurves& entry = recent.entries[recent.next];
  recent.next = (recent.next + 1) % recent.entries.size();
  entry.placement.a.reset();  // not a key until it holds its result (curveContact may throw)
  const Eigen::Matrix2d inPlane = Eigen::Rotation2Dd(placement.angle).toRotationMatrix();
  const SplineCurve2d placedB = placement.b->moved(inPlane, placement.shift);
  entry.contact = curveContact(*placement.a, placedB, placement.stability);
  entry.gap = entry.contact.status == CurveContactStatus::Contact ? 0.0 : curveGap(*placement.a, placedB);
  entry.placement = placement;
  return entry;
}

}  // namespace

double curveGap(const SplineCurve2d& a, const SplineCurve2d& b) {
  return std::min(nearestApproach(a, b).first, nearestApproach(b, a).first);
}

double collideCurves(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                     std::optional<double> stability, std::vector<ContactPoint>& points) {
  const Matrix3 turn = poseA.rotation.transpose() * poseB.rotation;
  const Vector3 shift = poseA.rotation.transpose() * (poseB.position - poseA.position);
  const CurvePlacement placement{a.curve, b.curve, std::atan2(turn(1, 0), turn(0, 0)), shift.head<2>(), stability};
  const PlacedCurves& placed = placedCurves(placement);
  if (placed.contact.status != CurveContactStatus::Contact) return placed.gap;
  double deepest = 0;
  for (const CurveContact2d& contact : placed.contact.contacts) {
    points.push_back(contactPointInGround(contact, poseA));
    deepest = std::max(deepest, contact.depth);
  }
  return -deepest;
}

ContactPoint contactPointInGround(const CurveContact2d& contact, const Pose& plane) {
  auto inGround = [&](const Vector2& p) { return Vector3(plane.position + plane.rotation * Vector3(p.x(), p.y(), 0)); };
  ContactPoint point;
  point.pointOnA = inGround(contact.pointOnA);
  point.pointOnB = inGround(contact.pointOnB);
  point.normal = plane.rotation * Vector3(contact.normal.x(), contact.normal.y(), 0);
  point.depth = contact.depth;
  return point;
}

}  // namespace lodestone
