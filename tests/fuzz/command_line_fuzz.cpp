// Fuzz target: `lodestone` argument lists through parseCommandLine, parsing only (no command runs). The input is
// the arguments separated by newlines, as the seeds in tests/fuzz/seeds/command_line are written.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solver/cli/command_line.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> arguments;
  while (!rest.empty()) {
    const std::size_t end = rest.find('\n');
    arguments.emplace_back(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
  }
  (void)lodestone::cli::parseCommandLine(arguments);
  return 0;
}
