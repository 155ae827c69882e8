// Fuzz target: a deck's text through the reader and, when it reads, the model build, as `lodestone check` does.
// Never simulates: a deck that builds is as far as untrusted text should be able to drive the process here.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "elements/model_builder.h"
#include "solver/xml/deck_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Named as a deck in models/, so that the relative mesh_file and curve paths of the seed decks (and their
  // mutations) reach real files and the code that reads them.
  const std::string displayName = LODESTONE_SOURCE_DIR "/models/fuzz_input.xml";
  lodestone::Diagnostics diagnostics;
  const std::optional<lodestone::ModelSpec> spec = lodestone::readDeckText(text, displayName, diagnostics);
  if (spec) (void)lodestone::buildModel(*spec, diagnostics);
  // Formatting is what a user sees: every message must format, whatever the input.
  (void)diagnostics.formatAll();
  return 0;
}
