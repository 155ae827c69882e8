// The run log's sections, laid out like a MotionSolve log so its users find things where they expect them.
#include "run_log.h"

#include <ctime>
#include <stdexcept>

#include "number_format.h"

namespace lodestone {

namespace {

// " Label                        : value", the column layout of MotionSolve's parameter tables.
std::string row(std::string_view label, std::string_view value) {
  std::string text = " ";
  text += label;
  if (text.size() < 30) text.append(30 - text.size(), ' ');
  text += ": ";
  text += value;
  return text;
}

std::string count(std::string_view label, long value) {
  std::string text = " ";
  text += label;
  if (text.size() < 42) text.append(42 - text.size(), ' ');
  return text + "= " + std::to_string(value);
}

std::string seconds(double value) { return scientific(value) + " sec"; }

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buffer[64];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M:%S", &local);
  return buffer;
}

std::string stepLimit(double value, const char* whenZero) { return value > 0 ? scientific(value) : whenZero; }

// "**   text   **", centred in the banner's 72 columns.
std::string bannerLine(std::string_view text) {
  constexpr std::size_t kInside = 68;
  const std::size_t left = text.size() < kInside ? (kInside - text.size()) / 2 : 0;
  std::string line = "**" + std::string(left, ' ') + std::string(text);
  line.append(kInside + 2 > line.size() ? kInside + 2 - line.size() : 0, ' ');
  return line + "**";
}

}  // namespace

RunLog::RunLog(const std::filesystem::path& path) : path_(path), file_(createOutputFile(path)) {}

int RunLog::descriptor() const { return fileno(file_.get()); }

void RunLog::line(std::string_view text) {
  // An empty view's data() may be null.
  const bool written = (text.empty() || std::fwrite(text.data(), 1, text.size(), file_.get()) == text.size()) &&
                       std::fputc('\n', file_.get()) != EOF && std::fflush(file_.get()) == 0;
  if (!written && !writeFailure_) writeFailure_ = fileError(path_, "write").what();
}

void RunLog::banner(const std::string& deckPath) {
  line("************************************************************************");
  line("**                                                                    **");
  line(bannerLine("Lodestone " LODESTONE_VERSION));
  line(bannerLine("Multibody dynamics for contact-rich mechanisms"));
  line("**                                                                    **");
  line("************************************************************************");
  line();
  line("---  " + timestamp() + " ---");
  line();
  line("INFO: Parsing XML file [" + deckPath + "]...");
}

void RunLog::modelSummary(const UnitSystem& units, const std::vector<ElementCount>& elementCounts, int movingBodies) {
  line();
  if (units.massFactorGiven) {
    line("INFO: Model units are given by mass_mult_factor = " + scientific(units.massFactor) + ".");
  } else {
    line("INFO: Model units are " + units.describe() + ".");
    if (units.massFactor != 1.0) line("INFO: Mass multiplication factor " + scientific(units.massFactor) + ".");
  }
  line();
  line(" MODEL ELEMENTS");
  line(" ----------------------------------------");
  for (const ElementCount& element : elementCounts) line(row(element.element, std::to_string(element.count)));
  line(row("Moving bodies", std::to_string(movingBodies)));
  line();
}

void RunLog::userCode(const std::vector<std::string>& uses) {
  if (uses.empty()) return;
  line(" USER CODE (run executes it)");
  line(" ----------------------------------------");
  for (const std::string& use : uses) line(" " + use);
  line();
}

void RunLog::analysisStart(const AnalysisDescription& analysis) {
  line(" Starting dynamic analysis...");
  line();
  line(" DYNAMIC SIMULATION PARAMETERS");
  line(" ----------------------------------------");
  line(row("Start Time", scientific(analysis.startTime)));
  line(row("End   Time", scientific(analysis.endTime)));
  line(row("Print Interval", scientific(analysis.printInterval)));
  line();
  line(row("Integrator", "IDAS (variable-order BDF, DAE residual form)"));
  line(row("Error Tolerance", scientific(analysis.settings.integrTol) + " (relative and absolute)"));
  line(row("Maximum Step Size", stepLimit(analysis.settings.hMax, "unlimited")));
  line(row("Minimum Step Size", stepLimit(analysis.settings.hMin, "IDAS default")));
  line(row("Initial Step Size", stepLimit(analysis.settings.h0Max, "IDAS default")));
  line(row("Maximum Order", std::to_string(analysis.settings.maxOrder)));
  line(row("Linear Solver", analysis.linearSolver + " (" + std::to_string(analysis.equations) + " equations)"));
  line(row("Threads", std::to_string(analysis.threads) +
                         " (contacts, bodies, Jacobian, GMRES blocks; results do not depend on the number)"));
  line();
  line(" +----------------------------------+");
}

void RunLog::progress(double time, int order, double stepSize) {
  line(" Time=" + scientific(time) + "; Order=" + std::to_string(order) + "; H=" + scientific(stepSize));
}

void RunLog::statistics(const SolverStatistics& s, const std::string& title) {
  line();
  line(" " + title);
  line(" ------------------------------------------------");
  line(count("Number of solution steps", s.steps));
  line(count("Number of residual evaluations", s.residualEvaluations));
  line(count("Number of Jacobian evaluations", s.jacobianEvaluations));
  line(count("Number of linear solver setups", s.linearSolverSetups));
  if (s.linearIterations > 0) line(count("Number of linear (Krylov) iterations", s.linearIterations));
  line(count("Number of nonlinear iterations", s.nonlinearIterations));
  line(count("Number of error test failures", s.errorTestFailures));
  line(count("Number of nonlinear convergence failures", s.nonlinearConvergenceFailures));
  if (s.rootEvaluations > 0) line(count("Number of root function evaluations", s.rootEvaluations));
  line(count("Number of integrator restarts", s.restarts));
  if (s.magnetPairsDifferenced + s.farMagnetPairsLeftOut > 0) {
    line(count("Magnet pairs differenced in Jacobians", s.magnetPairsDifferenced));
    line(count("Far magnet pairs left to the residual", s.farMagnetPairsLeftOut));
  }
  if (s.softMagnetBlocksWritten + s.softMagnetBlocksLeftOut > 0) {
    line(count("Soft magnet blocks added to the pattern", s.softMagnetBlocksWritten));
    line(count("Soft magnet blocks left to the residual", s.softMagnetBlocksLeftOut));
  }
  if (s.sparseAnalyses > 0) line(count("Number of sparse LU re-analyses", s.sparseAnalyses));
  if (s.couplingBlocksRetired > 0) line(count("Idle coupling blocks set aside", s.couplingBlocksRetired));
  line();
}

void RunLog::phaseTimes(const PhaseTimes& t) {
  line();
  line(" TIME BY PHASE (single thread, elapsed)");
  line(" ----------------------------------------------------");
  line(row("Parse", seconds(t.parse)));
  line(row("Build", seconds(t.build)));
  line(row("Residual Evaluation", seconds(t.residual()) + " (" + std::to_string(t.residualCalls) + " times)"));
  line(row("  kinematics", seconds(t.kinematics)));
  line(row("  contact detection", seconds(t.contactDetection)));
  line(row("  forces", seconds(t.forces)));
  line(row("  assembly", seconds(t.assembly)));
  line(row("Jacobian Evaluation", seconds(t.jacobian) + " (" + std::to_string(t.jacobianCalls) + " times)"));
  line(row("Jacobian Factorization", seconds(t.linearSetup)));
  line(row("Linear Solve", seconds(t.linearSolve)));
  if (t.sensors > 0) line(row("Sensors", seconds(t.sensors)));
  if (t.energy > 0) line(row("Energy Balance", seconds(t.energy)));
  if (t.contactStepLimit > 0) line(row("Contact Step Limit", seconds(t.contactStepLimit)));
  if (t.impacts > 0) line(row("Impact Recording", seconds(t.impacts)));
  line(row("Integrator Other", seconds(t.integratorOther())));
  line(row("Output", seconds(t.output)));
  line(row("Total Elapsed Time", seconds(t.total)));
  line(row("Total CPU Time", seconds(t.processCpu)));
  line();
}

void RunLog::files(const std::string& deckPath, const std::vector<std::filesystem::path>& outputs) {
  line("INPUT:");
  line(" [" + deckPath + "]");
  line();
  line("OUTPUT:");
  for (const auto& output : outputs) line(" [" + output.string() + "]");
  line();
}

void RunLog::completed() { line("Simulation completed."); }

void RunLog::failed(double time, const std::string& reason) {
  line("Simulation FAILED at t=" + scientific(time, 6) + ": " + reason);
}

void RunLog::interrupted(double time) { line("Simulation interrupted at t=" + scientific(time, 6) + "."); }

void RunLog::failedBeforeStart(const std::string& reason) { line("Simulation FAILED: " + reason); }

}  // namespace lodestone
