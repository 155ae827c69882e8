// Reads a results CSV written by a run (header row, then numbers) so tests can check it column by column.
#pragma once

#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>

namespace lodestone::testing {

class ResultsTable {
 public:
  explicit ResultsTable(const std::string& path) {
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line)) return;
    std::stringstream header(line);
    for (std::string name; std::getline(header, name, ',');) {
      if (kTextColumns.count(name)) textColumns_.insert(static_cast<int>(columns_.size()));
      columns_[name] = static_cast<int>(columns_.size());
    }
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      std::vector<double> row;
      std::stringstream cells(line);
      std::vector<std::string> words;
      for (std::string cell; std::getline(cells, cell, ',');) {
        const bool isText = textColumns_.count(static_cast<int>(row.size()));
        words.push_back(isText ? cell : std::string());
        row.push_back(isText ? 0.0 : number(cell, path));
      }
      rows_.push_back(std::move(row));
      text_.push_back(std::move(words));
    }
  }

  size_t rowCount() const { return rows_.size(); }
  double at(size_t row, const std::string& column) const { return rows_.at(row).at(columns_.at(column)); }
  // A cell of a column that holds names (kTextColumns).
  const std::string& text(size_t row, const std::string& column) const {
    return text_.at(row).at(columns_.at(column));
  }
  Eigen::Vector3d vector3(size_t row, const std::string& x, const std::string& y, const std::string& z) const {
    return {at(row, x), at(row, y), at(row, z)};
  }
  Eigen::Vector4d eulerParameters(size_t row) const {
    return {at(row, "e0"), at(row, "e1"), at(row, "e2"), at(row, "e3")};
  }
  // The rows of one element (joints.csv: a joint and a motion may share an id), in time order.
  std::vector<size_t> rowsOf(long id, const std::string& element) const {
    std::vector<size_t> selected;
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (static_cast<long>(at(i, "id")) == id && text(i, "element") == element) selected.push_back(i);
    }
    return selected;
  }
  // The rows of one body, in time order.
  std::vector<size_t> rowsOfBody(long id) const {
    std::vector<size_t> selected;
    for (size_t i = 0; i < rows_.size(); ++i) {
      if (static_cast<long>(at(i, "id")) == id) selected.push_back(i);
    }
    return selected;
  }

 private:
  // strtod, not std::stod: stod throws on the subnormal numbers a body at rest can write (6e-318 rad/s), while a
  // cell that is not a number at all must still fail the test.
  static double number(const std::string& cell, const std::string& path) {
    char* end = nullptr;
    const double value = std::strtod(cell.c_str(), &end);
    if (end == cell.c_str() || *end != '\0') throw std::runtime_error(path + ": '" + cell + "' is not a number");
    return value;
  }

  // Columns of names rather than numbers: joints.csv's element, requests.csv's type, events.csv's action.
  inline static const std::set<std::string> kTextColumns{"element", "type", "action"};

  std::map<std::string, int> columns_;
  std::set<int> textColumns_;
  std::vector<std::vector<double>> rows_;
  std::vector<std::vector<std::string>> text_;  // the cells of text columns; empty elsewhere
};

}  // namespace lodestone::testing
