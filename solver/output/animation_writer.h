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

#include <filesystem>
#include <memory>
#include <span>
#include <vector>

#include "elements/post_graphic.h"
#include "result_tables.h"
#include "solver/core/model.h"

namespace lodestone {

struct AnimationOptions {
  bool contacts = true;  // the contacts block holds the touching pairs (else it stays empty)
  int increment = 1;     // a frame at every increment-th output time, the first among them
};

// Written by the module liblodestone_animation (animation_vtk.cpp), which holds VTK: a run that writes no animation
// never maps it (solver/core/modules.h).
class AnimationWriter {
 public:
  virtual ~AnimationWriter() = default;  // writes the collection with every frame so far

  // At an output time: a frame, when this output is one the increment keeps. `bodies` in model.bodies' order.
  // Throws std::runtime_error when VTK cannot write it.
  virtual void write(double time, const Model& model, std::span<const BodySample> bodies,
                     std::span<const PairReport> contacts, std::span<const JointReaction> joints) = 0;

  // Writes the collection with every frame so far (also done when the writer goes).
  virtual void close() = 0;

  virtual void setOptions(AnimationOptions options) = 0;
  virtual const std::filesystem::path& path() const = 0;  // animation.pvd
  virtual int frames() const = 0;
};

// Creates the folder `resultsFolder`/animation and a writer of the animation into it. Throws std::runtime_error when
// the folder cannot be made or the module cannot be loaded.
std::unique_ptr<AnimationWriter> openAnimation(const std::filesystem::path& resultsFolder,
                                               std::vector<DrawnGraphic> graphics, AnimationOptions options);

// The module's one function, openAnimation's work.
using OpenAnimation = AnimationWriter*(const std::filesystem::path& resultsFolder, std::vector<DrawnGraphic>& graphics,
                                       AnimationOptions options);
inline constexpr const char* kAnimationModule = "liblodestone_animation.so";
inline constexpr const char* kOpenAnimation = "lodestone_open_animation";

}  // namespace lodestone
