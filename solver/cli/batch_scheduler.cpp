// The batch scheduler: keep up to N children running, start the next job whenever one ends.
#include "batch_scheduler.h"

#include <chrono>
#include <map>

namespace lodestone::cli {

namespace {

using Clock = std::chrono::steady_clock;

struct RunningJob {
  std::size_t index = 0;
  Clock::time_point startedAt;
};

}  // namespace

std::vector<JobResult> runJobs(const std::vector<ProcessSpec>& jobs, int maximumRunning,
                               const std::function<void(std::size_t, const JobResult&)>& onFinished) {
  std::vector<JobResult> results(jobs.size());
  std::map<pid_t, RunningJob> running;
  const std::size_t slots = maximumRunning < 1 ? 1 : static_cast<std::size_t>(maximumRunning);
  auto finish = [&](std::size_t index, JobResult result) {
    results[index] = std::move(result);
    if (onFinished) onFinished(index, results[index]);
  };

  std::size_t nextJob = 0;
  while (nextJob < jobs.size() || !running.empty()) {
    while (nextJob < jobs.size() && running.size() < slots) {
      const std::size_t index = nextJob++;
      JobResult result;
      const pid_t pid = startProcess(jobs[index], result.end.error);
      if (pid < 0) {
        finish(index, std::move(result));  // NotStarted: the slot stays free for the next job
      } else {
        running[pid] = {index, Clock::now()};
      }
    }
    if (running.empty()) continue;

    const EndedChild child = waitForAnyChild();
    if (child.pid < 0) {
      // No children left although some are recorded as running: something else reaped them.
      for (const auto& [pid, job] : running) {
        JobResult lost;
        lost.end.error = "the process ended unobserved (reaped elsewhere)";
        finish(job.index, std::move(lost));
      }
      running.clear();
      continue;
    }
    const auto found = running.find(child.pid);
    if (found == running.end()) continue;  // not one of ours
    const std::chrono::duration<double> elapsed = Clock::now() - found->second.startedAt;
    const std::size_t index = found->second.index;
    running.erase(found);
    finish(index, {child.end, elapsed.count()});
  }
  return results;
}

}  // namespace lodestone::cli
