// The animation: a time series of the whole model that ParaView plays, written through VTK's XML writers.
// animation.pvd is the collection ParaView opens: per frame, with its time, up to three parts (ParaView shows them
// as the blocks of one multiblock), each a polydata file in animation/:
//   part 0, graphics_NNNNNN.vtp  every Post_Graphic a viewer can draw, moved with its body; point data body_id and
//                                graphic_id
//   part 1, contacts_NNNNNN.vtp  (decks with Force_Contact) a point per touching pair at its contact point: vectors
//                                normal_force and friction_force (the force on the I body split along and across the
//                                normal) and normal; force_contact_id, i_graphic, j_graphic, penetration
//   part 2, joints_NNNNNN.vtp    (decks with joints) a point per joint at its I marker: its axes x_axis, y_axis,
//                                z_axis, reaction_force, joint_id
// One file per part and frame, no folders: creating files is most of what a frame costs. The collection is
// rewritten about once a second of wall time and when the writer closes, so a run that fails leaves an animation up
// to the failure.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "elements/post_graphic.h"
#include "result_tables.h"
#include "solver/core/model.h"

class vtkPolyData;

namespace lodestone {

struct AnimationOptions {
  bool contacts = true;  // the contacts block holds the touching pairs (else it stays empty)
  int increment = 1;     // a frame at every increment-th output time, the first among them
};

class AnimationWriter {
 public:
  // Creates the folder `resultsFolder`/animation; throws std::runtime_error when it cannot.
  AnimationWriter(const std::filesystem::path& resultsFolder, std::vector<DrawnGraphic> graphics,
                  AnimationOptions options);
  ~AnimationWriter();
  AnimationWriter(const AnimationWriter&) = delete;
  AnimationWriter& operator=(const AnimationWriter&) = delete;

  // At an output time: a frame, when this output is one the increment keeps. `bodies` in model.bodies' order.
  // Throws std::runtime_error when VTK cannot write it.
  void write(double time, const Model& model, std::span<const BodySample> bodies, std::span<const PairReport> contacts,
             std::span<const JointReaction> joints);

  // Writes the collection with every frame so far (also done when the writer goes).
  void close();

  void setOptions(AnimationOptions options) { options_ = options; }
  const std::filesystem::path& path() const { return collectionPath_; }  // animation.pvd
  int frames() const { return frames_; }

 private:
  struct Vtk;  // VTK's objects, kept out of this header

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
  std::unique_ptr<Vtk> vtk_;
  long outputs_ = 0;
  int frames_ = 0;
  std::chrono::steady_clock::time_point collectionWritten_ = std::chrono::steady_clock::now();
};

}  // namespace lodestone
