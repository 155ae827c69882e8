// Smooth surfaces of meshes: crease-aware corner normals, the osculating sphere or cylinder of each smooth triangle,
// how far its normal may turn before a crease, and the deepest point and pressure it gives against a master.
#include "smooth_surface.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

#include <Eigen/Eigenvalues>

namespace lodestone {

namespace {

double angleBetween(const Vector3& a, const Vector3& b) { return std::atan2(a.cross(b).norm(), a.dot(b)); }

int findRoot(std::vector<int>& parent, int k) {
  while (parent[static_cast<size_t>(k)] != k) {
    parent[static_cast<size_t>(k)] = parent[static_cast<size_t>(parent[static_cast<size_t>(k)])];
    k = parent[static_cast<size_t>(k)];
  }
  return k;
}

// Each corner's normal: the mean of the faces around its node that it reaches without crossing an edge of the crease
// angle or more, each weighted by sin α/(|e₁||e₂|) for its angle α between edges e₁, e₂ at the node (Max 1999,
// "Weights for computing vertex normals from facet normals": exact where the nodes lie on a sphere, and on a
// cylinder tessellated in rings, where the angle weights of Thürmer and Wüthrich are off by up to a degree at a
// level-0 sphere's nodes). A node where a smooth fan still bends by more than the crease angle from one of its
// faces (the tip of a cone) is sharp for that face.
std::vector<std::array<Vector3, 3>> cornerNormals(const TriangleMesh& mesh, std::span<const Vector3> faceNormals,
                                                  std::span<const std::array<int, 3>> twins, double creaseAngle) {
  const size_t triangleCount = mesh.triangles.size();
  std::vector<int> parent(3 * triangleCount);
  std::iota(parent.begin(), parent.end(), 0);
  const auto cornerOf = [&](size_t t, int vertex) {
    const auto& corners = mesh.triangles[t];
    return static_cast<int>(3 * t) + static_cast<int>(std::find(corners.begin(), corners.end(), vertex) - corners.begin());
  };
  for (size_t t = 0; t < triangleCount; ++t) {
    for (int k = 0; k < 3; ++k) {
      const int twin = twins[t][static_cast<size_t>(k)];
      if (twin <= static_cast<int>(t)) continue;  // each edge once (and none without a twin)
      if (angleBetween(faceNormals[t], faceNormals[static_cast<size_t>(twin)]) >= creaseAngle) continue;
      for (const int corner : {k, (k + 1) % 3}) {
        const int a = findRoot(parent, static_cast<int>(3 * t) + corner);
        const int b = findRoot(parent, cornerOf(static_cast<size_t>(twin), mesh.triangles[t][static_cast<size_t>(corner)]));
        parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
      }
    }
  }
  std::vector<Vector3> sums(3 * triangleCount, Vector3::Zero());
  for (size_t t = 0; t < triangleCount; ++t) {
    for (int k = 0; k < 3; ++k) {
      const auto& corners = mesh.triangles[t];
      const Vector3& at = mesh.vertices[static_cast<size_t>(corners[static_cast<size_t>(k)])];
      const Vector3 next = mesh.vertices[static_cast<size_t>(corners[static_cast<size_t>((k + 1) % 3)])] - at;
      const Vector3 previous = mesh.vertices[static_cast<size_t>(corners[static_cast<size_t>((k + 2) % 3)])] - at;
      const double weight = next.cross(previous).norm() / (next.squaredNorm() * previous.squaredNorm());
      sums[static_cast<size_t>(findRoot(parent, static_cast<int>(3 * t) + k))] += weight * faceNormals[t];
    }
  }
  std::vector<std::array<Vector3, 3>> normals(triangleCount);
  for (size_t t = 0; t < triangleCount; ++t) {
    for (int k = 0; k < 3; ++k) {
      const Vector3 normal = sums[static_cast<size_t>(findRoot(parent, static_cast<int>(3 * t) + k))].normalized();
      normals[t][static_cast<size_t>(k)] = angleBetween(normal, faceNormals[t]) < creaseAngle ? normal : faceNormals[t];
    }
  }
  return normals;
}

// The osculating sphere or cylinder of a triangle from its corners and their normals: the shape operator S that
// takes each edge to the change of normal along it (least squares in the facet's plane, made symmetric). Nothing
// where the triangle is flat, concave, or so nearly flat that its normals turn by less than 1e-6 across it.
std::optional<SmoothTriangle> fitTriangle(const std::array<Vector3, 3>& v, const std::array<Vector3, 3>& n,
                                          const Vector3& faceNormal) {
  const Vector3 first = (v[1] - v[0]).normalized(), second = faceNormal.cross(first);
  Eigen::Matrix2d edges, turns;
  for (int k = 0; k < 2; ++k) {
    const Vector3 edge = v[static_cast<size_t>(k) + 1] - v[0], turn = n[static_cast<size_t>(k) + 1] - n[0];
    edges.col(k) << first.dot(edge), second.dot(edge);
    turns.col(k) << first.dot(turn), second.dot(turn);
  }
  Eigen::Matrix2d shape = turns * edges.inverse();
  shape = 0.5 * (shape + shape.transpose()).eval();
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> principal(shape);
  const double longest = std::max({(v[1] - v[0]).norm(), (v[2] - v[1]).norm(), (v[0] - v[2]).norm()});
  SmoothTriangle triangle;
  triangle.curvature = principal.eigenvalues()[1];
  if (!(triangle.curvature * longest > 1e-6)) return std::nullopt;
  triangle.flatness = std::max(0.0, principal.eigenvalues()[0]) / triangle.curvature;
  if (triangle.flatness < 0.01) triangle.flatness = 0;
  triangle.normal = faceNormal;
  const Eigen::Vector2d curved = principal.eigenvectors().col(1);
  triangle.curved = (curved.x() * first + curved.y() * second).normalized();
  triangle.flat = faceNormal.cross(triangle.curved);
  triangle.centre = (v[0] + v[1] + v[2] - (n[0] + n[1] + n[2]) / triangle.curvature) / 3;
  // A triangle lies within a circle of radius longest/√3 (Jung), over which a sphere of curvature κ₁ rises κ₁r²/2.
  triangle.sag = triangle.curvature * longest * longest / 6;
  for (int family = 0; family < 2; ++family) {
    const Vector3& direction = family == 0 ? triangle.curved : triangle.flat;
    double low = 0, high = 0;
    for (const Vector3& normal : n) {
      const double angle = std::atan2(normal.dot(direction), normal.dot(faceNormal));
      low = std::min(low, angle);
      high = std::max(high, angle);
    }
    triangle.spread[static_cast<size_t>(family)] = std::max(high - low, 1e-3);
    triangle.reach[static_cast<size_t>(2 * family)] = high;  // the facet's own, until the chains below add to it
    triangle.reach[static_cast<size_t>(2 * family + 1)] = -low;
  }
  return triangle;
}

// Two-point and three-point Gauss–Legendre rules on [−1, 1].
constexpr double kGauss3Node = 0.7745966692414834;
constexpr double kGauss3Nodes[3] = {-kGauss3Node, 0.0, kGauss3Node};
constexpr double kGauss3Weights[3] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};

// ∫∫ p, ∫∫ t·p and the area where p > 0 over the triangle with corners (s_i, t_i), where p = max(0, δ − ½κs·s² − ½κt·t²): across t in
// closed form, along s by three Gauss points between the corners and the ends of the pressure's span, so that for a
// cylinder (κt = 0, the integrand a polynomial of degree 4 between them) it is exact.
struct PressureIntegral {
  double force = 0, moment = 0, area = 0;  // area: of the part of the triangle where p > 0
};
PressureIntegral integratePressure(std::array<double, 3> s, std::array<double, 3> t, double depth, double curvatureS,
                                   double curvatureT) {
  PressureIntegral result;
  if (!(depth > 0)) return result;
  std::array<int, 3> order{0, 1, 2};
  std::sort(order.begin(), order.end(), [&](int a, int b) { return s[static_cast<size_t>(a)] < s[static_cast<size_t>(b)]; });
  const auto sAt = [&](int k) { return s[static_cast<size_t>(order[static_cast<size_t>(k)])]; };
  const auto tAt = [&](int k) { return t[static_cast<size_t>(order[static_cast<size_t>(k)])]; };
  const double span = sAt(2) - sAt(0);
  if (!(span > 0)) return result;
  const double halfWidth = std::sqrt(2 * depth / curvatureS);
  const auto along = [&](int from, int to, double x) {
    const double length = sAt(to) - sAt(from);
    return length > 0 ? tAt(from) + (tAt(to) - tAt(from)) * ((x - sAt(from)) / length) : tAt(to);
  };
  const auto addPiece = [&](double from, double to) {
    if (!(to > from)) return;
    for (int g = 0; g < 3; ++g) {
      const double x = 0.5 * (from + to) + 0.5 * (to - from) * kGauss3Nodes[g];
      const double height = depth - 0.5 * curvatureS * x * x;
      if (!(height > 0)) continue;
      const double across = along(0, 2, x), other = x < sAt(1) ? along(0, 1, x) : along(1, 2, x);
      double low = std::min(across, other), high = std::max(across, other);
      if (curvatureT > 0) {
        const double reach = std::sqrt(2 * height / curvatureT);
        low = std::max(low, -reach);
        high = std::min(high, reach);
        if (!(high > low)) continue;
      }
      const double weight = 0.5 * (to - from) * kGauss3Weights[g];
      result.area += weight * (high - low);
      result.force += weight * (height * (high - low) - curvatureT / 6 * (high * high * high - low * low * low));
      result.moment += weight * (0.5 * height * (high * high - low * low) -
                                 curvatureT / 8 * (high * high * high * high - low * low * low * low));
    }
  };
  const double from = std::max(sAt(0), -halfWidth), to = std::min(sAt(2), halfWidth);
  const double middle = std::clamp(sAt(1), from, to);
  addPiece(from, middle);
  addPiece(middle, to);
  return result;
}

}  // namespace

SmoothSurface::SmoothSurface(const TriangleMesh& mesh, std::span<const Vector3> faceNormals,
                             std::span<const std::array<int, 3>> twins, double creaseAngle) {
  if (!(creaseAngle > 0)) return;
  const size_t triangleCount = mesh.triangles.size();
  const std::vector<std::array<Vector3, 3>> normals = cornerNormals(mesh, faceNormals, twins, creaseAngle);
  indexOf_.assign(triangleCount, -1);
  const auto cornersOf = [&](size_t t) {
    std::array<Vector3, 3> corners;
    for (size_t k = 0; k < 3; ++k) corners[k] = mesh.vertices[static_cast<size_t>(mesh.triangles[t][k])];
    return corners;
  };
  for (size_t t = 0; t < triangleCount; ++t) {
    const bool bent = std::any_of(normals[t].begin(), normals[t].end(),
                                  [&](const Vector3& normal) { return angleBetween(normal, faceNormals[t]) > 1e-9; });
    if (!bent) continue;
    if (std::optional<SmoothTriangle> fitted = fitTriangle(cornersOf(t), normals[t], faceNormals[t])) {
      indexOf_[t] = static_cast<int>(triangles_.size());
      triangles_.push_back(*fitted);
      largestSag_ = std::max(largestSag_, fitted->sag);
    }
  }
  if (triangles_.empty()) {
    indexOf_.clear();
    return;
  }

  // The reach of each smooth triangle towards ±curved and ±flat: walk from its centre straight on across smooth
  // edges (the direction carried into each next facet's plane, and kept as that facet's principal direction of the
  // same kind) until an edge of the crease angle, a flat triangle or kApexReach, adding up the turns. Each step
  // leads to one next (triangle, direction), so every walk ends in a crease, in a walk done before, or in a loop
  // (round a cylinder: no crease ever), and the whole costs one step per triangle and direction.
  const size_t nodeCount = 4 * triangles_.size();
  std::vector<int> next(nodeCount, -1), triangleOfNode(nodeCount);
  std::vector<double> turn(nodeCount, 0.0);
  for (size_t t = 0; t < triangleCount; ++t) {
    const int index = indexOf_[t];
    if (index < 0) continue;
    const SmoothTriangle& here = triangles_[static_cast<size_t>(index)];
    const std::array<Vector3, 3> corners = cornersOf(t);
    const Vector3 centre = (corners[0] + corners[1] + corners[2]) / 3;
    for (int direction = 0; direction < 4; ++direction) {
      const size_t node = 4 * static_cast<size_t>(index) + static_cast<size_t>(direction);
      triangleOfNode[node] = static_cast<int>(t);
      const Vector3 heading = (direction < 2 ? here.curved : here.flat) * (direction % 2 == 0 ? 1.0 : -1.0);
      // The edge the ray from the centre leaves through.
      int exit = -1;
      double nearest = std::numeric_limits<double>::infinity();
      for (int k = 0; k < 3; ++k) {
        const Vector3 edge = corners[static_cast<size_t>((k + 1) % 3)] - corners[static_cast<size_t>(k)];
        const Vector3 offset = corners[static_cast<size_t>(k)] - centre;
        const double denominator = heading.cross(edge).dot(here.normal);
        if (std::abs(denominator) < 1e-300) continue;
        const double distance = offset.cross(edge).dot(here.normal) / denominator;
        const double along = offset.cross(heading).dot(here.normal) / denominator;
        if (distance > 0 && along >= -1e-9 && along <= 1 + 1e-9 && distance < nearest) {
          nearest = distance;
          exit = k;
        }
      }
      const int twin = exit < 0 ? -1 : twins[t][static_cast<size_t>(exit)];
      if (twin < 0 || indexOf_[static_cast<size_t>(twin)] < 0) continue;
      if (angleBetween(faceNormals[t], faceNormals[static_cast<size_t>(twin)]) >= creaseAngle) continue;
      const SmoothTriangle& there = triangles_[static_cast<size_t>(indexOf_[static_cast<size_t>(twin)])];
      const Vector3 carried = heading - heading.dot(there.normal) * there.normal;
      const Vector3& axis = direction < 2 ? there.curved : there.flat;
      const int family = direction / 2;
      next[node] = 4 * indexOf_[static_cast<size_t>(twin)] + 2 * family + (axis.dot(carried) >= 0 ? 0 : 1);
      turn[node] = angleBetween(faceNormals[t], faceNormals[static_cast<size_t>(twin)]);
    }
  }
  // Each walk's total, from its end back: a node's reach is its turn onto the next plus the next's reach; where no
  // next (a crease), the facet's own corner normals'. Nodes on a loop reach kApexReach.
  std::vector<double> total(nodeCount, 0.0);
  std::vector<char> state(nodeCount, 0);  // 0 not yet, 1 on the current walk, 2 done
  std::vector<size_t> walk;
  const auto ownReach = [&](size_t node) { return triangles_[node / 4].reach[node % 4]; };
  for (size_t start = 0; start < nodeCount; ++start) {
    if (state[start] == 2) continue;
    walk.clear();
    size_t node = start;
    while (state[node] == 0) {
      state[node] = 1;
      walk.push_back(node);
      if (next[node] < 0) break;
      node = static_cast<size_t>(next[node]);
    }
    if (state[node] == 1 && next[node] >= 0) {
      // A loop: its members, from `node` on, reach as far as any estimate may.
      for (auto at = std::find(walk.begin(), walk.end(), node); at != walk.end(); ++at) {
        total[*at] = kApexReach;
        state[*at] = 2;
      }
    }
    for (auto at = walk.rbegin(); at != walk.rend(); ++at) {
      if (state[*at] == 2) continue;
      total[*at] = next[*at] < 0 ? ownReach(*at)
                                 : std::min(kApexReach, turn[*at] + total[static_cast<size_t>(next[*at])]);
      state[*at] = 2;
    }
  }
  for (size_t node = 0; node < nodeCount; ++node) {
    SmoothTriangle& triangle = triangles_[node / 4];
    triangle.reach[node % 4] = std::min(kApexReach, std::max(total[node], ownReach(node)));
    triangle.tangentOfReach[node % 4] = std::tan(triangle.reach[node % 4]);
  }
}

DeepestPoint deepestPoint(const SmoothTriangle& triangle, const Vector3& masterNormal) {
  DeepestPoint deepest;
  // The deepest point's normal points into the master: against the master's, with the part along the flat
  // direction taken out (a cylinder's deepest line runs along it, whatever the tilt).
  const Vector3 into = -masterNormal;
  Vector3 normal = into - (1 - triangle.flatness) * into.dot(triangle.flat) * triangle.flat;
  if (!(normal.norm() > 1e-9)) return deepest;
  normal.normalize();
  deepest.position = triangle.centre + normal / triangle.curvature;
  // Within reach when within the tangent of the reach, without an angle; beyond it, faded by the angle past it.
  const double up = normal.dot(triangle.normal);
  const auto trustAlong = [&](int family) {
    const Vector3& direction = family == 0 ? triangle.curved : triangle.flat;
    const double across = normal.dot(direction);
    const size_t side = static_cast<size_t>(2 * family + (across >= 0 ? 0 : 1));
    if (up > 0 && std::abs(across) <= triangle.tangentOfReach[side] * up) return 1.0;
    const double beyond = std::atan2(std::abs(across), up) - triangle.reach[side];
    return std::clamp(1 - beyond / triangle.spread[static_cast<size_t>(family)], 0.0, 1.0);
  };
  deepest.trust = trustAlong(0);
  if (triangle.flatness > 0 && deepest.trust > 0) deepest.trust = std::min(deepest.trust, trustAlong(1));
  return deepest;
}

SurfacePressure pressureOf(const SmoothTriangle& triangle, const std::array<Vector3, 3>& corners,
                           const Vector3& masterNormal, const Vector3& deepest, double depth) {
  SurfacePressure pressure;
  pressure.centre = deepest;
  pressure.depthAtCentre = depth;
  // The footprint on the master's plane: t along the flat direction, s across it, both from the deepest point. Where
  // the triangle lies wholly beyond the pressure's span, nothing of it is pressed.
  Vector3 alongFlat = triangle.flat - triangle.flat.dot(masterNormal) * masterNormal;
  if (!(alongFlat.norm() > 1e-9)) alongFlat = masterNormal.unitOrthogonal();
  alongFlat.normalize();
  const Vector3 acrossFlat = masterNormal.cross(alongFlat);
  std::array<double, 3> s{}, t{};
  for (size_t k = 0; k < 3; ++k) s[k] = acrossFlat.dot(corners[k] - deepest);
  const double halfWidth = std::sqrt(2 * depth / triangle.curvature);
  if (std::min({s[0], s[1], s[2]}) >= halfWidth || std::max({s[0], s[1], s[2]}) <= -halfWidth) return pressure;
  for (size_t k = 0; k < 3; ++k) t[k] = alongFlat.dot(corners[k] - deepest);
  const PressureIntegral integral =
      integratePressure(s, t, depth, triangle.curvature, triangle.flatness * triangle.curvature);
  if (!(integral.force > 0)) return pressure;
  pressure.weight = integral.force;
  pressure.area = integral.area;
  // Along the flat direction the pressure's centre, on the deepest line; a sphere's whole pressure at its apex.
  const double cosine = alongFlat.dot(triangle.flat);
  if (std::abs(cosine) > 0.1) {
    const Vector3 shift = (1 - triangle.flatness) * (integral.moment / integral.force / cosine) * triangle.flat;
    pressure.centre += shift;
    pressure.depthAtCentre -= masterNormal.dot(shift);
  }
  return pressure;
}

}  // namespace lodestone
