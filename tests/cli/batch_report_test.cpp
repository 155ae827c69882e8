// Unit tests of what batch decides around its processes: results folders, deck statuses, the exit-code
// rule and the summary table.
#include "solver/cli/batch_report.h"
#include "solver/output/results_folder.h"

#include <csignal>
#include <gtest/gtest.h>

#include "temporary_folder.h"

namespace lodestone::cli {
namespace {

using testing::TemporaryFolder;

ProcessEnd exited(int code) {
  ProcessEnd end;
  end.kind = ProcessEnd::Kind::Exited;
  end.exitCode = code;
  return end;
}

ProcessEnd signaled(int signalNumber) {
  ProcessEnd end;
  end.kind = ProcessEnd::Kind::Signaled;
  end.signalNumber = signalNumber;
  return end;
}

DeckRun runWithStatus(DeckStatus status) {
  DeckRun run;
  run.status = status;
  return run;
}

TEST(ResultsFolders, DefaultIsBesideTheDeckLikeRun) {
  EXPECT_EQ(defaultResultsFolder("models/brick.xml"), "models/brick_results");
  EXPECT_EQ(defaultResultsFolder("brick.xml"), "brick_results");
  EXPECT_EQ(defaultResultsFolder("/abs/dir/brick.deck.xml"), "/abs/dir/brick.deck_results");
}

TEST(ResultsFolders, OneFolderPerDeckUnderTheOutputRoot) {
  EXPECT_EQ(planResultsFolders({"a/one.xml", "b/two.xml"}, "out"), (std::vector<std::string>{"out/one", "out/two"}));
}

TEST(ResultsFolders, SameStemUnderTheOutputRootGetsNumbered) {
  EXPECT_EQ(planResultsFolders({"a/model.xml", "b/model.xml", "c/model.xml"}, "out"),
            (std::vector<std::string>{"out/model", "out/model-2", "out/model-3"}));
  // A numbered name must not take the natural name of a later deck, nor the reverse.
  EXPECT_EQ(planResultsFolders({"a/model.xml", "b/model.xml", "c/model-2.xml"}, "out"),
            (std::vector<std::string>{"out/model", "out/model-2", "out/model-2-2"}));
}

TEST(ResultsFolders, DefaultFoldersStayDistinctAndEndInResults) {
  // The same deck twice, and two decks whose stems match in one folder.
  EXPECT_EQ(planResultsFolders({"m/brick.xml", "m/brick.xml", "m/brick.XML", "n/brick.xml"}, ""),
            (std::vector<std::string>{"m/brick_results", "m/brick-2_results", "m/brick-3_results",
                                      "n/brick_results"}));
}

TEST(ResultsFolders, DifferentSpellingsOfOneFolderCollide) {
  EXPECT_EQ(planResultsFolders({"a.xml", "./a.xml", "sub/../a.xml"}, ""),
            (std::vector<std::string>{"a_results", "./a-2_results", "sub/../a-3_results"}));
}

TEST(DeckStatusFromProcess, FollowsTheRunCommandsExitCodes) {
  DeckRun run;
  recordProcessEnd(run, exited(0));
  EXPECT_EQ(run.status, DeckStatus::Done);
  EXPECT_EQ(run.statusText, "done");
  EXPECT_EQ(run.exitCode, 0);

  recordProcessEnd(run, exited(1));
  EXPECT_EQ(run.status, DeckStatus::BadDeck);
  EXPECT_EQ(run.statusText, "bad deck");

  recordProcessEnd(run, exited(2));
  EXPECT_EQ(run.status, DeckStatus::Failed);
  EXPECT_EQ(run.statusText, "failed");

  recordProcessEnd(run, exited(70));
  EXPECT_EQ(run.status, DeckStatus::Failed);
  EXPECT_EQ(run.statusText, "failed (exit 70)");
  EXPECT_EQ(run.exitCode, 70);
}

TEST(DeckStatusFromProcess, ASignalIsACrash) {
  DeckRun run;
  recordProcessEnd(run, signaled(SIGSEGV));
  EXPECT_EQ(run.status, DeckStatus::Crashed);
  EXPECT_EQ(run.statusText, "crashed (SIGSEGV)");
  EXPECT_FALSE(run.exitCode.has_value());
}

TEST(DeckStatusFromProcess, AProcessThatNeverStartedFailedWithItsReason) {
  DeckRun run;
  ProcessEnd end;
  end.error = "cannot start /x: No such file or directory";
  recordProcessEnd(run, end);
  EXPECT_EQ(run.status, DeckStatus::Failed);
  EXPECT_EQ(run.statusText, "not started");
  EXPECT_EQ(run.note, end.error);
}

TEST(BatchExitCode, ZeroOnlyWhenEveryDeckCompleted) {
  EXPECT_EQ(batchExitCode({}), 0);
  EXPECT_EQ(batchExitCode({runWithStatus(DeckStatus::Done), runWithStatus(DeckStatus::Done)}), 0);
}

TEST(BatchExitCode, OneWhenOnlyBadDecksKeptItFromCompleting) {
  EXPECT_EQ(batchExitCode({runWithStatus(DeckStatus::Done), runWithStatus(DeckStatus::BadDeck)}), 1);
}

TEST(BatchExitCode, TwoWhenAnySimulationFailedOrCrashed) {
  EXPECT_EQ(batchExitCode({runWithStatus(DeckStatus::BadDeck), runWithStatus(DeckStatus::Failed)}), 2);
  EXPECT_EQ(batchExitCode({runWithStatus(DeckStatus::Done), runWithStatus(DeckStatus::Crashed)}), 2);
}

TEST(BatchSummary, AlignedTableCountsAndNotesOfDecksThatDidNotComplete) {
  DeckRun good{"models/brick.xml", "models/brick_results", DeckStatus::Done, "done", 0, 1.234, ""};
  DeckRun bad{"bad.xml", "bad_results", DeckStatus::BadDeck, "bad deck", 1, 0.05, "bad.xml: deck has errors"};
  DeckRun crashed{"c.xml", "c_results", DeckStatus::Crashed, "crashed (SIGSEGV)", std::nullopt, 0.5, ""};
  DeckRun missing{"nope.xml", "", DeckStatus::BadDeck, "bad deck", std::nullopt, std::nullopt, "no such file"};

  EXPECT_EQ(formatBatchSummary({good, bad, crashed, missing}),
            "deck              status             exit    wall  results\n"
            "models/brick.xml  done                  0  1.23 s  models/brick_results\n"
            "bad.xml           bad deck              1  0.05 s  bad_results\n"
            "c.xml             crashed (SIGSEGV)     -  0.50 s  c_results\n"
            "nope.xml          bad deck              -       -  -\n"
            "4 decks: 1 done, 2 bad decks, 0 failed, 1 crashed\n"
            "\n"
            "bad.xml: bad deck\n"
            "  bad.xml: deck has errors\n"
            "  full output: bad_results/console.log\n"
            "\n"
            "c.xml: crashed (SIGSEGV)\n"
            "  full output: c_results/console.log\n"
            "\n"
            "nope.xml: bad deck\n"
            "  no such file\n");
}

TEST(Plural, AddsAnSExceptForOne) {
  EXPECT_EQ(plural(0, "warning"), "0 warnings");
  EXPECT_EQ(plural(1, "warning"), "1 warning");
  EXPECT_EQ(plural(2, "bad deck"), "2 bad decks");
}

TEST(LastNonBlankLine, SkipsTrailingBlankLinesAndReadsOnlyTheTail) {
  TemporaryFolder folder;
  EXPECT_EQ(lastNonBlankLine(folder.write("a.txt", "first\nsecond line  \n\n  \n")), "second line");
  EXPECT_EQ(lastNonBlankLine(folder.write("b.txt", "no newline")), "no newline");
  EXPECT_EQ(lastNonBlankLine(folder.write("c.txt", "\n\n")), "");
  EXPECT_EQ(lastNonBlankLine(folder.write("d.txt", "")), "");
  EXPECT_EQ(lastNonBlankLine(folder / "absent.txt"), "");
  EXPECT_EQ(lastNonBlankLine(folder.write("e.txt", std::string(100000, 'x') + "\nthe end\n")), "the end");
}

}  // namespace
}  // namespace lodestone::cli
