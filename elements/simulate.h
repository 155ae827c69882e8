// Simulate and Stop: the commands that run analyses, executed in deck order.
#pragma once

#include <optional>
#include <string>

#include "solver/core/schema.h"

namespace lodestone {

struct SimulateSpec {
  SourceLoc loc;
  std::string analysis_type;
  std::optional<double> start_time, end_time, duration, print_interval;
  std::optional<int> num_steps;
};

struct StopSpec {
  SourceLoc loc;
};

const ElementSchema<SimulateSpec>& simulateSchema();
const ElementSchema<StopSpec>& stopSchema();
void checkSimulate(const SimulateSpec& spec, Diagnostics& diagnostics);

// One transient analysis with its times resolved against the time reached before it.
struct SimulationSegment {
  SourceLoc loc;
  double startTime = 0;
  double endTime = 0;
  double printInterval = 0;  // output every printInterval from startTime; the end time is always an output
};

// Resolves start, end and output step. `currentTime` is where the previous Simulate ended (nullopt for the first).
// Reports an analysis other than Transient and impossible times (an end not after the start, a later Simulate
// that would go back in time).
std::optional<SimulationSegment> planSegment(const SimulateSpec& spec, std::optional<double> currentTime,
                                             Diagnostics& diagnostics);

}  // namespace lodestone
