// An ellipsoid target as its eight charged octants.
#include "magnetics/ellipsoid_force.h"

#include <vector>

namespace lodestone {

std::vector<ChargedFace> chargedFaces(const Ellipsoid& target, const MagnetPose& pose) {
  const Matrix3 semiAxes = pose.rotation * target.semiAxes.asDiagonal();
  const Vector3 magnetisation = pose.rotation * target.magnetisation;
  std::vector<ChargedFace> faces;
  for (int octant = 0; octant < 8; ++octant) {
    const auto sign = [octant](int bit) { return (octant >> bit & 1) != 0 ? -1.0 : 1.0; };
    ChargedFace face{ChargedFace::Shape::kEllipsoidOctant, Vector3::Zero(), sign(0) * semiAxes.col(0),
                     sign(1) * semiAxes.col(1), 0};
    face.halfW = sign(2) * semiAxes.col(2);
    face.magnetisation = magnetisation;
    faces.push_back(face);
  }
  return faces;
}

double torqueLength(const Ellipsoid& target) { return target.semiAxes.maxCoeff(); }

MagnetInteraction ellipsoidInteraction(const SourceField& source, const Ellipsoid& target, const MagnetPose& pose,
                                       double relativeAccuracy) {
  return chargedSurfaceInteraction(source, pose.position, chargedFaces(target, pose), torqueLength(target),
                                   relativeAccuracy);
}

}  // namespace lodestone
