// A polyhedron target as its charged triangles, each a ChargedFace from its first corner along its two edges from it.
#include "magnetics/polyhedron_force.h"

#include <algorithm>
#include <vector>

namespace lodestone {

std::vector<ChargedFace> chargedFaces(const Polyhedron& target, const MagnetPose& pose) {
  std::vector<ChargedFace> faces;
  for (const auto& [a, b, c] : target.triangles) {
    const Vector3& corner = target.vertices[a];
    const Vector3 alongB = target.vertices[b] - corner, alongC = target.vertices[c] - corner;
    const Vector3 areaNormal = alongB.cross(alongC);
    const double doubleArea = areaNormal.norm();
    if (doubleArea == 0) continue;  // no area, no charge
    const double charge = target.magnetisation.dot(areaNormal) / doubleArea;
    if (charge == 0) continue;
    faces.push_back({ChargedFace::Shape::kTriangle, pose.rotation * corner, pose.rotation * alongB,
                     pose.rotation * alongC, charge});
  }
  return faces;
}

double torqueLength(const Polyhedron& target) {
  double length = 0;
  for (const Vector3& vertex : target.vertices) length = std::max(length, vertex.norm());
  return length;
}

MagnetInteraction polyhedronInteraction(const SourceField& source, const Polyhedron& target, const MagnetPose& pose,
                                        double relativeAccuracy) {
  return chargedSurfaceInteraction(source, pose.position, chargedFaces(target, pose), torqueLength(target),
                                   relativeAccuracy);
}

MagnetInteraction polyhedronInteraction(const Polyhedron& source, const Polyhedron& target, const MagnetPose& pose,
                                        double relativeAccuracy) {
  const PolyhedronField field(source);
  return polyhedronInteraction([&field](const Vector3& point) { return field(point); }, target, pose,
                               relativeAccuracy);
}

MagnetInteraction polyhedronInteraction(const Cuboid& source, const Polyhedron& target, const MagnetPose& pose,
                                        double relativeAccuracy) {
  const SourceField field = [&source](const Vector3& point) { return cuboidField(source, point); };
  return polyhedronInteraction(field, target, pose, relativeAccuracy);
}

}  // namespace lodestone
