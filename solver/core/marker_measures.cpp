// Marker measures: displacement, velocity and angular velocity of one marker relative to another.
#include "marker_measures.h"

#include <array>

#include "text.h"

namespace lodestone {

namespace {

struct NamedMeasure {
  const char* name;
  MarkerMeasure measure;
};
constexpr std::array<NamedMeasure, 12> kMeasures{{{"DX", MarkerMeasure::DX}, {"DY", MarkerMeasure::DY},
                                                  {"DZ", MarkerMeasure::DZ}, {"DM", MarkerMeasure::DM},
                                                  {"VX", MarkerMeasure::VX}, {"VY", MarkerMeasure::VY},
                                                  {"VZ", MarkerMeasure::VZ}, {"VM", MarkerMeasure::VM},
                                                  {"WX", MarkerMeasure::WX}, {"WY", MarkerMeasure::WY},
                                                  {"WZ", MarkerMeasure::WZ}, {"WM", MarkerMeasure::WM}}};

}  // namespace

std::optional<MarkerMeasure> findMarkerMeasure(std::string_view name) {
  for (const NamedMeasure& named : kMeasures) {
    if (equalsIgnoreCase(name, named.name)) return named.measure;
  }
  return std::nullopt;
}

double markerMeasure(MarkerMeasure measure, const MarkerMotion& i, const MarkerMotion& j, const MarkerMotion& axes) {
  const int group = static_cast<int>(measure) / 4;      // 0 displacement, 1 velocity, 2 angular velocity
  const int component = static_cast<int>(measure) % 4;  // x, y, z, magnitude
  const Vector3 relative = group == 0   ? Vector3(i.position - j.position)
                           : group == 1 ? Vector3(i.velocity - j.velocity)
                                        : Vector3(i.angularVelocity - j.angularVelocity);
  if (component == 3) return relative.norm();
  return axes.rotation.col(component).dot(relative);
}

}  // namespace lodestone
