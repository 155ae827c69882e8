// Triangle meshes as contact geometry: the mesh a TriaMesh graphic describes and the checks that make it
// usable (every corner a real node, no degenerate triangles).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "solver/core/rotation.h"

namespace lodestone {

struct TriangleMesh {
  std::vector<Vector3> vertices;
  std::vector<std::array<int, 3>> triangles;  // 0-based vertex indices, counter-clockwise seen from outside
};

struct MeshProblem {
  bool isError = false;
  std::string message;
};

// Corner indices outside the vertex list are errors; triangles with (near) zero area are warnings, since a
// viewer draws them but contact cannot give them a normal.
std::vector<MeshProblem> checkTriangleMesh(const TriangleMesh& mesh);

}  // namespace lodestone
