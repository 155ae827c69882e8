// Reading a DebugOutput trace back, as a stream, and summarising it per contact pair.
#include "debug_summary.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <istream>

#include <nlohmann/json.hpp>

#include "solver/core/text.h"
#include "solver/output/number_format.h"

namespace lodestone::cli {

namespace {

// "[x]" at the front of `rest`: x, and `rest` moved past it.
std::optional<std::string_view> bracketed(std::string_view& rest) {
  if (rest.empty() || rest.front() != '[') return std::nullopt;
  const size_t close = rest.find(']');
  if (close == std::string_view::npos) return std::nullopt;
  const std::string_view inside = rest.substr(1, close - 1);
  rest.remove_prefix(close + 1);
  return inside;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r' || text.back() == '\n')) text.remove_suffix(1);
  return text;
}

// The whole text as a number; `fallback` when it is not one.
template <class Number>
Number numberIn(std::string_view text, Number fallback = 0) {
  Number value = fallback;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() ? value : fallback;
}

double number(const TraceLine& line, std::string_view key) { return numberIn<double>(line.field(key)); }

// "Force_Contact/300": 300.
long elementId(std::string_view element) {
  const size_t slash = element.rfind('/');
  return slash == std::string_view::npos ? 0 : numberIn<long>(element.substr(slash + 1));
}

// A figure of the summary: run.log's scientific style, five significant digits.
std::string figure(double value) { return scientific(value, 4); }

// Slip speeds are kept as time per 1 %-wide bin of speed: bin k holds speeds in [1.01^k, 1.01^(k+1)).
const double kSlipBinWidth = std::log1p(0.01);
int slipBin(double speed) { return static_cast<int>(std::floor(std::log(speed) / kSlipBinWidth)); }

}  // namespace

std::string_view TraceLine::field(std::string_view key) const {
  for (const auto& [name, value] : fields) {
    if (name == key) return value;
  }
  return {};
}

bool parseTraceLine(std::string_view text, TraceLine& line) {
  std::string_view rest = text;
  const auto level = bracketed(rest);
  const auto time = bracketed(rest);
  const auto topic = bracketed(rest);
  const auto label = bracketed(rest);
  if (!level || !time || !topic || !label || !time->starts_with("t=")) return false;
  const std::string_view timeText = time->substr(2);
  const auto [end, error] = std::from_chars(timeText.data(), timeText.data() + timeText.size(), line.time);
  if (error != std::errc() || end != timeText.data() + timeText.size()) return false;
  line.level = *level;
  line.topic = *topic;
  line.label = *label;
  line.fields.clear();
  rest = trimmed(rest);
  while (!rest.empty()) {
    const size_t comma = rest.find(", ");
    const std::string_view field = rest.substr(0, comma);
    const size_t equals = field.find(" = ");
    if (equals == std::string_view::npos) return false;
    line.fields.emplace_back(trimmed(field.substr(0, equals)), trimmed(field.substr(equals + 3)));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 2);
  }
  return true;
}

// ---- reading ----------------------------------------------------------------------------------------------------

void TraceSummariser::add(std::string_view text) {
  if (!parseTraceLine(text, line_)) {
    if (!trimmed(text).empty()) ++summary_.unreadLines;
    return;
  }
  const TraceLine& line = line_;
  if (line.topic == "step") {
    if (line.label == "end-step") addStep(line);
    else if (line.label == "struggling") ++summary_.struggles;
    else if (line.label == "culprit") addBlame(line);
  } else if (line.topic == "contact") {
    if (line.label == "pair") addPair(line);
    else if (line.label == "onset" || line.label == "separation") addEvent(line);
  } else if (line.topic == "failure" && line.label != "advice") {
    TraceFailure failure{line.time, std::string(line.label), {}};
    for (const auto& [key, value] : line.fields) failure.fields.emplace_back(key, value);
    summary_.failures.push_back(std::move(failure));
    if (line.label == "contact") addBlame(line);
  }
}

ContactSummary& TraceSummariser::pairOf(const TraceLine& line, PairState*& state) {
  const std::string_view element = line.field("element");
  const std::tuple<std::string_view, long, long> key{element, numberIn<long>(line.field("i")),
                                                     numberIn<long>(line.field("j"))};
  auto found = index_.find(key);
  if (found == index_.end()) {
    found = index_.emplace(std::tuple{std::string(element), std::get<1>(key), std::get<2>(key)},
                           summary_.contacts.size()).first;
    ContactSummary contact;
    contact.element = element;
    contact.id = elementId(element);
    contact.iGraphic = std::get<1>(key);
    contact.jGraphic = std::get<2>(key);
    summary_.contacts.push_back(std::move(contact));
    states_.emplace_back();
  }
  state = &states_[found->second];
  return summary_.contacts[found->second];
}

void TraceSummariser::addStep(const TraceLine& line) {
  const double h = number(line, "h");
  TraceSummary& summary = summary_;
  ++summary.steps;
  if (summary.steps == 1 || h < summary.smallestStep) {
    summary.smallestStep = h;
    summary.smallestStepTime = line.time;
  }
  summary.largestStep = std::max(summary.largestStep, h);
  if (previousStep_ > 0 && h > 0 && h * 10 <= previousStep_) {
    ++summary.collapses;
    if (summary.firstCollapses.size() < TraceSummary::kCollapsesKept) {
      summary.firstCollapses.push_back({line.time, previousStep_, h});
    }
  }
  previousStep_ = h;
}

void TraceSummariser::addEvent(const TraceLine& line) {
  PairState* state = nullptr;
  ContactSummary& contact = pairOf(line, state);
  if (line.label == "onset") {
    ++contact.impacts;
    if (!contact.firstTouch) contact.firstTouch = line.time;
    state->episodeOpen = true;
    state->lastTime = line.time;
    state->lastForce = 0;
  } else if (state->episodeOpen) {
    // The force falls to nothing at the separation.
    contact.impulse += 0.5 * state->lastForce * (line.time - state->lastTime);
    state->episodeOpen = false;
  }
}

void TraceSummariser::addPair(const TraceLine& line) {
  PairState* state = nullptr;
  ContactSummary& contact = pairOf(line, state);
  const bool touching = line.field("state") == "touching";
  const double penetration = number(line, "penetration");
  const double normalForce = number(line, "fn");
  const double slip = number(line, "slip");
  if (penetration > contact.maxPenetration) {
    contact.maxPenetration = penetration;
    contact.maxPenetrationTime = line.time;
  }
  if (normalForce > contact.peakNormalForce) {
    contact.peakNormalForce = normalForce;
    contact.peakNormalForceTime = line.time;
  }
  contact.peakFrictionForce = std::max(contact.peakFrictionForce, number(line, "ft"));
  if (touching) {
    if (!contact.firstTouch) contact.firstTouch = line.time;
    if (!state->episodeOpen) {
      // In contact with no onset traced (touching from the start, or a time window opening mid-contact).
      ++contact.impacts;
      state->episodeOpen = true;
      state->lastTime = line.time;
      state->lastForce = 0;
    }
    contact.impulse += 0.5 * (state->lastForce + normalForce) * (line.time - state->lastTime);
    state->lastTime = line.time;
    state->lastForce = normalForce;
    contact.peakSlipSpeed = std::max(contact.peakSlipSpeed, slip);
    if (state->touching && slip > 0) state->slipTimeByBin[slipBin(slip)] += line.time - state->sampleTime;
  }
  state->touching = touching;
  state->sampleTime = line.time;
}

void TraceSummariser::addBlame(const TraceLine& line) {
  PairState* state = nullptr;
  ContactSummary& contact = pairOf(line, state);
  ++contact.blamed;
  if (!contact.firstTouch && line.field("state") == "touching") {
    contact.firstTouch = line.time;
    contact.firstTouchInFailedStep = line.field("seen") == "attempted-step";
  }
}

TraceSummary TraceSummariser::finish() const {
  TraceSummary summary = summary_;
  for (size_t k = 0; k < summary.contacts.size(); ++k) {
    ContactSummary& contact = summary.contacts[k];
    if (!(contact.peakSlipSpeed > 0)) continue;
    // The bin holding the threshold counts in proportion to its part above the threshold, as if its speeds were
    // spread evenly over it.
    const double threshold = 0.01 * contact.peakSlipSpeed;
    const int thresholdBin = slipBin(threshold);
    const std::map<int, double>& bins = states_[k].slipTimeByBin;
    if (const auto straddling = bins.find(thresholdBin); straddling != bins.end()) {
      const double above = 1 - (std::log(threshold) / kSlipBinWidth - thresholdBin);
      contact.slipTime += above * straddling->second;
    }
    for (auto bin = bins.upper_bound(thresholdBin); bin != bins.end(); ++bin) contact.slipTime += bin->second;
  }
  return summary;
}

TraceSummary summariseTrace(std::istream& trace) {
  TraceSummariser summariser;
  for (std::string text; std::getline(trace, text);) summariser.add(text);
  return summariser.finish();
}

// ---- writing ----------------------------------------------------------------------------------------------------

namespace {

std::string describeFailure(const TraceFailure& failure) {
  std::string said = "t=" + figure(failure.time) + ", " + failure.label;
  for (const auto& [key, value] : failure.fields) said += ", " + key + " = " + value;
  return said;
}

}  // namespace

std::string formatSummary(const TraceSummary& summary, const std::string& traceName) {
  std::string out = "Summary of " + traceName + "\n\nContact pairs\n";
  char row[320];
  std::snprintf(row, sizeof row, "  %-20s %8s %8s %13s %8s %16s %13s %13s %13s %13s %13s %7s\n", "element", "i", "j",
                "first touch", "impacts", "max penetration", "at t", "peak fn", "peak ft", "impulse", "slip time",
                "blamed");
  out += row;
  bool touchedInFailedStep = false;
  for (const ContactSummary& contact : summary.contacts) {
    std::string firstTouch = contact.firstTouch ? figure(*contact.firstTouch) : "never";
    if (contact.firstTouchInFailedStep) firstTouch += "*";
    touchedInFailedStep = touchedInFailedStep || contact.firstTouchInFailedStep;
    std::snprintf(row, sizeof row, "  %-20s %8ld %8ld %13s %8d %16s %13s %13s %13s %13s %13s %7d\n",
                  contact.element.c_str(), contact.iGraphic, contact.jGraphic, firstTouch.c_str(), contact.impacts,
                  figure(contact.maxPenetration).c_str(), figure(contact.maxPenetrationTime).c_str(),
                  figure(contact.peakNormalForce).c_str(), figure(contact.peakFrictionForce).c_str(),
                  figure(contact.impulse).c_str(), figure(contact.slipTime).c_str(), contact.blamed);
    out += row;
  }
  if (summary.contacts.empty()) out += "  (no contact pair came close)\n";
  if (touchedInFailedStep) {
    out += "  * touching only in the step that failed, which started at this time (see the failure below)\n";
  }
  out += "\nSteps\n  " + std::to_string(summary.steps) + " steps, step size from " + figure(summary.smallestStep) +
         " (at t=" + figure(summary.smallestStepTime) + ") to " + figure(summary.largestStep) + "\n";
  if (summary.collapses == 0) {
    out += "  the step size never fell tenfold in one step\n";
  } else {
    const std::string count =
        summary.collapses == 1 ? "once:" : std::to_string(summary.collapses) + " times; the first:";
    out += "  the step size fell tenfold or more in one step " + count + "\n";
    for (const StepCollapse& collapse : summary.firstCollapses) {
      out += "    t=" + figure(collapse.time) + ": " + figure(collapse.from) + " -> " + figure(collapse.to) + "\n";
    }
  }
  out += "  struggling steps: " + std::to_string(summary.struggles) + "\n";
  for (const TraceFailure& failure : summary.failures) out += "  failure: " + describeFailure(failure) + "\n";
  if (summary.unreadLines > 0) {
    out += "\n" + std::to_string(summary.unreadLines) + " lines were not trace lines and were skipped\n";
  }
  return out;
}

namespace {

// One pair's summary as the JSON output gives it; the CSV output has the same columns, in the same order, without
// the element's name.
nlohmann::ordered_json contactRecord(const ContactSummary& contact) {
  using nlohmann::ordered_json;
  return {{"element", contact.element},
          {"id", contact.id},
          {"i_graphic", contact.iGraphic},
          {"j_graphic", contact.jGraphic},
          {"first_touch", contact.firstTouch ? ordered_json(*contact.firstTouch) : ordered_json()},
          {"first_touch_in_failed_step", contact.firstTouchInFailedStep},
          {"impacts", contact.impacts},
          {"max_penetration", contact.maxPenetration},
          {"max_penetration_time", contact.maxPenetrationTime},
          {"peak_fn", contact.peakNormalForce},
          {"peak_fn_time", contact.peakNormalForceTime},
          {"peak_ft", contact.peakFrictionForce},
          {"peak_slip", contact.peakSlipSpeed},
          {"slip_time", contact.slipTime},
          {"impulse", contact.impulse},
          {"blamed", contact.blamed}};
}

}  // namespace

std::string formatSummaryCsv(const TraceSummary& summary) {
  std::string out;
  const auto cell = [&out](const nlohmann::ordered_json& value) {
    if (value.is_null()) return;
    if (value.is_boolean()) out += value.get<bool>() ? "1" : "0";
    else if (value.is_number_float()) appendReal(out, value.get<double>());
    else out += value.dump();
  };
  std::string header;
  const nlohmann::ordered_json columns = contactRecord(ContactSummary{});
  for (const auto& [name, value] : columns.items()) {
    if (name != "element") header += (header.empty() ? "" : ",") + name;
  }
  out = header + "\n";
  for (const ContactSummary& contact : summary.contacts) {
    const nlohmann::ordered_json record = contactRecord(contact);  // held: items() refers into it
    bool first = true;
    for (const auto& [name, value] : record.items()) {
      if (name == "element") continue;
      if (!first) out += ',';
      first = false;
      cell(value);
    }
    out += '\n';
  }
  return out;
}

std::string formatSummaryJson(const TraceSummary& summary, const std::string& traceName) {
  using nlohmann::ordered_json;
  ordered_json contacts = ordered_json::array();
  for (const ContactSummary& contact : summary.contacts) {
    contacts.push_back(contactRecord(contact));
  }
  ordered_json collapses = ordered_json::array();
  for (const StepCollapse& collapse : summary.firstCollapses) {
    collapses.push_back({{"time", collapse.time}, {"from", collapse.from}, {"to", collapse.to}});
  }
  ordered_json failures = ordered_json::array();
  for (const TraceFailure& failure : summary.failures) {
    ordered_json fields = ordered_json::object();
    for (const auto& [key, value] : failure.fields) fields[key] = value;
    failures.push_back({{"time", failure.time}, {"label", failure.label}, {"fields", fields}});
  }
  const ordered_json out = {{"trace", traceName},
                            {"contacts", contacts},
                            {"steps",
                             {{"count", summary.steps},
                              {"smallest", summary.smallestStep},
                              {"smallest_time", summary.smallestStepTime},
                              {"largest", summary.largestStep},
                              {"collapses", summary.collapses},
                              {"first_collapses", collapses},
                              {"struggles", summary.struggles}}},
                            {"failures", failures},
                            {"unread_lines", summary.unreadLines}};
  // Text from the deck (labels, paths) that is not UTF-8 is written with replacement characters, not refused.
  return out.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace lodestone::cli
