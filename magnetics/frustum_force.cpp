// A frustum target as its two charged end discs and its mantle's four tapered quarters.
#include "magnetics/frustum_force.h"

#include <algorithm>
#include <cmath>

namespace lodestone {

std::vector<ChargedFace> chargedFaces(const Frustum& target, const MagnetPose& pose) {
  const Vector3 axis = pose.rotation.col(2);
  const Vector3 across = pose.rotation.col(0), alsoAcross = pose.rotation.col(1);
  const double axial = target.magnetisation.z();
  std::vector<ChargedFace> faces;
  if (axial != 0) {
    const struct {
      double radius, z, sign;
    } ends[] = {{target.topRadius, target.topZ, 1.0}, {target.bottomRadius, target.bottomZ, -1.0}};
    for (const auto& end : ends) {
      if (end.radius <= 0) continue;  // a cone's apex
      faces.push_back({ChargedFace::Shape::kDisc, end.z * axis, end.radius * across,
                       end.radius * alsoAcross, end.sign * axial});
    }
  }
  const bool leaning = target.topRadius != target.bottomRadius;
  if (!leaning && target.magnetisation.head<2>().isZero()) return faces;  // a cylinder magnetised along its axis
  const double middleRadius = 0.5 * (target.bottomRadius + target.topRadius);
  const Vector3 magnetisation = pose.rotation * target.magnetisation;  // in the source's axes; M·n is the mantle's σ
  for (int quarter = 0; quarter < 4; ++quarter) {
    const double u = quarter == 0 || quarter == 3 ? 1.0 : -1.0, v = quarter < 2 ? 1.0 : -1.0;
    ChargedFace face{ChargedFace::Shape::kMantleQuarter, 0.5 * (target.bottomZ + target.topZ) * axis,
                     u * middleRadius * across, v * middleRadius * alsoAcross, 0};
    face.halfW = 0.5 * (target.topZ - target.bottomZ) * axis;
    face.taper = (target.topRadius - target.bottomRadius) / (target.topRadius + target.bottomRadius);
    face.magnetisation = magnetisation;
    faces.push_back(face);
  }
  return faces;
}

double torqueLength(const Frustum& target) {
  return std::hypot(std::max(target.bottomRadius, target.topRadius), 0.5 * (target.topZ - target.bottomZ));
}

MagnetInteraction frustumInteraction(const SourceField& source, const Frustum& target, const MagnetPose& pose,
                                     double relativeAccuracy) {
  return chargedSurfaceInteraction(source, pose.position, chargedFaces(target, pose), torqueLength(target),
                                   relativeAccuracy);
}

}  // namespace lodestone
