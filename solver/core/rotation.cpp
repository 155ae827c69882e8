// Rotation conventions: Euler 3-1-3, Euler parameters, their kinematic matrix.
#include "rotation.h"

#include <algorithm>
#include <cmath>

namespace lodestone {

Matrix3 rotationFromEuler313(double psi, double theta, double phi) {
  return (Eigen::AngleAxisd(psi, Vector3::UnitZ()) * Eigen::AngleAxisd(theta, Vector3::UnitX()) *
          Eigen::AngleAxisd(phi, Vector3::UnitZ()))
      .toRotationMatrix();
}

Vector3 euler313FromRotation(const Matrix3& r) {
  const double theta = std::acos(std::clamp(r(2, 2), -1.0, 1.0));
  if (std::fabs(std::sin(theta)) < 1e-12) {
    // Gimbal lock: only psi + phi (or psi - phi) is defined; put it all in psi.
    const double psi = std::atan2(r(1, 0), r(0, 0));
    return {psi, theta, 0.0};
  }
  const double psi = std::atan2(r(0, 2), -r(1, 2));
  const double phi = std::atan2(r(2, 0), r(2, 1));
  return {psi, theta, phi};
}

Matrix3 rotationFromEulerParameters(const Vector4& e) {
  const Eigen::Quaterniond q(e(0), e(1), e(2), e(3));
  return q.normalized().toRotationMatrix();
}

Vector4 eulerParametersFromRotation(const Matrix3& rotation) {
  Eigen::Quaterniond q(rotation);
  q.normalize();
  Vector4 e(q.w(), q.x(), q.y(), q.z());
  if (e(0) < 0) e = -e;
  return e;
}

Vector4 rotateEulerParameters(const Vector4& e, const Vector3& phi) {
  // Quaternion product a·e with a = (cos ½|φ|, sin ½|φ| φ/|φ|); a → (1, ½φ) as |φ| → 0.
  const double angle = phi.norm();
  const double half = 0.5 * angle;
  const double a0 = std::cos(half);
  const Vector3 a = angle > 0 ? Vector3(std::sin(half) / angle * phi) : Vector3(0.5 * phi);
  const Vector3 b = e.tail<3>();
  Vector4 result;
  result(0) = a0 * e(0) - a.dot(b);
  result.tail<3>() = a0 * b + e(0) * a + a.cross(b);
  return result;
}

Eigen::Matrix<double, 4, 3> eulerParameterRateMatrix(const Vector4& e) {
  Eigen::Matrix<double, 4, 3> q;
  q << -e(1), -e(2), -e(3),
        e(0), -e(3),  e(2),
        e(3),  e(0), -e(1),
       -e(2),  e(1),  e(0);
  return q;
}

Matrix3 skew(const Vector3& a) {
  Matrix3 s;
  s << 0, -a.z(), a.y(),
       a.z(), 0, -a.x(),
       -a.y(), a.x(), 0;
  return s;
}

double orthonormalityError(const Matrix3& rotation) {
  const double gram = (rotation.transpose() * rotation - Matrix3::Identity()).cwiseAbs().maxCoeff();
  return std::max(gram, std::fabs(rotation.determinant() - 1.0));
}

}  // namespace lodestone
