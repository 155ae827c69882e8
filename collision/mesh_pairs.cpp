// Mesh contact. One side's samples — the centres of its triangles, or its nodes — are measured against the other
// side's surface (the master): an exact primitive through nearestSurfacePoint, or a mesh through its own
// nearest-point hierarchy. FCL's bounding-volume hierarchy of the sampled mesh first picks the triangles near the
// master's box, so the cost follows the triangles near the contact, not the mesh's size.
//
// Penetrating samples that share a node form a patch (two regions joined only through samples just touching are
// blended between two patches and one: groupPatches). The contact laws are written for one point per contact
// (IMPACT's stiffness is the whole contact's), so a patch gives its law's force once, whatever the number of
// triangles in it: its depth is its rigid approach (lawDepth: the deepest sample's for a curved surface, the mean for
// a flat one), its normal the mean of the samples' weighted by area × depth, and each sample carries the part area ×
// depth of the force (ContactPoint::share). A sample that just starts to
// penetrate adds nothing, so the force turns and moves smoothly as triangles come and go.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Eigenvalues>

#include "contact_patch.h"
#include "mesh_geometry.h"
#include "pair_routines.h"
#include "point_queries.h"
#include "smooth_surface.h"
#include "solver/core/thread_scratch.h"

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

// A patch of samples (ascending) and the part of its law's force it carries.
struct PatchGroup {
  std::vector<int> samples;
  double part = 1;
};

// Whether linked regions are one contact or several must not switch as a sample's depth crosses zero: two bumps of an
// object pressed on a glass joined through one node just touching acted as one patch with 269 N, and as two with
// 422 N, a sample's rounding apart (the sphere of objects, 100 A·m²). So the samples are merged in order of depth: the
// links taken by their shallower end's reach, deepest first (a maximum spanning forest), and where a link joins two
// regions its shallower end is their saddle. Against the shallower region's deepest reach, a saddle at zero leaves
// them two patches, one at kMergedSaddleShare or above makes them one, and between the merged patch and the two
// regions share the force in smooth (C¹) parts. Flat faces on faces and single bumps merge whole, as before.
constexpr double kMergedSaddleShare = 0.5;
// The share of a mesh patch's widest spread (a variance) below which its tilt across fades out (lawDepth): a patch a
// thousandth as wide as long, far narrower than a strip of samples pressed in (but in an edge's first instants, where
// the depths across differ by that width times the tilt).
constexpr double kMeshLineSpread = 1e-6;
// The share of a mesh patch's largest sample measure (area × depth) below which a sample counts towards the patch's
// deepest only in part (lawDepth): a sample begins to touch with nothing, and must not set the law's depth at once.
constexpr double kMeshEnteringMeasure = 0.25;

// The groups are groups[0, returned count); the vector keeps its groups' storage from call to call.
size_t groupPatches(std::span<const double> reaches, std::vector<std::pair<int, int>>& links,
                    std::vector<PatchGroup>& groups) {
  const int count = static_cast<int>(reaches.size());
  // The merge tree: nodes [0, count) the samples, each merge of two regions a node after them.
  struct Node {
    int left = -1, right = -1;
    double peak = 0;    // the deepest reach below it
    double merged = 1;  // the part of what reaches it that acts as its one patch; the rest goes to both halves
  };
  std::vector<Node>& nodes = threadScratch<std::vector<Node>, struct GroupPatchesNodes>();
  nodes.assign(static_cast<size_t>(count), Node{});
  for (int k = 0; k < count; ++k) nodes[static_cast<size_t>(k)].peak = reaches[static_cast<size_t>(k)];
  const auto saddle = [&](const std::pair<int, int>& link) {
    return std::min(reaches[static_cast<size_t>(link.first)], reaches[static_cast<size_t>(link.second)]);
  };
  std::stable_sort(links.begin(), links.end(), [&](const auto& a, const auto& b) { return saddle(a) > saddle(b); });
  std::vector<int>& parent = threadScratch<std::vector<int>, struct GroupPatchesParent>();
  std::vector<int>& nodeOf = threadScratch<std::vector<int>, struct GroupPatchesNodeOf>();
  parent.resize(static_cast<size_t>(count));
  nodeOf.resize(static_cast<size_t>(count));
  std::iota(parent.begin(), parent.end(), 0);
  std::iota(nodeOf.begin(), nodeOf.end(), 0);
  for (const auto& link : links) {
    const int a = findRoot(parent, link.first), b = findRoot(parent, link.second);
    if (a == b) continue;
    Node merge;
    merge.left = nodeOf[static_cast<size_t>(a)];
    merge.right = nodeOf[static_cast<size_t>(b)];
    const double peakLeft = nodes[static_cast<size_t>(merge.left)].peak;
    const double peakRight = nodes[static_cast<size_t>(merge.right)].peak;
    merge.peak = std::max(peakLeft, peakRight);
    const double shallowerPeak = std::min(peakLeft, peakRight);
    if (shallowerPeak > 0) {
      const double x = std::clamp(saddle(link) / (kMergedSaddleShare * shallowerPeak), 0.0, 1.0);
      merge.merged = x * x * (3 - 2 * x);
    }
    join(parent, a, b);
    nodeOf[static_cast<size_t>(findRoot(parent, a))] = static_cast<int>(nodes.size());
    nodes.push_back(merge);
  }
  // Each node acts with what reaches it times `merged`; the rest reaches both its halves (a sample's is whole).
  size_t used = 0;
  std::vector<std::pair<int, double>>& reached =
      threadScratch<std::vector<std::pair<int, double>>, struct GroupPatchesReached>();
  std::vector<int>& below = threadScratch<std::vector<int>, struct GroupPatchesBelow>();
  for (int k = 0; k < count; ++k) {
    if (findRoot(parent, k) != k) continue;
    reached.assign(1, {nodeOf[static_cast<size_t>(k)], 1.0});
    while (!reached.empty()) {
      const auto [node, weight] = reached.back();
      reached.pop_back();
      const Node& at = nodes[static_cast<size_t>(node)];
      if (const double part = weight * at.merged; part > 0) {
        if (used == groups.size()) groups.emplace_back();
        PatchGroup& group = groups[used++];
        group.samples.clear();
        group.part = part;
        below.assign(1, node);
        while (!below.empty()) {
          const int next = below.back();
          below.pop_back();
          if (next < count) {
            group.samples.push_back(next);
          } else {
            below.push_back(nodes[static_cast<size_t>(next)].left);
            below.push_back(nodes[static_cast<size_t>(next)].right);
          }
        }
        std::sort(group.samples.begin(), group.samples.end());
      }
      if (at.merged < 1) {
        reached.emplace_back(at.left, weight * (1 - at.merged));
        reached.emplace_back(at.right, weight * (1 - at.merged));
      }
    }
  }
  return used;
}

// The estimates of a patch's smooth surfaces all lie on its deepest line or point, one per triangle pressed, each
// with its pressure (`weights`). They are carried by eight points that keep their weight, centre, spread and the depth and tilt along them: on the ellipse
// √2·σ about their centre in their two widest directions (σ² the variances there), at every 45°. So the force, its
// moment and the second moments that damp rocking are the estimates' own, and the cost of the points does not grow
// with the mesh's fineness; along a line they stand as a line contact's points do, their mean distance from the
// centre within 2 % of a uniform line's. Estimates at one place (a sphere's, spread by rounding only: less than 1e-9 of
// the mesh's size) are one point.
template <class AddPoint>
void addEstimatePoints(std::span<const DepthSample> estimates, std::span<const double> weights,
                       std::span<const double> tilts, double scale, AddPoint addPoint) {
  double weight = 0, depth = 0, tilt = 0;
  Vector3 centre = Vector3::Zero();
  for (size_t k = 0; k < estimates.size(); ++k) {
    weight += weights[k];
    centre += weights[k] * estimates[k].position;
    depth += weights[k] * estimates[k].depth;
    tilt += weights[k] * tilts[k];
  }
  if (!(weight > 0)) return;
  centre /= weight;
  depth /= weight;
  tilt /= weight;
  Matrix3 spread = Matrix3::Zero();
  Vector3 depthSlope = Vector3::Zero(), tiltSlope = Vector3::Zero();
  for (size_t k = 0; k < estimates.size(); ++k) {
    const Vector3 offset = estimates[k].position - centre;
    spread += (weights[k] / weight) * offset * offset.transpose();
    depthSlope += (weights[k] / weight) * (estimates[k].depth - depth) * offset;
    tiltSlope += (weights[k] / weight) * (tilts[k] - tilt) * offset;
  }
  Eigen::SelfAdjointEigenSolver<Matrix3> principal;
  principal.computeDirect(spread);
  const double widest = std::max(principal.eigenvalues()[2], 0.0);
  if (!(std::sqrt(widest) > 1e-9 * scale)) {
    addPoint(centre, depth, weight, tilt);
    return;
  }
  // Along each of the two widest directions: the standard deviation, and the depth's and tilt's change per σ.
  std::array<Vector3, 2> axis;
  std::array<double, 2> depthPerSigma{}, tiltPerSigma{};
  for (int k = 0; k < 2; ++k) {
    const double variance = principal.eigenvalues()[2 - k];
    const Vector3 direction = principal.eigenvectors().col(2 - k);
    if (!(variance > 1e-24 * widest)) {
      axis[static_cast<size_t>(k)] = Vector3::Zero();
      continue;
    }
    const double sigma = std::sqrt(variance);
    axis[static_cast<size_t>(k)] = sigma * direction;
    depthPerSigma[static_cast<size_t>(k)] = direction.dot(depthSlope) / sigma;
    tiltPerSigma[static_cast<size_t>(k)] = direction.dot(tiltSlope) / sigma;
  }
  for (int k = 0; k < 8; ++k) {
    const double angle = std::numbers::pi / 4 * k;
    const double along = std::sqrt(2.0) * std::cos(angle), across = std::sqrt(2.0) * std::sin(angle);
    addPoint(centre + along * axis[0] + across * axis[1],
             depth + along * depthPerSigma[0] + across * depthPerSigma[1], weight / 8,
             tilt + along * tiltPerSigma[0] + across * tiltPerSigma[1]);
  }
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
  // The candidates: the sampled triangles that meet the master's box, inflated by `near` (or by the sag of the mesh's
  // smooth surface, which reaches that far outside its facets, when larger) and placed in the sampled mesh's frame.
  const double sag = options.nodeMode ? 0 : mesh.smoothSurface().largestSag();
  Aabb masterBox = side.masterExact ? boundsOf(side.master, Pose{}) : surfaceOf(side.master).bounds();
  if (side.masterExact && side.master.type == ShapeType::Plane) {
    // A half-space has no finite box: the part of the sampled mesh's own box (turned into the plane's frame) below
    // the plane stands for it.
    const Aabb& own = mesh.bounds();
    const Matrix3 toMaster = rotationM.transpose() * rotationS;
    const Vector3 middle = rotationM.transpose() * (side.sampledPose.position - side.masterPose.position) +
                           toMaster * (0.5 * (own.max + own.min));
    const Vector3 halfWidths = toMaster.cwiseAbs() * (0.5 * (own.max - own.min));
    masterBox = {middle - halfWidths, middle + halfWidths};
    masterBox.max.z() = std::min(masterBox.max.z(), 0.0);
    masterBox.min.z() = std::min(masterBox.min.z(), masterBox.max.z());
  }
  masterBox = masterBox.inflated(std::max({near, sag, 0.0}));
  const Pose masterInSampled{rotationS.transpose() * (side.masterPose.position - side.sampledPose.position),
                             rotationS.transpose() * rotationM};
  std::vector<int>& triangles = threadScratch<std::vector<int>, struct SampleSideTriangles>();
  triangles.clear();
  mesh.trianglesNear(masterBox, masterInSampled, triangles);
  if (triangles.empty()) return near > 0 ? near : std::numeric_limits<double>::min();

  std::vector<int>& ids = threadScratch<std::vector<int>, struct SampleSideIds>();
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

  std::vector<Sample>& samples = threadScratch<std::vector<Sample>, struct SampleSideSamples>();
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
  const Matrix3 masterToSampled = rotationS.transpose() * rotationM;
  const Pose sampledInMaster{rotationM.transpose() * (side.sampledPose.position - side.masterPose.position),
                             masterToSampled.transpose()};
  // A smooth triangle's estimate of its surface's deepest point. The master is measured at the deepest point
  // itself, not extrapolated from the centre: across a thin part the centre's nearest face need not be the deepest
  // point's. The deepest point is no shallower than the facet's centre, short of the facet's sag; where the master
  // says otherwise, that is not the surface about the centre (the far side of a thin plate), and the estimate is not
  // trusted. Deeper than the limit, it is left out as a sample would be.
  const auto estimate = [&](Sample& sample, const SmoothTriangle& smooth, const Vector3& normal) {
    const DeepestPoint deepest = deepestPoint(smooth, normal);
    if (!(deepest.trust > 0)) return;
    const double depth =
        -masterDistance(sampledInMaster.position + sampledInMaster.rotation * deepest.position, deepestHint).distance;
    const double fade = std::max(smooth.sag, std::numeric_limits<double>::min());
    sample.trust = deepest.trust * std::clamp(1 + (depth - sample.depth) / fade, 0.0, 1.0);
    if (depth > options.ignoreDeeperThan) sample.trust = 0;
    sample.apexDepth = depth;
    if (!(sample.trust > 0 && depth > 0)) return;
    const SurfacePressure pressure = pressureOf(smooth, mesh.corners(sample.id), normal, deepest.position, depth);
    sample.apexWeight = pressure.weight;
    sample.apexArea = pressure.area;
    sample.apexPosition = side.sampledPose.position + rotationS * pressure.centre;
    sample.apexDepth = pressure.depthAtCentre;
  };
  // What a sample says of the gap while nothing touches. A smooth surface estimated to touch where none of its
  // triangles carries pressure yet is touching.
  const auto gapOf = [](const Sample& sample, bool estimated) {
    return estimated && sample.depth <= 0 ? std::max(-sample.reach(), 0.0) : -sample.reach();
  };
  // Samples whose gap is wanted only if nothing touches: outside a convex master (measured through the tree then),
  // and smooth triangles too far from the master to touch but within `near` (estimated then).
  struct Waiting {
    Sample sample;
    Vector3 inMaster, normal;  // the centre in the master's frame; the master's normal about it, sampled frame
    bool outside;              // of a convex master: its distance is the face planes' lower bound
    const SmoothTriangle* smooth;
  };
  std::vector<Waiting>& waiting = threadScratch<std::vector<Waiting>, struct SampleSideWaiting>();
  waiting.clear();
  double nearest = std::numeric_limits<double>::infinity();
  for (int id : ids) {
    const Vector3& local = options.nodeMode ? mesh.mesh().vertices[static_cast<size_t>(id)] : mesh.centre(id);
    const Vector3 inMaster = sampledInMaster.position + sampledInMaster.rotation * local;
    const SurfacePoint surface = masterDistance(inMaster, hint);
    // Its place and the master's normal in ground are wanted only if it is kept.
    Sample sample{id, -surface.distance, options.nodeMode ? mesh.vertexArea(id) : mesh.area(id), Vector3::Zero(),
                  Vector3::Zero()};
    const Vector3 normal = masterToSampled * surface.normal;
    const bool outside = convexMaster && surface.distance > 0;
    const SmoothTriangle* smooth = options.nodeMode ? nullptr : mesh.smoothTriangle(id);
    bool estimated = false;
    if (smooth) {
      // The surface lies within its facet's sag of the facet, so it is no deeper than the facet's deepest corner
      // (measured against the master's plane about the centre) by more than the sag.
      double deepestCorner = -std::numeric_limits<double>::infinity();
      for (const Vector3& corner : mesh.corners(id)) {
        deepestCorner = std::max(deepestCorner, -normal.dot(corner - local));
      }
      const double reach = sample.depth + deepestCorner + smooth->sag;
      if (reach > 0) {
        estimate(sample, *smooth, normal);
        estimated = true;
      } else if (!(reach > -near)) {
        smooth = nullptr;  // too far for the gap too
      }
    }
    if (outside || (smooth && !estimated)) {
      waiting.push_back({sample, inMaster, normal, outside, estimated ? nullptr : smooth});
      if (!estimated) continue;
    } else {
      nearest = std::min(nearest, gapOf(sample, estimated));
    }
    if (sample.depth > options.ignoreDeeperThan) continue;
    if (sample.depth > 0 || sample.estimateWeight() > 0) {
      sample.position = side.sampledPose.position + rotationS * local;
      sample.masterNormal = rotationM * surface.normal;
      samples.push_back(sample);
    }
  }
  if (samples.empty()) {
    for (Waiting& next : waiting) {
      if (next.outside) next.sample.depth = -masterMesh->nearestSurfacePoint(next.inMaster, &hint).distance;
      if (next.smooth) estimate(next.sample, *next.smooth, next.normal);
      nearest = std::min(nearest, gapOf(next.sample, next.smooth || next.sample.trust > 0));
    }
    return std::min(nearest, near);
  }

  // Patches: samples that share a node (triangle centres) or an edge (nodes) belong together: the links between them.
  std::vector<std::pair<int, int>>& links = threadScratch<std::vector<std::pair<int, int>>, struct SampleSideLinks>();
  links.clear();
  if (options.nodeMode) {
    // ids of the samples are sorted (ids were), so a neighbour is found by binary search.
    for (size_t k = 0; k < samples.size(); ++k) {
      for (int neighbour : mesh.neighbours(samples[k].id)) {
        const auto found = std::lower_bound(samples.begin(), samples.end(), neighbour,
                                            [](const Sample& sample, int id) { return sample.id < id; });
        if (found != samples.end() && found->id == neighbour && found - samples.begin() > static_cast<long>(k)) {
          links.emplace_back(static_cast<int>(k), static_cast<int>(found - samples.begin()));
        }
      }
    }
  } else {
    // Each node remembers the first sample at it, and later samples there link to it: no sort. The nodes are put back
    // as found, so the table serves every mesh (sized to the largest).
    std::vector<int>& sampleAtNode = threadScratch<std::vector<int>, struct SampleSideSampleAtNode>();
    if (sampleAtNode.size() < static_cast<size_t>(mesh.vertexCount())) {
      sampleAtNode.resize(static_cast<size_t>(mesh.vertexCount()), -1);
    }
    for (size_t k = 0; k < samples.size(); ++k) {
      for (int corner : mesh.mesh().triangles[static_cast<size_t>(samples[k].id)]) {
        int& first = sampleAtNode[static_cast<size_t>(corner)];
        if (first < 0) first = static_cast<int>(k);
        else links.emplace_back(first, static_cast<int>(k));
      }
    }
    for (const Sample& sample : samples) {
      for (int corner : mesh.mesh().triangles[static_cast<size_t>(sample.id)]) {
        sampleAtNode[static_cast<size_t>(corner)] = -1;
      }
    }
  }
  std::vector<PatchGroup>& groups = threadScratch<std::vector<PatchGroup>, struct SampleSideGroups>();
  std::vector<double>& reaches = threadScratch<std::vector<double>, struct SampleSideReaches>();
  reaches.resize(samples.size());
  for (size_t k = 0; k < samples.size(); ++k) reaches[k] = samples[k].reach();
  const size_t groupCount = groupPatches(reaches, links, groups);

  struct Patch {
    double weight = 0, depth = 0, area = 0;
    double part = 1;                   // of the force its law gives (PatchGroup::part)
    Vector3 normal = Vector3::Zero();  // summed, then made unit
  };
  std::vector<Patch>& patches = threadScratch<std::vector<Patch>, struct SampleSidePatches>();
  patches.assign(groupCount, Patch{});
  double deepest = 0;
  for (const double reach : reaches) deepest = std::max(deepest, reach);
  // Each group's samples, one list after another: group g's are byPatch[patchStart[g], patchStart[g + 1]).
  std::vector<size_t>& patchStart = threadScratch<std::vector<size_t>, struct SampleSidePatchStart>();
  std::vector<size_t>& byPatch = threadScratch<std::vector<size_t>, struct SampleSideByPatch>();
  patchStart.assign(1, 0);
  byPatch.clear();
  for (size_t g = 0; g < groupCount; ++g) {
    Patch& patch = patches[g];
    patch.part = groups[g].part;
    for (const int k : groups[g].samples) {
      const Sample& sample = samples[static_cast<size_t>(k)];
      const double weight = sample.weight();
      patch.weight += weight;
      patch.normal += weight * sample.masterNormal;
      patch.area += (sample.depth > 0 ? (1 - sample.trust) * sample.area : 0) + sample.trust * sample.apexArea;
      byPatch.push_back(static_cast<size_t>(k));
    }
    patchStart.push_back(byPatch.size());
  }
  // Each patch's law acts at the depth of its rigid approach (lawDepth): its deepest sample's for a curved surface,
  // for a flat one the depth at its centre of pressure, for a smooth one the depth its triangles estimate for its
  // deepest point. The samples are weighted by area × depth, not by area (as analytical polygons are, whose area
  // grows from nothing), and the estimates by the pressure over their triangle: a sample that begins to penetrate
  // then moves nothing.
  std::vector<DepthSample>& patchSamples = threadScratch<std::vector<DepthSample>, struct SampleSidePatchSamples>();
  // Per sample of the patch; per estimate.
  std::vector<double>& patchTilts = threadScratch<std::vector<double>, struct SampleSidePatchTilts>();
  std::vector<double>& estimateWeights = threadScratch<std::vector<double>, struct SampleSideEstimateWeights>();
  std::vector<size_t>& sampleOf = threadScratch<std::vector<size_t>, struct SampleSideSampleOf>();
  // Each patch's points, all with its depth, normal and area, each carrying its part of the patch's force: together
  // the law's force once per patch, its elastic part acting at the weighted centre, while damping and friction see
  // each point's own velocity (so a face rocking on a face is damped, and a spinning contact feels friction round
  // its axis). On the master surface where the point meets it, and the patch's depth inside from there.
  const auto addPoint = [&](const Patch& patch, const Vector3& onSampled, double depth, const Vector3& masterNormal,
                            double weight, double tilt) {
    ContactPoint point;
    // The normal points from B to A: the master's outward normal when A is sampled (B is master), and the other
    // way when B is sampled.
    point.normal = side.sampledIsA ? patch.normal : Vector3(-patch.normal);
    point.depth = patch.depth;
    point.tilt = tilt;
    point.area = patch.area;
    point.share = share * patch.part * weight / patch.weight;
    const Vector3 onMaster = onSampled + depth * masterNormal;
    if (side.sampledIsA) {
      point.pointOnB = onMaster;
      point.pointOnA = onMaster - patch.depth * point.normal;
    } else {
      point.pointOnA = onMaster;
      point.pointOnB = onMaster + patch.depth * point.normal;
    }
    points.push_back(point);
  };
  for (size_t p = 0; p < patches.size(); ++p) {
    Patch& patch = patches[p];
    patch.normal.normalize();
    // The points of surfaces first, then the estimates of smooth surfaces' deepest points (a smooth triangle trusted
    // in part gives both).
    patchSamples.clear();
    sampleOf.clear();
    estimateWeights.clear();
    for (size_t at = patchStart[p]; at < patchStart[p + 1]; ++at) {
      const Sample& sample = samples[byPatch[at]];
      if (sample.surfaceWeight() > 0) {
        patchSamples.push_back({sample.position, sample.depth, sample.surfaceWeight()});
        sampleOf.push_back(byPatch[at]);
      }
    }
    const size_t surfaceCount = patchSamples.size();
    for (size_t at = patchStart[p]; at < patchStart[p + 1]; ++at) {
      const Sample& sample = samples[byPatch[at]];
      if (sample.estimateWeight() > 0) {
        patchSamples.push_back({sample.apexPosition, sample.apexDepth, sample.trust * sample.apexArea, sample.apexArea});
        estimateWeights.push_back(sample.estimateWeight());
      }
    }
    patchTilts.resize(patchSamples.size());
    patch.depth = lawDepth(patchSamples, patch.normal, patchTilts, kMeshLineSpread, kMeshEnteringMeasure);
    for (size_t j = 0; j < surfaceCount; ++j) {
      const Sample& sample = samples[sampleOf[j]];
      addPoint(patch, sample.position, sample.depth, sample.masterNormal, patchSamples[j].measure, patchTilts[j]);
    }
    addEstimatePoints(std::span<const DepthSample>(patchSamples).subspan(surfaceCount), estimateWeights,
                      std::span<const double>(patchTilts).subspan(surfaceCount), mesh.boundingRadius(),
                      [&](const Vector3& at, double depth, double weight, double tilt) {
                        addPoint(patch, at, depth, patch.normal, weight, tilt);
                      });
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
