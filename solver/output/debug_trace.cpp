// The DebugOutput trace file.
#include "debug_trace.h"

#include <algorithm>
#include <cassert>
#include <cstdio>

#include "number_format.h"

namespace lodestone {

namespace {

const char* levelName(TraceLevel level) {
  switch (level) {
    case TraceLevel::Info: return "INFO";
    case TraceLevel::Debug: return "DEBUG";
    case TraceLevel::Warning: return "WARNING";
    case TraceLevel::Error: return "ERROR";
  }
  return "INFO";
}

}  // namespace

DebugTrace::DebugTrace(const std::filesystem::path& path, const DebugOutputSpec& settings)
    : path_(path),
      file_(createOutputFile(path)),
      screen_(settings.screen_output),
      topics_(settings.topics),
      startTime_(settings.start_time),
      endTime_(settings.end_time),
      contactIds_(settings.contact_ids) {}

bool DebugTrace::wantsTopic(std::string_view topic) const {
  assert(std::find(debugTraceTopics().begin(), debugTraceTopics().end(), topic) != debugTraceTopics().end());
  return topics_.empty() || std::find(topics_.begin(), topics_.end(), topic) != topics_.end();
}

bool DebugTrace::wants(std::string_view topic, double time) const {
  return wantsTopic(topic) && !(startTime_ && time < *startTime_) && !(endTime_ && time > *endTime_);
}

bool DebugTrace::wantsContact(long contactId) const {
  return contactIds_.empty() || std::find(contactIds_.begin(), contactIds_.end(), contactId) != contactIds_.end();
}

void DebugTrace::write(TraceLevel level, double time, std::string_view topic, std::string_view label,
                       std::initializer_list<TraceField> fields) {
  if (wants(topic, time)) writeLine(level, time, topic, label, {}, {fields.begin(), fields.size()});
}

void DebugTrace::writeContact(TraceLevel level, double time, std::string_view topic, std::string_view label,
                              long contactId, std::span<const TraceField> fields) {
  if (!wants(topic, time) || !wantsContact(contactId)) return;
  writeLine(level, time, topic, label, {{"element", traceName("Force_Contact", contactId)}}, fields);
}

void DebugTrace::writeLine(TraceLevel level, double time, std::string_view topic, std::string_view label,
                           std::initializer_list<TraceField> leading, std::span<const TraceField> fields) {
  buffer_.clear();
  buffer_ += '[';
  buffer_ += levelName(level);
  buffer_ += "][t=";
  buffer_ += scientific(time, 9);
  buffer_ += "][";
  buffer_ += topic;
  buffer_ += "][";
  buffer_ += label;
  buffer_ += ']';
  bool first = true;
  const auto append = [&](const TraceField& field) {
    buffer_ += first ? " " : ", ";
    first = false;
    buffer_ += field.key;
    buffer_ += " = ";
    if (const double* number = std::get_if<double>(&field.value)) {
      buffer_ += scientific(*number, 9);
    } else if (const long* integer = std::get_if<long>(&field.value)) {
      buffer_ += std::to_string(*integer);
    } else {
      // A comma would end the field for a reader: sentences (advice) keep their sense with semicolons.
      for (const char c : std::get<std::string_view>(field.value)) buffer_ += c == ',' ? ';' : c;
    }
  };
  for (const TraceField& field : leading) append(field);
  for (const TraceField& field : fields) append(field);
  buffer_ += '\n';
  std::fputs(buffer_.c_str(), file_.get());
  std::fflush(file_.get());
  if (screen_) {
    std::fputs(buffer_.c_str(), stdout);
    std::fflush(stdout);
  }
}

std::string traceName(std::string_view element, long id) { return std::string(element) + "/" + std::to_string(id); }

}  // namespace lodestone
