// Post_Graphic: one schema with a table of attributes per geometry type, and the TriaMesh readers (element text
// or mesh file).
#include "post_graphic.h"

#include <cmath>
#include <filesystem>
#include <map>

#include "collision/mesh_files.h"
#include "collision/tessellation.h"
#include "collision/triangle_mesh.h"
#include "solver/core/text.h"

namespace lodestone {

using S = PostGraphicSpec;

namespace {

const std::vector<std::string> kEndsTypes = {"CLOSED", "OPEN", "TOP_ONLY", "BOTTOM_ONLY"};

// Graphics-only types of MotionSolve: MotionView draws them; a solver has nothing to do with them.
const std::vector<std::string> kViewerOnlyTypes = {
    "SPDP", "Parasolid", "DeformSurface", "ParamSurface", "Outline", "Arc", "Circle",
    "DeformCurve", "LineMesh", "UserGra", "External"};

// Simscape's contact geometries (Spatial Contact Force): contact only, nothing a viewer draws.
const std::vector<std::string> kSimscapeTypes = {"Point", "PointCloud", "Plane", "Disk"};

std::vector<std::string> allTypes() {
  std::vector<std::string> types = supportedGraphicTypes();
  types.insert(types.end(), kViewerOnlyTypes.begin(), kViewerOnlyTypes.end());
  return types;
}

}  // namespace

const std::vector<std::string>& supportedGraphicTypes() {
  static const std::vector<std::string> types = [] {
    std::vector<std::string> all = {"Sphere",  "BoxDefinedFromCenter", "BoxDefinedFromCorner", "Cylinder",
                                    "Frustum", "Ellipsoid",            "TriaMesh",
                                    "ParamCurve", "Curve",             "GridSurface"};
    all.insert(all.end(), kSimscapeTypes.begin(), kSimscapeTypes.end());
    return all;
  }();
  return types;
}

bool isCurveGraphicType(const std::string& type) { return type == "ParamCurve" || type == "Curve"; }

long PostGraphicSpec::markerId() const {
  if (center_marker_id) return *center_marker_id;
  if (corner_marker_id) return *corner_marker_id;
  if (ref_marker_id) return *ref_marker_id;
  return 0;
}

const ElementSchema<PostGraphicSpec>& postGraphicSchema() {
  auto center = [] { return attr::reference("center_marker_id", &S::center_marker_id, "Reference_Marker").required(); };
  auto boxLengths = [] {
    return std::vector<Attribute<S>>{attr::real("length_x", &S::length_x).above(0).required(),
                                     attr::real("length_y", &S::length_y).above(0).required(),
                                     attr::real("length_z", &S::length_z).above(0).required()};
  };
  // A curve in its reference marker's xy plane; is_material_inside says which side its body's material is on.
  auto curve = [] {
    return std::vector<Attribute<S>>{
        attr::reference("ref_marker_id", &S::ref_marker_id, "Reference_Marker").required(),
        attr::reference("curve_id", &S::curve_id, "Reference_ParamCurve").required(),
        attr::integer("nseg", &S::nseg).atLeast(1)};
  };
  auto withBox = [&](Attribute<S> marker) {
    std::vector<Attribute<S>> rows = boxLengths();
    rows.insert(rows.begin(), std::move(marker));
    return rows;
  };
  static const ElementSchema<S> schema{
      .element = "Post_Graphic",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::presentation<S>("full_label"),
          attr::presentation<S>("color"),
          attr::presentation<S>("hidden"),
          attr::keyword("type", &S::type, allTypes()).required(),
          attr::integer("refinement_level", &S::refinement_level).atLeast(0).byDefault(0L),
          attr::real("crease_angle", &S::crease_angle).atLeast(0).atMost(180).byDefault(kDefaultCreaseAngleDegrees),
          attr::boolean("is_material_inside", &S::is_material_inside).byDefault(true),
      },
      .variantSets = {{"type", {
          {"Sphere", {center(), attr::real("radius", &S::radius).above(0).required()}},
          {"BoxDefinedFromCenter", withBox(center())},
          {"BoxDefinedFromCorner",
           withBox(attr::reference("corner_marker_id", &S::corner_marker_id, "Reference_Marker").required())},
          {"Cylinder",
           {center(), attr::real("radius", &S::radius).above(0).required(), attr::real("length", &S::length).required(),
            attr::keyword("ends_type", &S::ends_type, kEndsTypes).byDefault(std::string("CLOSED"))}},
          {"Frustum",
           {center(), attr::real("top_radius", &S::top_radius).atLeast(0).required(),
            attr::real("bottom_radius", &S::bottom_radius).atLeast(0).required(),
            attr::real("length", &S::length).required(),
            attr::keyword("ends_type", &S::ends_type, kEndsTypes).byDefault(std::string("CLOSED"))}},
          {"Ellipsoid",
           {center(), attr::real("x_scale", &S::x_scale).above(0).required(),
            attr::real("y_scale", &S::y_scale).above(0).required(), attr::real("z_scale", &S::z_scale).above(0).required()}},
          // num_point and num_triangle are required for lists in the element text, and refused beside
          // mesh_file: completePostGraphic judges which.
          {"TriaMesh",
           {attr::reference("ref_marker_id", &S::ref_marker_id, "Reference_Marker").required(),
            attr::integer("num_point", &S::num_point).atLeast(3),
            attr::integer("num_triangle", &S::num_triangle).atLeast(1),
            attr::text("mesh_file", &S::mesh_file)}},
          {"ParamCurve", curve()},
          {"Curve", curve()},
          {"GridSurface",
           {attr::reference("ref_marker_id", &S::ref_marker_id, "Reference_Marker").required(),
            attr::integer("num_x", &S::num_x).atLeast(4).required(),
            attr::integer("num_y", &S::num_y).atLeast(4).required()}},
          // Simscape's geometries. A point at its marker's origin; a cloud's points in its marker's axes, listed in
          // the element text (x y z for each of num_point points); the plane z = 0 of its marker, the material below;
          // a flat disk of `radius` in its marker's xy plane, centred on it.
          {"Point", {attr::reference("ref_marker_id", &S::ref_marker_id, "Reference_Marker").required()}},
          {"PointCloud",
           {attr::reference("ref_marker_id", &S::ref_marker_id, "Reference_Marker").required(),
            attr::integer("num_point", &S::num_point).atLeast(1).required()}},
          {"Plane", {attr::reference("ref_marker_id", &S::ref_marker_id, "Reference_Marker").required()}},
          {"Disk", {center(), attr::real("radius", &S::radius).above(0).required()}},
      }}}};
  return schema;
}

bool isViewerOnlyGraphicType(const std::string& type) {
  for (const std::string& candidate : kViewerOnlyTypes) {
    if (equalsIgnoreCase(candidate, trim(type))) return true;
  }
  return false;
}

namespace {

// The lenient checks of a drawn mesh, then the mesh into the spec. `subject` starts
// each message: "TriaMesh" or the mesh_file attribute.
void storeTriangleMesh(PostGraphicSpec& spec, TriangleMesh mesh, const std::string& subject,
                       Diagnostics& diagnostics) {
  bool ok = true;
  for (const MeshProblem& problem : checkTriangleMesh(mesh)) {
    if (problem.isError) {
      diagnostics.error(spec.loc, subject + ": " + problem.message);
      ok = false;
    } else {
      diagnostics.warning(spec.loc, subject + ": " + problem.message);
    }
  }
  if (ok) spec.mesh = std::move(mesh);
}

// The first `count` nodes (x y z each) of the element text's `items`, into `nodes`; false (said) when one is not
// a finite number. `subject` names a node in the message: "TriaMesh node", "PointCloud point".
bool readNodes(const PostGraphicSpec& spec, const std::vector<std::string>& items, size_t count, const char* subject,
               std::vector<Vector3>& nodes, Diagnostics& diagnostics) {
  for (size_t i = 0; i < 3 * count; i += 3) {
    Vector3 node;
    for (int k = 0; k < 3; ++k) {
      const std::optional<double> value = parseReal(items[i + k]);
      if (!value) {
        diagnostics.error(spec.loc, std::string(subject) + " " + std::to_string(i / 3) + " has coordinate '" +
                                        items[i + k] + "', which is not a finite number");
        return false;
      }
      node[k] = *value;
    }
    nodes.push_back(node);
  }
  return true;
}

// A PointCloud's points: num_point of them, x y z each, in the element text.
void readPointCloudText(PostGraphicSpec& spec, const std::string& elementText, Diagnostics& diagnostics) {
  if (!spec.num_point) return;  // required: said by the reader
  const std::vector<std::string> items = splitList(elementText);
  const size_t expected = 3 * static_cast<size_t>(*spec.num_point);
  if (items.size() != expected) {
    diagnostics.error(spec.loc, "PointCloud text holds " + std::to_string(items.size()) + " numbers, but num_point=" +
                                    std::to_string(*spec.num_point) + " needs 3·" + std::to_string(*spec.num_point) +
                                    " = " + std::to_string(expected) + " coordinates (x y z of each point)");
    return;
  }
  std::vector<Vector3> points;
  if (readNodes(spec, items, static_cast<size_t>(*spec.num_point), "PointCloud point", points, diagnostics)) {
    spec.cloud_points = std::move(points);
  }
}

void readTriangleMeshText(PostGraphicSpec& spec, const std::string& elementText, Diagnostics& diagnostics) {
  for (const auto& [name, count] : {std::pair{"num_point", spec.num_point}, std::pair{"num_triangle", spec.num_triangle}}) {
    if (!count) {
      diagnostics.error(spec.loc, std::string("missing required attribute '") + name +
                                      "' (or give the mesh in a file with mesh_file)");
    }
  }
  if (!spec.num_point || !spec.num_triangle) return;
  const std::vector<std::string> items = splitList(elementText);
  const size_t nodeNumbers = 3 * static_cast<size_t>(*spec.num_point);
  const size_t expected = nodeNumbers + 3 * static_cast<size_t>(*spec.num_triangle);
  if (items.size() != expected) {
    diagnostics.error(spec.loc, "TriaMesh text holds " + std::to_string(items.size()) + " numbers, but num_point=" +
                                    std::to_string(*spec.num_point) + " and num_triangle=" +
                                    std::to_string(*spec.num_triangle) + " need 3·" + std::to_string(*spec.num_point) +
                                    " node coordinates + 3·" + std::to_string(*spec.num_triangle) +
                                    " triangle corners = " + std::to_string(expected));
    return;
  }
  TriangleMesh mesh;
  if (!readNodes(spec, items, nodeNumbers / 3, "TriaMesh node", mesh.vertices, diagnostics)) return;
  for (size_t i = nodeNumbers; i < items.size(); i += 3) {
    std::array<int, 3> triangle{};
    for (int k = 0; k < 3; ++k) {
      const std::optional<long> value = parseInteger(items[i + k]);
      if (!value) {
        diagnostics.error(spec.loc, "TriaMesh triangle " + std::to_string((i - nodeNumbers) / 3) + " has corner '" +
                                        items[i + k] + "', which is not a node index");
        return;
      }
      triangle[k] = static_cast<int>(*value);
    }
    mesh.triangles.push_back(triangle);
  }
  storeTriangleMesh(spec, std::move(mesh), "TriaMesh", diagnostics);
}

// The mesh comes from the file alone: lists or counts beside it would be a second, possibly different, mesh.
void readTriangleMeshFile(PostGraphicSpec& spec, const std::string& elementText, Diagnostics& diagnostics) {
  const std::string attribute = "mesh_file=\"" + *spec.mesh_file + "\"";
  if (trim(*spec.mesh_file).empty()) {
    diagnostics.error(spec.loc, "mesh_file is empty; name an .stl or .obj file, or remove mesh_file and list the "
                                "nodes and triangles in the element's text");
    return;
  }
  bool ok = true;
  if (!trim(elementText).empty()) {
    diagnostics.error(spec.loc, attribute + " gives the nodes and triangles, so the element's text must be empty; "
                                            "remove the lists from the text, or remove mesh_file");
    ok = false;
  }
  for (const auto& [name, count] : {std::pair{"num_point", spec.num_point}, std::pair{"num_triangle", spec.num_triangle}}) {
    if (count) {
      diagnostics.error(spec.loc, std::string(name) + " counts a list in the element's text; with " + attribute +
                                      " the file gives the mesh, so remove " + name);
      ok = false;
    }
  }
  if (!ok) return;
  // Relative to the deck's folder, so that a deck and its meshes move together.
  std::filesystem::path path(*spec.mesh_file);
  if (path.is_relative()) path = std::filesystem::path(spec.loc.file).parent_path() / path;
  TriangleMesh mesh;
  try {
    mesh = readMeshFile(path.string());
  } catch (const MeshFileError& error) {
    diagnostics.error(spec.loc, attribute + ": " + error.what());
    return;
  }
  // The counts as inline lists would have them, so that nothing later needs to know where the mesh came from.
  spec.num_point = static_cast<int>(mesh.vertices.size());
  spec.num_triangle = static_cast<int>(mesh.triangles.size());
  storeTriangleMesh(spec, std::move(mesh), attribute, diagnostics);
}

// A GridSurface's text: num_x values of x, num_y of y, then num_x·num_y heights, x varying fastest.
void readGridSurfaceText(PostGraphicSpec& spec, const std::string& elementText, Diagnostics& diagnostics) {
  if (!spec.num_x || !spec.num_y) return;  // said by the reader
  const std::vector<std::string> items = splitList(elementText);
  const size_t nx = static_cast<size_t>(*spec.num_x), ny = static_cast<size_t>(*spec.num_y);
  const size_t expected = nx + ny + nx * ny;
  if (items.size() != expected) {
    diagnostics.error(spec.loc, "GridSurface text holds " + std::to_string(items.size()) + " numbers, but num_x=" +
                                    std::to_string(nx) + " and num_y=" + std::to_string(ny) + " need " +
                                    std::to_string(nx) + " x values + " + std::to_string(ny) + " y values + " +
                                    std::to_string(nx * ny) + " heights = " + std::to_string(expected));
    return;
  }
  std::vector<double> values;
  for (size_t k = 0; k < items.size(); ++k) {
    const std::optional<double> value = parseReal(items[k]);
    if (!value) {
      diagnostics.error(spec.loc, "GridSurface number " + std::to_string(k + 1) + " is '" + items[k] +
                                      "', which is not a finite number");
      return;
    }
    values.push_back(*value);
  }
  spec.grid_x.assign(values.begin(), values.begin() + static_cast<long>(nx));
  spec.grid_y.assign(values.begin() + static_cast<long>(nx), values.begin() + static_cast<long>(nx + ny));
  spec.grid_heights.assign(values.begin() + static_cast<long>(nx + ny), values.end());
  for (const auto& [values, axis] : {std::pair{&spec.grid_x, "x"}, std::pair{&spec.grid_y, "y"}}) {
    for (size_t k = 1; k < values->size(); ++k) {
      if (!((*values)[k] > (*values)[k - 1])) {
        diagnostics.error(spec.loc, std::string("GridSurface ") + axis + " values must increase strictly; value " +
                                        std::to_string(k + 1) + " (" + formatReal((*values)[k]) + ") does not");
        return;
      }
    }
  }
  if (!spec.is_material_inside) {
    diagnostics.error(spec.loc, "is_material_inside=\"FALSE\": a GridSurface's material is below it, always");
  }
}

}  // namespace

void completePostGraphic(PostGraphicSpec& spec, const std::string& elementText, Diagnostics& diagnostics) {
  if (spec.type.empty()) return;  // the type could not be read (said already): nothing to complete
  if (spec.type == "GridSurface") return readGridSurfaceText(spec, elementText, diagnostics);
  if (spec.type == "TriaMesh") {
    if (spec.mesh_file) readTriangleMeshFile(spec, elementText, diagnostics);
    else readTriangleMeshText(spec, elementText, diagnostics);
    return;
  }
  if (spec.type == "PointCloud") {
    readPointCloudText(spec, elementText, diagnostics);
    return;
  }
  if (!trim(elementText).empty()) {
    diagnostics.warning(spec.loc, "text inside a " + spec.type +
                                      " graphic is ignored (only TriaMesh and PointCloud have node lists)");
  }
  if ((spec.type == "Cylinder" || spec.type == "Frustum") && spec.length && *spec.length == 0) {
    diagnostics.error(spec.loc, "attribute 'length' must not be 0 (a negative length extends along -z)");
  }
  if (spec.type == "Frustum" && spec.top_radius && spec.bottom_radius && *spec.top_radius == 0 &&
      *spec.bottom_radius == 0) {
    diagnostics.error(spec.loc, "a Frustum needs top_radius or bottom_radius > 0");
  }
}

std::optional<PlacedShape> primitiveShapeOf(const PostGraphicSpec& graphic) {
  PlacedShape placed;
  const std::string& type = graphic.type;
  if (type == "Sphere") {
    placed.shape = Shape::sphere(*graphic.radius);
  } else if (type == "BoxDefinedFromCenter" || type == "BoxDefinedFromCorner") {
    const Vector3 half = 0.5 * Vector3(*graphic.length_x, *graphic.length_y, *graphic.length_z);
    placed.shape = Shape::box(half);
    // A corner box grows along the corner marker's positive axes.
    if (type == "BoxDefinedFromCorner") placed.inMarker.position = half;
  } else if (type == "Cylinder") {
    // The axis starts at the marker and runs `length` along its z (backwards when negative).
    placed.shape = Shape::cylinder(*graphic.radius, 0.5 * std::fabs(*graphic.length));
    placed.inMarker.position = Vector3(0, 0, 0.5 * *graphic.length);
  } else if (type == "Frustum") {
    placed.shape = Shape::frustum(*graphic.bottom_radius, *graphic.top_radius, std::fabs(*graphic.length));
    // The shape runs along +z; a negative length turns it half a revolution about x.
    if (*graphic.length < 0) placed.inMarker.rotation = Vector3(1, -1, -1).asDiagonal();
  } else if (type == "Ellipsoid") {
    placed.shape = Shape::ellipsoid(Vector3(*graphic.x_scale, *graphic.y_scale, *graphic.z_scale));
  } else {
    return std::nullopt;
  }
  return placed;
}

std::optional<PlacedShape> simscapeShapeOf(const PostGraphicSpec& graphic) {
  PlacedShape placed;
  const std::string& type = graphic.type;
  if (type == "Point") {
    placed.shape = Shape::point();
  } else if (type == "PointCloud") {
    placed.shape = Shape::pointCloud(graphic.cloud_points);
  } else if (type == "Plane") {
    placed.shape = Shape::plane();
  } else if (type == "Disk") {
    placed.shape = Shape::disk(*graphic.radius);
  } else {
    return std::nullopt;
  }
  return placed;
}

std::vector<DrawnGraphic> drawnGraphics(const std::vector<PostGraphicSpec>& graphics,
                                        const std::vector<ReferenceMarkerSpec>& markers, const Model& model) {
  std::map<long, long> bodyOfMarker;  // Reference_Marker id -> Body_Rigid id, ground bodies included
  for (const ReferenceMarkerSpec& marker : markers) bodyOfMarker[marker.id] = marker.body_id;
  std::vector<DrawnGraphic> drawn;
  for (const PostGraphicSpec& graphic : graphics) {
    const Marker* marker = graphic.supported ? model.marker(graphic.markerId()) : nullptr;
    if (!marker) continue;
    TriangleMesh surface;
    Pose inMarker;
    if (std::optional<PlacedShape> primitive = primitiveShapeOf(graphic)) {
      surface = tessellate(primitive->shape, graphic.refinement_level);
      inMarker = primitive->inMarker;
    } else if (graphic.type == "TriaMesh") {
      surface = graphic.mesh;  // the nodes are in the reference marker's frame
    } else {
      continue;
    }
    const Matrix3 rotation = marker->orientation * inMarker.rotation;
    const Vector3 offset = marker->position + marker->orientation * inMarker.position;
    for (Vector3& vertex : surface.vertices) vertex = offset + rotation * vertex;
    drawn.push_back({graphic.id, bodyOfMarker[marker->id], marker->body, std::move(surface)});
  }
  return drawn;
}

}  // namespace lodestone
