// <DebugOutput>: the structured trace of what the solver saw, for a person to read and a script to parse
// (DESIGN.md, "DebugOutput"). Every line has one shape,
//
//   [LEVEL][t=1.234500000E-01][topic][label] key = value, key = value
//
// with topics step, contact, events, usersub, timing and failure, and begin-…/end-… labels around event handling.
// Values are numbers (run.log's scientific style with 9 digits, or integers) or text, whose commas are written as semicolons. The trace exists only when DebugOutput is on:
// callers hold a pointer that is null otherwise, so a run without it pays one test per hook.
#pragma once

#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>

#include "output_file.h"

namespace lodestone {

enum class TraceLevel { Info, Debug, Warning, Error };

struct TraceField {
  std::string_view key;
  std::variant<double, long, std::string_view> value;
  TraceField(std::string_view k, double v) : key(k), value(v) {}
  TraceField(std::string_view k, long v) : key(k), value(v) {}
  TraceField(std::string_view k, int v) : key(k), value(static_cast<long>(v)) {}
  TraceField(std::string_view k, std::string_view v) : key(k), value(v) {}
  TraceField(std::string_view k, const char* v) : key(k), value(std::string_view(v)) {}
  TraceField(std::string_view k, const std::string& v) : key(k), value(std::string_view(v)) {}
};

class DebugTrace {
 public:
  // Creates (or truncates) the file; throws std::runtime_error saying why it could not. `screen`: every line also
  // goes to standard output.
  DebugTrace(const std::filesystem::path& path, bool screen);

  const std::filesystem::path& path() const { return path_; }

  // One line, flushed. Never throws: a trace that cannot be written must not end a simulation.
  void write(TraceLevel level, double time, std::string_view topic, std::string_view label,
             std::initializer_list<TraceField> fields);

 private:
  std::filesystem::path path_;
  OutputFile file_;
  bool screen_ = false;
  std::string buffer_;
};

// "Force_Contact/301": how the trace names an element in a value.
std::string traceName(std::string_view element, long id);

}  // namespace lodestone
