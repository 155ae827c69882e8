// Results folders, deck statuses, the summary table and the exit-code rule of `lodestone batch`.
#include "batch_report.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>

#include "command_line.h"
#include "solver/output/results_folder.h"

namespace lodestone::cli {

namespace fs = std::filesystem;

namespace {

std::string resultsFolderFor(const std::string& deck, const std::string& outputRoot, int copy) {
  if (outputRoot.empty()) return defaultResultsFolder(deck, copy);
  std::string name = fs::path(deck).stem().string();
  if (copy > 1) name += "-" + std::to_string(copy);
  return (fs::path(outputRoot) / name).string();
}

// Two spellings of one folder ("out/a", "./out/a/") must count as a collision.
std::string folderIdentity(const std::string& folder) {
  return fs::absolute(fs::path(folder)).lexically_normal().string();
}


std::string padRight(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

std::string padLeft(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

}  // namespace

std::string formatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f s", seconds);
  return text;
}

std::vector<std::string> planResultsFolders(const std::vector<std::string>& decks, const std::string& outputRoot) {
  std::vector<std::string> folders;
  std::set<std::string> taken;
  for (const std::string& deck : decks) {
    for (int copy = 1;; ++copy) {
      std::string folder = resultsFolderFor(deck, outputRoot, copy);
      if (taken.insert(folderIdentity(folder)).second) {
        folders.push_back(std::move(folder));
        break;
      }
    }
  }
  return folders;
}

void recordProcessEnd(DeckRun& run, const ProcessEnd& end, bool timedOut, int stoppedBySignal) {
  run.exitCode.reset();
  if (end.kind == ProcessEnd::Kind::Exited) run.exitCode = end.exitCode;
  if (timedOut) {
    run.status = DeckStatus::TimedOut;
    run.statusText = "timed out";
    return;
  }
  if (stoppedBySignal != 0 && !end.succeeded() && end.kind != ProcessEnd::Kind::NotStarted) {
    run.status = DeckStatus::Failed;
    run.statusText = "interrupted (" + signalName(stoppedBySignal) + ")";
    return;
  }
  switch (end.kind) {
    case ProcessEnd::Kind::NotStarted:
      run.status = DeckStatus::Failed;
      run.statusText = "not started";
      run.note = end.error;
      return;
    case ProcessEnd::Kind::Signaled:
      run.status = DeckStatus::Crashed;
      run.statusText = "crashed (" + signalName(end.signalNumber) + ")";
      return;
    case ProcessEnd::Kind::Exited:
      if (end.exitCode == kExitSuccess) {
        run.status = DeckStatus::Done;
        run.statusText = "done";
      } else if (end.exitCode == kExitBadDeck) {
        run.status = DeckStatus::BadDeck;
        run.statusText = "bad deck";
      } else if (end.exitCode == kExitSimulationFailed) {
        run.status = DeckStatus::Failed;
        run.statusText = "failed";
      } else if (end.exitCode == 128 + SIGINT || end.exitCode == 128 + SIGTERM) {
        // The run stopped in order on the signal (its results are whole up to where it stopped).
        run.status = DeckStatus::Failed;
        run.statusText = "interrupted (" + signalName(end.exitCode - 128) + ")";
      } else {
        // Not a code `run` gives on its own account (a sanitizer report, say): treat it as a failure.
        run.status = DeckStatus::Failed;
        run.statusText = "failed (exit " + std::to_string(end.exitCode) + ")";
      }
      return;
  }
}

int batchExitCode(const std::vector<DeckRun>& runs) {
  const auto has = [&](DeckStatus status) {
    return std::any_of(runs.begin(), runs.end(), [&](const DeckRun& run) { return run.status == status; });
  };
  if (has(DeckStatus::Failed) || has(DeckStatus::Crashed) || has(DeckStatus::TimedOut)) return kExitSimulationFailed;
  if (has(DeckStatus::BadDeck)) return kExitBadDeck;
  return kExitSuccess;
}

std::string formatBatchSummary(const std::vector<DeckRun>& runs) {
  struct Row {
    std::string deck, status, exit, wall, results;
  };
  std::vector<Row> rows{{"deck", "status", "exit", "wall", "results"}};
  for (const DeckRun& run : runs) {
    rows.push_back({run.deck, run.statusText, run.exitCode ? std::to_string(*run.exitCode) : "-",
                    run.wallSeconds ? formatSeconds(*run.wallSeconds) : "-",
                    run.resultsDir.empty() ? "-" : run.resultsDir});
  }
  std::size_t deckWidth = 0, statusWidth = 0, exitWidth = 0, wallWidth = 0;
  for (const Row& row : rows) {
    deckWidth = std::max(deckWidth, row.deck.size());
    statusWidth = std::max(statusWidth, row.status.size());
    exitWidth = std::max(exitWidth, row.exit.size());
    wallWidth = std::max(wallWidth, row.wall.size());
  }

  std::string text;
  for (const Row& row : rows) {
    text += padRight(row.deck, deckWidth) + "  " + padRight(row.status, statusWidth) + "  " +
            padLeft(row.exit, exitWidth) + "  " + padLeft(row.wall, wallWidth) + "  " + row.results + "\n";
  }

  int done = 0, bad = 0, failed = 0, crashed = 0, timedOut = 0;
  for (const DeckRun& run : runs) {
    switch (run.status) {
      case DeckStatus::Done: ++done; break;
      case DeckStatus::BadDeck: ++bad; break;
      case DeckStatus::Failed: ++failed; break;
      case DeckStatus::Crashed: ++crashed; break;
      case DeckStatus::TimedOut: ++timedOut; break;
    }
  }
  text += plural(static_cast<int>(runs.size()), "deck") + ": " + std::to_string(done) + " done, " +
          plural(bad, "bad deck") + ", " + std::to_string(failed) + " failed, " + std::to_string(crashed) +
          " crashed" + (timedOut > 0 ? ", " + std::to_string(timedOut) + " timed out" : std::string()) + "\n";

  for (const DeckRun& run : runs) {
    if (run.status == DeckStatus::Done) continue;
    text += "\n" + run.deck + ": " + run.statusText + "\n";
    if (!run.note.empty()) text += "  " + run.note + "\n";
    if (!run.resultsDir.empty()) {
      text += "  full output: " + (fs::path(run.resultsDir) / kConsoleLogName).string() + "\n";
    }
  }
  return text;
}

std::string plural(int count, const std::string& singular) {
  return std::to_string(count) + " " + singular + (count == 1 ? "" : "s");
}

std::string lastNonBlankLine(const std::string& path) {
  // A crashed run may have printed a lot (a sanitizer report); its last lines are the ones that say why.
  constexpr std::streamoff kTailBytes = 8192;
  std::ifstream file(path, std::ios::binary);
  if (!file) return {};
  file.seekg(0, std::ios::end);
  const std::streamoff size = file.tellg();
  file.seekg(std::max<std::streamoff>(0, size - kTailBytes));
  std::string tail((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());

  const auto isBlank = [](char character) { return character == ' ' || character == '\t' || character == '\r'; };
  std::size_t end = tail.size();
  while (end > 0) {
    const std::size_t newline = tail.rfind('\n', end - 1);
    const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
    std::string line = tail.substr(begin, end - begin);
    while (!line.empty() && isBlank(line.back())) line.pop_back();
    if (!std::all_of(line.begin(), line.end(), isBlank)) return line;
    if (newline == std::string::npos) break;
    end = newline;
  }
  return {};
}

}  // namespace lodestone::cli
