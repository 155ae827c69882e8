// Tessellation of the convex primitives.
#include "tessellation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>

namespace lodestone {

namespace {

// A unit sphere: an icosahedron whose triangles are split in four `subdivisions` times, new vertices pushed out to
// the sphere. Shared edges share their midpoints, so the mesh stays closed.
TriangleMesh unitSphere(int subdivisions) {
  TriangleMesh mesh;
  const double t = (1 + std::sqrt(5.0)) / 2;
  for (const Vector3& v : {Vector3(-1, t, 0), Vector3(1, t, 0), Vector3(-1, -t, 0), Vector3(1, -t, 0),
                           Vector3(0, -1, t), Vector3(0, 1, t), Vector3(0, -1, -t), Vector3(0, 1, -t),
                           Vector3(t, 0, -1), Vector3(t, 0, 1), Vector3(-t, 0, -1), Vector3(-t, 0, 1)}) {
    mesh.vertices.push_back(v.normalized());
  }
  mesh.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                    {11, 10, 2}, {10, 7, 6}, {7, 1, 8},   {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                    {3, 8, 9},  {4, 9, 5},  {2, 4, 11},  {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int pass = 0; pass < subdivisions; ++pass) {
    std::map<std::pair<int, int>, int> midpoints;
    const auto midpoint = [&](int a, int b) {
      const std::pair key{std::min(a, b), std::max(a, b)};
      if (const auto found = midpoints.find(key); found != midpoints.end()) return found->second;
      mesh.vertices.push_back((mesh.vertices[static_cast<size_t>(a)] + mesh.vertices[static_cast<size_t>(b)]).normalized());
      const int index = static_cast<int>(mesh.vertices.size()) - 1;
      midpoints.emplace(key, index);
      return index;
    };
    std::vector<std::array<int, 3>> finer;
    finer.reserve(mesh.triangles.size() * 4);
    for (const auto& [a, b, c] : mesh.triangles) {
      const int ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      finer.insert(finer.end(), {{a, ab, ca}, {b, bc, ab}, {c, ca, bc}, {ab, bc, ca}});
    }
    mesh.triangles = std::move(finer);
  }
  return mesh;
}

// A box: each face a grid of n × n squares. Vertices on shared edges are shared, so the mesh is closed.
TriangleMesh box(const Vector3& half, int n) {
  TriangleMesh mesh;
  std::map<std::array<int, 3>, int> index;  // grid coordinates (0 … n on each axis) -> vertex
  const auto vertex = [&](int i, int j, int k) {
    const std::array<int, 3> key{i, j, k};
    if (const auto found = index.find(key); found != index.end()) return found->second;
    mesh.vertices.emplace_back(half.x() * (2.0 * i / n - 1), half.y() * (2.0 * j / n - 1), half.z() * (2.0 * k / n - 1));
    const int created = static_cast<int>(mesh.vertices.size()) - 1;
    index.emplace(key, created);
    return created;
  };
  // Each face: the axis it is normal to, its side (0 or n), and two in-plane axes ordered so that u × v points out.
  for (int axis = 0; axis < 3; ++axis) {
    for (const int side : {0, n}) {
      int u = (axis + 1) % 3, v = (axis + 2) % 3;
      if (side == 0) std::swap(u, v);
      for (int a = 0; a < n; ++a) {
        for (int b = 0; b < n; ++b) {
          const auto at = [&](int du, int dv) {
            std::array<int, 3> p{};
            p[static_cast<size_t>(axis)] = side;
            p[static_cast<size_t>(u)] = a + du;
            p[static_cast<size_t>(v)] = b + dv;
            return vertex(p[0], p[1], p[2]);
          };
          const int p00 = at(0, 0), p10 = at(1, 0), p11 = at(1, 1), p01 = at(0, 1);
          mesh.triangles.push_back({p00, p10, p11});
          mesh.triangles.push_back({p00, p11, p01});
        }
      }
    }
  }
  return mesh;
}

// A frustum along z from `z0` (radius r0) to `z1` (radius r1); a zero radius is an apex.
TriangleMesh frustum(double r0, double r1, double z0, double z1, int level) {
  TriangleMesh mesh;
  const int sides = 16 << level;
  const double largest = std::max(r0, r1);
  const double sideWidth = 2 * std::numbers::pi * largest / sides;
  const int segments = std::clamp(static_cast<int>(std::lround((z1 - z0) / sideWidth)), 1, 4 * sides);
  // Rings from bottom to top; an apex ring is one vertex.
  std::vector<int> ringStart;
  std::vector<bool> ringIsApex;
  for (int s = 0; s <= segments; ++s) {
    const double f = static_cast<double>(s) / segments;
    const double r = r0 + (r1 - r0) * f, z = z0 + (z1 - z0) * f;
    ringStart.push_back(static_cast<int>(mesh.vertices.size()));
    ringIsApex.push_back(r == 0);
    if (r == 0) {
      mesh.vertices.emplace_back(0, 0, z);
      continue;
    }
    for (int k = 0; k < sides; ++k) {
      const double angle = 2 * std::numbers::pi * k / sides;
      mesh.vertices.emplace_back(r * std::cos(angle), r * std::sin(angle), z);
    }
  }
  const auto at = [&](int ring, int k) {
    return ringIsApex[static_cast<size_t>(ring)] ? ringStart[static_cast<size_t>(ring)]
                                                 : ringStart[static_cast<size_t>(ring)] + (k % sides);
  };
  for (int s = 0; s < segments; ++s) {
    for (int k = 0; k < sides; ++k) {
      const int a = at(s, k), b = at(s, k + 1), c = at(s + 1, k + 1), d = at(s + 1, k);
      if (!ringIsApex[static_cast<size_t>(s)]) mesh.triangles.push_back({a, b, c});
      if (!ringIsApex[static_cast<size_t>(s) + 1]) mesh.triangles.push_back({a, c, d});
    }
  }
  // End caps fanned from a centre vertex, wound to face out (−z at the bottom, +z at the top).
  const auto cap = [&](int ring, double z, bool top) {
    if (ringIsApex[static_cast<size_t>(ring)]) return;
    mesh.vertices.emplace_back(0, 0, z);
    const int centre = static_cast<int>(mesh.vertices.size()) - 1;
    for (int k = 0; k < sides; ++k) {
      if (top) mesh.triangles.push_back({centre, at(ring, k), at(ring, k + 1)});
      else mesh.triangles.push_back({centre, at(ring, k + 1), at(ring, k)});
    }
  };
  cap(0, z0, false);
  cap(segments, z1, true);
  return mesh;
}

}  // namespace

TriangleMesh tessellate(const Shape& shape, int level) {
  if (level < 0 || level > kMaxRefinementLevel) {
    throw std::invalid_argument("refinement level " + std::to_string(level) + " is outside 0 to " +
                                std::to_string(kMaxRefinementLevel));
  }
  switch (shape.type) {
    case ShapeType::Sphere:
    case ShapeType::Ellipsoid: {
      TriangleMesh mesh = unitSphere(2 + level);
      const Vector3 scale =
          shape.type == ShapeType::Sphere ? Vector3::Constant(shape.radius) : Vector3(shape.semiAxes);
      for (Vector3& v : mesh.vertices) v = v.cwiseProduct(scale);
      return mesh;
    }
    case ShapeType::Box: return box(shape.halfExtents, 2 << level);
    case ShapeType::Cylinder: return frustum(shape.radius, shape.radius, -shape.halfLength, shape.halfLength, level);
    case ShapeType::Frustum: return frustum(shape.bottomRadius, shape.topRadius, 0, shape.length, level);
    case ShapeType::Mesh: throw std::invalid_argument("a mesh is not tessellated again");
    case ShapeType::HollowSphere:
    case ShapeType::Curve:
    case ShapeType::GridSurface: break;
    case ShapeType::Point:
    case ShapeType::PointCloud:
    case ShapeType::Plane:
    case ShapeType::Disk:
      throw std::invalid_argument(std::string("a ") + shapeTypeName(shape.type) +
                                  " is always met exactly, never tessellated");
  }
  throw std::invalid_argument(std::string("a ") + shapeTypeName(shape.type) +
                              " is always met exactly, never tessellated");
}

double meshVolume(const TriangleMesh& mesh) {
  // Divergence theorem: the sum of signed tetrahedra from the origin to each triangle.
  double sixTimes = 0;
  for (const auto& [a, b, c] : mesh.triangles) {
    sixTimes += mesh.vertices[static_cast<size_t>(a)].dot(
        mesh.vertices[static_cast<size_t>(b)].cross(mesh.vertices[static_cast<size_t>(c)]));
  }
  return sixTimes / 6;
}

}  // namespace lodestone
