// Force_JointFriction: attributes, checks, and the elements built on their joints (the law: force_joint_friction_law).
#include "force_joint_friction.h"

#include <algorithm>

#include "solver/core/text.h"

namespace lodestone {

using S = ForceJointFrictionSpec;

const ElementSchema<ForceJointFrictionSpec>& forceJointFrictionSchema() {
  const std::string lugre =
      "the LuGre formulation is not available; Lodestone's stick-slip model (max_stiction_deform, "
      "stiction_trans_vel) is";
  static const ElementSchema<S> schema{
      .element = "Force_JointFriction",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::reference("joint_id", &S::joint_id, "Constraint_Joint").required(),
          attr::real("mu_static", &S::mu_static).atLeast(0).required(),
          attr::real("mu_dynamic", &S::mu_dynamic).atLeast(0).required(),
          attr::real("max_stiction_deform", &S::max_stiction_deform)
              .above(0)
              .byDefault(0.01)
              .hint("the largest creep, on the joint's sliding surface, while it sticks"),
          attr::real("stiction_trans_vel", &S::stiction_trans_vel)
              .above(0)
              .byDefault(0.1)
              .hint("slip speed on the sliding surface below which the joint sticks"),
          attr::keyword("inactive", &S::inactive, {"NONE", "STATIC"}).byDefault(std::string("NONE")),
          attr::keyword("effect", &S::effect, {"ALL", "STICTION", "SLIDING"}).byDefault(std::string("ALL")),
          attr::text("inputs", &S::inputs),
          attr::real("torque_preload", &S::torque_preload).atLeast(0).byDefault(0.0),
          attr::real("force_preload", &S::force_preload).atLeast(0).byDefault(0.0),
          attr::real("friction_arm", &S::friction_arm).above(0).byDefault(1.0),
          attr::real("bending_reaction_arm", &S::bending_reaction_arm).above(0).byDefault(1.0),
          attr::real("pin_radius", &S::pin_radius).above(0).byDefault(1.0),
          attr::real("reaction_arm", &S::reaction_arm).above(0).byDefault(1.0),
          attr::real("initial_overlap", &S::initial_overlap).above(0).byDefault(1.0),
          attr::real("ball_radius", &S::ball_radius).above(0).byDefault(1.0),
          attr::keyword("overlap_delta", &S::overlap_delta, {"CONSTANT", "INCREASE", "DECREASE"})
              .byDefault(std::string("CONSTANT")),
          attr::unsupported<S>("bristle_stiffness", lugre),
          attr::unsupported<S>("damping_effects", lugre),
          attr::unsupported<S>("viscous_effects", lugre),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

namespace {

bool isBinaryDigits(const std::string& text) {
  return text.size() == 4 && std::all_of(text.begin(), text.end(), [](char c) { return c == '0' || c == '1'; });
}

}  // namespace

void checkForceJointFriction(const ForceJointFrictionSpec& spec, Diagnostics& diagnostics) {
  if (spec.mu_dynamic > spec.mu_static) {
    diagnostics.error(spec.loc, "mu_dynamic=" + formatReal(spec.mu_dynamic) + " exceeds mu_static=" +
                                    formatReal(spec.mu_static) + "; sliding friction is at most the static friction");
  }
  if (!isBinaryDigits(std::string(trim(spec.inputs)))) {
    diagnostics.error(spec.loc, "inputs=\"" + spec.inputs + "\" is not four binary digits; write which loads the "
                                    "friction reads, in the order preload, reaction force, bending moment, torsional "
                                    "moment, e.g. inputs=\"1100\" (default \"1111\": all)");
  }
  if (spec.overlap_delta != "CONSTANT") {
    diagnostics.error(spec.loc, "overlap_delta=\"" + spec.overlap_delta + "\" is not available yet; the overlap "
                                    "stays initial_overlap (overlap_delta=\"CONSTANT\")");
  }
}

std::shared_ptr<JointFrictionModel> buildJointFrictionModel(const std::vector<ForceJointFrictionSpec>& specs,
                                                            const Model& model, Diagnostics& diagnostics) {
  auto built = std::make_shared<JointFrictionModel>();
  for (const ForceJointFrictionSpec& spec : specs) {
    const Joint* joint = nullptr;
    for (const Joint& candidate : model.constraints->joints) {
      if (candidate.id == spec.joint_id && candidate.loc.element == "Constraint_Joint") joint = &candidate;
    }
    if (!joint) {
      // A missing id is reported by the reader; an existing one is then inactive.
      diagnostics.error(spec.loc, "joint_id=" + std::to_string(spec.joint_id) + " names no active Constraint_Joint; "
                                      "friction acts in an active joint");
      continue;
    }
    if (joint->type != "REVOLUTE" && joint->type != "TRANSLATIONAL" && joint->type != "SPHERICAL") {
      const bool later = joint->type == "CYLINDRICAL" || joint->type == "UNIVERSAL" || joint->type == "HOOKE";
      diagnostics.error(spec.loc, "joint_id=" + std::to_string(spec.joint_id) + " is a " + joint->type + " joint; " +
                                      (later ? std::string("friction in it is not available yet") :
                                               std::string("MotionSolve has no friction for it")) +
                                      " — Force_JointFriction acts in REVOLUTE, TRANSLATIONAL and SPHERICAL joints");
      continue;
    }
    const std::string inputs(trim(spec.inputs));
    if (inputs.size() != 4) continue;  // reported by checkForceJointFriction
    JointFriction friction;
    friction.id = spec.id;
    friction.loc = spec.loc;
    friction.jointId = joint->id;
    friction.kind = joint->type == "REVOLUTE"        ? FrictionJointKind::Revolute
                    : joint->type == "TRANSLATIONAL" ? FrictionJointKind::Translational
                                                     : FrictionJointKind::Spherical;
    friction.markerI = joint->markerI;
    friction.markerJ = joint->markerJ;
    friction.bodyI = joint->bodyI;
    friction.bodyJ = joint->bodyJ;
    friction.muStatic = spec.mu_static;
    friction.muDynamic = spec.mu_dynamic;
    friction.maxStictionDeform = spec.max_stiction_deform;
    friction.stictionVelocity = spec.stiction_trans_vel;
    friction.effect = spec.effect == "STICTION" ? FrictionEffect::Stiction
                      : spec.effect == "SLIDING" ? FrictionEffect::Sliding
                                                 : FrictionEffect::All;
    friction.usePreload = inputs[0] == '1';
    friction.useReactionForce = inputs[1] == '1';
    friction.useBendingMoment = inputs[2] == '1';
    friction.useTorsionalMoment = inputs[3] == '1';
    friction.preload = friction.rotational() ? spec.torque_preload : spec.force_preload;
    friction.pinRadius = spec.pin_radius;
    friction.frictionArm = spec.friction_arm;
    friction.bendingArm = spec.bending_reaction_arm;
    friction.overlap = spec.initial_overlap;
    friction.reactionArm = spec.reaction_arm;
    friction.ballRadius = spec.ball_radius;
    built->frictions.push_back(friction);
  }
  return built;
}

}  // namespace lodestone
