// <DebugOutput>: the structured trace of what the solver saw, for a person to read and a script to parse
// (DESIGN.md, "DebugOutput"). Every line has one shape,
//
//   [LEVEL][t=1.234500000E-01][topic][label] key = value, key = value
//
// with the topics of debugTraceTopics() (elements/debug_output.h), and begin-…/end-… labels around event handling.
// Values are numbers (run.log's scientific style with 9 digits, or integers) or text, whose commas are written as
// semicolons. The trace exists only when DebugOutput is on: callers hold a pointer that is null otherwise, so a run
// without it pays one test per hook. DebugOutput's filters (topics, a time window, contact ids) are applied here;
// callers ask wants() first where a line costs work to make (a look at every close pair).
#pragma once

#include <cstdio>
#include <filesystem>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <span>
#include <variant>
#include <vector>

#include "elements/debug_output.h"
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
  // Creates (or truncates) the file; throws std::runtime_error saying why it could not. `settings`: screen_output
  // echoes every line on standard output; the filters choose the lines.
  DebugTrace(const std::filesystem::path& path, const DebugOutputSpec& settings);

  const std::filesystem::path& path() const { return path_; }

  // Whether lines of `topic` at `time` are written.
  bool wants(std::string_view topic, double time) const;
  // Whether any line of `topic` may be written, whatever its time.
  bool wantsTopic(std::string_view topic) const;
  bool wantsContact(long contactId) const;

  // One line, flushed, unless the filters leave it out. Never throws: a trace that cannot be written must not end a
  // simulation.
  void write(TraceLevel level, double time, std::string_view topic, std::string_view label,
             std::initializer_list<TraceField> fields);
  // A line about Force_Contact `contactId`, named first as element = Force_Contact/<id>, and left out too when the
  // contact is not one DebugOutput lists.
  void writeContact(TraceLevel level, double time, std::string_view topic, std::string_view label, long contactId,
                    std::span<const TraceField> fields);

 private:
  void writeLine(TraceLevel level, double time, std::string_view topic, std::string_view label,
                 std::initializer_list<TraceField> leading, std::span<const TraceField> fields);

  std::filesystem::path path_;
  OutputFile file_;
  bool screen_ = false;
  std::vector<std::string> topics_;  // empty: every topic
  std::optional<double> startTime_, endTime_;
  std::vector<long> contactIds_;  // empty: every contact
  std::string buffer_;
};

// "Force_Contact/301": how the trace names an element in a value.
std::string traceName(std::string_view element, long id);

}  // namespace lodestone
