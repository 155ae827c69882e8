// Child processes for `lodestone batch` (and the command tests): start a program with its output sent to
// files, wait for it, and say how it ended. A thin layer over posix_spawn and waitpid.
#pragma once

#include <chrono>
#include <string>
#include <sys/types.h>
#include <vector>

namespace lodestone::cli {

struct ProcessSpec {
  std::string program;            // the file executed (a path; PATH is not searched)
  std::vector<std::string> argv;  // argv[0] included: what the child sees as its own name
  std::string stdoutPath;         // truncated and written; empty: /dev/null
  std::string stderrPath;         // empty: the same file as stdout (both streams interleaved in one file)
  // The child leads a process group of its own, so that it can be ended whole (endProcessGroup), whatever it
  // started, and a Ctrl-C at the terminal reaches only this process, which decides what its children get.
  bool ownProcessGroup = false;
};

// How a child process ended.
struct ProcessEnd {
  enum class Kind { Exited, Signaled, NotStarted } kind = Kind::NotStarted;
  int exitCode = 0;      // when Exited
  int signalNumber = 0;  // when Signaled
  std::string error;     // when NotStarted: why, e.g. "cannot start /x: No such file or directory"

  bool succeeded() const { return kind == Kind::Exited && exitCode == 0; }
  // "exit 1", "signal 11 (SIGSEGV)", "not started: ..."
  std::string describe() const;
};

// Starts the child with standard input from /dev/null. Returns its pid, or -1 with `error` set.
pid_t startProcess(const ProcessSpec& spec, std::string& error);

// Blocks until one child of this process ends; returns its pid and how it ended, or pid -1 when this
// process has no children left.
struct EndedChild {
  pid_t pid = -1;
  ProcessEnd end;
};
EndedChild waitForAnyChild();
// The same, waiting at most `patience`: pid 0 when no child ended meanwhile (or a signal came).
EndedChild waitForAnyChild(std::chrono::milliseconds patience);

// Sends `signal` to the process group `leader` leads (a child started with ownProcessGroup).
void signalProcessGroup(pid_t leader, int signal);

// Starts the child and waits for it; for tests and one-off runs.
ProcessEnd runProcess(const ProcessSpec& spec);

// "SIGSEGV" for 11; "signal 42" for a number without a name.
std::string signalName(int signalNumber);

// The running program's own executable. Batch starts copies of itself through this link rather than through
// argv[0], which may have been found on PATH or be relative, and rather than the file it points to, which a
// rebuild during a long batch would replace: the link keeps naming the program that is running.
inline constexpr const char* kCurrentExecutable = "/proc/self/exe";

}  // namespace lodestone::cli
