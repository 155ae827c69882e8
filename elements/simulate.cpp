// Simulate and Stop: attributes, and the resolution of each Simulate's times against the previous one.
#include "simulate.h"

#include <cmath>

#include "solver/core/text.h"

namespace lodestone {

const ElementSchema<SimulateSpec>& simulateSchema() {
  using S = SimulateSpec;
  static const ElementSchema<S> schema{
      .element = "Simulate",
      .attributes = {
          attr::keyword("analysis_type", &S::analysis_type,
                        {"Transient", "Static", "Quasi-static", "Assembly", "Linear", "Frequency Response"})
              .byDefault(std::string("Transient")),
          attr::real("start_time", &S::start_time),
          attr::real("end_time", &S::end_time),
          attr::real("duration", &S::duration).above(0),
          attr::real("print_interval", &S::print_interval).above(0),
          attr::integer("num_steps", &S::num_steps).atLeast(1),
          attr::ignored<S>("print_increment", "results are written every print_interval"),
          attr::unsupported<S>("restart_array_id", "integrator restarts at given times are not available"),
          attr::ignored<S>("start_freq", "frequency response is not available"),
          attr::ignored<S>("end_freq", "frequency response is not available"),
          attr::ignored<S>("freq_input_id_list", "frequency response is not available"),
          attr::ignored<S>("incr_type", "frequency response is not available"),
          attr::ignored<S>("print_array_id", "results are written every print_interval"),
          attr::presentation<S>("label"),
      }};
  return schema;
}

const ElementSchema<StopSpec>& stopSchema() {
  static const ElementSchema<StopSpec> schema{.element = "Stop", .attributes = {}};
  return schema;
}

void checkSimulate(const SimulateSpec& spec, Diagnostics& diagnostics) {
  if (spec.analysis_type != "Transient") return;  // planSegment refuses it; its times do not matter
  if (spec.end_time && spec.duration) diagnostics.error(spec.loc, "give end_time or duration, not both");
  if (!spec.end_time && !spec.duration) diagnostics.error(spec.loc, "give end_time or duration");
  if (spec.print_interval && spec.num_steps) diagnostics.error(spec.loc, "give print_interval or num_steps, not both");
  if (!spec.print_interval && !spec.num_steps) {
    diagnostics.error(spec.loc, "give print_interval or num_steps to say how often results are written");
  }
}

std::optional<SimulationSegment> planSegment(const SimulateSpec& spec, std::optional<double> currentTime,
                                             Diagnostics& diagnostics) {
  SimulationSegment segment;
  segment.loc = spec.loc;
  if (spec.analysis_type == "Static" || spec.analysis_type == "Assembly") {
    segment.analysis = spec.analysis_type == "Static" ? AnalysisType::Static : AnalysisType::Assembly;
    const double now = currentTime.value_or(spec.start_time.value_or(0.0));
    const double at = spec.end_time.value_or(now);
    if (at < now - 1e-12 * (1.0 + std::fabs(now))) {
      diagnostics.error(spec.loc, "end_time " + formatReal(at) + " is before time " + formatReal(now) +
                                      " reached by the previous Simulate; a " + spec.analysis_type +
                                      " analysis happens at end_time, which must not go back in time");
      return std::nullopt;
    }
    segment.startTime = segment.endTime = std::max(at, now);
    return segment;
  }
  if (spec.analysis_type != "Transient") {
    diagnostics.error(spec.loc, "analysis_type " + spec.analysis_type +
                                    " is not supported yet: Transient, Static and Assembly analyses run in this version");
    return std::nullopt;
  }
  if (currentTime) {
    segment.startTime = *currentTime;
    if (spec.start_time && std::fabs(*spec.start_time - *currentTime) > 1e-12 * (1.0 + std::fabs(*currentTime))) {
      diagnostics.error(spec.loc, "start_time " + formatReal(*spec.start_time) + " differs from time " +
                                      formatReal(*currentTime) + " reached by the previous Simulate; a later Simulate "
                                      "continues from where the previous one ended (leave start_time out)");
      return std::nullopt;
    }
  } else {
    segment.startTime = spec.start_time.value_or(0.0);
  }
  if (spec.end_time) segment.endTime = *spec.end_time;
  else if (spec.duration) segment.endTime = segment.startTime + *spec.duration;
  else return std::nullopt;  // already reported by checkSimulate
  const double span = segment.endTime - segment.startTime;
  if (!(span > 0)) {
    diagnostics.error(spec.loc, "end_time " + formatReal(segment.endTime) + " must be after the start time " +
                                    formatReal(segment.startTime));
    return std::nullopt;
  }
  if (spec.print_interval) segment.printInterval = *spec.print_interval;
  else if (spec.num_steps) segment.printInterval = span / *spec.num_steps;
  else return std::nullopt;
  return segment;
}

}  // namespace lodestone
