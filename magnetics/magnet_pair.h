// Force and torque between two rigid, uniformly magnetised bodies — spheres, cuboids, cylinders, frusta, closed
// triangle meshes and ellipsoids — placed in one frame, by the method their distance and the accuracy asked for allow:
// the surface-charge model's exact interaction near (cuboid_force.h, cylinder_force.h, frustum_force.h,
// ellipsoid_force.h), the point dipoles far, or sampling by dipoles as Westhofen et al. (2024) and PFC's linear dipole
// model do when the magnet asks for it.
#pragma once

#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "magnetics/cuboid_field.h"
#include "magnetics/cylinder_field.h"
#include "magnetics/ellipsoid_field.h"
#include "magnetics/frustum_field.h"
#include "magnetics/polyhedron_field.h"
#include "magnetics/surface_charge_force.h"

namespace lodestone {

struct MagnetShape {
  // An ellipsoid's field is Osborn's closed form (ellipsoid_field.h), its charge σ = M·n varying over its surface.
  // Soft, one sample at its centre is exact. A frustum's centre is its centroid, where a point dipole stands for it
  // best (frustumMagnetShape).
  enum class Kind { kSphere, kCuboid, kCylinder, kPolyhedron, kEllipsoid, kFrustum };
  Kind kind = Kind::kSphere;
  double radius = 0;                      // a sphere's or a cylinder's, m
  double halfLength = 0;                  // a cylinder's, along its z axis, m
  Vector3 halfExtents = Vector3::Zero();  // a cuboid's, or an ellipsoid's semi-axes, m
  // A closed triangle mesh's (its magnetisation unused: the magnet's is), centred where its axes' origin is.
  std::shared_ptr<const Polyhedron> polyhedron;
  // A frustum's: `radius` is its bottom's, at z = bottomZ; topRadius at z = topZ, the z about its centroid, m.
  double topRadius = 0, bottomZ = 0, topZ = 0;
};

// A frustum `height` high from `bottomRadius` to `topRadius` (one may be 0: a cone), its axes' origin at its centroid,
// (R0² + 2·R0·R1 + 3·R1²)/(4·(R0² + R0·R1 + R1²)) of the height above the bottom.
MagnetShape frustumMagnetShape(double bottomRadius, double topRadius, double height);
// The frustum shape with the magnetisation M, for its field and its faces (frustum_field.h, frustum_force.h).
Frustum frustumOf(const MagnetShape& shape, const Vector3& magnetisation);

double volume(const MagnetShape& shape);
double boundingRadius(const MagnetShape& shape);  // about the shape's centre

struct Magnet {
  MagnetShape shape;
  Vector3 magnetisation = Vector3::Zero();  // M, A/m, in the magnet's axes (a cylinder's axis is its z)
  // 0: exact; n > 0: sampled by point dipoles at the centres of an n×n×n grid of cells over the magnet's bounding
  // box, those inside it, sharing its moment M·V equally (the paper's way, for comparison with it). A pair with one
  // sampled magnet takes the other exactly in the samples' field. A polyhedron's grid is over the box about its axes'
  // origin that holds its vertices, its cells' centres inside it by their winding number (insidePolyhedron).
  int dipolesPerAxis = 0;
};

// A magnet's samples: position in its axes (m) and moment (A·m²).
struct DipoleSample {
  Vector3 position = Vector3::Zero();
  Vector3 moment = Vector3::Zero();
};
std::vector<DipoleSample> dipoleSamples(const Magnet& magnet);

// The field H of the magnet in its own axes, the closed form of its shape (its samples' when it is sampled); at a
// point on or inside it, the field just outside its nearest surface (a polyhedron's: the field inside).
SourceField magnetField(const Magnet& source);

enum class PairMethod { kSurfaceCharge, kPointDipoles, kDipoleSamples, kGaussDipoles };
const char* pairMethodName(PairMethod method);  // "surface charge"

// An estimate of the relative error of the force between two exact magnets taken as point dipoles `distance` apart
// (centre to centre): the sum over the magnets that are not spheres of 2·(R/d)⁴ for a cube (its field has no
// octupole: a cube's shape has no quadrupole), 3·(a_max² − a_min²)/d² for an ellipsoid (its field's first correction
// is its second moments' anisotropy; none for a sphere-shaped one) and 3·(R/d)² otherwise, R the bounding radius;
// infinite when the bounding spheres touch. A sphere is exactly its dipole, so two spheres have none, touching or not.
// tests/unit/magnetics_magnet_pair_test.cpp measures that it bounds the error.
double pointDipoleError(const Magnet& first, const Magnet& second, double distance);

// Gauss points per axis of each magnet's axes, for kGaussDipoles: the pair's interaction is a volume integral over
// both magnets of the dipole–dipole interaction of their elements, M₁dV₁ with M₂dV₂, and a tensor Gauss–Legendre rule
// over each cuboid makes it a sum over point dipoles (moment M times the point's share of the volume). Where the
// magnets are apart, the integrand is analytic over each magnet, and the rule's error falls as ρ^(−2n) with the points
// n per axis, ρ = a + √(a² − 1) and a the distance from the magnet's centre to the nearest place the other's field is
// singular (the other's bounding sphere; a sphere's centre) over the half-length along that axis (the Bernstein
// ellipse through that place). A needle 20 mm long 30 mm from another then takes 4 points along its length and 1 or 2
// across, 16 to 64 dipole pairs, where its surface charges took about 100 µs of field evaluations.
struct GaussPoints {
  std::array<int, 3> first{1, 1, 1}, second{1, 1, 1};
};

// The estimated relative error of a magnet's Gauss points (kGaussPointsErrorScale·Σ_axes ρ^(−2n)) when the other's
// field is singular no nearer than `reach` to its centre; infinite if the reach is within its half-length on an axis.
// A sphere's one point is exact. tests/unit/magnetics_magnet_pair_test.cpp measures that it bounds the error.
double gaussPointsError(const Magnet& magnet, const std::array<int, 3>& points, double reach);

// The fewest Gauss points that bring the error estimate of both magnets below `relativeAccuracy`, if both are
// cuboids or spheres, their bounding spheres are apart and the pair costs at most kMaxGaussDipolePairs dipole pairs
// (beyond which the surface charges are cheaper); none otherwise.
std::optional<GaussPoints> chooseGaussPoints(const Magnet& first, const Magnet& second, double distance,
                                             double relativeAccuracy);

// A magnet's Gauss-point dipoles in its axes (a sphere's one dipole at its centre).
std::vector<DipoleSample> gaussDipoleSamples(const Magnet& magnet, const std::array<int, 3>& points);

// Point dipoles when both magnets are spheres or when pointDipoleError is below the accuracy asked for, dipole samples
// when either magnet asks for them, Gauss-point dipoles where a few are as accurate (chooseGaussPoints), the
// surface-charge integration otherwise.
PairMethod choosePairMethod(const Magnet& first, const Magnet& second, double distance, double relativeAccuracy);

// In the frame the poses are given in; torques about each magnet's centre.
struct MagnetPairLoads {
  Vector3 forceOnFirst = Vector3::Zero(), torqueOnFirst = Vector3::Zero();
  Vector3 forceOnSecond = Vector3::Zero(), torqueOnSecond = Vector3::Zero();
  PairMethod method = PairMethod::kSurfaceCharge;
  long fieldEvaluations = 0;
  bool converged = true;  // false when the surface-charge integration ran out of panels (surface_charge_force.h)
  double errorEstimate = 0;  // the surface-charge integration's, of |δF| + |δT|/ℓ (surface_charge_force.h), N
};

// What a pair keeps between evaluations for a Jacobian: the method and quadrature layout of its latest evaluation,
// taken as they are while `reuse` is set (why: surface_charge_force.h, QuadratureLayout).
struct MagnetPairPlan {
  PairMethod method = PairMethod::kSurfaceCharge;
  QuadratureLayout layout;
  bool reuse = false;
  GaussPoints gaussPoints;  // kGaussDipoles's
};

// The loads of the two magnets on each other, in SI units (μ0 = kVacuumPermeability), the surface-charge integration
// to `relativeAccuracy`. With a plan, the evaluation records its method and layout in it, or reuses them.
MagnetPairLoads magnetPairInteraction(const Magnet& first, const MagnetPose& firstPose, const Magnet& second,
                                      const MagnetPose& secondPose, double relativeAccuracy,
                                      MagnetPairPlan* plan = nullptr);

}  // namespace lodestone
