// Mesh contact at the collision level: the mesh's signed distance against the exact one of the shape it tessellates,
// and the patches of mesh pairs (depth, normal, place, area, share) against what the geometry says they must be.
#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include <gtest/gtest.h>

#include "collision/mesh_geometry.h"
#include "collision/narrow_phase.h"
#include "collision/tessellation.h"
#include "collision_test_support.h"
#include "mesh_test_support.h"

namespace lodestone {
namespace {

using testing::poseOf;

// The closed surface of a set of unit cells (integer corners), each exposed face two triangles wound outwards.
TriangleMesh voxelMesh(const std::vector<std::array<int, 3>>& cells) {
  TriangleMesh mesh;
  std::map<std::array<int, 3>, int> index;
  const auto node = [&](std::array<int, 3> corner) {
    const auto [found, added] = index.emplace(corner, static_cast<int>(mesh.vertices.size()));
    if (added) mesh.vertices.emplace_back(corner[0], corner[1], corner[2]);
    return found->second;
  };
  const auto filled = [&](std::array<int, 3> cell) {
    return std::find(cells.begin(), cells.end(), cell) != cells.end();
  };
  for (const auto& cell : cells) {
    for (int a = 0; a < 3; ++a) {
      const int b = (a + 1) % 3, c = (a + 2) % 3;
      for (int side : {0, 1}) {
        std::array<int, 3> neighbour = cell;
        neighbour[static_cast<size_t>(a)] += side ? 1 : -1;
        if (filled(neighbour)) continue;
        std::array<int, 4> quad{};
        const int offsets[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
        for (int k = 0; k < 4; ++k) {
          std::array<int, 3> corner = cell;
          corner[static_cast<size_t>(a)] += side;
          corner[static_cast<size_t>(b)] += offsets[k][0];
          corner[static_cast<size_t>(c)] += offsets[k][1];
          quad[static_cast<size_t>(k)] = node(corner);
        }
        if (side) {  // b × c = a: counter-clockwise seen from +a
          mesh.triangles.push_back({quad[0], quad[1], quad[2]});
          mesh.triangles.push_back({quad[0], quad[2], quad[3]});
        } else {
          mesh.triangles.push_back({quad[0], quad[2], quad[1]});
          mesh.triangles.push_back({quad[0], quad[3], quad[2]});
        }
      }
    }
  }
  return mesh;
}

// Mesh contact gives a point per sample; the points of one patch share its depth. Here they are summed back into
// patches: total share, depth, normal, area, and the share-weighted places on A and B.
struct Patch {
  double share = 0, depth = 0, area = 0;
  Vector3 normal = Vector3::Zero(), onA = Vector3::Zero(), onB = Vector3::Zero();
  int points = 0;
};
std::vector<Patch> patchesOf(const std::vector<ContactPoint>& points) {
  std::vector<Patch> patches;
  for (const ContactPoint& point : points) {
    auto found = std::find_if(patches.begin(), patches.end(), [&](const Patch& p) { return p.depth == point.depth; });
    if (found == patches.end()) {
      patches.push_back({0, point.depth, point.area, point.normal});
      found = patches.end() - 1;
    }
    EXPECT_EQ(found->area, point.area);
    EXPECT_EQ(found->normal, point.normal);
    EXPECT_NEAR((point.pointOnB - point.pointOnA - point.depth * point.normal).norm(), 0, 1e-12);
    found->share += point.share;
    found->onA += point.share * point.pointOnA;
    found->onB += point.share * point.pointOnB;
    ++found->points;
  }
  for (Patch& patch : patches) {
    patch.onA /= patch.share;
    patch.onB /= patch.share;
  }
  return patches;
}

Shape meshShape(const TriangleMesh& mesh) { return Shape::mesh(std::make_shared<MeshGeometry>(mesh)); }

Shape tessellated(Shape shape, int level) {
  shape.surface = std::make_shared<MeshGeometry>(tessellate(shape, level));
  return shape;
}

// A box's tessellation is its exact surface, so the mesh's signed distance must be the box's, inside and outside,
// near faces, edges and corners alike (the pseudo-normals decide the sign there).
TEST(CollisionMesh, SignedDistanceOfATessellatedBoxIsTheBoxs) {
  const Shape box = Shape::box(Vector3(0.5, 0.3, 0.2));
  const MeshGeometry mesh(tessellate(box, 1));
  std::mt19937 random(7);
  std::uniform_real_distribution<double> coordinate(-0.8, 0.8);
  int inside = 0;
  for (int k = 0; k < 2000; ++k) {
    const Vector3 point(coordinate(random), coordinate(random), coordinate(random));
    const SurfacePoint exact = nearestSurfacePoint(box, point);
    const SurfacePoint fromMesh = mesh.nearestSurfacePoint(point);
    ASSERT_NEAR(fromMesh.distance, exact.distance, 1e-12) << point.transpose();
    ASSERT_LT((fromMesh.nearest + fromMesh.distance * fromMesh.normal - point).norm(), 1e-12) << point.transpose();
    inside += exact.distance < 0;
  }
  EXPECT_GT(inside, 100) << "the test must try points inside too";
}

TEST(CollisionMesh, SignedDistanceOfATorusMeshHasTheRightSignInTheHole) {
  const MeshGeometry torus(testing::torus(48, 24));
  EXPECT_GT(torus.nearestSurfacePoint(Vector3::Zero()).distance, 0.69);        // the hole's centre: 1 − 0.3 away
  EXPECT_LT(torus.nearestSurfacePoint(Vector3(1, 0, 0)).distance, -0.29);      // inside the ring
  EXPECT_NEAR(torus.nearestSurfacePoint(Vector3(0, 2, 0)).distance, 0.7, 1e-9);  // beyond a vertex on the rim
}

// A mesh sphere on an exact box (the box is master under AUTO): one patch whose depth is the lowest sample's
// depth, its normal the box's face normal, its area that of the penetrating triangles.
TEST(CollisionMesh, MeshSphereOnExactBoxGivesOnePatch) {
  const Shape sphere = meshShape(tessellate(Shape::sphere(0.1), 2));
  const Shape box = Shape::box(Vector3(1, 1, 0.5));
  const Pose boxPose = poseOf(Vector3(0, 0, -0.5));
  for (bool nodes : {false, true}) {
    ContactOptions options;
    options.nodeMode = nodes;
    std::vector<ContactPoint> points;
    const double distance = collide(sphere, poseOf(Vector3(0, 0, 0.099)), box, boxPose, 0.01, points, options);
    const std::vector<Patch> patches = patchesOf(points);
    ASSERT_EQ(patches.size(), 1u) << "node mode " << nodes;
    EXPECT_GT(points.size(), 1u);
    const Patch& point = patches[0];
    // The deepest sample: its depth is the true 1 mm less the sampling's sag (centres lie inside the sphere).
    double lowest = INFINITY;
    const MeshGeometry& mesh = *sphere.surface;
    if (nodes) {
      for (const Vector3& v : mesh.mesh().vertices) lowest = std::min(lowest, v.z());
    } else {
      for (int t = 0; t < mesh.triangleCount(); ++t) lowest = std::min(lowest, mesh.centre(t).z());
    }
    EXPECT_NEAR(point.depth, -(0.099 + lowest), 1e-12);
    EXPECT_NEAR(distance, -point.depth, 1e-15);
    EXPECT_LT((point.normal - Vector3::UnitZ()).norm(), 1e-12);
    EXPECT_NEAR(point.onA.x(), 0, 1e-3);
    EXPECT_NEAR(point.onB.z(), 0, 1e-12) << "the points on B are on the box's face";
    EXPECT_GT(point.area, 0);
    EXPECT_NEAR(point.share, 1, 1e-12);
  }
}

// Apart, the gap is the nearest sample's while it is small (it locates onset), and stays positive beyond.
TEST(CollisionMesh, GapIsTheNearestSamplesNearContact) {
  const Shape cube = meshShape(testing::scaledAndMoved(testing::unitCube(), 0.1, Vector3(-0.05, -0.05, -0.05)));
  const Shape box = Shape::box(Vector3(1, 1, 0.5));
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cube, poseOf(Vector3(0, 0, 0.0502)), box, poseOf(Vector3(0, 0, -0.5)), 0.1, points), 2e-4, 1e-12);
  EXPECT_TRUE(points.empty());
  EXPECT_GT(collide(cube, poseOf(Vector3(0, 0, 0.08)), box, poseOf(Vector3(0, 0, -0.5)), 0.1, points), 0);
  EXPECT_TRUE(points.empty());
}

// The same apart against a box's tessellation (a convex master with few faces: the samples outside it are
// measured only when none is inside) and, touching, the depth of the deepest sample.
TEST(CollisionMesh, GapAgainstAConvexMeshMasterIsTheNearestSamples) {
  const Shape cube = meshShape(testing::scaledAndMoved(testing::unitCube(), 0.1, Vector3(-0.05, -0.05, -0.05)));
  const Shape box = tessellated(Shape::box(Vector3(1, 1, 0.5)), 0);
  ASSERT_TRUE(box.surface->convexWithFewFaces());
  ContactOptions options;
  options.analytical = false;
  options.master = MasterSurface::J;
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cube, poseOf(Vector3(0, 0, 0.0502)), box, poseOf(Vector3(0, 0, -0.5)), 0.1, points, options),
              2e-4, 1e-12);
  EXPECT_TRUE(points.empty());
  // Tilted, so that one side's triangle centres go in and the others stay out.
  const double tilt = 0.02;
  EXPECT_NEAR(collide(cube, poseOf(Vector3(0, 0, 0.049), tilt, Vector3::UnitY()), box, poseOf(Vector3(0, 0, -0.5)),
                      0.1, points, options),
              -(0.05 * std::cos(tilt) + (0.05 / 3) * std::sin(tilt) - 0.049), 1e-12);
  EXPECT_FALSE(points.empty());
}

// A convex mesh with few face planes is measured inside from its planes; a sphere's 320 faces are too many for
// that, and a non-convex mesh is measured through its tree, where the nearest plane would be wrong.
TEST(CollisionMesh, OnlyConvexMeshesWithFewFacesAreMeasuredFromTheirPlanes) {
  const Shape box = Shape::box(Vector3(0.5, 0.3, 0.2));
  const MeshGeometry boxMesh(tessellate(box, 2));
  ASSERT_TRUE(boxMesh.convexWithFewFaces());
  const Vector3 inside(0.1, -0.2, 0.05);
  const std::optional<SurfacePoint> fromPlanes = boxMesh.insideConvex(inside);
  ASSERT_TRUE(fromPlanes.has_value());
  EXPECT_NEAR(fromPlanes->distance, nearestSurfacePoint(box, inside).distance, 1e-15);
  EXPECT_FALSE(boxMesh.insideConvex(Vector3(0.1, -0.2, 0.25)).has_value()) << "outside";

  EXPECT_FALSE(MeshGeometry(tessellate(Shape::sphere(1), 0)).convexWithFewFaces());

  // An L of three unit cubes: the point is 0.1 from both faces of the re-entrant edge (1, y, 1), so √0.02 from
  // the edge itself; the nearest plane, x = 1, would say 0.1.
  const MeshGeometry bracket(voxelMesh({{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}));
  EXPECT_FALSE(bracket.convexWithFewFaces());
  EXPECT_FALSE(bracket.insideConvex(Vector3(0.9, 0.5, 0.9)).has_value());
  EXPECT_NEAR(bracket.nearestSurfacePoint(Vector3(0.9, 0.5, 0.9)).distance, -std::sqrt(0.02), 1e-12);
}

// A non-convex mesh (an arch on two legs) on a box touches in two places: two patches, one per leg, each carrying
// its own depth; the deeper leg's patch is deeper.
TEST(CollisionMesh, SeparateTouchingRegionsAreSeparatePatches) {
  const Shape arch = meshShape(voxelMesh({{0, 0, 1}, {1, 0, 1}, {2, 0, 1}, {0, 0, 0}, {2, 0, 0}}));
  const Shape box = Shape::box(Vector3(10, 10, 0.5));
  // Tilted a little about y, so the legs sink by different amounts.
  const Pose pose = poseOf(Vector3(0, 0, -0.01), 0.002, Vector3::UnitY());
  std::vector<ContactPoint> found;
  collide(arch, pose, box, poseOf(Vector3(0, 0, -0.5)), 0.01, found);
  std::vector<Patch> patches = patchesOf(found);
  ASSERT_EQ(patches.size(), 2u);
  std::sort(patches.begin(), patches.end(), [](const auto& a, const auto& b) { return a.onA.x() < b.onA.x(); });
  EXPECT_NEAR(patches[0].onA.x(), 0.5, 0.05);
  EXPECT_NEAR(patches[1].onA.x(), 2.5, 0.05);
  EXPECT_GT(patches[1].depth, patches[0].depth) << "turning about +y lowers +x";
  for (const Patch& patch : patches) {
    EXPECT_NEAR(patch.area, 1.0, 1e-9) << "a leg's foot, 1 × 1";
    EXPECT_NEAR(patch.share, 1, 1e-12) << "each patch carries its law's force once";
  }
}

// The contact of a mesh `bar` (voxelMesh's unit cubes along x, its underside reshaped), sampled at its nodes, lowered
// by `pressed` onto a plate whose top is z = 0.
std::vector<ContactPoint> barPressedIntoPlate(const TriangleMesh& bar, double pressed) {
  ContactOptions options;
  options.nodeMode = true;
  std::vector<ContactPoint> points;
  collide(meshShape(bar), poseOf(Vector3(0, 0, -pressed)), Shape::box(Vector3(10, 10, 0.5)),
          poseOf(Vector3(0, 0, -0.5)), 0.01, points, options);
  return points;
}

// Two touching regions that a sample just touching joins are still two contacts: a bar whose bottom is raised by 0.1
// between its ends, pressed on a box by its nodes. Below 0.1 its ends are two patches; as the middle nodes touch, a
// single patch (its law once, at the ends' depth) would halve a Hertzian force at once — the sphere of objects'
// glass contact jumped so, 269 N against 422 N. The force stays continuous through that depth, and once the middle is
// pressed to half the ends' depth the bar is one patch, as a flat face is.
TEST(CollisionMesh, RegionsJoinedBySamplesJustTouchingStayTwoContacts) {
  TriangleMesh bar = voxelMesh({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}});
  const double raise = 0.1;
  for (Vector3& vertex : bar.vertices) {
    if (vertex.z() == 0 && (vertex.x() == 1 || vertex.x() == 2)) vertex.z() = raise;
  }
  const auto pressedBy = [&](double depth) { return barPressedIntoPlate(bar, depth); };
  // The law's force in units of its stiffness, and how many times the law acts (each patch's shares sum to 1).
  const auto hertz = [](const std::vector<ContactPoint>& points) {
    double force = 0;
    for (const ContactPoint& point : points) force += point.share * std::pow(point.depth, 1.5);
    return force;
  };
  const auto laws = [](const std::vector<ContactPoint>& points) {
    double shares = 0;
    for (const ContactPoint& point : points) shares += point.share;
    return shares;
  };
  const double before = hertz(pressedBy(raise - 1e-12)), after = hertz(pressedBy(raise + 1e-12));
  EXPECT_NEAR(laws(pressedBy(raise - 1e-12)), 2, 1e-12) << "the two ends";
  EXPECT_NEAR(before, 2 * std::pow(raise - 1e-12, 1.5), 1e-12 * before) << "each end its law's force";
  EXPECT_NEAR(after, before, 1e-6 * before);
  EXPECT_NEAR(laws(pressedBy(3 * raise)), 1, 1e-12) << "one patch, its law's force once";
}

// A node beginning to touch on the shallow side of a patch whose depths fall away towards it (a bar whose underside
// curves up, pressed into a plate at its node mode): the patch's fitted tilt puts the plane 0.03 below the plate where
// that node touches, so what the fit leaves of its depth is 0.03 more than the patch's. As the deepest, it made the
// law's depth jump by that as the node touched (an object of the sphere of objects, pulled onto the glass by a strong
// magnet, stalled the integrator on such a jump, 129 → 211 µm, the force doubling). A node that touches with nothing
// now joins in part, from nothing: the force is continuous there.
TEST(CollisionMesh, ANodeBeginningToTouchDoesNotMoveThePatchsDepth) {
  TriangleMesh bar = voxelMesh({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}});
  const double lift[] = {0, 0.05, 0.1, 0.12};  // of the underside's nodes at x = 0, 1, 2, 3
  for (Vector3& vertex : bar.vertices) {
    if (vertex.z() == 0) vertex.z() = lift[static_cast<int>(std::lround(vertex.x()))];
  }
  const auto lawDepthAt = [&](double pressed) {
    double shares = 0, depth = 0;
    for (const ContactPoint& point : barPressedIntoPlate(bar, pressed)) {
      shares += point.share;
      depth = point.depth;
    }
    EXPECT_NEAR(shares, 1, 1e-12) << "one patch at " << pressed;
    return depth;
  };
  const double touching = lift[3];
  const double before = lawDepthAt(touching - 1e-12), after = lawDepthAt(touching + 1e-12);
  // Before, the three pressed nodes' depths 0.12, 0.07, 0.02 lie on a line: the law acts at their mean by measure
  // (area × depth), between the two.
  EXPECT_GT(before, 0.07);
  EXPECT_LT(before, 0.12);
  EXPECT_NEAR(after, before, 1e-9) << "the law's depth jumped as the node touched";
}

// master_surface: J samples A (I) against B, I the other way, I_AND_J both, each point carrying half the force.
TEST(CollisionMesh, MasterSurfaceChoosesTheSampledSide) {
  const Shape cube = meshShape(testing::scaledAndMoved(testing::unitCube(), 0.1, Vector3(-0.05, -0.05, -0.05)));
  const Shape plate = tessellated(Shape::box(Vector3(1, 1, 0.5)), 0);
  const Pose cubePose = poseOf(Vector3(0.3, 0.2, 0.049)), platePose = poseOf(Vector3(0, 0, -0.5));
  const auto run = [&](MasterSurface master) {
    ContactOptions options;
    options.master = master;
    std::vector<ContactPoint> points;
    collide(cube, cubePose, plate, platePose, 0.01, points, options);
    return patchesOf(points);
  };
  const std::vector<Patch> sampledCube = run(MasterSurface::J);
  ASSERT_EQ(sampledCube.size(), 1u);
  EXPECT_NEAR(sampledCube[0].depth, 1e-3, 1e-12);
  EXPECT_NEAR(sampledCube[0].area, 0.01, 1e-12) << "the cube's bottom face";
  EXPECT_NEAR(sampledCube[0].onA.z(), -1e-3, 1e-12) << "the cube's bottom";
  EXPECT_NEAR(sampledCube[0].onA.x(), 0.3, 1e-12) << "under the cube's centre";
  EXPECT_NEAR(sampledCube[0].share, 1, 1e-12);
  const std::vector<Patch> sampledPlate = run(MasterSurface::I);
  // The plate's triangles are large: their centres are far from the cube, so none of them is inside it.
  EXPECT_TRUE(sampledPlate.empty());
  const std::vector<Patch> both = run(MasterSurface::IAndJ);
  ASSERT_EQ(both.size(), 1u);
  EXPECT_NEAR(both[0].share, 0.5, 1e-12) << "each side's patches carry half";
  // AUTO samples the finer mesh, the cube.
  const std::vector<Patch> automatic = run(MasterSurface::Auto);
  ASSERT_EQ(automatic.size(), 1u);
  EXPECT_NEAR(automatic[0].area, 0.01, 1e-12);
}

TEST(CollisionMesh, SamplesDeeperThanTheLimitAreLeftOut) {
  const Shape cube = meshShape(testing::scaledAndMoved(testing::unitCube(), 0.1, Vector3(-0.05, -0.05, -0.05)));
  const Shape box = Shape::box(Vector3(1, 1, 0.5));
  ContactOptions options;
  options.ignoreDeeperThan = 0.02;
  std::vector<ContactPoint> points;
  collide(cube, poseOf(Vector3(0, 0, 0.04)), box, poseOf(Vector3(0, 0, -0.5)), 0.01, points, options);
  ASSERT_EQ(patchesOf(points).size(), 1u) << "1 cm deep: kept";
  points.clear();
  // Centre on the face: the bottom's centres (5 cm deep) are left out; the lower triangle of each side, its centre
  // 5/3 cm deep, remains.
  collide(cube, poseOf(Vector3::Zero()), box, poseOf(Vector3(0, 0, -0.5)), 0.01, points, options);
  ASSERT_FALSE(points.empty());
  for (const ContactPoint& point : points) EXPECT_NEAR(point.depth, 0.05 / 3, 1e-12);
}

// enable_analytical="FALSE" sends even a sphere–box pair through meshes: the depth is then the tessellation's.
TEST(CollisionMesh, AnalyticalOffUsesTheTessellations) {
  const Shape sphere = tessellated(Shape::sphere(0.1), 1);
  const Shape box = tessellated(Shape::box(Vector3(1, 1, 0.5)), 0);
  ContactOptions options;
  options.analytical = false;
  std::vector<ContactPoint> exact, meshed;
  collide(sphere, poseOf(Vector3(0, 0, 0.099)), box, poseOf(Vector3(0, 0, -0.5)), 0.01, exact);
  collide(sphere, poseOf(Vector3(0, 0, 0.099)), box, poseOf(Vector3(0, 0, -0.5)), 0.01, meshed, options);
  ASSERT_EQ(exact.size(), 1u);
  ASSERT_EQ(patchesOf(meshed).size(), 1u);
  EXPECT_NEAR(exact[0].depth, 1e-3, 1e-15);
  EXPECT_LT(meshed[0].depth, exact[0].depth) << "triangle centres lie inside the sphere";
  EXPECT_GT(meshed[0].depth, 0);
}

}  // namespace
}  // namespace lodestone
