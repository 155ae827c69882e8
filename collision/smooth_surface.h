// The smooth surface a mesh stands for. Where neighbouring triangles meet at less than a crease angle, the mesh is
// taken as a faceted picture of a smooth body (a tessellated cylinder, a sphere from an STL file); edges at the
// crease angle or more stay sharp, so a box stays a box. Contact then sees, on each smooth triangle, the surface
// its corners and their normals describe — its deepest point and the pressure over it — rather than the flat
// facet, whose depth jumps as facets pass under a rolling body. Built once per mesh, with the mesh's geometry.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "triangle_mesh.h"

namespace lodestone {

// The crease angle of a Post_Graphic without crease_angle, in degrees: a regular prism of 11 or more sides is smooth
// (a level-0 tessellation has 16), one of 10 or fewer keeps its edges, as do boxes, wedges and hexagon heads.
constexpr double kDefaultCreaseAngleDegrees = 35;

// How a smooth triangle's surface is described: by the sphere (or cylinder) that osculates it. Its corners v_i with
// their normals n_i give the curvature κ₁ ≥ κ₂ ≥ 0 (principal directions `curved` and `flat`, in the triangle's
// plane); the centres c_i = v_i − n_i/κ₁ lie on one point of a tessellated sphere and on the axis of a tessellated
// cylinder, so the surface c(λ) + n(λ)/κ₁ over barycentric λ is the sphere or cylinder itself, whatever the facet.
struct SmoothTriangle {
  Vector3 centre;            // the centres' mean: c(λ) at the triangle's centre
  double curvature = 0;      // κ₁ > 0
  double flatness = 0;       // κ₂/κ₁: 0 for a cylinder (set when below 0.01), 1 for a sphere
  Vector3 normal;            // of the flat facet, outward
  Vector3 curved, flat;      // unit, in the facet's plane: the principal directions of κ₁ and κ₂
  // How far the normal turns from the facet's, towards ±curved and ±flat (indices 0–3), before the surface meets a
  // crease (or kApexReach, where it does not): the deepest point estimated from this triangle is trusted only
  // where its normal is within this reach (beyond it lies another surface, or the far side).
  std::array<double, 4> reach{};
  std::array<double, 4> tangentOfReach{};
  std::array<double, 2> spread{};  // the angles the corner normals span about each direction: a facet's own width
  double sag = 0;            // the largest distance between the surface and the flat facet (bounded above)
};

// The deepest point, the farthest the normal of an estimate may turn from its facet's (radians).
constexpr double kApexReach = 1.0471975511965976;  // 60°

class SmoothSurface {
 public:
  SmoothSurface() = default;
  // `faceNormals` per triangle; `twins[t][k]` the triangle across edge k (corner k to k+1) of triangle t. A crease
  // angle of 0 keeps every edge sharp: no triangle is smooth.
  SmoothSurface(const TriangleMesh& mesh, std::span<const Vector3> faceNormals,
                std::span<const std::array<int, 3>> twins, double creaseAngleRadians);

  // Null where the triangle is flat (its corner normals are its own normal: a face of a box, a cylinder's cap).
  const SmoothTriangle* triangle(int t) const {
    const int index = indexOf_.empty() ? -1 : indexOf_[static_cast<size_t>(t)];
    return index < 0 ? nullptr : &triangles_[static_cast<size_t>(index)];
  }
  bool empty() const { return triangles_.empty(); }
  // The largest sag: how far outside its facets the smooth surface may reach.
  double largestSag() const { return largestSag_; }

 private:
  std::vector<int> indexOf_;  // per triangle: into triangles_, −1 where flat
  std::vector<SmoothTriangle> triangles_;
  double largestSag_ = 0;
};

// Where the surface a smooth triangle stands for is deepest against a master whose outward normal about it is
// `masterNormal` (the triangle's mesh frame): a point of its osculating sphere, or of its cylinder's deepest line, and
// how far that is trusted — 1 where its normal is within the triangle's reach, fading to 0 over the facet's own
// width beyond.
struct DeepestPoint {
  Vector3 position = Vector3::Zero();
  double trust = 0;
};
DeepestPoint deepestPoint(const SmoothTriangle& triangle, const Vector3& masterNormal);

// The pressure of the contact of that surface with the master, `depth` deep at `deepest` (> 0), over the triangle's
// part of the footprint on the master's plane: a Winkler layer, pressure ∝ local depth. A cylinder's is exact, so the
// parts of its facets add up to a pressure even along its length however the facets lie.
struct SurfacePressure {
  double weight = 0;                 // ∫ pressure (in units of depth) over the triangle's part of the footprint
  double area = 0;                   // of that part where the pressure is positive
  Vector3 centre = Vector3::Zero();  // the pressure's centre along the deepest line; a sphere's is its deepest point
  double depthAtCentre = 0;
};
SurfacePressure pressureOf(const SmoothTriangle& triangle, const std::array<Vector3, 3>& corners,
                           const Vector3& masterNormal, const Vector3& deepest, double depth);

}  // namespace lodestone
