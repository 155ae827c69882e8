// Motion_Joint: attributes and checks.
#include "motion_joint.h"

#include "elements/expression_context.h"
#include "elements/reference_variable.h"
#include "elements/subroutine_state.h"
#include "solver/core/text.h"

namespace lodestone {

using S = MotionJointSpec;

const ElementSchema<MotionJointSpec>& motionJointSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
        .element = "Motion_Joint",
        .idField = &S::id,
        .attributes = {
            attr::text("label", &S::label),
            attr::reference("joint_id", &S::joint_id, "Constraint_Joint").required(),
            attr::keyword("motion_type", &S::motion_type, {"T", "R"}).required(),
            attr::keyword("type", &S::type, {"EXPRESSION", "CONSTANT", "USERSUB"})
                .byDefault(std::string("EXPRESSION")),
            attr::keyword("val_type", &S::val_type, {"D", "V", "A"}).byDefault(std::string("D")).modifiable(),
            attr::text("expr", &S::expr).modifiable(),
            attr::real("q", &S::q).modifiable(),
            attr::real("ic_disp", &S::ic_disp).modifiable(),
            attr::real("ic_vel", &S::ic_vel).modifiable(),
            attr::boolean("active", &S::active).byDefault(true).modifiable(),
            attr::presentation<S>("full_label"),
        }};
    addSubroutineRows(made.attributes, &S::subroutine);
    return made;
  }();
  return schema;
}

std::optional<Expression> compileMotionExpression(const MotionJointSpec& spec, const Model* model,
                                                  Diagnostics& diagnostics) {
  if (spec.type == "CONSTANT") {
    if (!spec.q) return std::nullopt;
    return std::get<Expression>(Expression::compile(formatReal(*spec.q)));
  }
  if (!spec.expr) return std::nullopt;
  std::optional<Expression> compiled = model ? compileModelAttribute("expr", *spec.expr, spec.loc, *model, diagnostics)
                                             : compileAttribute("expr", *spec.expr, spec.loc, diagnostics);
  if (!compiled) return std::nullopt;
  Expression expression = std::move(*compiled);
  if (!expression.contactIds().empty()) {
    diagnostics.error(spec.loc, "expr=\"" + *spec.expr + "\" reads Force_Contact id=" +
                                    std::to_string(expression.contactIds().front()) +
                                    "; a motion's expression may read TIME and the markers' positions and angles, "
                                    "not a contact's loads");
    return std::nullopt;
  }
  return expression;
}

void checkMotionJoint(const MotionJointSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "USERSUB") {
    checkSubroutineAttributes(spec.subroutine, "MOTSUB", spec.loc, diagnostics);
    return;
  }
  if (spec.subroutine.any()) {
    warnUnusedSubroutineAttributes(spec.subroutine, "type is not USERSUB", spec.loc, diagnostics);
  }
  if (spec.type == "CONSTANT") {
    if (!spec.q) diagnostics.error(spec.loc, "type=\"CONSTANT\" needs q, the constant value");
    return;
  }
  if (!spec.expr) {
    diagnostics.error(spec.loc, "type=\"EXPRESSION\" needs expr, the motion as a function of TIME");
    return;
  }
  compileMotionExpression(spec, nullptr, diagnostics);
}

std::optional<MotionReads> findMotionReads(const Expression& expression, const MotionJointSpec& spec,
                                           const Model& model, Diagnostics& diagnostics) {
  const std::string attribute = "expr=\"" + expression.text() + "\"";
  const auto refuse = [&](const std::string& message) -> std::optional<MotionReads> {
    diagnostics.error(spec.loc, attribute + " " + message);
    return std::nullopt;
  };
  // The expression, then every variable it reads, directly or through others (each once).
  struct Source {
    const Expression* expression;
    const ReferenceVariable* variable;  // null: the motion's own expression
  };
  std::vector<Source> sources{{&expression, nullptr}};
  const VariableModel* variables = model.variables.get();
  if (variables) {
    std::vector<char> seen(variables->variables.size(), 0);
    std::vector<int> pending;
    for (const int id : expression.variableIds()) pending.push_back(variables->indexOf(id));
    while (!pending.empty()) {
      const int index = pending.back();
      pending.pop_back();
      if (index < 0 || seen[static_cast<size_t>(index)]) continue;
      seen[static_cast<size_t>(index)] = 1;
      const ReferenceVariable& variable = variables->variables[static_cast<size_t>(index)];
      sources.push_back({&variable.expression, &variable});
      for (const int read : variable.readIndices) pending.push_back(read);
    }
  }
  MotionReads reads;
  bool velocity = false;
  for (const Source& source : sources) {
    const std::string through =
        source.variable ? " through Reference_Variable id=" + std::to_string(source.variable->id) : "";
    if (source.variable && source.variable->subroutine) {
      return refuse("reads Reference_Variable id=" + std::to_string(source.variable->id) +
                    ", a VARSUB; a motion's expression may read variables given by expressions only (what a "
                    "subroutine reads cannot be differentiated for the motion's equation)");
    }
    const Expression& read = *source.expression;
    if (read.usesAcceleration()) return refuse("reads accelerations" + through + "; a motion cannot");
    if (!read.contactIds().empty()) {
      return refuse("reads Force_Contact id=" + std::to_string(read.contactIds().front()) + through +
                    "; a motion's expression may read TIME and the markers' positions and angles, not a contact's "
                    "loads");
    }
    if (!read.loadReads().empty()) {
      return refuse("calls " + std::string(read.loadReads().front().function) + through +
                    "; a motion's reaction is solved for with the other joints', so its expression cannot read "
                    "loads");
    }
    if (!read.differentialIds().empty()) {
      return refuse("reads Control_Diff id=" + std::to_string(read.differentialIds().front()) + through +
                    "; a motion's expression may read TIME and the markers' positions and angles only");
    }
    velocity = velocity || read.usesVelocity();
    reads.time = reads.time || read.usesTime();
    reads.model = reads.model || !read.markerIds().empty() || !read.variableIds().empty();
  }
  addBodiesRead(expression, model, reads.bodies);
  if (std::optional<std::string> problem = stateReadProblem(reads.bodies, velocity, spec, model)) {
    return refuse(*problem);
  }
  return reads;
}

std::optional<std::string> stateReadProblem(const std::vector<int>& bodies, bool velocity,
                                            const MotionJointSpec& spec, const Model& model) {
  if (bodies.empty()) return std::nullopt;  // ground markers and constants of time: a motion of TIME
  if (velocity) {
    return "reads velocities; a motion may read the markers' positions and angles (DX…, AX…) besides TIME, since "
           "q − f(q, t) = 0 must hold as a position equation";
  }
  if (spec.val_type == "V" || spec.val_type == "A") {
    return "reads the position of " + model.bodyName(bodies.front()) + "; with val_type=\"" + spec.val_type +
           "\" a motion may read TIME only (its target is integrated over time): give the motion as a displacement, "
           "val_type=\"D\"";
  }
  // The equation's velocity rows have room for six bodies: the joint's two and four more.
  constexpr size_t kMostBodiesRead = 4;
  if (bodies.size() > kMostBodiesRead) {
    return "reads the positions of " + std::to_string(bodies.size()) + " bodies; a motion may read at most " +
           std::to_string(kMostBodiesRead);
  }
  return std::nullopt;
}

std::shared_ptr<const ElementSubroutine> buildMotionSubroutine(const MotionJointSpec& spec, const Model& model,
                                                               Diagnostics& diagnostics) {
  // MOTSUB's iord stands where the others' dflag does (Lodestone asks for 0: the value).
  std::optional<ElementSubroutine> subroutine = buildElementSubroutine(
      spec.subroutine, "MOTSUB", 1, "[value], the motion's displacement, velocity or acceleration", false, spec.loc,
      model, diagnostics);
  if (!subroutine) return nullptr;
  if (!subroutine->variablesRead.empty()) {
    diagnostics.error(spec.loc, subroutine->routine.describe() + " reads Reference_Variable id=" +
                                    std::to_string(subroutine->variablesRead.front()) +
                                    " in its set-up call; a MOTSUB may read TIME and markers (c_sysfnc, c_sysary), "
                                    "not variables (what they read could not be differentiated for the motion)");
    return nullptr;
  }
  // The moving bodies whose markers it reads join the motion's equation, as an expression's do.
  std::vector<int> bodies;
  addSubroutineBodies(*subroutine, model, bodies);
  if (std::optional<std::string> problem = stateReadProblem(bodies, subroutine->velocitiesRead, spec, model)) {
    diagnostics.error(spec.loc, subroutine->routine.describe() + " in its set-up call " + *problem);
    return nullptr;
  }
  subroutine->readsOnlyWhatItsSetUpRead = true;
  return std::make_shared<const ElementSubroutine>(std::move(*subroutine));
}

}  // namespace lodestone
