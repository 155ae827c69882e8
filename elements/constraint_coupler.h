// Constraint_Coupler: the deck element, and the coupler equation it adds to the model's joints — the coordinates
// of two or three joints held in a fixed linear relation, c1·q1 + c2·q2 (+ c3·q3) = 0 (MotionSolve's COUPLER:
// idealised spur gears, a rack and pinion, a differential).
//
// Each q is a joint's free coordinate as a Motion_Joint measures it between the joint's markers: the translation of
// I along z_J (freedom "T") or the rotation of x_I about z_J (freedom "R", radians, counted through whole turns),
// counted from its value in the deck's configuration (ours: the manual relates the joints' displacements without
// saying from where; from the start, a deck's coupler holds as it is written). A REVOLUTE joint has only "R", a
// TRANSLATIONAL only "T", a CYLINDRICAL both (freedom_k must then say which).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "elements/constraint_joint.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ConstraintCouplerSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  long joint1_id = 0, joint2_id = 0;
  std::optional<long> joint3_id;
  std::optional<std::string> freedom_1, freedom_2, freedom_3;  // "T" or "R"
  std::vector<double> coefficients;                           // c1 c2 [c3]
};

const ElementSchema<ConstraintCouplerSpec>& constraintCouplerSchema();
// As many coefficients as joints, none zero; freedom_3 only with joint3_id.
void checkConstraintCoupler(const ConstraintCouplerSpec& spec, Diagnostics& diagnostics);

// The joint coordinate a coupler or a gear couples on Constraint_Joint `joint` (an active joint of the model,
// built from `jointSpec`): freedom 'T' or 'R', or 0 to take the only one the joint type has. An error at
// `where`, naming `attribute`, and nullopt when the joint type has no such coordinate or several.
std::optional<CoupledCoordinate> coupledCoordinate(const Joint& joint, char freedom, const std::string& attribute,
                                                   const SourceLoc& where, const Model& model,
                                                   Diagnostics& diagnostics);
// The model's Constraint_Joint entry of id `jointId`, or nullptr (with an error at `where` when it is deactivated
// or could not be built).
const Joint* coupledJoint(const ConstraintModel& constraints, long jointId, const std::string& attribute,
                          const std::vector<ConstraintJointSpec>& jointSpecs, const SourceLoc& where,
                          Diagnostics& diagnostics);

// Adds `coupler` (its coupled coordinates filled in) to `constraints` as one equation named `equation`, on the
// markers and bodies of its first coordinate, where its reaction is reported.
void addCoupledEquation(Joint coupler, const char* equation, ConstraintModel& constraints);

// Adds each coupler's equation to `constraints` (after its joints and motions).
void appendCouplers(const std::vector<ConstraintCouplerSpec>& couplers,
                    const std::vector<ConstraintJointSpec>& jointSpecs, const Model& model,
                    ConstraintModel& constraints, Diagnostics& diagnostics);

}  // namespace lodestone
