// Thinnest extents: the primitives' closed forms, and a mesh's thinnest part traced inward from its surface — a
// plate's thickness, an L bracket's wall, a torus's tube — against the sizes the meshes were made with.
#include <gtest/gtest.h>

#include "collision/mesh_files.h"
#include "collision/mesh_geometry.h"
#include "collision/shape_thickness.h"
#include "collision/tessellation.h"
#include "mesh_test_support.h"

namespace lodestone {
namespace {

TEST(ShapeThickness, PrimitivesByTheirSmallestExtent) {
  EXPECT_DOUBLE_EQ(thinnestExtent(Shape::sphere(0.3)), 0.6);
  EXPECT_DOUBLE_EQ(thinnestExtent(Shape::box(Vector3(1, 0.02, 3))), 0.04);
  EXPECT_DOUBLE_EQ(thinnestExtent(Shape::cylinder(0.5, 2)), 1.0);  // a rod: its diameter
  EXPECT_DOUBLE_EQ(thinnestExtent(Shape::cylinder(2, 0.01)), 0.02);  // a disc: its length
  EXPECT_DOUBLE_EQ(thinnestExtent(Shape::frustum(1, 0, 3)), 1.0);  // a cone: its diameter at mid-height
  EXPECT_DOUBLE_EQ(thinnestExtent(Shape::frustum(1, 0.5, 0.2)), 0.2);
  EXPECT_DOUBLE_EQ(thinnestExtent(Shape::ellipsoid(Vector3(1, 0.25, 2))), 0.5);
}

double meshThicknessOf(const TriangleMesh& mesh) { return thinnestExtent(Shape::mesh(std::make_shared<MeshGeometry>(mesh))); }

TEST(ShapeThickness, APlateMeshIsAsThinAsThePlate) {
  // A 4 × 4 × 0.01 m plate tessellated with 2 × 2 squares a face: rays from every face reach the far face.
  EXPECT_NEAR(meshThicknessOf(tessellate(Shape::box(Vector3(2, 2, 0.005)), 0)), 0.01, 1e-5);
  // The same plate turned about an axis that leaves none special: the mesh's box is no longer thin, its wall is.
  TriangleMesh turned = tessellate(Shape::box(Vector3(2, 2, 0.005)), 0);
  const Matrix3 rotation = Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()).toRotationMatrix();
  for (Vector3& vertex : turned.vertices) vertex = rotation * vertex;
  EXPECT_NEAR(meshThicknessOf(turned), 0.01, 1e-5);
}

TEST(ShapeThickness, AnLBracketIsAsThinAsItsWall) {
  // models/meshes/bracket_l80.obj: foot and leg 80 mm, 20 mm thick, 40 mm wide (make_meshes.py).
  const TriangleMesh bracket = readMeshFile(LODESTONE_SOURCE_DIR "/models/meshes/bracket_l80.obj");
  EXPECT_NEAR(meshThicknessOf(bracket), 0.02, 2e-5);
}

TEST(ShapeThickness, ATorusIsAsThinAsItsTube) {
  // Minor radius 0.3: the tube is 0.6 across. Flat facets lie inside it by up to 0.3·(1 − cos(π/32)) = 1.4e-3
  // across the tube plus 1.3·(1 − cos(π/64)) = 1.6e-3 around it (at the outer equator), on either side.
  const double thickness = meshThicknessOf(testing::torus(64, 32, 1.0, 0.3));
  EXPECT_LT(thickness, 0.6);
  EXPECT_GT(thickness, 0.6 - 2 * (1.4e-3 + 1.6e-3));
}

}  // namespace
}  // namespace lodestone
