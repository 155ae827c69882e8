// Constraint_Gear: attributes, checks, and each gear's coupler equation.
#include "constraint_gear.h"

#include <cmath>
#include <optional>
#include <tuple>

#include "elements/constraint_coupler.h"

namespace lodestone {

using S = ConstraintGearSpec;

const ElementSchema<ConstraintGearSpec>& constraintGearSchema() {
  static const ElementSchema<S> schema{
      .element = "Constraint_Gear",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::reference("joint1_id", &S::joint1_id, "Constraint_Joint").required(),
          attr::reference("joint2_id", &S::joint2_id, "Constraint_Joint").required(),
          attr::reference("cv_marker_id", &S::cv_marker_id, "Reference_Marker")
              .required()
              .hint("the contact point, z along the teeth's common motion, on the housing"),
          attr::unsupported<S>("is_virtual", "virtual gears are not available"),
          attr::presentation<S>("full_label"),
      }};
  return schema;
}

void checkConstraintGear(const ConstraintGearSpec& spec, Diagnostics& diagnostics) {
  if (spec.joint1_id == spec.joint2_id) {
    diagnostics.error(spec.loc, "joint1_id and joint2_id are both " + std::to_string(spec.joint1_id) +
                                    "; a gear couples two different joints");
  }
}


void appendGears(const std::vector<ConstraintGearSpec>& gears, const std::vector<ConstraintJointSpec>& jointSpecs,
                 const Model& model, ConstraintModel& constraints, Diagnostics& diagnostics) {
  for (const ConstraintGearSpec& spec : gears) {
    if (spec.joint1_id == spec.joint2_id) continue;  // reported by checkConstraintGear
    int cvMarker = -1;
    for (size_t k = 0; k < model.markers.size(); ++k) {
      if (model.markers[k].id == spec.cv_marker_id) cvMarker = static_cast<int>(k);
    }
    if (cvMarker < 0) continue;  // a dangling reference, reported by the reader
    const int housing = model.markers[static_cast<size_t>(cvMarker)].body;
    Vector3 contactPoint;
    Matrix3 cvAxes;
    markerFrameAtStart(model, cvMarker, contactPoint, cvAxes);
    const Vector3 direction = cvAxes.col(2);
    // Lengths below this are zero: the factors are lengths (rotations) or cosines (translations).
    const double scale = std::max(1.0, contactPoint.cwiseAbs().maxCoeff());

    Joint gear;
    gear.id = spec.id;
    gear.loc = spec.loc;
    gear.type = "GEAR";
    bool complete = true;
    const std::pair<long, const char*> joints[2] = {{spec.joint1_id, "joint1_id"}, {spec.joint2_id, "joint2_id"}};
    for (int side = 0; side < 2; ++side) {
      const auto& [jointId, attribute] = joints[side];
      const Joint* joint = coupledJoint(constraints, jointId, attribute, jointSpecs, spec.loc, diagnostics);
      if (!joint) {
        complete = false;
        continue;
      }
      if (joint->bodyJ != housing) {
        diagnostics.error(spec.loc, std::string(attribute) + " names Constraint_Joint id=" + std::to_string(jointId) +
                                        ", whose J marker is on " + model.bodyName(joint->bodyJ) +
                                        ", but cv_marker_id=" + std::to_string(spec.cv_marker_id) + " is on " +
                                        model.bodyName(housing) + "; the cv marker must be on the housing, the body "
                                        "of both joints' J markers");
        complete = false;
        continue;
      }
      Vector3 jointOrigin;
      Matrix3 jointAxes;
      markerFrameAtStart(model, joint->markerJ, jointOrigin, jointAxes);
      const Vector3 axis = jointAxes.col(2);
      const double turning = axis.cross(contactPoint - jointOrigin).dot(direction);
      const double sliding = axis.dot(direction);
      const bool canTurn = joint->type == "REVOLUTE" || joint->type == "CYLINDRICAL";
      const bool canSlide = joint->type == "TRANSLATIONAL" || joint->type == "CYLINDRICAL";
      const size_t before = gear.coupled.size();
      for (const auto& [freedom, factor, available, threshold] :
           {std::tuple{'R', turning, canTurn, 1e-12 * scale}, std::tuple{'T', sliding, canSlide, 1e-12}}) {
        if (!available || std::fabs(factor) <= threshold) continue;
        std::optional<CoupledCoordinate> coordinate =
            coupledCoordinate(*joint, freedom, attribute, spec.loc, model, diagnostics);
        if (!coordinate) continue;
        coordinate->coefficient = side == 0 ? factor : -factor;
        gear.coupled.push_back(*coordinate);
      }
      if (!canTurn && !canSlide) {
        // coupledCoordinate names the joint type
        (void)coupledCoordinate(*joint, 0, attribute, spec.loc, model, diagnostics);
        complete = false;
      } else if (gear.coupled.size() == before) {
        diagnostics.error(spec.loc, std::string(attribute) + " names Constraint_Joint id=" + std::to_string(jointId) +
                                        " (" + joint->type + "), which does not move the contact point along the z-axis"
                                        " of cv_marker_id=" + std::to_string(spec.cv_marker_id) +
                                        "; put the marker on the pitch circle with z along the teeth's motion");
        complete = false;
      }
    }
    if (complete) addCoupledEquation(std::move(gear), "equal velocities at the contact point", constraints);
  }
}

}  // namespace lodestone
