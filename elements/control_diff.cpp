// Control_Diff: attributes, checks, and the model's differential equations.
#include "control_diff.h"

#include "elements/expression_context.h"
#include "solver/core/excerpt.h"

namespace lodestone {

using S = ControlDiffSpec;

namespace {
constexpr const char* kNoDifsub =
    "DIFSUB user subroutines are not available yet; write the equation as type=\"EXPRESSION\" with expr";
}

const ElementSchema<ControlDiffSpec>& controlDiffSchema() {
  static const ElementSchema<S> schema{
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
          attr::unsupported<S>("usrsub_dll_name", kNoDifsub),
          attr::unsupported<S>("usrsub_fnc_name", kNoDifsub),
          attr::unsupported<S>("usrsub_param_string", kNoDifsub),
          attr::unsupported<S>("script_name", kNoDifsub),
          attr::unsupported<S>("interpreter", kNoDifsub),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

void checkControlDiff(const ControlDiffSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "USERSUB") {
    diagnostics.error(spec.loc, "type=\"USERSUB\" (a DIFSUB user subroutine) is not available yet: Lodestone has no "
                                "DIFSUB loader; write the equation as type=\"EXPRESSION\" with expr");
    return;
  }
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

std::shared_ptr<const DifferentialModel> buildDifferentialModel(const std::vector<ControlDiffSpec>& specs,
                                                                Diagnostics& diagnostics) {
  auto result = std::make_shared<DifferentialModel>();
  for (const ControlDiffSpec& spec : specs) {
    if (spec.type != "EXPRESSION" || !spec.expr) continue;  // reported by checkControlDiff
    std::optional<Expression> expression = compileAttribute("expr", *spec.expr, spec.loc, diagnostics);
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

void checkDifferentialReferences(const DifferentialModel& equations, const Model& model, Diagnostics& diagnostics) {
  for (const ControlDiff& equation : equations.equations) {
    if (!checkExpressionReferences(equation.expression, "expr", equation.loc, model, diagnostics)) continue;
    // Its row is evaluated from the bodies' positions and velocities alone, before the contacts' loads are measured.
    const std::string quoted = "expr=\"" + excerpt(equation.expression.text()) + "\"";
    if (readsAcceleration(equation.expression, model.variables.get())) {
      diagnostics.error(equation.loc, quoted + " reads accelerations (ACCX…, WDTX…), itself or through VARVAL; a "
                                      "Control_Diff's equation may read positions, velocities, time, variables and "
                                      "other Control_Diff states");
    }
    if (readsContacts(equation.expression, model.variables.get())) {
      diagnostics.error(equation.loc, quoted + " reads a Force_Contact's loads (CONTACT), itself or through VARVAL, "
                                      "which a Control_Diff cannot read yet");
    }
    // Nor the joints' reactions and the force elements' loads (JOINT, SFORCE, FX…): its row has none to read.
    refuseLoadReads(equation.expression, "expr", equation.loc, model.variables.get(), diagnostics);
  }
}

}  // namespace lodestone
