// Helpers for tests that read inline decks: read text as "deck.xml", then look for a diagnostic by line and text.
#pragma once

#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "elements/model_builder.h"
#include "solver/xml/deck_reader.h"

namespace lodestone::testing {

struct ReadResult {
  std::optional<ModelSpec> spec;
  Diagnostics diagnostics;
};

inline ReadResult readText(const std::string& text) {
  ReadResult result;
  result.spec = readDeckText(text, "deck.xml", result.diagnostics);
  return result;
}

// Wraps model and command statements in a complete deck. The <Model> lines start at line 3, so the first
// statement in `model` is on line 3.
inline std::string deck(const std::string& model,
                        const std::string& command =
                            "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>") {
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n" + model + "\n</Model>\n<Command>\n" + command +
         "\n</Command></MultiBodySystem>\n";
}

// A ground body (id 1) and one free body (id 2) on marker 20 at the origin: the smallest runnable model.
inline std::string groundAndBody() {
  return "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
         "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"2\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>";
}

// Reads `text` and, when reading succeeded, builds the model (some checks need the built bodies and markers): every
// diagnostic of both.
inline Diagnostics readAndBuildDeck(const std::string& text) {
  ReadResult result = readText(text);
  if (result.spec) (void)buildModel(*result.spec, result.diagnostics);
  return result.diagnostics;
}

// Passes when some diagnostic of `severity` is on `line` and contains `text`; prints them all otherwise.
inline ::testing::AssertionResult hasDiagnostic(const Diagnostics& diagnostics, Severity severity, int line,
                                                const std::string& text) {
  for (const Diagnostic& d : diagnostics.entries()) {
    if (d.severity == severity && d.where.line == line && d.format().find(text) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
  }
  return ::testing::AssertionFailure() << "no " << (severity == Severity::Error ? "error" : "warning") << " on line "
                                       << line << " containing \"" << text << "\"; got:\n"
                                       << diagnostics.formatAll();
}

inline ::testing::AssertionResult hasError(const Diagnostics& d, int line, const std::string& text) {
  return hasDiagnostic(d, Severity::Error, line, text);
}
inline ::testing::AssertionResult hasWarning(const Diagnostics& d, int line, const std::string& text) {
  return hasDiagnostic(d, Severity::Warning, line, text);
}

}  // namespace lodestone::testing
