// Unit tests of child processes and the batch scheduler, with /bin/sh as the child: exit codes, signals,
// captured output, programs that cannot start, and the limit on processes running at once.
#include "solver/cli/batch_scheduler.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <unistd.h>
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

// Gone, or a zombie that only its new parent has yet to reap; false if still there after a few seconds (a bound,
// not a timing: a process SIGKILL reached ends at once).
bool processEnds(pid_t pid) {
  for (int look = 0; look < 500; ++look) {
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    const std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
    const std::size_t state = stat.rfind(") ");
    if (state != std::string::npos && stat[state + 2] == 'Z') return true;
    usleep(10000);
  }
  return false;
}

TEST(BatchScheduler, AJobLongerThanItsTimeoutIsEndedWithAllItStarted) {
  // The shell and the sleep it starts both ignore SIGTERM, as user code stuck in a loop does not stop for it:
  // SIGKILL to the job's process group must end both.
  TemporaryFolder folder;
  const std::string grandchild = folder / "grandchild.pid";
  JobLimits limits;
  limits.timeoutSeconds = 0.2;
  limits.graceSeconds = 0.2;
  const std::vector<JobResult> results = runJobs(
      {shell("trap '' TERM; sleep 60 & echo $! > '" + grandchild + "'; wait"), shell("exit 0")}, 1, {}, limits);
  EXPECT_TRUE(results[0].timedOut);
  EXPECT_EQ(results[0].end.kind, ProcessEnd::Kind::Signaled) << results[0].end.describe();
  EXPECT_EQ(results[0].end.signalNumber, SIGKILL);
  EXPECT_TRUE(results[1].end.succeeded()) << "the next job runs";
  EXPECT_FALSE(results[1].timedOut);
  const pid_t sleeper = static_cast<pid_t>(std::stol(readFile(grandchild)));
  EXPECT_TRUE(processEnds(sleeper)) << "the job's own child was left running";
  if (!processEnds(sleeper)) kill(sleeper, SIGKILL);
}

TEST(BatchScheduler, AStopPassesTheSignalOnAndStartsNothingMore) {
  TemporaryFolder folder;
  const std::string started = folder / "started";
  JobLimits limits;
  limits.stopSignal = [&] { return readFile(started).empty() ? 0 : SIGTERM; };
  std::vector<int> reports(2, 0);
  const std::vector<JobResult> results =
      runJobs({shell("echo yes > '" + started + "'; sleep 60"), shell("exit 0")}, 1,
              [&](std::size_t index, const JobResult&) { ++reports.at(index); }, limits);
  EXPECT_EQ(results[0].end.kind, ProcessEnd::Kind::Signaled) << results[0].end.describe();
  EXPECT_EQ(results[0].end.signalNumber, SIGTERM);
  EXPECT_EQ(results[0].stoppedBySignal, SIGTERM);
  EXPECT_EQ(results[1].end.kind, ProcessEnd::Kind::NotStarted) << "no job starts after a stop";
  EXPECT_EQ(reports, (std::vector<int>{1, 0}));
}

TEST(BatchScheduler, NoJobsIsNoWork) {
  EXPECT_TRUE(runJobs({}, 4).empty());
}

}  // namespace
}  // namespace lodestone::cli
