// The closed-form field of a uniformly magnetised triangle mesh (magnetics/polyhedron_field.h), against references
// that do not share its formulas: the cuboid's closed form, symmetry, point dipoles, Maxwell's equations.
#include "magnetics/polyhedron_field.h"

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "support/magnet_testing.h"

namespace lodestone {
namespace {

using namespace magnet_testing;

// A 1:2:3 box magnetised obliquely to its edges, so that all six faces carry charge.
const Cuboid kMeshBox{{0.01, 0.02, 0.03}, {1e5, 2e5, -3e5}};

// An irregular tetrahedron and octahedron (≈ 0.5 T and 1 T of polarisation, oblique to every face).
const Vector3 kTetrahedronCorners[] = {{0.01, -0.004, 0.002}, {-0.006, 0.012, -0.003}, {-0.005, -0.009, 0.001},
                                       {0.002, 0.001, 0.015}};
Polyhedron tetrahedron() {
  const auto& p = kTetrahedronCorners;
  return {{p[0], p[1], p[2], p[3]}, {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}}, {3e5, -1e5, 2.5e5}};
}
double tetrahedronVolume() {
  const auto& p = kTetrahedronCorners;
  Matrix3 edges;
  edges << p[1] - p[0], p[2] - p[0], p[3] - p[0];
  return std::fabs(edges.determinant()) / 6;
}
Vector3 tetrahedronCentroid() {
  const auto& p = kTetrahedronCorners;
  return (p[0] + p[1] + p[2] + p[3]) / 4;
}
const Vector3 kOctahedronAxes[] = {{0.012, 0.002, -0.001}, {-0.003, 0.009, 0.002}, {0.001, -0.002, 0.02}};
Polyhedron irregularOctahedron() {
  return octahedron(kOctahedronAxes[0], kOctahedronAxes[1], kOctahedronAxes[2], {-2e5, 5e5, 6e5});
}
double octahedronVolume() {
  Matrix3 axes;
  axes << kOctahedronAxes[0], kOctahedronAxes[1], kOctahedronAxes[2];
  return 4 * axes.determinant() / 3;
}

TEST(MagnetPolyhedronField, TheTestMeshesAreClosedAndOutwardOriented) {
  EXPECT_EQ(polyhedronMeshProblem(cuboidMesh(kMeshBox, 1)), "");
  EXPECT_EQ(polyhedronMeshProblem(cuboidMesh(kMeshBox, 5)), "");
  EXPECT_EQ(polyhedronMeshProblem(tetrahedron()), "");
  EXPECT_EQ(polyhedronMeshProblem(irregularOctahedron()), "");
  // The signed tetrahedra from the origin cancel one another: round-off ~1e-15 of the volume (measured 4.6e-15).
  EXPECT_NEAR(polyhedronVolume(cuboidMesh(kMeshBox, 5)), volume(kMeshBox), 1e-13 * volume(kMeshBox));
  EXPECT_NEAR(polyhedronVolume(irregularOctahedron()), octahedronVolume(), 1e-13 * octahedronVolume());
}

// Each kind of bad mesh gets a message that says what is wrong and where.
TEST(MagnetPolyhedronField, SaysWhatIsWrongWithABadMesh) {
  const Polyhedron good = tetrahedron();
  Polyhedron holed = good;
  holed.triangles.pop_back();
  EXPECT_NE(polyhedronMeshProblem(holed).find("only: the mesh is not closed"), std::string::npos);
  Polyhedron flipped = good;
  std::swap(flipped.triangles[1][1], flipped.triangles[1][2]);
  EXPECT_NE(polyhedronMeshProblem(flipped).find("not consistently oriented"), std::string::npos);
  Polyhedron inverted = good;
  for (auto& triangle : inverted.triangles) std::swap(triangle[1], triangle[2]);
  EXPECT_NE(polyhedronMeshProblem(inverted).find("clockwise seen from outside"), std::string::npos);
  Polyhedron outOfRange = good;
  outOfRange.triangles[2][0] = 4;
  EXPECT_EQ(polyhedronMeshProblem(outOfRange),
            "triangle 2 refers to vertex 4, but the mesh has 4 vertices (indices 0 to 3)");
  Polyhedron repeated = good;
  repeated.triangles[0][1] = repeated.triangles[0][0];
  EXPECT_NE(polyhedronMeshProblem(repeated).find("triangle 0 repeats a vertex"), std::string::npos);
  Polyhedron doubled = good;  // a second tetrahedron glued on along an edge: four triangles at that edge
  doubled.triangles.insert(doubled.triangles.end(), good.triangles.begin(), good.triangles.end());
  EXPECT_NE(polyhedronMeshProblem(doubled).find("belongs to 4 triangles"), std::string::npos);
  EXPECT_EQ(polyhedronMeshProblem(Polyhedron{}), "the mesh has no triangles");
}

// The box as 12 triangles (and as 2·5² per face) against cuboidField: two closed forms of one integral, one by
// rectangles, one by triangles with solid angles. Points inside, outside, 1e-3 of the size off faces, edges and
// corners, on the lines of edges and the planes of faces beside the box, at the centre of a face (exactly in its
// plane and on its triangles' shared diagonal: both give the mean of the two sides), and 10 sizes away. Measured
// agreement ≤ 8.7e-15 (relative; 7.7e-14 at 10 sizes, where both formulas' terms cancel to the dipole field and their
// round-off grows as (d/ℓ)²: 1e-9 at 1000 sizes): round-off of either formula. The tolerance 1e-12 is ten times the
// worst; a wrong sign, charge or edge term is off by O(1). Closer to a triangle's edge than these 1e-3 of the size,
// the solid angles lose digits (polyhedron_field.h): 1e-12 at 1e-5, 1e-8 at 1e-9.
TEST(MagnetPolyhedronField, OfACuboidsTrianglesIsTheCuboidsField) {
  const Vector3 h = kMeshBox.halfExtents;
  const double off = 1e-3 * 2 * h.maxCoeff();
  const Vector3 points[] = {Vector3::Zero(),
                            Vector3(0.003, -0.011, 0.02),
                            Vector3(0.2 * h.x(), -0.4 * h.y(), h.z() + off),
                            Vector3(0.2 * h.x(), -0.4 * h.y(), h.z() - off),
                            Vector3(h.x() + off, h.y() - off, 0.1 * h.z()),
                            Vector3(h.x() - off, -h.y() + off, -0.7 * h.z()),
                            h + Vector3(off, off, off),
                            h - Vector3(off, off, off),
                            Vector3(h.x(), h.y(), 2 * h.z()),
                            Vector3(-h.x(), 3 * h.y(), -h.z()),
                            Vector3(h.x(), 2 * h.y(), 0.3 * h.z()),
                            Vector3(-3 * h.x(), 0.5 * h.y(), h.z()),
                            Vector3(0, 0, h.z()),
                            Vector3(-h.x(), 0, 0),
                            Vector3(-1.5 * h.x(), -h.y(), -1.2 * h.z()),
                            10 * 2 * h.maxCoeff() * kSkewDirection};
  for (const int cuts : {1, 5}) {
    const PolyhedronField field(cuboidMesh(kMeshBox, cuts));
    for (const Vector3& point : points) {
      SCOPED_TRACE(::testing::Message() << cuts << " cuts, at " << point.transpose());
      EXPECT_LT(relativeError(field(point), cuboidField(kMeshBox, point)), 1e-12);
    }
  }
}

// A non-convex body: the L-shaped prism [0, 2s] × [0, s] ∪ [0, s] × [s, 2s] × [−c, c] (its caps fanned out from the
// re-entrant corner), whose field is that of the two boxes it is made of (their charges cancel on the face they share).
// Points around the re-entrant edge, in the notch, inside either arm, beside the caps. Measured ≤ 1.6e-15 (relative);
// the tolerance 1e-12, as above.
TEST(MagnetPolyhedronField, OfANonConvexPrismIsTheSumOfTheBoxesItIsMadeOf) {
  const double s = 0.01, c = 0.004;
  const Vector3 magnetisation(-3e5, 4e5, 7e5);
  const double outline[6][2] = {{0, 0}, {2 * s, 0}, {2 * s, s}, {s, s}, {s, 2 * s}, {0, 2 * s}};  // counter-clockwise
  Polyhedron prism{{}, {}, magnetisation};
  for (const double z : {-c, c}) {
    for (const auto& corner : outline) prism.vertices.emplace_back(corner[0], corner[1], z);
  }
  for (int k = 0; k < 6; ++k) {  // the sides: vertex k at the bottom, 6 + k at the top
    const int next = (k + 1) % 6;
    prism.triangles.push_back({k, next, 6 + next});
    prism.triangles.push_back({k, 6 + next, 6 + k});
  }
  for (const std::array<int, 3>& fan : {std::array<int, 3>{3, 4, 5}, {3, 5, 0}, {3, 0, 1}, {3, 1, 2}}) {
    prism.triangles.push_back({6 + fan[0], 6 + fan[1], 6 + fan[2]});  // the top, counter-clockwise seen from +z
    prism.triangles.push_back({fan[0], fan[2], fan[1]});
  }
  ASSERT_EQ(polyhedronMeshProblem(prism), "");
  const Cuboid wide{{s, s / 2, c}, magnetisation}, narrow{{s / 2, s / 2, c}, magnetisation};
  const Vector3 wideCentre(s, s / 2, 0), narrowCentre(s / 2, 1.5 * s, 0);
  const auto reference = [&](const Vector3& point) -> Vector3 {
    return cuboidField(wide, point - wideCentre) + cuboidField(narrow, point - narrowCentre);
  };
  const PolyhedronField field(prism);
  const Vector3 points[] = {Vector3(1.01 * s, 1.01 * s, 0.3 * c),  Vector3(0.99 * s, 0.99 * s, -0.5 * c),
                            Vector3(1.5 * s, 1.5 * s, 0.1 * c),    Vector3(1.5 * s, 0.5 * s, 0.2 * c),
                            Vector3(0.4 * s, 1.7 * s, -0.6 * c),   Vector3(0.7 * s, 0.3 * s, 1.2 * c),
                            Vector3(1.2 * s, 1.3 * s, c),          Vector3(-0.5 * s, 2.5 * s, -1.5 * c),
                            Vector3(2 * s, 2 * s, 0),              Vector3(3 * s, -s, 2 * c)};
  for (const Vector3& point : points) {
    SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
    EXPECT_LT(relativeError(field(point), reference(point)), 1e-12);
  }
}

// Where a face is cut into triangles, their shared edges and vertices are no singularity of the field: the line
// terms of the two sides cancel (and are dropped). On such an edge or vertex, in the face, the result is finite and
// the cuboid's (the mean of the two sides); a real edge or corner, between faces charged differently, is infinite.
TEST(MagnetPolyhedronField, IsFiniteOnTheCutsOfAFaceAndInfiniteOnItsRealEdges) {
  const Vector3 h = kMeshBox.halfExtents;
  const PolyhedronField field(cuboidMesh(kMeshBox, 5));
  // The grid of cuts at 2/5 of each half-extent: a vertex inside the x face, a point on a cut of the z face.
  for (const Vector3& point : {Vector3(h.x(), 0.2 * h.y(), -0.6 * h.z()), Vector3(0.3 * h.x(), -0.2 * h.y(), h.z())}) {
    SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
    const Vector3 value = field(point);
    ASSERT_TRUE(value.allFinite());
    EXPECT_LT(relativeError(value, cuboidField(kMeshBox, point)), 1e-12);
  }
  EXPECT_FALSE(field(Vector3(h.x(), h.y(), 0.4 * h.z())).allFinite());
  EXPECT_FALSE(field(Vector3(-h.x(), h.y(), -h.z())).allFinite());
}

// As for the cuboid: on the line of an edge beyond its ends, and in the plane of a face beside it, the closed form's
// terms are singular one by one (ln 0, a solid angle jumping by 2π) but the field is smooth. The regular octahedron
// with vertices ±x, ±y, ±z has such points exactly representable: (2, −1, 0) and (−1, 0, 2) on the lines of the edges
// from x to y and from x to z, (2, −0.5, −0.5) and (−1, 1.5, 0.5) in the plane x + y + z = 1 of a face, beside it.
// The value there must be finite and within 1e-6 of the values 1e-9 of the size away (magnet_testing.h); a lost or
// doubled singular term is off by O(1).
TEST(MagnetPolyhedronField, IsFiniteAndContinuousOnTheLinesOfEdgesAndThePlanesOfFaces) {
  const Polyhedron regular = octahedron(Vector3::UnitX(), Vector3::UnitY(), Vector3::UnitZ(), {2e5, -1e5, 9e5});
  const PolyhedronField field(regular);
  for (const Vector3& point : {Vector3(2, -1, 0), Vector3(-1, 0, 2), Vector3(2, -0.5, -0.5), Vector3(-1, 1.5, 0.5)}) {
    expectContinuousAt(field, point, 1e-9 * 2);
  }
}

// At the centre of a regular tetrahedron or octahedron the demagnetising tensor is I/3: its trace is 1 inside any
// body, and these symmetry groups leave only multiples of I. So H = −M/3 there, for faces in no axis's plane. Measured
// 5.7e-16 (tetrahedron) and 1.9e-16 (octahedron); a wrong sign or scale of the solid-angle term is off by O(1).
TEST(MagnetPolyhedronField, AtTheCentreOfARegularTetrahedronOrOctahedronIsMinusAThirdOfItsMagnetisation) {
  const Vector3 magnetisation(2e5, -1e5, 9e5);
  const Polyhedron regularTetrahedron{{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}},
                                      {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}},
                                      magnetisation};
  ASSERT_EQ(polyhedronMeshProblem(regularTetrahedron), "");
  EXPECT_LT(relativeError(polyhedronField(regularTetrahedron, Vector3::Zero()), -magnetisation / 3), 1e-14);
  const Polyhedron regularOctahedron = octahedron(Vector3::UnitX(), Vector3::UnitY(), Vector3::UnitZ(), magnetisation);
  EXPECT_LT(relativeError(polyhedronField(regularOctahedron, Vector3::Zero()), -magnetisation / 3), 1e-14);
}

// Far away a magnet is a dipole of moment M·V at its centroid (volumes and centroids computed here from the corners,
// not by the mesh code). About the centroid the body's charge has no dipole of its own beyond M·V, so the first
// correction is of relative order (ℓ/d)² and the error falls by 4 as the distance doubles (measured 3.88–3.97 for the
// tetrahedron, whose (ℓ/d)³ term is not zero, from 10 to 80 sizes; 4.00–4.02 for the centrosymmetric octahedron); at
// 100 sizes it is below 1e-3 (measured 9.9e-6 and 4.0e-5). ±5 % on the ratio: an error of another order fails.
TEST(MagnetPolyhedronField, FarAwayIsTheFieldOfItsDipoleWithTheExpectedNextOrder) {
  const Polyhedron tetra = tetrahedron(), octa = irregularOctahedron();
  const PolyhedronField tetraField(tetra), octaField(octa);
  const auto errorAt = [&](bool tetrahedral, double sizes) {
    const Vector3 centre = tetrahedral ? tetrahedronCentroid() : Vector3::Zero();
    const Vector3 moment = (tetrahedral ? tetrahedronVolume() : octahedronVolume()) *
                           (tetrahedral ? tetra.magnetisation : octa.magnetisation);
    const Vector3 point = centre + sizes * 0.02 * kSkewDirection;
    const Vector3 value = tetrahedral ? tetraField(point) : octaField(point);
    return relativeError(value, dipoleField(moment, point - centre));
  };
  for (const bool tetrahedral : {true, false}) {
    SCOPED_TRACE(tetrahedral ? "tetrahedron" : "octahedron");
    EXPECT_LT(errorAt(tetrahedral, 100), 1e-3);
    for (const double sizes : {10.0, 20.0, 40.0}) {
      EXPECT_NEAR(errorAt(tetrahedral, sizes) / errorAt(tetrahedral, 2 * sizes), 4, 0.2);
    }
  }
}

// Outside the magnet H is curl-free and divergence-free. Central differences with a step of 1e-5 of the size have a
// truncation error ~(step/distance to the nearest edge)² and a round-off ~1e-11 of |∇H|: measured curls and
// divergences ≤ 1.4e-8 at these points, 1e-3 to 2e-3 m from a face, edge or corner of magnets 0.02 m across. A wrong
// sign or a lost term gives a curl or divergence of order |∇H|. Points near faces, edges and corners, and away.
TEST(MagnetPolyhedronField, IsCurlFreeAndDivergenceFreeOutside) {
  const double size = 0.02, step = 1e-5 * size;
  const auto& p = kTetrahedronCorners;
  const Vector3 faceCentre = (p[0] + p[1] + p[3]) / 3;
  const Vector3 outward = (p[1] - p[0]).cross(p[3] - p[0]).normalized();
  const Vector3 tetrahedronPoints[] = {faceCentre + 1e-3 * outward, p[3] + Vector3(0.001, -0.002, 0.001),
                                       1.1 * p[0] - 0.1 * tetrahedronCentroid(), 0.5 * (p[1] + p[2]) + 0.002 * outward,
                                       3 * size * kSkewDirection};
  const PolyhedronField tetra(tetrahedron());
  for (const Vector3& point : tetrahedronPoints) {
    const auto [curl, divergence] = curlAndDivergence(fieldGradient(tetra, point, step));
    SCOPED_TRACE(::testing::Message() << "tetrahedron, at " << point.transpose());
    EXPECT_LT(curl, 1e-7);
    EXPECT_LT(divergence, 1e-7);
  }
  const PolyhedronField octa(irregularOctahedron());
  const Vector3& u = kOctahedronAxes[0];
  const Vector3& w = kOctahedronAxes[2];
  const Vector3 octahedronPoints[] = {1.2 * u, 0.5 * (u + w) + Vector3(0.001, 0.001, 0.002), -1.2 * w,
                                      3 * size * kSkewDirection};
  for (const Vector3& point : octahedronPoints) {
    const auto [curl, divergence] = curlAndDivergence(fieldGradient(octa, point, step));
    SCOPED_TRACE(::testing::Message() << "octahedron, at " << point.transpose());
    EXPECT_LT(curl, 1e-7);
    EXPECT_LT(divergence, 1e-7);
  }
}

// Across a charged face H·n jumps by σ = M·n while the tangential H is continuous, so B·n = μ0·(H + M)·n is continuous:
// the boundary conditions of magnetostatics, which no single triangle's term satisfies alone. At 1e-9 of the size to
// either side of a face's centroid the field's smooth part changes by ≤ 3.8e-9 of σ (measured; it halves with the
// distance, so it is not round-off). The tolerance 1e-7·|σ| is 25 times that; a lost 2π is off by |σ|.
TEST(MagnetPolyhedronField, KeepsTangentialHAndNormalBContinuousAcrossAFace) {
  const Polyhedron tetra = tetrahedron();
  const PolyhedronField field(tetra);
  for (const auto& triangle : tetra.triangles) {
    const Vector3 &a = tetra.vertices[triangle[0]], &b = tetra.vertices[triangle[1]], &c = tetra.vertices[triangle[2]];
    const Vector3 normal = (b - a).cross(c - a).normalized();
    const double charge = tetra.magnetisation.dot(normal);
    const Vector3 centroid = (a + b + c) / 3;
    const double nudge = 1e-9 * 0.02;
    const Vector3 outside = field(centroid + nudge * normal), inside = field(centroid - nudge * normal);
    const Vector3 jump = outside - inside;
    SCOPED_TRACE(::testing::Message() << "face with normal " << normal.transpose());
    EXPECT_LT((jump - jump.dot(normal) * normal).norm(), 1e-7 * std::fabs(charge));
    // B·n/μ0: H·n outside, (H + M)·n inside.
    EXPECT_NEAR(outside.dot(normal), (inside + tetra.magnetisation).dot(normal), 1e-7 * std::fabs(charge));
  }
}

}  // namespace
}  // namespace lodestone
