// The progress bar of `lodestone run`: one line on a terminal, redrawn in place, shown only once a run has
// lasted long enough for a person to wonder, and never written into files or pipes.
#pragma once

#include <chrono>
#include <functional>
#include <ostream>
#include <string>

namespace lodestone::cli {

// "[#####...............]  25%  t=0.25 s" for a simulation from startTime to endTime, now at time.
std::string formatProgressBar(double time, double startTime, double endTime, int width);

// True when `fileDescriptor` is a terminal, the only place a line redrawn with '\r' reads well.
bool isTerminal(int fileDescriptor);

class ProgressBar {
 public:
  using Clock = std::chrono::steady_clock;

  static constexpr double kDefaultDelaySeconds = 0.5;
  static constexpr int kWidth = 20;

  // A disabled bar writes nothing at all. The delay counts from construction, i.e. the start of the run.
  ProgressBar(std::ostream& output, bool enabled, double delaySeconds = kDefaultDelaySeconds,
              std::function<Clock::time_point()> now = Clock::now);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Suitable as RunRequest::onProgress.
  void update(double time, double startTime, double endTime);

  // Erases the bar if it is on screen, so that what is printed next starts on a clean line.
  void clear();

  bool isShown() const { return shownLength_ > 0; }

 private:
  std::ostream& output_;
  bool enabled_;
  std::function<Clock::time_point()> now_;
  Clock::time_point showAfter_;
  std::string shownText_;
  std::size_t shownLength_ = 0;
};

}  // namespace lodestone::cli
