// Motion_Marker: attributes, checks, and its equation among the joints'.
#include "motion_marker.h"

#include "elements/joint_equations.h"

namespace lodestone {

using S = MotionMarkerSpec;

const ElementSchema<MotionMarkerSpec>& motionMarkerSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
        .element = "Motion_Marker",
        .idField = &S::id,
        .attributes = {
            attr::text("label", &S::label),
            attr::reference("i_marker_id", &S::i_marker_id, "Reference_Marker").required(),
            attr::reference("j_marker_id", &S::j_marker_id, "Reference_Marker").required(),
            attr::keyword("direction", &S::direction, {"X", "Y", "Z", "B1", "B2", "B3"}).required(),
            attr::keyword("type", &S::type, {"EXPRESSION", "USERSUB"}).byDefault(std::string("EXPRESSION")),
            attr::keyword("val_type", &S::val_type, {"D", "V", "A"}).byDefault(std::string("D")).modifiable(),
            attr::text("expr", &S::expr).modifiable(),
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

namespace {

// The attributes a Motion_Joint's law is built from (elements/motion_joint.h), from a Motion_Marker's.
MotionJointSpec asJointMotion(const MotionMarkerSpec& spec) {
  MotionJointSpec law;
  law.loc = spec.loc;
  law.id = spec.id;
  law.type = spec.type;
  law.val_type = spec.val_type;
  law.expr = spec.expr;
  law.ic_disp = spec.ic_disp;
  law.ic_vel = spec.ic_vel;
  law.active = spec.active;
  law.subroutine = spec.subroutine;
  return law;
}

}  // namespace

void checkMotionMarker(const MotionMarkerSpec& spec, Diagnostics& diagnostics) {
  if (spec.i_marker_id == spec.j_marker_id) {
    diagnostics.error(spec.loc, "i_marker_id and j_marker_id are both " + std::to_string(spec.i_marker_id) +
                                    "; a motion acts between two markers");
  }
  checkMotionJoint(asJointMotion(spec), diagnostics);
}

void appendMarkerMotions(const std::vector<MotionMarkerSpec>& specs, const Model& model, ConstraintModel& constraints,
                         Diagnostics& diagnostics) {
  for (const MotionMarkerSpec& spec : specs) {
    if (!spec.active) continue;
    Joint entry;
    entry.id = spec.id;
    entry.loc = spec.loc;
    entry.type = "MOTION";
    if (!connectJointMarkers(spec.i_marker_id, spec.j_marker_id, spec.loc, model, entry, diagnostics,
                             "a motion moves one body against another")) {
      continue;
    }
    entry.motion = buildMotionLaw(asJointMotion(spec), model, diagnostics);
    if (!entry.motion) continue;
    if (spec.direction.size() == 1) {  // X, Y, Z
      const int axis = spec.direction[0] - 'X';
      entry.equations.push_back(JointEquation{.kind = JointEquationKind::OnJointAxisLine, .axisJ = axis,
                                              .name = std::string("translation along ") +
                                                      static_cast<char>('x' + axis) + "_J"});
    } else {  // B1, B2, B3: the angle counted from its value at the start, whole turns and all
      const int angle = spec.direction[1] - '1';
      JointEquation equation{.kind = JointEquationKind::BodyFixedAngle, .axisI = angle,
                             .name = "body-fixed 1-2-3 angle " + spec.direction + " of I from J"};
      JointFrames frames;
      markerFrameAtStart(model, entry.markerI, frames.positionI, frames.axesI);
      markerFrameAtStart(model, entry.markerJ, frames.positionJ, frames.axesJ);
      equation.angleOffset = jointEquationAngle(equation, frames);
      entry.equations.push_back(equation);
    }
    constraints.equationCount += 1;
    constraints.joints.push_back(std::move(entry));
  }
}

}  // namespace lodestone
