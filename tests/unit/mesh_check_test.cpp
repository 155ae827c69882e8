// Mesh validation: a closed, outward cube and torus pass at any size and place; each problem on a small mesh made
// by hand gives exactly its message, naming the first offending triangle or edge and the count; drawn meshes
// stay lenient.
#include <gtest/gtest.h>

#include "mesh_test_support.h"

namespace lodestone::testing {
namespace {

std::vector<std::string> messagesOf(const std::vector<MeshProblem>& problems) {
  std::vector<std::string> messages;
  for (const MeshProblem& problem : problems) messages.push_back(problem.message);
  return messages;
}

std::vector<MeshProblemKind> kindsOf(const std::vector<MeshProblem>& problems) {
  std::vector<MeshProblemKind> kinds;
  for (const MeshProblem& problem : problems) kinds.push_back(problem.kind);
  return kinds;
}

bool allErrors(const std::vector<MeshProblem>& problems) {
  for (const MeshProblem& problem : problems) {
    if (!problem.isError) return false;
  }
  return true;
}

TriangleMesh reversed(TriangleMesh mesh) {
  for (auto& triangle : mesh.triangles) std::swap(triangle[1], triangle[2]);
  return mesh;
}

const std::string kFreeEdgeAdvice = "; contact needs a closed surface, each edge shared by exactly two triangles";
const std::string kOverSharedAdvice =
    "; a closed surface has exactly two triangles on each edge: make solids that touch separate graphics, or remove "
    "the extra triangles";

TEST(MeshCheck, ClosedCubePassesAtAnySizeAndPlace) {
  for (const Placement& placement : kPlacements) {
    const TriangleMesh cube = scaledAndMoved(unitCube(), placement.scale, placement.offset);
    EXPECT_EQ(messagesOf(checkContactMesh(cube)), std::vector<std::string>{}) << "scale " << placement.scale;
    EXPECT_EQ(messagesOf(checkTriangleMesh(cube)), std::vector<std::string>{}) << "scale " << placement.scale;
  }
}

TEST(MeshCheck, FlippedCubeFacesInwards) {
  EXPECT_EQ(messagesOf(checkContactMesh(reversed(unitCube()))),
            std::vector<std::string>{"the triangles face inwards: taken in the order given, their corners enclose a "
                                     "volume of -1; contact needs each triangle's corners counter-clockwise seen from "
                                     "outside, so reverse the corner order of every triangle"});
  for (const Placement& placement : kPlacements) {
    const auto problems = checkContactMesh(scaledAndMoved(reversed(unitCube()), placement.scale, placement.offset));
    EXPECT_EQ(kindsOf(problems), std::vector{MeshProblemKind::InwardNormals}) << "scale " << placement.scale;
    EXPECT_TRUE(allErrors(problems));
  }
  // A drawn mesh may face either way.
  EXPECT_TRUE(checkTriangleMesh(reversed(unitCube())).empty());
}

TEST(MeshCheck, OpenBoxHasFreeEdges) {
  TriangleMesh box = unitCube();
  box.triangles.erase(box.triangles.begin() + 2, box.triangles.begin() + 4);  // the lid, z = 1
  // Triangle 3 is (0 5 4), on the face y = 0, whose edge 4–5 the lid shared.
  EXPECT_EQ(messagesOf(checkContactMesh(box)),
            std::vector<std::string>{"the surface is not closed: 4 edge(s) belong to one triangle only (the first is "
                                     "the edge between nodes 4 and 5 of triangle 3)" + kFreeEdgeAdvice});
  for (const Placement& placement : kPlacements) {
    const auto problems = checkContactMesh(scaledAndMoved(box, placement.scale, placement.offset));
    EXPECT_EQ(kindsOf(problems), std::vector{MeshProblemKind::FreeEdges}) << "scale " << placement.scale;
  }
}

// MotionSolve decks carry open road surfaces as TriaMesh graphics: fine to draw, not a contact solid. The
// collinear nodes along the border are corners of their edges, not T-junctions.
TEST(MeshCheck, OpenGridIsFineToDrawButNotForContact) {
  TriangleMesh grid;
  const int cells = 4;
  for (int j = 0; j <= cells; ++j) {
    for (int i = 0; i <= cells; ++i) grid.vertices.emplace_back(i, j, 0);
  }
  const auto node = [&](int i, int j) { return i + (cells + 1) * j; };
  for (int j = 0; j < cells; ++j) {
    for (int i = 0; i < cells; ++i) {
      grid.triangles.push_back({node(i, j), node(i + 1, j), node(i + 1, j + 1)});
      grid.triangles.push_back({node(i, j), node(i + 1, j + 1), node(i, j + 1)});
    }
  }
  EXPECT_TRUE(checkTriangleMesh(grid).empty());
  EXPECT_EQ(messagesOf(checkContactMesh(grid)),
            std::vector<std::string>{"the surface is not closed: 16 edge(s) belong to one triangle only (the first is "
                                     "the edge between nodes 0 and 1 of triangle 0)" + kFreeEdgeAdvice});
}

TEST(MeshCheck, ThreeTrianglesOnOneEdgeAreNonManifold) {
  TriangleMesh fan;
  fan.vertices = {Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, -1, 0), Vector3(0, 0, 1)};
  fan.triangles = {{0, 1, 2}, {1, 0, 3}, {0, 1, 4}};
  const auto problems = checkContactMesh(fan);
  EXPECT_EQ(messagesOf(problems),
            (std::vector<std::string>{
                "the surface is not closed: 6 edge(s) belong to one triangle only (the first is the edge between nodes "
                "1 and 2 of triangle 0)" + kFreeEdgeAdvice,
                "1 T-connection(s), edges shared by more than two triangles (the first is the edge between nodes 0 and "
                "1, shared by triangles 0, 1 and 2)" + kOverSharedAdvice}));
  EXPECT_TRUE(allErrors(problems));
}

// Each tetrahedron is closed and outward; together they share edge 0–1, which four triangles then use.
TEST(MeshCheck, TwoTetrahedraSharingAnEdgeAreNonManifold) {
  TriangleMesh pair;
  pair.vertices = {Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0),
                   Vector3(0, 0, 1), Vector3(0, -1, 0), Vector3(0, 0, -1)};
  // The second is the first turned half a revolution about x: nodes 2 and 3 become 4 and 5.
  pair.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}, {0, 4, 1}, {0, 1, 5}, {0, 5, 4}, {1, 4, 5}};
  for (const Placement& placement : kPlacements) {
    EXPECT_EQ(messagesOf(checkContactMesh(scaledAndMoved(pair, placement.scale, placement.offset))),
              std::vector<std::string>{"1 T-connection(s), edges shared by more than two triangles (the first is the edge "
                                       "between nodes 0 and 1, shared by triangles 0, 1, 4 and 5)" +
                                       kOverSharedAdvice})
        << "scale " << placement.scale;
  }
}

TEST(MeshCheck, OneTriangleWoundAgainstItsNeighbours) {
  TriangleMesh cube = unitCube();
  std::swap(cube.triangles[1][1], cube.triangles[1][2]);  // (0 3 1) becomes (0 1 3)
  // Triangle 0 (0 2 3) runs 3→0, as the turned triangle 1 now does; its other two edges are wrong as well.
  EXPECT_EQ(messagesOf(checkContactMesh(cube)),
            std::vector<std::string>{"3 edge(s) are run in the same direction by both their triangles (the first: "
                                     "triangles 0 and 1 both run from node 3 to node 0); neighbouring triangles must "
                                     "run a shared edge in opposite directions, so reverse the corner order of the "
                                     "triangles wound against the rest"});
  for (const Placement& placement : kPlacements) {
    const auto problems = checkContactMesh(scaledAndMoved(cube, placement.scale, placement.offset));
    EXPECT_EQ(kindsOf(problems), std::vector{MeshProblemKind::InconsistentWinding}) << "scale " << placement.scale;
  }
}

// The lid of the cube is split at node 8, the middle of its edge 4–5, but the side y = 0 still runs along the
// whole edge: the classic T-junction.
TEST(MeshCheck, NodeInsideAnEdgeIsATJunction) {
  TriangleMesh cube = unitCube();
  cube.vertices.emplace_back(0.5, 0, 1);
  cube.triangles[2] = {4, 8, 6};
  cube.triangles[3] = {8, 5, 7};
  cube.triangles.push_back({8, 7, 6});
  for (const Placement& placement : kPlacements) {
    EXPECT_EQ(messagesOf(checkContactMesh(scaledAndMoved(cube, placement.scale, placement.offset))),
              (std::vector<std::string>{
                  "the surface is not closed: 3 edge(s) belong to one triangle only (the first is the edge between "
                  "nodes 4 and 8 of triangle 2)" + kFreeEdgeAdvice,
                  "1 T-junction(s), where a node lies inside another triangle's edge (the first is node 8, inside the "
                  "edge between nodes 4 and 5 of triangle 5); neighbouring triangles must share whole edges: split "
                  "triangle 5 at node 8"}))
        << "scale " << placement.scale;
  }
}

TEST(MeshCheck, ZeroAreaIsAWarningToDrawAndAnErrorForContact) {
  TriangleMesh mesh;
  mesh.vertices = {Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(2, 0, 0)};
  mesh.triangles = {{0, 1, 2}, {0, 1, 3}};
  const std::string zeroArea =
      "1 triangle(s) have zero area (the first is triangle 1); they cannot carry contact: remove them, or move their "
      "corners apart";
  const auto drawn = checkTriangleMesh(mesh);
  EXPECT_EQ(messagesOf(drawn), std::vector<std::string>{zeroArea});
  EXPECT_FALSE(drawn.at(0).isError);
  // Left out of the edge checks, the flat triangle leaves the other one open.
  const auto contact = checkContactMesh(mesh);
  EXPECT_EQ(messagesOf(contact),
            (std::vector<std::string>{zeroArea, "the surface is not closed: 3 edge(s) belong to one triangle only (the "
                                                "first is the edge between nodes 0 and 1 of triangle 0)" +
                                                    kFreeEdgeAdvice}));
  EXPECT_TRUE(allErrors(contact));

  // A repeated corner is zero area as well, and so is a corner within the welding tolerance of another.
  TriangleMesh cube = unitCube();
  cube.triangles.push_back({3, 3, 5});
  cube.vertices.push_back(Vector3(1, 1, 1e-12));
  cube.triangles.push_back({3, 8, 5});
  EXPECT_EQ(messagesOf(checkContactMesh(cube)),
            std::vector<std::string>{"2 triangle(s) have zero area (the first is triangle 12); they cannot carry "
                                     "contact: remove them, or move their corners apart"});
}

TEST(MeshCheck, CornersOutOfRangeStopTheTopologyChecks) {
  TriangleMesh cube = unitCube();
  cube.triangles[4] = {0, 1, 8};
  cube.triangles[7] = {2, 9, -1};
  const std::string message = "triangle 4 uses node 8, but nodes are numbered 0 to 7 (3 corner(s) out of range in all)";
  EXPECT_EQ(messagesOf(checkTriangleMesh(cube)), std::vector<std::string>{message});
  EXPECT_EQ(messagesOf(checkContactMesh(cube)), std::vector<std::string>{message});
  EXPECT_TRUE(allErrors(checkTriangleMesh(cube)));
}

TEST(MeshCheck, SheetCoveredFromBothSidesEnclosesNoVolume) {
  TriangleMesh sheet;
  sheet.vertices = {Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0)};
  sheet.triangles = {{0, 1, 2}, {0, 2, 1}};
  EXPECT_EQ(messagesOf(checkContactMesh(sheet)),
            std::vector<std::string>{"the surface is closed but encloses no volume (a sheet covered from both sides?); "
                                     "contact needs the surface of a solid"});
}

// STL and many exporters give every triangle its own copies of its corners: welded, such a cube is closed.
TEST(MeshCheck, DuplicatedVerticesAreWelded) {
  for (const Placement& placement : kPlacements) {
    const TriangleMesh cube = scaledAndMoved(unitCube(), placement.scale, placement.offset);
    TriangleMesh soup;
    for (const auto& triangle : cube.triangles) {
      const int first = static_cast<int>(soup.vertices.size());
      for (int corner : triangle) {
        // Rounding as an exporter's would leave it: far below the welding tolerance.
        const double rounding = 1e-12 * placement.scale * static_cast<double>(soup.vertices.size() % 3);
        soup.vertices.push_back(cube.vertices[corner] + rounding * Vector3(1, -1, 1));
      }
      soup.triangles.push_back({first, first + 1, first + 2});
    }
    EXPECT_EQ(messagesOf(checkContactMesh(soup)), std::vector<std::string>{}) << "scale " << placement.scale;
    const TriangleMesh welded = weldCoincidentVertices(soup);
    EXPECT_EQ(welded.vertices.size(), 8u);
    ASSERT_EQ(welded.triangles.size(), 12u);
    // Nodes numbered in order of first use: the first triangle's corners are nodes 0, 1 and 2.
    EXPECT_EQ(welded.triangles[0], (std::array<int, 3>{0, 1, 2}));
    EXPECT_EQ(messagesOf(checkContactMesh(welded)), std::vector<std::string>{});
  }
  // Nodes a millionth of the size apart are different nodes: the cube is then open along their edges.
  TriangleMesh cube = unitCube();
  cube.vertices.push_back(cube.vertices[7] + Vector3(1e-6, 0, 0));
  cube.triangles[11] = {1, 8, 5};
  EXPECT_EQ(kindsOf(checkContactMesh(cube)), std::vector{MeshProblemKind::FreeEdges});
}

// Ten thousand triangles, to show the checks are linear; no time is asserted.
TEST(MeshCheck, LargeTorusPasses) {
  const TriangleMesh ring = torus(100, 50);
  ASSERT_EQ(ring.triangles.size(), 10000u);
  EXPECT_EQ(messagesOf(checkContactMesh(ring)), std::vector<std::string>{});
  EXPECT_EQ(kindsOf(checkContactMesh(reversed(ring))), std::vector{MeshProblemKind::InwardNormals});
  TriangleMesh holed = ring;
  holed.triangles.erase(holed.triangles.begin() + 5000);
  EXPECT_EQ(kindsOf(checkContactMesh(holed)), std::vector{MeshProblemKind::FreeEdges});
}

}  // namespace
}  // namespace lodestone::testing
