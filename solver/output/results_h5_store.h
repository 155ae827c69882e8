// The HDF5 side of results.h5 (results_h5.h): ResultsH5File lays the tables out and keeps their rows; a store writes
// them through HDF5's C library. The store is the module liblodestone_results_h5 (results_h5_store.cpp; modules.h),
// so that only a process that writes results maps HDF5. Plain types only cross: the module holds HDF5's code and
// none of Lodestone's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cell_type.h"

namespace lodestone {

struct H5Column {
  std::string name;
  CellType type;
  std::string units;  // "" for none
  std::string meaning;
};

// A table (a group) and the elements its id column names: their ids, element names, labels and deck lines and
// positions, one entry per element.
struct H5Table {
  std::string name;
  std::string meaning;
  std::vector<H5Column> columns;
  std::vector<std::int64_t> elementIds, elementDeckLines;
  std::vector<std::string> elementTypes, elementLabels, elementDeckPositions;
};

// A table's rows, column by column, in the types written: column c's values are in reals[c], integers[c], flags[c]
// or texts[c] as its type says.
struct H5Rows {
  std::vector<CellType> types;
  size_t rows = 0;
  std::vector<std::vector<double>> reals;
  std::vector<std::vector<std::int64_t>> integers;
  std::vector<std::vector<std::int8_t>> flags;
  std::vector<std::vector<std::string>> texts;
};

// Every method throws std::runtime_error saying which part of the file could not be written.
class ResultsH5Store {
 public:
  virtual ~ResultsH5Store() = default;  // closes the file
  virtual void addTable(const H5Table& table) = 0;
  virtual void append(const std::string& table, const H5Rows& rows) = 0;
  // Writes everything the library holds to disk.
  virtual void flush() = 0;
};

// The module's one function: creates (or truncates) the file with the root's text attributes.
using OpenResultsH5Store = ResultsH5Store*(const std::filesystem::path& path,
                                           const std::vector<std::pair<std::string, std::string>>& rootAttributes);
inline constexpr const char* kResultsH5Module = "liblodestone_results_h5.so";
inline constexpr const char* kOpenResultsH5Store = "lodestone_open_results_h5_store";

}  // namespace lodestone
