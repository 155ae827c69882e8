// Runs an inline model (deck statements) through the Simulation from 0 to 2 s and keeps the state and the
// Post_Request values at every output: what the physics tests of control elements compare with closed forms.
#pragma once

#include <array>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "solver/driver/simulation.h"
#include "support/deck_testing.h"

namespace lodestone::testing {

struct Sample {
  double time;
  std::vector<double> state;
  std::vector<std::array<double, 8>> requests;  // F1..F8 of each Post_Request
};

// `model` at integr_tol `integrTol`, output every 0.05 s (41 samples); every diagnostic of the deck is a failure.
inline std::vector<Sample> runSampled(const std::string& model, double integrTol) {
  std::ostringstream tolerance;
  tolerance << integrTol;
  const std::string text =
      deck(model + "\n<Param_Transient integr_tol=\"" + tolerance.str() + "\"/>",
           "<Simulate analysis_type=\"Transient\" end_time=\"2\" print_interval=\"0.05\"/>");
  ReadResult read = readText(text);
  EXPECT_TRUE(read.spec.has_value());
  if (!read.spec) return {};
  std::optional<Model> built = buildModel(*read.spec, read.diagnostics);
  EXPECT_TRUE(built.has_value());
  for (const Diagnostic& d : read.diagnostics.entries()) ADD_FAILURE() << d.format();
  std::vector<Sample> samples;
  if (!built) return samples;
  Simulation simulation(std::move(*built), SimulationOptions{});
  simulation.setOutputHandler([&](const OutputFrame& frame) {
    Sample sample{frame.time, {frame.state.begin(), frame.state.end()}, {}};
    for (const RequestSample& request : frame.requests) sample.requests.push_back(request.values);
    samples.push_back(std::move(sample));
  });
  const SegmentOutcome outcome = simulation.run({{}, 0.0, 2.0, 0.05});
  EXPECT_TRUE(outcome.completed) << outcome.reason;
  return samples;
}

}  // namespace lodestone::testing
