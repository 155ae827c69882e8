// DebugOutput: switches on the structured trace (debug.log; solver/output/debug_trace.h) and its echo on the
// terminal.
#pragma once

#include "solver/core/schema.h"

namespace lodestone {

struct DebugOutputSpec {
  SourceLoc loc;
  bool switch_on = true;  // (ours) the element alone switches the trace on; MotionSolve leaves the default unsaid
  bool screen_output = false;
};

const ElementSchema<DebugOutputSpec>& debugOutputSchema();

}  // namespace lodestone
