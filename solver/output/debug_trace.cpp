// The DebugOutput trace file.
#include "debug_trace.h"

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

DebugTrace::DebugTrace(const std::filesystem::path& path, bool screen)
    : path_(path), file_(createOutputFile(path)), screen_(screen) {}

void DebugTrace::write(TraceLevel level, double time, std::string_view topic, std::string_view label,
                       std::initializer_list<TraceField> fields) {
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
  for (const TraceField& field : fields) {
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
  }
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
