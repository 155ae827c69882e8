// posix_spawn and waitpid behind ProcessSpec/ProcessEnd. posix_spawn rather than fork+exec because glibc
// reports a failed exec (or a failed redirection) as its return value, so a child that never ran is told
// apart from one that ran and failed.
#include "process.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char** environ;

namespace lodestone::cli {

namespace {

// Owns a posix_spawnattr_t so that every return path destroys it.
class SpawnAttributes {
 public:
  SpawnAttributes() { posix_spawnattr_init(&attributes_); }
  ~SpawnAttributes() { posix_spawnattr_destroy(&attributes_); }
  SpawnAttributes(const SpawnAttributes&) = delete;
  SpawnAttributes& operator=(const SpawnAttributes&) = delete;
  posix_spawnattr_t* get() { return &attributes_; }

 private:
  posix_spawnattr_t attributes_;
};

// Owns a posix_spawn_file_actions_t so that every return path destroys it.
class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

constexpr int kOutputFlags = O_WRONLY | O_CREAT | O_TRUNC;
constexpr mode_t kOutputMode = 0644;

ProcessEnd endFromWaitStatus(int status) {
  ProcessEnd end;
  if (WIFSIGNALED(status)) {
    end.kind = ProcessEnd::Kind::Signaled;
    end.signalNumber = WTERMSIG(status);
  } else {
    end.kind = ProcessEnd::Kind::Exited;
    end.exitCode = WEXITSTATUS(status);
  }
  return end;
}

}  // namespace

std::string ProcessEnd::describe() const {
  switch (kind) {
    case Kind::Exited: return "exit " + std::to_string(exitCode);
    case Kind::Signaled: return "signal " + std::to_string(signalNumber) + " (" + signalName(signalNumber) + ")";
    case Kind::NotStarted: return "not started: " + error;
  }
  return "?";
}

pid_t startProcess(const ProcessSpec& spec, std::string& error) {
  FileActions actions;
  posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  const std::string stdoutPath = spec.stdoutPath.empty() ? "/dev/null" : spec.stdoutPath;
  posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, stdoutPath.c_str(), kOutputFlags, kOutputMode);
  if (spec.stderrPath.empty()) {
    posix_spawn_file_actions_adddup2(actions.get(), STDOUT_FILENO, STDERR_FILENO);
  } else {
    posix_spawn_file_actions_addopen(actions.get(), STDERR_FILENO, spec.stderrPath.c_str(), kOutputFlags,
                                     kOutputMode);
  }

  std::vector<char*> argv;
  for (const std::string& argument : spec.argv) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);

  SpawnAttributes attributes;
  if (spec.ownProcessGroup) {
    posix_spawnattr_setpgroup(attributes.get(), 0);  // 0: a group whose id is the child's own pid
    posix_spawnattr_setflags(attributes.get(), POSIX_SPAWN_SETPGROUP);
  }

  pid_t pid = -1;
  const int result = posix_spawn(&pid, spec.program.c_str(), actions.get(), attributes.get(), argv.data(), environ);
  if (result != 0) {
    error = "cannot start " + spec.program + ": " + std::strerror(result);
    return -1;
  }
  return pid;
}

EndedChild waitForAnyChild() {
  int status = 0;
  pid_t pid;
  do {
    pid = waitpid(-1, &status, 0);
  } while (pid < 0 && errno == EINTR);
  if (pid < 0) return {};
  return {pid, endFromWaitStatus(status)};
}

EndedChild waitForAnyChild(std::chrono::milliseconds patience) {
  // Polled rather than blocked on: waitpid has no timeout, and a short sleep between looks costs nothing next to
  // the runs a batch waits for.
  constexpr std::chrono::milliseconds kLookInterval{10};
  const auto deadline = std::chrono::steady_clock::now() + patience;
  for (;;) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, WNOHANG);
    if (pid > 0) return {pid, endFromWaitStatus(status)};
    if (pid < 0 && errno != EINTR) return {};
    if (std::chrono::steady_clock::now() >= deadline) return {0, {}};
    const timespec pause{0, std::chrono::nanoseconds(kLookInterval).count()};
    if (nanosleep(&pause, nullptr) != 0) return {0, {}};  // a signal came: the caller looks at it now
  }
}

void signalProcessGroup(pid_t leader, int signal) {
  if (leader > 0) kill(-leader, signal);
}

ProcessEnd runProcess(const ProcessSpec& spec) {
  ProcessEnd end;
  const pid_t pid = startProcess(spec, end.error);
  if (pid < 0) return end;
  int status = 0;
  pid_t waited;
  do {
    waited = waitpid(pid, &status, 0);
  } while (waited < 0 && errno == EINTR);
  if (waited < 0) {
    end.error = std::string("lost track of the child: ") + std::strerror(errno);
    return end;
  }
  return endFromWaitStatus(status);
}

std::string signalName(int signalNumber) {
  if (const char* abbreviation = sigabbrev_np(signalNumber)) return std::string("SIG") + abbreviation;
  return "signal " + std::to_string(signalNumber);
}

}  // namespace lodestone::cli
