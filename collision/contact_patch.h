// Contact patches of the analytical pair routines (internal to collision/): a region where two shapes touch —
// a face's clipped polygon, a line, a cap — sampled by quadrature points that share one evaluation of the law, as
// mesh patches do (mesh_pairs.cpp). The law acts once with the patch's depth and area; each point carries the part
// area × depth of the force, so the centre of pressure, damping at each point's velocity and the friction torque of
// a spinning face follow the pressure distribution of a Winkler layer under the law (pressure ∝ local depth).
#pragma once

#include <span>
#include <vector>

#include "contact_point.h"

namespace lodestone::detail {

// One sample of a patch, as its law's depth is found from it: a point of a surface, or an estimate of where a smooth
// surface is deepest (a smooth triangle's, collision/smooth_surface.h).
struct DepthSample {
  Vector3 position;  // ground
  double depth;      // the sample's own, > 0 for a point of a surface
  double measure;    // the area it stands for (of an estimate: its pressed area, times how far it is trusted)
  double estimatedArea = 0;  // > 0: an estimate of a smooth surface's deepest point, standing for this pressed area
};

// The depth a patch's law acts with: the depth of the patch's rigid approach. The samples' depths are fitted by an
// affine field over the patch plane (weighted by their measures); the tilt of the fit is taken out, and the deepest
// of what is left is the law's depth. A flat face, tilted or not, has an affine depth: its law's depth is the depth
// at its centroid (its mean), so the normal force does not grow as the face rocks and the face's rocking under the
// law is conservative, as under a Winkler layer. A curved surface sunk into a face (a tessellated sphere, a
// cylinder's line) keeps its deepest point's depth, as the exact primitive's single point has. Estimates of a smooth
// surface's deepest point agree where the surface is a sphere or a cylinder: they give their mean (by pressed area,
// as a line's or a face's samples are weighted, the tilt taken out; scaled by how far they are trusted), so one that
// joins with nothing pressed moves nothing, and the law acts with the larger of that mean and the deepest point of a
// surface.
// When `tilts` is given (one per sample), each gets the part of its depth that the fitted tilt adds (ContactPoint::tilt).
// Samples along a line give no tilt across it; with a `lineSpread` > 0 the tilt across fades out (C¹) as the spread
// that way falls below that share of the widest, rather than at none. A mesh patch asks for it: a sample just
// touching beside a line of samples has a vanishing measure, but the tilt its covariance over its spread gives does
// not vanish with it, and would appear at once (the law's depth jumping by a fifth in CollisionMesh's bar test).
// Likewise with an `enteringMeasure` > 0 a sample whose measure is below that share of the largest counts towards
// the deepest only in part, C¹ in its measure, its depth left by the fit scaled towards the fit's mean: a mesh
// patch asks for it, as a sample just beginning to touch (measure area × depth → 0) far out on the shallow side has
// what the tilt extrapolates there as its depth left by the fit, and as the deepest it made the law's depth jump as
// it touched (129 → 211 µm, doubling the force, where an object of the sphere of objects rocked on the glass).
double lawDepth(std::span<const DepthSample> samples, const Vector3& normal, std::span<double> tilts = {},
                double lineSpread = 0, double enteringMeasure = 0);

// Gathers the samples of one patch, then appends them as ContactPoints. The samples live in storage of the thread,
// reused from call to call (contact runs in every residual): one builder at a time per thread.
class PatchBuilder {
 public:
  struct Sample {
    Vector3 position;  // on the sampled surface
    double depth;
    double weight;     // area × depth (or the line's cross-section)
    double measure;    // area
  };

  // `normal` is the patch's unit normal from B to A. The samples lie on A's surface inside B (`samplesOnA`: a face
  // of B is the reference surface) or on B's inside A; their depth is their distance below the reference surface's
  // plane, whose outward normal is `normal` (B's face) or −normal (A's face): depth(x) = offset − outward·x.
  PatchBuilder(const Vector3& normal, bool samplesOnA, double offset);

  double depthAt(const Vector3& x) const;

  // A convex polygon of the sampled shape's surface (its vertices in order, all at depth ≥ 0 up to rounding): sampled
  // by Gauss–Legendre points over a fan of triangles from its centroid (the Duffy map of each triangle onto a square:
  // two points from the centroid out, two across), each weighted by its area projected on the patch plane times its
  // depth. A polygon with no projected area (a face seen edge-on) adds no samples.
  void addPolygon(std::span<const Vector3> polygon);
  // A line contact: the segment from `start` to `end` of a cylinder of `radius` lying on the reference face, sampled
  // by two Gauss–Legendre points on each of four equal panels. Each weighs the cross-section of the overlap there,
  // ∫(δ − s²/2R) ds = (4/3)·√(2R)·δ^1.5 per length (δ capped at R), so it joins a polygon's weights consistently.
  void addLine(const Vector3& start, const Vector3& end, double radius);

  // The overlap area on the patch plane, for laws that use it (VOLUME).
  void setArea(double area) { area_ = area; }
  bool empty() const { return samples_.empty(); }

  // Appends one ContactPoint per sample with a part of the force (share > 0): each has the patch's depth (lawDepth
  // of the samples), normal and area, and its points on A and B a patch depth apart around the sample. Returns how
  // many it appended.
  std::size_t appendTo(std::vector<ContactPoint>& points) const;

 private:
  void add(const Vector3& position, double measure, double weight);

  Vector3 normal_;
  bool samplesOnA_;
  double offset_;
  double area_ = 0;
  std::vector<Sample>& samples_;
};

// Sutherland–Hodgman: the part of a convex polygon where plane·x ≤ offset, into `clipped` (which may not alias it).
void clipPolygon(std::span<const Vector3> polygon, const Vector3& plane, double offset, std::vector<Vector3>& clipped);
// Clips `polygon` in place by the half-space plane·x ≤ offset.
void clipPolygonInPlace(std::vector<Vector3>& polygon, const Vector3& plane, double offset);

// Area of a planar polygon projected on the plane of unit `normal`.
double projectedArea(std::span<const Vector3> polygon, const Vector3& normal);

// A regular polygon inscribed in the circle of `radius` about `centre` in the plane spanned by the unit vectors
// `first` and `second`, with vertex 0 at centre + radius·first: how the analytical routines sample a cylinder's cap
// (vertex 0 on its lowest rim point, so the depth there is exact).
constexpr int kCapPolygonSides = 24;
void capPolygon(const Vector3& centre, double radius, const Vector3& first, const Vector3& second,
                std::vector<Vector3>& polygon);

// The face of a box (its centre, axes as columns, half extents) whose outward normal lies most along `direction`,
// as its four corners in `polygon`.
void boxFaceAlong(const Vector3& centre, const Matrix3& axes, const Vector3& half, const Vector3& direction,
                  std::vector<Vector3>& polygon);

// Keeps the part of [low, high] where the linear function from + τ·(to − from) is positive; false when none is.
bool clipToPositive(double from, double to, double& low, double& high);

// Area of the part of a disk of `radius` beyond a chord at signed distance `chord` from its centre.
double diskSegmentArea(double radius, double chord);

// Overlap area of a cylinder of `radius` lying `depth` deep along `length` on a flat face: the strip its side cuts,
// 2·√(2rδ − δ²)·length, the depth capped at the radius.
double lyingCylinderArea(double radius, double depth, double length);

}  // namespace lodestone::detail
