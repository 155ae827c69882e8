// The marker measures of Adams and MotionSolve — DX DY DZ DM, VX VY VZ VM, WX WY WZ WM — between two markers,
// resolved in a third marker's axes. One place computes them for every user: subroutine utilities (c_sysfnc,
// c_sysary) now, the expression language later.
#pragma once

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
};

enum class MarkerMeasure { DX, DY, DZ, DM, VX, VY, VZ, VM, WX, WY, WZ, WM };

// By name, case-insensitive ("dx", "VM"); nothing for other names.
std::optional<MarkerMeasure> findMarkerMeasure(std::string_view name);

// The measure of marker i relative to marker j, components in the axes of `axes` (ground's when it is ground):
// DX = (p_i − p_j)·x_axes, VX = (v_i − v_j)·x_axes (time derivative taken in ground), WX = (ω_i − ω_j)·x_axes;
// the M forms are magnitudes and do not depend on `axes`.
double markerMeasure(MarkerMeasure measure, const MarkerMotion& i, const MarkerMotion& j, const MarkerMotion& axes);

}  // namespace lodestone
