// The marker measures of Adams and MotionSolve — DX DY DZ DM, VX VY VZ VM, WX WY WZ WM, ACCX ACCY ACCZ ACCM,
// WDTX WDTY WDTZ WDTM, AX AY AZ, PSI THETA PHI, YAW PITCH ROLL, VR — between two markers, resolved in a third marker's
// axes, time derivatives taken in a fourth marker's frame. One place computes them for every user: the subroutine
// utilities (c_sysfnc, c_sysary) and the expression language (solver/expr).
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "rotation.h"

namespace lodestone {

// Where a marker is and how it moves, in ground.
struct MarkerMotion {
  Vector3 position = Vector3::Zero();
  Matrix3 rotation = Matrix3::Identity();     // marker axes as columns
  Vector3 velocity = Vector3::Zero();
  Vector3 angularVelocity = Vector3::Zero();
  Vector3 acceleration = Vector3::Zero();
  Vector3 angularAcceleration = Vector3::Zero();
};

// The numbering of DX..WM is relied on (groups of four: x, y, z, magnitude); new measures go at the end.
enum class MarkerMeasure {
  DX, DY, DZ, DM,
  VX, VY, VZ, VM,
  WX, WY, WZ, WM,
  ACCX, ACCY, ACCZ, ACCM,
  WDTX, WDTY, WDTZ, WDTM,
  AX, AY, AZ,
  PSI, THETA, PHI,
  YAW, PITCH, ROLL,
  VR,
};

// ACCX..ACCM and WDTX..WDTM: the markers' accelerations must be known.
bool measureReadsAcceleration(MarkerMeasure measure);
// VX..VM, WX..WM and VR: the markers' velocities.
bool measureReadsVelocity(MarkerMeasure measure);
// By name, case-insensitive ("dx", "VM", "accx"); nothing for other names.
std::optional<MarkerMeasure> findMarkerMeasure(std::string_view name);
// The name in capitals ("ACCX").
std::string_view markerMeasureName(MarkerMeasure measure);

// What the n-th marker id of a measure's call names, in Adams' argument order: DX(i, j, k), VX(i, j, k, l),
// VM(i, j, l), WDTX(i, j, k, l), WDTM(i, j, l), WM(i, j), AX(i, j)…: i is measured relative to j, components are in k's axes and time
// derivatives are taken in l's frame. Missing trailing ids are ground (0).
enum class MeasureMarkerRole { Measured, RelativeTo, Axes, DerivativeFrame };
struct MarkerMeasureArguments {
  int count = 0;  // how many ids the call may give (at least 1: i)
  std::array<MeasureMarkerRole, 4> roles{};
};
MarkerMeasureArguments markerMeasureArguments(MarkerMeasure measure);

// The measure of marker i relative to marker j, components in the axes of `axes`, time derivatives taken in the
// frame of `frame` (ground's axes and frame when they are ground). With r = p_i − p_j and (d/dt)_l the derivative
// seen from frame l:
//   DX = r·x_axes;  VX = (d/dt)_l r · x_axes = (v_i − v_j − ω_l × r)·x_axes;
//   ACCX = (d²/dt²)_l r · x_axes = (a_i − a_j − α_l × r − 2 ω_l × ṙ + ω_l × (ω_l × r))·x_axes;
//   WX = (ω_i − ω_j)·x_axes; WDTX = (d/dt)_l (ω_i − ω_j) · x_axes = (α_i − α_j − ω_l × (ω_i − ω_j))·x_axes;
//   the M forms are magnitudes and do not depend on `axes`.
//   AX = atan2(−z_i·y_j, z_i·z_j), AY = atan2(z_i·x_j, z_i·z_j), AZ = atan2(x_i·y_j, x_i·x_j);
//   PSI, THETA, PHI: body 3-1-3 angles of R_jᵀ R_i (euler313FromRotation).
//   YAW, PITCH, ROLL: with R_jᵀ R_i = Rz(YAW)·Ry(b)·Rx(ROLL), the body-fixed 3-2-1 sequence, PITCH = −b (Adams and
//   MotionSolve: the second turn is about the negative y axis, "following automotive conventions"). YAW and ROLL in
//   (−π, π], PITCH in [−π/2, π/2]. At PITCH = ±90° only YAW ± ROLL is defined: ROLL is 0 there and YAW takes it all
//   (as PHI is 0 and PSI takes it all at THETA = 0). Angles use neither `axes` nor `frame`.
//   VR = (d/dt)_l r · r/|r|, the rate of DM (r·(ω_l × r) = 0, so l does not change it: it is read as Adams reads it);
//   NaN where the markers coincide, as the line between them has no direction there.
double markerMeasure(MarkerMeasure measure, const MarkerMotion& i, const MarkerMotion& j, const MarkerMotion& axes,
                     const MarkerMotion& frame);
// The same with time derivatives taken in ground.
double markerMeasure(MarkerMeasure measure, const MarkerMotion& i, const MarkerMotion& j, const MarkerMotion& axes);

}  // namespace lodestone
