// results.h5: every results table of a run in one HDF5 file, written through the HDF5 library (by the module of
// results_h5_store.h) as the run goes. Rows are kept in memory and written a thousand at a time, and everything is
// flushed to disk about once a second of wall time: writing and flushing at every output cost more than the whole run
// of a small deck. A run that fails closes the file like one that completes, with every row in it; a crash loses at
// most the last second. One group per table (/bodies, /contacts, /impacts, /energy, /joints, /events), one 1-D
// dataset per column under the CSV header's name, so that h5py reads a column as f["bodies"]["x"][:]. Attributes say
// the units and meaning of each column, and, per table, the elements its ids name (ids, labels, deck lines); the root
// says the deck, its units and Lodestone's version. Integer columns are int64, flags int8 (-1 where the CSV leaves
// the cell empty), reals float64 (NaN there), text variable-length UTF-8.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "result_tables.h"
#include "results_h5_store.h"
#include "solver/core/source_loc.h"
#include "solver/core/units.h"

namespace lodestone {

// An element a table's id column names: its id, label and where the deck defines it.
struct TableElement {
  long id = 0;
  std::string label;
  SourceLoc loc;  // its element name ("Body_Rigid") and deck line
};

class ResultsH5File {
 public:
  // Creates (or truncates) the file with the root's attributes; throws std::runtime_error saying why it could not.
  ResultsH5File(const std::filesystem::path& path, const std::string& deckPath, const UnitSystem& units);
  ~ResultsH5File();
  ResultsH5File(const ResultsH5File&) = delete;
  ResultsH5File& operator=(const ResultsH5File&) = delete;

  // Creates the table's group and its empty columns, with `elements` as the group's attributes.
  template <class Row>
  void addTable(const ResultTable<Row>& table, const std::vector<TableElement>& elements) {
    H5Table layout{.name = table.name, .meaning = table.meaning};
    for (const ResultColumn<Row>& column : table.columns) {
      layout.columns.push_back({column.name, column.type, unitsOf(column.quantity, units_), column.meaning});
    }
    addLayout(layout, elements);
  }

  // Appends one row per item; throws std::runtime_error when the library or the disk refuses.
  template <class Row>
  void append(const ResultTable<Row>& table, std::span<const Row> rows) {
    H5Rows& columns = rowsOf(table.name);
    for (const Row& row : rows) {
      for (size_t c = 0; c < table.columns.size(); ++c) addCell(columns, c, table.columns[c].value(row));
      ++columns.rows;
    }
    if (columns.rows >= kRowsPerWrite) write(table.name);
  }

  // Writes every row kept in memory, and everything the library holds, to disk.
  void flush();
  // flush() when a second of wall time has passed since the last.
  void flushWhenDue();

  const std::filesystem::path& path() const { return path_; }

 private:
  static constexpr size_t kRowsPerWrite = 1024;

  static void addCell(H5Rows& columns, size_t column, const Cell& cell);
  void addLayout(H5Table& layout, const std::vector<TableElement>& elements);
  H5Rows& rowsOf(const std::string& table);
  // Writes the table's rows kept in memory, and forgets them.
  void write(const std::string& table);

  std::filesystem::path path_;
  UnitSystem units_;
  std::unique_ptr<ResultsH5Store> store_;  // the file, written by the HDF5 module
  std::chrono::steady_clock::time_point lastFlush_ = std::chrono::steady_clock::now();
  std::map<std::string, H5Rows> tables_;   // the rows of each table not written yet
};

}  // namespace lodestone
