// The commands of `lodestone` that need no deck: sweep and plot, which hand over to Python, debug-summary and config;
// and the way to the others, which live in the deck-commands module (deck_commands.h).
#include "commands.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "deck_commands.h"
#include "debug_summary.h"
#include "process.h"
#include "python_command.h"
#include "solver/core/modules.h"
#include "subroutine_build_flags.h"

namespace lodestone::cli {

namespace fs = std::filesystem;

int deckCommand(const CommandLine& line) {
  DeckCommand* command = nullptr;
  try {
    command = moduleFunction<DeckCommand>(kDeckCommandsModule, kDeckCommandEntry,
                                          "the solver of run, check, batch and elements");
  } catch (const std::runtime_error& failure) {
    std::cerr << "lodestone: " << failure.what() << "\n";
    return kExitSimulationFailed;
  }
  return command(line);
}

int pythonCommand(const CommandLine& line) {
  std::error_code error;
  // The program itself, not /proc/self/exe, which names the interpreter once this process has become it.
  const fs::path executable = fs::read_symlink(kCurrentExecutable, error);
  if (error) {
    std::cerr << "lodestone: cannot tell where this program is (" << kCurrentExecutable << "): " << error.message()
              << "\n";
    return kExitSimulationFailed;
  }
  const std::string module = line.command == Command::Sweep ? "sweep" : "plot";
  const PythonLaunch launch = planPythonLaunch(module, line.forwardedArguments, executable, std::getenv("PYTHONPATH"));
  const std::string failure = execPython(launch);  // returns only when the interpreter could not be started
  std::cerr << "lodestone: " << failure << "\n";
  return kExitSimulationFailed;
}

int debugSummaryCommand(const CommandLine& line) {
  std::ifstream file(line.traceFile);
  if (!file) {
    std::cerr << "lodestone: cannot read " << line.traceFile << ": " << std::strerror(errno) << "\n";
    return kExitBadDeck;
  }
  const TraceSummary summary = summariseTrace(file);
  if (file.bad()) {
    std::cerr << "lodestone: reading " << line.traceFile << " failed: " << std::strerror(errno) << "\n";
    return kExitBadDeck;
  }
  switch (line.summaryFormat) {
    case SummaryFormat::Text: std::cout << formatSummary(summary, line.traceFile); break;
    case SummaryFormat::Csv: std::cout << formatSummaryCsv(summary); break;
    case SummaryFormat::Json: std::cout << formatSummaryJson(summary, line.traceFile); break;
  }
  return kExitSuccess;
}

int configCommand(const CommandLine& line) {
  const std::variant<SubroutineBuildPaths, std::string> found = findSubroutineBuildPaths(kCurrentExecutable);
  if (const std::string* why = std::get_if<std::string>(&found)) {
    std::cerr << "lodestone: " << *why << "\n";
    return kExitBadDeck;
  }
  const SubroutineBuildPaths& paths = std::get<SubroutineBuildPaths>(found);
  std::string flags;
  if (line.compileFlags) flags += compileFlags(paths);
  if (line.linkFlags) flags += (flags.empty() ? "" : " ") + linkFlags(paths);
  std::cout << flags << "\n";
  return kExitSuccess;
}

}  // namespace lodestone::cli
