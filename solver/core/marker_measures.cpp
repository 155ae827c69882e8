// Marker measures: displacement, velocity, acceleration, angular velocity and rotation angles of one marker
// relative to another.
#include "marker_measures.h"

#include <cmath>

#include "text.h"

namespace lodestone {

namespace {

using Role = MeasureMarkerRole;

struct MeasureEntry {
  const char* name;
  MarkerMeasure measure;
  MarkerMeasureArguments arguments;
};

constexpr MarkerMeasureArguments kResolved{3, {Role::Measured, Role::RelativeTo, Role::Axes}};
constexpr MarkerMeasureArguments kResolvedInFrame{
    4, {Role::Measured, Role::RelativeTo, Role::Axes, Role::DerivativeFrame}};
constexpr MarkerMeasureArguments kMagnitudeInFrame{3, {Role::Measured, Role::RelativeTo, Role::DerivativeFrame}};
constexpr MarkerMeasureArguments kPair{2, {Role::Measured, Role::RelativeTo}};

// In enum order, so that an entry is found by its measure's number.
constexpr std::array<MeasureEntry, 30> kMeasures{{
    {"DX", MarkerMeasure::DX, kResolved},
    {"DY", MarkerMeasure::DY, kResolved},
    {"DZ", MarkerMeasure::DZ, kResolved},
    {"DM", MarkerMeasure::DM, kPair},
    {"VX", MarkerMeasure::VX, kResolvedInFrame},
    {"VY", MarkerMeasure::VY, kResolvedInFrame},
    {"VZ", MarkerMeasure::VZ, kResolvedInFrame},
    {"VM", MarkerMeasure::VM, kMagnitudeInFrame},
    {"WX", MarkerMeasure::WX, kResolved},
    {"WY", MarkerMeasure::WY, kResolved},
    {"WZ", MarkerMeasure::WZ, kResolved},
    {"WM", MarkerMeasure::WM, kPair},
    {"ACCX", MarkerMeasure::ACCX, kResolvedInFrame},
    {"ACCY", MarkerMeasure::ACCY, kResolvedInFrame},
    {"ACCZ", MarkerMeasure::ACCZ, kResolvedInFrame},
    {"ACCM", MarkerMeasure::ACCM, kMagnitudeInFrame},
    {"WDTX", MarkerMeasure::WDTX, kResolvedInFrame},
    {"WDTY", MarkerMeasure::WDTY, kResolvedInFrame},
    {"WDTZ", MarkerMeasure::WDTZ, kResolvedInFrame},
    {"WDTM", MarkerMeasure::WDTM, kMagnitudeInFrame},
    {"AX", MarkerMeasure::AX, kPair},
    {"AY", MarkerMeasure::AY, kPair},
    {"AZ", MarkerMeasure::AZ, kPair},
    {"PSI", MarkerMeasure::PSI, kPair},
    {"THETA", MarkerMeasure::THETA, kPair},
    {"PHI", MarkerMeasure::PHI, kPair},
    {"YAW", MarkerMeasure::YAW, kPair},
    {"PITCH", MarkerMeasure::PITCH, kPair},
    {"ROLL", MarkerMeasure::ROLL, kPair},
    {"VR", MarkerMeasure::VR, kMagnitudeInFrame},
}};

const MeasureEntry& entryOf(MarkerMeasure measure) { return kMeasures[static_cast<size_t>(measure)]; }

static_assert(kMeasures.size() == static_cast<size_t>(MarkerMeasure::VR) + 1 && [] {
  for (size_t k = 0; k < kMeasures.size(); ++k) {
    if (static_cast<size_t>(kMeasures[k].measure) != k) return false;
  }
  return true;
}(), "kMeasures lists every measure in enum order");
// markerMeasure picks the component as the measure's number modulo 4.
static_assert(static_cast<int>(MarkerMeasure::ACCX) % 4 == 0 && static_cast<int>(MarkerMeasure::ACCM) % 4 == 3);
static_assert(static_cast<int>(MarkerMeasure::WDTX) % 4 == 0 && static_cast<int>(MarkerMeasure::WDTM) % 4 == 3);

// The vector a translational or angular-velocity measure projects or takes the magnitude of.
Vector3 relativeVector(MarkerMeasure measure, const MarkerMotion& i, const MarkerMotion& j, const MarkerMotion& frame) {
  const Vector3 r = i.position - j.position;
  switch (measure) {
    case MarkerMeasure::DX: case MarkerMeasure::DY: case MarkerMeasure::DZ: case MarkerMeasure::DM:
      return r;
    case MarkerMeasure::VX: case MarkerMeasure::VY: case MarkerMeasure::VZ: case MarkerMeasure::VM:
    case MarkerMeasure::VR:
      // (d/dt)_l r = ṙ − ω_l × r.
      return i.velocity - j.velocity - frame.angularVelocity.cross(r);
    case MarkerMeasure::ACCX: case MarkerMeasure::ACCY: case MarkerMeasure::ACCZ: case MarkerMeasure::ACCM: {
      // Differentiating u = ṙ − ω_l × r once more in l: (d/dt)_l u = u̇ − ω_l × u
      // = r̈ − α_l × r − 2 ω_l × ṙ + ω_l × (ω_l × r).
      const Vector3& w = frame.angularVelocity;
      const Vector3 rDot = i.velocity - j.velocity;
      return i.acceleration - j.acceleration - frame.angularAcceleration.cross(r) - 2 * w.cross(rDot) +
             w.cross(w.cross(r));
    }
    case MarkerMeasure::WDTX: case MarkerMeasure::WDTY: case MarkerMeasure::WDTZ: case MarkerMeasure::WDTM:
      // (d/dt)_l (ω_i − ω_j) = α_i − α_j − ω_l × (ω_i − ω_j).
      return i.angularAcceleration - j.angularAcceleration -
             frame.angularVelocity.cross(i.angularVelocity - j.angularVelocity);
    default:
      return i.angularVelocity - j.angularVelocity;
  }
}

// Yaw, pitch and roll of R (markerMeasure's YAW, PITCH, ROLL): R = Rz(yaw)·Ry(−pitch)·Rx(roll).
Vector3 yawPitchRollFromRotation(const Matrix3& r) {
  // cos b = hypot(R00, R10) ≥ 0 keeps b in [−π/2, π/2]; atan2 is accurate near ±π/2, where asin(−R20) is not.
  const double cosine = std::hypot(r(0, 0), r(1, 0));
  const double pitch = std::atan2(r(2, 0), cosine);  // −b, b = atan2(−R20, cos b)
  if (cosine < 1e-12) {
    // Gimbal lock: R = Rz(yaw)·Ry(b)·Rx(roll) depends on yaw − roll (b = +90°) or yaw + roll (b = −90°) only;
    // with roll 0 both read R01 = −sin yaw, R11 = cos yaw.
    return {std::atan2(-r(0, 1), r(1, 1)), pitch, 0.0};
  }
  return {std::atan2(r(1, 0), r(0, 0)), pitch, std::atan2(r(2, 1), r(2, 2))};
}

double rotationAngle(MarkerMeasure measure, const MarkerMotion& i, const MarkerMotion& j) {
  const auto x = [](const MarkerMotion& m) { return m.rotation.col(0); };
  const auto y = [](const MarkerMotion& m) { return m.rotation.col(1); };
  const auto z = [](const MarkerMotion& m) { return m.rotation.col(2); };
  switch (measure) {
    case MarkerMeasure::AX: return std::atan2(-z(i).dot(y(j)), z(i).dot(z(j)));
    case MarkerMeasure::AY: return std::atan2(z(i).dot(x(j)), z(i).dot(z(j)));
    case MarkerMeasure::AZ: return std::atan2(x(i).dot(y(j)), x(i).dot(x(j)));
    case MarkerMeasure::YAW: case MarkerMeasure::PITCH: case MarkerMeasure::ROLL: {
      const Vector3 angles = yawPitchRollFromRotation(j.rotation.transpose() * i.rotation);
      return angles[static_cast<int>(measure) - static_cast<int>(MarkerMeasure::YAW)];
    }
    default: {
      const Vector3 angles = euler313FromRotation(j.rotation.transpose() * i.rotation);
      return angles[static_cast<int>(measure) - static_cast<int>(MarkerMeasure::PSI)];
    }
  }
}

}  // namespace

std::optional<MarkerMeasure> findMarkerMeasure(std::string_view name) {
  for (const MeasureEntry& entry : kMeasures) {
    if (equalsIgnoreCase(name, entry.name)) return entry.measure;
  }
  return std::nullopt;
}

bool measureReadsAcceleration(MarkerMeasure measure) {
  return (measure >= MarkerMeasure::ACCX && measure <= MarkerMeasure::ACCM) ||
         (measure >= MarkerMeasure::WDTX && measure <= MarkerMeasure::WDTM);
}

bool measureReadsVelocity(MarkerMeasure measure) {
  return (measure >= MarkerMeasure::VX && measure <= MarkerMeasure::WM) || measure == MarkerMeasure::VR;
}

std::string_view markerMeasureName(MarkerMeasure measure) { return entryOf(measure).name; }

MarkerMeasureArguments markerMeasureArguments(MarkerMeasure measure) { return entryOf(measure).arguments; }

double markerMeasure(MarkerMeasure measure, const MarkerMotion& i, const MarkerMotion& j, const MarkerMotion& axes,
                     const MarkerMotion& frame) {
  if (measure == MarkerMeasure::VR) {
    const Vector3 r = i.position - j.position;
    return relativeVector(measure, i, j, frame).dot(r) / r.norm();  // 0/0 where they coincide
  }
  if (measure >= MarkerMeasure::AX) return rotationAngle(measure, i, j);
  const Vector3 relative = relativeVector(measure, i, j, frame);
  const int component = static_cast<int>(measure) % 4;  // x, y, z, magnitude
  if (component == 3) return relative.norm();
  return axes.rotation.col(component).dot(relative);
}

double markerMeasure(MarkerMeasure measure, const MarkerMotion& i, const MarkerMotion& j, const MarkerMotion& axes) {
  static const MarkerMotion ground;
  return markerMeasure(measure, i, j, axes, ground);
}

}  // namespace lodestone
