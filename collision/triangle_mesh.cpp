// Validation of triangle meshes: corners and areas for every mesh; for contact meshes also the edge table (one
// pass, a hash map keyed by the edge's two welded nodes) that shows free, over-shared and wrongly wound edges,
// and the enclosed volume that shows which way the triangles face.
#include "triangle_mesh.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <unordered_map>

#include "solver/core/text.h"

namespace lodestone {

namespace {

constexpr double kRelativeCoincidence = 1e-9;
// A node counts as inside an edge when it is this close to it, relative to the edge's length: loose enough for
// coordinates an exporter rounded to six or seven digits.
constexpr double kRelativeOnEdge = 1e-6;
// Below this fraction of the bounding box's volume a closed surface encloses nothing but rounding error.
constexpr double kRelativeNoVolume = 1e-9;

std::string text(long value) { return std::to_string(value); }

// An edge without direction, lower node first.
std::string edgeBetween(int a, int b) {
  return "the edge between nodes " + text(std::min(a, b)) + " and " + text(std::max(a, b));
}

// "0, 1 and 2"
std::string listOf(const std::vector<int>& indices) {
  std::string list;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (i > 0) list += i + 1 == indices.size() ? " and " : ", ";
    list += text(indices[i]);
  }
  return list;
}

struct Bounds {
  Vector3 lowest = Vector3::Zero();
  Vector3 highest = Vector3::Zero();
  double diagonal() const { return (highest - lowest).norm(); }
};

Bounds boundsOf(const std::vector<Vector3>& vertices) {
  Bounds bounds;
  if (vertices.empty()) return bounds;
  bounds.lowest = bounds.highest = vertices[0];
  for (const Vector3& vertex : vertices) {
    bounds.lowest = bounds.lowest.cwiseMin(vertex);
    bounds.highest = bounds.highest.cwiseMax(vertex);
  }
  return bounds;
}

// A cell of a uniform grid, for finding nearby points in constant time.
struct Cell {
  std::int64_t x, y, z;
  bool operator==(const Cell&) const = default;
};

struct CellHash {
  size_t operator()(const Cell& cell) const {
    // Unsigned, so that large cell numbers wrap instead of overflowing.
    return static_cast<size_t>(static_cast<std::uint64_t>(cell.x) * 73856093u ^
                               static_cast<std::uint64_t>(cell.y) * 19349663u ^
                               static_cast<std::uint64_t>(cell.z) * 83492791u);
  }
};

// Points by grid cell: each cell holds the last point added to it, and each point the one added before it in its
// cell, so that a million points cost two small arrays and a hash map rather than a list per cell.
class PointGrid {
 public:
  PointGrid(const Vector3& origin, double cellSize, size_t expectedPoints) : origin_(origin), cellSize_(cellSize) {
    lastInCell_.reserve(expectedPoints);
  }

  Cell cellOf(const Vector3& point) const {
    const Vector3 scaled = (point - origin_) / cellSize_;
    return {static_cast<std::int64_t>(std::floor(scaled.x())), static_cast<std::int64_t>(std::floor(scaled.y())),
            static_cast<std::int64_t>(std::floor(scaled.z()))};
  }
  void add(const Vector3& point, int index) {
    if (index >= static_cast<int>(previousInCell_.size())) previousInCell_.resize(index + 1, -1);
    const auto [entry, isNew] = lastInCell_.try_emplace(cellOf(point), index);
    previousInCell_[index] = isNew ? -1 : entry->second;
    entry->second = index;
  }
  // Calls `visit` with every index stored in a cell that meets the box [lowest, highest].
  template <class Visit>
  void forEachNear(const Vector3& lowest, const Vector3& highest, Visit&& visit) const {
    const Cell from = cellOf(lowest), to = cellOf(highest);
    for (std::int64_t x = from.x; x <= to.x; ++x) {
      for (std::int64_t y = from.y; y <= to.y; ++y) {
        for (std::int64_t z = from.z; z <= to.z; ++z) {
          const auto found = lastInCell_.find({x, y, z});
          if (found == lastInCell_.end()) continue;
          for (int index = found->second; index >= 0; index = previousInCell_[index]) visit(index);
        }
      }
    }
  }
  // How many cells the box [lowest, highest] meets.
  double cellCount(const Vector3& lowest, const Vector3& highest) const {
    const Cell from = cellOf(lowest), to = cellOf(highest);
    return static_cast<double>(to.x - from.x + 1) * static_cast<double>(to.y - from.y + 1) *
           static_cast<double>(to.z - from.z + 1);
  }

 private:
  Vector3 origin_;
  double cellSize_;
  std::unordered_map<Cell, int, CellHash> lastInCell_;
  std::vector<int> previousInCell_;
};

// Twice the area is at most the tolerance times the longest edge: the third corner is within the coincidence
// tolerance of the line through the other two. This also holds for a triangle two of whose corners weld
// together, so welding never leaves a triangle with a repeated node that this check did not report.
bool hasZeroArea(const Vector3& a, const Vector3& b, const Vector3& c, double tolerance) {
  const double longestEdge = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
  return (b - a).cross(c - a).norm() <= tolerance * longestEdge;
}

// The checks every mesh gets. Returns whether all corners are nodes; `zeroArea` receives each triangle's verdict
// (false where a corner is out of range).
bool checkCornersAndAreas(const TriangleMesh& mesh, bool forContact, std::vector<char>& zeroArea,
                          std::vector<MeshProblem>& problems) {
  const int nodeCount = static_cast<int>(mesh.vertices.size());
  const double tolerance = coincidenceTolerance(mesh.vertices);
  zeroArea.assign(mesh.triangles.size(), 0);
  int degenerate = 0;
  int firstDegenerate = -1;
  int outOfRange = 0;
  bool usesNodeZero = false;
  std::string firstOutOfRange;
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto& triangle = mesh.triangles[t];
    bool inRange = true;
    for (int corner : triangle) {
      usesNodeZero = usesNodeZero || corner == 0;
      if (corner < 0 || corner >= nodeCount) {
        inRange = false;
        if (outOfRange++ == 0) {
          firstOutOfRange = "triangle " + text(static_cast<long>(t)) + " uses node " + text(corner) +
                            ", but nodes are numbered 0 to " + text(nodeCount - 1);
        }
      }
    }
    if (!inRange) continue;
    zeroArea[t] = hasZeroArea(mesh.vertices[triangle[0]], mesh.vertices[triangle[1]], mesh.vertices[triangle[2]],
                              tolerance);
    if (zeroArea[t] && degenerate++ == 0) firstDegenerate = static_cast<int>(t);
  }
  if (outOfRange > 0) {
    std::string message = firstOutOfRange + " (" + text(outOfRange) + " corner(s) out of range in all)";
    if (!usesNodeZero) message += "; triangle corners are 0-based, and these look 1-based";
    problems.push_back({MeshProblemKind::CornerOutOfRange, true, message});
  }
  if (degenerate > 0) {
    // A viewer draws a zero-area triangle (as nothing); contact cannot give it a normal.
    problems.push_back({MeshProblemKind::ZeroArea, forContact,
                        text(degenerate) + " triangle(s) have zero area (the first is triangle " + text(firstDegenerate) +
                            "); they cannot carry contact: remove them, or move their corners apart"});
  }
  return outOfRange == 0;
}

// One triangle's edge from corner `corner` to the next corner.
struct EdgeUse {
  int triangle = -1;
  int corner = -1;
};

struct EdgeRecord {
  int uses = 0;
  int forwardUses = 0;  // uses that run from the lower welded node to the higher
  EdgeUse first, second;
};

std::uint64_t edgeKey(int a, int b) {
  const auto low = static_cast<std::uint32_t>(std::min(a, b)), high = static_cast<std::uint32_t>(std::max(a, b));
  return (static_cast<std::uint64_t>(low) << 32) | high;
}

// Node k of a triangle and the node after it, as the deck numbers them.
std::pair<int, int> cornersOf(const TriangleMesh& mesh, EdgeUse use) {
  const auto& triangle = mesh.triangles[use.triangle];
  return {triangle[use.corner], triangle[(use.corner + 1) % 3]};
}

struct FreeEdge {
  int from, to;  // welded nodes
  EdgeUse use;
};

// Nodes of free edges that lie inside another free edge. Only free edges can hold one: where a node splits an
// edge on one side only, the long edge and the two short ones each have a single triangle. A grid over the
// free edges' nodes (cells of the mean free-edge length) keeps this linear unless one free edge is far longer
// than the rest; then that edge simply looks at every free node.
void checkTJunctions(const TriangleMesh& mesh, const std::vector<FreeEdge>& freeEdges,
                     std::vector<MeshProblem>& problems) {
  std::vector<int> freeNodes;
  double totalLength = 0;
  for (const FreeEdge& edge : freeEdges) {
    freeNodes.push_back(edge.from);
    freeNodes.push_back(edge.to);
    totalLength += (mesh.vertices[edge.to] - mesh.vertices[edge.from]).norm();
  }
  std::sort(freeNodes.begin(), freeNodes.end());
  freeNodes.erase(std::unique(freeNodes.begin(), freeNodes.end()), freeNodes.end());
  const double cellSize = totalLength / static_cast<double>(freeEdges.size());
  if (!(cellSize > 0)) return;
  PointGrid grid(boundsOf(mesh.vertices).lowest, cellSize, freeNodes.size());
  for (int node : freeNodes) grid.add(mesh.vertices[node], node);

  int junctions = 0;
  int firstNode = -1;
  EdgeUse firstEdge;
  for (const FreeEdge& edge : freeEdges) {
    const Vector3& a = mesh.vertices[edge.from];
    const Vector3 along = mesh.vertices[edge.to] - a;
    const double allowed = kRelativeOnEdge * along.norm();
    int lowestInside = -1;
    const auto consider = [&](int node) {
      if (node == edge.from || node == edge.to) return;
      const Vector3 offset = mesh.vertices[node] - a;
      const double s = offset.dot(along) / along.squaredNorm();
      // Inside: within the tolerance of the line, and farther than it from either end.
      const double fromEnds = std::min(s, 1 - s) * along.norm();
      if (fromEnds <= allowed || (offset - s * along).norm() > allowed) return;
      ++junctions;
      if (lowestInside < 0 || node < lowestInside) lowestInside = node;
    };
    const Vector3 lowest = a.cwiseMin(mesh.vertices[edge.to]).array() - allowed;
    const Vector3 highest = a.cwiseMax(mesh.vertices[edge.to]).array() + allowed;
    if (grid.cellCount(lowest, highest) > static_cast<double>(freeNodes.size())) {
      for (int node : freeNodes) consider(node);
    } else {
      grid.forEachNear(lowest, highest, consider);
    }
    if (lowestInside >= 0 && firstNode < 0) {
      firstNode = lowestInside;
      firstEdge = edge.use;
    }
  }
  if (junctions == 0) return;
  const auto [a, b] = cornersOf(mesh, firstEdge);
  const std::string triangle = "triangle " + text(firstEdge.triangle);
  problems.push_back({MeshProblemKind::TJunctions, true,
                      text(junctions) + " T-junction(s), where a node lies inside another triangle's edge (the first is node " +
                          text(firstNode) + ", inside " + edgeBetween(a, b) + " of " + triangle +
                          "); neighbouring triangles must share whole edges: split " + triangle + " at node " +
                          text(firstNode)});
}

// Closed, manifold and consistently wound: the sign of the enclosed volume says whether the triangles face out.
// Only the total is judged, since the inner shell of a hollow body rightly faces inwards.
void checkOrientation(const TriangleMesh& mesh, const std::vector<char>& inTopology, std::vector<MeshProblem>& problems) {
  const Bounds bounds = boundsOf(mesh.vertices);
  // About the box's centre, so that a mesh far from the origin loses no digits.
  const Vector3 centre = 0.5 * (bounds.lowest + bounds.highest);
  double volume = 0;
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    if (!inTopology[t]) continue;
    const auto& triangle = mesh.triangles[t];
    volume += (mesh.vertices[triangle[0]] - centre)
                  .dot((mesh.vertices[triangle[1]] - centre).cross(mesh.vertices[triangle[2]] - centre)) /
              6;
  }
  const Vector3 size = bounds.highest - bounds.lowest;
  if (std::fabs(volume) <= kRelativeNoVolume * std::pow(size.norm(), 3)) {
    problems.push_back({MeshProblemKind::NoVolume, true,
                        "the surface is closed but encloses no volume (a sheet covered from both sides?); contact "
                        "needs the surface of a solid"});
  } else if (volume < 0) {
    problems.push_back({MeshProblemKind::InwardNormals, true,
                        "the triangles face inwards: taken in the order given, their corners enclose a volume of " +
                            formatSignificant(volume, 3) +
                            "; contact needs each triangle's corners counter-clockwise seen from outside, so reverse "
                            "the corner order of every triangle"});
  }
}

// Free, over-shared and wrongly wound edges, T-junctions, then orientation — the last only for a surface with
// none of the others, since it means nothing otherwise. Zero-area triangles are left out: they are reported
// already and have no normal to wind.
void checkTopology(const TriangleMesh& mesh, const std::vector<char>& zeroArea, std::vector<MeshProblem>& problems) {
  const std::vector<int> welded = coincidentVertices(mesh.vertices);
  const auto weldedCorner = [&](int triangle, int corner) { return welded[mesh.triangles[triangle][corner % 3]]; };
  std::vector<char> inTopology(mesh.triangles.size());
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    // Corners that weld together have zero area (reported); the test on welded nodes only guards against two
    // corners each within the tolerance of a third node, and so up to twice the tolerance apart.
    inTopology[t] = !zeroArea[t] && weldedCorner(t, 0) != weldedCorner(t, 1) &&
                    weldedCorner(t, 1) != weldedCorner(t, 2) && weldedCorner(t, 2) != weldedCorner(t, 0);
  }

  std::unordered_map<std::uint64_t, EdgeRecord> edges;
  edges.reserve(mesh.triangles.size() * 3 / 2 + 1);
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    if (!inTopology[t]) continue;
    for (int k = 0; k < 3; ++k) {
      const int from = weldedCorner(t, k), to = weldedCorner(t, k + 1);
      EdgeRecord& record = edges[edgeKey(from, to)];
      if (record.uses == 0) record.first = {t, k};
      else if (record.uses == 1) record.second = {t, k};
      ++record.uses;
      if (from < to) ++record.forwardUses;
    }
  }

  // A second pass in triangle order, so that "the first" offender is the same on every run.
  int freeCount = 0, overSharedCount = 0, wrongWindingCount = 0;
  std::vector<FreeEdge> freeEdges;
  const EdgeRecord* firstOverShared = nullptr;
  const EdgeRecord* firstWrongWinding = nullptr;
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    if (!inTopology[t]) continue;
    for (int k = 0; k < 3; ++k) {
      const int from = weldedCorner(t, k), to = weldedCorner(t, k + 1);
      const EdgeRecord& record = edges.at(edgeKey(from, to));
      const bool firstUse = record.first.triangle == t && record.first.corner == k;
      if (record.uses == 1) {
        ++freeCount;
        freeEdges.push_back({from, to, {t, k}});
      } else if (record.uses > 2 && firstUse) {
        if (overSharedCount++ == 0) firstOverShared = &record;
      } else if (record.uses == 2 && record.forwardUses != 1 && firstUse) {
        if (wrongWindingCount++ == 0) firstWrongWinding = &record;
      }
    }
  }

  if (freeCount > 0) {
    const auto [a, b] = cornersOf(mesh, freeEdges[0].use);
    problems.push_back({MeshProblemKind::FreeEdges, true,
                        "the surface is not closed: " + text(freeCount) +
                            " edge(s) belong to one triangle only (the first is " + edgeBetween(a, b) + " of triangle " +
                            text(freeEdges[0].use.triangle) +
                            "); contact needs a closed surface, each edge shared by exactly two triangles"});
    checkTJunctions(mesh, freeEdges, problems);
  }
  if (overSharedCount > 0) {
    const auto [a, b] = cornersOf(mesh, firstOverShared->first);
    const std::uint64_t key = edgeKey(welded[a], welded[b]);
    std::vector<int> sharing;
    for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
      for (int k = 0; k < 3 && inTopology[t]; ++k) {
        if (edgeKey(weldedCorner(t, k), weldedCorner(t, k + 1)) == key) {
          sharing.push_back(t);
          break;
        }
      }
    }
    problems.push_back({MeshProblemKind::NonManifoldEdges, true,
                        text(overSharedCount) + " T-connection(s), edges shared by more than two triangles (the first is " +
                            edgeBetween(a, b) + ", shared by triangles " + listOf(sharing) +
                            "); a closed surface has exactly two triangles on each edge: make solids that touch "
                            "separate graphics, or remove the extra triangles"});
  }
  if (wrongWindingCount > 0) {
    const auto [a, b] = cornersOf(mesh, firstWrongWinding->first);
    problems.push_back({MeshProblemKind::InconsistentWinding, true,
                        text(wrongWindingCount) + " edge(s) are run in the same direction by both their triangles (the first: triangles " +
                            text(firstWrongWinding->first.triangle) + " and " + text(firstWrongWinding->second.triangle) +
                            " both run from node " + text(a) + " to node " + text(b) +
                            "); neighbouring triangles must run a shared edge in opposite directions, so reverse the "
                            "corner order of the triangles wound against the rest"});
  }
  if (freeCount == 0 && overSharedCount == 0 && wrongWindingCount == 0) checkOrientation(mesh, inTopology, problems);
}

}  // namespace

std::vector<MeshProblem> checkTriangleMesh(const TriangleMesh& mesh) {
  std::vector<MeshProblem> problems;
  std::vector<char> zeroArea;
  checkCornersAndAreas(mesh, false, zeroArea, problems);
  return problems;
}

std::vector<MeshProblem> checkContactMesh(const TriangleMesh& mesh) {
  std::vector<MeshProblem> problems;
  std::vector<char> zeroArea;
  // Without every corner a node, edges cannot be told apart; the corner error says what to fix first.
  if (checkCornersAndAreas(mesh, true, zeroArea, problems)) checkTopology(mesh, zeroArea, problems);
  return problems;
}

double coincidenceTolerance(const std::vector<Vector3>& vertices) {
  return kRelativeCoincidence * boundsOf(vertices).diagonal();
}

std::vector<int> coincidentVertices(const std::vector<Vector3>& vertices) {
  std::vector<int> representative(vertices.size());
  if (vertices.empty()) return representative;
  const double tolerance = coincidenceTolerance(vertices);
  if (!std::isfinite(tolerance)) {
    // Coordinates so large (beyond about 1e154) that the length of the mesh's extent overflows a double: no grid
    // numbers cells at that scale (a cell number would be NaN, and converting it undefined behaviour), so none is
    // welded; the mesh checks still see the mesh, whose triangles' areas overflow too.
    std::iota(representative.begin(), representative.end(), 0);
    return representative;
  }
  // Cells twice the tolerance wide: the vertices within the tolerance of one lie in at most two cells per axis.
  // (All vertices equal: tolerance 0, one cell, and exact equality.)
  PointGrid grid(boundsOf(vertices).lowest, tolerance > 0 ? 2 * tolerance : 1.0, vertices.size());
  for (int i = 0; i < static_cast<int>(vertices.size()); ++i) {
    const Vector3& vertex = vertices[i];
    int match = -1;
    grid.forEachNear(vertex.array() - tolerance, vertex.array() + tolerance, [&](int candidate) {
      if ((vertices[candidate] - vertex).norm() <= tolerance && (match < 0 || candidate < match)) match = candidate;
    });
    if (match >= 0) {
      representative[i] = match;
    } else {
      representative[i] = i;
      grid.add(vertex, i);
    }
  }
  return representative;
}

TriangleMesh weldCoincidentVertices(const TriangleMesh& mesh) {
  const std::vector<int> representative = coincidentVertices(mesh.vertices);
  std::vector<int> newIndex(mesh.vertices.size(), -1);
  TriangleMesh welded;
  for (size_t i = 0; i < mesh.vertices.size(); ++i) {
    if (representative[i] != static_cast<int>(i)) continue;
    newIndex[i] = static_cast<int>(welded.vertices.size());
    welded.vertices.push_back(mesh.vertices[i]);
  }
  welded.triangles.reserve(mesh.triangles.size());
  for (const auto& triangle : mesh.triangles) {
    welded.triangles.push_back({newIndex[representative[triangle[0]]], newIndex[representative[triangle[1]]],
                                newIndex[representative[triangle[2]]]});
  }
  return welded;
}

}  // namespace lodestone
