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

enum class AnalysisType { Transient, Static, Assembly };

// One analysis with its times resolved against the time reached before it. Static and Assembly analyses happen
// at one time (startTime = endTime): the equilibrium, or the assembled configuration, there.
struct SimulationSegment {
  SourceLoc loc;
  double startTime = 0;
  double endTime = 0;
  double printInterval = 0;  // output every printInterval from startTime; the end time is always an output
  AnalysisType analysis = AnalysisType::Transient;
};

// Resolves start, end and output step. `currentTime` is where the previous Simulate ended (nullopt for the first).
// Reports analyses other than Transient, Static and Assembly, and impossible times (an end not after the start, a
// later Simulate that would go back in time). A Static or Assembly analysis happens at end_time when given (not
// before the current time), at the current time otherwise.
std::optional<SimulationSegment> planSegment(const SimulateSpec& spec, std::optional<double> currentTime,
                                             Diagnostics& diagnostics);

}  // namespace lodestone
