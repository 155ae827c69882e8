// Meshes the mesh tests share: a unit cube wound outwards, its copies at other sizes and places, and a torus.
#pragma once

#include <cmath>
#include <numbers>

#include "collision/triangle_mesh.h"

namespace lodestone::testing {

// Node i at (i & 1, i >> 1 & 1, i >> 2 & 1); two triangles per face, counter-clockwise seen from outside, faces
// in the order z=0, z=1, y=0, y=1, x=0, x=1.
inline TriangleMesh unitCube() {
  TriangleMesh cube;
  for (int i = 0; i < 8; ++i) cube.vertices.emplace_back(i & 1, i >> 1 & 1, i >> 2 & 1);
  cube.triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                    {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  return cube;
}

inline TriangleMesh scaledAndMoved(TriangleMesh mesh, double scale, const Vector3& offset) {
  for (Vector3& vertex : mesh.vertices) vertex = scale * vertex + offset;
  return mesh;
}

// Sizes and places that must not change a verdict: millimetre and kilometre meshes, and one far from the origin.
struct Placement {
  double scale;
  Vector3 offset;
};
inline const Placement kPlacements[] = {{1, Vector3::Zero()}, {1e-3, Vector3(0.2, -0.1, 0)}, {1e3, Vector3::Zero()},
                                        {0.05, Vector3(1e4, -2e4, 3e4)}};

// A closed torus about z, radii `major` and `minor`, wound outwards: 2·around·across triangles.
inline TriangleMesh torus(int around, int across, double major = 1.0, double minor = 0.3) {
  TriangleMesh mesh;
  const double step = 2 * std::numbers::pi;
  for (int i = 0; i < around; ++i) {
    for (int j = 0; j < across; ++j) {
      const double u = step * i / around, v = step * j / across;
      const double ring = major + minor * std::cos(v);
      mesh.vertices.emplace_back(ring * std::cos(u), ring * std::sin(u), minor * std::sin(v));
    }
  }
  const auto node = [&](int i, int j) { return (i % around) * across + j % across; };
  for (int i = 0; i < around; ++i) {
    for (int j = 0; j < across; ++j) {
      // ∂p/∂u × ∂p/∂v points outwards, so corners go +u first, then +v.
      mesh.triangles.push_back({node(i, j), node(i + 1, j), node(i + 1, j + 1)});
      mesh.triangles.push_back({node(i, j), node(i + 1, j + 1), node(i, j + 1)});
    }
  }
  return mesh;
}

}  // namespace lodestone::testing
