// A benchmark's deck, written in code, read and built into a Model; a deck that does not read is the benchmark's
// own bug, so its diagnostics are printed and the benchmark exits 1.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "elements/model_builder.h"
#include "solver/xml/deck_reader.h"

namespace lodestone::benchmark {

inline Model modelOfDeck(const std::string& text, const std::string& name) {
  Diagnostics diagnostics;
  const std::optional<ModelSpec> spec = readDeckText(text, name, diagnostics);
  std::optional<Model> model = spec ? buildModel(*spec, diagnostics) : std::nullopt;
  if (!model) {
    std::fprintf(stderr, "%s", diagnostics.formatAll().c_str());
    std::exit(1);
  }
  return std::move(*model);
}

}  // namespace lodestone::benchmark
