// The `lodestone` command line: which command, which decks, which options. Parsing is pure (no I/O) so that
// every usage rule can be unit-tested; main() turns a UsageError into exit code 64.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace lodestone::cli {

// Exit codes shared by every command (DESIGN.md, "Errors").
enum ExitCode : int {
  kExitSuccess = 0,
  kExitBadDeck = 1,
  kExitSimulationFailed = 2,
  kExitUsage = 64,  // sysexits.h EX_USAGE
};

enum class Command { Run, Check, Batch, Elements, Sweep, Plot, DebugSummary, Config, Help, Version };

enum class SummaryFormat { Text, Csv, Json };

struct CommandLine {
  Command command = Command::Help;
  std::vector<std::string> decks;  // run: exactly one; check, batch: one or more
  std::string outputDir;           // -o: run: the results folder itself; batch: the parent of one folder per deck
  bool animation = false;          // run, batch --animation: write the animation whatever the deck says
  std::optional<int> jobs;         // batch -j: at most this many decks at once; unset: one per core
  std::optional<double> timeoutSeconds;  // batch --timeout: a deck running longer is ended, "timed out"
  std::optional<int> threads;      // run, batch --threads: threads per run (0: one per core); unset: see commands
  std::vector<std::string> elementNames;  // elements: the elements to describe; none: list them all
  bool markdown = false;                  // elements --markdown: the whole reference as one Markdown page
  std::string traceFile;                  // debug-summary: the debug.log to summarise
  SummaryFormat summaryFormat = SummaryFormat::Text;  // debug-summary: --csv, --json
  bool compileFlags = false, linkFlags = false;        // config: --cflags, --libs
  std::vector<std::string> lawLibraries;  // --laws: law libraries to load before reading (any command but help)
  // --set ELEMENT:ID:ATTRIBUTE=VALUE (run, check, batch), as given; the reader parses and applies them.
  std::vector<std::string> settings;
  // sweep, plot: every argument after the command, for the Python module that does the work (python_command.h),
  // which parses them itself.
  std::vector<std::string> forwardedArguments;
};

struct UsageError {
  std::string message;  // one line, without the program name: "unknown option '-x' for 'run'"
};

using ParseResult = std::variant<CommandLine, UsageError>;

// `arguments` excludes argv[0].
ParseResult parseCommandLine(const std::vector<std::string>& arguments);

// The full --help text, exit codes included.
std::string helpText();

// "lodestone 0.1.0"
std::string versionText();

}  // namespace lodestone::cli
