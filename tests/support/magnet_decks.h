// The frame of the magnet tests' inline decks: SI units, no gravity, a ground body id 1, and the Simulate command;
// sphere magnets, and a soft body beside a permanent one.
#pragma once

#include <string>

#include "solver/core/rotation.h"
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

// Body `id` (on ground when mass is 0) with its CG marker id·10 at `at`, a sphere graphic id·100 of `radius` there,
// and a Force_Magnet id·1000 on it with `magnet` (its moment or susceptibility attributes).
inline std::string magnetSphere(int id, const Vector3& at, double radius, double mass, const std::string& magnet) {
  const std::string marker = std::to_string(id * 10), graphic = std::to_string(id * 100);
  std::string text;
  if (mass > 0) {
    text += "<Body_Rigid id=\"" + std::to_string(id) + "\" mass=\"" + formatReal(mass) + "\" cg_id=\"" + marker +
            "\" inertia_xx=\"1e-5\" inertia_yy=\"1e-5\" inertia_zz=\"1e-5\"/>\n";
  }
  text += "<Reference_Marker id=\"" + marker + "\" body_id=\"" + (mass > 0 ? std::to_string(id) : "1") +
          "\" pos_x=\"" + formatReal(at.x()) + "\" pos_y=\"" + formatReal(at.y()) + "\" pos_z=\"" +
          formatReal(at.z()) + "\"/>\n"
          "<Post_Graphic id=\"" + graphic + "\" type=\"Sphere\" center_marker_id=\"" + marker + "\" radius=\"" +
          formatReal(radius) + "\"/>\n"
          "<Force_Magnet id=\"" + std::to_string(id * 1000) + "\" graphic_id=\"" + graphic + "\" " + magnet + "/>\n";
  return text;
}

inline std::string magnetDeckFooter(double endTime, double printInterval) {
  return "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"" + formatReal(endTime) +
         "\" print_interval=\"" + formatReal(printInterval) + "\"/></Command></MultiBodySystem>\n";
}

// The soft-magnet tests' body: body 2 (10 g, inertia 1e-5 kg·m²) with its CG marker 20 at (0.03, 0, 0) on the axis
// of a 1 A·m² sphere magnet (radius 10 mm) at the origin, and a Force_Magnet 2000 of susceptibility `chi` on its
// Post_Graphic 200, which `graphic` gives with its markers (the CG marker 20 among them).
inline std::string softBodyOnMagnetAxisDeck(const std::string& graphic, double chi) {
  return magnetDeckHeader() + magnetSphere(1, Vector3::Zero(), 0.01, 0, "moment_x=\"1\"") +
         "<Body_Rigid id=\"2\" mass=\"0.01\" cg_id=\"20\" inertia_xx=\"1e-5\" inertia_yy=\"1e-5\" "
         "inertia_zz=\"1e-5\"/>\n" + graphic +
         "<Force_Magnet id=\"2000\" graphic_id=\"200\" susceptibility=\"" + formatReal(chi) + "\"/>\n" +
         magnetDeckFooter(1e-8, 1e-8);
}

}  // namespace lodestone::testing
