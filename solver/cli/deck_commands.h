// The commands of `lodestone` that read decks: run, check, batch (whose runs are processes of their own, but which
// checks the law libraries first) and elements. They and the whole solver behind them form the module
// liblodestone_deck_commands (solver/core/modules.h), which the program loads only for them: `lodestone --version`
// or `config` never maps Xerces, FCL, SUNDIALS or Python. Each returns the process exit code (command_line.h).
#pragma once

#include "command_line.h"

namespace lodestone::cli {

int runCommand(const CommandLine& line);
int checkCommand(const CommandLine& line);
int batchCommand(const CommandLine& line);
int elementsCommand(const CommandLine& line);

// The module's one function: loads the law libraries (--laws, LODESTONE_LAWS), then runs the command.
using DeckCommand = int(const CommandLine& line);
inline constexpr const char* kDeckCommandsModule = "liblodestone_deck_commands.so";
inline constexpr const char* kDeckCommandEntry = "lodestone_deck_command";

}  // namespace lodestone::cli
