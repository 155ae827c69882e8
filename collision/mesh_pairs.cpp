// Mesh contact. One side's samples — the centres of its triangles, or its nodes — are measured against the other
// side's surface (the master): an exact primitive through nearestSurfacePoint, or a mesh through its own
// nearest-point hierarchy. FCL's bounding-volume hierarchy of the sampled mesh first picks the triangles near the
// master's box, so the cost follows the triangles near the contact, not the mesh's size.
//
// Penetrating samples that share a node form a patch. The contact laws are written for one point per contact
// (IMPACT's stiffness is the whole contact's), so a patch gives its law's force once, whatever the number of
// triangles in it: its depth is its rigid approach (lawDepth: the deepest sample's for a curved surface, the mean for
// a flat one), its normal the mean of the samples' weighted by area × depth, and each sample carries the part area ×
// depth of the force (ContactPoint::share). A sample that just starts to
// penetrate adds nothing, so the force turns and moves smoothly as triangles come and go.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "contact_patch.h"
#include "mesh_geometry.h"
#include "pair_routines.h"
#include "point_queries.h"
#include "smooth_surface.h"

namespace lodestone::detail {

namespace {

// How near, as a part of the sampled mesh's bounding radius, samples are measured.
constexpr double kNearFraction = 0.01;

struct Sample {
  int id;                  // triangle or node
  double depth;            // of the point; ≤ 0 for a smooth triangle whose surface touches but whose centre does not
  double area;
  Vector3 position;        // on the sampled surface, ground
  Vector3 masterNormal;    // the master's outward normal there, ground
  // A smooth triangle's estimate of its surface's deepest point (collision/smooth_surface.h), trusted this much (0:
  // none, or a flat triangle); the point stands for the rest.
  double trust = 0;
  double apexDepth = 0, apexWeight = 0, apexArea = 0;
  Vector3 apexPosition = Vector3::Zero();  // ground

  double surfaceWeight() const { return depth > 0 ? (1 - trust) * area * depth : 0; }
  double estimateWeight() const { return trust * apexWeight; }
  double weight() const { return surfaceWeight() + estimateWeight(); }
  // The depth the sample says the surfaces overlap by (< 0: their gap).
  double reach() const { return trust * apexDepth + (1 - trust) * depth; }
};

// One side of a mesh pair: `sampled` (a mesh, or a primitive's tessellation) against `master`.
struct Side {
  const Shape& sampled;
  const Pose& sampledPose;
  const Shape& master;
  const Pose& masterPose;
  bool masterExact;   // master is a primitive used as such
  bool sampledIsA;
};

const MeshGeometry& surfaceOf(const Shape& shape) {
  if (!shape.surface) {
    throw std::invalid_argument(std::string("collision: a ") + shapeTypeName(shape.type) +
                                " is used as a mesh but has no tessellation");
  }
  return *shape.surface;
}

// Union–find over sample indices.
int findRoot(std::vector<int>& parent, int k) {
  while (parent[static_cast<size_t>(k)] != k) {
    parent[static_cast<size_t>(k)] = parent[static_cast<size_t>(parent[static_cast<size_t>(k)])];
    k = parent[static_cast<size_t>(k)];
  }
  return k;
}
void join(std::vector<int>& parent, int a, int b) {
  a = findRoot(parent, a);
  b = findRoot(parent, b);
  if (a != b) parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
}

// The signed distance of this side: −(deepest penetration) when a sample penetrates, else the smallest gap among
// the samples, or the near range when that is smaller.
double sampleSide(const Side& side, double margin, const ContactOptions& options, double share,
                  std::vector<ContactPoint>& points) {
  const MeshGeometry& mesh = surfaceOf(side.sampled);
  const Matrix3& rotationS = side.sampledPose.rotation;
  const Matrix3& rotationM = side.masterPose.rotation;
  // Samples farther than `near` from the master are not measured: the gap is exact within it, and said to be `near`
  // beyond (contacts.csv's separation too). Contact needs the gap exact only near zero (onset is located there), so
  // `near` is a small part of the sampled mesh's size, or the margin when that is smaller, or a field law's range.
  const double near = std::min(margin, std::max(options.fieldRange, kNearFraction * mesh.boundingRadius()));
  // The candidates: the sampled triangles that meet the master's box, inflated by `near` and placed in the sampled
  // mesh's frame.
  // A smooth surface reaches outside its facets by up to their sag.
  const double sag = options.nodeMode ? 0 : mesh.smoothSurface().largestSag();
  const Aabb masterBox =
      (side.masterExact ? boundsOf(side.master, Pose{}) : surfaceOf(side.master).bounds())
          .inflated(std::max(near, 0.0) + sag);
  const Pose masterInSampled{rotationS.transpose() * (side.masterPose.position - side.sampledPose.position),
                             rotationS.transpose() * rotationM};
  thread_local std::vector<int> triangles;
  triangles.clear();
  mesh.trianglesNear(masterBox, masterInSampled, triangles);
  if (triangles.empty()) return near > 0 ? near : std::numeric_limits<double>::min();

  thread_local std::vector<int> ids;
  ids.clear();
  if (options.nodeMode) {
    for (int t : triangles) {
      for (int corner : mesh.mesh().triangles[static_cast<size_t>(t)]) ids.push_back(corner);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  } else {
    ids.assign(triangles.begin(), triangles.end());
  }

  thread_local std::vector<Sample> samples;
  samples.clear();
  // A master mesh that is convex with few faces tells a sample inside it from its face planes at once. The gap of a
  // sample outside is wanted only while no sample is inside (then the pair's distance is the smallest gap), so
  // those samples wait, and are measured through the tree only if none turns out to be inside. A smooth triangle
  // whose centre is outside may still touch through its surface: near enough, its face plane is its master.
  const MeshGeometry* masterMesh = side.masterExact ? nullptr : &surfaceOf(side.master);
  const bool convexMaster = masterMesh && masterMesh->convexWithFewFaces();
  int hint = -1, deepestHint = -1;  // neighbouring samples have neighbouring nearest triangles
  // The master's signed distance at a point of its frame (outside a convex mesh, the face planes' lower bound).
  const auto masterDistance = [&](const Vector3& inMaster, int& nearHint) {
    if (!masterMesh) return nearestSurfacePoint(side.master, inMaster);
    if (convexMaster) return masterMesh->nearestFacePlane(inMaster);
    return masterMesh->nearestSurfacePoint(inMaster, &nearHint);
  };
  struct Waiting {
    Vector3 inMaster;
    double trust, deepestDepth;  // a smooth triangle's deepest point
  };
  thread_local std::vector<Waiting> outside;
  outside.clear();
  const Matrix3 masterToSampled = rotationS.transpose() * rotationM;
  double nearest = std::numeric_limits<double>::infinity();
  for (int id : ids) {
    const Vector3& local = options.nodeMode ? mesh.mesh().vertices[static_cast<size_t>(id)] : mesh.centre(id);
    const Vector3 position = side.sampledPose.position + rotationS * local;
    const Vector3 inMaster = rotationM.transpose() * (position - side.masterPose.position);
    const SmoothTriangle* smooth = options.nodeMode ? nullptr : mesh.smoothTriangle(id);
    std::array<Vector3, 3> corners;
    if (smooth) corners = mesh.corners(id);
    const SurfacePoint surface = masterDistance(inMaster, hint);
    const bool waits = convexMaster && surface.distance > 0;
    if (waits) {
      double within = 0;
      if (smooth) {
        for (const Vector3& corner : corners) within = std::max(within, (corner - local).norm());
        within += smooth->sag;
      }
      if (!(surface.distance <= within)) {
        outside.push_back({inMaster, 0, 0});
        continue;
      }
    }
    Sample sample{id, -surface.distance, options.nodeMode ? mesh.vertexArea(id) : mesh.area(id), position,
                  rotationM * surface.normal};
    if (smooth) {
      const Vector3 normal = masterToSampled * surface.normal;
      const DeepestPoint deepest = deepestPoint(*smooth, normal);
      if (deepest.trust > 0) {
        // The master measured at the deepest point itself, not extrapolated from the centre: across a thin part the
        // centre's nearest face need not be the deepest point's. The deepest point is no shallower than the facet's
        // centre, short of the facet's sag; where the master says otherwise, that is not the surface about the
        // centre (the far side of a thin plate), and the estimate is not trusted.
        const Vector3 atDeepest = side.sampledPose.position + rotationS * deepest.position;
        const double depth =
            -masterDistance(rotationM.transpose() * (atDeepest - side.masterPose.position), deepestHint).distance;
        sample.trust = deepest.trust * std::clamp(1 + (depth - sample.depth) / smooth->sag, 0.0, 1.0);
        // Deeper than the limit, the estimate is left out as a sample would be.
        if (depth > options.ignoreDeeperThan) sample.trust = 0;
        sample.apexDepth = depth;
        sample.apexPosition = atDeepest;
        if (sample.trust > 0 && depth > 0) {
          const SurfacePressure pressure = pressureOf(*smooth, corners, normal, deepest.position, depth);
          sample.apexWeight = pressure.weight;
          sample.apexArea = pressure.area;
          sample.apexPosition = side.sampledPose.position + rotationS * pressure.centre;
          sample.apexDepth = pressure.depthAtCentre;
        }
      }
    }
    if (waits) {
      outside.push_back({inMaster, sample.trust, sample.apexDepth});
    } else {
      // A smooth surface estimated to touch where none of its triangles carries pressure yet is touching.
      nearest = std::min(nearest, smooth ? std::max(-sample.reach(), 0.0) : -sample.reach());
    }
    if (sample.depth > options.ignoreDeeperThan) continue;
    if (sample.depth > 0 || sample.estimateWeight() > 0) samples.push_back(sample);
  }
  if (samples.empty()) {
    for (const Waiting& waiting : outside) {
      const double gap = masterMesh->nearestSurfacePoint(waiting.inMaster, &hint).distance;
      nearest = std::min(nearest, std::max(gap - waiting.trust * (waiting.deepestDepth + gap), 0.0));
    }
    return std::min(nearest, near);
  }

  // Patches: samples that share a node (triangle centres) or an edge (nodes) belong together.
  thread_local std::vector<int> parent;
  parent.resize(samples.size());
  std::iota(parent.begin(), parent.end(), 0);
  if (options.nodeMode) {
    // ids of the samples are sorted (ids were), so a neighbour is found by binary search.
    for (size_t k = 0; k < samples.size(); ++k) {
      for (int neighbour : mesh.neighbours(samples[k].id)) {
        const auto found = std::lower_bound(samples.begin(), samples.end(), neighbour,
                                            [](const Sample& sample, int id) { return sample.id < id; });
        if (found != samples.end() && found->id == neighbour) {
          join(parent, static_cast<int>(k), static_cast<int>(found - samples.begin()));
        }
      }
    }
  } else {
    thread_local std::vector<std::pair<int, int>> corners;  // (node, sample)
    corners.clear();
    for (size_t k = 0; k < samples.size(); ++k) {
      for (int corner : mesh.mesh().triangles[static_cast<size_t>(samples[k].id)]) {
        corners.emplace_back(corner, static_cast<int>(k));
      }
    }
    std::sort(corners.begin(), corners.end());
    for (size_t k = 1; k < corners.size(); ++k) {
      if (corners[k].first == corners[k - 1].first) join(parent, corners[k].second, corners[k - 1].second);
    }
  }

  struct Patch {
    double weight = 0, depth = 0, area = 0;
    Vector3 normal = Vector3::Zero();  // summed, then made unit
  };
  thread_local std::vector<Patch> patches;
  thread_local std::vector<int> patchOf;  // per sample; at first per union–find root
  patches.clear();
  patchOf.assign(samples.size(), -1);
  double deepest = 0;
  for (size_t k = 0; k < samples.size(); ++k) {
    // Roots come before the samples they hold (join keeps the lower index), so each root has its patch already.
    const int root = findRoot(parent, static_cast<int>(k));
    if (patchOf[static_cast<size_t>(root)] < 0) {
      patchOf[static_cast<size_t>(root)] = static_cast<int>(patches.size());
      patches.emplace_back();
    }
    patchOf[k] = patchOf[static_cast<size_t>(root)];
    Patch& patch = patches[static_cast<size_t>(patchOf[k])];
    const Sample& sample = samples[k];
    const double weight = sample.weight();
    patch.weight += weight;
    patch.normal += weight * sample.masterNormal;
    patch.area += (sample.depth > 0 ? (1 - sample.trust) * sample.area : 0) + sample.trust * sample.apexArea;
    deepest = std::max(deepest, sample.reach());
  }
  // Each patch's law acts at the depth of its rigid approach (lawDepth): its deepest sample's for a curved surface,
  // for a flat one the depth at its centre of pressure, for a smooth one the depth its triangles estimate for its
  // deepest point. The samples are weighted by area × depth, not by area (as analytical polygons are, whose area
  // grows from nothing), and the estimates by the pressure over their triangle: a sample that begins to penetrate
  // then moves nothing. The samples grouped by patch once (a counting sort, in sample order within each patch), so
  // that the work stays linear in the samples however many patches there are.
  thread_local std::vector<DepthSample> patchSamples;
  thread_local std::vector<double> patchTilts, tilts;  // per sample of the patch; per sample
  thread_local std::vector<size_t> patchStart, byPatch;
  tilts.assign(samples.size(), 0.0);
  patchStart.assign(patches.size() + 1, 0);
  for (size_t k = 0; k < samples.size(); ++k) ++patchStart[static_cast<size_t>(patchOf[k]) + 1];
  for (size_t p = 0; p < patches.size(); ++p) patchStart[p + 1] += patchStart[p];
  byPatch.resize(samples.size());
  {
    thread_local std::vector<size_t> filled;
    filled.assign(patchStart.begin(), patchStart.end() - 1);
    for (size_t k = 0; k < samples.size(); ++k) byPatch[filled[static_cast<size_t>(patchOf[k])]++] = k;
  }
  for (size_t p = 0; p < patches.size(); ++p) {
    Patch& patch = patches[p];
    patch.normal.normalize();
    // A sample gives its point's depth, its estimate's, or both (a smooth triangle trusted in part).
    patchSamples.clear();
    for (size_t at = patchStart[p]; at < patchStart[p + 1]; ++at) {
      const Sample& sample = samples[byPatch[at]];
      if (sample.surfaceWeight() > 0) patchSamples.push_back({sample.position, sample.depth, sample.surfaceWeight()});
      if (sample.estimateWeight() > 0) {
        patchSamples.push_back({sample.apexPosition, sample.apexDepth, sample.estimateWeight(), sample.apexWeight});
      }
    }
    patchTilts.resize(patchSamples.size());
    patch.depth = lawDepth(patchSamples, patch.normal, patchTilts);
    size_t next = 0;
    for (size_t at = patchStart[p]; at < patchStart[p + 1]; ++at) {
      const Sample& sample = samples[byPatch[at]];
      double tilt = 0;
      if (sample.surfaceWeight() > 0) tilt += sample.surfaceWeight() * patchTilts[next++];
      if (sample.estimateWeight() > 0) tilt += sample.estimateWeight() * patchTilts[next++];
      tilts[byPatch[at]] = sample.weight() > 0 ? tilt / sample.weight() : 0;
    }
  }
  // One point per sample, all with their patch's depth, normal and area, each carrying the part area × depth of its
  // patch's force: together the law's force once per patch, its elastic part acting at the weighted centre, while
  // damping and friction see each sample's own velocity (so a face rocking on a face is damped, and a spinning
  // contact feels friction round its axis). A smooth triangle's point is on its surface's deepest line or point,
  // where the surface of the body it stands for touches, as an exact primitive's contact is.
  for (size_t k = 0; k < samples.size(); ++k) {
    const Sample& sample = samples[k];
    const double surfaceWeight = sample.surfaceWeight(), estimateWeight = sample.estimateWeight();
    const double weight = surfaceWeight + estimateWeight;
    if (!(weight > 0)) continue;
    const Patch& patch = patches[static_cast<size_t>(patchOf[k])];
    ContactPoint point;
    // The normal points from B to A: the master's outward normal when A is sampled (B is master), and the other
    // way when B is sampled.
    point.normal = side.sampledIsA ? patch.normal : Vector3(-patch.normal);
    point.depth = patch.depth;
    point.tilt = tilts[k];
    point.area = patch.area;
    point.share = share * weight / patch.weight;
    // On the master surface where the sample meets it, and `depth` inside from there.
    const Vector3 onSampled = (surfaceWeight * sample.position + estimateWeight * sample.apexPosition) / weight;
    const double depth = (surfaceWeight * sample.depth + estimateWeight * sample.apexDepth) / weight;
    const Vector3 onMaster = onSampled + depth * sample.masterNormal;
    if (side.sampledIsA) {
      point.pointOnB = onMaster;
      point.pointOnA = onMaster - patch.depth * point.normal;
    } else {
      point.pointOnA = onMaster;
      point.pointOnB = onMaster + patch.depth * point.normal;
    }
    points.push_back(point);
  }
  return -deepest;
}

}  // namespace

double meshContact(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                   const ContactOptions& options, std::vector<ContactPoint>& points) {
  const bool exactA = a.type != ShapeType::Mesh && options.analytical;
  const bool exactB = b.type != ShapeType::Mesh && options.analytical;
  bool sampleA = false, sampleB = false;
  switch (options.master) {
    case MasterSurface::J: sampleA = true; break;
    case MasterSurface::I: sampleB = true; break;
    case MasterSurface::IAndJ: sampleA = sampleB = true; break;
    case MasterSurface::Auto:
      if (exactA != exactB) {
        // An exact primitive is the better master: its surface and normals are the true ones.
        sampleA = exactB;
        sampleB = exactA;
      } else {
        // Two meshes: the finer one's samples against the coarser surface.
        const MeshGeometry& meshA = surfaceOf(a);
        const MeshGeometry& meshB = surfaceOf(b);
        sampleA = meshA.totalArea() / meshA.triangleCount() <= meshB.totalArea() / meshB.triangleCount();
        sampleB = !sampleA;
      }
      break;
  }
  const double share = sampleA && sampleB ? 0.5 : 1.0;
  double distance = std::numeric_limits<double>::infinity();
  if (sampleA) distance = sampleSide({a, poseA, b, poseB, exactB, true}, margin, options, share, points);
  if (sampleB) {
    distance = std::min(distance, sampleSide({b, poseB, a, poseA, exactA, false}, margin, options, share, points));
  }
  return distance;
}

}  // namespace lodestone::detail
