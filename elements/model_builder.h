// Turns a validated ModelSpec into the immutable Model: marker frames resolved to ground, body frames at the
// CG, inertia moved to the CG, initial velocities, units and integrator settings.
#pragma once

#include <optional>

#include "elements/model_spec.h"
#include "solver/core/diagnostics.h"
#include "solver/core/model.h"

namespace lodestone {

// Reports every problem (a marker chain that loops, a cg marker on another body, an inertia that is not
// positive definite…) with the element's location; returns nullopt when there was any error.
std::optional<Model> buildModel(const ModelSpec& spec, Diagnostics& diagnostics);

}  // namespace lodestone
