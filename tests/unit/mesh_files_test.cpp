// Mesh files: a cube read from ASCII STL, binary STL and OBJ is the same closed cube at any size and place; every
// way a file can be unreadable gives its message with the file and, for text, the line.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <future>

#include <gtest/gtest.h>

#include "collision/mesh_files.h"
#include "mesh_test_support.h"
#include "solver/core/text.h"
#include "support/text_files.h"

namespace lodestone::testing {
namespace {

std::string writeFile(const std::string& name, const std::string& content) {
  const std::filesystem::path path = scratchFile(name);
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

std::string asciiStl(const TriangleMesh& mesh) {
  std::string text = "solid cube\n";
  for (const auto& triangle : mesh.triangles) {
    text += "  facet normal 0 0 0\n    outer loop\n";
    for (int corner : triangle) {
      const Vector3& v = mesh.vertices[corner];
      text += "      vertex " + formatReal(v.x()) + " " + formatReal(v.y()) + " " + formatReal(v.z()) + "\n";
    }
    text += "    endloop\n  endfacet\n";
  }
  return text + "endsolid cube\n";
}

void appendLittleEndian(std::string& bytes, std::uint32_t value) {
  for (int shift = 0; shift < 32; shift += 8) bytes += static_cast<char>(value >> shift & 0xff);
}

// Zero normals and attribute words, as many exporters write them.
std::string binaryStl(const TriangleMesh& mesh, const std::string& header) {
  std::string bytes = header;
  bytes.resize(80, '\0');
  appendLittleEndian(bytes, static_cast<std::uint32_t>(mesh.triangles.size()));
  for (const auto& triangle : mesh.triangles) {
    for (int k = 0; k < 3; ++k) appendLittleEndian(bytes, 0);
    for (int corner : triangle) {
      for (int k = 0; k < 3; ++k) {
        appendLittleEndian(bytes, std::bit_cast<std::uint32_t>(static_cast<float>(mesh.vertices[corner][k])));
      }
    }
    bytes += std::string(2, '\0');
  }
  return bytes;
}

// The cube's faces as quads, in three spellings of a corner, with the lines an exporter adds around them.
std::string objCube(const TriangleMesh& cube) {
  std::string text = "# exported cube\nmtllib cube.mtl\no Cube\n";
  for (const Vector3& v : cube.vertices) {
    text += "v " + formatReal(v.x()) + " " + formatReal(v.y()) + " " + formatReal(v.z()) + "\n";
  }
  text += "vt 0 0\nvt 1 0\nvt 1 1\nvn 0 0 1\ng sides\nusemtl steel\ns off\n";
  // Each quad is a pair of the cube's triangles (a b c) (a c d): OBJ numbers from 1.
  for (size_t t = 0; t < cube.triangles.size(); t += 2) {
    const auto& first = cube.triangles[t];
    const int d = cube.triangles[t + 1][2];
    const int corners[4] = {first[0] + 1, first[1] + 1, first[2] + 1, d + 1};
    if (t == 0) {
      text += "f " + std::to_string(corners[0]) + "/1/1 " + std::to_string(corners[1]) + "/2/1 " +
              std::to_string(corners[2]) + "/3/1 " + std::to_string(corners[3]) + "/1/1\r\n";
    } else if (t == 2) {
      text += "f " + std::to_string(corners[0]) + "//1 " + std::to_string(corners[1]) + "//1 " +
              std::to_string(corners[2]) + "//1 " + std::to_string(corners[3]) + "//1\n";
    } else {
      text += "f\t" + std::to_string(corners[0]) + " " + std::to_string(corners[1]) + " " + std::to_string(corners[2]) +
              " " + std::to_string(corners[3]) + "\n";
    }
  }
  return text;
}

// Same node positions (to `tolerance`) and triangles as the cube, node numbers aside.
void expectSameCube(const TriangleMesh& read, const TriangleMesh& cube, double tolerance) {
  ASSERT_EQ(read.vertices.size(), cube.vertices.size());
  ASSERT_EQ(read.triangles.size(), cube.triangles.size());
  for (size_t t = 0; t < cube.triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      EXPECT_LE((read.vertices[read.triangles[t][k]] - cube.vertices[cube.triangles[t][k]]).norm(), tolerance)
          << "triangle " << t << " corner " << k;
    }
  }
  EXPECT_TRUE(checkContactMesh(read).empty());
}

std::string readError(const std::string& path) {
  try {
    readMeshFile(path);
  } catch (const MeshFileError& error) {
    return error.what();
  }
  return "(read without error)";
}

TEST(MeshFiles, AsciiStlCubeIsIndexedAndClosed) {
  for (const Placement& placement : kPlacements) {
    const TriangleMesh cube = scaledAndMoved(unitCube(), placement.scale, placement.offset);
    const TriangleMesh read = readMeshFile(writeFile("cube.stl", asciiStl(cube)));
    expectSameCube(read, cube, 0);
    // Welded in order of first use: the first facet's corners are nodes 0, 1 and 2.
    EXPECT_EQ(read.triangles[0], (std::array<int, 3>{0, 1, 2}));
  }
}

// Binary files often start their header with "solid" too; the size rule tells them from ASCII.
TEST(MeshFiles, BinaryStlCubeIsIndexedAndClosed) {
  for (const Placement& placement : kPlacements) {
    const TriangleMesh cube = scaledAndMoved(unitCube(), placement.scale, placement.offset);
    for (const char* header : {"solid cube, binary", "exported by a CAD program"}) {
      const TriangleMesh read = readMeshFile(writeFile("cube.STL", binaryStl(cube, header)));
      const double floatRounding = 1e-7 * (placement.offset.norm() + placement.scale);
      expectSameCube(read, cube, floatRounding);
    }
  }
}

TEST(MeshFiles, ObjCubeOfQuadsIsFanTriangulated) {
  for (const Placement& placement : kPlacements) {
    const TriangleMesh cube = scaledAndMoved(unitCube(), placement.scale, placement.offset);
    const TriangleMesh read = readMeshFile(writeFile("cube.obj", objCube(cube)));
    expectSameCube(read, cube, 0);
    EXPECT_EQ(read.triangles, cube.triangles);  // OBJ vertex k is node k−1
  }
}

TEST(MeshFiles, ObjNegativeIndicesCountBackFromTheLastVertex) {
  const std::string path = writeFile("relative.obj",
                                     "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf -4 -3 -2 -1\n"
                                     "v 0 0 1\nv 1 0 1\nv 1 1 1\nv 0.5 1.5 1\nv 0 1 1\nf -5 -4 -3 -2 -1\n");
  const TriangleMesh mesh = readMeshFile(path);
  EXPECT_EQ(mesh.vertices.size(), 9u);
  EXPECT_EQ(mesh.triangles, (std::vector<std::array<int, 3>>{{0, 1, 2}, {0, 2, 3}, {4, 5, 6}, {4, 6, 7}, {4, 7, 8}}));
}

TEST(MeshFiles, MissingEmptyAndUnknownFiles) {
  const std::string missing = scratchFile("nowhere.stl").string();
  EXPECT_EQ(readError(missing), missing + ": no such file");
  const std::string empty = writeFile("empty.obj", "");
  EXPECT_EQ(readError(empty), empty + ": the file is empty");
  const std::string folder = scratchFile("folder.stl").string();
  std::filesystem::create_directories(folder);
  EXPECT_EQ(readError(folder), folder + ": is a folder, not a mesh file");
  const std::string ply = writeFile("cube.ply", "ply\n");
  EXPECT_EQ(readError(ply), ply + ": the file name must end in .stl (ASCII or binary STL) or .obj (Wavefront OBJ)");
  const std::string shortText = writeFile("short.stl", "hello");
  EXPECT_EQ(readError(shortText), shortText + ": neither an ASCII STL (which starts with 'solid') nor a binary STL "
                                              "(5 bytes, fewer than the 84 of its header and triangle count)");
}

// Opening a FIFO waits for a writer for ever, so only its type may be looked at. Were it opened, the read would be
// released after a minute (a writer that closes at once gives it end of file) and the test would fail, not hang.
TEST(MeshFiles, AFifoIsRefusedWithoutBeingOpened) {
  const std::string fifo = scratchFile("pipe.stl").string();
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  std::future<std::string> reading = std::async(std::launch::async, [&] { return readError(fifo); });
  if (reading.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
    ::close(::open(fifo.c_str(), O_WRONLY));
    FAIL() << "reading " << fifo << " waited for a writer: " << reading.get();
  }
  EXPECT_EQ(reading.get(), fifo + ": is a FIFO, not a regular file");
  std::filesystem::remove(fifo);
}

TEST(MeshFiles, TruncatedBinaryStl) {
  for (const char* header : {"solid cube, binary", ""}) {
    std::string bytes = binaryStl(unitCube(), header);
    bytes.resize(bytes.size() - 20);
    const std::string path = writeFile("truncated.stl", bytes);
    EXPECT_EQ(readError(path), path + ": the binary STL header declares 12 triangles, which take 84 + 50·12 = 684 "
                                      "bytes, but the file has 664 (truncated, or not an STL file)");
  }
}

TEST(MeshFiles, NonNumericCoordinatesNameTheLine) {
  const std::string stl = writeFile("letter.stl", "solid t\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n"
                                                  "   vertex 1 O 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid t\n");
  EXPECT_EQ(readError(stl), stl + ":5: coordinate 'O' is not a number");
  const std::string obj = writeFile("letter.obj", "v 0 0 0\nv 1 0 zero\nv 0 1 0\nf 1 2 3\n");
  EXPECT_EQ(readError(obj), obj + ":2: coordinate 'zero' is not a number");
  const std::string shortVertex = writeFile("short.obj", "v 0 0 0\nv 1 0\n");
  EXPECT_EQ(readError(shortVertex), shortVertex + ":2: a 'v' line needs three coordinates (got 2)");
}

TEST(MeshFiles, FaceIndicesOutOfRangeNameTheLine) {
  const std::string beyond = writeFile("beyond.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 4\n");
  EXPECT_EQ(readError(beyond), beyond + ":5: the face uses vertex 4, but the file defines 3 vertices");
  const std::string back = writeFile("back.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf -4 -2 -1\n");
  EXPECT_EQ(readError(back), back + ":4: face corner -4 counts back past the first vertex (3 vertices are defined "
                                    "above this line)");
  const std::string zero = writeFile("zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n");
  EXPECT_EQ(readError(zero), zero + ":4: face corner 0: OBJ numbers vertices from 1 (negative numbers count back "
                                    "from the last vertex)");
  const std::string word = writeFile("word.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x/3\n");
  EXPECT_EQ(readError(word), word + ":4: face corner 'x/3' does not start with a vertex number");
  const std::string line = writeFile("line.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n");
  EXPECT_EQ(readError(line), line + ":3: a face needs at least 3 corners (got 2)");
}

TEST(MeshFiles, FilesWithoutTriangles) {
  const std::string obj = writeFile("points.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n");
  EXPECT_EQ(readError(obj), obj + ": no triangles (no 'f' lines)");
  const std::string ascii = writeFile("none.stl", "solid nothing\nendsolid nothing\n");
  EXPECT_EQ(readError(ascii), ascii + ": no triangles (no facet with vertices)");
  const std::string binary = writeFile("none_binary.stl", binaryStl(TriangleMesh{}, "empty"));
  EXPECT_EQ(readError(binary), binary + ": no triangles (the binary STL header declares 0)");
}

TEST(MeshFiles, MalformedAsciiStlFacets) {
  const std::string quad = writeFile("quad.stl", "solid q\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"
                                                 "vertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid q\n");
  EXPECT_EQ(readError(quad), quad + ":7: a fourth vertex in one facet; STL facets are triangles");
  const std::string cut = writeFile("cut.stl", "solid c\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n");
  EXPECT_EQ(readError(cut), cut + ":5: the file ends inside the facet whose loop begins on line 3");
  const std::string typo = writeFile("typo.stl", "solid t\nfacet normal 0 0 1\nouter loop\nvertx 0 0 0\n");
  EXPECT_EQ(readError(typo), typo + ":4: unexpected 'vertx'; ASCII STL lines start with solid, facet, outer, vertex, "
                                    "endloop, endfacet or endsolid");
}

}  // namespace
}  // namespace lodestone::testing
