// Runs a list of child processes, at most N at a time, and times each one. Knows nothing of decks: the
// batch command builds the jobs and reads the results.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

#include "process.h"

namespace lodestone::cli {

struct JobResult {
  ProcessEnd end;
  double wallSeconds = 0;  // from start to end as seen by this process; 0 for a job that never started
  bool timedOut = false;   // ended by the scheduler because it ran longer than JobLimits::timeoutSeconds
  int stoppedBySignal = 0; // the signal JobLimits::stopSignal passed on to it, if the batch was stopped meanwhile
};

struct JobLimits {
  // A job running longer is asked to stop (SIGTERM to its process group) and, if it has not ended `graceSeconds`
  // later (stuck in code that ignores the request), killed (SIGKILL).
  std::optional<double> timeoutSeconds;
  double graceSeconds = 2;
  // Asked while jobs run; a signal number (SIGINT, SIGTERM) when the whole batch is to stop: that signal goes to
  // every running job's process group (each stops as it would alone, SIGKILL after graceSeconds), and no more
  // jobs start. 0 while the batch goes on.
  std::function<int()> stopSignal;
};

// Jobs start in list order, each in a process group of its own; a job that ends (however it ends) frees its slot
// for the next one. `onFinished` is called, in this thread, as each job ends, with its index in `jobs`; jobs a
// stop left unstarted are not reported (their results stay NotStarted). This process must have no other children
// while it runs, because it waits for any child.
std::vector<JobResult> runJobs(const std::vector<ProcessSpec>& jobs, int maximumRunning,
                               const std::function<void(std::size_t index, const JobResult&)>& onFinished = {},
                               const JobLimits& limits = {});

}  // namespace lodestone::cli
