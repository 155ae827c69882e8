// Fuzz target: a mesh file's bytes through each reader (STL, ASCII or binary, and OBJ), then the checks a mesh
// read for a deck goes through. The in-memory entry points are the file readers without the file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "collision/mesh_files.h"

namespace {

void readAndCheck(lodestone::TriangleMesh (*reader)(const std::string&, const std::string&), const std::string& bytes,
                  const std::string& name) {
  try {
    const lodestone::TriangleMesh mesh = reader(bytes, name);
    (void)lodestone::checkContactMesh(mesh);
  } catch (const lodestone::MeshFileError&) {
    // Refused with a message: what bad bytes should give.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  readAndCheck(lodestone::readStlText, bytes, "fuzz.stl");
  readAndCheck(lodestone::readObjText, bytes, "fuzz.obj");
  return 0;
}
