// Unit tests of the `lodestone` argument parser: every command, every option spelling, every usage error.
#include "solver/cli/command_line.h"

#include <gtest/gtest.h>

namespace lodestone::cli {
namespace {

CommandLine parsedOk(const std::vector<std::string>& arguments) {
  const ParseResult result = parseCommandLine(arguments);
  if (const auto* error = std::get_if<UsageError>(&result)) {
    ADD_FAILURE() << "unexpected usage error: " << error->message;
    return {};
  }
  return std::get<CommandLine>(result);
}

std::string usageError(const std::vector<std::string>& arguments) {
  const ParseResult result = parseCommandLine(arguments);
  if (const auto* error = std::get_if<UsageError>(&result)) return error->message;
  ADD_FAILURE() << "expected a usage error";
  return {};
}

TEST(CommandLine, RunTakesOneDeckAndAnOptionalOutputFolder) {
  const CommandLine plain = parsedOk({"run", "models/brick.xml"});
  EXPECT_EQ(plain.command, Command::Run);
  EXPECT_EQ(plain.decks, std::vector<std::string>{"models/brick.xml"});
  EXPECT_EQ(plain.outputDir, "");
  EXPECT_FALSE(plain.jobs.has_value());

  for (const std::vector<std::string>& spelling :
       {std::vector<std::string>{"run", "a.xml", "-o", "out"}, {"run", "-o", "out", "a.xml"},
        {"run", "a.xml", "-oout"}, {"run", "a.xml", "--output", "out"}, {"run", "a.xml", "--output=out"}}) {
    const CommandLine line = parsedOk(spelling);
    EXPECT_EQ(line.outputDir, "out") << spelling[2];
    EXPECT_EQ(line.decks, std::vector<std::string>{"a.xml"});
  }
}

TEST(CommandLine, AnimationIsAFlagOfRunAndBatch) {
  EXPECT_FALSE(parsedOk({"run", "a.xml"}).animation);
  EXPECT_TRUE(parsedOk({"run", "a.xml", "--animation"}).animation);
  EXPECT_TRUE(parsedOk({"run", "--animation", "-o", "out", "a.xml"}).animation);
  EXPECT_TRUE(parsedOk({"batch", "a.xml", "b.xml", "--animation"}).animation);
  EXPECT_EQ(usageError({"check", "a.xml", "--animation"}), "unknown option '--animation' for 'check'");
  EXPECT_EQ(parsedOk({"run", "--", "--animation"}).decks, std::vector<std::string>{"--animation"});
}

TEST(CommandLine, CheckTakesSeveralDecks) {
  const CommandLine line = parsedOk({"check", "a.xml", "b.xml"});
  EXPECT_EQ(line.command, Command::Check);
  EXPECT_EQ(line.decks, (std::vector<std::string>{"a.xml", "b.xml"}));
}

TEST(CommandLine, BatchTakesDecksJobsAndOutput) {
  const CommandLine line = parsedOk({"batch", "a.xml", "-j", "3", "b.xml", "-o", "out", "c.xml"});
  EXPECT_EQ(line.command, Command::Batch);
  EXPECT_EQ(line.decks, (std::vector<std::string>{"a.xml", "b.xml", "c.xml"}));
  EXPECT_EQ(line.jobs, 3);
  EXPECT_EQ(line.outputDir, "out");

  EXPECT_EQ(parsedOk({"batch", "a.xml", "-j4"}).jobs, 4);
  EXPECT_EQ(parsedOk({"batch", "a.xml", "--jobs", "5"}).jobs, 5);
  EXPECT_EQ(parsedOk({"batch", "a.xml", "--jobs=6"}).jobs, 6);
  EXPECT_FALSE(parsedOk({"batch", "a.xml"}).jobs.has_value());
}

TEST(CommandLine, DoubleDashMakesEverythingAfterItADeck) {
  const CommandLine line = parsedOk({"batch", "--", "-odd.xml", "--help"});
  EXPECT_EQ(line.command, Command::Batch);
  EXPECT_EQ(line.decks, (std::vector<std::string>{"-odd.xml", "--help"}));
}

TEST(CommandLine, HelpAndVersion) {
  EXPECT_EQ(parsedOk({"--help"}).command, Command::Help);
  EXPECT_EQ(parsedOk({"-h"}).command, Command::Help);
  EXPECT_EQ(parsedOk({"help"}).command, Command::Help);
  EXPECT_EQ(parsedOk({"help", "batch"}).command, Command::Help);
  EXPECT_EQ(parsedOk({"run", "--help"}).command, Command::Help);
  EXPECT_EQ(parsedOk({"batch", "a.xml", "-j", "2", "--help"}).command, Command::Help);
  EXPECT_EQ(parsedOk({"--version"}).command, Command::Version);
}

TEST(CommandLine, UsageErrorsSayWhatIsWrong) {
  EXPECT_EQ(usageError({}), "no command given");
  EXPECT_EQ(usageError({"simulate", "a.xml"}), "unknown command 'simulate'; the commands are run, check, batch, "
                                              "sweep, plot, elements, debug-summary and config");
  EXPECT_EQ(usageError({"-x"}), "unknown option '-x'; a command comes first: run, check, batch, sweep, plot, "
                                "elements, debug-summary or config");
  EXPECT_EQ(usageError({"run"}), "'run' needs a deck: lodestone run DECK");
  EXPECT_EQ(usageError({"check"}), "'check' needs a deck: lodestone check DECK");
  EXPECT_EQ(usageError({"batch", "-j", "2"}), "'batch' needs a deck: lodestone batch DECK");
  EXPECT_EQ(usageError({"run", "a.xml", "b.xml"}),
            "'run' takes one deck (got 2); to run several, use 'lodestone batch'");
  EXPECT_EQ(usageError({"run", "a.xml", "--fast"}), "unknown option '--fast' for 'run'");
  EXPECT_EQ(usageError({"run", "a.xml", "-j", "2"}), "unknown option '-j' for 'run'");
  EXPECT_EQ(usageError({"check", "a.xml", "-o", "out"}), "unknown option '-o' for 'check'");
  EXPECT_EQ(usageError({"run", "a.xml", "-o"}), "option '-o' needs a value: a folder");
  EXPECT_EQ(usageError({"run", "a.xml", "--output="}), "option '-o' needs a value: a folder");
  EXPECT_EQ(usageError({"run", "a.xml", "-o", "x", "-o", "y"}), "option '-o' given twice");
  EXPECT_EQ(usageError({"batch", "a.xml", "-j"}), "option '-j' needs a value: a number of decks to run at once");
  EXPECT_EQ(usageError({"batch", "a.xml", "-j", "2", "-j", "3"}), "option '-j' given twice");
  EXPECT_EQ(usageError({"--version", "x"}), "'--version' takes no arguments (got 'x')");
}

TEST(CommandLine, LawLibrariesCanBeGivenToEveryCommandThatReadsDecks) {
  EXPECT_EQ(parsedOk({"run", "a.xml", "--laws", "lugre", "--laws=more:other"}).lawLibraries,
            (std::vector<std::string>{"lugre", "more:other"}));
  EXPECT_EQ(parsedOk({"check", "--laws", "lugre", "a.xml"}).lawLibraries, std::vector<std::string>{"lugre"});
  EXPECT_EQ(parsedOk({"batch", "a.xml", "b.xml", "--laws", "lugre"}).decks, (std::vector<std::string>{"a.xml", "b.xml"}));
  const CommandLine elements = parsedOk({"elements", "Force_Contact", "--laws", "lugre", "--laws=x"});
  EXPECT_EQ(elements.lawLibraries, (std::vector<std::string>{"lugre", "x"}));
  EXPECT_EQ(elements.elementNames, std::vector<std::string>{"Force_Contact"});
  EXPECT_TRUE(parsedOk({"run", "a.xml"}).lawLibraries.empty());
  const std::string needsValue = "option '--laws' needs a value: a law library (or several, separated by ':')";
  EXPECT_EQ(usageError({"run", "a.xml", "--laws"}), needsValue);
  EXPECT_EQ(usageError({"run", "a.xml", "--laws="}), needsValue);
  EXPECT_EQ(usageError({"elements", "--laws"}), needsValue);
  EXPECT_EQ(usageError({"elements", "--laws="}), needsValue);
  EXPECT_EQ(usageError({"run", "a.xml", "--lawsx"}), "unknown option '--lawsx' for 'run'");
}

TEST(CommandLine, ElementsTakesNamesAndOnlyTheLawsOption) {
  const ParseResult all = parseCommandLine({"elements"});
  ASSERT_TRUE(std::holds_alternative<CommandLine>(all));
  EXPECT_EQ(std::get<CommandLine>(all).command, Command::Elements);
  EXPECT_TRUE(std::get<CommandLine>(all).elementNames.empty());
  const ParseResult named = parseCommandLine({"elements", "Body_Rigid", "post_graphic"});
  EXPECT_EQ(std::get<CommandLine>(named).elementNames, (std::vector<std::string>{"Body_Rigid", "post_graphic"}));
  EXPECT_EQ(usageError({"elements", "-o", "x"}), "unknown option '-o' for 'elements'");
}

TEST(CommandLine, DebugSummaryTakesOneTrace) {
  const CommandLine line = parsedOk({"debug-summary", "out/debug.log"});
  EXPECT_EQ(line.command, Command::DebugSummary);
  EXPECT_EQ(line.traceFile, "out/debug.log");
  EXPECT_EQ(line.summaryFormat, SummaryFormat::Text);
  EXPECT_EQ(parsedOk({"debug-summary", "--csv", "a.log"}).summaryFormat, SummaryFormat::Csv);
  EXPECT_EQ(parsedOk({"debug-summary", "a.log", "--json"}).summaryFormat, SummaryFormat::Json);
  const std::string usage = "'debug-summary' takes one file, a DebugOutput trace: lodestone debug-summary debug.log "
                            "[--csv | --json]";
  EXPECT_EQ(usageError({"debug-summary"}), usage);
  EXPECT_EQ(usageError({"debug-summary", "--csv"}), usage);
  EXPECT_EQ(usageError({"debug-summary", "a.log", "b.log"}), usage);
  EXPECT_EQ(usageError({"debug-summary", "-o"}), usage);
  EXPECT_EQ(usageError({"debug-summary", "a.log", "--csv", "--json"}),
            "'debug-summary' writes --csv or --json, not both");
}

TEST(CommandLine, ConfigTakesCflagsLibsOrBoth) {
  const CommandLine both = parsedOk({"config", "--libs", "--cflags"});
  EXPECT_EQ(both.command, Command::Config);
  EXPECT_TRUE(both.compileFlags);
  EXPECT_TRUE(both.linkFlags);
  EXPECT_FALSE(parsedOk({"config", "--cflags"}).linkFlags);
  EXPECT_FALSE(parsedOk({"config", "--libs"}).compileFlags);
  EXPECT_EQ(usageError({"config"}), "'config' needs --cflags, --libs or both: lodestone config --cflags --libs");
  EXPECT_EQ(usageError({"config", "--cflags", "--static"}),
            "unknown option '--static' for 'config'; it takes --cflags and --libs");
}

TEST(CommandLine, SweepAndPlotHandTheirArgumentsToPythonAsTheyAre) {
  const CommandLine sweep = parsedOk({"sweep", "ball.xml", "--vary", "Force_Contact:300:damping=0,0.1", "-j", "2",
                                      "--summary", "peak=impacts.peak_fn.max", "--", "-odd"});
  EXPECT_EQ(sweep.command, Command::Sweep);
  EXPECT_EQ(sweep.forwardedArguments, (std::vector<std::string>{"ball.xml", "--vary", "Force_Contact:300:damping=0,0.1",
                                                                 "-j", "2", "--summary", "peak=impacts.peak_fn.max",
                                                                 "--", "-odd"}));
  EXPECT_TRUE(sweep.decks.empty());
  const CommandLine plot = parsedOk({"plot", "ball_results", "--what", "contacts,energy", "-o", "figures"});
  EXPECT_EQ(plot.command, Command::Plot);
  EXPECT_EQ(plot.forwardedArguments,
            (std::vector<std::string>{"ball_results", "--what", "contacts,energy", "-o", "figures"}));
  EXPECT_EQ(parsedOk({"sweep", "ball.xml", "--help"}).command, Command::Help);
  EXPECT_EQ(usageError({"sweep"}), "'sweep' needs a deck: lodestone sweep DECK --vary ELEMENT:ID:ATTRIBUTE=V1,V2,...");
  EXPECT_EQ(usageError({"plot"}), "'plot' needs a results folder: lodestone plot RESULTS");
}

TEST(CommandLine, JobCountMustBeAPositiveWholeNumber) {
  for (const std::string bad : {"0", "-1", "two", "2.5", "", "3x", "1025", "99999999999"}) {
    EXPECT_EQ(usageError({"batch", "a.xml", "--jobs=" + bad}),
              "option '-j' needs a whole number from 1 to 1024 (got '" + bad + "')");
  }
  EXPECT_EQ(parsedOk({"batch", "a.xml", "-j", "1024"}).jobs, 1024);
}

TEST(CommandLine, ThreadsAreAWholeNumberForRunAndBatch) {
  EXPECT_FALSE(parsedOk({"run", "a.xml"}).threads.has_value());
  EXPECT_EQ(parsedOk({"run", "a.xml", "--threads", "2"}).threads, 2);
  EXPECT_EQ(parsedOk({"run", "--threads=0", "a.xml"}).threads, 0);
  EXPECT_EQ(parsedOk({"batch", "a.xml", "b.xml", "--threads", "3"}).threads, 3);
  for (const std::string bad : {"-1", "two", "2.5", "", "1025"}) {
    EXPECT_EQ(usageError({"run", "a.xml", "--threads=" + bad}),
              "option '--threads' needs a whole number from 0 (one per core) to 1024 (got '" + bad + "')");
  }
  EXPECT_EQ(usageError({"run", "a.xml", "--threads", "1", "--threads", "2"}), "option '--threads' given twice");
  EXPECT_EQ(usageError({"check", "a.xml", "--threads", "2"}), "unknown option '--threads' for 'check'");
}

TEST(CommandLine, HelpTextDocumentsCommandsAndExitCodes) {
  const std::string help = helpText();
  for (const char* expected : {"lodestone run DECK [-o DIR]", "lodestone check DECK", "lodestone batch DECK...",
                               "-j, --jobs N", "console.log", "Exit codes", "64  usage",
                               "2   simulation failed", "at least one failed, crashed or timed out",
                               "lodestone sweep DECK --vary ELEMENT:ID:ATTRIBUTE=V1,V2,...", "--scheduler ADDR",
                               "--timeout S", "[NAME=]TABLE[.ID].COLUMN.REDUCTION", "first, last, min, max, absmax",
                               "lodestone plot RESULTS [--what KIND,...] [-o DIR]", "energy.png"}) {
    EXPECT_NE(help.find(expected), std::string::npos) << expected;
  }
}

TEST(CommandLine, VersionTextNamesTheProgram) {
  EXPECT_TRUE(versionText().starts_with("lodestone ")) << versionText();
}

}  // namespace
}  // namespace lodestone::cli
