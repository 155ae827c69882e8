// The three commands of `lodestone` that touch decks. Each returns the process exit code (command_line.h).
#pragma once

#include "command_line.h"

namespace lodestone::cli {

int runCommand(const CommandLine& line);
int checkCommand(const CommandLine& line);
int batchCommand(const CommandLine& line);

}  // namespace lodestone::cli
