// The classical fourth-order Runge–Kutta step of x'' = a(x): the independent 1-D reference that physics tests
// integrate a law's or a field's motion with, at steps far finer than the solver's.
#pragma once

namespace lodestone::testing {

struct PointMotion {
  double position = 0, velocity = 0;
};

// One step of `h` from `now` under the acceleration `acceleration(position)`.
template <class Acceleration>
PointMotion rk4Step(const Acceleration& acceleration, const PointMotion& now, double h) {
  const double x = now.position, v = now.velocity;
  const double k1x = v, k1v = acceleration(x);
  const double k2x = v + 0.5 * h * k1v, k2v = acceleration(x + 0.5 * h * k1x);
  const double k3x = v + 0.5 * h * k2v, k3v = acceleration(x + 0.5 * h * k2x);
  const double k4x = v + h * k3v, k4v = acceleration(x + h * k3x);
  return {x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x), v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)};
}

// One step of `h` from `now` at `time` under an acceleration of the time, the position and the velocity:
// `acceleration(t, x, v)` (a damper, a law whose stiffness changes with time).
template <class Acceleration>
PointMotion rk4Step(const Acceleration& acceleration, double time, const PointMotion& now, double h) {
  const double x = now.position, v = now.velocity, half = time + 0.5 * h;
  const double k1x = v, k1v = acceleration(time, x, v);
  const double k2x = v + 0.5 * h * k1v, k2v = acceleration(half, x + 0.5 * h * k1x, k2x);
  const double k3x = v + 0.5 * h * k2v, k3v = acceleration(half, x + 0.5 * h * k2x, k3x);
  const double k4x = v + h * k3v, k4v = acceleration(time + h, x + h * k3x, k4x);
  return {x + h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x), v + h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)};
}

// The position at `time` of a point let go at rest from `start`, integrated by `steps` RK4 steps.
template <class Acceleration>
double rk4PositionAt(const Acceleration& acceleration, double start, double time, int steps = 100000) {
  const double h = time / steps;
  PointMotion point{start, 0};
  for (int k = 0; k < steps; ++k) point = rk4Step(acceleration, point, h);
  return point.position;
}

}  // namespace lodestone::testing
