// A cuboid target as six charged rectangles, those with M·n ≠ 0.
#include "magnetics/cuboid_force.h"

#include <vector>

namespace lodestone {

std::vector<ChargedFace> chargedFaces(const Cuboid& target, const MagnetPose& pose) {
  std::vector<ChargedFace> faces;
  for (int normal = 0; normal < 3; ++normal) {
    if (target.magnetisation[normal] == 0) continue;
    const int i = (normal + 1) % 3, j = (normal + 2) % 3;
    for (const double side : {1.0, -1.0}) {
      faces.push_back({ChargedFace::Shape::kRectangle, side * target.halfExtents[normal] * pose.rotation.col(normal),
                       target.halfExtents[i] * pose.rotation.col(i), target.halfExtents[j] * pose.rotation.col(j),
                       side * target.magnetisation[normal]});
    }
  }
  return faces;
}

double torqueLength(const Cuboid& target) { return target.halfExtents.norm(); }

MagnetInteraction cuboidInteraction(const SourceField& source, const Cuboid& target, const MagnetPose& pose,
                                    double relativeAccuracy) {
  return chargedSurfaceInteraction(source, pose.position, chargedFaces(target, pose), torqueLength(target),
                                   relativeAccuracy);
}

MagnetInteraction cuboidInteraction(const Cuboid& source, const Cuboid& target, const MagnetPose& pose,
                                    double relativeAccuracy) {
  const SourceField field = [&source](const Vector3& point) { return cuboidField(source, point); };
  return cuboidInteraction(field, target, pose, relativeAccuracy);
}

}  // namespace lodestone
