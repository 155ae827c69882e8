// The commands of `lodestone` that touch decks, their elements, traces or the subroutine build. Each returns the
// process exit code (command_line.h).
#pragma once

#include "command_line.h"

namespace lodestone::cli {

int runCommand(const CommandLine& line);
int checkCommand(const CommandLine& line);
int batchCommand(const CommandLine& line);
// sweep and plot: this process becomes the Python module that does the work (python_command.h).
int pythonCommand(const CommandLine& line);
int elementsCommand(const CommandLine& line);
int debugSummaryCommand(const CommandLine& line);
int configCommand(const CommandLine& line);

}  // namespace lodestone::cli
