// STL and OBJ readers: the whole file is read into memory, then parsed; every failure names the file, and in
// the text formats the line.
#include "mesh_files.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "solver/core/input_file.h"
#include "solver/core/text.h"

namespace lodestone {

namespace {

constexpr std::size_t kStlHeaderBytes = 80;
constexpr std::size_t kStlPreambleBytes = kStlHeaderBytes + 4;  // header, then the triangle count
constexpr std::size_t kStlTriangleBytes = 50;                   // normal, three corners, attribute word

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw MeshFileError(path + ": " + message);
}

[[noreturn]] void failAt(const std::string& path, int line, const std::string& message) {
  throw MeshFileError(path + ":" + std::to_string(line) + ": " + message);
}

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

std::string readWholeFile(const std::string& path) {
  if (const std::optional<std::string> problem = inputFileProblem(path, "mesh file")) fail(path, *problem);
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) fail(path, std::string("cannot be opened (") + std::strerror(errno) + ")");
  std::string content(static_cast<std::size_t>(file.tellg()), '\0');
  file.seekg(0);
  if (!file.read(content.data(), static_cast<std::streamsize>(content.size()))) fail(path, "could not be read");
  if (content.empty()) fail(path, "the file is empty");
  return content;
}

// Calls `visit(lineNumber, words)` for each line, words split on blanks (a trailing '\r' included).
template <class Visit>
void forEachLine(std::string_view content, Visit&& visit) {
  std::vector<std::string_view> words;
  int lineNumber = 0;
  while (!content.empty()) {
    const std::size_t end = content.find('\n');
    std::string_view line = content.substr(0, end);
    content = end == std::string_view::npos ? std::string_view() : content.substr(end + 1);
    ++lineNumber;
    words.clear();
    constexpr std::string_view kBlanks = " \t\r\f\v";
    for (std::size_t start = line.find_first_not_of(kBlanks); start != std::string_view::npos;
         start = line.find_first_not_of(kBlanks, start)) {
      const std::size_t stop = std::min(line.find_first_of(kBlanks, start), line.size());
      words.push_back(line.substr(start, stop - start));
      start = stop;
    }
    if (!words.empty()) visit(lineNumber, words);
  }
}

// Three coordinates from words[1..3] of a vertex line; `what` names the line kind in messages.
Vector3 coordinatesOf(const std::string& path, int line, const std::vector<std::string_view>& words,
                      const std::string& what) {
  if (words.size() < 4) {
    failAt(path, line, "a " + what + " line needs three coordinates (got " + std::to_string(words.size() - 1) + ")");
  }
  Vector3 point;
  for (int k = 0; k < 3; ++k) {
    const std::optional<double> value = parseReal(words[k + 1]);
    if (!value) failAt(path, line, "coordinate " + quoted(words[k + 1]) + " is not a number");
    point[k] = *value;
  }
  return point;
}

// Corners listed facet by facet become an indexed mesh.
TriangleMesh indexedFromCorners(std::vector<Vector3> corners) {
  TriangleMesh mesh;
  mesh.vertices = std::move(corners);
  for (int t = 0; t < static_cast<int>(mesh.vertices.size()) / 3; ++t) mesh.triangles.push_back({3 * t, 3 * t + 1, 3 * t + 2});
  return weldCoincidentVertices(mesh);
}

std::uint32_t littleEndian32(const char* bytes) {
  const auto byte = [bytes](int i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(bytes[i])); };
  return byte(0) | byte(1) << 8 | byte(2) << 16 | byte(3) << 24;
}

TriangleMesh readBinaryStl(const std::string& path, const std::string& content, std::uint32_t triangleCount) {
  if (triangleCount == 0) fail(path, "no triangles (the binary STL header declares 0)");
  std::vector<Vector3> corners;
  corners.reserve(3 * static_cast<std::size_t>(triangleCount));
  for (std::uint32_t t = 0; t < triangleCount; ++t) {
    const char* facet = content.data() + kStlPreambleBytes + t * kStlTriangleBytes;
    for (int corner = 0; corner < 3; ++corner) {
      Vector3 point;
      for (int k = 0; k < 3; ++k) {
        point[k] = std::bit_cast<float>(littleEndian32(facet + 12 * (corner + 1) + 4 * k));
        if (!std::isfinite(point[k])) {
          fail(path, "triangle " + std::to_string(t) + " has a coordinate that is not a finite number");
        }
      }
      corners.push_back(point);
    }
  }
  return indexedFromCorners(std::move(corners));
}

TriangleMesh readAsciiStl(const std::string& path, const std::string& content) {
  std::vector<Vector3> corners;
  int loopLine = 0;  // line of the open 'outer loop', 0 outside one
  int loopVertices = 0;
  int lastLine = 0;
  forEachLine(content, [&](int line, const std::vector<std::string_view>& words) {
    lastLine = line;
    const std::string keyword = toLower(words[0]);
    if (keyword == "solid" || keyword == "endsolid" || keyword == "endfacet") return;
    if (keyword == "facet" || keyword == "outer") {
      if (loopLine > 0) failAt(path, line, "'endloop' missing for the facet whose loop begins on line " + std::to_string(loopLine));
      if (keyword == "outer") {
        loopLine = line;
        loopVertices = 0;
      }
    } else if (keyword == "vertex") {
      if (loopLine == 0) failAt(path, line, "'vertex' outside an 'outer loop'");
      if (++loopVertices > 3) failAt(path, line, "a fourth vertex in one facet; STL facets are triangles");
      corners.push_back(coordinatesOf(path, line, words, "vertex"));
    } else if (keyword == "endloop") {
      if (loopLine == 0) failAt(path, line, "'endloop' without an 'outer loop'");
      if (loopVertices != 3) {
        failAt(path, line, "the facet has " + std::to_string(loopVertices) + " vertices; STL facets are triangles");
      }
      loopLine = 0;
    } else {
      failAt(path, line, "unexpected " + quoted(words[0]) +
                             "; ASCII STL lines start with solid, facet, outer, vertex, endloop, endfacet or endsolid");
    }
  });
  if (loopLine > 0) failAt(path, lastLine, "the file ends inside the facet whose loop begins on line " + std::to_string(loopLine));
  if (corners.empty()) fail(path, "no triangles (no facet with vertices)");
  return indexedFromCorners(std::move(corners));
}

bool startsWithSolid(const std::string& content) {
  const std::size_t start = content.find_first_not_of(" \t\r\n");
  return start != std::string::npos && equalsIgnoreCase(std::string_view(content).substr(start, 5), "solid");
}

}  // namespace

TriangleMesh readStlFile(const std::string& path) { return readStlText(readWholeFile(path), path); }

TriangleMesh readStlText(const std::string& content, const std::string& path) {
  if (content.size() >= kStlPreambleBytes) {
    const std::uint32_t triangleCount = littleEndian32(content.data() + kStlHeaderBytes);
    const std::uint64_t binarySize = kStlPreambleBytes + std::uint64_t{kStlTriangleBytes} * triangleCount;
    // An ASCII file cannot meet this by chance: its count bytes are text (tab and up, so the highest alone makes
    // the count at least 9·2²⁴), and would call for a file of 7.5 GB or more.
    if (binarySize == content.size()) return readBinaryStl(path, content, triangleCount);
    // Text never holds a NUL byte, and a binary file nearly always does (zero coordinates, attribute words).
    if (startsWithSolid(content) && content.find('\0') == std::string::npos) return readAsciiStl(path, content);
    fail(path, "the binary STL header declares " + std::to_string(triangleCount) + " triangles, which take 84 + 50·" +
                   std::to_string(triangleCount) + " = " + std::to_string(binarySize) + " bytes, but the file has " +
                   std::to_string(content.size()) + " (truncated, or not an STL file)");
  }
  if (startsWithSolid(content)) return readAsciiStl(path, content);
  fail(path, "neither an ASCII STL (which starts with 'solid') nor a binary STL (" + std::to_string(content.size()) +
                 " bytes, fewer than the 84 of its header and triangle count)");
}

TriangleMesh readObjFile(const std::string& path) { return readObjText(readWholeFile(path), path); }

TriangleMesh readObjText(const std::string& content, const std::string& path) {
  TriangleMesh mesh;
  std::vector<int> faceLines;  // the line of each triangle, for indices checked once every vertex is known
  std::vector<int> corners;
  forEachLine(content, [&](int line, const std::vector<std::string_view>& words) {
    if (words[0] == "v") {
      mesh.vertices.push_back(coordinatesOf(path, line, words, "'v'"));
      return;
    }
    if (words[0] != "f") return;
    if (words.size() < 4) {
      failAt(path, line, "a face needs at least 3 corners (got " + std::to_string(words.size() - 1) + ")");
    }
    corners.clear();
    for (std::size_t i = 1; i < words.size(); ++i) {
      const std::string_view vertexPart = words[i].substr(0, words[i].find('/'));
      const std::optional<long> number = parseInteger(vertexPart);
      const long defined = static_cast<long>(mesh.vertices.size());
      if (!number) failAt(path, line, "face corner " + quoted(words[i]) + " does not start with a vertex number");
      if (*number == 0) {
        failAt(path, line, "face corner 0: OBJ numbers vertices from 1 (negative numbers count back from the last vertex)");
      }
      if (*number < -defined) {
        failAt(path, line, "face corner " + std::to_string(*number) + " counts back past the first vertex (" +
                               std::to_string(defined) + " vertices are defined above this line)");
      }
      if (*number > std::numeric_limits<int>::max()) {
        failAt(path, line, "face corner " + std::to_string(*number) + " is beyond any vertex");
      }
      corners.push_back(static_cast<int>(*number < 0 ? defined + *number : *number - 1));
    }
    for (std::size_t i = 1; i + 1 < corners.size(); ++i) {
      mesh.triangles.push_back({corners[0], corners[i], corners[i + 1]});
      faceLines.push_back(line);
    }
  });
  if (mesh.triangles.empty()) fail(path, "no triangles (no 'f' lines)");
  const int vertexCount = static_cast<int>(mesh.vertices.size());
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (int corner : mesh.triangles[t]) {
      if (corner >= vertexCount) {
        failAt(path, faceLines[t], "the face uses vertex " + std::to_string(corner + 1) + ", but the file defines " +
                                       std::to_string(vertexCount) + " vertices");
      }
    }
  }
  return mesh;
}

TriangleMesh readMeshFile(const std::string& path) {
  const std::string extension = toLower(std::filesystem::path(path).extension().string());
  if (extension == ".stl") return readStlFile(path);
  if (extension == ".obj") return readObjFile(path);
  fail(path, "the file name must end in .stl (ASCII or binary STL) or .obj (Wavefront OBJ)");
}

}  // namespace lodestone
