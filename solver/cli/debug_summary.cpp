// Reading a DebugOutput trace back and summarising it per contact pair.
#include "debug_summary.h"

#include "solver/output/number_format.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

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

double number(const std::map<std::string, std::string>& fields, const char* key) {
  const auto found = fields.find(key);
  return found == fields.end() ? 0.0 : std::strtod(found->second.c_str(), nullptr);
}

std::string text(const std::map<std::string, std::string>& fields, const char* key) {
  const auto found = fields.find(key);
  return found == fields.end() ? std::string() : found->second;
}

// A figure of the summary: run.log's scientific style, five significant digits.
std::string figure(double value) { return scientific(value, 4); }

}  // namespace

std::optional<TraceLine> parseTraceLine(std::string_view line) {
  TraceLine parsed;
  std::string_view rest = line;
  const auto level = bracketed(rest);
  const auto time = bracketed(rest);
  const auto topic = bracketed(rest);
  const auto label = bracketed(rest);
  if (!level || !time || !topic || !label || !time->starts_with("t=")) return std::nullopt;
  parsed.level = *level;
  char* end = nullptr;
  const std::string timeText(time->substr(2));
  parsed.time = std::strtod(timeText.c_str(), &end);
  if (end == timeText.c_str()) return std::nullopt;
  parsed.topic = *topic;
  parsed.label = *label;
  rest = trimmed(rest);
  while (!rest.empty()) {
    const size_t comma = rest.find(", ");
    const std::string_view field = rest.substr(0, comma);
    const size_t equals = field.find(" = ");
    if (equals == std::string_view::npos) return std::nullopt;
    parsed.fields[std::string(trimmed(field.substr(0, equals)))] = std::string(trimmed(field.substr(equals + 3)));
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 2);
  }
  return parsed;
}

TraceSummary summariseTrace(const std::vector<std::string>& lines) {
  TraceSummary summary;
  std::map<std::tuple<std::string, long, long>, size_t> index;  // pair -> summary.contacts
  struct Sample {
    double time, slip;
    bool touching;
  };
  std::vector<std::vector<Sample>> samples;  // per pair, for the slip time
  const auto pairOf = [&](const TraceLine& line) -> ContactSummary& {
    const std::tuple key{text(line.fields, "element"), std::atol(text(line.fields, "i").c_str()),
                         std::atol(text(line.fields, "j").c_str())};
    auto found = index.find(key);
    if (found == index.end()) {
      found = index.emplace(key, summary.contacts.size()).first;
      ContactSummary contact;
      contact.element = std::get<0>(key);
      contact.iGraphic = std::get<1>(key);
      contact.jGraphic = std::get<2>(key);
      summary.contacts.push_back(contact);
      samples.emplace_back();
    }
    return summary.contacts[found->second];
  };
  double previousStep = 0;
  for (const std::string& raw : lines) {
    const std::optional<TraceLine> line = parseTraceLine(raw);
    if (!line) {
      if (!trimmed(raw).empty()) ++summary.unreadLines;
      continue;
    }
    if (line->topic == "step" && line->label == "end-step") {
      const double h = number(line->fields, "h");
      ++summary.steps;
      if (summary.steps == 1 || h < summary.smallestStep) {
        summary.smallestStep = h;
        summary.smallestStepTime = line->time;
      }
      summary.largestStep = std::max(summary.largestStep, h);
      if (previousStep > 0 && h > 0 && h * 10 <= previousStep) summary.collapses.push_back({line->time, previousStep, h});
      previousStep = h;
    } else if (line->topic == "step" && line->label == "struggling") {
      ++summary.struggles;
    } else if (line->topic == "failure" && line->label != "advice") {
      std::string said = "t=" + figure(line->time);
      for (const auto& [key, value] : line->fields) said += ", " + key + " = " + value;
      summary.failures.push_back(said);
    } else if (line->topic == "contact" && line->label == "onset") {
      ContactSummary& contact = pairOf(*line);
      ++contact.impacts;
      if (!contact.firstTouch) contact.firstTouch = line->time;
    } else if (line->topic == "contact" && line->label == "pair") {
      ContactSummary& contact = pairOf(*line);
      const bool touching = text(line->fields, "state") == "touching";
      const double penetration = number(line->fields, "penetration");
      if (touching && !contact.firstTouch) contact.firstTouch = line->time;
      if (penetration > contact.maxPenetration) {
        contact.maxPenetration = penetration;
        contact.maxPenetrationTime = line->time;
      }
      contact.peakNormalForce = std::max(contact.peakNormalForce, number(line->fields, "fn"));
      contact.peakFrictionForce = std::max(contact.peakFrictionForce, number(line->fields, "ft"));
      const double slip = number(line->fields, "slip");
      if (touching) contact.peakSlipSpeed = std::max(contact.peakSlipSpeed, slip);
      samples[index[{contact.element, contact.iGraphic, contact.jGraphic}]].push_back({line->time, slip, touching});
    }
  }
  // Slip time: each step in contact from start to end whose slip speed at its end is above 1 % of the pair's peak
  // counts whole.
  for (size_t k = 0; k < summary.contacts.size(); ++k) {
    ContactSummary& contact = summary.contacts[k];
    const double threshold = 0.01 * contact.peakSlipSpeed;
    for (size_t s = 1; s < samples[k].size(); ++s) {
      const Sample& sample = samples[k][s];
      if (sample.touching && samples[k][s - 1].touching && contact.peakSlipSpeed > 0 && sample.slip > threshold) {
        contact.slipTime += sample.time - samples[k][s - 1].time;
      }
    }
  }
  return summary;
}

std::string formatSummary(const TraceSummary& summary, const std::string& traceName) {
  std::string out = "Summary of " + traceName + "\n\nContact pairs\n";
  char row[256];
  std::snprintf(row, sizeof row, "  %-20s %8s %8s %13s %8s %16s %13s %13s %13s %13s\n", "element", "i", "j",
                "first touch", "impacts", "max penetration", "at t", "peak fn", "peak ft", "slip time");
  out += row;
  for (const ContactSummary& contact : summary.contacts) {
    std::snprintf(row, sizeof row, "  %-20s %8ld %8ld %13s %8d %16s %13s %13s %13s %13s\n", contact.element.c_str(),
                  contact.iGraphic, contact.jGraphic, contact.firstTouch ? figure(*contact.firstTouch).c_str() : "never",
                  contact.impacts, figure(contact.maxPenetration).c_str(), figure(contact.maxPenetrationTime).c_str(),
                  figure(contact.peakNormalForce).c_str(), figure(contact.peakFrictionForce).c_str(),
                  figure(contact.slipTime).c_str());
    out += row;
  }
  if (summary.contacts.empty()) out += "  (no contact pair came close)\n";
  out += "\nSteps\n  " + std::to_string(summary.steps) + " steps, step size from " + figure(summary.smallestStep) +
         " (at t=" + figure(summary.smallestStepTime) + ") to " + figure(summary.largestStep) + "\n";
  if (summary.collapses.empty()) {
    out += "  the step size never fell tenfold in one step\n";
  } else {
    out += "  the step size fell tenfold or more in one step " + std::to_string(summary.collapses.size()) +
           " times; the first:\n";
    for (size_t k = 0; k < std::min<size_t>(summary.collapses.size(), 10); ++k) {
      const StepCollapse& collapse = summary.collapses[k];
      out += "    t=" + figure(collapse.time) + ": " + figure(collapse.from) + " -> " + figure(collapse.to) + "\n";
    }
  }
  out += "  struggling steps: " + std::to_string(summary.struggles) + "\n";
  for (const std::string& failure : summary.failures) out += "  failure: " + failure + "\n";
  if (summary.unreadLines > 0) {
    out += "\n" + std::to_string(summary.unreadLines) + " lines were not trace lines and were skipped\n";
  }
  return out;
}

}  // namespace lodestone::cli
