// The marks around user calls and the handlers that read them (user_code_faults.h). Everything the handlers touch
// is prepared before they can run: lock-free atomics for the call being made, the subroutine's own strings, the
// console prefix, a duplicated log descriptor and a stack of their own.
#include "user_code_faults.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <unistd.h>

#include "user_subroutine.h"

namespace lodestone {

namespace {

// The user call being made now (one thread calls user code: contact_evaluator.cpp).
std::atomic<const UserSubroutine*> currentRoutine{nullptr};
std::atomic<int> currentElementId{0};
std::atomic<const char*> currentElementKind{"Force_Contact"};
std::atomic<double> currentTime{0};
static_assert(std::atomic<const UserSubroutine*>::is_always_lock_free && std::atomic<double>::is_always_lock_free);

std::atomic<bool> reportsInstalled{false};
std::atomic<int> logDescriptor{-1};
std::string consolePrefixText;  // set before the hooks can run, read-only while they can

constexpr int kExitSimulationFailed = 2;  // the run command's code for a run that failed (command_line.h)

constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
struct sigaction previousActions[NSIG];

// Room for the handlers to run when the crash is a stack overflow: the thread's own stack is then used up.
constexpr std::size_t kAlternateStackSize = 64 * 1024;
alignas(16) char alternateStack[kAlternateStackSize];
stack_t previousAlternateStack;

// A line built without allocating: text appended to a fixed buffer, cut short if it would not fit.
class LineBuffer {
 public:
  void append(std::string_view text) {
    for (const char character : text) {
      if (length_ < sizeof text_) text_[length_++] = character;
    }
  }
  void appendInteger(long value) {
    char digits[24];
    int count = 0;
    const bool negative = value < 0;
    unsigned long magnitude = negative ? 0ul - static_cast<unsigned long>(value) : static_cast<unsigned long>(value);
    do {
      digits[count++] = static_cast<char>('0' + magnitude % 10);
      magnitude /= 10;
    } while (magnitude > 0);
    if (negative) append("-");
    while (count > 0) append(std::string_view(&digits[--count], 1));
  }
  // As the run log writes times (scientific(t, 6): "4.277727E-01"), by hand: printf may allocate or lock.
  void appendTime(double value) {
    if (value != value) return append("NaN");
    if (value < 0) {
      append("-");
      value = -value;
    }
    if (value > 1e300) return append("Inf");
    int exponent = 0;
    if (value != 0) {
      while (value >= 10) value /= 10, ++exponent;
      while (value < 1) value *= 10, --exponent;
    }
    long mantissa = static_cast<long>(value * 1e6 + 0.5);  // seven digits
    if (mantissa >= 10000000) mantissa /= 10, ++exponent;
    char digits[7];
    for (int k = 6; k >= 0; --k, mantissa /= 10) digits[k] = static_cast<char>('0' + mantissa % 10);
    append(std::string_view(digits, 1));
    append(".");
    append(std::string_view(digits + 1, 6));
    append(exponent < 0 ? "E-" : "E+");
    if (exponent > -10 && exponent < 10) append("0");
    appendInteger(exponent < 0 ? -exponent : exponent);
  }
  void writeTo(int descriptor) const {
    std::size_t written = 0;
    while (written < length_) {
      const ssize_t result = write(descriptor, text_ + written, length_ - written);
      if (result <= 0) return;  // nothing more can be done from here
      written += static_cast<std::size_t>(result);
    }
  }

 private:
  char text_[2048];
  std::size_t length_ = 0;
};

// "Force_Contact id=300: the run ended inside CNFSUB in /m/lib.so", the part both lines share.
void appendWhere(LineBuffer& line, const UserSubroutine& routine) {
  line.append(currentElementKind.load(std::memory_order_relaxed));
  line.append(" id=");
  line.appendInteger(currentElementId.load(std::memory_order_relaxed));
  line.append(": the run ended inside ");
  line.append(routine.function);
  line.append(" in ");
  line.append(routine.file);
}

// The last line, to standard error and the run log. `how`: what happened ("it called exit()").
void reportEndInsideUserCode(const UserSubroutine& routine, std::string_view how) {
  const double time = currentTime.load(std::memory_order_relaxed);
  LineBuffer console;
  console.append(consolePrefixText);
  appendWhere(console, routine);
  console.append(" at t=");
  console.appendTime(time);
  console.append(": ");
  console.append(how);
  console.append("\n");
  console.writeTo(STDERR_FILENO);
  const int log = logDescriptor.load(std::memory_order_relaxed);
  if (log < 0) return;
  LineBuffer logLine;  // as RunLog::failed writes it
  logLine.append("Simulation FAILED at t=");
  logLine.appendTime(time);
  logLine.append(": ");
  appendWhere(logLine, routine);
  logLine.append(": ");
  logLine.append(how);
  logLine.append("\n");
  logLine.writeTo(log);
}

std::string_view describeSignal(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV (invalid memory access, or a stack overflow)";
    case SIGBUS: return "SIGBUS (invalid memory access)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGFPE: return "SIGFPE (arithmetic error, such as an integer division by zero)";
    case SIGABRT: return "SIGABRT (abort() was called)";
  }
  return "a fatal signal";
}

void onFatalSignal(int signal) {
  if (const UserSubroutine* routine = currentRoutine.load(std::memory_order_relaxed)) {
    reportEndInsideUserCode(*routine, describeSignal(signal));
  }
  // Then what the signal would have done without this handler (by default: end the process, with a core dump if
  // enabled). The signal is blocked while this runs: raised again, it arrives as the handler returns.
  sigaction(signal, &previousActions[signal], nullptr);
  raise(signal);
}

void onExit() {
  if (!reportsInstalled.load()) return;
  const UserSubroutine* routine = currentRoutine.load(std::memory_order_relaxed);
  if (!routine) return;
  reportEndInsideUserCode(*routine, "it called exit(), which ends the whole process");
  std::fflush(nullptr);  // the rows written so far, whole
  _exit(kExitSimulationFailed);
}

}  // namespace

UserCodeCall::UserCodeCall(const UserSubroutine& routine, int elementId, double time,
                           const char* elementKind) noexcept
    : outerRoutine_(currentRoutine.load(std::memory_order_relaxed)),
      outerElementId_(currentElementId.load(std::memory_order_relaxed)),
      outerElementKind_(currentElementKind.load(std::memory_order_relaxed)),
      outerTime_(currentTime.load(std::memory_order_relaxed)) {
  currentElementId.store(elementId, std::memory_order_relaxed);
  currentElementKind.store(elementKind, std::memory_order_relaxed);
  currentTime.store(time, std::memory_order_relaxed);
  currentRoutine.store(&routine, std::memory_order_relaxed);
}

UserCodeCall::~UserCodeCall() {
  currentRoutine.store(outerRoutine_, std::memory_order_relaxed);
  currentElementId.store(outerElementId_, std::memory_order_relaxed);
  currentElementKind.store(outerElementKind_, std::memory_order_relaxed);
  currentTime.store(outerTime_, std::memory_order_relaxed);
}

UserCodeFaultReports::UserCodeFaultReports(const std::string& consolePrefix) {
  if (reportsInstalled.load()) return;
  outermost_ = true;
  consolePrefixText = consolePrefix;
  static const bool exitHooksRegistered = [] {  // they cannot be removed: they check reportsInstalled instead
    std::atexit(onExit);
    std::at_quick_exit(onExit);
    return true;
  }();
  (void)exitHooksRegistered;
  stack_t alternate{};
  alternate.ss_sp = alternateStack;
  alternate.ss_size = kAlternateStackSize;
  sigaltstack(&alternate, &previousAlternateStack);
  struct sigaction reporting {};
  reporting.sa_handler = onFatalSignal;
  sigemptyset(&reporting.sa_mask);
  reporting.sa_flags = SA_ONSTACK;
  for (const int signal : kFatalSignals) sigaction(signal, &reporting, &previousActions[signal]);
  reportsInstalled = true;
}

UserCodeFaultReports::~UserCodeFaultReports() {
  if (!outermost_) return;
  reportsInstalled = false;
  for (const int signal : kFatalSignals) sigaction(signal, &previousActions[signal], nullptr);
  sigaltstack(&previousAlternateStack, nullptr);
}

UserCodeFaultLog::UserCodeFaultLog(int descriptor) {
  const int previous = logDescriptor.exchange(descriptor >= 0 ? dup(descriptor) : -1);
  if (previous >= 0) close(previous);
}

UserCodeFaultLog::~UserCodeFaultLog() {
  const int previous = logDescriptor.exchange(-1);
  if (previous >= 0) close(previous);
}

}  // namespace lodestone
