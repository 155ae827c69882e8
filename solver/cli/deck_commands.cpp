// `run`, `check`, `batch` and `elements`: the glue between the command line and the reader, the model builder and
// the driver. Diagnostics and failures go to standard error; results and verdicts to standard output.
#include "deck_commands.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sched.h>
#include <thread>
#include <unistd.h>

#include "batch_report.h"
#include "batch_scheduler.h"
#include "elements/element_catalog.h"
#include "plugins/named_laws.h"
#include "plugins/user_code_faults.h"
#include "process.h"
#include "progress_bar.h"
#include "solver/core/input_file.h"
#include "solver/core/modules.h"
#include "solver/driver/run.h"
#include "solver/driver/signal_interruption.h"

namespace lodestone::cli {

namespace fs = std::filesystem;

namespace {

std::string countsPhrase(const Diagnostics& diagnostics) {
  return plural(diagnostics.errorCount(), "error") + ", " + plural(diagnostics.warningCount(), "warning");
}

// The cores this process may run on, which in a container or under taskset can be fewer than the machine has.
int usableCoreCount() {
  cpu_set_t cores;
  if (sched_getaffinity(0, sizeof cores, &cores) == 0) return std::max(1, CPU_COUNT(&cores));
  return std::max(1u, std::thread::hardware_concurrency());
}

// `interruptingSignal`: the signal that ended an interrupted run. Its exit code is the shell's for a process that
// signal killed (130 for SIGINT, 143 for SIGTERM), so that scripts and batch see why it stopped, although the run
// ended in order.
int exitCodeOf(RunStatus status, int interruptingSignal) {
  switch (status) {
    case RunStatus::Completed: return kExitSuccess;
    case RunStatus::BadDeck: return kExitBadDeck;
    case RunStatus::SimulationFailed: return kExitSimulationFailed;
    case RunStatus::Interrupted: return interruptingSignal > 0 ? 128 + interruptingSignal : kExitSimulationFailed;
  }
  return kExitSimulationFailed;
}

// The --set options as the reader's settings; a malformed one is a usage error, said on standard error.
std::optional<std::vector<AttributeSetting>> settingsOf(const CommandLine& line) {
  std::vector<AttributeSetting> settings;
  for (const std::string& text : line.settings) {
    const SettingParse parsed = parseAttributeSetting(text);
    if (!parsed.setting) {
      std::cerr << "lodestone: option '--set': " << parsed.error << "\n";
      return std::nullopt;
    }
    settings.push_back(*parsed.setting);
  }
  return settings;
}

// Law libraries are loaded before any deck is read: their laws are attributes of Force_Contact. --laws joins
// LODESTONE_LAWS so that the runs of a batch, which are processes of their own, load them too. False when one cannot
// be loaded, said on standard error.
bool loadLawLibraries(const CommandLine& line) {
  if (!line.lawLibraries.empty()) {
    std::string list;
    for (const std::string& library : line.lawLibraries) list += library + ":";
    const char* environment = std::getenv("LODESTONE_LAWS");
    setenv("LODESTONE_LAWS", (list + (environment ? environment : "")).c_str(), 1);
  }
  const LawLibraryProblems problems = loadLawLibrariesFromEnvironment();
  for (const std::string& warning : problems.warnings) std::cerr << "lodestone: warning: " << warning << "\n";
  for (const std::string& error : problems.errors) std::cerr << "lodestone: error: " << error << "\n";
  return problems.errors.empty();
}

}  // namespace

int runCommand(const CommandLine& line) {
  const std::string& deck = line.decks.front();
  const std::optional<std::vector<AttributeSetting>> settings = settingsOf(line);
  if (!settings) return kExitUsage;
  RunOutcome outcome;
  int interruptingSignal = 0;
  {
    // Ctrl-C or a SIGTERM (from batch, a job scheduler, a shutdown) ends the run after its current step, with every
    // output row whole, the statistics logged and run.log saying when, instead of cutting it mid-write. A second one
    // does what it would have done anyway: it ends a run stuck inside a user subroutine.
    const SignalInterruption interruption({SIGINT, SIGTERM});
    // User code that calls exit() or crashes would end the process without a word: a last line says where.
    const UserCodeFaultReports userCodeFaults(deck + ": ");
    ProgressBar progressBar(std::cerr, isTerminal(STDERR_FILENO));
    RunRequest request;
    request.deckPath = deck;
    request.outputDir = line.outputDir;
    request.animation = line.animation;
    request.threads = line.threads.value_or(0);
    request.settings = *settings;
    request.onProgress = [&progressBar](double time, double startTime, double endTime) {
      progressBar.update(time, startTime, endTime);
    };
    request.shouldStop = [&interruption] { return interruption.received() != 0; };
    outcome = runDeck(request);
    interruptingSignal = interruption.received();
  }  // the bar is erased here, before anything else is printed

  std::cerr << outcome.diagnostics.formatAll();
  if (!outcome.outputDir.empty()) std::cout << "results: " << outcome.outputDir << "\n";

  std::string outcomeLine = deck + ": ";
  switch (outcome.status) {
    case RunStatus::Completed:
      outcomeLine += outcome.message.empty() ? "simulation completed" : outcome.message;
      if (outcome.diagnostics.warningCount() > 0) {
        outcomeLine += " (" + plural(outcome.diagnostics.warningCount(), "warning") + ")";
      }
      std::cout << outcomeLine << std::endl;
      break;
    case RunStatus::BadDeck:
      outcomeLine += (outcome.message.empty() ? "bad deck, not simulated" : outcome.message) + " (" +
                     countsPhrase(outcome.diagnostics) + ")";
      std::cerr << outcomeLine << std::endl;
      break;
    case RunStatus::SimulationFailed:
    case RunStatus::Interrupted:
      outcomeLine += outcome.message.empty() ? "simulation failed" : outcome.message;
      // IDAS messages end in a full stop; the sentence goes on.
      if (outcomeLine.back() == '.') outcomeLine.pop_back();
      if (!outcome.outputDir.empty()) {
        outcomeLine += outcome.status == RunStatus::Interrupted ? "; results up to it are kept"
                                                                : "; results up to the failure are kept";
      }
      if (interruptingSignal > 0) outcomeLine += " (" + signalName(interruptingSignal) + ")";
      std::cerr << outcomeLine << std::endl;
      break;
  }
  return exitCodeOf(outcome.status, interruptingSignal);
}

int checkCommand(const CommandLine& line) {
  const std::optional<std::vector<AttributeSetting>> settings = settingsOf(line);
  if (!settings) return kExitUsage;
  int exitCode = kExitSuccess;
  for (const std::string& deck : line.decks) {
    const Diagnostics diagnostics = checkDeck(deck, *settings);
    std::cerr << diagnostics.formatAll();
    if (diagnostics.hasErrors()) {
      exitCode = kExitBadDeck;
      std::cout << deck << ": " << countsPhrase(diagnostics) << std::endl;
    } else {
      std::cout << deck << ": OK (" << plural(diagnostics.warningCount(), "warning") << ")" << std::endl;
    }
  }
  return exitCode;
}

int batchCommand(const CommandLine& line) {
  if (!settingsOf(line)) return kExitUsage;  // each run reads them again, but a malformed one stops the batch here
  const std::vector<std::string>& decks = line.decks;
  const std::vector<std::string> folders = planResultsFolders(decks, line.outputDir);
  const int parallelRuns = line.jobs.value_or(usableCoreCount());

  std::vector<DeckRun> runs(decks.size());
  std::vector<ProcessSpec> jobs;
  std::vector<std::size_t> runOfJob;
  for (std::size_t index = 0; index < decks.size(); ++index) {
    DeckRun& run = runs[index];
    run.deck = decks[index];
    // A mistyped deck path must not leave an empty results folder (and its parent folders) behind.
    std::error_code error;
    if (std::optional<std::string> problem = inputFileProblem(run.deck, "deck file")) {
      run.status = DeckStatus::BadDeck;
      run.statusText = "bad deck";
      run.note = *problem;
      continue;
    }
    if (fs::create_directories(folders[index], error); error) {
      run.status = DeckStatus::Failed;
      run.statusText = "not started";
      run.note = "cannot create results folder " + folders[index] + ": " + error.message();
      continue;
    }
    run.resultsDir = folders[index];
    const std::string consoleLog = (fs::path(run.resultsDir) / kConsoleLogName).string();
    std::vector<std::string> arguments{"lodestone", "run", "-o", run.resultsDir};
    for (const std::string& setting : line.settings) arguments.insert(arguments.end(), {"--set", setting});
    if (line.animation) arguments.push_back("--animation");
    // The decks run side by side, one per core: one thread each unless asked.
    arguments.insert(arguments.end(), {"--threads", std::to_string(line.threads.value_or(1))});
    arguments.insert(arguments.end(), {"--", run.deck});
    jobs.push_back({kCurrentExecutable, std::move(arguments), consoleLog, ""});
    runOfJob.push_back(index);
  }

  std::cerr << "batch: " << plural(static_cast<int>(decks.size()), "deck") << ", at most " << parallelRuns
            << " at a time" << std::endl;
  const std::string total = std::to_string(decks.size());
  int finishedCount = 0;
  const auto reportFinished = [&](const DeckRun& run) {
    std::cerr << "[" << ++finishedCount << "/" << total << "] " << run.deck << ": " << run.statusText << std::endl;
  };
  for (const DeckRun& run : runs) {
    if (run.resultsDir.empty()) reportFinished(run);  // decided above, without a process
  }

  // SIGINT or SIGTERM to the batch goes on to the runs it started (each in a process group of its own, which a
  // Ctrl-C at the terminal does not reach), which end as they would alone; none starts after it.
  const SignalInterruption interruption({SIGINT, SIGTERM});
  JobLimits limits;
  limits.timeoutSeconds = line.timeoutSeconds;
  limits.stopSignal = [&interruption] { return interruption.received(); };
  std::vector<bool> finished(jobs.size(), false);
  runJobs(
      jobs, parallelRuns,
      [&](std::size_t jobIndex, const JobResult& result) {
        finished[jobIndex] = true;
        DeckRun& run = runs[runOfJob[jobIndex]];
        recordProcessEnd(run, result.end, result.timedOut, result.stoppedBySignal);
        if (result.end.kind != ProcessEnd::Kind::NotStarted) {
          run.wallSeconds = result.wallSeconds;
          if (run.status != DeckStatus::Done) run.note = lastNonBlankLine(jobs[jobIndex].stdoutPath);
        }
        if (result.timedOut) {
          run.note = "still running after --timeout " + formatSeconds(*line.timeoutSeconds) + "; it was ended" +
                     (run.note.empty() ? "" : ": " + run.note);
        }
        reportFinished(run);
      },
      limits);
  const int stopSignal = interruption.received();
  for (std::size_t jobIndex = 0; jobIndex < jobs.size(); ++jobIndex) {
    if (finished[jobIndex]) continue;
    DeckRun& run = runs[runOfJob[jobIndex]];
    run.status = DeckStatus::Failed;
    run.statusText = "not started";
    run.note = "the batch was interrupted (" + signalName(stopSignal) + ") before it started";
  }

  std::cout << "\n" << formatBatchSummary(runs) << std::flush;
  return stopSignal != 0 ? 128 + stopSignal : batchExitCode(runs);
}

int elementsCommand(const CommandLine& line) {
  if (line.markdown) {
    std::cout << elementsReferenceMarkdown();
    return kExitSuccess;
  }
  if (line.elementNames.empty()) {
    const std::pair<ElementSupport, const char*> groups[] = {
        {ElementSupport::Read, "Read and simulated (lodestone elements NAME for the attributes):"},
        {ElementSupport::IgnoredWithWarning, "Accepted with a warning; they do not change the motion:"},
        {ElementSupport::NotSupported, "MotionSolve elements this version refuses (the deck is reported as bad):"}};
    for (const auto& [support, heading] : groups) {
      std::cout << heading << "\n";
      for (const ElementKind* kind : allElementKinds()) {
        if (kind->support != support) continue;
        std::cout << "  " << kind->element;
        if (!kind->note.empty()) std::cout << ": " << kind->note;
        std::cout << "\n";
      }
    }
    return kExitSuccess;
  }
  int exitCode = kExitSuccess;
  for (const std::string& name : line.elementNames) {
    if (const ElementKind* kind = findElementKind(name)) {
      std::cout << describeElement(*kind);
    } else {
      std::cerr << "lodestone: no element is called '" << name << "'; 'lodestone elements' lists them all\n";
      exitCode = kExitUsage;
    }
  }
  return exitCode;
}

}  // namespace lodestone::cli

LODESTONE_MODULE_ENTRY int lodestone_deck_command(const lodestone::cli::CommandLine& line) {
  using namespace lodestone::cli;
  if (!loadLawLibraries(line)) return kExitBadDeck;
  switch (line.command) {
    case Command::Run: return runCommand(line);
    case Command::Check: return checkCommand(line);
    case Command::Batch: return batchCommand(line);
    case Command::Elements: return elementsCommand(line);
    default: return kExitUsage;  // the program sends no other command here
  }
}
