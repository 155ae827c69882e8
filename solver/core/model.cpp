// Lookups on the immutable model.
#include "model.h"

namespace lodestone {

int Model::bodyIndex(long bodyId) const {
  for (size_t i = 0; i < bodies.size(); ++i) {
    if (bodies[i].id == bodyId) return static_cast<int>(i);
  }
  return -1;
}

const Marker* Model::marker(long markerId) const {
  for (const Marker& m : markers) {
    if (m.id == markerId) return &m;
  }
  return nullptr;
}

}  // namespace lodestone
