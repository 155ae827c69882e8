// What `lodestone batch` decides and prints around the scheduler: one results folder per deck, the status
// of each deck from how its process ended, the summary table, and the batch's own exit code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "process.h"

namespace lodestone::cli {

// Name of the file, in each deck's results folder, that keeps what its `lodestone run` printed.
inline constexpr const char* kConsoleLogName = "console.log";

enum class DeckStatus { Done, BadDeck, Failed, Crashed, TimedOut };

struct DeckRun {
  std::string deck;                  // as the user wrote it
  std::string resultsDir;            // empty when no folder was made (the deck file does not exist)
  DeckStatus status = DeckStatus::Done;
  // "done", "bad deck", "failed", "failed (exit 70)", "interrupted (SIGTERM)", "crashed (SIGSEGV)", "timed out"
  std::string statusText;
  std::optional<int> exitCode;       // absent when the process was killed by a signal or never ran
  std::optional<double> wallSeconds; // absent when no process ran
  std::string note;                  // for a deck that did not complete: its last output line, or why it did not run
};


// One distinct folder per deck, in deck order: the default folder, or "<outputRoot>/<deck stem>" when
// outputRoot is given. A deck whose folder an earlier deck already took gets "<stem>-2", "<stem>-3", ...
// (before "_results" in the default form, so the folder still ends in "_results").
std::vector<std::string> planResultsFolders(const std::vector<std::string>& decks, const std::string& outputRoot);

// Sets status, statusText and exitCode from how the deck's `lodestone run` process ended, whose exit code
// follows the run command's convention (0 done, 1 bad deck, 2 failed, 128 + N interrupted by signal N), and
// whether the batch ended it for running longer than --timeout (`timedOut`) or passed it the signal that stopped
// the batch (`stoppedBySignal`), which say why whatever the way it ended.
void recordProcessEnd(DeckRun& run, const ProcessEnd& end, bool timedOut = false, int stoppedBySignal = 0);

// 0 when every deck completed; 2 when any failed, crashed or timed out (or could not be started); otherwise 1
// (some decks were bad, the rest completed).
int batchExitCode(const std::vector<DeckRun>& runs);

// The table (deck, status, exit, wall, results), a count line, and for each deck that did not complete its
// note and where its full output is.
std::string formatBatchSummary(const std::vector<DeckRun>& runs);

// "12.34 s": the wall times of the summary, and the timeout in its notes.
std::string formatSeconds(double seconds);

// "1 deck", "2 decks", "0 decks": for the counts in summaries and verdicts.
std::string plural(int count, const std::string& singular);

// The last line of a text file that is not blank, reading only its tail; empty when there is none.
std::string lastNonBlankLine(const std::string& path);

}  // namespace lodestone::cli
