// Triangle meshes as geometry: the mesh a TriaMesh graphic (inline or from a mesh file) describes, and the checks
// that make it usable — lenient ones for a mesh a viewer only draws, strict ones for a mesh that is contact geometry.
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

enum class MeshProblemKind {
  CornerOutOfRange,     // a triangle corner that is not a node
  ZeroArea,             // a triangle without a normal (repeated or collinear corners)
  FreeEdges,            // an edge of one triangle only: the surface is not closed
  NonManifoldEdges,     // an edge of more than two triangles (a T-connection)
  TJunctions,           // a node inside another triangle's edge, so neighbours do not share whole edges
  InconsistentWinding,  // two triangles run their shared edge in the same direction
  InwardNormals,        // closed and consistent, but every triangle faces inwards
  NoVolume,             // closed and consistent, but enclosing nothing (a sheet covered from both sides)
};

// One kind of problem: its message names the first offending triangle or edge (0-based, as the deck numbers
// them) and how many there are in all.
struct MeshProblem {
  MeshProblemKind kind = MeshProblemKind::CornerOutOfRange;
  bool isError = false;
  std::string message;
};

// For a mesh a viewer draws (every TriaMesh graphic, open road surfaces included): corner indices outside the
// vertex list are errors; triangles with zero area are warnings, since a viewer draws them.
std::vector<MeshProblem> checkTriangleMesh(const TriangleMesh& mesh);

// For a mesh that is contact geometry, every problem is an error: corners out of range, zero-area triangles,
// free edges, edges of more than two triangles, T-junctions, inconsistent winding, inward normals and no
// enclosed volume. Contact needs a closed, consistently wound, outward-facing surface, since the inside of the
// solid decides which way a penetrating point is pushed. Coincident nodes are welded first (see below), but
// messages name nodes as the mesh numbers them. Linear in the mesh size: edges are found through a hash map.
std::vector<MeshProblem> checkContactMesh(const TriangleMesh& mesh);

// For each vertex, the lowest index of a vertex within `coincidenceTolerance` of it (itself when there is
// none). STL and many exporters repeat a node for every triangle that uses it; welding such nodes gives the
// edges neighbours share.
std::vector<int> coincidentVertices(const std::vector<Vector3>& vertices);
// 1e-9 of the bounding box's diagonal: far below any modelled feature, far above rounding in the coordinates.
double coincidenceTolerance(const std::vector<Vector3>& vertices);
// The same mesh with each group of coincident vertices merged into its lowest-indexed one; vertices keep their
// order, triangles their order and corner order. Every corner must be a node (checkTriangleMesh says so).
TriangleMesh weldCoincidentVertices(const TriangleMesh& mesh);

}  // namespace lodestone
