// Blocks and balls on an incline, for friction tests: a ground box whose top face is a plane of `degrees` through
// the origin (marker 11 is the incline frame: x' downhill, z' its normal), and the along-slope motion read back.
#pragma once

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "solver/core/text.h"
#include "support/results_csv.h"

namespace lodestone::testing {

// IMPACT stiff enough for a 1 kg block to sit 99 µm deep, damped within a few milliseconds.
inline const std::string kInclineImpact =
    "cnf_type=\"IMPACT\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"300\" dmax=\"1e-5\" ";
// How deep a 1 kg block rests on an incline of `degrees` under kInclineImpact: the law acts once on its face patch,
// k·δ^1.5 = m·g·cos θ.
inline double inclineRestDepth(double degrees) {
  return std::pow(9.81 * std::cos(degrees * M_PI / 180) / 1e7, 1 / 1.5);
}

// The incline and body 2 on it: `body` gives body 2's statements, with its CG marker 20 placed relative to marker
// 11 (rm_id="11"); `contact` the Force_Contact's law attributes (graphic 200 of body 2 on the incline 100).
inline std::string inclineDeck(double degrees, const std::string& body, const std::string& contact, double endTime) {
  const double theta = degrees * M_PI / 180, c = std::cos(theta), s = std::sin(theta);
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
         "<Force_Gravity grav_z=\"-9.81\"/>\n"
         "<Param_Transient integr_tol=\"1e-7\" h_max=\"1e-3\"/>\n"
         "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "<Reference_Marker id=\"11\" body_id=\"1\" a00=\"" + formatReal(c) + "\" a10=\"0\" a20=\"" + formatReal(-s) +
         "\" a02=\"" + formatReal(s) + "\" a12=\"0\" a22=\"" + formatReal(c) + "\"/>\n"
         "<Reference_Marker id=\"12\" body_id=\"1\" rm_id=\"11\" pos_z=\"-0.5\"/>\n"
         "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"12\" length_x=\"6\" "
         "length_y=\"2\" length_z=\"1\"/>\n" +
         body + "\n<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" " + contact + "/>\n" +
         "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"" + formatReal(endTime) +
         "\" print_interval=\"0.01\"/></Command></MultiBodySystem>\n";
}

// A 1 kg, 0.2 × 0.2 × 0.1 m block aligned with the incline, its centre `height` above the face, moving downhill at
// `speed` (`degrees`: the incline's, to turn that velocity into ground axes).
inline std::string inclineBlock(double height = 0.05001, double speed = 0, double degrees = 0) {
  const double theta = degrees * M_PI / 180;
  return "<Body_Rigid id=\"2\" mass=\"1\" cg_id=\"20\" inertia_xx=\"4.1667e-3\" inertia_yy=\"4.1667e-3\" "
         "inertia_zz=\"6.6667e-3\" v_ic_x=\"" + formatReal(speed * std::cos(theta)) + "\" v_ic_z=\"" +
         formatReal(-speed * std::sin(theta)) + "\"/>\n"
         "<Reference_Marker id=\"20\" body_id=\"2\" rm_id=\"11\" pos_z=\"" + formatReal(height) + "\"/>\n"
         "<Post_Graphic id=\"200\" type=\"BoxDefinedFromCenter\" center_marker_id=\"20\" length_x=\"0.2\" "
         "length_y=\"0.2\" length_z=\"0.1\"/>";
}

// Body 2's position ("x", "z") or velocity ("vx", "vz") along the downhill direction x' at the output at `time`.
inline double alongSlope(const ResultsTable& bodies, double time, double degrees, const char* x, const char* z) {
  const double theta = degrees * M_PI / 180;
  for (size_t row : bodies.rowsOfBody(2)) {
    if (std::fabs(bodies.at(row, "time") - time) < 1e-9) {
      return bodies.at(row, x) * std::cos(theta) - bodies.at(row, z) * std::sin(theta);
    }
  }
  ADD_FAILURE() << "no output at t=" << time;
  return NAN;
}

// Body 2's mean acceleration down the slope between the outputs at `from` and `to`.
inline double accelerationAlongSlope(const ResultsTable& bodies, double degrees, double from, double to) {
  return (alongSlope(bodies, to, degrees, "vx", "vz") - alongSlope(bodies, from, degrees, "vx", "vz")) / (to - from);
}

}  // namespace lodestone::testing
