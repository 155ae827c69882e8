// Runs an inline contact deck end to end (runDeck, results in a scratch folder) and reads back what physics tests
// check: bodies.csv, contacts.csv and the contact events of run.log.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "solver/core/text.h"
#include "solver/driver/run.h"
#include "support/results_csv.h"
#include "support/text_files.h"

namespace lodestone::testing {

// Gravity as the tests' decks write it, m/s².
inline constexpr double kG = 9.81;

// The head of a contact deck up to its moving bodies: gravity −kG along z, integr_tol 1e-9 and h_max 1e-3, ground
// (id 1) with a box graphic (id 100, `lengthX` × 2 × 1, marker 11) whose top face is z = 0.
inline std::string boxFloorDeckHead(double lengthX) {
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
         "<Force_Gravity grav_z=\"" + formatReal(-kG) + "\"/>\n"
         "<Param_Transient integr_tol=\"1e-9\" h_max=\"1e-3\"/>\n"
         "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.5\"/>\n"
         "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"" +
         formatReal(lengthX) + "\" length_y=\"2\" length_z=\"1\"/>\n";
}

// A measured value for RecordProperty, with enough digits to report errors of 1e-9.
inline std::string sci(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6e", value);
  return text;
}

struct LoggedContactEvent {
  double time = 0;
  bool onset = true;     // false: separation
  bool located = true;   // false: "noticed after a step, not located"
};

struct ContactRun {
  bool completed = false;
  ResultsTable bodies;
  ResultsTable contacts;
  std::vector<LoggedContactEvent> events;
};

// The event lines of run.log: " Contact onset at t=4.515236410E-01: ...".
inline std::vector<LoggedContactEvent> contactEventsOf(const std::filesystem::path& log) {
  std::vector<LoggedContactEvent> events;
  for (const std::string& line : readLines(log)) {
    const bool onset = line.find(" Contact onset at t=") != std::string::npos;
    const bool separation = line.find(" Contact separation at t=") != std::string::npos;
    if (!onset && !separation) continue;
    const size_t at = line.find("t=") + 2;
    events.push_back({std::strtod(line.c_str() + at, nullptr), onset,
                      line.find("noticed after a step") == std::string::npos});
  }
  return events;
}

// Runs an inline deck end to end: written to a scratch folder as `name`.xml, results in `name`_results beside it.
// A run that does not complete is a test failure too, with its message and diagnostics. `name` must be unique per
// deck within a test process (ctest may also run tests in parallel processes, each with its own scratch folder).
struct DeckRun {
  bool completed = false;
  std::filesystem::path output;  // the results folder
};
// The results folder of the inline deck `name`.
inline std::filesystem::path resultsFolderOf(const std::string& name) { return scratchFile(name + "_results"); }
// The outcome of running `deckText` as above, whatever it is: for decks that must fail, and what their message says.
inline RunOutcome runDeckTextOutcome(const std::string& name, const std::string& deckText) {
  const std::filesystem::path deckPath = scratchFile(name + ".xml");
  std::ofstream(deckPath) << deckText;
  const std::filesystem::path output = resultsFolderOf(name);
  std::filesystem::remove_all(output);
  RunRequest request;
  request.deckPath = deckPath.string();
  request.outputDir = output.string();
  return runDeck(request);
}
inline DeckRun runDeckText(const std::string& name, const std::string& deckText) {
  const RunOutcome outcome = runDeckTextOutcome(name, deckText);
  EXPECT_EQ(outcome.status, RunStatus::Completed) << outcome.message << "\n" << outcome.diagnostics.formatAll();
  return {outcome.status == RunStatus::Completed, resultsFolderOf(name)};
}

inline ContactRun runContactDeck(const std::string& name, const std::string& deckText) {
  const DeckRun run = runDeckText(name, deckText);
  return {run.completed, ResultsTable((run.output / "bodies.csv").string()),
          ResultsTable((run.output / "contacts.csv").string()), contactEventsOf(run.output / "run.log")};
}

// A sphere (body 2, CG at its centre) above a ground box whose top face is z = 0, with one Force_Contact (id 300,
// I = the sphere 200, J = the box 100) of the given law attributes. SI units.
struct BallDrop {
  double radius = 0.03, mass = 0.11;
  double height = 0.1;      // of the centre above the plate at t = 0
  double speed = 0;         // downward, at t = 0
  double gravity = 9.81;
  double endTime = 0.2, printInterval = 0.01;
  double tolerance = 1e-8, maxStep = 1e-3;
  std::string law;          // Force_Contact attributes: cnf_type="..." and its parameters, friction
  std::string elements;     // more elements of the model, after the Force_Contact
};

inline std::string ballDropDeck(const BallDrop& drop) {
  const double inertia = 0.4 * drop.mass * drop.radius * drop.radius;  // solid sphere
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
         "<Force_Gravity grav_z=\"" + formatReal(-drop.gravity) + "\"/>\n"
         "<Param_Transient integr_tol=\"" + formatReal(drop.tolerance) + "\" h_max=\"" + formatReal(drop.maxStep) +
         "\"/>\n"
         "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.5\"/>\n"
         "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"2\" "
         "length_y=\"2\" length_z=\"1\"/>\n"
         "<Body_Rigid id=\"2\" mass=\"" + formatReal(drop.mass) + "\" cg_id=\"20\" inertia_xx=\"" +
         formatReal(inertia) + "\" inertia_yy=\"" + formatReal(inertia) + "\" inertia_zz=\"" + formatReal(inertia) +
         "\" v_ic_z=\"" + formatReal(-drop.speed) + "\"/>\n"
         "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"" + formatReal(drop.height) + "\"/>\n"
         "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"" + formatReal(drop.radius) +
         "\"/>\n"
         "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" " + drop.law + "/>\n" +
         drop.elements +
         "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"" + formatReal(drop.endTime) +
         "\" print_interval=\"" + formatReal(drop.printInterval) + "\"/></Command></MultiBodySystem>\n";
}

}  // namespace lodestone::testing
