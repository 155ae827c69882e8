// Progress bar drawing: '\r' and the new text, padded to cover the old, redrawn only when the text changes.
#include "progress_bar.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unistd.h>

namespace lodestone::cli {

std::string formatProgressBar(double time, double startTime, double endTime, int width) {
  double fraction = 1.0;
  if (endTime > startTime) fraction = std::clamp((time - startTime) / (endTime - startTime), 0.0, 1.0);
  // Rounding down: the bar is full and says 100% only when the run has really reached its end time.
  const int filled = static_cast<int>(std::floor(fraction * width));
  const int percent = static_cast<int>(std::floor(fraction * 100.0));
  char numbers[64];
  std::snprintf(numbers, sizeof numbers, "] %3d%%  t=%.4g s", percent, time);
  std::string text;
  text.reserve(width + sizeof numbers + 1);
  text += '[';
  text.append(filled, '#');
  text.append(width - filled, '.');
  return text += numbers;
}

bool isTerminal(int fileDescriptor) { return isatty(fileDescriptor) == 1; }

ProgressBar::ProgressBar(std::ostream& output, bool enabled, double delaySeconds,
                         std::function<Clock::time_point()> now)
    : output_(output), enabled_(enabled), now_(std::move(now)) {
  showAfter_ = now_() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(delaySeconds));
}

ProgressBar::~ProgressBar() { clear(); }

void ProgressBar::update(double time, double startTime, double endTime) {
  if (!enabled_ || now_() < showAfter_) return;
  std::string text = formatProgressBar(time, startTime, endTime, kWidth);
  if (text == shownText_) return;
  const std::size_t padding = shownLength_ > text.size() ? shownLength_ - text.size() : 0;
  output_ << '\r' << text << std::string(padding, ' ') << std::flush;
  shownLength_ = std::max(shownLength_, text.size());
  shownText_ = std::move(text);
}

void ProgressBar::clear() {
  if (shownLength_ == 0) return;
  output_ << '\r' << std::string(shownLength_, ' ') << '\r' << std::flush;
  shownLength_ = 0;
  shownText_.clear();
}

}  // namespace lodestone::cli
