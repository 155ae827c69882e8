// The point dipole's field and the dipole–dipole force and moments, in closed form.
#include "magnetics/point_dipole.h"

#include <cmath>
#include <numbers>

namespace lodestone {

Vector3 pointDipoleField(const Vector3& moment, const Vector3& offset) {
  const double distance = offset.norm();
  if (distance == 0) return Vector3::Zero();
  const Vector3 n = offset / distance;
  return (3 * n * n.dot(moment) - moment) / (4 * std::numbers::pi * distance * distance * distance);
}

FieldWithGradient pointDipoleFieldWithGradient(const Vector3& moment, const Vector3& offset) {
  FieldWithGradient result;
  const double r2 = offset.squaredNorm();
  if (r2 == 0) return result;  // coincident dipoles have no direction between them
  const double r = std::sqrt(r2);
  const double mr = moment.dot(offset);
  const double scale = 1 / (4 * std::numbers::pi * r2 * r);
  result.field = scale * (3 * offset * mr / r2 - moment);
  result.gradient = 3 * scale / r2 *
                    (mr * Matrix3::Identity() + offset * moment.transpose() + moment * offset.transpose() -
                     5 * mr / r2 * offset * offset.transpose());
  return result;
}

PointDipoleInteraction pointDipoleInteraction(const Vector3& m1, const Vector3& m2, const Vector3& offset) {
  PointDipoleInteraction result;
  const double distance = offset.norm();
  if (distance == 0) return result;
  const Vector3 n = offset / distance;
  const double m1n = m1.dot(n), m2n = m2.dot(n);
  const double forceScale = 3 * kVacuumPermeability / (4 * std::numbers::pi * std::pow(distance, 4));
  result.forceOnSecond = forceScale * (n * m1.dot(m2) + m1 * m2n + m2 * m1n - 5 * n * m1n * m2n);
  // The dipole field is even in the offset, so each feels the other's field the same way round.
  result.momentOnFirst = kVacuumPermeability * m1.cross(pointDipoleField(m2, offset));
  result.momentOnSecond = kVacuumPermeability * m2.cross(pointDipoleField(m1, offset));
  return result;
}

}  // namespace lodestone
