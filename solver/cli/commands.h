// The commands of `lodestone` that need no deck, run by the program itself. Each returns the process exit code
// (command_line.h).
#pragma once

#include "command_line.h"

namespace lodestone::cli {

// run, check, batch and elements: loads the deck-commands module (deck_commands.h) and hands the command over; a
// module that cannot be loaded is said on standard error.
int deckCommand(const CommandLine& line);
// sweep and plot: this process becomes the Python module that does the work (python_command.h).
int pythonCommand(const CommandLine& line);
int debugSummaryCommand(const CommandLine& line);
int configCommand(const CommandLine& line);

}  // namespace lodestone::cli
