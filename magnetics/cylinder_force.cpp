// A cylinder target as its two charged end discs and, magnetised across its axis, its mantle's four quarters.
#include "magnetics/cylinder_force.h"

#include <cmath>
#include <vector>

namespace lodestone {

std::vector<ChargedFace> chargedFaces(const Cylinder& target, const MagnetPose& pose) {
  const Vector3 axis = pose.rotation.col(2);
  const Vector3 halfU = target.radius * pose.rotation.col(0), halfV = target.radius * pose.rotation.col(1);
  std::vector<ChargedFace> faces;
  if (target.magnetisation != 0) {
    for (const double side : {1.0, -1.0}) {
      faces.push_back(
          {ChargedFace::Shape::kDisc, side * target.halfLength * axis, halfU, halfV, side * target.magnetisation});
    }
  }
  if (target.diametralMagnetisation.isZero()) return faces;
  const Vector3 magnetisation =
      pose.rotation.leftCols<2>() * target.diametralMagnetisation;  // in the source's axes; M·n is the mantle's σ
  for (int quarter = 0; quarter < 4; ++quarter) {
    const double u = quarter == 0 || quarter == 3 ? 1.0 : -1.0, v = quarter < 2 ? 1.0 : -1.0;
    ChargedFace face{ChargedFace::Shape::kMantleQuarter, Vector3::Zero(), u * halfU, v * halfV, 0};
    face.halfW = target.halfLength * axis;
    face.magnetisation = magnetisation;
    faces.push_back(face);
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
