// The H field of a uniformly magnetised closed polyhedron given as a triangle mesh, in closed form: the field of the
// magnetic surface charge σ = M·n on its triangles, each integrated exactly (solid angle plus edge logarithms).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "magnetics/cuboid_field.h"

namespace lodestone {

// A uniformly magnetised polyhedron in its own axes. Each triangle lists three indices into `vertices`,
// counter-clockwise seen from outside, so that (b − a) × (c − a) points out of the body; the mesh must be closed and
// consistently oriented (polyhedronMeshProblem says whether it is). The polyhedron's reference point, about which
// torques are taken (polyhedron_force.h), is the origin of its axes.
struct Polyhedron {
  std::vector<Vector3> vertices;              // m
  std::vector<std::array<int, 3>> triangles;  // indices into vertices, outward normals
  Vector3 magnetisation = Vector3::Zero();    // M, A/m, in the polyhedron's axes
};

// What is wrong with the mesh as the surface of a magnet, in words for a deck's diagnostic, or "" when nothing is: an
// index out of range, a triangle repeating a vertex, an edge not shared by exactly two triangles (a hole or a
// non-manifold edge), an edge traversed twice the same way (inconsistent orientation), a volume that is not positive
// (the triangles clockwise seen from outside). Self-intersection is not checked. Zero-area triangles are allowed:
// they carry no charge.
std::string polyhedronMeshProblem(const Polyhedron& polyhedron);

// The volume enclosed by a closed, consistently oriented mesh (m³): the sum of the signed tetrahedra from the origin.
double polyhedronVolume(const Polyhedron& polyhedron);

// The field prepared once, for evaluations at many points: per charged triangle its corners and area normal times σ,
// per edge with a non-zero line coefficient its direction, length and that coefficient, the edges of adjacent
// triangles merged (see polyhedron_field.cpp). Measured cost per evaluation (Release, thread CPU time on a loaded
// 2-core VM): 15–30 ns per charged triangle — 0.22 µs for an octahedron (8 triangles, 12 edges), 0.29 µs for a box as
// 12 triangles, 3.0 µs as 192 and 11 µs as 768 (the cuts of its faces cost no edge term), where cuboidField takes
// 0.4–0.5 µs.
//
// H (A/m) at `point` (m, in the polyhedron's axes). Valid anywhere off the surface: outside B = μ0·H, inside H is the
// demagnetising field and B = μ0·(H + M). As for the cuboid (cuboid_field.h), points in the plane of a face or on the
// line of an edge but off the surface give the field's finite limit; on an edge between faces of different charge
// density or direction, and at such a corner, the field diverges logarithmically and the result is infinite. Edges
// and vertices inside a flat face (where a tessellation cut it into triangles) are no singularity: their line terms
// cancel and are dropped, so the field is finite there. On a face, where H·n jumps by σ, a point exactly in the
// face's plane gets the mean of the two sides (the cuboid's convention); a point a rounding error off it gets one
// side. Within δ of a triangle's edge (a cut of a face included) the solid angles of the triangles beside it change by
// 2π over δ, and their sum keeps ≈ 1e-16·size/δ relative (measured against cuboidField: 1e-14 at δ = 1e-3 of the
// size, 1e-12 at 1e-5, 1e-8 at 1e-9). Far away the terms cancel down to the dipole field of moment M·V, as the
// cuboid's do: relative round-off ≈ 1e-16·(distance/size)² (measured 5e-10 and 1e-9 at 1000 sizes for a box as 12
// and as 300 triangles).
class PolyhedronField {
 public:
  explicit PolyhedronField(const Polyhedron& polyhedron);
  Vector3 operator()(const Vector3& point) const;

 private:
  // A triangle with σ ≠ 0: its corners (indices into vertices_), (b − a) × (c − a) (twice its area along its outward
  // normal n) and σ·n.
  struct ChargedTriangle {
    std::array<int, 3> corners;
    Vector3 areaNormal, chargedNormal;
  };
  // An edge from vertex `start` to vertex `end` along `direction` (unit) for `length`, and its line coefficient
  // Σ σ_f·m_f over its triangles f, m_f the unit normal in f's plane pointing out of f across the edge.
  struct ChargedEdge {
    int start = 0, end = 0;
    Vector3 direction;
    double length = 0;
    Vector3 coefficient;
  };
  std::vector<Vector3> vertices_;  // only those of charged triangles and edges
  std::vector<ChargedTriangle> triangles_;
  std::vector<ChargedEdge> edges_;
};

// Whether `point` is inside the closed, outward-wound mesh: its winding number there — the triangles' solid angles
// seen from the point (van Oosterom & Strackee, signed by the winding) over 4π, 1 inside and 0 outside — above ½.
// A point on the surface may go either way.
bool insidePolyhedron(const Polyhedron& polyhedron, const Vector3& point);

// H at one point; for many points, build a PolyhedronField once.
Vector3 polyhedronField(const Polyhedron& polyhedron, const Vector3& point);

}  // namespace lodestone
