// Small file helpers shared by tests that read what a run wrote: lines, CSV fields, scratch files.
#pragma once

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace lodestone::testing {

inline std::vector<std::string> readLines(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<std::string> result;
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

inline std::vector<double> csvFields(const std::string& line) {
  std::vector<double> values;
  std::stringstream stream(line);
  for (std::string field; std::getline(stream, field, ',');) {
    double value = 0;
    std::from_chars(field.data(), field.data() + field.size(), value);
    values.push_back(value);
  }
  return values;
}

// The count of one statistics line of run.log (" Far magnet pairs left to the residual    = 12"); -1 without it.
inline long logCount(const std::filesystem::path& log, const std::string& label) {
  for (const std::string& line : readLines(log)) {
    if (line.find(label) != std::string::npos) return std::stol(line.substr(line.find('=') + 1));
  }
  return -1;
}

// The whole file; empty when it cannot be read.
inline std::string fileText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline bool anyLineContains(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& line : lines) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

// A file in a folder of this test process's own, removed when the process ends.
inline std::filesystem::path scratchFile(const std::string& name) {
  struct Folder {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("lodestone_test_" + std::to_string(::getpid()));
    Folder() { std::filesystem::create_directories(path); }
    ~Folder() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Folder folder;
  return folder.path / name;
}

// The 1-based line on which `text` first contains `what`.
inline int lineOf(const std::string& text, const std::string& what) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(text.find(what)), '\n'));
}

}  // namespace lodestone::testing
