// SignalInterruption: while it lives, a signal it was given is only noted; the next one of that signal goes to the
// handler that was there before; afterwards that handler is back.
#include "solver/driver/signal_interruption.h"

#include <csignal>

#include <gtest/gtest.h>

namespace lodestone {
namespace {

volatile std::sig_atomic_t handledBefore = 0;
void countSignal(int) { handledBefore = handledBefore + 1; }

// Installs countSignal for SIGUSR1 (a signal nothing else in the tests uses) and restores what was there.
class SignalInterruptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    handledBefore = 0;
    struct sigaction counting {};
    counting.sa_handler = countSignal;
    sigemptyset(&counting.sa_mask);
    ASSERT_EQ(sigaction(SIGUSR1, &counting, &saved_), 0);
  }
  void TearDown() override { sigaction(SIGUSR1, &saved_, nullptr); }

 private:
  struct sigaction saved_ {};
};

TEST_F(SignalInterruptionTest, NotesTheFirstSignalAndHandsTheNextOnesBack) {
  {
    const SignalInterruption interruption({SIGUSR1});
    EXPECT_EQ(interruption.received(), 0);
    std::raise(SIGUSR1);
    EXPECT_EQ(interruption.received(), SIGUSR1);
    EXPECT_EQ(handledBefore, 0) << "the first signal is only noted";
    std::raise(SIGUSR1);
    EXPECT_EQ(handledBefore, 1) << "a second one goes to the handler that was there before";
    EXPECT_EQ(interruption.received(), SIGUSR1);
  }
  std::raise(SIGUSR1);
  EXPECT_EQ(handledBefore, 2);
}

TEST_F(SignalInterruptionTest, PutsThePreviousHandlerBackAndStartsAfreshNextTime) {
  { const SignalInterruption unused({SIGUSR1}); }
  std::raise(SIGUSR1);
  EXPECT_EQ(handledBefore, 1);
  const SignalInterruption again({SIGUSR1});
  EXPECT_EQ(again.received(), 0) << "a signal that came before it was made is not its";
}

TEST_F(SignalInterruptionTest, OneMadeWhileAnotherLivesInstallsNothing) {
  const SignalInterruption outer({SIGUSR1});
  {
    const SignalInterruption inner({SIGUSR1});
    std::raise(SIGUSR1);
    EXPECT_EQ(inner.received(), SIGUSR1);
  }
  EXPECT_EQ(outer.received(), SIGUSR1) << "the inner one's end left the outer one's handling alone";
  EXPECT_EQ(handledBefore, 0);
}

}  // namespace
}  // namespace lodestone
