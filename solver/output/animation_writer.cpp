// Writing the animation's frames with vtkXMLMultiBlockDataWriter and its collection with VTK's XML utilities.
// The graphics' triangles are built once; each frame moves their points and rebuilds the small contacts and joints
// blocks.
#include "animation_writer.h"

#include <vtkCellArray.h>
#include <vtkCompositeDataSet.h>
#include <vtkDoubleArray.h>
#include <vtkIndent.h>
#include <vtkInformation.h>
#include <vtkMultiBlockDataSet.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkCellData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkTypeInt64Array.h>
#include <vtkXMLDataElement.h>
#include <vtkXMLMultiBlockDataWriter.h>
#include <vtkXMLUtilities.h>

#include <cstdio>
#include <map>
#include <stdexcept>

#include "elements/constraint_joint.h"
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

}  // namespace

struct AnimationWriter::Vtk {
  vtkNew<vtkPolyData> graphics;
  vtkNew<vtkPoints> graphicPoints;
  vtkNew<vtkXMLMultiBlockDataWriter> writer;
  vtkNew<vtkXMLDataElement> collection;  // the <Collection> inside animation.pvd's <VTKFile>
  vtkNew<vtkXMLDataElement> file;
};

AnimationWriter::AnimationWriter(const std::filesystem::path& resultsFolder, std::vector<DrawnGraphic> graphics,
                                 AnimationOptions options)
    : folder_(resultsFolder / "animation"), collectionPath_(resultsFolder / "animation.pvd"),
      graphics_(std::move(graphics)), options_(options), vtk_(std::make_unique<Vtk>()) {
  std::error_code error;
  std::filesystem::create_directories(folder_, error);
  if (error) throw std::runtime_error("cannot create the folder " + folder_.string() + ": " + error.message());

  // The triangles and their cell data never change: built once, with the points in the bodies' frames.
  vtkIdType vertexCount = 0;
  for (const DrawnGraphic& graphic : graphics_) vertexCount += static_cast<vtkIdType>(graphic.surface.vertices.size());
  vtk_->graphicPoints->SetDataTypeToDouble();
  vtk_->graphicPoints->SetNumberOfPoints(vertexCount);
  vtkNew<vtkCellArray> triangles;
  vtkNew<vtkTypeInt64Array> bodyIds, graphicIds;
  bodyIds->SetName("body_id");
  graphicIds->SetName("graphic_id");
  vtkIdType first = 0;
  for (const DrawnGraphic& graphic : graphics_) {
    for (const auto& triangle : graphic.surface.triangles) {
      const vtkIdType corners[3] = {first + triangle[0], first + triangle[1], first + triangle[2]};
      triangles->InsertNextCell(3, corners);
      bodyIds->InsertNextValue(graphic.bodyId);
      graphicIds->InsertNextValue(graphic.id);
    }
    first += static_cast<vtkIdType>(graphic.surface.vertices.size());
  }
  vtk_->graphics->SetPoints(vtk_->graphicPoints);
  vtk_->graphics->SetPolys(triangles);
  vtk_->graphics->GetCellData()->AddArray(bodyIds);
  vtk_->graphics->GetCellData()->AddArray(graphicIds);

  // Raw appended binary without compression: the cheapest to write, and what ParaView reads fastest.
  vtk_->writer->SetDataModeToAppended();
  vtk_->writer->EncodeAppendedDataOff();
  vtk_->writer->SetCompressorTypeToNone();
  vtk_->writer->SetHeaderTypeToUInt64();

  vtk_->file->SetName("VTKFile");
  vtk_->file->SetAttribute("type", "Collection");
  vtk_->file->SetAttribute("version", "0.1");
  vtk_->file->SetAttribute("byte_order", "LittleEndian");
  vtk_->collection->SetName("Collection");
  vtk_->file->AddNestedElement(vtk_->collection);
}

AnimationWriter::~AnimationWriter() = default;

void AnimationWriter::write(double time, const Model& model, std::span<const BodySample> bodies,
                            std::span<const PairReport> contacts, std::span<const JointReaction> joints) {
  const long output = outputs_++;
  if (output % options_.increment != 0) return;

  moveGraphics(bodies);
  vtkNew<vtkMultiBlockDataSet> frame;
  frame->SetNumberOfBlocks(3);
  frame->SetBlock(0, vtk_->graphics);
  frame->GetMetaData(0u)->Set(vtkCompositeDataSet::NAME(), "graphics");
  vtkNew<vtkPolyData> contactPoints, jointPoints;
  frame->SetBlock(1, contactPoints);
  frame->GetMetaData(1u)->Set(vtkCompositeDataSet::NAME(), "contacts");
  frame->SetBlock(2, jointPoints);
  frame->GetMetaData(2u)->Set(vtkCompositeDataSet::NAME(), "joints");

  placeContacts(contacts, *contactPoints);
  placeJoints(model, bodies, joints, *jointPoints);

  char name[32];
  std::snprintf(name, sizeof name, "frame_%06d.vtm", frames_);
  const std::filesystem::path framePath = folder_ / name;
  vtk_->writer->SetFileName(framePath.c_str());
  vtk_->writer->SetInputData(frame);
  if (vtk_->writer->Write() != 1) throw std::runtime_error("cannot write the animation frame " + framePath.string());
  ++frames_;
  addToCollection(time, (std::filesystem::path("animation") / name).string());
}

void AnimationWriter::placeContacts(std::span<const PairReport> contacts, vtkPolyData& block) const {
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  auto normalForce = vectorArray("normal_force"), frictionForce = vectorArray("friction_force"),
       normal = vectorArray("normal");
  auto elementIds = idArray("force_contact_id"), iGraphics = idArray("i_graphic"), jGraphics = idArray("j_graphic");
  vtkNew<vtkDoubleArray> penetration;
  penetration->SetName("penetration");
  if (options_.contacts) {
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
void AnimationWriter::placeJoints(const Model& model, std::span<const BodySample> bodies,
                                  std::span<const JointReaction> joints, vtkPolyData& block) {
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  auto xAxis = vectorArray("x_axis"), yAxis = vectorArray("y_axis"), zAxis = vectorArray("z_axis"),
       reaction = vectorArray("reaction_force");
  auto jointIds = idArray("joint_id");
  std::map<long, Vector3> reactions;
  for (const JointReaction& joint : joints) reactions[joint.id] = joint.force;
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
      const auto found = reactions.find(joint.id);
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

void AnimationWriter::moveGraphics(std::span<const BodySample> bodies) {
  double* point = static_cast<vtkDoubleArray*>(vtk_->graphicPoints->GetData())->GetPointer(0);
  for (const DrawnGraphic& graphic : graphics_) {
    const Pose pose = poseOf(graphic.body, bodies);
    for (const Vector3& vertex : graphic.surface.vertices) {
      Eigen::Map<Vector3> target(point);
      target = pose.position + pose.rotation * vertex;
      point += 3;
    }
  }
  vtk_->graphicPoints->Modified();
}

void AnimationWriter::addToCollection(double time, const std::string& frameFile) {
  vtkNew<vtkXMLDataElement> dataSet;
  dataSet->SetName("DataSet");
  dataSet->SetAttribute("timestep", formatReal(time).c_str());
  dataSet->SetAttribute("group", "");
  dataSet->SetAttribute("part", "0");
  dataSet->SetAttribute("file", frameFile.c_str());
  vtk_->collection->AddNestedElement(dataSet);
  vtkIndent indent;
  if (vtkXMLUtilities::WriteElementToFile(vtk_->file, collectionPath_.c_str(), &indent) != 1) {
    throw std::runtime_error("cannot write " + collectionPath_.string());
  }
}

}  // namespace lodestone
