// Unit tests of the progress bar: its text, when it appears (terminal only, after the delay), and that it
// erases itself.
#include "solver/cli/progress_bar.h"

#include <gtest/gtest.h>
#include <pty.h>
#include <sstream>
#include <unistd.h>

namespace lodestone::cli {
namespace {

using Clock = ProgressBar::Clock;

// A clock the test moves by hand, so that the half-second delay is tested without sleeping.
struct FakeClock {
  Clock::time_point now{};
  void advance(double seconds) {
    now += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }
  std::function<Clock::time_point()> function() {
    return [this] { return now; };
  }
};

// What the bar writes to show `text` over an older, longer line: '\r', the text, spaces over the old tail.
std::string drawn(const std::string& text, std::size_t padding = 0) {
  std::string expected(1, '\r');
  expected += text;
  return expected.append(padding, ' ');
}

// What the bar writes to erase a line of `length` characters.
std::string erased(std::size_t length) {
  std::string expected(1, '\r');
  expected.append(length, ' ');
  return expected += '\r';
}

TEST(ProgressBarText, ShowsFractionPercentAndSimulatedTime) {
  EXPECT_EQ(formatProgressBar(0.42, 0.0, 1.0, 10), "[####......]  42%  t=0.42 s");
  EXPECT_EQ(formatProgressBar(0.0, 0.0, 1.0, 10), "[..........]   0%  t=0 s");
  EXPECT_EQ(formatProgressBar(1.0, 0.0, 1.0, 10), "[##########] 100%  t=1 s");
  // A segment that starts later (a second Simulate command) counts from its own start.
  EXPECT_EQ(formatProgressBar(1.5, 1.0, 2.0, 4), "[##..]  50%  t=1.5 s");
}

TEST(ProgressBarText, IsFullOnlyAtTheEndTime) {
  EXPECT_EQ(formatProgressBar(0.9999, 0.0, 1.0, 10), "[#########.]  99%  t=0.9999 s");
}

TEST(ProgressBarText, ClampsTimesOutsideTheSegment) {
  EXPECT_EQ(formatProgressBar(-1.0, 0.0, 2.0, 4), "[....]   0%  t=-1 s");
  EXPECT_EQ(formatProgressBar(3.0, 0.0, 2.0, 4), "[####] 100%  t=3 s");
  EXPECT_EQ(formatProgressBar(5.0, 5.0, 5.0, 4), "[####] 100%  t=5 s");  // empty segment: nothing left to do
}

TEST(ProgressBar, DisabledBarNeverWrites) {
  std::ostringstream output;
  FakeClock clock;
  {
    ProgressBar bar(output, /*enabled=*/false, 0.5, clock.function());
    clock.advance(10.0);
    bar.update(0.5, 0.0, 1.0);
    EXPECT_FALSE(bar.isShown());
  }
  EXPECT_EQ(output.str(), "");
}

TEST(ProgressBar, AppearsOnlyAfterTheDelay) {
  std::ostringstream output;
  FakeClock clock;
  ProgressBar bar(output, /*enabled=*/true, 0.5, clock.function());
  clock.advance(0.4);
  bar.update(0.1, 0.0, 1.0);
  EXPECT_EQ(output.str(), "") << "a short run must not flash a bar";
  clock.advance(0.2);
  bar.update(0.2, 0.0, 1.0);
  EXPECT_TRUE(bar.isShown());
  EXPECT_EQ(output.str(), drawn(formatProgressBar(0.2, 0.0, 1.0, ProgressBar::kWidth)));
}

TEST(ProgressBar, RedrawsInPlaceOnlyWhenTheTextChanges) {
  std::ostringstream output;
  FakeClock clock;
  ProgressBar bar(output, true, 0.0, clock.function());
  bar.update(0.5, 0.0, 1.0);
  const std::string first = output.str();
  bar.update(0.5, 0.0, 1.0);
  EXPECT_EQ(output.str(), first);

  output.str("");
  bar.update(1.0, 0.0, 100.0);  // "t=1 s" is shorter than "t=0.5 s": padded to cover the old tail
  const std::string shorter = formatProgressBar(1.0, 0.0, 100.0, ProgressBar::kWidth);
  const std::string longer = formatProgressBar(0.5, 0.0, 1.0, ProgressBar::kWidth);
  ASSERT_LT(shorter.size(), longer.size());
  EXPECT_EQ(output.str(), drawn(shorter, longer.size() - shorter.size()));
}

TEST(ProgressBar, ClearErasesTheLineAndTheDestructorClears) {
  std::ostringstream output;
  FakeClock clock;
  std::size_t length = 0;
  {
    ProgressBar bar(output, true, 0.0, clock.function());
    bar.update(0.25, 0.0, 1.0);
    length = formatProgressBar(0.25, 0.0, 1.0, ProgressBar::kWidth).size();
    output.str("");
    bar.clear();
    EXPECT_EQ(output.str(), erased(length));
    EXPECT_FALSE(bar.isShown());
    output.str("");
    bar.update(0.5, 0.0, 1.0);
    length = formatProgressBar(0.5, 0.0, 1.0, ProgressBar::kWidth).size();
    output.str("");
  }
  EXPECT_EQ(output.str(), erased(length));
}

TEST(ProgressBar, ClearWithoutABarWritesNothing) {
  std::ostringstream output;
  ProgressBar bar(output, true);
  bar.clear();
  EXPECT_EQ(output.str(), "");
}

TEST(ProgressBarTerminal, PipesAndFilesAreNotTerminals) {
  int pipeEnds[2];
  ASSERT_EQ(pipe(pipeEnds), 0);
  EXPECT_FALSE(isTerminal(pipeEnds[0]));
  EXPECT_FALSE(isTerminal(pipeEnds[1]));
  close(pipeEnds[0]);
  close(pipeEnds[1]);

  FILE* file = tmpfile();
  ASSERT_NE(file, nullptr);
  EXPECT_FALSE(isTerminal(fileno(file)));
  fclose(file);
}

TEST(ProgressBarTerminal, APseudoTerminalIsATerminal) {
  int controller = -1, terminal = -1;
  if (openpty(&controller, &terminal, nullptr, nullptr, nullptr) != 0) {
    GTEST_SKIP() << "this machine gives no pseudo-terminal (openpty failed)";
  }
  EXPECT_TRUE(isTerminal(terminal));
  close(controller);
  close(terminal);
}

}  // namespace
}  // namespace lodestone::cli
