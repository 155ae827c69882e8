// What the subroutines of force elements and variables (plugins/element_subroutine.h) read: the model's initial state
// for the set-up call when the model is built, the evaluator's state at run time; and the bodies a subroutine's reads
// make its element depend on (the Jacobian's columns), as an expression's do.
#pragma once

#include <vector>

#include "elements/body_rigid.h"
#include "elements/expression_context.h"
#include "elements/force_law.h"
#include "plugins/element_subroutine.h"
#include "solver/core/model.h"
#include "solver/expr/expression.h"

namespace lodestone {

// c_akispl / c_cubspl on the model's Reference_Spline `id` (ReferenceSpline::partials); nothing without it.
std::optional<std::array<double, 3>> modelSplinePartials(const Model& model, bool akima, int id, double x, double z,
                                                         int order);

// The bodies at their initial positions and velocities, at time 0. A variable the deck has reads 0 (the set-up
// call's result is not used; variables may not all be built yet).
class InitialSubroutineState final : public SubroutineState {
 public:
  // `hasVariable`: whether the deck has Reference_Variable id.
  InitialSubroutineState(const Model& model, std::function<bool(int)> hasVariable);
  double time() const override { return 0; }
  std::optional<MarkerMotion> marker(int id) const override;
  std::optional<double> variable(int id) const override;
  std::optional<std::array<double, 3>> splinePartials(bool akima, int id, double x, double z,
                                                      int order) const override {
    return modelSplinePartials(model_, akima, id, x, z, order);
  }

 private:
  const Model& model_;
  std::function<bool(int)> hasVariable_;
  std::vector<BodyKinematics> bodies_;
};

// The state an expression context is set to.
class ContextSubroutineState final : public SubroutineState {
 public:
  ContextSubroutineState(const Model& model, const ModelExpressionContext& context)
      : model_(model), context_(context) {}
  double time() const override { return context_.time(); }
  std::optional<MarkerMotion> marker(int id) const override;
  std::optional<double> variable(int id) const override;
  std::optional<std::array<double, 3>> splinePartials(bool akima, int id, double x, double z,
                                                      int order) const override {
    return modelSplinePartials(model_, akima, id, x, z, order);
  }

 private:
  const Model& model_;
  const ModelExpressionContext& context_;
};

// A force element's subroutine loaded, set up (its reads recorded) and its reads added to `connection`: the bodies of
// the markers it read, and, through the variables it read (c_varval), what those read, contacts included. Nothing
// after reporting why on `loc`. `element`: the element's name and id for messages.
std::optional<ElementSubroutine> buildForceSubroutine(const SubroutineAttributeValues& values,
                                                      const char* defaultFunction, size_t count, const char* returns,
                                                      const SourceLoc& loc, const Model& model,
                                                      ForceConnection& connection, Diagnostics& diagnostics);

// The subroutine of an element that is not a force (SENSUB, REQSUB: withoutDflag; DIFSUB; GSESUB: `stateEquation`)
// loaded and set up at the model's initial state: ElementSubroutine's fields from `loc`. Nothing after reporting why
// on `loc`.
std::optional<ElementSubroutine> buildElementSubroutine(
    const SubroutineAttributeValues& values, const char* defaultFunction, size_t count, const char* returns,
    bool withoutDflag, const SourceLoc& loc, const Model& model, Diagnostics& diagnostics,
    std::optional<ElementSubroutine::StateEquationSizes> stateEquation = std::nullopt);
inline std::optional<ElementSubroutine> buildOutputSubroutine(const SubroutineAttributeValues& values,
                                                              const char* defaultFunction, size_t count,
                                                              const char* returns, const SourceLoc& loc,
                                                              const Model& model, Diagnostics& diagnostics) {
  return buildElementSubroutine(values, defaultFunction, count, returns, true, loc, model, diagnostics);
}

// What a subroutine reads through the variables its set-up call read (c_varval), as VARVAL would in an expression.
struct OutputReads {
  bool acceleration = false, contacts = false, loads = false;
};
OutputReads subroutineReads(const ElementSubroutine& subroutine, const Model& model);
// The moving bodies (indices) whose state a set-up subroutine reads, through its markers and the variables it reads,
// appended to `bodies` without repeats (addBodiesRead for an expression).
void addSubroutineBodies(const ElementSubroutine& subroutine, const Model& model, std::vector<int>& bodies);

}  // namespace lodestone
