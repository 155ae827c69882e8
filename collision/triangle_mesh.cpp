// Validation of triangle meshes read from decks.
#include "triangle_mesh.h"

#include <algorithm>

namespace lodestone {

std::vector<MeshProblem> checkTriangleMesh(const TriangleMesh& mesh) {
  std::vector<MeshProblem> problems;
  const int nodeCount = static_cast<int>(mesh.vertices.size());
  double largestEdge = 0;
  for (const auto& triangle : mesh.triangles) {
    for (int corner : triangle) {
      if (corner >= 0 && corner < nodeCount) {
        for (int other : triangle) {
          if (other >= 0 && other < nodeCount) {
            largestEdge = std::max(largestEdge, (mesh.vertices[corner] - mesh.vertices[other]).norm());
          }
        }
      }
    }
  }
  int degenerate = 0;
  int firstDegenerate = -1;
  int outOfRange = 0;
  bool usesNodeZero = false;
  std::string firstOutOfRange;
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& triangle = mesh.triangles[t];
    bool inRange = true;
    for (int corner : triangle) {
      usesNodeZero = usesNodeZero || corner == 0;
      if (corner < 0 || corner >= nodeCount) {
        inRange = false;
        if (outOfRange++ == 0) {
          firstOutOfRange = "triangle " + std::to_string(t) + " uses node " + std::to_string(corner) +
                            ", but nodes are numbered 0 to " + std::to_string(nodeCount - 1);
        }
      }
    }
    if (!inRange) continue;
    const Vector3& a = mesh.vertices[triangle[0]];
    const Vector3& b = mesh.vertices[triangle[1]];
    const Vector3& c = mesh.vertices[triangle[2]];
    // Area relative to the mesh's scale, so millimetre and metre meshes are judged alike.
    const double twiceArea = (b - a).cross(c - a).norm();
    if (twiceArea <= 1e-12 * largestEdge * largestEdge) {
      if (degenerate++ == 0) firstDegenerate = static_cast<int>(t);
    }
  }
  if (outOfRange > 0) {
    std::string message = firstOutOfRange + " (" + std::to_string(outOfRange) + " corner(s) out of range in all)";
    if (!usesNodeZero) message += "; triangle corners are 0-based, and these look 1-based";
    problems.push_back({true, message});
  }
  if (degenerate > 0) {
    problems.push_back({false, std::to_string(degenerate) + " triangle(s) have zero area (the first is triangle " +
                                   std::to_string(firstDegenerate) + "); they cannot carry contact"});
  }
  return problems;
}

}  // namespace lodestone
