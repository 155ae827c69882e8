// The laws of a Force_Contact behind one call, whatever kind answers: a built-in law's descriptor, a named law from a
// law library (with state per contact point), or a MotionSolve subroutine (CNFSUB, CFFSUB) in C or Python. The
// contact evaluator asks each point of a patch for its normal and friction force and never branches on the kind; a
// new kind of law is one more class here.
#pragma once

#include <algorithm>
#include <array>
#include <memory>
#include <utility>

#include "collision/contact_point.h"
#include "elements/body_rigid.h"
#include "elements/force_contact.h"
#include "plugins/user_subroutine.h"

namespace lodestone {

// Calls a Force_Contact's subroutines with whatever the call needs around it (the utilities' host, the count of
// calls, the record of a failure): the contact evaluator.
class SubroutineCaller {
 public:
  virtual double callNormalSubroutine(const ForceContact& element, NormalCall call) = 0;
  virtual std::array<double, 3> callFrictionSubroutine(const ForceContact& element, FrictionCall call) = 0;

 protected:
  ~SubroutineCaller() = default;
};

// How many points of a pair have a slip state, and how many of them slipped at the last accepted step and slip now
// (FrictionOutput), counted while the pair's state is advanced.
struct SlipTally {
  int points = 0, slippedBefore = 0, slipsNow = 0;
};

// One graphic pair, as its laws see it during one evaluation.
struct LawPair {
  const ForceContact* element = nullptr;
  double time = 0;
  bool differencing = false;  // the Jacobian is being differenced (subroutines get dflag = 1)
  bool advancing = false;     // an accepted state: laws with state advance it to `time`
  double effectiveMass = 0;   // m_I·m_J/(m_I + m_J), ground infinite
  const BodyKinematics* bodyI = nullptr;  // null: ground
  const BodyKinematics* bodyJ = nullptr;
  Pose markerI, markerJ;      // the graphics' reference markers in ground (subroutines get points in their frames)
  Vector3 displacement = Vector3::Zero();  // how far I has moved on J since the contact began (CFFSUB's x)
  // Laws with state: the state of the pair's points (stateSize() numbers each) and the time since it was stored.
  double* normalStates = nullptr;
  double normalElapsed = 0;
  double* frictionStates = nullptr;
  double frictionElapsed = 0;
  SubroutineCaller* subroutines = nullptr;
  // What a law's expressions read beyond their point (markers, VARVAL): the model at the evaluation's state, the state
  // the contacts were detected at (the Jacobian differences the point, not what is read through these, as it does
  // not see what a CNFSUB's c_sysfnc reads). Null: none (markers at rest at the origin, VARVAL NaN).
  const ExpressionContext* model = nullptr;
  SlipTally* slipTally = nullptr;  // while advancing: where laws with a slip state count their points
  // Built-in laws: this pair's parameter values where they differ from the element's (NormalLaw::valuesForPair);
  // empty: the element's.
  LawValues normalValues, frictionValues;
};

// One point of a patch: its place, its motion, and the patch's depth and area, which every point shares.
struct LawPoint {
  const ContactPoint* contact = nullptr;  // depth, area and normal (from J to I) are the patch's
  int index = 0;                          // among the pair's points (laws with state keep one per point)
  Vector3 at = Vector3::Zero();           // where the force acts, ground
  double penetrationRate = 0;             // δ̇ at this point, > 0 approaching
  Vector3 slip = Vector3::Zero();         // tangential velocity of I relative to J at this point
};

class NormalForceLaw {
 public:
  virtual ~NormalForceLaw() = default;
  // The normal force magnitude of the whole law at this point (the point's share is applied by the caller).
  virtual double force(const LawPair& pair, const LawPoint& point) const = 0;
  // Numbers of state per contact point (0: none).
  virtual int stateSize() const { return 0; }
  // True when the force at zero rate is a function of the point's depth alone, so that it holds energy (the energy
  // balance's strain). A law that also reads the time or the model (an expression of TIME, VARVAL or a marker)
  // changes at a fixed depth: it holds none, and the balance counts its whole power as dissipated.
  virtual bool holdsEnergy() const { return true; }
  // True when force() may be called outside the integration (a probe of the law's stiffness) without effect.
  virtual bool canProbe() const { return true; }
  // True when force() calls code of the user's (a named law's library, a CNFSUB), which need not be reentrant: such
  // laws are evaluated by one thread only.
  virtual bool runsUserCode() const { return false; }
  // How smooth the force is through an onset or a separation (see kSmoothForce); 0, a jump, when not known.
  virtual int smoothnessAt(ContactChange) const { return 0; }
};

// How a friction law's force at a point splits its power −f·v (ContactEnergy): the energy the law holds there, how
// fast the law changes it, and the power of its viscous part; the rest is dissipated by slip.
struct FrictionEnergy {
  double strain = 0;
  double strainRate = 0;
  double dashpotPower = 0;
};

class FrictionForceLaw {
 public:
  virtual ~FrictionForceLaw() = default;
  // The friction force at this point, ground, given the normal force it carries.
  virtual Vector3 force(const LawPair& pair, const LawPoint& point, double normalForce) const = 0;
  // What of its power the law holds or dissipates viscously at this point (a law that holds nothing: all is slip).
  virtual FrictionEnergy energy(const LawPair&, const LawPoint&, double) const { return {}; }
  virtual int stateSize() const { return 0; }
  virtual bool runsUserCode() const { return false; }  // as NormalForceLaw's
  // How smooth the force is through an onset or a separation, given the normal force's smoothness; 0 when not known.
  virtual int smoothnessAt(ContactChange) const { return 0; }
};

struct ContactLaws {
  std::unique_ptr<const NormalForceLaw> normal;
  std::unique_ptr<const FrictionForceLaw> friction;
  // How smooth the pair's whole force, normal and friction, is through an onset or a separation.
  int smoothnessAt(ContactChange change) const {
    return std::min(normal->smoothnessAt(change), friction->smoothnessAt(change));
  }
};

// The contact frame — of a friction law given by expressions (cff_type="EXPRESSION"), and of contacts.csv's and
// CONTACT()'s measures (contactFrame) — has its z along the normal from J to I and its x, y axes t1, t2: t1 is the x
// axis of the J graphic's
// reference marker (`axesJ`, its axes in ground as columns) projected on the tangent plane of `normal` and made unit,
// or its y axis where x lies within kTangentFallback of the normal (the projection shorter than that); t2 = n × t1,
// so that (t1, t2, n) is right-handed. Fixed to J's graphic, the frame turns with it, not with the slip, so the two
// components are smooth functions of the state.
constexpr double kTangentFallback = 1e-3;
std::pair<Vector3, Vector3> contactTangents(const Matrix3& axesJ, const Vector3& normal);
// That frame's axes (t1, t2, n) in ground, as the columns of a rotation.
Matrix3 contactFrame(const Matrix3& axesJ, const Vector3& normal);

// The laws of `element`, of whichever kind it names. `element` must outlive them.
ContactLaws makeContactLaws(const ForceContact& element);

}  // namespace lodestone
