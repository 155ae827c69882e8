// A SubroutineHost that stands in for a running simulation in unit tests of the subroutine utilities: two markers
// on moving frames (ids 10 and 20), the ground (0), one contact pair (element 300, graphics 1 and 2) with two
// points, spline 77 (splinePartials), and the last message and utility problem it was told.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "plugins/usersub/subroutine_host.h"
#include "solver/core/rotation.h"

namespace lodestone::testing {

class FakeHost : public SubroutineHost {
 public:
  FakeHost() {
    MarkerMotion i;
    i.position = {1, 2, 3};
    i.rotation = rotationFromEuler313(0.3, 0.2, 0.1);
    i.velocity = {0.5, -1, 2};
    i.angularVelocity = {0, 0, 4};
    MarkerMotion j;
    j.position = {0.5, 0, 1};
    j.rotation = rotationFromEuler313(-0.2, 0.1, 0.4);
    j.velocity = {0, 1, 0};
    j.angularVelocity = {1, 0, 0};
    markers[10] = i;
    markers[20] = j;
    points.resize(2);
    points[1].penetration = 2e-4;
    points[1].position = {1, 1, 1};
    points[1].normalForce = {0, 0, 5};
    points[1].tangentialForce = {1, 0, 0};
  }
  double time() const override { return 1.25; }
  std::optional<MarkerMotion> markerMotion(int id) const override {
    if (id == 0) return MarkerMotion{};
    const auto found = markers.find(id);
    return found == markers.end() ? std::nullopt : std::optional<MarkerMotion>(found->second);
  }
  void subroutineMessage(int id, std::string_view message, bool error, bool stop) override {
    lastMessage = std::to_string(id) + ":" + std::string(message) + (error ? ":error" : "") + (stop ? ":stop" : "");
  }
  void utilityProblem(std::string_view utility, std::string_view problem) override {
    lastProblem = std::string(utility) + ": " + std::string(problem);
  }
  const std::vector<ContactPostPoint>* contactPoints(int id, int iGraphic, int jGraphic) const override {
    return id == 300 && iGraphic == 1 && jGraphic == 2 ? &points : nullptr;
  }
  // Spline 77 only, answering {x + 10 z, order, 1 for Akima or 2 for the cubic spline}; the last call is kept.
  std::optional<std::array<double, 3>> splinePartials(bool akima, int id, double x, double z,
                                                      int order) const override {
    lastSpline = {akima, id, x, z, order};
    if (id != 77) return std::nullopt;
    return std::array<double, 3>{x + 10 * z, static_cast<double>(order), akima ? 1.0 : 2.0};
  }

  std::map<int, MarkerMotion> markers;
  std::vector<ContactPostPoint> points;
  std::string lastMessage, lastProblem;
  mutable std::tuple<bool, int, double, double, int> lastSpline{};
};

}  // namespace lodestone::testing
