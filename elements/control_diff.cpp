// Control_Diff: attributes, checks, and the model's differential equations.
#include "control_diff.h"

#include "elements/expression_context.h"
#include "elements/subroutine_state.h"
#include "solver/core/excerpt.h"

namespace lodestone {

using S = ControlDiffSpec;

const ElementSchema<ControlDiffSpec>& controlDiffSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
      .element = "Control_Diff",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::keyword("type", &S::type, {"EXPRESSION", "USERSUB"}).byDefault(std::string("EXPRESSION")),
          attr::text("expr", &S::expr),
          attr::boolean("is_implicit", &S::is_implicit).byDefault(false),
          attr::real("ic", &S::ic).byDefault(0.0),
          attr::real("ic_dot", &S::ic_dot),
          attr::boolean("is_static_hold", &S::is_static_hold).byDefault(false),
          attr::presentation<S>("full_label"),
      }};
    addSubroutineRows(made.attributes, &S::subroutine);
    return made;
  }();
  return schema;
}

void checkControlDiff(const ControlDiffSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "USERSUB") {
    if (spec.expr) diagnostics.warning(spec.loc, "expr is ignored: type=\"USERSUB\" takes DIFSUB's value");
    checkSubroutineAttributes(spec.subroutine, "DIFSUB", spec.loc, diagnostics);
    return;
  }
  warnUnusedSubroutineAttributes(spec.subroutine, "type is not USERSUB", spec.loc, diagnostics);
  if (!spec.expr) {
    diagnostics.error(spec.loc, std::string("type=\"EXPRESSION\" needs expr, the expression that gives ") +
                                    (spec.is_implicit ? "the residual F(DIF, DIF1, …) = 0 (is_implicit=\"TRUE\")"
                                                      : "the state's time derivative"));
    return;
  }
  compileAttribute("expr", *spec.expr, spec.loc, diagnostics);
}

int DifferentialModel::indexOf(long id) const {
  const auto found = indexById.find(id);
  return found == indexById.end() ? -1 : found->second;
}

std::shared_ptr<DifferentialModel> buildDifferentialModel(const std::vector<ControlDiffSpec>& specs,
                                                          const Model& model, Diagnostics& diagnostics) {
  auto result = std::make_shared<DifferentialModel>();
  for (const ControlDiffSpec& spec : specs) {
    if (spec.type == "USERSUB") {
      // Numbered now, as DIF(id) elsewhere needs; its DIFSUB comes with setUpDifferentialSubroutines.
      result->indexById[spec.id] = static_cast<int>(result->equations.size());
      result->equations.push_back(ControlDiff{.id = spec.id,
                                              .loc = spec.loc,
                                              .expression = std::get<Expression>(Expression::compile("0")),
                                              .implicit = spec.is_implicit,
                                              .initialValue = spec.ic,
                                              .initialRate = spec.ic_dot.value_or(0.0)});
      continue;
    }
    if (spec.type != "EXPRESSION" || !spec.expr) continue;  // reported by checkControlDiff
    std::optional<Expression> expression = compileModelAttribute("expr", *spec.expr, spec.loc, model, diagnostics);
    if (!expression) continue;
    result->indexById[spec.id] = static_cast<int>(result->equations.size());
    result->equations.push_back(ControlDiff{.id = spec.id,
                                            .loc = spec.loc,
                                            .expression = std::move(*expression),
                                            .implicit = spec.is_implicit,
                                            .initialValue = spec.ic,
                                            .initialRate = spec.ic_dot.value_or(0.0)});
  }
  return result;
}

void setUpDifferentialSubroutines(DifferentialModel& equations, const std::vector<ControlDiffSpec>& specs,
                                  const Model& model, Diagnostics& diagnostics) {
  for (const ControlDiffSpec& spec : specs) {
    const int index = equations.indexOf(spec.id);
    if (spec.type != "USERSUB" || index < 0) continue;
    ControlDiff& equation = equations.equations[static_cast<size_t>(index)];
    equation.subroutine = buildElementSubroutine(
        spec.subroutine, "DIFSUB", 1,
        spec.is_implicit ? "[value], the residual F(DIF, DIF1, ...) = 0" : "[value], the state's time derivative",
        false, spec.loc, model, diagnostics);
    if (!equation.subroutine) continue;
    // Its row is evaluated before the loads exist, as an expression's (checkDifferentialReferences).
    const OutputReads reads = subroutineReads(*equation.subroutine, model);
    if (reads.contacts || reads.loads) {
      diagnostics.error(spec.loc, equation.subroutine->routine.describe() + " reads, through c_varval, a variable that "
                                  "reads loads; a Control_Diff's equation may read positions, velocities, "
                                  "accelerations, time, variables and other Control_Diff states");
    }
  }
}

void checkDifferentialReferences(const DifferentialModel& equations, const Model& model, Diagnostics& diagnostics) {
  for (const ControlDiff& equation : equations.equations) {
    if (!checkExpressionReferences(equation.expression, "expr", equation.loc, model, diagnostics)) continue;
    // Its row is evaluated from the bodies' positions, velocities and accelerations (the rates of the state being
    // evaluated), before the contacts' loads are measured.
    const std::string quoted = "expr=\"" + excerpt(equation.expression.text()) + "\"";
    if (readsContacts(equation.expression, model.variables.get())) {
      diagnostics.error(equation.loc, quoted + " reads a Force_Contact's loads (CONTACT), itself or through VARVAL, "
                                      "which a Control_Diff cannot read yet");
    }
    // Nor the joints' reactions and the force elements' loads (JOINT, SFORCE, FX…): its row has none to read.
    refuseLoadReads(equation.expression, "expr", equation.loc, model.variables.get(), diagnostics);
  }
}

}  // namespace lodestone
