// Constraint_Joint and Constraint_Jprim: attributes, checks, and each type's equations.
#include "constraint_joint.h"

#include <cmath>

#include "elements/expression_context.h"
#include "elements/joint_equations.h"
#include "elements/subroutine_state.h"

namespace lodestone {

using S = ConstraintJointSpec;

namespace {

const std::vector<std::string>& jointTypes() {
  static const std::vector<std::string> types = {
      "FIXED",  "REVOLUTE", "SPHERICAL", "TRANSLATIONAL", "CYLINDRICAL", "UNIVERSAL", "HOOKE", "PLANAR",
      "CONSTANT_VELOCITY", "INLINE", "INPLANE", "ORIENTATION", "PARALLEL_AXES", "PERPENDICULAR", "SCREW",
      "RACK_PINION"};
  return types;
}

}  // namespace

const ElementSchema<ConstraintJointSpec>& constraintJointSchema() {
  static const ElementSchema<S> schema{
      .element = "Constraint_Joint",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::keyword("type", &S::type, jointTypes())
              .required()
              .hint("FREE joints constrain nothing: leave the element out"),
          attr::reference("i_marker_id", &S::i_marker_id, "Reference_Marker").required(),
          attr::reference("j_marker_id", &S::j_marker_id, "Reference_Marker").required(),
          attr::real("pitch", &S::pitch),
          attr::real("pitch_diameter", &S::pitch_diameter).above(0),
          attr::boolean("active", &S::active).byDefault(true).modifiable(),
          attr::unsupported<S>("is_virtual", "virtual joints are not available"),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

const ElementSchema<ConstraintJointSpec>& constraintJprimSchema() {
  static const ElementSchema<S> schema{
      .element = "Constraint_Jprim",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::keyword("type", &S::type,
                        {"ATPOINT", "INLINE", "INPLANE", "ORIENTATION", "PARALLEL_AXES", "PERPENDICULAR"})
              .required(),
          attr::reference("i_marker_id", &S::i_marker_id, "Reference_Marker").required(),
          attr::reference("j_marker_id", &S::j_marker_id, "Reference_Marker").required(),
          attr::boolean("active", &S::active).byDefault(true).modifiable(),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

void checkConstraintJoint(const ConstraintJointSpec& spec, Diagnostics& diagnostics) {
  if (spec.type == "SCREW" && !spec.pitch) {
    diagnostics.error(spec.loc, "type=\"SCREW\" needs pitch, the translation along z_J per turn");
  }
  if (spec.type == "SCREW" && spec.pitch && *spec.pitch == 0) {
    diagnostics.error(spec.loc, "pitch=\"0\" makes the screw a revolute joint without its axis; use type=\"REVOLUTE\"");
  }
  if (spec.type == "RACK_PINION" && !spec.pitch_diameter) {
    diagnostics.error(spec.loc, "type=\"RACK_PINION\" needs pitch_diameter, the pinion's pitch diameter");
  }
  if (spec.i_marker_id == spec.j_marker_id) {
    diagnostics.error(spec.loc, "i_marker_id and j_marker_id are both " + std::to_string(spec.i_marker_id) +
                                    "; a joint connects markers on two different bodies");
  }
}

std::string describeJoint(const Joint& joint) {
  return joint.loc.subject() + " (" + joint.loc.position() + ")";
}

namespace {

using Kind = JointEquationKind;

JointEquation point(int axis) {
  static const char* names[] = {"x translation", "y translation", "z translation"};
  return {.kind = Kind::Point, .axisI = axis, .name = names[axis]};
}
JointEquation onAxis(int axis) {
  static const char* names[] = {"translation along x_J", "translation along y_J", "translation along z_J"};
  return {.kind = Kind::OnJointAxisLine, .axisJ = axis, .name = names[axis]};
}
JointEquation axesDot(int axisI, int axisJ) {
  static const char* axes = "xyz";
  return {.kind = Kind::AxesDot, .axisI = axisI, .axisJ = axisJ,
          .name = std::string(1, axes[axisI]) + "_I·" + std::string(1, axes[axisJ]) + "_J (rotation)"};
}

void addAtPoint(std::vector<JointEquation>& out) {
  for (int k = 0; k < 3; ++k) out.push_back(point(k));
}
void addInline(std::vector<JointEquation>& out) {
  out.push_back(onAxis(0));
  out.push_back(onAxis(1));
}
void addParallelAxes(std::vector<JointEquation>& out) {
  out.push_back(axesDot(2, 0));
  out.push_back(axesDot(2, 1));
}
void addOrientation(std::vector<JointEquation>& out) {
  addParallelAxes(out);
  out.push_back(axesDot(0, 1));
}

std::vector<JointEquation> equationsOf(const std::string& type, const ConstraintJointSpec& spec) {
  std::vector<JointEquation> out;
  if (type == "FIXED") {
    addAtPoint(out);
    addOrientation(out);
  } else if (type == "REVOLUTE") {
    addAtPoint(out);
    addParallelAxes(out);
  } else if (type == "SPHERICAL" || type == "ATPOINT") {
    addAtPoint(out);
  } else if (type == "TRANSLATIONAL") {
    addInline(out);
    addOrientation(out);
  } else if (type == "CYLINDRICAL") {
    addInline(out);
    addParallelAxes(out);
  } else if (type == "PLANAR") {
    out.push_back(onAxis(2));
    addParallelAxes(out);
  } else if (type == "UNIVERSAL") {
    addAtPoint(out);
    out.push_back(axesDot(2, 2));
  } else if (type == "HOOKE") {
    addAtPoint(out);
    out.push_back(axesDot(0, 1));
  } else if (type == "CONSTANT_VELOCITY") {
    addAtPoint(out);
    out.push_back({.kind = Kind::ConstantVelocity, .name = "x_I·y_J + y_I·x_J (equal and opposite spins)"});
  } else if (type == "INLINE") {
    addInline(out);
  } else if (type == "INPLANE") {
    out.push_back(onAxis(2));
  } else if (type == "ORIENTATION") {
    addOrientation(out);
  } else if (type == "PARALLEL_AXES") {
    addParallelAxes(out);
  } else if (type == "PERPENDICULAR") {
    out.push_back(axesDot(2, 2));
  } else if (type == "SCREW") {
    out.push_back({.kind = Kind::Screw, .ratio = spec.pitch.value_or(0) / (2 * M_PI),
                   .name = "translation along z_J = pitch × turns"});
  } else if (type == "RACK_PINION") {
    out.push_back({.kind = Kind::RackPinion, .ratio = spec.pitch_diameter.value_or(0) / 2,
                   .name = "rack translation = pitch radius × pinion angle"});
  }
  return out;
}

// A marker's frame in ground in the deck's configuration.
void markerPoseAtStart(const Model& model, const Marker& marker, Vector3& position, Matrix3& axes, Vector3& cg) {
  if (marker.body < 0) {
    position = marker.position;
    axes = marker.orientation;
    cg = Vector3::Zero();
    return;
  }
  const RigidBody& body = model.bodies[static_cast<size_t>(marker.body)];
  const Matrix3 rotation = rotationFromEulerParameters(body.eulerParameters);
  position = body.position + rotation * marker.position;
  axes = rotation * marker.orientation;
  cg = body.position;
}

}  // namespace

void markerFrameAtStart(const Model& model, int markerIndex, Vector3& position, Matrix3& axes) {
  Vector3 cg;
  markerPoseAtStart(model, model.markers[static_cast<size_t>(markerIndex)], position, axes, cg);
}

double jointCoordinateAtStart(const JointEquation& measure, int markerI, int markerJ, const Model& model) {
  JointFrames frames;
  markerPoseAtStart(model, model.markers[static_cast<size_t>(markerI)], frames.positionI, frames.axesI, frames.cgI);
  markerPoseAtStart(model, model.markers[static_cast<size_t>(markerJ)], frames.positionJ, frames.axesJ, frames.cgJ);
  if (measure.kind == Kind::JointRotation) return jointEquationAngle(measure, frames);
  return evaluateJointEquation(measure, frames, 0).value;
}

bool connectJointMarkers(long iMarker, long jMarker, const SourceLoc& loc, const Model& model, Joint& joint,
                         Diagnostics& diagnostics, const std::string& between) {
  const auto indexOf = [&](long id) {
    const Marker* marker = model.marker(id);
    return marker ? static_cast<int>(marker - model.markers.data()) : -1;
  };
  joint.markerI = indexOf(iMarker);
  joint.markerJ = indexOf(jMarker);
  if (joint.markerI < 0 || joint.markerJ < 0) return false;  // a dangling reference, reported by the reader
  joint.bodyI = model.markers[static_cast<size_t>(joint.markerI)].body;
  joint.bodyJ = model.markers[static_cast<size_t>(joint.markerJ)].body;
  if (joint.bodyI != joint.bodyJ) return true;
  diagnostics.error(loc, "i_marker_id=" + std::to_string(iMarker) + " and j_marker_id=" + std::to_string(jMarker) +
                             " are both on " + model.bodyName(joint.bodyI) + "; " + between);
  return false;
}

std::shared_ptr<const JointMotion> buildMotionLaw(const MotionJointSpec& spec, const Model& model,
                                                 Diagnostics& diagnostics) {
  std::optional<Expression> expression;
  std::optional<MotionReads> reads;
  std::shared_ptr<const ElementSubroutine> subroutine;
  if (spec.type == "USERSUB") {
    subroutine = buildMotionSubroutine(spec, model, diagnostics);
    if (!subroutine) return nullptr;
    expression = std::get<Expression>(Expression::compile("0"));  // never evaluated
    reads = MotionReads{.time = true, .model = true};              // the subroutine reads the model's context
    addSubroutineBodies(*subroutine, model, reads->bodies);         // and the bodies its set-up call read
  } else {
    expression = compileMotionExpression(spec, &model, diagnostics);
    if (!expression || !checkExpressionReferences(*expression, "expr", spec.loc, model, diagnostics)) return nullptr;
    reads = findMotionReads(*expression, spec, model, diagnostics);
    if (!reads) return nullptr;
  }
  return std::make_shared<const JointMotion>(JointMotion{.expression = std::move(*expression),
                                                         .valueType = spec.val_type.empty() ? 'D' : spec.val_type[0],
                                                         .initialDisplacement = spec.ic_disp,
                                                         .initialVelocity = spec.ic_vel,
                                                         .bodiesRead = std::move(reads->bodies),
                                                         .readsTime = reads->time,
                                                         .readsModel = reads->model,
                                                         .subroutine = std::move(subroutine)});
}

std::shared_ptr<ConstraintModel> buildConstraintModel(const std::vector<ConstraintJointSpec>& joints,
                                                            const std::vector<ConstraintJointSpec>& primitives,
                                                            const std::vector<MotionJointSpec>& motions,
                                                            const Model& model, Diagnostics& diagnostics) {
  auto result = std::make_shared<ConstraintModel>();
  for (const std::vector<ConstraintJointSpec>* specs : {&joints, &primitives}) {
    for (const ConstraintJointSpec& spec : *specs) {
      if (!spec.active) continue;
      Joint joint;
      joint.id = spec.id;
      joint.loc = spec.loc;
      joint.type = spec.type;
      if (!connectJointMarkers(spec.i_marker_id, spec.j_marker_id, spec.loc, model, joint, diagnostics,
                               "a joint connects two different bodies")) {
        continue;
      }
      const Marker& markerI = model.markers[static_cast<size_t>(joint.markerI)];
      const Marker& markerJ = model.markers[static_cast<size_t>(joint.markerJ)];
      joint.equations = equationsOf(spec.type, spec);
      JointFrames frames;
      markerPoseAtStart(model, markerI, frames.positionI, frames.axesI, frames.cgI);
      markerPoseAtStart(model, markerJ, frames.positionJ, frames.axesJ, frames.cgJ);
      for (JointEquation& equation : joint.equations) {
        if (equation.kind != Kind::Screw && equation.kind != Kind::RackPinion) continue;
        equation.offset = (frames.positionI - frames.positionJ).dot(frames.axesJ.col(2));
        equation.angleOffset = jointEquationAngle(equation, frames);
      }
      result->equationCount += static_cast<int>(joint.equations.size());
      result->joints.push_back(std::move(joint));
    }
  }
  for (const MotionJointSpec& spec : motions) {
    if (!spec.active) continue;
    const ConstraintJointSpec* target = nullptr;
    for (const ConstraintJointSpec& joint : joints) {
      if (joint.id == spec.joint_id) target = &joint;
    }
    if (!target) continue;  // a dangling reference, reported by the reader
    const bool rotational = spec.motion_type == "R";
    const bool allowed = target->type == "CYLINDRICAL" || target->type == (rotational ? "REVOLUTE" : "TRANSLATIONAL");
    if (!allowed) {
      diagnostics.error(spec.loc, std::string("motion_type=\"") + spec.motion_type + "\" drives " +
                                      (rotational ? "a REVOLUTE or CYLINDRICAL" : "a TRANSLATIONAL or CYLINDRICAL") +
                                      " joint; Constraint_Joint id=" + std::to_string(target->id) + " (" +
                                      target->loc.position() + ") is " + target->type);
      continue;
    }
    if (!target->active) {
      diagnostics.error(spec.loc, "drives Constraint_Joint id=" + std::to_string(target->id) +
                                      ", which is deactivated; deactivate the motion too (element_type=\"MOTION\")");
      continue;
    }
    std::shared_ptr<const JointMotion> motion = buildMotionLaw(spec, model, diagnostics);
    if (!motion) continue;
    const Joint* driven = nullptr;
    for (const Joint& joint : result->joints) {
      if (joint.id == target->id && joint.loc.element == "Constraint_Joint") driven = &joint;
    }
    if (!driven) continue;  // the joint itself had an error, reported
    Joint entry;
    entry.id = spec.id;
    entry.loc = spec.loc;
    entry.type = "MOTION";
    entry.markerI = driven->markerI;
    entry.markerJ = driven->markerJ;
    entry.bodyI = driven->bodyI;
    entry.bodyJ = driven->bodyJ;
    entry.motion = motion;
    JointEquation equation{.kind = rotational ? Kind::JointRotation : Kind::JointTranslation,
                           .name = rotational ? "rotation about z_J" : "translation along z_J"};
    JointFrames frames;
    markerPoseAtStart(model, model.markers[static_cast<size_t>(entry.markerI)], frames.positionI, frames.axesI,
                      frames.cgI);
    markerPoseAtStart(model, model.markers[static_cast<size_t>(entry.markerJ)], frames.positionJ, frames.axesJ,
                      frames.cgJ);
    if (rotational) equation.angleOffset = jointEquationAngle(equation, frames);
    entry.equations.push_back(equation);
    result->equationCount += 1;
    result->joints.push_back(std::move(entry));
  }
  return result;
}

}  // namespace lodestone
