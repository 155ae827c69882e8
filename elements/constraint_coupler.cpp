// Constraint_Coupler: attributes, checks, and the coupler equations of a model.
#include "constraint_coupler.h"

#include "solver/core/text.h"

namespace lodestone {

using S = ConstraintCouplerSpec;

const ElementSchema<ConstraintCouplerSpec>& constraintCouplerSchema() {
  static const std::string noSubroutines =
      "COUSUB user subroutines are not available; give the linear relation as coefficients";
  static const ElementSchema<S> schema{
      .element = "Constraint_Coupler",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::reference("joint1_id", &S::joint1_id, "Constraint_Joint").required(),
          attr::keyword("freedom_1", &S::freedom_1, {"T", "R"}),
          attr::reference("joint2_id", &S::joint2_id, "Constraint_Joint").required(),
          attr::keyword("freedom_2", &S::freedom_2, {"T", "R"}),
          attr::reference("joint3_id", &S::joint3_id, "Constraint_Joint"),
          attr::keyword("freedom_3", &S::freedom_3, {"T", "R"}),
          attr::realList("coefficients", &S::coefficients)
              .required()
              .hint("c1 c2 [c3] of c1·q1 + c2·q2 + c3·q3 = 0, one per joint"),
          attr::unsupported<S>("usrsub_dll_name", noSubroutines),
          attr::unsupported<S>("usrsub_fnc_name", noSubroutines),
          attr::unsupported<S>("usrsub_param_string", noSubroutines),
          attr::unsupported<S>("script_name", noSubroutines),
          attr::unsupported<S>("interpreter", noSubroutines),
          attr::unsupported<S>("is_virtual", "virtual couplers are not available"),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

void checkConstraintCoupler(const ConstraintCouplerSpec& spec, Diagnostics& diagnostics) {
  const size_t joints = spec.joint3_id ? 3 : 2;
  if (spec.freedom_3 && !spec.joint3_id) {
    diagnostics.error(spec.loc, "freedom_3 is given without joint3_id; a third joint needs both");
  }
  if (spec.coefficients.size() != joints) {
    diagnostics.error(spec.loc, "coefficients has " + std::to_string(spec.coefficients.size()) + " value" +
                                    (spec.coefficients.size() == 1 ? "" : "s") + " for " + std::to_string(joints) +
                                    " joints; give one coefficient per joint");
    return;
  }
  for (size_t k = 0; k < joints; ++k) {
    if (spec.coefficients[k] == 0) {
      diagnostics.error(spec.loc, "coefficient " + std::to_string(k + 1) +
                                      " is 0: joint" + std::to_string(k + 1) +
                                      "_id would take no part in the relation; leave the joint out of the coupler");
    }
  }
}

const Joint* coupledJoint(const ConstraintModel& constraints, long jointId, const std::string& attribute,
                          const std::vector<ConstraintJointSpec>& jointSpecs, const SourceLoc& where,
                          Diagnostics& diagnostics) {
  for (const Joint& joint : constraints.joints) {
    if (joint.id == jointId && joint.loc.element == "Constraint_Joint") return &joint;
  }
  for (const ConstraintJointSpec& spec : jointSpecs) {
    if (spec.id == jointId && !spec.active) {
      diagnostics.error(where, attribute + "=" + std::to_string(jointId) + " names Constraint_Joint id=" +
                                   std::to_string(jointId) + " (" + spec.loc.position() +
                                   "), which is deactivated; a coupler needs its joints");
    }
  }
  return nullptr;  // missing (reported by the reader) or not built (its own error reported)
}

std::optional<CoupledCoordinate> coupledCoordinate(const Joint& joint, char freedom, const std::string& attribute,
                                                   const SourceLoc& where, const Model& model,
                                                   Diagnostics& diagnostics) {
  const bool hasTranslation = joint.type == "TRANSLATIONAL" || joint.type == "CYLINDRICAL";
  const bool hasRotation = joint.type == "REVOLUTE" || joint.type == "CYLINDRICAL";
  const std::string jointName = "Constraint_Joint id=" + std::to_string(joint.id) + " (" + joint.loc.position() + ")";
  if (!hasTranslation && !hasRotation) {
    diagnostics.error(where, attribute + " names " + jointName + ", a " + joint.type +
                                 " joint; a coupler couples the coordinate of a REVOLUTE, TRANSLATIONAL or "
                                 "CYLINDRICAL joint");
    return std::nullopt;
  }
  if (freedom == 0) {
    if (hasTranslation && hasRotation) {
      diagnostics.error(where, attribute + " names " + jointName + ", a CYLINDRICAL joint, which both slides and "
                                   "turns; say which coordinate is coupled with its freedom (\"T\" or \"R\")");
      return std::nullopt;
    }
    freedom = hasRotation ? 'R' : 'T';
  }
  if ((freedom == 'T' && !hasTranslation) || (freedom == 'R' && !hasRotation)) {
    diagnostics.error(where, attribute + " names " + jointName + ", a " + joint.type + " joint, which has no " +
                                 (freedom == 'T' ? "translational" : "rotational") + " degree of freedom; its freedom "
                                 "is \"" + (freedom == 'T' ? "R" : "T") + "\"");
    return std::nullopt;
  }
  CoupledCoordinate coordinate;
  coordinate.jointId = joint.id;
  coordinate.markerI = joint.markerI;
  coordinate.markerJ = joint.markerJ;
  coordinate.bodyI = joint.bodyI;
  coordinate.bodyJ = joint.bodyJ;
  coordinate.measure = {.kind = freedom == 'R' ? JointEquationKind::JointRotation : JointEquationKind::JointTranslation,
                        .name = freedom == 'R' ? "rotation about z_J" : "translation along z_J"};
  coordinate.origin = jointCoordinateAtStart(coordinate.measure, joint.markerI, joint.markerJ, model);
  coordinate.measure.angleOffset = freedom == 'R' ? coordinate.origin : 0.0;
  return coordinate;
}

void appendCouplers(const std::vector<ConstraintCouplerSpec>& couplers,
                    const std::vector<ConstraintJointSpec>& jointSpecs, const Model& model,
                    ConstraintModel& constraints, Diagnostics& diagnostics) {
  for (const ConstraintCouplerSpec& spec : couplers) {
    struct Term {
      long jointId;
      const std::optional<std::string>* freedom;
      const char* jointAttribute;
    };
    std::vector<Term> terms = {{spec.joint1_id, &spec.freedom_1, "joint1_id"},
                               {spec.joint2_id, &spec.freedom_2, "joint2_id"}};
    if (spec.joint3_id) terms.push_back({*spec.joint3_id, &spec.freedom_3, "joint3_id"});
    if (spec.coefficients.size() != terms.size()) continue;  // reported by checkConstraintCoupler
    Joint coupler;
    coupler.id = spec.id;
    coupler.loc = spec.loc;
    coupler.type = "COUPLER";
    bool complete = true;
    for (size_t k = 0; k < terms.size(); ++k) {
      const Joint* joint = coupledJoint(constraints, terms[k].jointId, terms[k].jointAttribute, jointSpecs, spec.loc,
                                        diagnostics);
      if (!joint) {
        complete = false;
        continue;
      }
      const char freedom = *terms[k].freedom ? (**terms[k].freedom)[0] : 0;
      std::optional<CoupledCoordinate> coordinate =
          coupledCoordinate(*joint, freedom, terms[k].jointAttribute, spec.loc, model, diagnostics);
      if (!coordinate) {
        complete = false;
        continue;
      }
      for (const CoupledCoordinate& before : coupler.coupled) {
        if (before.jointId == coordinate->jointId && before.measure.kind == coordinate->measure.kind) {
          diagnostics.error(spec.loc, std::string(terms[k].jointAttribute) + " couples the same coordinate of "
                                          "Constraint_Joint id=" + std::to_string(joint->id) + " (" +
                                          joint->loc.position() + ") twice; name each coordinate once, with the sum "
                                          "of its coefficients");
          complete = false;
        }
      }
      coordinate->coefficient = spec.coefficients[k];
      coupler.coupled.push_back(*coordinate);
    }
    if (complete) addCoupledEquation(std::move(coupler), "coupled joint coordinates", constraints);
  }
}

void addCoupledEquation(Joint coupler, const char* equation, ConstraintModel& constraints) {
  const CoupledCoordinate& first = coupler.coupled.front();
  coupler.markerI = first.markerI;
  coupler.markerJ = first.markerJ;
  coupler.bodyI = first.bodyI;
  coupler.bodyJ = first.bodyJ;
  coupler.equations.push_back({.kind = JointEquationKind::Coupler, .name = equation});
  constraints.equationCount += 1;
  constraints.joints.push_back(std::move(coupler));
}

}  // namespace lodestone
