// A cylinder target as its two charged end discs.
#include "magnetics/cylinder_force.h"

#include <cmath>
#include <vector>

namespace lodestone {

std::vector<ChargedFace> chargedFaces(const Cylinder& target, const MagnetPose& pose) {
  const Vector3 axis = pose.rotation.col(2);
  const Vector3 halfU = target.radius * pose.rotation.col(0), halfV = target.radius * pose.rotation.col(1);
  std::vector<ChargedFace> faces;
  for (const double side : {1.0, -1.0}) {
    faces.push_back(
        {ChargedFace::Shape::kDisc, side * target.halfLength * axis, halfU, halfV, side * target.magnetisation});
  }
  return faces;
}

double torqueLength(const Cylinder& target) { return std::hypot(target.radius, target.halfLength); }

MagnetInteraction cylinderInteraction(const SourceField& source, const Cylinder& target, const MagnetPose& pose,
                                      double relativeAccuracy) {
  return chargedSurfaceInteraction(source, pose.position, chargedFaces(target, pose), torqueLength(target),
                                   relativeAccuracy);
}

MagnetInteraction cylinderInteraction(const Cylinder& source, const Cylinder& target, const MagnetPose& pose,
                                      double relativeAccuracy) {
  const SourceField field = [&source](const Vector3& point) { return cylinderField(source, point); };
  return cylinderInteraction(field, target, pose, relativeAccuracy);
}

MagnetInteraction cylinderInteraction(const Cuboid& source, const Cylinder& target, const MagnetPose& pose,
                                      double relativeAccuracy) {
  const SourceField field = [&source](const Vector3& point) { return cuboidField(source, point); };
  return cylinderInteraction(field, target, pose, relativeAccuracy);
}

}  // namespace lodestone
