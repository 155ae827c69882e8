// Lookups on the immutable model.
#include "model.h"

namespace lodestone {

const Marker* Model::marker(long markerId) const {
  for (const Marker& m : markers) {
    if (m.id == markerId) return &m;
  }
  return nullptr;
}

}  // namespace lodestone
