#include "mesh_geometry.h"

#include "fcl_routines.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <unordered_map>

#include "solver/core/thread_scratch.h"

namespace lodestone {

using TreeNode = MeshTreeNode;

// FCL's tree, built once and kept as an array of TreeNodes, which the walks read at about half the cost of FCL's own
// nodes (boxes given by corners; children and leaves behind accessors): it serves both queries.
struct MeshGeometry::Hierarchy {
  std::vector<TreeNode> nodes;
};

namespace {

// Which part of a triangle is nearest a point: a corner (0–2), an edge (3 + k: from corner k to k+1) or the face.
enum Feature { Corner0, Corner1, Corner2, Edge01, Edge12, Edge20, Face };

// The nearest point of triangle abc to p and the feature it lies on (Ericson, Real-Time Collision Detection §5.1.5).
Vector3 nearestOnTriangle(const Vector3& p, const Vector3& a, const Vector3& b, const Vector3& c, Feature& feature) {
  const Vector3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return feature = Corner0, a;
  const Vector3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return feature = Corner1, b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return feature = Edge01, a + (d1 / (d1 - d3)) * ab;
  const Vector3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return feature = Corner2, c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return feature = Edge20, a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    return feature = Edge12, b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  }
  const double denominator = 1.0 / (va + vb + vc);
  feature = Face;
  return a + ab * (vb * denominator) + ac * (vc * denominator);
}

double squaredDistanceToBox(const Vector3& point, const TreeNode& box) {
  return ((point - box.centre).cwiseAbs() - box.half).cwiseMax(0.0).squaredNorm();
}

// Depth first over the tree, nearer nodes first: `bound(node)` is a lower bound of what a node's triangles can
// give, and a node whose bound is not below `limit()` (which may fall as leaves are found) is passed over; each
// leaf's triangle goes to `leaf`. Each node's bound is computed once, when its parent is opened, and kept on the
// stack with it.
template <class Bound, class Limit, class Leaf>
void walkTree(const std::vector<TreeNode>& nodes, Bound bound, Limit limit, Leaf leaf) {
  struct Entry {
    int node;
    double bound;
  };
  // FCL splits at the mean, so its depth has no small bound: the stack grows as needed.
  std::vector<Entry>& stack = threadScratch<std::vector<Entry>, struct WalkTreeStack>();
  stack.clear();
  if (!nodes.empty()) stack.push_back({0, bound(nodes.front())});
  while (!stack.empty()) {
    const Entry entry = stack.back();
    stack.pop_back();
    if (!(entry.bound < limit())) continue;
    const TreeNode& node = nodes[static_cast<size_t>(entry.node)];
    if (node.child < 0) {
      leaf(-1 - node.child);
      continue;
    }
    const Entry left{node.child, bound(nodes[static_cast<size_t>(node.child)])};
    const Entry right{node.child + 1, bound(nodes[static_cast<size_t>(node.child) + 1])};
    const bool leftFirst = !(right.bound < left.bound);
    stack.push_back(leftFirst ? right : left);  // the one pushed last is opened first
    stack.push_back(leftFirst ? left : right);
  }
}

}  // namespace

MeshGeometry::MeshGeometry(const TriangleMesh& mesh, double creaseAngle) : mesh_(weldCoincidentVertices(mesh)) {
  const size_t triangleCount = mesh_.triangles.size(), vertexCount = mesh_.vertices.size();
  centres_.resize(triangleCount);
  normals_.resize(triangleCount);
  areas_.resize(triangleCount);
  vertexAreas_.assign(vertexCount, 0.0);
  vertexNormals_.assign(vertexCount, Vector3::Zero());
  edgeNormals_.resize(triangleCount);
  std::vector<std::vector<int>> adjacent(vertexCount);
  std::unordered_map<long long, int> edgeOwner;  // directed edge (from, to) -> triangle
  const auto edgeKey = [vertexCount](int from, int to) {
    return static_cast<long long>(from) * static_cast<long long>(vertexCount) + to;
  };
  for (size_t t = 0; t < triangleCount; ++t) {
    const std::array<int, 3>& corners = mesh_.triangles[t];
    const Vector3& a = mesh_.vertices[static_cast<size_t>(corners[0])];
    const Vector3& b = mesh_.vertices[static_cast<size_t>(corners[1])];
    const Vector3& c = mesh_.vertices[static_cast<size_t>(corners[2])];
    const Vector3 cross = (b - a).cross(c - a);
    areas_[t] = 0.5 * cross.norm();
    normals_[t] = cross.normalized();
    centres_[t] = (a + b + c) / 3.0;
    totalArea_ += areas_[t];
    for (int k = 0; k < 3; ++k) {
      const int here = corners[static_cast<size_t>(k)];
      const int next = corners[static_cast<size_t>((k + 1) % 3)];
      const int previous = corners[static_cast<size_t>((k + 2) % 3)];
      vertexAreas_[static_cast<size_t>(here)] += areas_[t] / 3.0;
      const Vector3& corner = mesh_.vertices[static_cast<size_t>(here)];
      const Vector3 toNext = (mesh_.vertices[static_cast<size_t>(next)] - corner).normalized();
      const Vector3 toPrevious = (mesh_.vertices[static_cast<size_t>(previous)] - corner).normalized();
      const double angle = std::acos(std::clamp(toNext.dot(toPrevious), -1.0, 1.0));
      vertexNormals_[static_cast<size_t>(here)] += angle * normals_[t];
      adjacent[static_cast<size_t>(here)].push_back(next);
      adjacent[static_cast<size_t>(here)].push_back(previous);
      edgeOwner[edgeKey(here, next)] = static_cast<int>(t);
    }
  }
  // Each edge's pseudo-normal is the sum of its two faces (a closed, consistently wound mesh: the twin runs the
  // other way).
  std::vector<std::array<int, 3>> twins(triangleCount);
  for (size_t t = 0; t < triangleCount; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int here = mesh_.triangles[t][static_cast<size_t>(k)];
      const int next = mesh_.triangles[t][static_cast<size_t>((k + 1) % 3)];
      const auto twin = edgeOwner.find(edgeKey(next, here));
      twins[t][static_cast<size_t>(k)] = twin != edgeOwner.end() ? twin->second : -1;
      const Vector3 other = twin != edgeOwner.end() ? normals_[static_cast<size_t>(twin->second)] : normals_[t];
      edgeNormals_[t][static_cast<size_t>(k)] = normals_[t] + other;
    }
  }
  smooth_ = SmoothSurface(mesh_, normals_, twins, creaseAngle);
  neighbourStart_.assign(vertexCount + 1, 0);
  for (size_t v = 0; v < vertexCount; ++v) {
    std::vector<int>& list = adjacent[v];
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    neighbourStart_[v + 1] = neighbourStart_[v] + static_cast<int>(list.size());
    neighbourList_.insert(neighbourList_.end(), list.begin(), list.end());
  }

  bounds_ = {Vector3::Constant(std::numeric_limits<double>::infinity()),
             Vector3::Constant(-std::numeric_limits<double>::infinity())};
  for (const Vector3& vertex : mesh_.vertices) {
    bounds_.min = bounds_.min.cwiseMin(vertex);
    bounds_.max = bounds_.max.cwiseMax(vertex);
    boundingRadius_ = std::max(boundingRadius_, vertex.norm());
  }

  findFacePlanes();

  hierarchy_ = std::make_unique<Hierarchy>();
  hierarchy_->nodes = fclRoutines().boundingBoxTree(mesh_);
}

MeshGeometry::~MeshGeometry() = default;

void MeshGeometry::findFacePlanes() {
  // Triangles whose planes agree to a part in 1e9 of the mesh's size are one face.
  const double tolerance = 1e-9 * std::max(boundingRadius_, (bounds_.max - bounds_.min).norm());
  std::vector<FacePlane> planes;
  for (size_t t = 0; t < normals_.size(); ++t) {
    const Vector3& normal = normals_[t];
    const double offset = normal.dot(centres_[t]);
    const auto same = [&](const FacePlane& plane) {
      return (plane.normal - normal).norm() * boundingRadius_ <= tolerance &&
             std::fabs(plane.offset - offset) <= tolerance;
    };
    if (std::none_of(planes.begin(), planes.end(), same)) {
      if (static_cast<int>(planes.size()) == kMaxFacePlanes) return;
      planes.push_back({normal, offset});
    }
  }
  // Convex when every node lies on or below every face plane.
  for (const FacePlane& plane : planes) {
    for (const Vector3& vertex : mesh_.vertices) {
      if (plane.normal.dot(vertex) - plane.offset > tolerance) return;
    }
  }
  facePlanes_ = std::move(planes);
}

std::array<Vector3, 3> MeshGeometry::corners(int triangle) const {
  const std::array<int, 3>& indices = mesh_.triangles[static_cast<size_t>(triangle)];
  return {mesh_.vertices[static_cast<size_t>(indices[0])], mesh_.vertices[static_cast<size_t>(indices[1])],
          mesh_.vertices[static_cast<size_t>(indices[2])]};
}

std::span<const int> MeshGeometry::neighbours(int vertex) const {
  const int begin = neighbourStart_[static_cast<size_t>(vertex)];
  const int end = neighbourStart_[static_cast<size_t>(vertex) + 1];
  return {neighbourList_.data() + begin, static_cast<size_t>(end - begin)};
}

void MeshGeometry::trianglesNear(const Aabb& region, const Pose& regionPose, std::vector<int>& triangles) const {
  // The tree walked with a cheap conservative overlap test rather than through fcl::collide, whose exact tests
  // (15-axis OBB separation per node, GJK per triangle) cost more than the sample queries they would save. A node
  // is skipped when one of the six face axes of the two boxes separates them; the nine edge–edge axes are not
  // tried, so a few nodes that do not meet the region are opened, never the reverse.
  const std::vector<TreeNode>& nodes = hierarchy_->nodes;
  const Vector3 regionHalf = 0.5 * (region.max - region.min);
  const Vector3 regionCentre = regionPose.position + regionPose.rotation * (0.5 * (region.max + region.min));
  const Matrix3& axes = regionPose.rotation;  // the region's axes, in the mesh frame
  const Matrix3 absoluteAxes = axes.cwiseAbs();
  // Half-widths of the region along the mesh axes.
  const Vector3 regionReach = absoluteAxes * regionHalf;
  const auto apart = [&](const Vector3& nodeCentre, const Vector3& nodeHalf) {
    const Vector3 offset = regionCentre - nodeCentre;
    if ((offset.cwiseAbs() - nodeHalf - regionReach).maxCoeff() > 0) return true;  // the mesh axes
    const Vector3 offsetInRegion = axes.transpose() * offset;
    const Vector3 nodeReach = absoluteAxes.transpose() * nodeHalf;
    return (offsetInRegion.cwiseAbs() - regionHalf - nodeReach).maxCoeff() > 0;  // the region's axes
  };
  // Every node that may meet the region opens; no order among them matters.
  const size_t first = triangles.size();
  std::vector<int>& stack = threadScratch<std::vector<int>, struct TrianglesNearStack>();
  stack.clear();
  if (!nodes.empty()) stack.push_back(0);
  while (!stack.empty()) {
    const TreeNode& node = nodes[static_cast<size_t>(stack.back())];
    stack.pop_back();
    if (apart(node.centre, node.half)) continue;
    if (node.child < 0) {
      triangles.push_back(-1 - node.child);
    } else {
      stack.push_back(node.child + 1);
      stack.push_back(node.child);
    }
  }
  std::sort(triangles.begin() + static_cast<std::ptrdiff_t>(first), triangles.end());
}

std::optional<SurfacePoint> MeshGeometry::insideConvex(const Vector3& point) const {
  if (facePlanes_.empty()) return std::nullopt;
  // Inside a convex body the nearest surface point lies on the nearest face plane, within its face.
  const SurfacePoint nearest = nearestFacePlane(point);
  if (nearest.distance > 0) return std::nullopt;
  return nearest;
}

SurfacePoint MeshGeometry::nearestFacePlane(const Vector3& point) const {
  const FacePlane* nearestPlane = &facePlanes_.front();
  double height = -std::numeric_limits<double>::infinity();  // above the nearest plane: ≤ 0 inside
  for (const FacePlane& plane : facePlanes_) {
    const double above = plane.normal.dot(point) - plane.offset;
    if (above > height) {
      height = above;
      nearestPlane = &plane;
    }
  }
  SurfacePoint result;
  result.distance = height;
  result.nearest = point - height * nearestPlane->normal;
  result.normal = nearestPlane->normal;
  return result;
}

SurfacePoint MeshGeometry::nearestSurfacePoint(const Vector3& point, int* hint) const {
  if (const std::optional<SurfacePoint> inside = insideConvex(point)) return *inside;
  double best = std::numeric_limits<double>::infinity();
  int bestTriangle = -1;
  Feature bestFeature = Face;
  Vector3 bestPoint = Vector3::Zero();
  const auto tryTriangle = [&](int t) {
    const auto& corners = mesh_.triangles[static_cast<size_t>(t)];
    Feature feature = Face;
    const Vector3 nearest = nearestOnTriangle(point, mesh_.vertices[static_cast<size_t>(corners[0])],
                                              mesh_.vertices[static_cast<size_t>(corners[1])],
                                              mesh_.vertices[static_cast<size_t>(corners[2])], feature);
    const double squared = (point - nearest).squaredNorm();
    if (squared < best || (squared == best && t < bestTriangle)) {
      best = squared;
      bestTriangle = t;
      bestFeature = feature;
      bestPoint = nearest;
    }
  };
  // A triangle near the answer first makes the search prune at once: a point inside the mesh lies inside the boxes
  // of many nodes, which only a small `best` rules out.
  if (hint && *hint >= 0 && *hint < triangleCount()) tryTriangle(*hint);
  walkTree(
      hierarchy_->nodes, [&](const TreeNode& box) { return squaredDistanceToBox(point, box); }, [&] { return best; },
      tryTriangle);
  SurfacePoint result;
  if (bestTriangle < 0) return result;
  if (hint) *hint = bestTriangle;
  const auto& corners = mesh_.triangles[static_cast<size_t>(bestTriangle)];
  Vector3 pseudoNormal;
  if (bestFeature == Face) pseudoNormal = normals_[static_cast<size_t>(bestTriangle)];
  else if (bestFeature <= Corner2) pseudoNormal = vertexNormals_[static_cast<size_t>(corners[bestFeature])];
  else pseudoNormal = edgeNormals_[static_cast<size_t>(bestTriangle)][static_cast<size_t>(bestFeature - Edge01)];
  const Vector3 offset = point - bestPoint;
  const double distance = std::sqrt(best);
  const bool inside = offset.dot(pseudoNormal) < 0;
  result.distance = inside ? -distance : distance;
  result.nearest = bestPoint;
  // On the surface (or so near it that the offset has no direction) the feature's own normal serves.
  const double tiny = 1e-12 * (bounds_.max - bounds_.min).norm();
  result.normal =
      distance > tiny ? Vector3((inside ? -offset : offset) / distance) : Vector3(pseudoNormal.normalized());
  return result;
}

}  // namespace lodestone
