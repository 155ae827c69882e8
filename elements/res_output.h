// ResOutput: MotionSolve's result-file settings. Lodestone always writes its CSV tables and results.h5 in full
// precision, so most of them have nothing to set; the element switches on the animation, with the contacts' force
// arrows unless contact_gra_output is FALSE (solver/output/animation_writer.h).
#pragma once

#include "solver/core/schema.h"

namespace lodestone {

struct ResOutputSpec {
  SourceLoc loc;
  bool contact_gra_output = true;  // (ours) contacts are drawn unless switched off; MotionSolve's default is FALSE
};

const ElementSchema<ResOutputSpec>& resOutputSchema();

}  // namespace lodestone
