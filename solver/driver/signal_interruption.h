// Ending a run on a signal without losing what it wrote. While a SignalInterruption lives, the signals it was given
// (SIGINT, SIGTERM) do nothing but note that they came, which is all a handler may safely do; a run whose
// RunRequest::shouldStop asks received() then ends after its current step, its files complete and run.log saying
// when. Each signal, once noted, goes back to the handler it had before, so that a second Ctrl-C does what it would
// have done without Lodestone (ends a run stuck inside a user subroutine). The destructor puts the previous
// handlers back.
#pragma once

#include <initializer_list>
#include <vector>

namespace lodestone {

class SignalInterruption {
 public:
  // One at a time in a process: one made while another lives installs nothing and reports what the first receives.
  explicit SignalInterruption(std::initializer_list<int> signals);
  ~SignalInterruption();
  SignalInterruption(const SignalInterruption&) = delete;
  SignalInterruption& operator=(const SignalInterruption&) = delete;

  // The first of the signals that came while installed (SIGINT, ...), 0 while none did.
  int received() const;

 private:
  std::vector<int> installed_;
  bool outermost_ = false;
};

}  // namespace lodestone
