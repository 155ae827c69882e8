// `lodestone debug-summary debug.log`: a DebugOutput trace (solver/output/debug_trace.h) turned into what a user
// debugging contact asks first — per contact pair: first touch, number of impacts, largest penetration, peak
// forces, time spent slipping — and where the step size collapsed. Parsing and summarising are pure, so they are
// tested on text.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace lodestone::cli {

// One trace line: [LEVEL][t=…][topic][label] key = value, …
struct TraceLine {
  std::string level;
  double time = 0;
  std::string topic;
  std::string label;
  std::map<std::string, std::string> fields;
};
// Nothing when the line is not in the trace's shape.
std::optional<TraceLine> parseTraceLine(std::string_view text);

struct ContactSummary {
  std::string element;  // "Force_Contact/300"
  long iGraphic = 0, jGraphic = 0;
  std::optional<double> firstTouch;
  int impacts = 0;               // onsets
  double maxPenetration = 0;
  double maxPenetrationTime = 0;
  double peakNormalForce = 0;
  double peakFrictionForce = 0;
  double peakSlipSpeed = 0;
  // Time in contact with the slip speed above 1 % of the pair's peak: the trace's steps in contact at both ends,
  // summed.
  double slipTime = 0;
};

struct StepCollapse {
  double time = 0;
  double from = 0, to = 0;  // step sizes before and at the collapse
};

struct TraceSummary {
  std::vector<ContactSummary> contacts;  // in order of first appearance
  long steps = 0;
  double smallestStep = 0, smallestStepTime = 0, largestStep = 0;
  std::vector<StepCollapse> collapses;   // a step at least 10 times shorter than the one before
  int struggles = 0;
  std::vector<std::string> failures;     // [failure] lines' fields, as text
  long unreadLines = 0;                  // lines not in the trace's shape
};

TraceSummary summariseTrace(const std::vector<std::string>& lines);
std::string formatSummary(const TraceSummary& summary, const std::string& traceName);

}  // namespace lodestone::cli
