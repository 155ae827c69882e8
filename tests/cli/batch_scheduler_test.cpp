// Unit tests of child processes and the batch scheduler, with /bin/sh as the child: exit codes, signals,
// captured output, programs that cannot start, and the limit on processes running at once.
#include "solver/cli/batch_scheduler.h"

#include <chrono>
#include <csignal>
#include <gtest/gtest.h>

#include "temporary_folder.h"

namespace lodestone::cli {
namespace {

using testing::readFile;
using testing::TemporaryFolder;

ProcessSpec shell(const std::string& script, const std::string& outputPath = "") {
  return {"/bin/sh", {"sh", "-c", script}, outputPath, ""};
}

TEST(Process, ReportsExitCodes) {
  EXPECT_TRUE(runProcess(shell("exit 0")).succeeded());
  const ProcessEnd end = runProcess(shell("exit 3"));
  EXPECT_EQ(end.kind, ProcessEnd::Kind::Exited);
  EXPECT_EQ(end.exitCode, 3);
  EXPECT_EQ(end.describe(), "exit 3");
}

TEST(Process, ReportsTheSignalThatKilledIt) {
  const ProcessEnd end = runProcess(shell("kill -SEGV $$"));
  EXPECT_EQ(end.kind, ProcessEnd::Kind::Signaled);
  EXPECT_EQ(end.signalNumber, SIGSEGV);
  EXPECT_EQ(end.describe(), "signal " + std::to_string(SIGSEGV) + " (SIGSEGV)");
}

TEST(Process, ReportsAProgramThatCannotStart) {
  const ProcessEnd end = runProcess({"/nonexistent/lodestone", {"lodestone"}, "", ""});
  EXPECT_EQ(end.kind, ProcessEnd::Kind::NotStarted);
  EXPECT_EQ(end.error, "cannot start /nonexistent/lodestone: No such file or directory");
}

TEST(Process, SendsBothStreamsToOneFileOrToTwo) {
  TemporaryFolder folder;
  const std::string both = folder / "both.txt";
  ASSERT_TRUE(runProcess(shell("echo out; echo err >&2", both)).succeeded());
  EXPECT_EQ(readFile(both), "out\nerr\n");

  const std::string out = folder / "out.txt", err = folder / "err.txt";
  ASSERT_TRUE(runProcess({"/bin/sh", {"sh", "-c", "echo out; echo err >&2"}, out, err}).succeeded());
  EXPECT_EQ(readFile(out), "out\n");
  EXPECT_EQ(readFile(err), "err\n");
}

TEST(Process, StandardInputIsEmpty) {
  TemporaryFolder folder;
  const std::string out = folder / "out.txt";
  ASSERT_TRUE(runProcess(shell("cat; echo end", out)).succeeded());  // would hang if stdin were inherited
  EXPECT_EQ(readFile(out), "end\n");
}

TEST(Process, AnOutputFileInAMissingFolderIsANotStartedChild) {
  const ProcessEnd end = runProcess(shell("exit 0", "/nonexistent/folder/console.log"));
  EXPECT_EQ(end.kind, ProcessEnd::Kind::NotStarted);
  EXPECT_NE(end.error.find("No such file or directory"), std::string::npos) << end.error;
}

TEST(Process, SignalNames) {
  EXPECT_EQ(signalName(SIGABRT), "SIGABRT");
  EXPECT_EQ(signalName(SIGKILL), "SIGKILL");
}

TEST(BatchScheduler, EveryJobEndsAndIsReportedOnceWithItsOwnOutcome) {
  TemporaryFolder folder;
  const std::vector<ProcessSpec> jobs{shell("echo zero; exit 0", folder / "0.txt"), shell("kill -ABRT $$"),
                                      {"/nonexistent/x", {"x"}, "", ""}, shell("exit 2")};
  std::vector<int> reports(jobs.size(), 0);
  const std::vector<JobResult> results =
      runJobs(jobs, 2, [&](std::size_t index, const JobResult&) { ++reports.at(index); });

  EXPECT_EQ(reports, (std::vector<int>{1, 1, 1, 1}));
  ASSERT_EQ(results.size(), 4u);
  EXPECT_TRUE(results[0].end.succeeded());
  EXPECT_EQ(readFile(folder / "0.txt"), "zero\n");
  EXPECT_EQ(results[1].end.kind, ProcessEnd::Kind::Signaled);
  EXPECT_EQ(results[1].end.signalNumber, SIGABRT);
  EXPECT_EQ(results[2].end.kind, ProcessEnd::Kind::NotStarted);
  EXPECT_EQ(results[2].wallSeconds, 0.0);
  EXPECT_EQ(results[3].end.exitCode, 2);
}

TEST(BatchScheduler, OneAtATimeRunsJobsOneAfterAnother) {
  // Each job holds a flag file while it runs and fails if it finds another job's flag: with one slot, none
  // may overlap, and they run in list order. No clock is read, so a busy machine cannot make this flaky.
  TemporaryFolder folder;
  const std::string flag = folder / "running", order = folder / "order.txt";
  std::vector<ProcessSpec> jobs;
  for (int index = 0; index < 3; ++index) {
    jobs.push_back(shell("[ -e '" + flag + "' ] && exit 9; touch '" + flag + "'; sleep 0.05; echo " +
                         std::to_string(index) + " >> '" + order + "'; rm '" + flag + "'"));
  }
  const std::vector<JobResult> results = runJobs(jobs, 1);
  for (const JobResult& result : results) {
    EXPECT_TRUE(result.end.succeeded()) << result.end.describe();
    EXPECT_GT(result.wallSeconds, 0.0);
  }
  EXPECT_EQ(readFile(order), "0\n1\n2\n");
}

TEST(BatchScheduler, TwoAtATimeRunsTwoJobsTogether) {
  // Each job waits (up to 20 s) for the other's flag file: both succeed only if they ran at the same time.
  TemporaryFolder folder;
  const std::string a = folder / "a", b = folder / "b";
  const auto waitFor = [](const std::string& mine, const std::string& other) {
    return shell("touch '" + mine + "'; i=0; while [ ! -e '" + other +
                 "' ]; do i=$((i+1)); [ $i -gt 2000 ] && exit 9; sleep 0.01; done; exit 0");
  };
  const std::vector<JobResult> results = runJobs({waitFor(a, b), waitFor(b, a)}, 2);
  EXPECT_TRUE(results[0].end.succeeded()) << results[0].end.describe();
  EXPECT_TRUE(results[1].end.succeeded()) << results[1].end.describe();
}

TEST(BatchScheduler, NoJobsIsNoWork) {
  EXPECT_TRUE(runJobs({}, 4).empty());
}

}  // namespace
}  // namespace lodestone::cli
