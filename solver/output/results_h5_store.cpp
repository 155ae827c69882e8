// Writing results.h5 through HDF5's C library: extendable chunked datasets, one per column, grown at every append.
// The module liblodestone_results_h5 (results_h5_store.h).
#include "results_h5_store.h"

#include <hdf5.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <utility>

#include "solver/core/modules.h"

namespace lodestone {

namespace {

// Rows per chunk: 8 KiB of doubles, small enough for a one-body run, large enough that a write of a thousand rows
// touches a chunk or two per column.
constexpr hsize_t kChunkRows = 1024;

// Closes an HDF5 handle with the function of its kind when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept {
    std::swap(id_, other.id_);
    std::swap(close_, other.close_);
    return *this;
  }
  hid_t get() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

std::runtime_error failure(const std::filesystem::path& path, const std::string& what) {
  return std::runtime_error("cannot write " + path.string() + ": " + what);
}

hid_t fileTypeOf(CellType type, hid_t& owned) {
  owned = -1;
  switch (type) {
    case CellType::Real: return H5T_IEEE_F64LE;
    case CellType::Integer: return H5T_STD_I64LE;
    case CellType::Flag: return H5T_STD_I8LE;
    case CellType::Text: {
      owned = H5Tcopy(H5T_C_S1);
      H5Tset_size(owned, H5T_VARIABLE);
      H5Tset_cset(owned, H5T_CSET_UTF8);
      return owned;
    }
  }
  return H5T_IEEE_F64LE;
}

hid_t variableString() {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  H5Tset_cset(type, H5T_CSET_UTF8);
  return type;
}

void check(bool ok, const std::filesystem::path& path, const std::string& what) {
  if (!ok) throw failure(path, what);
}

void writeStringAttribute(hid_t object, const char* name, const std::string& value, const std::filesystem::path& path) {
  Handle type(variableString(), H5Tclose);
  Handle space(H5Screate(H5S_SCALAR), H5Sclose);
  Handle attribute(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  const char* text = value.c_str();
  check(attribute.get() >= 0 && H5Awrite(attribute.get(), type.get(), &text) >= 0, path,
        std::string("attribute ") + name);
}

void writeStringsAttribute(hid_t object, const char* name, const std::vector<std::string>& values,
                           const std::filesystem::path& path) {
  std::vector<const char*> texts;
  for (const std::string& value : values) texts.push_back(value.c_str());
  Handle type(variableString(), H5Tclose);
  const hsize_t size = values.size();
  Handle space(H5Screate_simple(1, &size, nullptr), H5Sclose);
  Handle attribute(H5Acreate2(object, name, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  check(attribute.get() >= 0 && (values.empty() || H5Awrite(attribute.get(), type.get(), texts.data()) >= 0), path,
        std::string("attribute ") + name);
}

void writeIntegersAttribute(hid_t object, const char* name, const std::vector<std::int64_t>& values,
                            const std::filesystem::path& path) {
  const hsize_t size = values.size();
  Handle space(H5Screate_simple(1, &size, nullptr), H5Sclose);
  Handle attribute(H5Acreate2(object, name, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
  check(attribute.get() >= 0 &&
            (values.empty() || H5Awrite(attribute.get(), H5T_NATIVE_INT64, values.data()) >= 0),
        path, std::string("attribute ") + name);
}

// A table's group and its columns' datasets, and how many rows they hold.
struct Table {
  Handle group{-1, H5Gclose};
  std::vector<Handle> datasets;
  std::vector<CellType> types;
  hsize_t rows = 0;
};

class Store final : public ResultsH5Store {
 public:
  Store(const std::filesystem::path& path, const std::vector<std::pair<std::string, std::string>>& rootAttributes)
      : path_(path) {
    // Failures are reported by the exceptions below, with the file's name, not printed by the library.
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    Handle access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    H5Pset_libver_bounds(access.get(), H5F_LIBVER_V18, H5F_LIBVER_LATEST);
    file_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, access.get());
    check(file_ >= 0, path, "the HDF5 library cannot create it");
    for (const auto& [name, value] : rootAttributes) writeStringAttribute(file_, name.c_str(), value, path_);
  }

  ~Store() override {
    tables_.clear();  // their handles before the file's
    if (file_ >= 0) H5Fclose(file_);
  }

  void addTable(const H5Table& layout) override;
  void append(const std::string& name, const H5Rows& rows) override;
  void flush() override {
    check(H5Fflush(file_, H5F_SCOPE_LOCAL) >= 0, path_, "the HDF5 library cannot flush it");
  }

 private:
  std::filesystem::path path_;
  hid_t file_ = -1;
  std::map<std::string, std::unique_ptr<Table>> tables_;
};

void Store::addTable(const H5Table& layout) {
  auto table = std::make_unique<Table>();
  table->group = Handle(H5Gcreate2(file_, layout.name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
  const hid_t group = table->group.get();
  check(group >= 0, path_, "group /" + layout.name);
  writeStringAttribute(group, "meaning", layout.meaning, path_);
  std::vector<std::string> names;
  for (const H5Column& column : layout.columns) names.push_back(column.name);
  writeStringsAttribute(group, "columns", names, path_);
  writeIntegersAttribute(group, "element_ids", layout.elementIds, path_);
  writeStringsAttribute(group, "element_types", layout.elementTypes, path_);
  writeStringsAttribute(group, "element_labels", layout.elementLabels, path_);
  writeIntegersAttribute(group, "element_deck_lines", layout.elementDeckLines, path_);
  writeStringsAttribute(group, "element_deck_positions", layout.elementDeckPositions, path_);

  const hsize_t empty = 0, unlimited = H5S_UNLIMITED;
  Handle space(H5Screate_simple(1, &empty, &unlimited), H5Sclose);
  Handle properties(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
  H5Pset_chunk(properties.get(), 1, &kChunkRows);
  for (const H5Column& column : layout.columns) {
    hid_t ownedType = -1;
    const hid_t type = fileTypeOf(column.type, ownedType);
    Handle typeHolder(ownedType, H5Tclose);
    Handle dataset(H5Dcreate2(group, column.name.c_str(), type, space.get(), H5P_DEFAULT, properties.get(),
                              H5P_DEFAULT),
                   H5Dclose);
    check(dataset.get() >= 0, path_, "dataset /" + layout.name + "/" + column.name);
    if (!column.units.empty()) writeStringAttribute(dataset.get(), "units", column.units, path_);
    writeStringAttribute(dataset.get(), "meaning", column.meaning, path_);
    table->datasets.push_back(std::move(dataset));
    table->types.push_back(column.type);
  }
  tables_[layout.name] = std::move(table);
}

void Store::append(const std::string& name, const H5Rows& columns) {
  Table& table = *tables_.at(name);
  const hsize_t added = columns.rows;
  if (added == 0) return;
  const hsize_t start = table.rows, total = table.rows + added;
  Handle memory(H5Screate_simple(1, &added, nullptr), H5Sclose);
  std::vector<const char*> texts;
  for (size_t c = 0; c < table.types.size(); ++c) {
    const hid_t dataset = table.datasets[c].get();
    bool ok = H5Dset_extent(dataset, &total) >= 0;
    Handle space(H5Dget_space(dataset), H5Sclose);
    ok = ok && space.get() >= 0 &&
         H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &start, nullptr, &added, nullptr) >= 0;
    switch (table.types[c]) {
      case CellType::Real:
        ok = ok && H5Dwrite(dataset, H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT,
                            columns.reals[c].data()) >= 0;
        break;
      case CellType::Integer:
        ok = ok && H5Dwrite(dataset, H5T_NATIVE_INT64, memory.get(), space.get(), H5P_DEFAULT,
                            columns.integers[c].data()) >= 0;
        break;
      case CellType::Flag:
        ok = ok && H5Dwrite(dataset, H5T_NATIVE_INT8, memory.get(), space.get(), H5P_DEFAULT,
                            columns.flags[c].data()) >= 0;
        break;
      case CellType::Text: {
        texts.clear();
        for (const std::string& text : columns.texts[c]) texts.push_back(text.c_str());
        Handle type(variableString(), H5Tclose);
        ok = ok && H5Dwrite(dataset, type.get(), memory.get(), space.get(), H5P_DEFAULT, texts.data()) >= 0;
        break;
      }
    }
    check(ok, path_, "rows of /" + name);
  }
  table.rows = total;
}

}  // namespace

}  // namespace lodestone

LODESTONE_MODULE_ENTRY lodestone::ResultsH5Store* lodestone_open_results_h5_store(
    const std::filesystem::path& path, const std::vector<std::pair<std::string, std::string>>& rootAttributes) {
  return new lodestone::Store(path, rootAttributes);
}
