// Post_Graphic: geometry attached to a marker — contact surfaces, and what the animation draws. This file reads and
// validates the geometry and says which shape (collision/) each primitive is and what a viewer draws of it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "collision/shape.h"
#include "collision/smooth_surface.h"
#include "collision/triangle_mesh.h"
#include "elements/reference_marker.h"
#include "solver/core/model.h"
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
  std::optional<long> curve_id;  // ParamCurve: the Reference_ParamCurve it lays in its marker's xy plane
  std::optional<int> nseg;       // ParamCurve: how many straight pieces a viewer draws (contact uses the smooth curve)
  // GridSurface (ours, Simscape's Grid Surface): num_x grid values along x, num_y along y and the heights at the
  // grid's points, x varying fastest, all from the element's text in ref_marker_id's axes; the material is below.
  std::optional<int> num_x, num_y;
  std::vector<double> grid_x, grid_y, grid_heights;
  std::optional<int> num_point, num_triangle;
  int refinement_level = 0;
  // Contact meshes (a TriaMesh, a tessellated primitive): edges where the triangles meet at this angle (degrees) or
  // more stay sharp; across gentler ones the mesh stands for a smooth surface (collision/smooth_surface.h).
  double crease_angle = kDefaultCreaseAngleDegrees;
  bool is_material_inside = true;
  // TriaMesh: a mesh file (STL or OBJ) as written in the deck, relative to the deck's folder, instead of lists.
  std::optional<std::string> mesh_file;
  // TriaMesh: nodes in ref_marker_id axes and 0-based triangle corners — from the element text or from mesh_file,
  // alike.
  TriangleMesh mesh;
  // PointCloud: its points in ref_marker_id axes, from the element text (x y z of each of num_point points).
  std::vector<Vector3> cloud_points;

  long markerId() const;  // the marker the geometry hangs on, whichever attribute names it
};

const ElementSchema<PostGraphicSpec>& postGraphicSchema();
// The types Lodestone reads.
const std::vector<std::string>& supportedGraphicTypes();
// A curve graphic: type ParamCurve, or Curve as MotionSolve's manual and MotionView call it.
bool isCurveGraphicType(const std::string& type);
// MotionSolve types only a viewer uses (SPDP springs, outlines…): accepted with a warning and skipped.
bool isViewerOnlyGraphicType(const std::string& type);
// Checks that need the whole element, and reads a TriaMesh's node and triangle lists from the element text or
// from its mesh_file. A TriaMesh gets the lenient checks of a drawn mesh here; the strict ones for contact
// (checkContactMesh) belong where a graphic becomes contact geometry.
void completePostGraphic(PostGraphicSpec& spec, const std::string& elementText, Diagnostics& diagnostics);

// The shape of a graphic and where its shape frame sits in the graphic's marker frame.
struct PlacedShape {
  Shape shape;
  Pose inMarker;
};
// The shape of a primitive graphic (Sphere, boxes, Cylinder, Frustum, Ellipsoid); nothing for other types.
std::optional<PlacedShape> primitiveShapeOf(const PostGraphicSpec& graphic);

// The shape of one of Simscape's contact geometries (Point, PointCloud, Plane, Disk), its shape frame the graphic's
// marker frame; nothing for other types. Viewers draw none of them.
std::optional<PlacedShape> simscapeShapeOf(const PostGraphicSpec& graphic);

// A graphic as a viewer draws it: triangles fixed to a body, for the animation.
struct DrawnGraphic {
  long id = 0;
  long bodyId = 0;  // the Body_Rigid it moves with (a ground body's id for graphics on ground)
  int body = -1;    // index into Model::bodies; -1 on ground
  TriangleMesh surface;  // in the body frame (in ground for graphics on ground)
};
// Every graphic of the deck a viewer can draw, moving with its body: primitives tessellated at their
// refinement_level, TriaMesh graphics as they are. Types only viewers know, and graphics on markers the model lacks,
// are left out.
std::vector<DrawnGraphic> drawnGraphics(const std::vector<PostGraphicSpec>& graphics,
                                        const std::vector<ReferenceMarkerSpec>& markers, const Model& model);

}  // namespace lodestone
