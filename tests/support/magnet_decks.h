// The frame of the magnet tests' inline decks: SI units, no gravity, a ground body id 1, and the Simulate command.
#pragma once

#include <string>

#include "solver/core/text.h"

namespace lodestone::testing {

inline std::string magnetDeckHeader(double integrTol = 1e-9, const std::string& lengthUnit = "METER") {
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
         "<Param_Unit force_unit=\"NEWTON\" mass_unit=\"KILOGRAM\" length_unit=\"" + lengthUnit +
         "\" time_unit=\"SECOND\"/>\n"
         "<Param_Transient integr_tol=\"" + formatReal(integrTol) + "\" h_max=\"1e-3\"/>\n"
         "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n";
}

// A fixed 0.1 m Box magnet (graphic 100, Force_Magnet 1000) centred at the ground's origin, M_z = 1e6 A/m, its pairs
// integrated to `accuracy`.
inline std::string groundBoxMagnet(double accuracy) {
  return "<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
         "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"10\" length_x=\"0.1\" "
         "length_y=\"0.1\" length_z=\"0.1\"/>\n"
         "<Force_Magnet id=\"1000\" graphic_id=\"100\" magnetization_z=\"1e6\" accuracy=\"" + formatReal(accuracy) +
         "\"/>\n";
}

inline std::string magnetDeckFooter(double endTime, double printInterval) {
  return "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"" + formatReal(endTime) +
         "\" print_interval=\"" + formatReal(printInterval) + "\"/></Command></MultiBodySystem>\n";
}

}  // namespace lodestone::testing
