// Post_Graphic: geometry attached to a marker — drawn by viewers, and (in later versions) contact surfaces.
// This version reads and validates the geometry; the shapes themselves live in collision/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collision/triangle_mesh.h"
#include "solver/core/schema.h"

namespace lodestone {

struct PostGraphicSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;  // canonical spelling, e.g. "Sphere"
  bool supported = true;  // false for graphics-only types (Outline, Arc, …) that Lodestone skips
  std::optional<long> center_marker_id, corner_marker_id, ref_marker_id;
  std::optional<double> radius, length, top_radius, bottom_radius;
  std::optional<double> length_x, length_y, length_z;
  std::optional<double> x_scale, y_scale, z_scale;
  std::string ends_type;
  std::optional<int> num_point, num_triangle;
  int refinement_level = 0;
  bool is_material_inside = true;
  // TriaMesh: a mesh file (STL or OBJ) as written in the deck, relative to the deck's folder, instead of lists.
  std::optional<std::string> mesh_file;
  // TriaMesh: nodes in ref_marker_id axes and 0-based triangle corners — from the element text or from mesh_file,
  // alike.
  TriangleMesh mesh;

  long markerId() const;  // the marker the geometry hangs on, whichever attribute names it
};

const ElementSchema<PostGraphicSpec>& postGraphicSchema();
// The types Lodestone reads.
const std::vector<std::string>& supportedGraphicTypes();
// MotionSolve types only a viewer uses (SPDP springs, outlines…): accepted with a warning and skipped.
bool isViewerOnlyGraphicType(const std::string& type);
// Checks that need the whole element, and reads a TriaMesh's node and triangle lists from the element text or
// from its mesh_file. A TriaMesh gets the lenient checks of a drawn mesh here; the strict ones for contact
// (checkContactMesh) belong where a graphic becomes contact geometry.
void completePostGraphic(PostGraphicSpec& spec, const std::string& elementText, Diagnostics& diagnostics);

}  // namespace lodestone
