// Entry point of the `lodestone` command: parse the command line, hand over to the command, exit with its code. The
// program itself links nothing heavy: the commands that read decks are a module it loads for them (commands.h).
#include <exception>
#include <iostream>
#include <string>
#include <variant>
#include <vector>

#include "command_line.h"
#include "commands.h"

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
    switch (line.command) {
      case Command::Help: std::cout << helpText(); return kExitSuccess;
      case Command::Version: std::cout << versionText() << "\n"; return kExitSuccess;
      case Command::Run:
      case Command::Check:
      case Command::Batch:
      case Command::Elements: return deckCommand(line);
      case Command::Sweep:
      case Command::Plot: return pythonCommand(line);
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
