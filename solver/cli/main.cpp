// Entry point of the `lodestone` command: parse the command line, hand over to the command, exit with its code.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>
#include <variant>
#include <vector>

#include "command_line.h"
#include "commands.h"
#include "plugins/named_laws.h"

using namespace lodestone::cli;

int main(int argc, char** argv) {
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  const ParseResult parsed = parseCommandLine(arguments);
  if (const UsageError* usage = std::get_if<UsageError>(&parsed)) {
    std::cerr << "lodestone: " << usage->message << "\nRun 'lodestone --help' for usage.\n";
    return kExitUsage;
  }

  const CommandLine& line = std::get<CommandLine>(parsed);
  try {
    // sweep and plot load no law library themselves: the runs of a sweep are processes that load LODESTONE_LAWS.
    const bool loadsLaws = line.command != Command::Help && line.command != Command::Version &&
                           line.command != Command::Sweep && line.command != Command::Plot;
    if (loadsLaws) {
      // Law libraries are loaded before any deck is read: their laws are attributes of Force_Contact. --laws joins
      // LODESTONE_LAWS so that the runs of a batch, which are processes of their own, load them too.
      if (!line.lawLibraries.empty()) {
        std::string list;
        for (const std::string& library : line.lawLibraries) list += library + ":";
        const char* environment = std::getenv("LODESTONE_LAWS");
        setenv("LODESTONE_LAWS", (list + (environment ? environment : "")).c_str(), 1);
      }
      const lodestone::LawLibraryProblems problems = lodestone::loadLawLibrariesFromEnvironment();
      for (const std::string& warning : problems.warnings) std::cerr << "lodestone: warning: " << warning << "\n";
      for (const std::string& error : problems.errors) std::cerr << "lodestone: error: " << error << "\n";
      if (!problems.errors.empty()) return kExitBadDeck;
    }
    switch (line.command) {
      case Command::Help: std::cout << helpText(); return kExitSuccess;
      case Command::Version: std::cout << versionText() << "\n"; return kExitSuccess;
      case Command::Run: return runCommand(line);
      case Command::Check: return checkCommand(line);
      case Command::Batch: return batchCommand(line);
      case Command::Sweep:
      case Command::Plot: return pythonCommand(line);
      case Command::Elements: return elementsCommand(line);
      case Command::DebugSummary: return debugSummaryCommand(line);
      case Command::Config: return configCommand(line);
    }
  } catch (const std::exception& failure) {
    // Deck mistakes are diagnostics, never exceptions; one that gets here is a bug or the system refusing
    // (a full disk, say). Say so plainly instead of letting std::terminate print a mangled type name.
    std::cerr << "lodestone: internal error: " << failure.what() << std::endl;
    return kExitSimulationFailed;
  }
  return kExitUsage;
}
