// A pair of magnets: which method, and each method's force and torque on both, placed in one frame.
#include "magnetics/magnet_pair.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>


#include "magnetics/cuboid_force.h"
#include "magnetics/cylinder_force.h"
#include "magnetics/ellipsoid_force.h"
#include "magnetics/frustum_force.h"
#include "magnetics/point_dipole.h"
#include "magnetics/polyhedron_force.h"
#include "solver/core/quadrature.h"

namespace lodestone {

using Kind = MagnetShape::Kind;

MagnetShape frustumMagnetShape(double bottomRadius, double topRadius, double height) {
  const double r0 = bottomRadius, r1 = topRadius;
  const double centroid = height * (r0 * r0 + 2 * r0 * r1 + 3 * r1 * r1) / (4 * (r0 * r0 + r0 * r1 + r1 * r1));
  MagnetShape shape;
  shape.kind = Kind::kFrustum;
  shape.radius = bottomRadius;
  shape.topRadius = topRadius;
  shape.bottomZ = -centroid;
  shape.topZ = height - centroid;
  return shape;
}

Frustum frustumOf(const MagnetShape& shape, const Vector3& magnetisation) {
  return Frustum{shape.radius, shape.topRadius, shape.bottomZ, shape.topZ, magnetisation};
}

double volume(const MagnetShape& shape) {
  switch (shape.kind) {
    case Kind::kSphere: return 4.0 / 3.0 * std::numbers::pi * std::pow(shape.radius, 3);
    case Kind::kCuboid: return 8 * shape.halfExtents.prod();
    case Kind::kCylinder: return 2 * std::numbers::pi * shape.radius * shape.radius * shape.halfLength;
    case Kind::kPolyhedron: return polyhedronVolume(*shape.polyhedron);
    case Kind::kEllipsoid: return 4.0 / 3.0 * std::numbers::pi * shape.halfExtents.prod();
    case Kind::kFrustum: {
      const double r0 = shape.radius, r1 = shape.topRadius;
      return std::numbers::pi / 3 * (shape.topZ - shape.bottomZ) * (r0 * r0 + r0 * r1 + r1 * r1);
    }
  }
  return 0;
}

double boundingRadius(const MagnetShape& shape) {
  switch (shape.kind) {
    case Kind::kSphere: return shape.radius;
    case Kind::kCuboid: return shape.halfExtents.norm();
    case Kind::kCylinder: return std::hypot(shape.radius, shape.halfLength);
    case Kind::kEllipsoid: return shape.halfExtents.maxCoeff();
    case Kind::kFrustum:
      return std::max(std::hypot(shape.radius, shape.bottomZ), std::hypot(shape.topRadius, shape.topZ));
    case Kind::kPolyhedron: {
      double radius = 0;
      for (const Vector3& vertex : shape.polyhedron->vertices) radius = std::max(radius, vertex.norm());
      return radius;
    }
  }
  return 0;
}

namespace {

Vector3 moment(const Magnet& magnet) { return volume(magnet.shape) * magnet.magnetisation; }

// The box the shape fills: its centre and half-extents in the shape's axes. About the shape's centre, but a frustum's
// about the middle of its height (its centre is its centroid) and a mesh's about its axes' origin.
struct Box {
  Vector3 centre = Vector3::Zero(), half = Vector3::Zero();
};
Box boundingBox(const MagnetShape& shape) {
  switch (shape.kind) {
    case Kind::kSphere: return {Vector3::Zero(), Vector3::Constant(shape.radius)};
    case Kind::kCuboid:
    case Kind::kEllipsoid: return {Vector3::Zero(), shape.halfExtents};
    case Kind::kCylinder: return {Vector3::Zero(), Vector3(shape.radius, shape.radius, shape.halfLength)};
    case Kind::kFrustum: {
      const double across = std::max(shape.radius, shape.topRadius);
      return {Vector3(0, 0, 0.5 * (shape.bottomZ + shape.topZ)),
              Vector3(across, across, 0.5 * (shape.topZ - shape.bottomZ))};
    }
    case Kind::kPolyhedron: {
      Vector3 half = Vector3::Zero();
      for (const Vector3& vertex : shape.polyhedron->vertices) half = half.cwiseMax(vertex.cwiseAbs());
      return {Vector3::Zero(), half};
    }
  }
  return {};
}

// A frustum's radius at the height z (about its centroid).
double frustumRadiusAt(const MagnetShape& shape, double z) {
  const double along = (z - shape.bottomZ) / (shape.topZ - shape.bottomZ);
  return shape.radius + along * (shape.topRadius - shape.radius);
}

bool inside(const MagnetShape& shape, const Vector3& point) {
  switch (shape.kind) {
    case Kind::kSphere: return point.norm() <= shape.radius;
    case Kind::kCuboid: return (point.cwiseAbs().array() <= shape.halfExtents.array()).all();
    case Kind::kCylinder: return point.head<2>().norm() <= shape.radius && std::abs(point.z()) <= shape.halfLength;
    case Kind::kPolyhedron: return insidePolyhedron(*shape.polyhedron, point);
    case Kind::kEllipsoid: return point.cwiseQuotient(shape.halfExtents).squaredNorm() <= 1;
    case Kind::kFrustum:
      return point.z() >= shape.bottomZ && point.z() <= shape.topZ &&
             point.head<2>().norm() <= frustumRadiusAt(shape, point.z());
  }
  return false;
}

bool isCube(const MagnetShape& shape) {
  return shape.kind == Kind::kCuboid && shape.halfExtents.x() == shape.halfExtents.y() &&
         shape.halfExtents.y() == shape.halfExtents.z();
}

}  // namespace

std::vector<DipoleSample> dipoleSamples(const Magnet& magnet) {
  const int n = std::max(magnet.dipolesPerAxis, 1);
  const Box box = boundingBox(magnet.shape);
  std::vector<DipoleSample> samples;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int k = 0; k < n; ++k) {
        const Vector3 cell = (Vector3(i, j, k).array() + 0.5) / n * 2 - 1;  // cell centre in [−1, 1]³
        const Vector3 position = box.centre + cell.cwiseProduct(box.half);
        if (inside(magnet.shape, position)) samples.push_back({position, Vector3::Zero()});
      }
    }
  }
  for (DipoleSample& sample : samples) sample.moment = moment(magnet) / static_cast<double>(samples.size());
  return samples;
}

const char* pairMethodName(PairMethod method) {
  switch (method) {
    case PairMethod::kSurfaceCharge: return "surface charge";
    case PairMethod::kPointDipoles: return "point dipoles";
    case PairMethod::kDipoleSamples: return "dipole samples";
    case PairMethod::kGaussDipoles: return "Gauss-point dipoles";
  }
  return "";
}

namespace {

// Gauss points per axis beyond which the surface charges are taken instead (a magnet that needs more is too close).
constexpr int kMaxGaussPointsPerAxis = 8;
// Dipole pairs (the product of the two magnets' Gauss points) beyond which the surface charges cost less: about 20 ns
// a dipole pair against 50 to 150 µs for two cuboids' charges near contact.
constexpr int kMaxGaussDipolePairs = 1000;
// The constant of the Gauss points' error estimate: the worst measured ratio of error to ρ^(−2n) over the pairs of
// tests/unit/magnetics_magnet_pair_test.cpp, with a margin.
constexpr double kGaussPointsErrorScale = 20;

const GaussLegendreRule& gaussLegendre(int n) {
  static const std::vector<GaussLegendreRule> rules = [] {
    std::vector<GaussLegendreRule> made(1);
    for (int k = 1; k <= kMaxGaussPointsPerAxis; ++k) made.push_back(gaussLegendreRule(k));
    return made;
  }();
  return rules.at(static_cast<size_t>(n));
}

bool hasGaussPoints(const Magnet& magnet) {
  return magnet.dipolesPerAxis == 0 && (magnet.shape.kind == Kind::kCuboid || magnet.shape.kind == Kind::kSphere);
}

// How near a magnet's centre its field may be singular: a sphere's field outside it is its centre's dipole's.
double singularRadius(const Magnet& magnet) {
  return magnet.shape.kind == Kind::kSphere ? 0 : boundingRadius(magnet.shape);
}

// ρ of the Bernstein ellipse, for the rule along `axis`, through the nearest singularity, `reach` from the magnet's
// centre: along each line of the rule (its other coordinates fixed within the magnet) the singularity is at least
// reach − (the half-diagonal across the axis) from the line's middle, and the ellipse through a point that far from the
// middle is smallest when the point is on the line. 0 when the singularity may lie within a line's half-length.
double bernsteinRho(const Vector3& halfExtents, int axis, double reach) {
  Vector3 across = halfExtents;
  across[axis] = 0;
  const double a = (reach - across.norm()) / halfExtents[axis];
  return a > 1 ? a + std::sqrt(a * a - 1) : 0;
}

int pointCount(const std::array<int, 3>& points) { return points[0] * points[1] * points[2]; }

// The fewest points per axis whose error estimate is below `relativeAccuracy`, shared evenly among the six axes of
// the pair; false when an axis would need more than kMaxGaussPointsPerAxis.
bool fewestGaussPoints(const Magnet& magnet, double reach, double relativeAccuracy, std::array<int, 3>& points) {
  points = {1, 1, 1};
  if (magnet.shape.kind == Kind::kSphere) return true;
  const double perAxis = relativeAccuracy / 6;
  for (int axis = 0; axis < 3; ++axis) {
    if (magnet.shape.halfExtents[axis] <= 0) continue;
    const double rho = bernsteinRho(magnet.shape.halfExtents, axis, reach);
    if (rho == 0) return false;
    const double needed = std::log(kGaussPointsErrorScale / perAxis) / (2 * std::log(rho));
    points[static_cast<size_t>(axis)] = std::max(1, static_cast<int>(std::ceil(needed)));
    if (points[static_cast<size_t>(axis)] > kMaxGaussPointsPerAxis) return false;
  }
  return true;
}

}  // namespace

double gaussPointsError(const Magnet& magnet, const std::array<int, 3>& points, double reach) {
  if (magnet.shape.kind == Kind::kSphere) return 0;
  double error = 0;
  for (int axis = 0; axis < 3; ++axis) {
    if (magnet.shape.halfExtents[axis] <= 0) continue;
    const double rho = bernsteinRho(magnet.shape.halfExtents, axis, reach);
    if (rho == 0) return std::numeric_limits<double>::infinity();
    error += kGaussPointsErrorScale * std::pow(rho, -2 * points[static_cast<size_t>(axis)]);
  }
  return error;
}

std::optional<GaussPoints> chooseGaussPoints(const Magnet& first, const Magnet& second, double distance,
                                             double relativeAccuracy) {
  if (!hasGaussPoints(first) || !hasGaussPoints(second)) return std::nullopt;
  if (distance <= boundingRadius(first.shape) + boundingRadius(second.shape)) return std::nullopt;
  GaussPoints points;
  if (!fewestGaussPoints(first, distance - singularRadius(second), relativeAccuracy, points.first) ||
      !fewestGaussPoints(second, distance - singularRadius(first), relativeAccuracy, points.second) ||
      pointCount(points.first) * pointCount(points.second) > kMaxGaussDipolePairs) {
    return std::nullopt;
  }
  return points;
}

std::vector<DipoleSample> gaussDipoleSamples(const Magnet& magnet, const std::array<int, 3>& points) {
  if (magnet.shape.kind != Kind::kCuboid) return {{Vector3::Zero(), moment(magnet)}};
  const GaussLegendreRule &x = gaussLegendre(points[0]), &y = gaussLegendre(points[1]), &z = gaussLegendre(points[2]);
  const Vector3& half = magnet.shape.halfExtents;
  std::vector<DipoleSample> samples;
  samples.reserve(static_cast<size_t>(pointCount(points)));
  for (size_t i = 0; i < x.nodes.size(); ++i) {
    for (size_t j = 0; j < y.nodes.size(); ++j) {
      for (size_t k = 0; k < z.nodes.size(); ++k) {
        const double share = x.weights[i] * y.weights[j] * z.weights[k] / 8;  // of the volume
        samples.push_back({Vector3(x.nodes[i], y.nodes[j], z.nodes[k]).cwiseProduct(half), share * moment(magnet)});
      }
    }
  }
  return samples;
}

double pointDipoleError(const Magnet& first, const Magnet& second, double distance) {
  if (first.shape.kind == Kind::kSphere && second.shape.kind == Kind::kSphere) return 0;
  if (distance <= boundingRadius(first.shape) + boundingRadius(second.shape)) {
    return std::numeric_limits<double>::infinity();
  }
  double error = 0;
  for (const Magnet* magnet : {&first, &second}) {
    if (magnet->shape.kind == Kind::kSphere) continue;
    if (magnet->shape.kind == Kind::kEllipsoid) {
      // Its field outside is its dipole's plus terms of its second moments' anisotropy, (a_i² − a_j²)/5: none for a
      // sphere-shaped one.
      const Vector3& semiAxes = magnet->shape.halfExtents;
      error += 3 * (semiAxes.cwiseAbs2().maxCoeff() - semiAxes.cwiseAbs2().minCoeff()) / (distance * distance);
      continue;
    }
    const double ratio = boundingRadius(magnet->shape) / distance;
    error += isCube(magnet->shape) ? 2 * std::pow(ratio, 4) : 3 * ratio * ratio;
  }
  return error;
}

PairMethod choosePairMethod(const Magnet& first, const Magnet& second, double distance, double relativeAccuracy) {
  if (first.dipolesPerAxis > 0 || second.dipolesPerAxis > 0) return PairMethod::kDipoleSamples;
  if (pointDipoleError(first, second, distance) < relativeAccuracy) return PairMethod::kPointDipoles;
  if (chooseGaussPoints(first, second, distance, relativeAccuracy)) return PairMethod::kGaussDipoles;
  return PairMethod::kSurfaceCharge;
}

namespace {

// Both magnets' loads from the forces and moments on the samples of each: each sample's force acts at the sample.
MagnetPairLoads sampledLoads(const std::vector<DipoleSample>& firstSamples, const MagnetPose& firstPose,
                             const std::vector<DipoleSample>& secondSamples, const MagnetPose& secondPose) {
  MagnetPairLoads loads;
  // The second's samples in the common frame, once, not once for each of the first's.
  std::vector<DipoleSample> placed;
  placed.reserve(secondSamples.size());
  for (const DipoleSample& b : secondSamples) {
    placed.push_back({secondPose.rotation * b.position, secondPose.rotation * b.moment});
  }
  for (const DipoleSample& a : firstSamples) {
    const Vector3 leverA = firstPose.rotation * a.position, momentA = firstPose.rotation * a.moment;
    const Vector3 offset = secondPose.position - firstPose.position - leverA;
    for (const DipoleSample& b : placed) {
      const PointDipoleInteraction pair = pointDipoleInteraction(momentA, b.moment, offset + b.position);
      loads.forceOnSecond += pair.forceOnSecond;
      loads.torqueOnSecond += b.position.cross(pair.forceOnSecond) + pair.momentOnSecond;
      loads.torqueOnFirst += -leverA.cross(pair.forceOnSecond) + pair.momentOnFirst;
    }
  }
  loads.forceOnFirst = -loads.forceOnSecond;
  return loads;
}

// How far outside its surface a point on or in a source is put, relative to the source's size: the field there is its
// limit from outside to 1e-9 or so (less beside an edge, where it grows as the logarithm of the distance).
constexpr double kOutsideNudge = 1e-9;

// A point inside a frustum moved to its nearest surface — an end's plane or the mantle, in the plane through the axis
// — and `nudge` beyond it.
Vector3 outsideOfFrustum(const MagnetShape& shape, Vector3 point, double nudge) {
  const double radial = point.head<2>().norm();
  const double height = shape.topZ - shape.bottomZ, lean = shape.radius - shape.topRadius;
  const double slant = std::hypot(height, lean);
  // The mantle's outward normal in that plane is (height, lean)/slant: (radial, z) along it is the radial distance
  // below the mantle times height/slant.
  const double belowMantle = (frustumRadiusAt(shape, point.z()) - radial) * height / slant;
  const double belowTop = shape.topZ - point.z(), belowBottom = point.z() - shape.bottomZ;
  if (belowMantle < 0 || belowTop < 0 || belowBottom < 0) return point;
  if (belowTop <= std::min(belowMantle, belowBottom)) {
    point.z() = shape.topZ + nudge;
  } else if (belowBottom <= belowMantle) {
    point.z() = shape.bottomZ - nudge;
  } else {
    using Vector2 = Eigen::Vector2d;
    const Vector2 direction = radial > 0 ? Vector2(point.head<2>() / radial) : Vector2::UnitX();
    const double step = belowMantle + nudge;
    point.head<2>() += step * height / slant * direction;
    point.z() += step * lean / slant;
  }
  return point;
}

// The point itself when it is outside the shape; otherwise the nearest point of the shape's surface, nudged out. A
// polyhedron's points are taken as they are: its overlap with a magnet in contact is undone by the caller
// (elements/force_magnet.h), but a point still inside it after that gets the field inside.
Vector3 outsideOf(const MagnetShape& shape, Vector3 point) {
  const double nudge = kOutsideNudge * boundingRadius(shape);
  const auto outward = [](double coordinate) { return coordinate < 0 ? -1.0 : 1.0; };
  switch (shape.kind) {
    case Kind::kSphere: {
      const double distance = point.norm();
      if (distance > shape.radius) return point;
      const Vector3 direction = distance > 0 ? Vector3(point / distance) : Vector3::UnitZ();
      return (shape.radius + nudge) * direction;
    }
    case Kind::kCuboid: {
      const Vector3 depth = shape.halfExtents - point.cwiseAbs();  // below each pair of faces
      if ((depth.array() < 0).any()) return point;
      Eigen::Index axis = 0;
      depth.minCoeff(&axis);
      point[axis] = outward(point[axis]) * (shape.halfExtents[axis] + nudge);
      return point;
    }
    case Kind::kCylinder: {
      const double radial = point.head<2>().norm();
      const double belowMantle = shape.radius - radial, belowEnd = shape.halfLength - std::abs(point.z());
      if (belowMantle < 0 || belowEnd < 0) return point;
      if (belowEnd <= belowMantle) {
        point.z() = outward(point.z()) * (shape.halfLength + nudge);
      } else {
        using Vector2 = Eigen::Vector2d;
        const Vector2 direction = radial > 0 ? Vector2(point.head<2>() / radial) : Vector2::UnitX();
        point.head<2>() = (shape.radius + nudge) * direction;
      }
      return point;
    }
    case Kind::kEllipsoid: {
      // Along the ray from the centre, not to the nearest surface point (a root of a sextic): the field there, just
      // outside, is what a target in contact feels within the nudge.
      const double scaled = point.cwiseQuotient(shape.halfExtents).norm();
      if (scaled > 1) return point;
      const Vector3 onSurface =
          scaled > 0 ? Vector3(point / scaled) : Vector3(shape.halfExtents.z() * Vector3::UnitZ());
      return onSurface * (1 + kOutsideNudge);
    }
    case Kind::kFrustum: return outsideOfFrustum(shape, point, nudge);
    case Kind::kPolyhedron: return point;
  }
  return point;
}

}  // namespace

// Where a target's surface is on or in the source — a contact law lets touching magnets overlap a little — the field is
// taken just outside the source's nearest surface: magnets overlapping pull as they do touching. Inside, the field
// jumps by the source's surface charge, so that two touching 20 mm cubes (M = 9e5 A/m) that pull with 165.6 N would
// push with 241 N at an overlap of 1 µm.
SourceField magnetField(const Magnet& source) {
  const MagnetShape shape = source.shape;
  if (source.dipolesPerAxis > 0) {
    return [samples = dipoleSamples(source), shape](const Vector3& point) {
      const Vector3 at = outsideOf(shape, point);
      Vector3 field = Vector3::Zero();
      for (const DipoleSample& sample : samples) field += pointDipoleField(sample.moment, at - sample.position);
      return field;
    };
  }
  switch (shape.kind) {
    case Kind::kSphere:
      return [m = moment(source), shape](const Vector3& point) {
        return pointDipoleField(m, outsideOf(shape, point));
      };
    case Kind::kCuboid:
      return [cuboid = Cuboid{shape.halfExtents, source.magnetisation}, shape](const Vector3& point) {
        return cuboidField(cuboid, outsideOf(shape, point));
      };
    case Kind::kCylinder:
      return [cylinder = Cylinder{shape.radius, shape.halfLength, source.magnetisation.z(),
                                  source.magnetisation.head<2>()},
              shape](
                 const Vector3& point) { return cylinderField(cylinder, outsideOf(shape, point)); };
    case Kind::kPolyhedron: {
      Polyhedron magnetised = *shape.polyhedron;
      magnetised.magnetisation = source.magnetisation;
      const auto field = std::make_shared<const PolyhedronField>(magnetised);
      return [field](const Vector3& point) { return (*field)(point); };
    }
    case Kind::kEllipsoid:
      return [ellipsoid = Ellipsoid{shape.halfExtents, source.magnetisation}, shape](const Vector3& point) {
        return ellipsoidField(ellipsoid, outsideOf(shape, point));
      };
    case Kind::kFrustum:
      return [frustum = frustumOf(shape, source.magnetisation), shape](const Vector3& point) {
        return frustumField(frustum, outsideOf(shape, point));
      };
  }
  return {};
}

namespace {

// The target's charged faces in the source's axes, placed by `pose`, and its torque length.
std::vector<ChargedFace> facesOf(const Magnet& target, const MagnetPose& pose, double& length) {
  if (target.shape.kind == Kind::kEllipsoid) {
    const Ellipsoid ellipsoid{target.shape.halfExtents, target.magnetisation};
    length = torqueLength(ellipsoid);
    return chargedFaces(ellipsoid, pose);
  }
  if (target.shape.kind == Kind::kPolyhedron) {
    Polyhedron magnetised = *target.shape.polyhedron;
    magnetised.magnetisation = target.magnetisation;
    length = torqueLength(magnetised);
    return chargedFaces(magnetised, pose);
  }
  if (target.shape.kind == Kind::kFrustum) {
    const Frustum frustum = frustumOf(target.shape, target.magnetisation);
    length = torqueLength(frustum);
    return chargedFaces(frustum, pose);
  }
  if (target.shape.kind == Kind::kCuboid) {
    const Cuboid cuboid{target.shape.halfExtents, target.magnetisation};
    length = torqueLength(cuboid);
    return chargedFaces(cuboid, pose);
  }
  const Cylinder cylinder{target.shape.radius, target.shape.halfLength, target.magnetisation.z(),
                          target.magnetisation.head<2>()};
  length = torqueLength(cylinder);
  return chargedFaces(cylinder, pose);
}

// The target's surface charges in the source's field. A sphere or a sampled magnet is never the target (each is
// exactly its dipoles, the simpler source): the caller orders the pair.
MagnetPairLoads surfaceChargeLoads(const Magnet& source, const MagnetPose& sourcePose, const Magnet& target,
                                   const MagnetPose& targetPose, double relativeAccuracy, QuadratureLayout* layout) {
  const MagnetPose inSource{sourcePose.rotation.transpose() * targetPose.rotation,
                            sourcePose.rotation.transpose() * (targetPose.position - sourcePose.position)};
  double length = 0;
  const std::vector<ChargedFace> faces = facesOf(target, inSource, length);
  const MagnetInteraction interaction =
      chargedSurfaceInteraction(magnetField(source), inSource.position, faces, length, relativeAccuracy, layout);
  MagnetPairLoads loads;
  loads.forceOnSecond = sourcePose.rotation * interaction.force;
  loads.torqueOnSecond = sourcePose.rotation * interaction.torque;
  // Newton's third law, and the angular momentum the pair's field holds none of: the torque on the source about its
  // centre balances the target's about the same point.
  loads.forceOnFirst = -loads.forceOnSecond;
  loads.torqueOnFirst =
      -loads.torqueOnSecond - (targetPose.position - sourcePose.position).cross(loads.forceOnSecond);
  loads.fieldEvaluations = interaction.fieldEvaluations;
  loads.converged = interaction.converged;
  loads.errorEstimate = interaction.errorEstimate;
  return loads;
}

MagnetPairLoads swapped(MagnetPairLoads loads) {
  std::swap(loads.forceOnFirst, loads.forceOnSecond);
  std::swap(loads.torqueOnFirst, loads.torqueOnSecond);
  return loads;
}

}  // namespace

MagnetPairLoads magnetPairInteraction(const Magnet& first, const MagnetPose& firstPose, const Magnet& second,
                                      const MagnetPose& secondPose, double relativeAccuracy, MagnetPairPlan* plan) {
  PairMethod method = PairMethod::kSurfaceCharge;
  GaussPoints gaussPoints;
  if (plan && plan->reuse) {
    method = plan->method;
    gaussPoints = plan->gaussPoints;
  } else {
    const double distance = (secondPose.position - firstPose.position).norm();
    method = choosePairMethod(first, second, distance, relativeAccuracy);
    if (method == PairMethod::kGaussDipoles) {
      gaussPoints = *chooseGaussPoints(first, second, distance, relativeAccuracy);
    }
  }
  if (plan) {
    plan->method = method;
    plan->gaussPoints = gaussPoints;
  }
  // A magnet that is not sampled is exact: a sphere as its dipole, any other shape by its surface charges in the
  // sampled magnet's field.
  const auto integratesCharges = [method](const Magnet& magnet) {
    return method != PairMethod::kPointDipoles && method != PairMethod::kGaussDipoles && magnet.dipolesPerAxis == 0 &&
           magnet.shape.kind != Kind::kSphere;
  };
  MagnetPairLoads loads;
  if (method == PairMethod::kGaussDipoles) {
    loads = sampledLoads(gaussDipoleSamples(first, gaussPoints.first), firstPose,
                         gaussDipoleSamples(second, gaussPoints.second), secondPose);
  } else if (!integratesCharges(first) && !integratesCharges(second)) {
    const auto samples = [method](const Magnet& magnet) {
      return method == PairMethod::kDipoleSamples && magnet.dipolesPerAxis > 0
                 ? dipoleSamples(magnet)
                 : std::vector<DipoleSample>{{Vector3::Zero(), moment(magnet)}};
    };
    loads = sampledLoads(samples(first), firstPose, samples(second), secondPose);
  } else {
    QuadratureLayout* layout = plan ? &plan->layout : nullptr;
    if (layout) layout->reuse = plan->reuse && !layout->panels.empty();
    if (!integratesCharges(second)) {
      loads = swapped(surfaceChargeLoads(second, secondPose, first, firstPose, relativeAccuracy, layout));
    } else {
      loads = surfaceChargeLoads(first, firstPose, second, secondPose, relativeAccuracy, layout);
    }
  }
  loads.method = method;
  return loads;
}

}  // namespace lodestone
