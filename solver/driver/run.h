// Runs a deck end to end: read, build, execute its commands (Simulate, modifications, Stop), write results and
// the run log. This is what `lodestone run` calls.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "solver/core/diagnostics.h"
#include "solver/xml/attribute_setting.h"

namespace lodestone {

struct RunRequest {
  std::string deckPath;
  std::string outputDir;  // empty: beside the deck, "<deck stem>_results"
  bool animation = false;  // write the animation whatever the deck says (`lodestone run --animation`)
  int threads = 1;         // `--threads`: what a run spreads its contact Jacobian over; 0: one per core
  // Attributes given values from outside the deck (--set), applied as the deck is read.
  std::vector<AttributeSetting> settings;
  // Called now and then during integration (not more than a few times per second of wall time).
  std::function<void(double time, double startTime, double endTime)> onProgress;
  // Asked after every integration step; true ends the run there, interrupted: the outputs written so far are kept
  // (every row whole), the statistics logged, and run.log ends "Simulation interrupted at t=…". A signal handler
  // cannot safely do more than set a flag for this to read (signal_interruption.h).
  std::function<bool()> shouldStop;
};

enum class RunStatus { Completed = 0, BadDeck = 1, SimulationFailed = 2, Interrupted = 3 };

struct RunOutcome {
  RunStatus status = RunStatus::Completed;
  std::string outputDir;     // where results and run.log went (empty when the deck could not be read)
  std::string message;       // one line: "simulation completed", why it failed, or "interrupted at t=…"
  Diagnostics diagnostics;   // everything the reader and builder reported
};

RunOutcome runDeck(const RunRequest& request);

// What `lodestone check` reports of a deck, simulating nothing: the reader's and the model builder's diagnostics,
// and the contact pairs that overlap where the deck puts the bodies.
Diagnostics checkDeck(const std::string& deckPath, const std::vector<AttributeSetting>& settings = {});

struct ModelSpec;  // elements/model_spec.h; forward-declared so this header stays light for the CLI
// The same run for a deck already read, or built in code as tests do: nothing is parsed. The deck is named by
// spec.deckPath (request.deckPath when that is empty), which also places the default output folder.
// `parseSeconds` is reported as the parse time in the log.
RunOutcome runModelSpec(const ModelSpec& spec, const RunRequest& request, double parseSeconds = 0);

}  // namespace lodestone
