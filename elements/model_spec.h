// ModelSpec: everything a deck says, validated but not yet built — one plain struct per element, and the
// commands in deck order. The reader fills it; elements/model_builder turns it into a Model.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "elements/body_point.h"
#include "elements/body_rigid.h"
#include "elements/constraint_coupler.h"
#include "elements/constraint_gear.h"
#include "elements/constraint_joint.h"
#include "elements/contact_surface.h"
#include "elements/debug_output.h"
#include "elements/force_bushing.h"
#include "elements/force_beam.h"
#include "elements/force_field.h"
#include "elements/force_contact.h"
#include "elements/force_gravity.h"
#include "elements/force_joint_friction.h"
#include "elements/force_magnet.h"
#include "elements/force_scalar_two_body.h"
#include "elements/force_scalar_one_body.h"
#include "elements/force_spring_damper.h"
#include "elements/force_vector.h"
#include "elements/motion_marker.h"
#include "elements/h3d_output.h"
#include "elements/param_static.h"
#include "elements/param_transient.h"
#include "elements/param_unit.h"
#include "elements/post_graphic.h"
#include "elements/post_request.h"
#include "elements/reference_marker.h"
#include "elements/reference_param_curve.h"
#include "elements/reference_spline.h"
#include "elements/reference_variable.h"
#include "elements/control_diff.h"
#include "elements/control_plant.h"
#include "elements/control_siso.h"
#include "elements/control_state_eqn.h"
#include "elements/reference_matrix.h"
#include "elements/res_output.h"
#include "elements/sensor_event.h"
#include "elements/sensor_evaluate.h"
#include "elements/simulate.h"
#include "elements/user_program_control.h"
#include "solver/core/model.h"

namespace lodestone {

struct ModelSpec;

// A same-name element inside <Command> that changes attributes of a model element before the next Simulate.
struct ModifyCommand {
  SourceLoc loc;
  std::function<void(ModelSpec&)> apply;
};

using CommandSpec = std::variant<SimulateSpec, StopSpec, ModifyCommand, UserProgramControlSpec>;

struct ModelSpec {
  std::string deckPath;
  std::optional<ParamUnitSpec> units;
  std::optional<ParamTransientSpec> transient;
  std::optional<ParamStaticSpec> statics;
  std::optional<ForceGravitySpec> gravity;
  std::optional<DebugOutputSpec> debugOutput;
  // Output settings; each may also appear (or appear again) in <Command>, changing the animation from then on.
  std::optional<H3DOutputSpec> h3dOutput;
  std::optional<ResOutputSpec> resOutput;
  std::vector<BodyRigidSpec> bodies;
  std::vector<BodyPointSpec> pointBodies;
  std::vector<ReferenceMarkerSpec> markers;
  std::vector<PostGraphicSpec> graphics;
  std::vector<ReferenceParamCurveSpec> paramCurves;
  std::vector<ForceContactSpec> contacts;
  std::vector<ContactSurfaceSpec> surfaces;  // Contact_Surface (ours)
  std::vector<SensorEventSpec> sensors;
  std::vector<SensorEvaluateSpec> sensorEvaluates;
  std::vector<ConstraintJointSpec> joints;      // Constraint_Joint
  std::vector<ConstraintJointSpec> primitives;  // Constraint_Jprim
  std::vector<MotionJointSpec> motions;
  std::vector<MotionMarkerSpec> markerMotions;  // Motion_Marker
  std::vector<ConstraintCouplerSpec> couplers;
  std::vector<ConstraintGearSpec> gears;
  std::vector<ReferenceVariableSpec> variables;
  std::vector<ControlDiffSpec> differentials;  // Control_Diff
  std::vector<ControlStateEqnSpec> stateEquations;  // Control_StateEqn
  std::vector<ControlSisoSpec> sisos;               // Control_SISO
  std::vector<ControlPlantSpec> plantInputs, plantOutputs;  // Control_PlantInput, Control_PlantOutput
  std::vector<ReferenceMatrixSpec> matrices;        // Reference_Matrix
  std::vector<ForceScalarTwoBodySpec> scalarForces;
  std::vector<ForceScalarTwoBodySpec> scalarForcesOneBody;  // Force_Scalar_OneBody (always action-only)
  std::vector<ForceVectorSpec> vectorForcesTwoBody, vectorForcesOneBody;
  std::vector<ForceSpringDamperSpec> springDampers;
  std::vector<ForceBushingSpec> bushings;
  std::vector<ForceBeamSpec> beams;
  std::vector<ForceFieldSpec> fields;
  std::vector<ForceMagnetSpec> magnets;
  std::vector<ForceJointFrictionSpec> jointFrictions;
  std::vector<PostRequestSpec> requests;
  std::vector<ReferenceSplineSpec> splines;
  std::vector<ReferenceArraySpec> arrays;
  std::vector<ReferenceStringSpec> strings;
  std::vector<CommandSpec> commands;
  // How many of each element the deck has, in order of first appearance (for the run log).
  std::vector<ElementCount> elementCounts;
};

}  // namespace lodestone
