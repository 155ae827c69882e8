// A cheap wall-clock stopwatch for timing phases of a run (steady_clock reads cost tens of nanoseconds, so the
// residual's stages can be timed on every evaluation).
#pragma once

#include <chrono>

namespace lodestone {

class Stopwatch {
 public:
  Stopwatch() : last_(Clock::now()) {}

  // Seconds since construction or the previous lap; starts the next lap.
  double lap() {
    const Clock::time_point now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return seconds;
  }
  double elapsed() const { return std::chrono::duration<double>(Clock::now() - last_).count(); }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point last_;
};

// Adds the time between construction and destruction to `total`.
class ScopedTimer {
 public:
  explicit ScopedTimer(double& total) : total_(total) {}
  ~ScopedTimer() { total_ += watch_.elapsed(); }
  ScopedTimer(const ScopedTimer&) = delete;
  ScopedTimer& operator=(const ScopedTimer&) = delete;

 private:
  double& total_;
  Stopwatch watch_;
};

}  // namespace lodestone
