// `lodestone debug-summary debug.log`: a DebugOutput trace (solver/output/debug_trace.h) turned into what a user
// debugging contact asks first — per contact pair: first touch, impacts, largest penetration, peak forces, impulse,
// time spent slipping, how often the run blamed it — and where the step size collapsed. The trace is read as a
// stream, one line at a time, in memory that grows with the number of pairs and not with the trace's length (a stiff
// run writes gigabytes). Parsing and summarising are pure, so they are tested on text.
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace lodestone::cli {

// One trace line, [LEVEL][t=…][topic][label] key = value, …, viewing the text it was parsed from.
struct TraceLine {
  std::string_view level;
  double time = 0;
  std::string_view topic;
  std::string_view label;
  std::vector<std::pair<std::string_view, std::string_view>> fields;  // in the line's order
  // The value of `key`; empty when the line has no such field.
  std::string_view field(std::string_view key) const;
};
// False when the text is not in the trace's shape. `line` keeps its fields' storage from one call to the next.
bool parseTraceLine(std::string_view text, TraceLine& line);

struct ContactSummary {
  std::string element;  // "Force_Contact/300"
  long id = 0;          // the Force_Contact's id (impacts.csv's `id`)
  long iGraphic = 0, jGraphic = 0;
  std::optional<double> firstTouch;
  // Touching only in the step IDAS failed ([failure][contact], seen = attempted-step), never at an accepted one:
  // the first touch is the time the failed step started from.
  bool firstTouchInFailedStep = false;
  // Contact episodes: onsets, and touching seen with no onset before (impacts.csv's rows).
  int impacts = 0;
  // The rest are of the accepted steps' [contact][pair] lines.
  double maxPenetration = 0, maxPenetrationTime = 0;
  double peakNormalForce = 0, peakNormalForceTime = 0;
  double peakFrictionForce = 0;
  double peakSlipSpeed = 0;  // while touching
  // Time in contact with the slip speed above 1 % of the pair's peak: the traced steps touching at both ends whose
  // slip speed at the end is above it, summed. To keep memory bounded, speeds are binned 1 % wide and the bin holding
  // the threshold counts in proportion to its part above it: steps within 1 % of the threshold count approximately
  // (0.08 % off on a creeping block whose speed sits at the threshold).
  double slipTime = 0;
  // ∫ fn dt over the episodes, by the trapezoidal rule over the traced steps from onset to separation, as impacts.csv
  // sums its `impulse`.
  double impulse = 0;
  int blamed = 0;  // struggling steps and failures that named this pair ([step][culprit], [failure][contact])
};

struct StepCollapse {
  double time = 0;
  double from = 0, to = 0;  // step sizes before and at the collapse
};

// A [failure] line other than advice.
struct TraceFailure {
  double time = 0;
  std::string label;                                       // integrator, contact
  std::vector<std::pair<std::string, std::string>> fields;  // in the line's order
};

struct TraceSummary {
  static constexpr size_t kCollapsesKept = 10;
  std::vector<ContactSummary> contacts;  // in order of first appearance
  long steps = 0;
  double smallestStep = 0, smallestStepTime = 0, largestStep = 0;
  long collapses = 0;                      // steps at least 10 times shorter than the one before
  std::vector<StepCollapse> firstCollapses;  // the first kCollapsesKept of them
  int struggles = 0;
  std::vector<TraceFailure> failures;
  long unreadLines = 0;  // lines not in the trace's shape
};

// Reads a trace one line at a time.
class TraceSummariser {
 public:
  void add(std::string_view text);
  // The summary of the lines added so far.
  TraceSummary finish() const;

 private:
  struct PairState {
    bool episodeOpen = false;
    double lastTime = 0, lastForce = 0;          // the open episode's latest sample, for the impulse
    bool touching = false;                        // at the previous [contact][pair] line
    double sampleTime = 0;                        // and its time
    std::map<int, double> slipTimeByBin;          // step time in contact by 1 %-wide bin of slip speed
  };
  ContactSummary& pairOf(const TraceLine& line, PairState*& state);
  void addStep(const TraceLine& line);
  void addPair(const TraceLine& line);
  void addEvent(const TraceLine& line);
  void addBlame(const TraceLine& line);

  TraceSummary summary_;
  std::vector<PairState> states_;  // beside summary_.contacts
  // (element, i, j) of each contact pair: summary_.contacts' index. Looked up with the line's string_view, compared
  // as views: clang 14 with libstdc++ 12 cannot order a tuple of std::string against one of std::string_view.
  struct PairKeyLess {
    using is_transparent = void;
    template <class Key>
    static std::tuple<std::string_view, long, long> view(const Key& key) {
      return {std::get<0>(key), std::get<1>(key), std::get<2>(key)};
    }
    template <class A, class B>
    bool operator()(const A& a, const B& b) const { return view(a) < view(b); }
  };
  std::map<std::tuple<std::string, long, long>, size_t, PairKeyLess> index_;
  TraceLine line_;
  double previousStep_ = 0;
};

TraceSummary summariseTrace(std::istream& trace);

// For a person: the table of pairs, the steps, the failure.
std::string formatSummary(const TraceSummary& summary, const std::string& traceName);
// For a script: one row per pair (README, "Debugging contact", lists the columns).
std::string formatSummaryCsv(const TraceSummary& summary);
// For a script: the whole summary as one JSON object.
std::string formatSummaryJson(const TraceSummary& summary, const std::string& traceName);

}  // namespace lodestone::cli
