// The narrow phase's dispatch: a table indexed by the two shape types. Each unordered pair is implemented once;
// the mirrored entry calls it swapped and mirrors the points back. A bounding-sphere test skips pairs that are
// farther apart than the margin before any routine runs.
#include "narrow_phase.h"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

#include "curve_contact_2d.h"
#include "pair_routines.h"

namespace lodestone {

namespace {

using detail::PairRoutine;

// Points found for the pair B–A, from `first` on, made points of A–B: their roles swap and the normal (from B to A)
// turns round.
void mirrorPoints(std::vector<ContactPoint>& points, std::size_t first) {
  for (std::size_t k = first; k < points.size(); ++k) {
    std::swap(points[k].pointOnA, points[k].pointOnB);
    points[k].normal = -points[k].normal;
  }
}

// B–A computed by the A–B routine.
template <PairRoutine routine>
double swapped(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
               std::vector<ContactPoint>& points) {
  const std::size_t first = points.size();
  const double signedDistance = routine(b, poseB, a, poseA, margin, points);
  mirrorPoints(points, first);
  return signedDistance;
}

struct Entry {
  PairRoutine routine = nullptr;
  bool analytical = false;
};

using Table = std::array<std::array<Entry, kShapeTypeCount>, kShapeTypeCount>;

constexpr int index(ShapeType type) { return static_cast<int>(type); }

constexpr Table makeTable() {
  Table table{};
  // Every convex pair defaults to GJK/EPA; pairs with a mesh never reach the table (collide() sends them to
  // meshContact).
  for (int i = 0; i < kShapeTypeCount; ++i) {
    for (int k = 0; k < kShapeTypeCount; ++k) table[i][k] = {&detail::fclPair, false};
  }
  auto exact = [&table](ShapeType first, ShapeType second, PairRoutine routine, PairRoutine mirrored) {
    table[index(first)][index(second)] = {routine, true};
    table[index(second)][index(first)] = {mirrored, true};
  };
  using enum ShapeType;
  exact(Sphere, Sphere, &detail::sphereSphere, &detail::sphereSphere);
  exact(Sphere, Box, &detail::sphereBox, &swapped<&detail::sphereBox>);
  exact(Sphere, Cylinder, &detail::sphereCylinder, &swapped<&detail::sphereCylinder>);
  exact(Sphere, Frustum, &detail::sphereFrustum, &swapped<&detail::sphereFrustum>);
  exact(Box, Box, &detail::boxBox, &detail::boxBox);
  exact(Cylinder, Box, &detail::cylinderBox, &swapped<&detail::cylinderBox>);
  // Simscape's geometries meet only the shapes Spatial Contact Force pairs them with: every other pair with one of
  // them is refused (when the deck is checked) and never touches here.
  for (int i = 0; i < kShapeTypeCount; ++i) {
    for (int k = 0; k < kShapeTypeCount; ++k) {
      if (isSimscapeGeometry(static_cast<ShapeType>(i)) || isSimscapeGeometry(static_cast<ShapeType>(k))) {
        table[i][k] = {&detail::refusedPair, false};
      }
    }
  }
  for (ShapeType solid : {Sphere, Box, Cylinder, Frustum, Ellipsoid, Mesh, HollowSphere, Plane, GridSurface}) {
    exact(Point, solid, &detail::pointShape, &swapped<&detail::pointShape>);
    exact(PointCloud, solid, &detail::cloudShape, &swapped<&detail::cloudShape>);
  }
  exact(Sphere, Plane, &detail::spherePlane, &swapped<&detail::spherePlane>);
  exact(Sphere, GridSurface, &detail::sphereGridSurface, &swapped<&detail::sphereGridSurface>);
  exact(Box, Plane, &detail::boxPlane, &swapped<&detail::boxPlane>);
  exact(Cylinder, Plane, &detail::cylinderPlane, &swapped<&detail::cylinderPlane>);
  exact(Frustum, Plane, &detail::frustumPlane, &swapped<&detail::frustumPlane>);
  exact(Ellipsoid, Plane, &detail::ellipsoidPlane, &swapped<&detail::ellipsoidPlane>);
  exact(Disk, Plane, &detail::diskPlane, &swapped<&detail::diskPlane>);
  exact(Sphere, Disk, &detail::sphereDisk, &swapped<&detail::sphereDisk>);
  exact(Disk, Box, &detail::diskBox, &swapped<&detail::diskBox>);
  // A disk on the other solids through GJK/EPA, as a cylinder a millionth of its radius thick (fcl_pairs.cpp).
  for (ShapeType solid : {Cylinder, Frustum, Ellipsoid}) {
    table[index(Disk)][index(solid)] = {&detail::fclPair, false};
    table[index(solid)][index(Disk)] = {&detail::fclPair, false};
  }
  // FCL routines are symmetric by construction; the table still holds them once per order.
  return table;
}

constexpr Table kTable = makeTable();

// A shape inside a spherical cavity (`b`). The cavity is always the master surface, exact: a ball by its own
// routine, anything else by its samples (a mesh, or a primitive's tessellation) against the cavity's wall.
double collideInCavity(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                       std::vector<ContactPoint>& points, const ContactOptions& options) {
  // Bounding spheres: a shape within the cavity's radius less its own is at least that far from the wall.
  const double boundingGap = b.radius - (poseA.position - poseB.position).norm() - a.boundingRadius();
  if (boundingGap > margin && boundingGap > 0) return boundingGap;
  if (a.type == ShapeType::Sphere) {
    return detail::sphereHollowSphere(a, poseA, b, poseB, margin, points);
  }
  ContactOptions cavityMaster = options;
  cavityMaster.master = MasterSurface::J;
  cavityMaster.analytical = true;
  return std::max(detail::meshContact(a, poseA, b, poseB, margin, cavityMaster, points), boundingGap);
}

// A pair with one of Simscape's geometries: through the table, but for a mesh on the plane (the mesh's samples), and
// bounded by the bounding spheres only where neither is the plane, which has none.
double collideSimscape(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                       std::vector<ContactPoint>& points, const ContactOptions& options) {
  if (a.type == ShapeType::Mesh && b.type == ShapeType::Plane) {
    return detail::meshPlane(a, poseA, b, poseB, margin, options, points);
  }
  if (a.type == ShapeType::Plane && b.type == ShapeType::Mesh) {
    const std::size_t first = points.size();
    const double signedDistance = detail::meshPlane(b, poseB, a, poseA, margin, options, points);
    mirrorPoints(points, first);
    return signedDistance;
  }
  const bool bounded = a.type != ShapeType::Plane && b.type != ShapeType::Plane &&
                       a.type != ShapeType::HollowSphere && b.type != ShapeType::HollowSphere;
  if (bounded) {
    const double boundingGap =
        (poseA.position - poseB.position).norm() - a.boundingRadius() - b.boundingRadius();
    if (boundingGap > margin && boundingGap > 0) return boundingGap;
  }
  return kTable[index(a.type)][index(b.type)].routine(a, poseA, b, poseB, margin, points);
}

}  // namespace

bool simscapePairSupported(ShapeType a, ShapeType b) {
  if (!isSimscapeGeometry(a) && !isSimscapeGeometry(b)) return true;
  if ((a == ShapeType::Mesh && b == ShapeType::Plane) || (a == ShapeType::Plane && b == ShapeType::Mesh)) return true;
  return kTable[index(a)][index(b)].routine != &detail::refusedPair;
}

double collide(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
               std::vector<ContactPoint>& points, const ContactOptions& options) {
  if (isSimscapeGeometry(a.type) || isSimscapeGeometry(b.type)) {
    return collideSimscape(a, poseA, b, poseB, margin, points, options);
  }
  if (b.type == ShapeType::HollowSphere) {
    if (a.type == ShapeType::HollowSphere) return std::numeric_limits<double>::infinity();  // refused in decks
    return collideInCavity(a, poseA, b, poseB, margin, points, options);
  }
  if (a.type == ShapeType::HollowSphere) {
    const std::size_t first = points.size();
    const double signedDistance = collideInCavity(b, poseB, a, poseA, margin, points, options);
    mirrorPoints(points, first);
    return signedDistance;
  }
  // Cheap bound first: the gap between bounding spheres never exceeds the true gap, so beyond the margin it is an
  // acceptable answer (≥ margin) and no contact is missed.
  const double boundingGap = (poseA.position - poseB.position).norm() - a.boundingRadius() - b.boundingRadius();
  if (boundingGap > margin && boundingGap > 0) return boundingGap;
  if (a.type == ShapeType::Curve || b.type == ShapeType::Curve) {
    // A curve and a solid never meet: decks are refused that would pair them.
    if (a.type != b.type) return std::numeric_limits<double>::infinity();
    return collideCurves(a, poseA, b, poseB, options.curveStability, points);
  }
  if (a.type == ShapeType::Mesh || b.type == ShapeType::Mesh || !options.analytical) {
    // A mesh pair measures its gap only within a near range, and says that range beyond it; the bounding spheres'
    // gap, a lower bound too, takes over where it is larger, so the value does not jump where the early-out above
    // begins. It never hides a penetration: a depth never exceeds the bounding spheres' overlap.
    return std::max(detail::meshContact(a, poseA, b, poseB, margin, options, points), boundingGap);
  }
  const Entry& entry = kTable[index(a.type)][index(b.type)];
  return entry.routine(a, poseA, b, poseB, margin, points);
}

bool hasAnalyticalRoutine(ShapeType a, ShapeType b) { return kTable[index(a)][index(b)].analytical; }

}  // namespace lodestone
