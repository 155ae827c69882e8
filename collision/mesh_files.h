// Triangle meshes from files, for Post_Graphic mesh_file: STL (ASCII or binary) and Wavefront OBJ. The readers
// check the file format only; whether the mesh suits contact is checkContactMesh's business.
#pragma once

#include <stdexcept>
#include <string>

#include "triangle_mesh.h"

namespace lodestone {

// A mesh file that cannot be read. what() names the file and, in a text format, the line: "bracket.obj:12: ...".
class MeshFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads the mesh at `path`, in the format its extension names (.stl or .obj, in any case). Coordinates are
// taken as they are written. Throws MeshFileError.
TriangleMesh readMeshFile(const std::string& path);

// Binary or ASCII, told apart by the binary size rule (84 + 50 bytes per triangle), not by the "solid" an ASCII
// file starts with: binary headers often start with it too. STL repeats every vertex in each facet; coincident
// vertices are welded, so nodes are numbered in order of first use and triangle i is the file's facet i.
// Facet normals are ignored: the corner order gives the outside, and many exporters write zero normals.
TriangleMesh readStlFile(const std::string& path);

// `v` lines are the nodes (the file's vertex k is node k−1) and `f` lines the faces, in any of the forms
// `f 1 2 3`, `f 1/4 2/5 3/6`, `f 1//7 …`, `f 1/4/7 …`, with negative numbers counting back from the last vertex
// read. A face of more than three corners becomes a fan of triangles from its first corner, which is exact for
// the convex planar polygons exporters write. Every other line (vn, vt, g, usemtl, comments…) is ignored.
TriangleMesh readObjFile(const std::string& path);

// The same readers on a file's content already in memory (the fuzzing harness, tests/fuzz, feeds them bytes
// without a file); `path` only names the content in messages.
TriangleMesh readStlText(const std::string& content, const std::string& path);
TriangleMesh readObjText(const std::string& content, const std::string& path);

}  // namespace lodestone
