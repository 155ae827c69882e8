// Tessellated primitives: every mesh is closed and consistently wound outwards (each directed edge once, its
// reverse once), its vertices lie on the true surface, and its volume tends to the primitive's as the refinement
// level rises (the error falls at least threefold per level).
#include <cmath>
#include <map>
#include <numbers>
#include <utility>

#include <gtest/gtest.h>

#include "collision/tessellation.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {


// Every directed edge appears once and its reverse once: closed, two triangles per edge, consistent winding.
::testing::AssertionResult closedAndConsistent(const TriangleMesh& mesh) {
  std::map<std::pair<int, int>, int> directed;
  for (const auto& [a, b, c] : mesh.triangles) {
    if (a == b || b == c || c == a) return ::testing::AssertionFailure() << "a triangle repeats a corner";
    ++directed[{a, b}];
    ++directed[{b, c}];
    ++directed[{c, a}];
  }
  for (const auto& [edge, count] : directed) {
    if (count != 1) return ::testing::AssertionFailure() << "edge " << edge.first << "-" << edge.second << " used " << count << " times one way";
    if (!directed.count({edge.second, edge.first})) {
      return ::testing::AssertionFailure() << "edge " << edge.first << "-" << edge.second << " has no neighbour";
    }
  }
  return ::testing::AssertionSuccess();
}

struct Case {
  const char* name;
  Shape shape;
  double volume;
  double (*surfaceError)(const Shape&, const Vector3&);  // 0 on the surface
};

double onSphere(const Shape& s, const Vector3& v) { return std::fabs(v.norm() - s.radius); }
double onEllipsoid(const Shape& s, const Vector3& v) { return std::fabs(v.cwiseQuotient(s.semiAxes).norm() - 1); }
double onBox(const Shape& s, const Vector3& v) {
  const Vector3 outside = (v.cwiseAbs() - s.halfExtents);
  return std::fabs(outside.maxCoeff());  // on the surface: the largest coordinate is at its half extent
}
double onCylinder(const Shape& s, const Vector3& v) {
  const double radial = std::hypot(v.x(), v.y());
  const bool onCap = std::fabs(std::fabs(v.z()) - s.halfLength) < 1e-12;
  return onCap ? std::max(0.0, radial - s.radius) : std::fabs(radial - s.radius);
}
double onFrustum(const Shape& s, const Vector3& v) {
  const double radial = std::hypot(v.x(), v.y());
  const double radius = s.bottomRadius + (s.topRadius - s.bottomRadius) * v.z() / s.length;
  const bool onCap = std::fabs(v.z()) < 1e-12 || std::fabs(v.z() - s.length) < 1e-12;
  return onCap ? std::max(0.0, radial - radius) : std::fabs(radial - radius);
}

TEST(CollisionTessellation, PrimitivesBecomeClosedOutwardMeshesOnTheirSurfaces) {
  const Case cases[] = {
      {"sphere", Shape::sphere(0.3), 4.0 / 3 * kPi * 0.027, onSphere},
      {"ellipsoid", Shape::ellipsoid(Vector3(0.1, 0.2, 0.4)), 4.0 / 3 * kPi * 0.1 * 0.2 * 0.4, onEllipsoid},
      {"box", Shape::box(Vector3(0.1, 0.2, 0.3)), 8 * 0.1 * 0.2 * 0.3, onBox},
      {"cylinder", Shape::cylinder(0.05, 0.1), kPi * 0.0025 * 0.2, onCylinder},
      {"frustum", Shape::frustum(0.2, 0.1, 0.3), kPi * 0.3 / 3 * (0.04 + 0.02 + 0.01), onFrustum},
      {"cone", Shape::frustum(0.2, 0, 0.3), kPi * 0.3 / 3 * 0.04, onFrustum},
  };
  for (const Case& c : cases) {
    double previousError = 0;
    for (int level = 0; level <= 2; ++level) {
      SCOPED_TRACE(std::string(c.name) + " level " + std::to_string(level));
      const TriangleMesh mesh = tessellate(c.shape, level);
      EXPECT_TRUE(closedAndConsistent(mesh));
      double worst = 0;
      for (const Vector3& v : mesh.vertices) worst = std::max(worst, c.surfaceError(c.shape, v));
      EXPECT_LT(worst, 1e-12);
      const double volume = meshVolume(mesh);
      EXPECT_GT(volume, 0) << "normals point outwards";
      const double error = std::fabs(volume / c.volume - 1);
      if (c.shape.type == ShapeType::Box) {
        EXPECT_LT(error, 1e-12) << "a box is exact";
      } else {
        EXPECT_LT(error, 0.05);
        if (level > 0) {
          EXPECT_LT(error, previousError / 3);
        }
      }
      previousError = error;
    }
  }
}

TEST(CollisionTessellation, SizesFollowTheDocumentedRule) {
  EXPECT_EQ(tessellate(Shape::sphere(1), 0).triangles.size(), 320u);
  EXPECT_EQ(tessellate(Shape::sphere(1), 1).triangles.size(), 1280u);
  EXPECT_EQ(tessellate(Shape::box(Vector3(1, 1, 1)), 0).triangles.size(), 48u);
  EXPECT_EQ(tessellate(Shape::box(Vector3(1, 1, 1)), 1).triangles.size(), 192u);
  // A cylinder as long as its circumference: 16 sides, about 16 rings of sides, two caps of 16.
  const TriangleMesh cylinder = tessellate(Shape::cylinder(1, kPi), 0);
  EXPECT_EQ(cylinder.triangles.size(), 16u * 2 * 16 + 2 * 16);
  EXPECT_THROW(tessellate(Shape::sphere(1), kMaxRefinementLevel + 1), std::invalid_argument);
  EXPECT_THROW(tessellate(Shape::sphere(1), -1), std::invalid_argument);
}

}  // namespace
}  // namespace lodestone
