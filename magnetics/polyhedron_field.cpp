// The polyhedron's field as the sum of its charged triangles' fields. With ρ the in-plane part of r − r', a triangle
// of charge σ and outward unit normal n gives (σ/4π) ∫ (r − r')/|r − r'|³ dS' = (σ/4π) (n·Ω + Σ_edges m_e ∫_e dl/R):
// Ω is the solid angle it subtends, signed positive on the side n points to, and the in-plane part ∫ ∇'(1/R) dS' is
// by the divergence theorem a line integral over its edges, m_e the in-plane normal pointing out of the triangle.
#include "magnetics/polyhedron_field.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace lodestone {
namespace {

// Below this fraction of the triangles' charges the line coefficient of an edge is taken as zero: the two triangles
// are coplanar and equally charged (a flat face cut by a tessellation), and the coefficient is the round-off of their
// two computed normals. Dropping it keeps the field finite on such an edge; a true fold so flat that its coefficient
// is below this contributes less than that fraction of the field anyway.
constexpr double kCancelledEdge = 1e-12;

// v − point and |v − point|, for a corner shared by several triangles and edges: computed once per evaluation.
struct VertexOffset {
  Vector3 offset;
  double distance = 0;
};

// ∫ dt / R(t) over [lo, hi], R(t) = √(ρ² + t²), given R(lo) and R(hi); t runs along the edge from the foot of the
// perpendicular from the point, and `startOffset` × `direction` gives ρ. The same integral as cuboid_field.cpp's, with
// the same care: log1p where both ends lie on one side of the foot (far from the edge the faces' terms cancel to the
// dipole field, and the ratio's digits below 1 would be lost), and lo + R(lo) = ρ²/(R(lo) − lo) where they straddle
// it (there lo + R(lo) cancels). Infinite on the edge itself (ρ = 0 with the foot inside, or a distance 0 at an end).
double inverseDistanceIntegral(double lo, double hi, double distanceLo, double distanceHi, const Vector3& startOffset,
                               const Vector3& direction) {
  if (hi <= 0) {  // the integrand is even in t
    std::swap(lo, hi);
    std::swap(distanceLo, distanceHi);
    lo = -lo;
    hi = -hi;
  }
  if (lo >= 0) return std::log1p((hi - lo) * (1 + (hi + lo) / (distanceHi + distanceLo)) / (lo + distanceLo));
  const double rhoSquared = startOffset.cross(direction).squaredNorm();  // not R² − lo², which cancels near the line
  return std::log((hi + distanceHi) * (distanceLo - lo) / rhoSquared);
}

// The undirected edge between two vertices, as (smaller index, larger index).
using EdgeKey = std::pair<int, int>;
EdgeKey edgeKey(int from, int to) { return {std::min(from, to), std::max(from, to)}; }

std::string indexOutOfRangeMessage(size_t triangle, int index, size_t vertexCount) {
  std::ostringstream message;
  message << "triangle " << triangle << " refers to vertex " << index << ", but the mesh has " << vertexCount
          << " vertices (indices 0 to " << static_cast<long>(vertexCount) - 1 << ")";
  return message.str();
}

}  // namespace

double polyhedronVolume(const Polyhedron& polyhedron) {
  double sixTimesVolume = 0;
  for (const auto& [a, b, c] : polyhedron.triangles) {
    sixTimesVolume += polyhedron.vertices[a].dot(polyhedron.vertices[b].cross(polyhedron.vertices[c]));
  }
  return sixTimesVolume / 6;
}

std::string polyhedronMeshProblem(const Polyhedron& polyhedron) {
  if (polyhedron.triangles.empty()) return "the mesh has no triangles";
  const size_t vertexCount = polyhedron.vertices.size();
  // Per undirected edge: how many triangles run along it from the smaller index to the larger, how many the other
  // way, and the first triangle of each way, for the message.
  struct EdgeUse {
    int forward = 0, backward = 0;
    size_t forwardTriangle = 0, backwardTriangle = 0;
  };
  std::map<EdgeKey, EdgeUse> edges;
  for (size_t t = 0; t < polyhedron.triangles.size(); ++t) {
    const auto& corners = polyhedron.triangles[t];
    for (const int index : corners) {
      if (index < 0 || static_cast<size_t>(index) >= vertexCount) return indexOutOfRangeMessage(t, index, vertexCount);
    }
    if (corners[0] == corners[1] || corners[1] == corners[2] || corners[2] == corners[0]) {
      std::ostringstream message;
      message << "triangle " << t << " repeats a vertex (" << corners[0] << ", " << corners[1] << ", " << corners[2]
              << ")";
      return message.str();
    }
    for (int k = 0; k < 3; ++k) {
      const int from = corners[k], to = corners[(k + 1) % 3];
      EdgeUse& use = edges[edgeKey(from, to)];
      if (from < to) {
        if (use.forward++ == 0) use.forwardTriangle = t;
      } else if (use.backward++ == 0) {
        use.backwardTriangle = t;
      }
    }
  }
  for (const auto& [key, use] : edges) {
    if (use.forward == 1 && use.backward == 1) continue;
    std::ostringstream message;
    message << "the edge between vertices " << key.first << " and " << key.second << " ";
    if (use.forward + use.backward == 1) {
      message << "belongs to triangle " << (use.forward == 1 ? use.forwardTriangle : use.backwardTriangle)
              << " only: the mesh is not closed (a magnet's surface must be)";
    } else if (use.forward + use.backward == 2) {
      const size_t first = use.forward == 2 ? use.forwardTriangle : use.backwardTriangle;
      message << "is run the same way by two triangles, " << first << " and another: the triangles are not "
              << "consistently oriented (each must be counter-clockwise seen from outside)";
    } else {
      message << "belongs to " << use.forward + use.backward << " triangles: a closed surface has exactly two at "
              << "every edge";
    }
    return message.str();
  }
  const double volume = polyhedronVolume(polyhedron);
  if (!(volume > 0)) {
    std::ostringstream message;
    message << "the mesh encloses a volume of " << volume << " m³; it must be positive: "
            << (volume < 0 ? "the triangles are clockwise seen from outside (reverse their vertex order)"
                           : "the mesh is flat");
    return message.str();
  }
  return "";
}

PolyhedronField::PolyhedronField(const Polyhedron& polyhedron) {
  const size_t vertexCount = polyhedron.vertices.size();
  // Σ ±σ_f·n_f over an edge's charged triangles, + where the triangle runs along it from the smaller index to the
  // larger, and the largest |σ_f| among them: the edge's coefficient is direction × that sum.
  struct EdgeSum {
    Vector3 signedChargedNormals = Vector3::Zero();
    double largestCharge = 0;
  };
  std::map<EdgeKey, EdgeSum> edgeSums;
  std::vector<int> compactIndex(vertexCount, -1);  // the index in vertices_ of a used vertex
  const auto use = [&](int index) {
    if (compactIndex[index] < 0) {
      compactIndex[index] = static_cast<int>(vertices_.size());
      vertices_.push_back(polyhedron.vertices[index]);
    }
    return compactIndex[index];
  };
  for (size_t t = 0; t < polyhedron.triangles.size(); ++t) {
    const auto& corners = polyhedron.triangles[t];
    for (const int index : corners) {
      if (index < 0 || static_cast<size_t>(index) >= vertexCount) {
        throw std::out_of_range(indexOutOfRangeMessage(t, index, vertexCount));
      }
    }
    const Vector3& a = polyhedron.vertices[corners[0]];
    const Vector3 areaNormal = (polyhedron.vertices[corners[1]] - a).cross(polyhedron.vertices[corners[2]] - a);
    const double doubleArea = areaNormal.norm();
    if (doubleArea == 0) continue;  // no area, no charge
    const Vector3 normal = areaNormal / doubleArea;
    const double charge = polyhedron.magnetisation.dot(normal);
    if (charge == 0) continue;
    triangles_.push_back({{use(corners[0]), use(corners[1]), use(corners[2])}, areaNormal, charge * normal});
    for (int k = 0; k < 3; ++k) {
      const int from = corners[k], to = corners[(k + 1) % 3];
      EdgeSum& sum = edgeSums[edgeKey(from, to)];
      sum.signedChargedNormals += (from < to ? charge : -charge) * normal;
      sum.largestCharge = std::max(sum.largestCharge, std::fabs(charge));
    }
  }
  for (const auto& [key, sum] : edgeSums) {
    if (sum.signedChargedNormals.norm() <= kCancelledEdge * sum.largestCharge) continue;
    const Vector3 along = polyhedron.vertices[key.second] - polyhedron.vertices[key.first];
    const double length = along.norm();
    const Vector3 direction = along / length;  // length > 0: the edge's triangles have area
    // m_f = (the triangle's own direction along the edge) × n_f: pointing out of f across the edge, in f's plane.
    edges_.push_back({use(key.first), use(key.second), direction, length, direction.cross(sum.signedChargedNormals)});
  }
}

Vector3 PolyhedronField::operator()(const Vector3& point) const {
  std::vector<VertexOffset> offsets(vertices_.size());
  for (size_t v = 0; v < vertices_.size(); ++v) {
    offsets[v].offset = vertices_[v] - point;
    offsets[v].distance = offsets[v].offset.norm();
  }
  Vector3 field = Vector3::Zero();
  for (const ChargedTriangle& triangle : triangles_) {
    const VertexOffset& a = offsets[triangle.corners[0]];
    const VertexOffset& b = offsets[triangle.corners[1]];
    const VertexOffset& c = offsets[triangle.corners[2]];
    // van Oosterom & Strackee (IEEE Trans. Biomed. Eng. 30, 1983): tan(Ω/2) = a·(b × c) / D, and a·(b × c) =
    // a·((b − a) × (c − a)), which is −(height above the plane)·2·area: positive on the side the normal points to.
    const double height = -a.offset.dot(triangle.areaNormal);
    // Exactly in the triangle's plane Ω is 0 beside it and ±2π on it, the sign that of a zero: 0 is their mean.
    if (height == 0) continue;
    const double denominator = a.distance * b.distance * c.distance + a.offset.dot(b.offset) * c.distance +
                               a.offset.dot(c.offset) * b.distance + b.offset.dot(c.offset) * a.distance;
    field += 2 * std::atan2(height, denominator) * triangle.chargedNormal;
  }
  for (const ChargedEdge& edge : edges_) {
    const VertexOffset& start = offsets[edge.start];
    const VertexOffset& end = offsets[edge.end];
    const double lo = start.offset.dot(edge.direction);
    field += inverseDistanceIntegral(lo, lo + edge.length, start.distance, end.distance, start.offset, edge.direction) *
             edge.coefficient;
  }
  return field / (4 * std::numbers::pi);
}

bool insidePolyhedron(const Polyhedron& polyhedron, const Vector3& point) {
  double solidAngle = 0;
  for (const std::array<int, 3>& triangle : polyhedron.triangles) {
    const Vector3 a = polyhedron.vertices[static_cast<size_t>(triangle[0])] - point;
    const Vector3 b = polyhedron.vertices[static_cast<size_t>(triangle[1])] - point;
    const Vector3 c = polyhedron.vertices[static_cast<size_t>(triangle[2])] - point;
    const double la = a.norm(), lb = b.norm(), lc = c.norm();
    // Positive seen from inside: the corners run counter-clockwise seen from outside.
    const double denominator = la * lb * lc + a.dot(b) * lc + a.dot(c) * lb + b.dot(c) * la;
    solidAngle += 2 * std::atan2(a.dot(b.cross(c)), denominator);
  }
  return solidAngle > 2 * std::numbers::pi;
}

Vector3 polyhedronField(const Polyhedron& polyhedron, const Vector3& point) {
  return PolyhedronField(polyhedron)(point);
}

}  // namespace lodestone
