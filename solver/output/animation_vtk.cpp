// Writing the animation's parts with vtkXMLPolyDataWriter and its collection with VTK's XML utilities: the module
// liblodestone_animation (animation_writer.h). The graphics' triangles are built once; each frame moves their points
// and rebuilds the small contacts and joints parts.
#include "animation_writer.h"

#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkFloatArray.h>
#include <vtkIndent.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkTypeInt64Array.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLUtilities.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <stdexcept>

#include "elements/constraint_joint.h"
#include "solver/core/modules.h"
#include "solver/core/text.h"

namespace lodestone {

namespace {

vtkNew<vtkDoubleArray> vectorArray(const char* name) {
  vtkNew<vtkDoubleArray> array;
  array->SetName(name);
  array->SetNumberOfComponents(3);
  return array;
}

vtkNew<vtkTypeInt64Array> idArray(const char* name) {
  vtkNew<vtkTypeInt64Array> array;
  array->SetName(name);
  return array;
}

// A set of points, each its own vertex cell, so that ParaView shows them and glyphs them.
void setVertices(vtkPolyData& data, vtkPoints& points) {
  vtkNew<vtkCellArray> vertices;
  for (vtkIdType p = 0; p < points.GetNumberOfPoints(); ++p) vertices->InsertNextCell(1, &p);
  data.SetPoints(&points);
  data.SetVerts(vertices);
}

// A body's pose in ground at this frame; ground's for index -1.
Pose poseOf(int body, std::span<const BodySample> bodies) {
  if (body < 0) return {};
  const BodySample& sample = bodies[static_cast<size_t>(body)];
  return {sample.position, rotationFromEulerParameters(sample.eulerParameters)};
}

class VtkAnimationWriter final : public AnimationWriter {
 public:
  // Creates the folder `resultsFolder`/animation; throws std::runtime_error when it cannot.
  VtkAnimationWriter(const std::filesystem::path& resultsFolder, std::vector<DrawnGraphic> graphics,
                     AnimationOptions options);
  ~VtkAnimationWriter() override;

  void write(double time, const Model& model, std::span<const BodySample> bodies, std::span<const PairReport> contacts,
             std::span<const JointReaction> joints) override;
  void close() override { writeCollection(); }
  void setOptions(AnimationOptions options) override { options_ = options; }
  const std::filesystem::path& path() const override { return collectionPath_; }
  int frames() const override { return frames_; }

 private:
  void moveGraphics(std::span<const BodySample> bodies);
  static void placeContacts(std::span<const PairReport> contacts, vtkPolyData& block);
  static void placeJoints(const Model& model, std::span<const BodySample> bodies, std::span<const JointReaction> joints,
                          vtkPolyData& block);
  // Writes `data` as this frame's `part`, and lists it in the collection.
  void writePart(double time, int part, const char* name, vtkPolyData& data);
  void writeCollection();

  std::filesystem::path folder_;
  std::filesystem::path collectionPath_;
  std::vector<DrawnGraphic> graphics_;
  AnimationOptions options_;
  vtkNew<vtkPolyData> graphicsData_;
  vtkNew<vtkPoints> graphicPoints_;
  vtkNew<vtkXMLPolyDataWriter> writer_;
  vtkNew<vtkXMLDataElement> collection_;  // the <Collection> inside animation.pvd's <VTKFile>
  vtkNew<vtkXMLDataElement> file_;
  long outputs_ = 0;
  int frames_ = 0;
  std::chrono::steady_clock::time_point collectionWritten_ = std::chrono::steady_clock::now();
};

VtkAnimationWriter::VtkAnimationWriter(const std::filesystem::path& resultsFolder, std::vector<DrawnGraphic> graphics,
                                       AnimationOptions options)
    : folder_(resultsFolder / "animation"), collectionPath_(resultsFolder / "animation.pvd"),
      graphics_(std::move(graphics)), options_(options) {
  std::error_code error;
  std::filesystem::create_directories(folder_, error);
  if (error) throw std::runtime_error("cannot create the folder " + folder_.string() + ": " + error.message());

  // The triangles and their cell data never change: built once. Every frame rewrites them all the same, so they are
  // kept as small as they can be: 32-bit corners and ids (64-bit only for ids that need it), and points in single
  // precision, which is what a viewer draws with (a millionth of the model's size).
  vtkIdType vertexCount = 0;
  long largestId = 0;
  for (const DrawnGraphic& graphic : graphics_) {
    vertexCount += static_cast<vtkIdType>(graphic.surface.vertices.size());
    largestId = std::max({largestId, std::abs(graphic.id), std::abs(graphic.bodyId)});
  }
  graphicPoints_->SetDataTypeToFloat();
  graphicPoints_->SetNumberOfPoints(vertexCount);
  vtkNew<vtkCellArray> triangles;
  if (vertexCount < std::numeric_limits<std::int32_t>::max()) triangles->Use32BitStorage();
  const int idType = largestId <= std::numeric_limits<std::int32_t>::max() ? VTK_TYPE_INT32 : VTK_TYPE_INT64;
  vtkSmartPointer<vtkDataArray> bodyIds = vtk::TakeSmartPointer(vtkDataArray::CreateDataArray(idType));
  vtkSmartPointer<vtkDataArray> graphicIds = vtk::TakeSmartPointer(vtkDataArray::CreateDataArray(idType));
  bodyIds->SetName("body_id");
  graphicIds->SetName("graphic_id");
  vtkIdType first = 0;
  for (const DrawnGraphic& graphic : graphics_) {
    for (const auto& triangle : graphic.surface.triangles) {
      const vtkIdType corners[3] = {first + triangle[0], first + triangle[1], first + triangle[2]};
      triangles->InsertNextCell(3, corners);
    }
    // On the points rather than the triangles: half as many values, and colouring by them looks the same.
    for (size_t vertex = 0; vertex < graphic.surface.vertices.size(); ++vertex) {
      bodyIds->InsertNextTuple1(static_cast<double>(graphic.bodyId));
      graphicIds->InsertNextTuple1(static_cast<double>(graphic.id));
    }
    first += static_cast<vtkIdType>(graphic.surface.vertices.size());
  }
  graphicsData_->SetPoints(graphicPoints_);
  graphicsData_->SetPolys(triangles);
  graphicsData_->GetPointData()->AddArray(bodyIds);
  graphicsData_->GetPointData()->AddArray(graphicIds);

  // Raw appended binary without compression: the cheapest to write, and what ParaView reads fastest.
  writer_->SetDataModeToAppended();
  writer_->EncodeAppendedDataOff();
  writer_->SetCompressorTypeToNone();
  writer_->SetHeaderTypeToUInt64();

  file_->SetName("VTKFile");
  file_->SetAttribute("type", "Collection");
  file_->SetAttribute("version", "0.1");
  file_->SetAttribute("byte_order", "LittleEndian");
  collection_->SetName("Collection");
  file_->AddNestedElement(collection_);
}

VtkAnimationWriter::~VtkAnimationWriter() {
  // The owner closes the writer where a failure can be told; here it cannot.
  try {
    writeCollection();
  } catch (const std::runtime_error&) {
  }
}

void VtkAnimationWriter::write(double time, const Model& model, std::span<const BodySample> bodies,
                            std::span<const PairReport> contacts, std::span<const JointReaction> joints) {
  const long output = outputs_++;
  if (output % options_.increment != 0) return;
  moveGraphics(bodies);
  writePart(time, 0, "graphics", *graphicsData_);
  if (options_.contacts && model.contacts && !model.contacts->elements.empty()) {
    vtkNew<vtkPolyData> touching;
    placeContacts(contacts, *touching);
    writePart(time, 1, "contacts", *touching);
  }
  const auto isJoint = [](const Joint& joint) { return !joint.isMotion(); };
  if (model.constraints && std::any_of(model.constraints->joints.begin(), model.constraints->joints.end(), isJoint)) {
    vtkNew<vtkPolyData> markers;
    placeJoints(model, bodies, joints, *markers);
    writePart(time, 2, "joints", *markers);
  }
  ++frames_;
  if (std::chrono::steady_clock::now() - collectionWritten_ >= std::chrono::seconds(1)) writeCollection();
}

void VtkAnimationWriter::placeContacts(std::span<const PairReport> contacts, vtkPolyData& block) {
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  auto normalForce = vectorArray("normal_force"), frictionForce = vectorArray("friction_force"),
       normal = vectorArray("normal");
  auto elementIds = idArray("force_contact_id"), iGraphics = idArray("i_graphic"), jGraphics = idArray("j_graphic");
  vtkNew<vtkDoubleArray> penetration;
  penetration->SetName("penetration");
  for (const PairReport& pair : contacts) {
    if (!pair.inContact) continue;
    // The total force on I, split along the normal and across it (friction).
    const Vector3 along = pair.force.dot(pair.normal) * pair.normal;
    const Vector3 across = pair.force - along;
    points->InsertNextPoint(pair.point.data());
    normalForce->InsertNextTuple(along.data());
    frictionForce->InsertNextTuple(across.data());
    normal->InsertNextTuple(pair.normal.data());
    elementIds->InsertNextValue(pair.elementId);
    iGraphics->InsertNextValue(pair.iGraphic);
    jGraphics->InsertNextValue(pair.jGraphic);
    penetration->InsertNextValue(pair.penetration);
  }
  setVertices(block, *points);
  vtkPointData* data = block.GetPointData();
  for (vtkDataArray* array : std::initializer_list<vtkDataArray*>{normalForce, frictionForce, normal, elementIds,
                                                                  iGraphics, jGraphics, penetration}) {
    data->AddArray(array);
  }
  data->SetActiveVectors("normal_force");
}

// Each joint at its I marker, with the marker's axes.
void VtkAnimationWriter::placeJoints(const Model& model, std::span<const BodySample> bodies,
                                  std::span<const JointReaction> joints, vtkPolyData& block) {
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  auto xAxis = vectorArray("x_axis"), yAxis = vectorArray("y_axis"), zAxis = vectorArray("z_axis"),
       reaction = vectorArray("reaction_force");
  auto jointIds = idArray("joint_id");
  // By element and id: a motion (or a primitive) may share a joint's id, and its row is not that joint's reaction.
  std::map<std::pair<std::string, long>, Vector3> reactions;
  for (const JointReaction& joint : joints) reactions[{joint.element, joint.id}] = joint.force;
  if (model.constraints) {
    for (const Joint& joint : model.constraints->joints) {
      if (joint.isMotion()) continue;  // on its joint's markers, drawn with the joint
      const Marker& marker = model.markers[static_cast<size_t>(joint.markerI)];
      const Pose body = poseOf(marker.body, bodies);
      const Vector3 origin = body.position + body.rotation * marker.position;
      const Matrix3 axes = body.rotation * marker.orientation;
      points->InsertNextPoint(origin.data());
      const Vector3 x = axes.col(0), y = axes.col(1), z = axes.col(2);
      xAxis->InsertNextTuple(x.data());
      yAxis->InsertNextTuple(y.data());
      zAxis->InsertNextTuple(z.data());
      const auto found = reactions.find({joint.loc.element, joint.id});
      const Vector3 force = found == reactions.end() ? Vector3::Zero() : found->second;
      reaction->InsertNextTuple(force.data());
      jointIds->InsertNextValue(joint.id);
    }
  }
  setVertices(block, *points);
  vtkPointData* data = block.GetPointData();
  for (vtkDataArray* array : std::initializer_list<vtkDataArray*>{xAxis, yAxis, zAxis, reaction, jointIds}) {
    data->AddArray(array);
  }
}

void VtkAnimationWriter::moveGraphics(std::span<const BodySample> bodies) {
  float* point = static_cast<vtkFloatArray*>(graphicPoints_->GetData())->GetPointer(0);
  for (const DrawnGraphic& graphic : graphics_) {
    const Pose pose = poseOf(graphic.body, bodies);
    for (const Vector3& vertex : graphic.surface.vertices) {
      Eigen::Map<Eigen::Vector3f> target(point);
      target = (pose.position + pose.rotation * vertex).cast<float>();
      point += 3;
    }
  }
  graphicPoints_->Modified();
}

void VtkAnimationWriter::writePart(double time, int part, const char* name, vtkPolyData& data) {
  char file[64];
  std::snprintf(file, sizeof file, "%s_%06d.vtp", name, frames_);
  const std::filesystem::path path = folder_ / file;
  writer_->SetFileName(path.c_str());
  writer_->SetInputData(&data);
  if (writer_->Write() != 1) throw std::runtime_error("cannot write the animation frame " + path.string());
  vtkNew<vtkXMLDataElement> dataSet;
  dataSet->SetName("DataSet");
  dataSet->SetAttribute("timestep", formatReal(time).c_str());
  dataSet->SetAttribute("group", "");
  dataSet->SetAttribute("part", std::to_string(part).c_str());
  dataSet->SetAttribute("name", name);
  dataSet->SetAttribute("file", (std::filesystem::path("animation") / file).c_str());
  collection_->AddNestedElement(dataSet);
}

void VtkAnimationWriter::writeCollection() {
  vtkIndent indent;
  if (vtkXMLUtilities::WriteElementToFile(file_, collectionPath_.c_str(), &indent) != 1) {
    throw std::runtime_error("cannot write " + collectionPath_.string());
  }
  collectionWritten_ = std::chrono::steady_clock::now();
}

}  // namespace

}  // namespace lodestone

LODESTONE_MODULE_ENTRY lodestone::AnimationWriter* lodestone_open_animation(
    const std::filesystem::path& resultsFolder, std::vector<lodestone::DrawnGraphic>& graphics,
    lodestone::AnimationOptions options) {
  return new lodestone::VtkAnimationWriter(resultsFolder, std::move(graphics), options);
}
