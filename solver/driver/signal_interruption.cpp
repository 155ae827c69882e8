#include "signal_interruption.h"

#include <atomic>
#include <csignal>

namespace lodestone {

namespace {

// Written by the handler: a lock-free atomic and sigaction() are what a handler may use.
std::atomic<int> receivedSignal{0};
static_assert(std::atomic<int>::is_always_lock_free);
struct sigaction previousActions[NSIG];
std::atomic<bool> installedNow{false};

void noteSignal(int signal) {
  int none = 0;
  receivedSignal.compare_exchange_strong(none, signal);
  sigaction(signal, &previousActions[signal], nullptr);  // the next one goes where it went before
}

}  // namespace

SignalInterruption::SignalInterruption(std::initializer_list<int> signals) {
  if (installedNow.exchange(true)) return;
  outermost_ = true;
  receivedSignal = 0;
  struct sigaction noting {};
  noting.sa_handler = noteSignal;
  sigemptyset(&noting.sa_mask);
  noting.sa_flags = SA_RESTART;  // a write the signal interrupts goes on: the row it was writing stays whole
  for (const int signal : signals) {
    if (signal > 0 && signal < NSIG && sigaction(signal, &noting, &previousActions[signal]) == 0) {
      installed_.push_back(signal);
    }
  }
}

SignalInterruption::~SignalInterruption() {
  if (!outermost_) return;
  for (const int signal : installed_) sigaction(signal, &previousActions[signal], nullptr);
  installedNow = false;
}

int SignalInterruption::received() const { return receivedSignal.load(); }

}  // namespace lodestone
