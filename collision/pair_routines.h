// The pair routines behind the narrow phase's dispatch table (internal to collision/). Each takes the pair in
// the order its name gives, follows collide()'s conventions (normal from B to A, pointOnB = pointOnA +
// depth·normal, returns the signed distance) and only appends to `points`.
#pragma once

#include <vector>

#include "contact_point.h"
#include "narrow_phase.h"
#include "shape.h"

namespace lodestone::detail {

using PairRoutine = double (*)(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                               std::vector<ContactPoint>& points);

double sphereSphere(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double sphereBox(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
// A ball inside a spherical cavity (B a HollowSphere).
double sphereHollowSphere(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double sphereCylinder(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
// A ball on a grid surface (B): the nearest point of the smooth surface to its centre.
double sphereGridSurface(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double sphereFrustum(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double boxBox(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double cylinderBox(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
// GJK/EPA through FCL, for any pair of convex shapes: fclPair loads liblodestone_fcl on its first call
// (fcl_routines.h) and calls fclConvexPair there.
double fclPair(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double fclConvexPair(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);

// Mesh contact: the samples of one or both shapes (by options.master) against the other's surface, gathered into
// patches. Either shape may be a primitive; it is used exactly as master, and through its tessellation otherwise.
double meshContact(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                   const ContactOptions& options, std::vector<ContactPoint>& points);

// Simscape's geometries (pairs_simscape.cpp). A point (A) or each point of a cloud (A, each its own contact with its
// index in ContactPoint::cloudPoint) against any shape with an inside: a primitive, a mesh, a cavity or the plane.
double pointShape(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double cloudShape(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
// A solid (A) on an infinite plane (B).
double spherePlane(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double boxPlane(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double cylinderPlane(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double frustumPlane(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double ellipsoidPlane(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double diskPlane(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
// A ball (A) on a flat disk (B); a flat disk (A) on a box (B), as a cylinder of no length.
double sphereDisk(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
double diskBox(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);
// A mesh (A) on an infinite plane (B): the mesh's samples below the plane, the plane always the exact master.
double meshPlane(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                 const ContactOptions& options, std::vector<ContactPoint>& points);
// A pair Simscape does not support and Lodestone does not build (refused when the deck is checked): never touches.
double refusedPair(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&);

// Area of the cap a plane cuts from a sphere of `radius` at penetration `depth`, projected on the plane:
// π(2Rδ − δ²), capped at the great circle once δ passes the radius.
double sphereCapArea(double radius, double depth);

}  // namespace lodestone::detail
