// run.log, written the way a MotionSolve user expects to read it: input and units, element counts, integrator
// settings, progress lines, statistics, time by phase, and a last line that says whether the simulation
// completed. Every line is flushed as it is written, so a run that dies still leaves a log that says how far
// it got.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "output_file.h"
#include "run_statistics.h"
#include "solver/core/model.h"

namespace lodestone {

// What the log states before a transient analysis starts.
struct AnalysisDescription {
  double startTime = 0;
  double endTime = 0;
  double printInterval = 0;
  IntegratorSettings settings;
  std::string linearSolver;  // "dense LU", "KLU sparse LU"
  int equations = 0;
  int threads = 1;           // what the contact Jacobian is spread over
};

class RunLog {
 public:
  // Creates (or truncates) the file; throws std::runtime_error saying why it could not.
  explicit RunLog(const std::filesystem::path& path);

  const std::filesystem::path& path() const { return path_; }
  // The open file's descriptor, for the last line a crash in user code writes (plugins/user_code_faults.h).
  int descriptor() const;

  // One line, flushed. Never throws: a log that cannot be written must not end a simulation midway, so the first
  // failure is kept for writeFailure() and the run reports it when it ends.
  void line(std::string_view text = {});

  // "cannot write <path>: <reason>" once a line could not be written (a full disk, say): the log is incomplete.
  const std::optional<std::string>& writeFailure() const { return writeFailure_; }

  void banner(const std::string& deckPath);
  void modelSummary(const UnitSystem& units, const std::vector<ElementCount>& elementCounts, int movingBodies);
  // The user code the run executes (subroutine libraries and scripts the deck names): one line per element and
  // subroutine, which function from which file. Nothing when there is none.
  void userCode(const std::vector<std::string>& uses);
  void analysisStart(const AnalysisDescription& analysis);
  void progress(double time, int order, double stepSize);
  void statistics(const SolverStatistics& statistics, const std::string& title = "DAE SOLVER STATISTICS");
  void phaseTimes(const PhaseTimes& times);
  void files(const std::string& deckPath, const std::vector<std::filesystem::path>& outputs);

  // The last line of every log: exactly one of these.
  void completed();
  void failed(double time, const std::string& reason);
  // A run asked to stop from outside (Ctrl-C), at the step it had reached.
  void interrupted(double time);
  // A run that ended before any time was integrated (a deck error found while executing commands).
  void failedBeforeStart(const std::string& reason);

 private:
  std::filesystem::path path_;
  OutputFile file_;
  std::optional<std::string> writeFailure_;
};

}  // namespace lodestone
