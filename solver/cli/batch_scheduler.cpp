// The batch scheduler: keep up to N children running, start the next job whenever one ends, end those that run
// too long, and end them all when the batch itself is asked to stop.
#include "batch_scheduler.h"

#include <chrono>
#include <csignal>
#include <map>

namespace lodestone::cli {

namespace {

using Clock = std::chrono::steady_clock;

// How long the scheduler waits for a child before it looks at the clock and the stop request again.
constexpr std::chrono::milliseconds kWatchInterval{100};

struct RunningJob {
  std::size_t index = 0;
  Clock::time_point startedAt;
  bool timedOut = false;
  int stoppedBySignal = 0;
  std::optional<Clock::time_point> killAt;  // set once the job was asked to stop: when it is killed if still there
};

Clock::duration secondsOf(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace

std::vector<JobResult> runJobs(const std::vector<ProcessSpec>& jobs, int maximumRunning,
                               const std::function<void(std::size_t, const JobResult&)>& onFinished,
                               const JobLimits& limits) {
  std::vector<JobResult> results(jobs.size());
  std::map<pid_t, RunningJob> running;
  const std::size_t slots = maximumRunning < 1 ? 1 : static_cast<std::size_t>(maximumRunning);
  auto finish = [&](std::size_t index, JobResult result) {
    results[index] = std::move(result);
    if (onFinished) onFinished(index, results[index]);
  };
  const auto askToStop = [&](pid_t pid, RunningJob& job, int signal, Clock::time_point now) {
    signalProcessGroup(pid, signal);
    if (!job.killAt) job.killAt = now + secondsOf(limits.graceSeconds);
  };

  bool stopping = false;
  std::size_t nextJob = 0;
  while ((!stopping && nextJob < jobs.size()) || !running.empty()) {
    while (!stopping && nextJob < jobs.size() && running.size() < slots) {
      const std::size_t index = nextJob++;
      JobResult result;
      ProcessSpec spec = jobs[index];
      spec.ownProcessGroup = true;
      const pid_t pid = startProcess(spec, result.end.error);
      if (pid < 0) {
        finish(index, std::move(result));  // NotStarted: the slot stays free for the next job
      } else {
        running[pid] = {index, Clock::now()};
      }
    }
    if (running.empty()) continue;

    const EndedChild child = waitForAnyChild(kWatchInterval);
    const Clock::time_point now = Clock::now();
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
    if (const auto found = running.find(child.pid); found != running.end()) {
      const std::chrono::duration<double> elapsed = now - found->second.startedAt;
      const JobResult result{child.end, elapsed.count(), found->second.timedOut, found->second.stoppedBySignal};
      const std::size_t index = found->second.index;
      running.erase(found);
      finish(index, result);
    }

    const int stopSignal = limits.stopSignal ? limits.stopSignal() : 0;
    if (stopSignal != 0 && !stopping) {
      stopping = true;
      for (auto& [pid, job] : running) {
        job.stoppedBySignal = stopSignal;
        askToStop(pid, job, stopSignal, now);
      }
    }
    for (auto& [pid, job] : running) {
      if (job.killAt && now >= *job.killAt) {
        signalProcessGroup(pid, SIGKILL);
      } else if (limits.timeoutSeconds && !job.timedOut && now - job.startedAt >= secondsOf(*limits.timeoutSeconds)) {
        job.timedOut = true;
        askToStop(pid, job, SIGTERM, now);
      }
    }
  }
  return results;
}

}  // namespace lodestone::cli
