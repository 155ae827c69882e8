// Motion_Joint: a prescribed motion of a joint's free degree of freedom — the translation of I along z_J
// (motion_type="T", DZ(I,J,J)) or the rotation of x_I about z_J (motion_type="R", AZ(I,J)) — as a function of
// time given as its displacement (val_type="D"), velocity ("V") or acceleration ("A"), with ic_disp and ic_vel
// the initial values the integrals start from. The joint's markers are the motion's; positive is along or
// about z_J.
//
// The motion is one more constraint equation (elements/constraint_joint.h, JointEquationKind::Motion), whose
// target at time t is a displacement P, a velocity V and an acceleration A:
//   D: P = f(t), V = f'(t), A = f''(t)     (derivatives by central differences of f)
//   V: P = s,    V = f(t),  A = f'(t)      with s' = f(t) a state of the DAE
//   A: P = s,    V = w,     A = f(t)       with s' = w, w' = f(t)
// s starts at ic_disp when the deck gives it at the run's first start, otherwise at the joint's displacement
// there (so a command switching val_type from D to V continues smoothly); w likewise at ic_vel or the joint's
// velocity.
//
// type="USERSUB" calls a MOTSUB (C library or Python script; plugins/element_subroutine.h) for f's value, with
// MotionSolve's arguments (id, time, par, npar, iord, iflag); Lodestone asks for iord = 0 and takes f's rates by
// the differences an expression's get, so a MOTSUB and the same expression give the same results bit for bit. Its
// set-up call (iflag = 1) may read ground markers only: a MOTSUB of the model's state is refused.
//
// A displacement motion's expression may also read the model's positions: markers' displacements and angles (DX…,
// AX…, PSI…, YAW…) and Reference_Variables given by such expressions. The equation is then q(x) − f(x, t) = 0 on
// the joint's bodies and on every body f reads (its reaction acts on them all, as any constraint's does), with
// velocity rows G_q − ∂f/∂x and velocity target ∂f/∂t at the state (solver/driver/constraint_system.cpp). What
// cannot make a position equation is refused: velocities, accelerations, contacts' and elements' loads,
// Control_Diff states, VARSUB variables; and V and A motions read TIME only (their target is an integral of f).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "plugins/element_subroutine.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct MotionJointSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  long joint_id = 0;
  std::string motion_type;  // "T" or "R"
  std::string type;         // "EXPRESSION", or "CONSTANT" with the value in q
  std::string val_type;     // "D", "V", "A"
  std::optional<std::string> expr;
  std::optional<double> q;
  std::optional<double> ic_disp, ic_vel;
  bool active = true;
  SubroutineAttributeValues subroutine;  // type="USERSUB": MOTSUB
};

const ElementSchema<MotionJointSpec>& motionJointSchema();
// USERSUB names its MOTSUB's library or script; the expression compiles and reads no contact.
void checkMotionJoint(const MotionJointSpec& spec, Diagnostics& diagnostics);
// The expression, compiled (after checkMotionJoint passed); with `model` (being built) its PINVAL and POUVAL bound.
std::optional<Expression> compileMotionExpression(const MotionJointSpec& spec, const Model* model,
                                                  Diagnostics& diagnostics);

// What a motion's expression reads of the model, found when the model is built.
struct MotionReads {
  std::vector<int> bodies;  // the moving bodies whose positions it reads (indices into Model::bodies)
  bool time = false;        // TIME, itself or through a variable
  bool model = false;       // any marker or variable at all (then evaluated on the model, not on TIME alone)
};
// The reads of `expression` (spec's, compiled) on `model`, whose markers and variables are built; nothing after
// reporting a read a motion cannot follow (see above), at the motion's line.
std::optional<MotionReads> findMotionReads(const Expression& expression, const MotionJointSpec& spec,
                                           const Model& model, Diagnostics& diagnostics);

// What a motion reading the state of `bodies` (its expression's or its MOTSUB's reads; `velocity`: it reads
// velocities) cannot follow, said as the rest of a message ("reads velocities; …"); nothing when it can.
std::optional<std::string> stateReadProblem(const std::vector<int>& bodies, bool velocity,
                                            const MotionJointSpec& spec, const Model& model);

// type="USERSUB": the MOTSUB loaded and set up (iflag = 1, at the model's initial state); nothing after reporting
// why on the motion's line (the loader's messages, a set-up STOP, a read of a variable, of velocities of a moving
// body, or of a moving body with val_type V or A). The moving bodies whose markers its set-up call read are the
// motion's bodiesRead (constraint_joint.cpp), as an expression's; a later call that reads more stops the run.
std::shared_ptr<const ElementSubroutine> buildMotionSubroutine(const MotionJointSpec& spec, const Model& model,
                                                               Diagnostics& diagnostics);

}  // namespace lodestone
