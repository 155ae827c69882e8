// Lookups on the immutable model.
#include "model.h"

namespace lodestone {

std::string Model::bodyName(int body) const {
  return body < 0 ? std::string("ground") : bodies[static_cast<size_t>(body)].loc.subject();
}

const Marker* Model::marker(long markerId) const {
  for (const Marker& m : markers) {
    if (m.id == markerId) return &m;
  }
  return nullptr;
}

}  // namespace lodestone
