// Saying which user subroutine a run ended inside, when user code ends the process itself: by calling exit(), or
// by crashing (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT; a stack overflow too, whose report runs on a stack of its
// own). Without this the process would end silently, run.log cut mid-run and, after exit(0), a zero exit status.
//
// Each call of user code is marked (UserCodeCall: three stores, no allocation). When the process ends inside one,
// a last line naming the subroutine, its library or script, the element and t goes to standard error and to the
// run log. A signal handler may only do async-signal-safe things: it writes with write(2) from the subroutine's own
// strings and a buffer on its stack, and formats numbers by hand (no printf, no allocation, no locks).
#pragma once

#include <string>

namespace lodestone {

struct UserSubroutine;  // user_subroutine.h

// While it lives, the process is inside `routine`, called by element `elementId` (of kind `elementKind`, whose text
// must outlive the call) at `time`. Calls nest: the outer one is marked again when an inner one ends.
class UserCodeCall {
 public:
  UserCodeCall(const UserSubroutine& routine, int elementId, double time,
               const char* elementKind = "Force_Contact") noexcept;
  ~UserCodeCall();
  UserCodeCall(const UserCodeCall&) = delete;
  UserCodeCall& operator=(const UserCodeCall&) = delete;

 private:
  const UserSubroutine* outerRoutine_;
  int outerElementId_;
  const char* outerElementKind_;
  double outerTime_;
};

// While one lives (`lodestone run` makes one for its run; a Python process has handlers of its own and gets none):
// - a crash inside a user call writes the last line, then the signal does what it did before (by default it ends
//   the process, with the status a crash has without Lodestone: 139 for SIGSEGV, 134 for SIGABRT, 136 for SIGFPE);
//   a crash outside user code is left as it was;
// - exit() or quick_exit() inside a user call writes the last line and ends the process with status 2 (simulation
//   failed), whatever status the subroutine gave: a run that did not finish never reports success.
// `consolePrefix` begins the line on standard error, as the run command's own lines begin ("deck.xml: ").
class UserCodeFaultReports {
 public:
  explicit UserCodeFaultReports(const std::string& consolePrefix);
  ~UserCodeFaultReports();
  UserCodeFaultReports(const UserCodeFaultReports&) = delete;
  UserCodeFaultReports& operator=(const UserCodeFaultReports&) = delete;

 private:
  bool outermost_ = false;  // one made while another lives installs nothing
};

// While it lives, the reports above go to the run log open on `descriptor` too (the run keeps its own; this keeps a
// duplicate, so that the log's closing cannot leave the reports writing to a descriptor reused for something else).
class UserCodeFaultLog {
 public:
  explicit UserCodeFaultLog(int descriptor);
  ~UserCodeFaultLog();
  UserCodeFaultLog(const UserCodeFaultLog&) = delete;
  UserCodeFaultLog& operator=(const UserCodeFaultLog&) = delete;
};

}  // namespace lodestone
