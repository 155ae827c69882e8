// results.h5's tables laid out and their rows kept until a thousand are due; the HDF5 module writes them.
#include "results_h5.h"

#include <limits>

#include "solver/core/modules.h"
#include "solver/core/text.h"

namespace lodestone {

ResultsH5File::ResultsH5File(const std::filesystem::path& path, const std::string& deckPath, const UnitSystem& units)
    : path_(path), units_(units) {
  static OpenResultsH5Store* const open =
      moduleFunction<OpenResultsH5Store>(kResultsH5Module, kOpenResultsH5Store, "the HDF5 writer of results.h5");
  store_.reset(open(path, {{"deck", deckPath},
                           {"lodestone_version", LODESTONE_VERSION},
                           {"units", units.describe()},
                           {"length_unit", toLower(units.length)},
                           {"force_unit", toLower(units.force)},
                           {"time_unit", toLower(units.time)},
                           {"mass_unit", toLower(units.mass)}}));
}

ResultsH5File::~ResultsH5File() {
  // The owner flushes before it reports the file written, where a failure can be told; here it cannot.
  try {
    for (const auto& [name, rows] : tables_) write(name);
  } catch (const std::runtime_error&) {
  }
}

void ResultsH5File::addCell(H5Rows& columns, size_t column, const Cell& cell) {
  switch (columns.types[column]) {
    case CellType::Real: {
      const double* real = std::get_if<double>(&cell);
      columns.reals[column].push_back(real ? *real : std::numeric_limits<double>::quiet_NaN());
      break;
    }
    case CellType::Integer: {
      const long* integer = std::get_if<long>(&cell);
      columns.integers[column].push_back(integer ? *integer : 0);
      break;
    }
    case CellType::Flag: {
      const bool* flag = std::get_if<bool>(&cell);
      columns.flags[column].push_back(flag ? static_cast<std::int8_t>(*flag) : std::int8_t{-1});
      break;
    }
    case CellType::Text: {
      const std::string_view* text = std::get_if<std::string_view>(&cell);
      columns.texts[column].push_back(text ? std::string(*text) : std::string());
      break;
    }
  }
}

void ResultsH5File::addLayout(H5Table& layout, const std::vector<TableElement>& elements) {
  for (const TableElement& element : elements) {
    layout.elementIds.push_back(element.id);
    layout.elementTypes.push_back(element.loc.element);
    layout.elementLabels.push_back(element.label);
    layout.elementDeckLines.push_back(element.loc.line);
    layout.elementDeckPositions.push_back(element.loc.position());
  }
  store_->addTable(layout);
  H5Rows& rows = tables_[layout.name];
  const size_t count = layout.columns.size();
  for (const H5Column& column : layout.columns) rows.types.push_back(column.type);
  rows.reals.resize(count);
  rows.integers.resize(count);
  rows.flags.resize(count);
  rows.texts.resize(count);
}

H5Rows& ResultsH5File::rowsOf(const std::string& table) { return tables_.at(table); }

void ResultsH5File::write(const std::string& name) {
  H5Rows& rows = tables_.at(name);
  if (rows.rows == 0) return;
  store_->append(name, rows);
  rows.rows = 0;
  for (auto& column : rows.reals) column.clear();
  for (auto& column : rows.integers) column.clear();
  for (auto& column : rows.flags) column.clear();
  for (auto& column : rows.texts) column.clear();
}

void ResultsH5File::flush() {
  for (const auto& [name, rows] : tables_) write(name);
  store_->flush();
  lastFlush_ = std::chrono::steady_clock::now();
}

void ResultsH5File::flushWhenDue() {
  if (std::chrono::steady_clock::now() - lastFlush_ >= std::chrono::seconds(1)) flush();
}

}  // namespace lodestone
