// A pair of magnets: which method, and each method's force and torque on both, placed in one frame.
#include "magnetics/magnet_pair.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "magnetics/cuboid_force.h"
#include "magnetics/cylinder_force.h"
#include "magnetics/point_dipole.h"
#include "magnetics/polyhedron_force.h"

namespace lodestone {

using Kind = MagnetShape::Kind;

double volume(const MagnetShape& shape) {
  switch (shape.kind) {
    case Kind::kSphere: return 4.0 / 3.0 * std::numbers::pi * std::pow(shape.radius, 3);
    case Kind::kCuboid: return 8 * shape.halfExtents.prod();
    case Kind::kCylinder: return 2 * std::numbers::pi * shape.radius * shape.radius * shape.halfLength;
    case Kind::kPolyhedron: return polyhedronVolume(*shape.polyhedron);
  }
  return 0;
}

double boundingRadius(const MagnetShape& shape) {
  switch (shape.kind) {
    case Kind::kSphere: return shape.radius;
    case Kind::kCuboid: return shape.halfExtents.norm();
    case Kind::kCylinder: return std::hypot(shape.radius, shape.halfLength);
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

// The half-extents of the box the shape fills, about its centre.
Vector3 boundingBox(const MagnetShape& shape) {
  switch (shape.kind) {
    case Kind::kSphere: return Vector3::Constant(shape.radius);
    case Kind::kCuboid: return shape.halfExtents;
    case Kind::kCylinder: return Vector3(shape.radius, shape.radius, shape.halfLength);
    case Kind::kPolyhedron: return Vector3::Constant(boundingRadius(shape));
  }
  return Vector3::Zero();
}

bool inside(const MagnetShape& shape, const Vector3& point) {
  switch (shape.kind) {
    case Kind::kSphere: return point.norm() <= shape.radius;
    case Kind::kCuboid: return (point.cwiseAbs().array() <= shape.halfExtents.array()).all();
    case Kind::kCylinder: return point.head<2>().norm() <= shape.radius && std::abs(point.z()) <= shape.halfLength;
    case Kind::kPolyhedron: return false;  // not sampled (Magnet::dipolesPerAxis)
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
  const Vector3 half = boundingBox(magnet.shape);
  std::vector<DipoleSample> samples;
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      for (int k = 0; k < n; ++k) {
        const Vector3 cell = (Vector3(i, j, k).array() + 0.5) / n * 2 - 1;  // cell centre in [−1, 1]³
        const Vector3 position = cell.cwiseProduct(half);
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
  }
  return "";
}

double pointDipoleError(const Magnet& first, const Magnet& second, double distance) {
  if (first.shape.kind == Kind::kSphere && second.shape.kind == Kind::kSphere) return 0;
  if (distance <= boundingRadius(first.shape) + boundingRadius(second.shape)) {
    return std::numeric_limits<double>::infinity();
  }
  double error = 0;
  for (const Magnet* magnet : {&first, &second}) {
    if (magnet->shape.kind == Kind::kSphere) continue;
    const double ratio = boundingRadius(magnet->shape) / distance;
    error += isCube(magnet->shape) ? 2 * std::pow(ratio, 4) : 3 * ratio * ratio;
  }
  return error;
}

PairMethod choosePairMethod(const Magnet& first, const Magnet& second, double distance, double relativeAccuracy) {
  if (first.dipolesPerAxis > 0 || second.dipolesPerAxis > 0) return PairMethod::kDipoleSamples;
  if (pointDipoleError(first, second, distance) < relativeAccuracy) return PairMethod::kPointDipoles;
  return PairMethod::kSurfaceCharge;
}

namespace {

// Both magnets' loads from the forces and moments on the samples of each: each sample's force acts at the sample.
MagnetPairLoads sampledLoads(const std::vector<DipoleSample>& firstSamples, const MagnetPose& firstPose,
                             const std::vector<DipoleSample>& secondSamples, const MagnetPose& secondPose) {
  MagnetPairLoads loads;
  for (const DipoleSample& a : firstSamples) {
    const Vector3 leverA = firstPose.rotation * a.position, momentA = firstPose.rotation * a.moment;
    for (const DipoleSample& b : secondSamples) {
      const Vector3 leverB = secondPose.rotation * b.position, momentB = secondPose.rotation * b.moment;
      const PointDipoleInteraction pair =
          pointDipoleInteraction(momentA, momentB, secondPose.position + leverB - firstPose.position - leverA);
      loads.forceOnSecond += pair.forceOnSecond;
      loads.torqueOnSecond += leverB.cross(pair.forceOnSecond) + pair.momentOnSecond;
      loads.torqueOnFirst += -leverA.cross(pair.forceOnSecond) + pair.momentOnFirst;
    }
  }
  loads.forceOnFirst = -loads.forceOnSecond;
  return loads;
}

// How far outside its surface a point on or in a source is put, relative to the source's size: the field there is its
// limit from outside to 1e-9 or so (less beside an edge, where it grows as the logarithm of the distance).
constexpr double kOutsideNudge = 1e-9;

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
    case Kind::kPolyhedron: return point;
  }
  return point;
}

// The field of the source magnet in its own axes: its samples' when it is sampled. Where a target's surface is on or
// in the source — a contact law lets touching magnets overlap a little — the field is taken just outside the source's
// nearest surface: magnets overlapping pull as they do touching. Inside, the field jumps by the source's surface
// charge, so that two touching 20 mm cubes (M = 9e5 A/m) that pull with 165.6 N would push with 241 N at an overlap of
// 1 µm.
SourceField fieldOf(const Magnet& source) {
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
      return [cylinder = Cylinder{shape.radius, shape.halfLength, source.magnetisation.z()}, shape](
                 const Vector3& point) { return cylinderField(cylinder, outsideOf(shape, point)); };
    case Kind::kPolyhedron: {
      Polyhedron magnetised = *shape.polyhedron;
      magnetised.magnetisation = source.magnetisation;
      const auto field = std::make_shared<const PolyhedronField>(magnetised);
      return [field](const Vector3& point) { return (*field)(point); };
    }
  }
  return {};
}

// The target's charged faces in the source's axes, placed by `pose`, and its torque length.
std::vector<ChargedFace> facesOf(const Magnet& target, const MagnetPose& pose, double& length) {
  if (target.shape.kind == Kind::kPolyhedron) {
    Polyhedron magnetised = *target.shape.polyhedron;
    magnetised.magnetisation = target.magnetisation;
    length = torqueLength(magnetised);
    return chargedFaces(magnetised, pose);
  }
  if (target.shape.kind == Kind::kCuboid) {
    const Cuboid cuboid{target.shape.halfExtents, target.magnetisation};
    length = torqueLength(cuboid);
    return chargedFaces(cuboid, pose);
  }
  const Cylinder cylinder{target.shape.radius, target.shape.halfLength, target.magnetisation.z()};
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
      chargedSurfaceInteraction(fieldOf(source), inSource.position, faces, length, relativeAccuracy, layout);
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
  const PairMethod method =
      plan && plan->reuse ? plan->method
                          : choosePairMethod(first, second, (secondPose.position - firstPose.position).norm(),
                                             relativeAccuracy);
  if (plan) plan->method = method;
  // A magnet that is not sampled is exact: a sphere as its dipole, any other shape by its surface charges in the
  // sampled magnet's field.
  const auto integratesCharges = [method](const Magnet& magnet) {
    return method != PairMethod::kPointDipoles && magnet.dipolesPerAxis == 0 && magnet.shape.kind != Kind::kSphere;
  };
  MagnetPairLoads loads;
  if (!integratesCharges(first) && !integratesCharges(second)) {
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
