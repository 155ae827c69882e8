// Parsing of the `lodestone` command line, and the help text that documents it. Every message names the
// option or command at fault and what would be right, because the user sees nothing else.
#include "command_line.h"

#include <charconv>

namespace lodestone::cli {

namespace {

constexpr int kMaximumJobs = 1024;

struct OptionSpelling {
  std::string shortName;  // "-o"
  std::string longName;   // "--output"
  std::string valueName;  // "a folder", used in "needs a value" messages
};

const OptionSpelling kOutputOption{"-o", "--output", "a folder"};
const OptionSpelling kJobsOption{"-j", "--jobs", "a number of decks to run at once"};
const OptionSpelling kLawsOption{"--laws", "--laws", "a law library (or several, separated by ':')"};
const OptionSpelling kSetOption{"--set", "--set", "ELEMENT:ID:ATTRIBUTE=VALUE"};
const OptionSpelling kTimeoutOption{"--timeout", "--timeout", "a number of seconds each deck may run"};
const OptionSpelling kThreadsOption{"--threads", "--threads", "a number of threads for each run (0: one per core)"};
constexpr int kMaximumThreads = 1024;

std::string commandName(Command command) {
  switch (command) {
    case Command::Run: return "run";
    case Command::Check: return "check";
    case Command::Batch: return "batch";
    case Command::Sweep: return "sweep";
    case Command::Plot: return "plot";
    case Command::Elements: return "elements";
    case Command::DebugSummary: return "debug-summary";
    case Command::Config: return "config";
    case Command::Help: return "help";
    case Command::Version: return "--version";
  }
  return "?";
}

// When `argument` spells `option` ("-o", "-oDIR", "--output", "--output=DIR"), returns the value written
// inside the argument itself, or an empty optional string meaning "the value is the next argument".
// Returns nullopt when `argument` is not this option at all.
std::optional<std::optional<std::string>> matchOption(const std::string& argument, const OptionSpelling& option) {
  if (argument == option.shortName || argument == option.longName) return std::optional<std::string>{};
  if (argument.size() > option.shortName.size() && argument.starts_with(option.shortName) &&
      !argument.starts_with("--")) {
    return std::optional<std::string>{argument.substr(option.shortName.size())};
  }
  const std::string longWithEquals = option.longName + "=";
  if (argument.starts_with(longWithEquals)) return std::optional<std::string>{argument.substr(longWithEquals.size())};
  return std::nullopt;
}

// A whole number from `least` to `most`, the whole text; empty otherwise.
std::optional<int> parseCount(const std::string& text, int least, int most) {
  int value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc{} || stop != end || value < least || value > most) return std::nullopt;
  return value;
}

// A positive number of seconds, finite ("1.5", "600"); nullopt otherwise.
std::optional<double> parseSeconds(const std::string& text) {
  double value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc{} || stop != end || !(value > 0) || value > 1e9) return std::nullopt;
  return value;
}

bool isHelpFlag(const std::string& argument) { return argument == "--help" || argument == "-h"; }

CommandLine commandWithoutArguments(Command command) {
  CommandLine line;
  line.command = command;
  return line;
}

// debug-summary FILE [--csv | --json]
ParseResult parseDebugSummary(const std::vector<std::string>& arguments) {
  const UsageError usage{"'debug-summary' takes one file, a DebugOutput trace: lodestone debug-summary debug.log "
                         "[--csv | --json]"};
  CommandLine line = commandWithoutArguments(Command::DebugSummary);
  for (std::size_t index = 1; index < arguments.size(); ++index) {
    const std::string& argument = arguments[index];
    if (argument == "--csv" || argument == "--json") {
      if (line.summaryFormat != SummaryFormat::Text) {
        return UsageError{"'debug-summary' writes --csv or --json, not both"};
      }
      line.summaryFormat = argument == "--csv" ? SummaryFormat::Csv : SummaryFormat::Json;
    } else if (argument.starts_with("-") || !line.traceFile.empty()) {
      return usage;
    } else {
      line.traceFile = argument;
    }
  }
  if (line.traceFile.empty()) return usage;
  return line;
}

// config --cflags --libs (either or both)
ParseResult parseConfig(const std::vector<std::string>& arguments) {
  CommandLine line = commandWithoutArguments(Command::Config);
  for (std::size_t index = 1; index < arguments.size(); ++index) {
    const std::string& argument = arguments[index];
    if (argument == "--cflags") line.compileFlags = true;
    else if (argument == "--libs") line.linkFlags = true;
    else return UsageError{"unknown option '" + argument + "' for 'config'; it takes --cflags and --libs"};
  }
  if (!line.compileFlags && !line.linkFlags) {
    return UsageError{"'config' needs --cflags, --libs or both: lodestone config --cflags --libs"};
  }
  return line;
}

}  // namespace

ParseResult parseCommandLine(const std::vector<std::string>& arguments) {
  if (arguments.empty()) return UsageError{"no command given"};

  // `--help` wins wherever it stands before `--`, so that `lodestone run --help` helps instead of complaining.
  for (const std::string& argument : arguments) {
    if (argument == "--") break;
    if (isHelpFlag(argument)) return commandWithoutArguments(Command::Help);
  }

  const std::string& first = arguments.front();
  CommandLine line;
  if (first == "help") return commandWithoutArguments(Command::Help);
  if (first == "--version") {
    if (arguments.size() > 1) return UsageError{"'--version' takes no arguments (got '" + arguments[1] + "')"};
    return commandWithoutArguments(Command::Version);
  }
  if (first == "elements") {
    line.command = Command::Elements;
    for (std::size_t index = 1; index < arguments.size(); ++index) {
      const std::string& argument = arguments[index];
      if (const auto match = matchOption(argument, kLawsOption)) {
        if (match->has_value()) {
          line.lawLibraries.push_back(**match);
        } else if (index + 1 < arguments.size()) {
          line.lawLibraries.push_back(arguments[++index]);
        } else {
          return UsageError{"option '--laws' needs a value: " + kLawsOption.valueName};
        }
        if (line.lawLibraries.back().empty()) return UsageError{"option '--laws' needs a value: " + kLawsOption.valueName};
        continue;
      }
      if (argument == "--markdown") {
        line.markdown = true;
        continue;
      }
      if (argument.starts_with("-")) return UsageError{"unknown option '" + argument + "' for 'elements'"};
      line.elementNames.push_back(argument);
    }
    if (line.markdown && !line.elementNames.empty()) {
      return UsageError{"'elements --markdown' writes the whole reference; it takes no element names"};
    }
    return line;
  }
  if (first == "debug-summary") return parseDebugSummary(arguments);
  if (first == "config") return parseConfig(arguments);
  if (first == "sweep" || first == "plot") {
    line.command = first == "sweep" ? Command::Sweep : Command::Plot;
    line.forwardedArguments.assign(arguments.begin() + 1, arguments.end());
    if (line.forwardedArguments.empty()) {
      return UsageError{first == "sweep"
                            ? "'sweep' needs a deck: lodestone sweep DECK --vary ELEMENT:ID:ATTRIBUTE=V1,V2,..."
                            : "'plot' needs a results folder: lodestone plot RESULTS"};
    }
    return line;
  }
  if (first == "run") {
    line.command = Command::Run;
  } else if (first == "check") {
    line.command = Command::Check;
  } else if (first == "batch") {
    line.command = Command::Batch;
  } else if (first.starts_with("-")) {
    return UsageError{"unknown option '" + first +
                      "'; a command comes first: run, check, batch, sweep, plot, elements, debug-summary or config"};
  } else {
    return UsageError{"unknown command '" + first +
                      "'; the commands are run, check, batch, sweep, plot, elements, debug-summary and config"};
  }

  const std::string name = commandName(line.command);
  const bool takesOutput = line.command == Command::Run || line.command == Command::Batch;
  const bool takesJobs = line.command == Command::Batch;
  bool outputGiven = false;
  bool onlyDecksFollow = false;

  for (std::size_t index = 1; index < arguments.size(); ++index) {
    const std::string& argument = arguments[index];
    if (onlyDecksFollow || argument.empty() || argument[0] != '-') {
      line.decks.push_back(argument);
      continue;
    }
    if (argument == "--") {
      onlyDecksFollow = true;
      continue;
    }
    if (takesOutput && argument == "--animation") {
      line.animation = true;
      continue;
    }

    const OptionSpelling* option = nullptr;
    std::optional<std::optional<std::string>> match;
    if (takesOutput && (match = matchOption(argument, kOutputOption))) {
      option = &kOutputOption;
    } else if (takesJobs && (match = matchOption(argument, kJobsOption))) {
      option = &kJobsOption;
    } else if (takesJobs && (match = matchOption(argument, kTimeoutOption))) {
      option = &kTimeoutOption;
    } else if (takesOutput && (match = matchOption(argument, kThreadsOption))) {
      option = &kThreadsOption;
    } else if ((match = matchOption(argument, kLawsOption))) {
      option = &kLawsOption;
    } else if ((match = matchOption(argument, kSetOption))) {
      option = &kSetOption;
    } else {
      return UsageError{"unknown option '" + argument + "' for '" + name + "'"};
    }

    std::string value;
    if (match->has_value()) {
      value = **match;
    } else if (index + 1 < arguments.size()) {
      value = arguments[++index];
    } else {
      return UsageError{"option '" + option->shortName + "' needs a value: " + option->valueName};
    }

    if (option == &kLawsOption) {
      if (value.empty()) return UsageError{"option '--laws' needs a value: " + kLawsOption.valueName};
      line.lawLibraries.push_back(value);
    } else if (option == &kSetOption) {
      if (value.empty()) return UsageError{"option '--set' needs a value: " + kSetOption.valueName};
      line.settings.push_back(value);
    } else if (option == &kThreadsOption) {
      if (line.threads) return UsageError{"option '--threads' given twice"};
      line.threads = parseCount(value, 0, kMaximumThreads);
      if (!line.threads) {
        return UsageError{"option '--threads' needs a whole number from 0 (one per core) to " +
                          std::to_string(kMaximumThreads) + " (got '" + value + "')"};
      }
    } else if (option == &kTimeoutOption) {
      if (line.timeoutSeconds) return UsageError{"option '--timeout' given twice"};
      line.timeoutSeconds = parseSeconds(value);
      if (!line.timeoutSeconds) {
        return UsageError{"option '--timeout' needs a number of seconds greater than 0 (got '" + value + "')"};
      }
    } else if (option == &kOutputOption) {
      if (outputGiven) return UsageError{"option '-o' given twice"};
      if (value.empty()) return UsageError{"option '-o' needs a value: a folder"};
      outputGiven = true;
      line.outputDir = value;
    } else {
      if (line.jobs) return UsageError{"option '-j' given twice"};
      line.jobs = parseCount(value, 1, kMaximumJobs);
      if (!line.jobs) {
        return UsageError{"option '-j' needs a whole number from 1 to " + std::to_string(kMaximumJobs) +
                          " (got '" + value + "')"};
      }
    }
  }

  if (line.decks.empty()) return UsageError{"'" + name + "' needs a deck: lodestone " + name + " DECK"};
  if (line.command == Command::Run && line.decks.size() > 1) {
    return UsageError{"'run' takes one deck (got " + std::to_string(line.decks.size()) +
                      "); to run several, use 'lodestone batch'"};
  }
  return line;
}

std::string helpText() {
  return R"(Usage:
  lodestone run DECK [-o DIR] [--set ...] [--animation] [--threads N]
                                    simulate one deck
  lodestone check DECK... [--set ...]
                                    read and build decks without simulating them
  lodestone batch DECK... [-j N] [--timeout S] [-o DIR] [--set ...] [--animation] [--threads N]
                                    simulate many decks, N at a time, each in its own process
  lodestone sweep DECK --vary ELEMENT:ID:ATTRIBUTE=V1,V2,... [--vary ...] [--set ...] [--summary EXPR]
                  [--scheduler ADDR | -j N] [--timeout S] [--keep] [-o DIR]
                                    simulate variants of a deck on Dask; a table of chosen results
  lodestone plot RESULTS [--what KIND,...] [-o DIR]
                                    draw a results folder as PNG figures
  lodestone elements [NAME...] [--markdown]
                                    list the deck elements Lodestone knows, or describe the named ones
  lodestone debug-summary FILE [--csv | --json]
                                    summarise a DebugOutput trace (debug.log) per contact pair
  lodestone config --cflags --libs  compiler and linker flags for a user-subroutine library
  lodestone --help | help           show this text
  lodestone --version               show the version

run
  Reads DECK, runs its commands and writes results (bodies.csv, results.h5, run.log, ...) to a results folder:
  DIR when -o DIR is given, otherwise <deck folder>/<deck name>_results. With --animation, or when the deck has
  <H3DOutput/> or <ResOutput/>, also animation.pvd: the model moving, for ParaView. Deck errors and warnings go to
  standard error as deck.xml:LINE:COL: Element id=N: message. On a terminal, runs longer than half a
  second show a progress bar on standard error.

check
  Reads and builds each DECK, prints its errors and warnings and a one-line verdict, and simulates nothing.

batch
  Runs every DECK as a separate 'lodestone run' process, at most N at once (-j N; default: one per core).
  A deck that fails or crashes does not stop the others. Each deck gets its own results folder, the same as
  'run' would use, or DIR/<deck name> with -o DIR; two decks with the same name get DIR/<name>, DIR/<name>-2.
  What each run printed is kept in console.log in its results folder. A summary table follows at the end.
  With --timeout S, a deck still running after S seconds is stopped (SIGTERM, which ends the run after its step
  with its results kept; SIGKILL 2 s later if it is stuck in user code) and reported as timed out; the others
  go on. Each run is a process group of its own: SIGINT or SIGTERM to the batch is passed on to the runs, which
  end as they would alone, no further deck starts, and the batch ends with 130 or 143 after the summary.

sweep
  Runs a variant of DECK for every combination of the --vary values, each a 'lodestone run' with its own
  --set values (--set: the same for all), on Dask distributed: a local cluster of N worker processes (-j N;
  default: one per core), or the cluster whose scheduler is at ADDR (--scheduler tcp://host:8786; the deck
  must then be at the same path on the workers). A variant that is a bad deck, fails, crashes, or runs longer
  than --timeout S seconds is reported and does not stop the others. --summary [NAME=]TABLE[.ID].COLUMN.REDUCTION
  (repeatable, or separated by ',') names a value computed from each variant's results, e.g.
  peak_fn=impacts.peak_fn.max or z_end=bodies.2.z.last; REDUCTION is first, last, min, max, absmax, mean, sum
  or count. The table of variants, their status and values is printed and written to DIR/summary.csv (default
  DIR: <deck folder>/<deck name>_sweep); --keep keeps each variant's results in DIR/variant-001, ...
  Runs /usr/bin/python3 -m lodestone.sweep; needs Debian's python3-distributed.

plot
  Writes PNG figures of a results folder into DIR (default: the results folder itself): contacts.png (normal
  force and penetration per contact pair, each impact marked), bodies.png (positions and velocities),
  joints.png (joint and motion reactions), energy.png (the energy balance). --what contacts,energy draws only
  those; without it, every figure whose table is there. Runs /usr/bin/python3 -m lodestone.plot; needs
  Debian's python3-matplotlib.

elements
  Without names, lists every element Lodestone reads, accepts with a warning, or refuses. With names
  (any case, e.g. Body_Rigid post_graphic), prints each element's attributes: type, default or required,
  allowed range, and whether a command can change it. This is the same table the reader checks decks with.
  With --markdown, prints the whole reference as one Markdown page (docs/elements.md is that page).

debug-summary
  Reads a debug.log written with <DebugOutput/> and prints, per contact pair, the first touch, the number of
  impacts, the largest penetration and when, the peak normal and friction forces, the normal impulse, the time
  spent slipping and how often the run blamed the pair; then the step sizes, where the step size collapsed,
  struggling steps and the failure, if any. The file is read as a stream: its size does not matter.
  --csv writes the pairs' table as CSV, --json the whole summary as JSON, for scripts.

config
  Prints the flags that compile (--cflags) and link (--libs) a user-subroutine library against this
  Lodestone's headers and liblodestone_usersub, with a run path, so that the library finds it without
  LD_LIBRARY_PATH:  cc -shared -fPIC -o my_contact.so my_contact.c $(lodestone config --cflags --libs)

Options
  -o, --output DIR   results folder (run), folder of results folders (batch), of summary.csv (sweep), of
                     figures (plot)
  -j, --jobs N       decks simulated at once (batch), local Dask workers (sweep)
  --set ELEMENT:ID:ATTRIBUTE=VALUE
                     give an attribute of the deck's element a value (run, check, batch; may be repeated),
                     checked as if the deck said it: --set Force_Contact:300:stiffness=2e5; an empty ID
                     names the elements without one: --set Param_Transient::integr_tol=1e-6
  --animation        write animation.pvd (run, batch), whatever the deck's H3DOutput says
  --threads N        threads a run spreads its contact Jacobian over (run, batch; default: one per core for run,
                     1 for each of batch's runs, which run side by side); 0: one per core. Results are the same
                     bit for bit whatever N; run.log says how many were used
  --laws LIB         load the named contact laws of law library LIB (a path, or a name looked up like a
                     subroutine library); may be repeated; also for check, batch and elements
  --                 every argument after this is a deck, even one starting with '-'

Environment
  LODESTONE_LAWS          law libraries loaded before any deck is read, separated by ':' (as --laws)
  LODESTONE_USERSUB_PATH  folders, separated by ':', where subroutine, law and script files are looked for

Exit codes
  0   success (batch, sweep: every deck or variant completed)
  1   bad deck: the deck could not be read, or has errors (batch, sweep: some were bad, none failed or crashed;
      plot: the results folder has no table to draw)
  2   simulation failed; partial results are kept (batch, sweep: at least one failed, crashed or timed out)
  130, 143  run: interrupted by SIGINT (Ctrl-C) or SIGTERM, after its current step; its results are kept
            (batch: the runs it had started were interrupted so)
  64  usage: unknown command or option, or a missing argument
)";
}

std::string versionText() { return "lodestone " LODESTONE_VERSION; }

}  // namespace lodestone::cli
