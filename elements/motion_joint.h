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
// velocity. Expressions may use TIME and functions of it; ours: not marker measures (a motion whose value depends
// on the state it drives is not available).
#pragma once

#include <optional>
#include <string>

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
};

const ElementSchema<MotionJointSpec>& motionJointSchema();
// USERSUB refused; the expression compiles and reads no marker.
void checkMotionJoint(const MotionJointSpec& spec, Diagnostics& diagnostics);
// The expression, compiled (after checkMotionJoint passed).
std::optional<Expression> compileMotionExpression(const MotionJointSpec& spec, Diagnostics& diagnostics);

}  // namespace lodestone
