// What the C utilities of lodestone/usersub.h (c_sysfnc, c_errmes, c_get_contact_post…) ask of the running
// simulation. Whoever calls a user subroutine installs a host for the duration of the call (ScopedSubroutineHost);
// a utility called outside any call fails with errflg = 1. The utilities live in the shared library
// liblodestone_usersub, which user libraries resolve against, so the installed host is one per process.
#pragma once

#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "solver/core/marker_measures.h"

namespace lodestone {

// One contact point of a pair at an output, as CONTACTPOST reads it (c_get_contact_post).
struct ContactPostPoint {
  double penetration = 0;       // ≥ 0
  double penetrationRate = 0;
  double slipSpeed = 0;
  Vector3 position = Vector3::Zero();         // ground
  Vector3 velocity = Vector3::Zero();         // of I's material point relative to J's, ground
  Vector3 normal = Vector3::Zero();           // unit, from J to I
  Vector3 normalForce = Vector3::Zero();      // on I, ground
  Vector3 tangentialForce = Vector3::Zero();  // on I, ground
};

class SubroutineHost {
 public:
  virtual ~SubroutineHost() = default;
  virtual double time() const = 0;
  // Marker `id` in ground; id 0 is ground's own frame. Nothing when the model has no such marker.
  virtual std::optional<MarkerMotion> markerMotion(int id) const = 0;
  // A utility read velocities (VX… of c_sysfnc, VEL and TVEL of c_sysary) of the markers it asked markerMotion for.
  virtual void velocitiesRead() {}
  // c_varval: Reference_Variable `id` at the current state; nothing when the host has no such variable (a contact
  // subroutine's host has none).
  virtual std::optional<double> variable(int id) const {
    (void)id;
    return std::nullopt;
  }
  // c_akispl (akima) and c_cubspl: Reference_Spline `id`'s value or partial derivatives at (x, z) as MotionSolve's
  // ARRAY (ReferenceSpline::partials); nothing when the model has no such spline.
  virtual std::optional<std::array<double, 3>> splinePartials(bool akima, int id, double x, double z,
                                                              int order) const {
    (void)akima, (void)id, (void)x, (void)z, (void)order;
    return std::nullopt;
  }
  // c_errmes. `stop`: end the run cleanly once the subroutine returns.
  virtual void subroutineMessage(int id, std::string_view message, bool error, bool stop) = 0;
  // A utility could not do what was asked (unknown marker or type, call out of place): said in the log once.
  virtual void utilityProblem(std::string_view utility, std::string_view problem) = 0;
  // CONTACTPOST only: the contact points of pair (element id, I graphic id, J graphic id) at this output;
  // nullptr elsewhere or for a pair not in contact.
  virtual const std::vector<ContactPostPoint>* contactPoints(int id, int iGraphic, int jGraphic) const = 0;
};

// The host utilities use now (nullptr outside subroutine calls).
[[gnu::visibility("default")]] SubroutineHost* activeSubroutineHost();
[[gnu::visibility("default")]] void setActiveSubroutineHost(SubroutineHost* host);

// Installs a host for one subroutine call and restores the previous one after it (calls may nest: a CNFSUB
// called while another element's subroutine runs never happens today, but restoring costs nothing).
class ScopedSubroutineHost {
 public:
  explicit ScopedSubroutineHost(SubroutineHost& host) : previous_(activeSubroutineHost()) {
    setActiveSubroutineHost(&host);
  }
  ~ScopedSubroutineHost() { setActiveSubroutineHost(previous_); }
  ScopedSubroutineHost(const ScopedSubroutineHost&) = delete;
  ScopedSubroutineHost& operator=(const ScopedSubroutineHost&) = delete;

 private:
  SubroutineHost* previous_;
};

}  // namespace lodestone
