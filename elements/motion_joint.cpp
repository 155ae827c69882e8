// Motion_Joint: attributes and checks.
#include "motion_joint.h"

#include "elements/expression_context.h"
#include "solver/core/text.h"

namespace lodestone {

using S = MotionJointSpec;

const ElementSchema<MotionJointSpec>& motionJointSchema() {
  static const ElementSchema<S> schema{
      .element = "Motion_Joint",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::reference("joint_id", &S::joint_id, "Constraint_Joint").required(),
          attr::keyword("motion_type", &S::motion_type, {"T", "R"}).required(),
          attr::keyword("type", &S::type, {"EXPRESSION", "CONSTANT", "USERSUB"}).byDefault(std::string("EXPRESSION")),
          attr::keyword("val_type", &S::val_type, {"D", "V", "A"}).byDefault(std::string("D")).modifiable(),
          attr::text("expr", &S::expr).modifiable(),
          attr::real("q", &S::q).modifiable(),
          attr::real("ic_disp", &S::ic_disp).modifiable(),
          attr::real("ic_vel", &S::ic_vel).modifiable(),
          attr::boolean("active", &S::active).byDefault(true).modifiable(),
          attr::unsupported<S>("usrsub_dll_name", "MOTSUB user subroutines are not available yet"),
          attr::unsupported<S>("usrsub_fnc_name", "MOTSUB user subroutines are not available yet"),
          attr::unsupported<S>("usrsub_param_string", "MOTSUB user subroutines are not available yet"),
          attr::unsupported<S>("script_name", "MOTSUB user subroutines are not available yet"),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

std::optional<Expression> compileMotionExpression(const MotionJointSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "CONSTANT") {
    if (!spec.q) return std::nullopt;
    return std::get<Expression>(Expression::compile(formatReal(*spec.q)));
  }
  if (!spec.expr) return std::nullopt;
  std::optional<Expression> compiled = compileAttribute("expr", *spec.expr, spec.loc, diagnostics);
  if (!compiled) return std::nullopt;
  Expression expression = std::move(*compiled);
  if (!expression.markerIds().empty()) {
    diagnostics.error(spec.loc, "expr=\"" + *spec.expr + "\" reads Reference_Marker id=" +
                                    std::to_string(expression.markerIds().front()) +
                                    "; a motion's expression may depend on TIME only in this version");
    return std::nullopt;
  }
  if (!expression.contactIds().empty()) {
    diagnostics.error(spec.loc, "expr=\"" + *spec.expr + "\" reads Force_Contact id=" +
                                    std::to_string(expression.contactIds().front()) +
                                    "; a motion's expression may depend on TIME only in this version");
    return std::nullopt;
  }
  return expression;
}

void checkMotionJoint(const MotionJointSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "USERSUB") {
    diagnostics.error(spec.loc, "type=\"USERSUB\" (a MOTSUB user subroutine) is not available yet; write the motion "
                                "as type=\"EXPRESSION\" with expr");
    return;
  }
  if (spec.type == "CONSTANT") {
    if (!spec.q) diagnostics.error(spec.loc, "type=\"CONSTANT\" needs q, the constant value");
    return;
  }
  if (!spec.expr) {
    diagnostics.error(spec.loc, "type=\"EXPRESSION\" needs expr, the motion as a function of TIME");
    return;
  }
  compileMotionExpression(spec, diagnostics);
}

}  // namespace lodestone
