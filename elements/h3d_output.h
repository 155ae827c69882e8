// H3DOutput: MotionSolve's animation file. In Lodestone it switches on the animation (animation.pvd, a VTK time
// series ParaView plays; solver/output/animation_writer.h) and says how many output times make one frame.
#pragma once

#include "solver/core/schema.h"

namespace lodestone {

struct H3DOutputSpec {
  SourceLoc loc;
  bool switch_on = true;  // (ours) the element alone switches the animation on; MotionSolve leaves the default unsaid
  int increment = 1;      // a frame every increment-th output time
};

const ElementSchema<H3DOutputSpec>& h3dOutputSchema();

}  // namespace lodestone
