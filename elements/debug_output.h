// DebugOutput: switches on the structured trace (debug.log; solver/output/debug_trace.h) and its echo on the
// terminal, and (ours) narrows it to some topics, a time window and some contacts, so that a long or stiff run
// writes only the lines asked for.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "solver/core/schema.h"

namespace lodestone {

struct DebugOutputSpec {
  SourceLoc loc;
  bool switch_on = true;  // (ours) the element alone switches the trace on; MotionSolve leaves the default unsaid
  bool screen_output = false;
  // (ours) Filters; empty or unset: no limit. A line is written when its topic is listed, its time lies in
  // [start_time, end_time], and, when it names a Force_Contact (its element field), that contact is listed.
  std::vector<std::string> topics;
  std::optional<double> start_time, end_time;
  std::vector<long> contact_ids;
};

// The trace's topics, as its lines name them: step, contact, events, usersub, failure.
const std::vector<std::string>& debugTraceTopics();

const ElementSchema<DebugOutputSpec>& debugOutputSchema();
void checkDebugOutput(const DebugOutputSpec& spec, Diagnostics& diagnostics);

}  // namespace lodestone
