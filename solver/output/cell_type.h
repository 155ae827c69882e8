// The kinds of value a results column holds (result_tables.h), a header of its own so that the HDF5 module
// (results_h5_store.h) knows them without the tables.
#pragma once

namespace lodestone {

enum class CellType { Real, Integer, Flag, Text };

}  // namespace lodestone
