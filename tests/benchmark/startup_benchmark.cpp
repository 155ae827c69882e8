// What a `lodestone` process costs before it does any work: the wall time of short commands, each run as a child
// process of its own (spawn to exit), the commands taken in turn so that a change in the machine's load touches them
// all alike. /bin/true gives the floor: what starting any process costs on this machine at this moment.
//
//   startup_benchmark [RUNS]     (default: 21 runs of each command; prints the median and the range)
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
  std::string program;
  std::vector<std::string> arguments;
  std::vector<double> milliseconds;
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 21;
  if (runs < 1) {
    std::fprintf(stderr, "usage: startup_benchmark [RUNS]\n");
    return 2;
  }
  const std::string lodestone = LODESTONE_EXECUTABLE;
  const std::string deck = std::string(LODESTONE_SOURCE_DIR) + "/models/bouncing_ball.xml";
  const std::string pythonDeck = std::string(LODESTONE_SOURCE_DIR) + "/models/usersub/sphere_python.xml";
  const fs::path results = fs::temp_directory_path() / "lodestone_startup_benchmark";
  fs::remove_all(results);

  std::vector<Command> commands = {
      {"/bin/true (the floor)", "/bin/true", {}, {}},
      {"lodestone --version", lodestone, {"--version"}, {}},
      {"lodestone --help", lodestone, {"--help"}, {}},
      {"lodestone check bouncing_ball.xml", lodestone, {"check", deck}, {}},
      {"lodestone run bouncing_ball.xml", lodestone, {"run", "-o", (results / "run").string(), deck}, {}},
      {"lodestone check sphere_python.xml (Python law)", lodestone, {"check", pythonDeck}, {}},
  };

  for (int run = 0; run < runs; ++run) {
    for (Command& command : commands) {
      ProcessSpec spec{command.program, {command.program}, "", ""};
      spec.argv.insert(spec.argv.end(), command.arguments.begin(), command.arguments.end());
      const auto start = std::chrono::steady_clock::now();
      const ProcessEnd end = runProcess(spec);
      const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - start;
      if (!end.succeeded()) {
        std::fprintf(stderr, "%s: %s\n", command.label.c_str(), end.describe().c_str());
        return 1;
      }
      command.milliseconds.push_back(elapsed.count());
    }
  }
  fs::remove_all(results);

  std::printf("%-46s %10s %18s\n", "command", "median ms", "range ms");
  for (const Command& command : commands) {
    const auto [lowest, highest] = std::minmax_element(command.milliseconds.begin(), command.milliseconds.end());
    std::printf("%-46s %10.1f %8.1f - %7.1f\n", command.label.c_str(), median(command.milliseconds), *lowest,
                *highest);
  }
  return 0;
}
