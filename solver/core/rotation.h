// Rotation conventions in one place. Euler parameters e = (e0, e1, e2, e3) with e0 the scalar part; a
// rotation matrix's columns are the rotated frame's axes expressed in the reference frame.
#pragma once

#include <Eigen/Dense>

namespace lodestone {

using Vector3 = Eigen::Vector3d;
using Vector4 = Eigen::Vector4d;
using Matrix3 = Eigen::Matrix3d;

// Body 3-1-3 Euler angles (psi about z, theta about the new x, phi about the new z), as MotionSolve uses.
Matrix3 rotationFromEuler313(double psi, double theta, double phi);
// Inverse of the above, angles in (-pi, pi]; theta in [0, pi].
Vector3 euler313FromRotation(const Matrix3& rotation);

// Rotation matrix of Euler parameters; e is normalised first, so a slightly non-unit e still gives an orthogonal matrix.
Matrix3 rotationFromEulerParameters(const Vector4& e);
// Euler parameters of an orthonormal matrix, with e0 >= 0.
Vector4 eulerParametersFromRotation(const Matrix3& rotation);

// e turned further by the rotation vector φ (axis × angle) given in ground axes: R(result) = R(φ) R(e). Exact for
// any angle; the result has e's length.
Vector4 rotateEulerParameters(const Vector4& e, const Vector3& phi);

// ė = ½ Q(e) ω with ω in body axes: the 4×3 matrix Q.
Eigen::Matrix<double, 4, 3> eulerParameterRateMatrix(const Vector4& e);

// Skew-symmetric matrix with skew(a) b = a × b.
Matrix3 skew(const Vector3& a);

// Largest deviation of RᵀR from the identity, and of det R from 1.
double orthonormalityError(const Matrix3& rotation);

}  // namespace lodestone
