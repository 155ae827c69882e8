// The only user of Xerces-C: reads a MotionSolve-style XML deck into a ModelSpec, validating every element
// against its schema. External entities and DTDs are never loaded.
#pragma once

#include <optional>
#include <string>

#include "elements/model_spec.h"
#include "solver/core/diagnostics.h"

namespace lodestone {

// Reads the deck at `path`. Every problem goes to `diagnostics` with file:line:col; returns nullopt when the
// deck had any error (warnings alone do not fail it).
std::optional<ModelSpec> readDeck(const std::string& path, Diagnostics& diagnostics);

// Same, from text in memory; `displayName` is the file name used in messages.
std::optional<ModelSpec> readDeckText(const std::string& text, const std::string& displayName, Diagnostics& diagnostics);

}  // namespace lodestone
