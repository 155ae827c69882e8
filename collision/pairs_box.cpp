// Exact contact of a box with a box and of a cylinder with a box, by the separating-axis test: the signed
// distance is the largest separation over the candidate axes (continuous in the poses, zero exactly at touching
// for the configurations the axes cover), and the feature of the best axis gives the contact points.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "contact_patch.h"
#include "pair_routines.h"
#include "solver/core/thread_scratch.h"

namespace lodestone::detail {

namespace {

// Cross-product axes of (nearly) parallel edges carry no direction; their face axes cover the contact.
constexpr double kParallelTolerance = 1e-6;
// Faces give patches, which are steadier, so crossed edges count only where their axis is clearly shallower than the
// best face's (an edge axis along a face's, a box flat on another, is as deep as it to rounding: no crossing there).
// Between the two ratios of separations (edge over face) the pair is both, each with part of the force:
// a face patch and a crossing point are different contacts, and a switch from one to the other inside a step is a jump
// in the force that Newton cannot settle (the crane's cubes rubbing on the boxes' walls' top edges).
constexpr double kFaceOnlyRatio = 0.99;
constexpr double kEdgesOnlyRatio = 0.9;
// Two boxes' best face axes, one of each, with (nearly) equal separations are two patches of the same contact, about
// normals as far apart as the boxes' relative tilt: a cube tilted on another is either's face on the other's. Where
// one's separation leads by less than this part of the depth, both act, each with a smooth part of the force; a switch
// would turn the force by the tilt inside a step (the crane's cubes stacked in their box flipped 1750 times in 0.02 s).
constexpr double kFaceTieBand = 0.1;
// Below this relative tilt (the sine of the angle between the two normals) the larger face is the reference, as for a
// box resting flat on another, and a switch turns the force by less than this. Blending there too would double the
// points of every box resting on another, and a law with a state per point (LINEAR_SHEAR's springs) would see points
// come and go as a block rocks on a ramp (its slip events doubled and tripled).
constexpr double kSameNormal = 1e-3;

// Half-width of a box along the unit `axis`.
double boxHalfWidth(const Matrix3& rotation, const Vector3& halfExtents, const Vector3& axis) {
  return (rotation.transpose() * axis).cwiseAbs().dot(halfExtents);
}

// Closest points of the lines p + s·u and q + t·v (unit directions), s clamped to ±sLimit and t to ±tLimit.
void closestOnLines(const Vector3& p, const Vector3& u, double sLimit, const Vector3& q, const Vector3& v,
                    double tLimit, double& s, double& t) {
  const Vector3 w = p - q;
  const double cosine = u.dot(v), uw = u.dot(w), vw = v.dot(w);
  const double denominator = 1 - cosine * cosine;
  s = denominator > 1e-12 ? (cosine * vw - uw) / denominator : 0.0;
  s = std::clamp(s, -sLimit, sLimit);
  t = std::clamp(vw + s * cosine, -tLimit, tLimit);
  s = std::clamp(t * cosine - uw, -sLimit, sLimit);
}

struct BestAxis {
  double separation = -INFINITY;
  Vector3 normal = Vector3::UnitZ();  // from B to A
  int kind = -1;                      // meaning depends on the pair
  int first = 0, second = 0;          // which axes
};

void consider(BestAxis& best, double separation, const Vector3& normal, int kind, int first, int second) {
  if (separation > best.separation) best = {separation, normal, kind, first, second};
}

// Edge against edge: one point, the closest points of the two edges that reach furthest into each other.
void appendEdgeCrossing(const Pose& poseA, const Vector3& halfA, const Pose& poseB, const Vector3& halfB,
                        const BestAxis& bestEdge, double share, std::vector<ContactPoint>& points) {
  const Matrix3& axesA = poseA.rotation;
  const Matrix3& axesB = poseB.rotation;
  const Vector3& normal = bestEdge.normal;
  const int i = bestEdge.first, j = bestEdge.second;
  Vector3 edgeOnA = poseA.position, edgeOnB = poseB.position;
  for (int k = 0; k < 3; ++k) {
    if (k != i) edgeOnA -= halfA[k] * (axesA.col(k).dot(normal) >= 0 ? 1.0 : -1.0) * axesA.col(k);
    if (k != j) edgeOnB += halfB[k] * (axesB.col(k).dot(normal) >= 0 ? 1.0 : -1.0) * axesB.col(k);
  }
  double s, t;
  closestOnLines(edgeOnA, axesA.col(i), halfA[i], edgeOnB, axesB.col(j), halfB[j], s, t);
  ContactPoint point;
  point.normal = normal;
  point.depth = -bestEdge.separation;
  point.pointOnA = edgeOnA + s * axesA.col(i);
  point.pointOnB = point.pointOnA + point.depth * normal;
  point.area = 0;  // a crossing of two edges has (nearly) no area
  point.share = share;
  points.push_back(point);
}

// Face contact: the patch where the other (incident) box's face most opposed to the best face axis lies beyond it.
void appendFacePatch(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, bool referenceIsB,
                     const BestAxis& bestFace, std::vector<ContactPoint>& points) {
  const Matrix3& axesA = poseA.rotation;
  const Vector3& halfA = a.halfExtents;
  const Vector3& halfB = b.halfExtents;
  // The reference face's outward normal faces the incident box.
  const Pose& referencePose = referenceIsB ? poseB : poseA;
  const Pose& incidentPose = referenceIsB ? poseA : poseB;
  const Vector3& referenceHalf = referenceIsB ? halfB : halfA;
  const Vector3& incidentHalf = referenceIsB ? halfA : halfB;
  const Vector3 referenceNormal = referenceIsB ? bestFace.normal : Vector3(-bestFace.normal);
  const int faceAxis = bestFace.first;
  const Vector3 faceCentre = referencePose.position + referenceHalf[faceAxis] * referenceNormal;
  const double planeOffset = referenceNormal.dot(faceCentre);

  // Incident face: the face of the other box most opposed to the reference normal.
  const Vector3 alignment = incidentPose.rotation.transpose() * referenceNormal;
  int incidentAxis = 0;
  alignment.cwiseAbs().maxCoeff(&incidentAxis);
  const Vector3 incidentNormal = (alignment[incidentAxis] > 0 ? -1.0 : 1.0) * incidentPose.rotation.col(incidentAxis);
  const int p = (incidentAxis + 1) % 3, q = (incidentAxis + 2) % 3;
  const Vector3 incidentCentre = incidentPose.position + incidentHalf[incidentAxis] * incidentNormal;
  const Vector3 sideP = incidentHalf[p] * incidentPose.rotation.col(p);
  const Vector3 sideQ = incidentHalf[q] * incidentPose.rotation.col(q);

  // The patch: the incident face clipped to the reference face's sides and to below its plane.
  std::vector<Vector3>& polygon = threadScratch<std::vector<Vector3>, struct BoxBoxPolygon>();
  polygon.assign({incidentCentre + sideP + sideQ, incidentCentre - sideP + sideQ, incidentCentre - sideP - sideQ,
                  incidentCentre + sideP - sideQ});
  for (int k = 0; k < 3 && !polygon.empty(); ++k) {
    if (k == faceAxis) continue;
    const Vector3 side = referencePose.rotation.col(k);
    for (double sign : {1.0, -1.0}) {
      clipPolygonInPlace(polygon, sign * side, sign * side.dot(referencePose.position) + referenceHalf[k]);
    }
  }
  clipPolygonInPlace(polygon, referenceNormal, planeOffset);
  PatchBuilder patch(bestFace.normal, referenceIsB, planeOffset);
  patch.addPolygon(polygon);
  patch.setArea(projectedArea(polygon, referenceNormal));
  if (patch.appendTo(points) == 0) {
    // Rounding left no area below the plane: report the single deepest point of the axis.
    ContactPoint point;
    point.normal = bestFace.normal;
    point.depth = -bestFace.separation;
    const Vector3 support = poseA.position - axesA * (axesA.transpose() * bestFace.normal).cwiseSign().cwiseProduct(halfA);
    point.pointOnA = support;
    point.pointOnB = support + point.depth * point.normal;
    points.push_back(point);
  }
}

}  // namespace

double boxBox(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double,
              std::vector<ContactPoint>& points) {
  const Matrix3& axesA = poseA.rotation;
  const Matrix3& axesB = poseB.rotation;
  const Vector3& halfA = a.halfExtents;
  const Vector3& halfB = b.halfExtents;
  const Vector3 offset = poseA.position - poseB.position;
  // Separation along unit `axis`, oriented from B to A.
  auto separationAlong = [&](Vector3 axis, Vector3& oriented) {
    const double projection = axis.dot(offset);
    oriented = projection >= 0 ? axis : Vector3(-axis);
    return std::abs(projection) - boxHalfWidth(axesA, halfA, axis) - boxHalfWidth(axesB, halfB, axis);
  };
  enum { kFaceOfA, kFaceOfB, kEdges };
  BestAxis faceOfA, faceOfB, bestEdge;
  Vector3 oriented;
  for (int i = 0; i < 3; ++i) {
    consider(faceOfA, separationAlong(axesA.col(i), oriented), oriented, kFaceOfA, i, 0);
    consider(faceOfB, separationAlong(axesB.col(i), oriented), oriented, kFaceOfB, i, 0);
  }
  // Equal separations (a box resting flat on another) are a tie between the two touching faces: the larger
  // face is the reference, so the patch's points are the smaller face's corners whichever box comes first.
  const double tieTolerance = 1e-12 * (halfA.maxCoeff() + halfB.maxCoeff());
  auto faceArea = [](const Vector3& half, int axis) { return half[(axis + 1) % 3] * half[(axis + 2) % 3]; };
  BestAxis bestFace = faceOfA;
  if (faceOfB.separation > faceOfA.separation + tieTolerance ||
      (faceOfB.separation >= faceOfA.separation - tieTolerance &&
       faceArea(halfB, faceOfB.first) > faceArea(halfA, faceOfA.first))) {
    bestFace = faceOfB;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const Vector3 cross = axesA.col(i).cross(axesB.col(j));
      const double length = cross.norm();
      if (length < kParallelTolerance) continue;
      consider(bestEdge, separationAlong(cross / length, oriented), oriented, kEdges, i, j);
    }
  }
  const double signedDistance = std::max(bestFace.separation, bestEdge.separation);
  if (signedDistance >= 0) return signedDistance;

  // The crossing's part of the force: 0 from kFaceOnlyRatio up, 1 from kEdgesOnlyRatio down, smooth (C¹) between.
  const double ratio = bestEdge.separation / bestFace.separation;
  const double towardsEdges = std::clamp((kFaceOnlyRatio - ratio) / (kFaceOnlyRatio - kEdgesOnlyRatio), 0.0, 1.0);
  const double edgeShare = towardsEdges * towardsEdges * (3 - 2 * towardsEdges);
  // B's face's part of the face contact: the tie's rule, or a smooth part (C¹) where the two lead each other by less
  // than kFaceTieBand of the depth and are not the same contact.
  double faceOfBShare = bestFace.kind == kFaceOfB ? 1.0 : 0.0;
  if (faceOfA.normal.cross(faceOfB.normal).norm() > kSameNormal) {
    const double lead = (faceOfB.separation - faceOfA.separation) / -bestFace.separation;
    const double towardsB = std::clamp((lead + kFaceTieBand) / (2 * kFaceTieBand), 0.0, 1.0);
    faceOfBShare = towardsB * towardsB * (3 - 2 * towardsB);
  }
  const auto appendFace = [&](const BestAxis& face, bool referenceIsB, double share) {
    if (!(share > 0)) return;
    const std::size_t first = points.size();
    appendFacePatch(a, poseA, b, poseB, referenceIsB, face, points);
    for (std::size_t k = first; k < points.size(); ++k) points[k].share *= share;
  };
  appendFace(faceOfA, false, (1 - edgeShare) * (1 - faceOfBShare));
  appendFace(faceOfB, true, (1 - edgeShare) * faceOfBShare);
  if (edgeShare > 0) appendEdgeCrossing(poseA, a.halfExtents, poseB, b.halfExtents, bestEdge, edgeShare, points);
  return signedDistance;
}

namespace {

// Keeps the part of segment from + τ·(to − from), τ ∈ [0, 1], inside |x·u − c| ≤ limit (Liang–Barsky, one slab).
bool clipToSlab(double fromValue, double toValue, double centre, double limit, double& low, double& high) {
  const double delta = toValue - fromValue;
  const double lower = centre - limit - fromValue, upper = centre + limit - fromValue;
  if (std::abs(delta) < 1e-300) return lower <= 0 && 0 <= upper;
  double t0 = lower / delta, t1 = upper / delta;
  if (t0 > t1) std::swap(t0, t1);
  low = std::max(low, t0);
  high = std::min(high, t1);
  return low <= high;
}

}  // namespace

double cylinderBox(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double,
                   std::vector<ContactPoint>& points) {
  const Vector3 axis = poseA.rotation.col(2);
  const Vector3& centre = poseA.position;
  const double radius = a.radius, halfLength = a.halfLength;
  const Matrix3& boxAxes = poseB.rotation;
  const Vector3& half = b.halfExtents;
  const Vector3 offset = centre - poseB.position;
  auto cylinderHalfWidth = [&](const Vector3& direction) {
    const double along = axis.dot(direction);
    return halfLength * std::abs(along) + radius * std::sqrt(std::max(0.0, 1 - along * along));
  };
  auto separationAlong = [&](const Vector3& unit, Vector3& oriented) {
    const double projection = unit.dot(offset);
    oriented = projection >= 0 ? unit : Vector3(-unit);
    return std::abs(projection) - cylinderHalfWidth(unit) - boxHalfWidth(boxAxes, half, unit);
  };
  enum { kBoxFace, kCap, kBoxEdgeOnSide, kBoxVertex };
  BestAxis best;
  Vector3 oriented;
  for (int k = 0; k < 3; ++k) consider(best, separationAlong(boxAxes.col(k), oriented), oriented, kBoxFace, k, 0);
  consider(best, separationAlong(axis, oriented), oriented, kCap, 0, 0);
  for (int k = 0; k < 3; ++k) {
    const Vector3 cross = boxAxes.col(k).cross(axis);
    const double length = cross.norm();
    if (length >= kParallelTolerance) {
      consider(best, separationAlong(cross / length, oriented), oriented, kBoxEdgeOnSide, k, 0);
    }
  }
  // Box vertices against the side (radial direction) and against either rim (from the nearest rim point).
  for (int vertex = 0; vertex < 8; ++vertex) {
    const Vector3 corner = poseB.position + boxAxes * Vector3(vertex & 1 ? half.x() : -half.x(),
                                                              vertex & 2 ? half.y() : -half.y(),
                                                              vertex & 4 ? half.z() : -half.z());
    const Vector3 fromCentre = corner - centre;
    const Vector3 radial = fromCentre - fromCentre.dot(axis) * axis;
    const double radialLength = radial.norm();
    if (radialLength < kParallelTolerance * radius) continue;
    consider(best, separationAlong(radial / radialLength, oriented), oriented, kBoxVertex, vertex, 0);
    for (double end : {1.0, -1.0}) {
      const Vector3 rimPoint = centre + end * halfLength * axis + radius * radial / radialLength;
      const Vector3 towards = corner - rimPoint;
      const double length = towards.norm();
      if (length > kParallelTolerance * radius) {
        consider(best, separationAlong(towards / length, oriented), oriented, kBoxVertex, vertex, 0);
      }
    }
  }
  const double signedDistance = best.separation;
  if (signedDistance >= 0) return signedDistance;
  const Vector3& normal = best.normal;  // from the box to the cylinder
  auto append = [&](const Vector3& onA, double depth, double area) {
    ContactPoint point;
    point.normal = normal;
    point.depth = depth;
    point.pointOnA = onA;
    point.pointOnB = onA + depth * normal;
    point.area = area;
    points.push_back(point);
  };

  if (best.kind == kBoxFace) {
    // The cylinder on a box face: one patch of the lowest generator line (a cylinder lying on the face touches
    // along it) and the lower cap (a cylinder standing or tilted on its rim touches with a disk or a segment of it),
    // each clipped to the face and to below its plane.
    const int faceAxis = best.first;
    const double faceOffset = normal.dot(poseB.position) + half[faceAxis];
    const Vector3 tilt = normal - normal.dot(axis) * axis;
    const double tiltLength = tilt.norm();
    // Standing exactly upright the rim has no lowest point; any perpendicular serves.
    const Vector3 down = tiltLength > 1e-12 ? Vector3(-tilt / tiltLength) : Vector3(axis.unitOrthogonal());
    const Vector3 across = axis.cross(down);
    PatchBuilder patch(normal, true, faceOffset);
    // Generator line, clipped to the face and to where it is below the face's plane (its depth is linear along it).
    const Vector3 lineStart = centre + radius * down - halfLength * axis;
    const Vector3 lineEnd = centre + radius * down + halfLength * axis;
    double low = 0, high = 1;
    bool lineOverFace = true;
    for (int k = 0; k < 3 && lineOverFace; ++k) {
      if (k == faceAxis) continue;
      const Vector3 side = boxAxes.col(k);
      lineOverFace = clipToSlab(side.dot(lineStart), side.dot(lineEnd), side.dot(poseB.position), half[k], low, high);
    }
    const double startDepth = patch.depthAt(lineStart), endDepth = patch.depthAt(lineEnd);
    double lineLength = 0, lineDepth = 0;
    // (A flat disk, a cylinder of no length, has no line: its rim is its cap's.)
    if (lineOverFace && halfLength > 0 && clipToPositive(startDepth, endDepth, low, high)) {
      patch.addLine(lineStart + low * (lineEnd - lineStart), lineStart + high * (lineEnd - lineStart), radius);
      lineLength = (high - low) * 2 * halfLength;
      lineDepth = std::max(0.0, startDepth + 0.5 * (low + high) * (endDepth - startDepth));
    }
    // The lower cap as a polygon with a vertex on its lowest rim point.
    const double along = normal.dot(axis);
    const Vector3 lowerCap = centre - (along >= 0 ? 1.0 : -1.0) * halfLength * axis;
    std::vector<Vector3>& cap = threadScratch<std::vector<Vector3>, struct CylinderBoxCap>();
    capPolygon(lowerCap, radius, down, across, cap);
    clipPolygonInPlace(cap, normal, faceOffset);
    const double belowFace = projectedArea(cap, normal);
    for (int k = 0; k < 3 && !cap.empty(); ++k) {
      if (k == faceAxis) continue;
      const Vector3 side = boxAxes.col(k);
      for (double sign : {1.0, -1.0}) clipPolygonInPlace(cap, sign * side, sign * side.dot(poseB.position) + half[k]);
    }
    const double overFace = projectedArea(cap, normal);
    patch.addPolygon(cap);
    // Overlap area on the face: the side's strip for a line contact, else the part of the lower cap's disk below the
    // face (exactly, unless the face's edges cut it: then the polygon's), whichever is larger (an estimate between
    // the two clean cases).
    const double area = lineLength > 0 ? lyingCylinderArea(radius, lineDepth, lineLength) : 0.0;
    const double capDepth = patch.depthAt(lowerCap);
    const double sine = tiltLength;
    const double capArea = overFace < belowFace * (1 - 1e-9) ? overFace
                           : sine > 1e-12 ? diskSegmentArea(radius, -capDepth / sine) * std::abs(along)
                                          : (capDepth > 0 ? std::numbers::pi * radius * radius : 0.0);
    patch.setArea(std::max(area, capArea));
    if (patch.appendTo(points) == 0) {
      // Overhanging the face's edge: the deepest point of the cylinder alone.
      const Vector3 deepest = centre + radius * down - (along >= 0 ? 1.0 : -1.0) * halfLength * axis;
      append(deepest, -signedDistance, 0);
    }
    return signedDistance;
  }

  if (best.kind == kCap) {
    // The box against a flat end: its face turned to the cylinder, clipped to the cap's disk and to inside the
    // cylinder (its depth is how far past the cap's plane it reaches).
    const double capOffset = normal.dot(centre) - halfLength;
    std::vector<Vector3>& polygon = threadScratch<std::vector<Vector3>, struct CylinderBoxPolygon>();
    boxFaceAlong(poseB.position, boxAxes, half, normal, polygon);
    // The cap's disk as the polygon of kCapPolygonSides sides inscribed in it: one slab per side.
    const Vector3 first = axis.unitOrthogonal(), second = axis.cross(first);
    for (int k = 0; k < kCapPolygonSides && !polygon.empty(); ++k) {
      const double angle = 2 * std::numbers::pi * (k + 0.5) / kCapPolygonSides;
      const Vector3 outward = std::cos(angle) * first + std::sin(angle) * second;
      clipPolygonInPlace(polygon, outward,
                         outward.dot(centre) + radius * std::cos(std::numbers::pi / kCapPolygonSides));
    }
    clipPolygonInPlace(polygon, -normal, -capOffset);
    PatchBuilder patch(normal, false, -capOffset);
    patch.addPolygon(polygon);
    patch.setArea(projectedArea(polygon, normal));
    if (patch.appendTo(points) == 0) {
      double deepestDepth = -INFINITY;
      Vector3 deepestCorner = Vector3::Zero();
      for (int vertex = 0; vertex < 8; ++vertex) {
        const Vector3 corner = poseB.position + boxAxes * Vector3(vertex & 1 ? half.x() : -half.x(),
                                                                  vertex & 2 ? half.y() : -half.y(),
                                                                  vertex & 4 ? half.z() : -half.z());
        const double depth = normal.dot(corner) - capOffset;
        if (depth > deepestDepth) deepestDepth = depth, deepestCorner = corner;
      }
      append(deepestCorner - deepestDepth * normal, deepestDepth, 0);
    }
    return signedDistance;
  }

  // A box edge across the side, or a box vertex on the side or a rim: one point on the box.
  const double depth = -signedDistance;
  Vector3 onBox = poseB.position + boxAxes * (boxAxes.transpose() * normal).cwiseSign().cwiseProduct(half);
  if (best.kind == kBoxEdgeOnSide) {
    // The supporting edge, at its point nearest the cylinder's axis.
    const int k = best.first;
    const Vector3 edgeCentre = onBox - (boxAxes.col(k).dot(normal) >= 0 ? 1.0 : -1.0) * half[k] * boxAxes.col(k);
    double s, t;
    closestOnLines(edgeCentre, boxAxes.col(k), half[k], centre, axis, halfLength, s, t);
    onBox = edgeCentre + s * boxAxes.col(k);
  } else if (best.kind == kBoxVertex) {
    const int vertex = best.first;
    onBox = poseB.position + boxAxes * Vector3(vertex & 1 ? half.x() : -half.x(), vertex & 2 ? half.y() : -half.y(),
                                               vertex & 4 ? half.z() : -half.z());
  }
  append(onBox - depth * normal, depth, 0);
  return signedDistance;
}

}  // namespace lodestone::detail
