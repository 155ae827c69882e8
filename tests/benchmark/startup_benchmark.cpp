// What a `lodestone` process costs before it does any work: the wall time of short commands, each run as a child
// process of its own (spawn to exit), and the CPU time the child used (user and system: on a machine shared with other
// work, the steadier of the two), the commands taken in turn so that a change in the machine's load touches them all
// alike. /bin/true gives the floor: what starting any process costs on this machine at this moment. Another build's
// program (of an earlier commit, say) may be timed beside this build's, interleaved with it.
//
//   startup_benchmark [RUNS [OTHER_LODESTONE]]   (default: 21 runs of each; prints medians and the wall time's range)
//
// Measured on the 2-core development VM under other sessions' load (load average 6.5; Release), 31 runs, this build
// against the build before the modules (commit 1853acc), interleaved; /bin/true 0.8 ms. Wall ms, CPU ms:
//   command                               before         now
//   --version                             34.9, 22.7     3.1, 1.5
//   --help                                34.8, 22.7     1.7, 1.6
//   check bouncing_ball.xml               40.4, 25.9    27.1, 18.2
//   run bouncing_ball.xml                 83.5, 42.8    71.8, 36.5
//   check sphere_python.xml               60.8, 41.7    51.7, 35.2
// On the idle VM before the modules, --version took 17 ms and check 22 ms (perf stat, 20 runs). What check maps now
// is about half FCL and half Xerces-C with the libcurl it links (LD_DEBUG=bindings: of the 35 000 symbol bindings
// the loader makes, 12 600 are FCL's and 8 700 Xerces-C's); the solver module relinked without FCL checked the deck
// in 8 ms of CPU instead of 16.
// FCL in a module of its own (collision/fcl_routines.h), loaded only for a mesh or a pair without an analytical
// routine; same VM, idle (load 0.4), 31 runs interleaved with the build before (28615c9), wall ms: check
// bouncing_ball.xml 17.4 -> 13.2, run bouncing_ball.xml 34.5 -> 30.3, check sphere_python.xml 32.3 -> 28.0. dlopen
// alone, on their own: FCL (with octomap and libccd) 6.0-6.5 ms, Xerces-C 3.3 ms plus the libcurl it links 4.2-4.6 ms.
// Xerces-C from its static archive without libcurl (solver/xml/xerces_setup.cpp); same VM, idle, 31 runs interleaved
// with the build before (aff4a6c), wall ms: check bouncing_ball.xml 12.4 -> 5.1, run bouncing_ball.xml 28.5 -> 25.1,
// check sphere_python.xml 27.0 -> 19.5.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "solver/cli/process.h"

using namespace lodestone::cli;
namespace fs = std::filesystem;

namespace {

struct Command {
  std::string label;
  std::vector<std::string> arguments;  // after the program
};

struct Times {
  std::vector<double> wall, cpu;  // milliseconds
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

double cpuMillisecondsOfChildren() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  const auto milliseconds = [](const timeval& time) { return time.tv_sec * 1e3 + time.tv_usec * 1e-3; };
  return milliseconds(usage.ru_utime) + milliseconds(usage.ru_stime);
}

// Spawns `program` with `arguments` and adds its wall time (spawn to exit) and CPU time to `times`; exits the
// benchmark when it fails.
void timeProcess(const std::string& program, const std::vector<std::string>& arguments, Times& times) {
  ProcessSpec spec{program, {program}, "", ""};
  spec.argv.insert(spec.argv.end(), arguments.begin(), arguments.end());
  const double cpuBefore = cpuMillisecondsOfChildren();
  const auto start = std::chrono::steady_clock::now();
  const ProcessEnd end = runProcess(spec);
  const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
  if (!end.succeeded()) {
    std::string line = program;
    for (const std::string& argument : arguments) line += " " + argument;
    std::fprintf(stderr, "%s: %s\n", line.c_str(), end.describe().c_str());
    std::exit(1);
  }
  times.wall.push_back(elapsed.count());
  times.cpu.push_back(cpuMillisecondsOfChildren() - cpuBefore);
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 21;
  if (runs < 1 || argc > 3) {
    std::fprintf(stderr, "usage: startup_benchmark [RUNS [OTHER_LODESTONE]]\n");
    return 2;
  }
  std::vector<std::string> programs{LODESTONE_EXECUTABLE};
  if (argc > 2) programs.push_back(argv[2]);
  const std::string models = std::string(LODESTONE_SOURCE_DIR) + "/models/";
  const fs::path results = fs::temp_directory_path() / "lodestone_startup_benchmark";
  fs::remove_all(results);

  const std::vector<Command> commands = {
      {"--version", {"--version"}},
      {"--help", {"--help"}},
      {"check bouncing_ball.xml", {"check", models + "bouncing_ball.xml"}},
      {"run bouncing_ball.xml", {"run", "-o", (results / "run").string(), models + "bouncing_ball.xml"}},
      {"check sphere_python.xml (a Python law)", {"check", models + "usersub/sphere_python.xml"}},
  };
  Times floor;
  std::vector<std::vector<Times>> times(commands.size(), std::vector<Times>(programs.size()));
  for (int run = 0; run < runs; ++run) {
    timeProcess("/bin/true", {}, floor);
    for (size_t c = 0; c < commands.size(); ++c) {
      for (size_t p = 0; p < programs.size(); ++p) timeProcess(programs[p], commands[c].arguments, times[c][p]);
    }
  }
  fs::remove_all(results);

  for (size_t p = 0; p < programs.size(); ++p) std::printf("program %zu: %s\n", p + 1, programs[p].c_str());
  std::printf("%-46s", "ms: wall median (range), CPU median");
  for (size_t p = 0; p < programs.size(); ++p) std::printf("  %-30s", ("program " + std::to_string(p + 1)).c_str());
  std::printf("\n");
  const auto print = [](const Times& measured) {
    const auto [lowest, highest] = std::minmax_element(measured.wall.begin(), measured.wall.end());
    char cell[80];
    std::snprintf(cell, sizeof cell, "%.1f (%.1f-%.1f), CPU %.1f", median(measured.wall), *lowest, *highest,
                  median(measured.cpu));
    std::printf("  %-30s", cell);
  };
  std::printf("%-46s", "/bin/true (the floor)");
  print(floor);
  std::printf("\n");
  for (size_t c = 0; c < commands.size(); ++c) {
    std::printf("%-46s", ("lodestone " + commands[c].label).c_str());
    for (size_t p = 0; p < programs.size(); ++p) print(times[c][p]);
    std::printf("\n");
  }
  return 0;
}
