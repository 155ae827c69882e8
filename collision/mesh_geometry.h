// A closed triangle mesh prepared for contact: what each triangle and node contributes (centre, normal, area), the
// pseudo-normals that tell inside from outside, and FCL's bounding-volume hierarchy, which finds both the triangles
// near another shape and the nearest point on the surface. Built once per graphic and shared.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "point_queries.h"
#include "smooth_surface.h"
#include "triangle_mesh.h"

namespace lodestone {

class MeshGeometry {
 public:
  // `mesh` must pass checkContactMesh; coincident nodes are welded here. Edges where the triangles meet at
  // `creaseAngle` (radians) or more are sharp; the mesh is smooth across the others (see SmoothSurface): 0 keeps
  // every edge sharp.
  explicit MeshGeometry(const TriangleMesh& mesh, double creaseAngle = 0);
  ~MeshGeometry();
  MeshGeometry(const MeshGeometry&) = delete;
  MeshGeometry& operator=(const MeshGeometry&) = delete;

  const TriangleMesh& mesh() const { return mesh_; }
  int triangleCount() const { return static_cast<int>(mesh_.triangles.size()); }
  int vertexCount() const { return static_cast<int>(mesh_.vertices.size()); }

  const Vector3& centre(int triangle) const { return centres_[static_cast<size_t>(triangle)]; }
  std::array<Vector3, 3> corners(int triangle) const;
  const Vector3& normal(int triangle) const { return normals_[static_cast<size_t>(triangle)]; }
  double area(int triangle) const { return areas_[static_cast<size_t>(triangle)]; }
  // A node's share of the surface: a third of the area of each triangle it is a corner of.
  double vertexArea(int vertex) const { return vertexAreas_[static_cast<size_t>(vertex)]; }
  double totalArea() const { return totalArea_; }
  // The smooth surface where triangle `triangle` stands for one; null where it is flat or its edges are sharp.
  const SmoothTriangle* smoothTriangle(int triangle) const { return smooth_.triangle(triangle); }
  const SmoothSurface& smoothSurface() const { return smooth_; }
  // Nodes joined to `vertex` by an edge.
  std::span<const int> neighbours(int vertex) const;

  // The box around the mesh in its own frame.
  const Aabb& bounds() const { return bounds_; }
  double boundingRadius() const { return boundingRadius_; }

  // The triangles that may lie within the box `region` (in the frame of `regionPose`, given in the mesh's frame),
  // found through FCL's bounding-volume hierarchy; appended to `triangles` in increasing order. Every triangle that
  // meets the region is among them; a few more may be.
  void trianglesNear(const Aabb& region, const Pose& regionPose, std::vector<int>& triangles) const;

  // The signed distance from `point` (mesh frame) to the surface, negative inside, with the nearest surface point
  // and the outward direction there: the direction from the nearest point to an outside point (and away from an
  // inside one), so that pushing along it leads out the shortest way; the angle-weighted pseudo-normal of the
  // nearest feature decides the sign (Bærentzen and Aanæs 2005), which is exact for a closed surface.
  // `hint`, when given, is a triangle to try first (the answer for a point nearby), and is set to the nearest one.
  SurfacePoint nearestSurfacePoint(const Vector3& point, int* hint = nullptr) const;

  // A convex mesh with at most kMaxFacePlanes distinct face planes (a box, a wedge, a prism: most floors and walls)
  // keeps its planes: a point inside is then measured against them alone, without the tree.
  static constexpr int kMaxFacePlanes = 64;
  bool convexWithFewFaces() const { return !facePlanes_.empty(); }
  // When convexWithFewFaces() and `point` is inside or on the surface: nearestSurfacePoint(point), found from the
  // face planes. Otherwise nothing (then a point outside a convexWithFewFaces() mesh).
  std::optional<SurfacePoint> insideConvex(const Vector3& point) const;
  // When convexWithFewFaces(): the face plane `point` is highest above (inside: least deep below), with that height
  // as the distance — nearestSurfacePoint(point) inside, and outside a lower bound of the distance that is the
  // distance itself above the middle of a face.
  SurfacePoint nearestFacePlane(const Vector3& point) const;

 private:
  struct Hierarchy;
  void findFacePlanes();

  TriangleMesh mesh_;
  std::vector<Vector3> centres_, normals_;
  std::vector<double> areas_, vertexAreas_;
  double totalArea_ = 0;
  std::vector<Vector3> vertexNormals_;                 // angle-weighted pseudo-normals
  std::vector<std::array<Vector3, 3>> edgeNormals_;    // per triangle, edge k from corner k to k+1: sum of the faces
  std::vector<int> neighbourStart_, neighbourList_;
  Aabb bounds_;
  double boundingRadius_ = 0;
  struct FacePlane {
    Vector3 normal;  // outward, unit
    double offset;   // normal · x on the plane
  };
  std::vector<FacePlane> facePlanes_;  // empty unless convexWithFewFaces()
  SmoothSurface smooth_;
  std::unique_ptr<Hierarchy> hierarchy_;
};

}  // namespace lodestone
