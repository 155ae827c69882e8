// The immutable model a run integrates: built once from a ModelSpec (elements/model_builder), read by the
// driver and the elements, never changed during a simulation. Everything that changes lives in the state.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rotation.h"
#include "source_loc.h"
#include "units.h"

namespace lodestone {

// A moving rigid body. Its frame has its origin at the CG and the axes of its cg_id marker.
// A Body_Point is one too, with `point` set: no inertia, its axes those of ground for ever. It keeps the 13 states
// so that every force, marker, request and output reads it as any body; its turning rows hold ω' = 0 instead of
// Newton–Euler's (elements/body_point.h), so its Euler parameters never change and torques on it do nothing.
struct RigidBody {
  long id = 0;
  SourceLoc loc;
  std::string label;
  bool point = false;                     // a Body_Point
  double mass = 0;                        // deck units, before the mass multiplication factor
  Matrix3 inertia = Matrix3::Zero();      // about the CG, in body axes, deck units
  // Initial state, all in ground.
  Vector3 position = Vector3::Zero();         // CG
  Vector4 eulerParameters{1, 0, 0, 0};        // body axes
  Vector3 velocity = Vector3::Zero();         // CG velocity
  Vector3 angularVelocity = Vector3::Zero();  // in ground axes

  // The deck element it came from, for messages: "Body_Point" or "Body_Rigid".
  const char* element() const { return point ? "Body_Point" : "Body_Rigid"; }
};

// A marker fixed to a moving body or to ground.
struct Marker {
  long id = 0;
  SourceLoc loc;
  int body = -1;                             // index into Model::bodies; -1 when fixed to ground
  Vector3 position = Vector3::Zero();        // in the body frame (ground frame for ground markers)
  Matrix3 orientation = Matrix3::Identity(); // marker axes as columns, in the body frame
};

// Integrator settings from Param_Transient (its schema holds the defaults a deck gets; these initial values
// serve models built in code). A zero step limit means "let IDAS choose".
struct IntegratorSettings {
  double integrTol = 1e-3;
  double hMax = 0;
  double hMin = 0;
  double h0Max = 0;
  int maxOrder = 5;
  // The largest violation of a joint's position equations the run may show (a warning in run.log beyond it).
  double constraintTol = 1e-5;
};

// Convergence limits of a static analysis, from Param_Static; unset limits are Lodestone's own: loads within 1e-9
// of the largest weight or initial load, joint equations within 1e-10 of the model's size.
struct StaticSettings {
  std::optional<double> maxImbalance;        // largest force or torque left on a body, deck units
  std::optional<double> maxConstraintError;  // largest violation of a joint equation left
  int maxIterations = 200;
};

// The Force_Contact elements and their geometry (elements/force_contact.h). Only elements and the driver look
// inside; the core only carries it.
struct ContactModel;
// The active Constraint_Joint and Constraint_Jprim elements and their equations (elements/constraint_joint.h).
struct ConstraintModel;
// The active Sensor_Event elements (elements/sensor_event.h), carried the same way.
struct SensorModel;
// The Reference_Variable elements (elements/reference_variable.h), and the active force elements with expressions
// or laws of their own — Force_Scalar_TwoBody, Force_Vector_*, Force_SpringDamper, Force_Bushing
// (elements/force_elements.h) — carried the same way.
struct VariableModel;
struct ForceModel;
// The Post_Request elements that can be written (elements/post_request.h), carried the same way.
struct RequestModel;
// The data elements Reference_Spline, Reference_Array and Reference_String (elements/reference_spline.h).
struct DataModel;
// The Control_Diff elements (elements/control_diff.h): differential equations with states of their own.
struct DifferentialModel;
// The Force_JointFriction elements on their joints (elements/force_joint_friction.h).
struct JointFrictionModel;
// The Sensor_Evaluate elements (elements/sensor_evaluate.h): values stored when sensors fire, read by SENVAL.
struct SensorEvaluateModel;
// The control systems, Control_StateEqn (linear or a GSESUB's) and Control_SISO (elements/control_state_eqn.h).
struct ControlModel;
// The plant ports Control_PlantInput and Control_PlantOutput, which PINVAL and POUVAL read (elements/control_plant.h).
struct PlantModel;

struct ElementCount {
  std::string element;  // "Reference_Marker"
  int count = 0;
};

struct Model {
  std::string deckPath;
  UnitSystem units;
  Vector3 gravity = Vector3::Zero();  // model units, e.g. -9810 mm/s²
  std::vector<RigidBody> bodies;      // moving bodies only: ground is not in the state
  std::vector<long> groundBodyIds;
  std::vector<Marker> markers;
  IntegratorSettings integrator;
  StaticSettings statics;
  std::shared_ptr<const ContactModel> contacts;  // never null once built; may hold no elements
  std::shared_ptr<const SensorModel> sensors;    // never null once built; may hold no sensors
  std::shared_ptr<const ConstraintModel> constraints;  // never null once built; may hold no joints
  std::shared_ptr<const VariableModel> variables;  // never null once built; may hold no variables
  std::shared_ptr<const ForceModel> forces;        // never null once built; may hold no elements
  std::shared_ptr<const RequestModel> requests;    // never null once built; may hold no requests
  std::shared_ptr<const DataModel> data;           // never null once built; may hold no data elements
  std::shared_ptr<const DifferentialModel> differentials;  // never null once built; may hold no equations
  std::shared_ptr<const JointFrictionModel> jointFrictions;  // null when built in code without them
  std::shared_ptr<const SensorEvaluateModel> sensorEvaluates;  // never null once built; may hold no evaluates
  std::shared_ptr<const ControlModel> controls;  // never null once built; may hold no systems
  std::shared_ptr<const PlantModel> plants;      // never null once built; may hold no ports
  std::vector<ElementCount> elementCounts;  // for the run log, in deck order of first appearance

  const Marker* marker(long markerId) const; // nullptr when absent
  // "ground" (body < 0) or "Body_Rigid id=N" ("Body_Point id=N"), for messages.
  std::string bodyName(int body) const;
};

}  // namespace lodestone
