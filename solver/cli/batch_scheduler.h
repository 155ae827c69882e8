// Runs a list of child processes, at most N at a time, and times each one. Knows nothing of decks: the
// batch command builds the jobs and reads the results.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "process.h"

namespace lodestone::cli {

struct JobResult {
  ProcessEnd end;
  double wallSeconds = 0;  // from start to end as seen by this process; 0 for a job that never started
};

// Jobs start in list order; a job that ends (however it ends) frees its slot for the next one. `onFinished`
// is called, in this thread, as each job ends, with its index in `jobs`. This process must have no other
// children while it runs, because it waits for any child.
std::vector<JobResult> runJobs(const std::vector<ProcessSpec>& jobs, int maximumRunning,
                               const std::function<void(std::size_t index, const JobResult&)>& onFinished = {});

}  // namespace lodestone::cli
