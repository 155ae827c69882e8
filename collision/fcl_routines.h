// What Lodestone asks of FCL, behind one door: FCL (with octomap and libccd) is the heaviest library a short command
// maps, 6–7 ms of relocation on this VM against 14–20 ms for all of `lodestone check` (tests/benchmark/
// startup_benchmark.cpp), and only meshes and the pairs without an analytical routine need it. So its users are
// built into a module of their own, liblodestone_fcl (fcl_module.cpp, solver/core/modules.h), loaded when a process
// first builds a mesh or meets such a pair; a deck of spheres and boxes never maps FCL.
#pragma once

#include <vector>

#include "pair_routines.h"
#include "triangle_mesh.h"

namespace lodestone {

// A node of FCL's tree of axis-aligned boxes over a mesh's triangles (one triangle per leaf), as the mesh walks test
// it: its box as centre and half-widths.
struct MeshTreeNode {
  Vector3 centre, half;
  int child;  // the first child (the second follows it), or at a leaf −1 − its triangle
};

struct FclRoutines {
  // GJK/EPA for any two convex shapes (detail::PairRoutine's conventions).
  detail::PairRoutine convexPair;
  // FCL's bounding-box tree over `mesh`, as an array: node 0 is the root.
  std::vector<MeshTreeNode> (*boundingBoxTree)(const TriangleMesh& mesh);
};

// The routines of liblodestone_fcl, loaded on first use; throws std::runtime_error naming the module if it cannot be.
const FclRoutines& fclRoutines();

}  // namespace lodestone
