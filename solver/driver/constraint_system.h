// Joints in the DAE, in the stabilised index-2 form of Gear, Gupta and Leimkuhler (GGL). With q the bodies'
// positions and Euler parameters, u their CG velocities and angular velocities, Φ(q) = 0 the joints' equations and
// G(q) their velocity Jacobian (dΦ/dt = G u), the equations are
//     q' = T(q)(u − Gᵀμ)      (T maps velocities to position rates: p' = v, e' = ½Q(e)ω)
//     M u' = f + Gᵀλ          (λ: the reactions; Gᵀλ is the force and torque the joints apply)
//     G(q) u = 0              (velocity level)
//     Φ(q) = 0                (position level)
// λ and μ are algebraic variables, excluded from IDAS's error test. μ is zero on the exact solution (since
// Φ' = G T⁻¹q' = G(u − Gᵀμ) and both Φ and G u vanish); it lets the position and velocity constraints both hold at
// every step, so nothing drifts. Each joint's multipliers sit together after the bodies' 13 states: λ of its
// active equations, then μ; its residual rows in the same places hold G u (λ's rows) and Φ (μ's rows).
//
// Before integrating, assemble() moves the bodies onto Φ = 0 and G u = 0 by the smallest changes (Gauss-Newton
// with minimum-norm steps) and computes the consistent accelerations and reactions, which IDACalcIC cannot do for
// an index-2 system. Equations that repeat others (a planar four-bar's out-of-plane equations) are found from the
// rank of G when the system is built, reported, and left out: the others hold them too.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

#include "elements/body_rigid.h"
#include "elements/constraint_joint.h"
#include "elements/expression_context.h"
#include "elements/joint_equations.h"
#include "solver/core/model.h"
#include "solver/output/result_tables.h"

namespace lodestone {

class JacobianPattern;
class JacobianAssembler;

// What assemble() did.
struct AssemblyReport {
  struct Moved {
    int body = 0;              // index into Model::bodies
    double translation = 0;    // how far its CG moved
    double rotation = 0;       // by how much it turned, radians
    double velocityChange = 0;          // |Δv|
    double angularVelocityChange = 0;   // |Δω|
  };
  std::vector<Moved> moved;  // bodies that moved, largest change first
  int iterations = 0;
  double largestError = 0;   // max |Φ| left
  std::optional<std::string> failure;  // "Constraint_Joint id=3 (deck.xml:40:5) cannot be assembled: …"
};

class ConstraintSystem {
 public:
  // Which equations are independent is decided at `bodyStates` (13 per body; empty: the model's initial state).
  ConstraintSystem(const Model& model, std::span<const double> bodyStates);

  bool empty() const { return joints_.empty(); }
  bool hasMotions() const { return hasMotions_; }
  int multiplierCount() const { return multiplierCount_; }
  // The states Motion_Joint adds (s, and w for val_type A), after the multipliers.
  int motionStateCount() const { return motionStateCount_; }
  // Multipliers start after the bodies' states.
  int firstMultiplier() const { return firstMultiplier_; }
  // Equations left out as redundant, as run-log lines ("Constraint_Joint id=4 (…): z_I·x_J (rotation) repeats
  // other equations and is left out").
  const std::vector<std::string>& redundancyNotes() const { return redundancyNotes_; }
  // "Constraint_Joint id=3 (deck.xml:12:3), multiplier λ of x translation", for the variable at `index`, or
  // empty when `index` is not a multiplier.
  std::string describeVariable(int index) const;
  // The joint owning multiplier `index`, or nullptr.
  const Joint* jointOfVariable(int index) const;

  // ---- the residual -----------------------------------------------------------------------------------------
  // Evaluates every active equation at the bodies' kinematics and the motions' targets at `time` (y holds the
  // motions' own states).
  void evaluate(std::span<const BodyKinematics> bodies, double time, const double* y);
  // Adds the reactions Gᵀλ to the bodies' loads (after evaluate).
  void addLoads(const double* y, std::vector<BodyLoad>& loads) const;
  // The kinematic rows' Gᵀμ terms, the constraint rows and the motions' state rows (after evaluate). y, yp, r:
  // the whole state, its derivative and the residual.
  void addResidual(const double* y, const double* yp, std::span<const BodyKinematics> bodies, double* r) const;
  // At an accepted state: the angles that turn (SCREW, RACK_PINION) count their turns from here.
  void acceptState(std::span<const BodyKinematics> bodies);

  // ---- the Jacobian -----------------------------------------------------------------------------------------
  // Blocks: for every joint and each of its moving bodies, (body rows × joint columns) and (joint rows × body
  // columns). Registers them in `pattern`.
  void addPatternBlocks(JacobianPattern& pattern);
  // Where the derivatives of body `rowBody`'s six load rows with respect to body `columnBody`'s 13 states go.
  using CouplingSink = std::function<Eigen::Ref<Eigen::Matrix<double, 6, body_state::kSize>>(int rowBody, int columnBody)>;
  // Computes the joint blocks at state y (after evaluate at y) and adds the reactions' position derivatives to
  // the bodies' load rows through `coupling`.
  void differentiate(const double* y, std::span<const BodyKinematics> bodies, const CouplingSink& coupling);
  void writeJacobian(double cj, JacobianAssembler& assembler) const;

  // ---- before integrating, and for output -------------------------------------------------------------------
  // Moves the bodies in y onto the constraints at `time`, makes their velocities consistent, and writes the
  // consistent derivative yp, given the bodies' loads (without the joints') at the assembled state from
  // `loadsAt`. At `firstStart` the motions' states start from ic_disp and ic_vel where the deck gives them.
  AssemblyReport assemble(double time, bool firstStart, std::span<double> y, std::span<double> yp,
                          const std::function<void(std::span<const double> y, std::vector<BodyLoad>& loads)>& loadsAt);
  // Φ and the velocity Jacobian G (rows: active equations in order; columns: 6 per body, v and ω in ground) at
  // state y and `time`.
  void stack(double time, std::span<const double> y, Eigen::VectorXd& phi, std::vector<Eigen::Triplet<double>>& g) {
    updateTargets(time, y.data());
    stackJacobian(y, phi, g);
  }
  // The multiplier λ of stacked row `row` in the state.
  int lambdaIndexOfRow(int row) const;
  // The joint and equation of stacked row `row`, for messages.
  std::string describeRow(int row) const;

  // Moves an output state (interpolated between IDAS's steps) onto the joints' position and velocity equations;
  // false when it could not (a singular configuration), leaving y as it was.
  bool projectOutput(double time, std::span<double> y);
  // At an output state y on the joints: the accelerations and reactions they allow under the bodies' loads `loads`
  // (without the joints'), into yp's rates and y's multipliers, as the assembly computes them. IDAS's interpolated
  // multipliers are only as good as its error test on the velocities they drive; these are exact for the state.
  // False, with y and yp left as they were, when the joints are singular there.
  bool consistentOutput(double time, std::span<double> y, std::span<double> yp, const std::vector<BodyLoad>& loads);

  // Largest |Φ| over the active equations at state y and `time`.
  double largestPositionError(double time, std::span<const double> y);
  // Every joint's and motion's reaction at state y (after evaluate at y), in the model's order.
  void reactions(const double* y, std::vector<JointReaction>& out) const;
  // The position in reactions()' order of the active joint `id` of deck element `element`; -1 when none is active.
  int reactionIndexOf(long id, std::string_view element) const;
  // The loads (force…torqueOnJ) of reactions()' entry `index` at state y (after evaluate at y), into `reaction`:
  // one joint's reaction, without building the others' or their names (joint friction reads it per residual).
  void reactionLoads(int index, const double* y, JointReaction& reaction) const;
  // The power of the motions' reactions on the bodies at state y: the work a Motion_Joint does per unit time. (Other
  // joints' reactions do none: G u = 0.)
  double motionPower(std::span<const BodyKinematics> bodies, const double* y) const;

 private:
  // One active equation at the latest evaluate: its value (Φ, less a motion's target) and its velocity rows on the
  // entry's bodies, one column of g per body of ActiveJoint::bodies.
  struct EquationRows {
    double value = 0;
    Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::ColMajor, 6, 6> g;  // at most six bodies: no allocation
  };
  // The markers one measurement is taken between — a joint's two, or one coupled joint's two for a coupler — and
  // the columns of their bodies in ActiveJoint::bodies (-1 for ground).
  struct MarkerPair {
    int markerI = -1, markerJ = -1;
    int bodyI = -1, bodyJ = -1;
    int columnI = -1, columnJ = -1;
  };

  // What a motion whose f reads bodies' positions subtracts from its equation at one state: f, and ∂f/∂x with a
  // column per body of motion->bodiesRead (in the velocity rows' coordinates: its CG's translation, turns about
  // ground's axes).
  struct StateMotionTerms {
    double value = 0;
    Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::ColMajor, 6, 4> gradient;  // at most four bodies read
  };

  struct ActiveJoint {
    const Joint* joint = nullptr;
    std::vector<int> equations;  // indices into joint->equations that are in the DAE
    int offset = 0;              // first multiplier (λ of equations[0]); μ follow the λ
    std::vector<int> bodies;     // the moving bodies the equations involve: two for a joint, up to six for a coupler
    std::vector<int> pointColumns;  // the columns of `bodies` that are point bodies (Body_Point), found once
    std::vector<MarkerPair> pairs;  // a joint's markers; a coupler's coupled joints' markers
    // Per moving body: the pattern blocks (body rows × joint columns, joint rows × body columns) and their values at
    // the latest differentiate, (13 × 2m) and (2m × 13), column-major.
    std::vector<int> blockBodyJoint, blockJointBody;
    std::vector<Eigen::MatrixXd> bodyJoint, jointBody;
    // The angles that turn (SCREW, RACK_PINION, a rotational motion or coupled coordinate), counted from their
    // latest accepted values: one per active equation of a joint, one per coupled coordinate of a coupler.
    std::vector<double> referenceAngles;
    JointFrames frames;                 // of pairs[0], at the latest evaluate
    std::vector<EquationRows> values;   // per active equation, at the latest evaluate
    // A motion: its states' first index (-1 for val_type D), its target displacement, velocity and acceleration
    // at the latest evaluate, and its blocks (its rows × its states; its states' own rows).
    int motionState = -1;
    double targetPosition = 0, targetVelocity = 0, targetAcceleration = 0;
    double expressionValue = 0;  // f(t)
    // A motion whose expression reads bodies' positions: the column in `bodies` of each of motion->bodiesRead, and
    // its f and ∂f/∂x at the latest evaluate.
    std::vector<int> readColumns;
    StateMotionTerms motionTerms;
    int blockJointMotion = -1, blockMotionMotion = -1;
  };

  // The motions' targets at `time` from their expressions and states in y; the acceleration targets only
  // `withAcceleration` (the assembly needs them, the residual does not: they cost two more evaluations of f).
  void updateTargets(double time, const double* y, bool withAcceleration = false);
  // The accelerations and the reactions λ the joints allow at state y (on the joints, targets updated with their
  // accelerations, G stacked at y) under `loads`: yp (body rates, motion states' rates) and y's multipliers (μ zero)
  // written. The singular joint's description when G M⁻¹ Gᵀ is singular, with y and yp left as they were.
  std::optional<std::string> solveAccelerations(std::span<double> y, std::span<double> yp,
                                                const Eigen::SparseMatrix<double>& g, const std::vector<BodyLoad>& loads);
  // The motions' states s (and w) from ic_disp (and ic_vel) at the first start, from the joints' displacement
  // (and velocity) otherwise.
  void initialiseMotionStates(bool firstStart, std::span<double> y);

  // A motion's expression f at `time` with the bodies at motionBodies_ (the model's context if it reads the model).
  double motionValue(const JointMotion& motion, double time) const;
  // For a motion whose f reads bodies' positions (bodies at motionBodies_, time at targetTime_): f and ∂f/∂x, by
  // five-point differences per body read over three translations of its CG and three turns about ground's axes.
  StateMotionTerms stateMotionTerms(const JointMotion& motion) const;
  JointFrames framesOf(const Joint& joint, std::span<const BodyKinematics> bodies) const;
  // The frames of markers `markerI` and `markerJ` with their bodies' kinematics given (null: ground).
  JointFrames framesOf(int markerI, int markerJ, const BodyKinematics* bodyI, const BodyKinematics* bodyJ) const;
  // The active equations of `active` with the bodies at `bodies`, but body `replacedBody` (if ≥ 0) at `replacement`:
  // `values`, and the angles measured (per ActiveJoint::referenceAngles) into `angles` when given; the frames of its
  // first marker pair into `firstFrames` when given; a motion reading bodies' positions, its f and ∂f/∂x into
  // `motionTerms` when given. A replaced body that such a motion's f does not read (differentiate's perturbations
  // of the latest evaluate's state) leaves f and ∂f/∂x as evaluate kept them, ActiveJoint::motionTerms.
  void evaluateJoint(const ActiveJoint& active, std::span<const BodyKinematics> bodies, int replacedBody,
                     const BodyKinematics* replacement, std::vector<EquationRows>& values,
                     std::vector<double>* angles = nullptr, JointFrames* firstFrames = nullptr,
                     StateMotionTerms* motionTerms = nullptr) const;
  // evaluateJoint's rows as the equations give them, before a point body's rotation columns are dropped.
  void evaluateJointRows(const ActiveJoint& active, std::span<const BodyKinematics> bodies, int replacedBody,
                         const BodyKinematics* replacement, std::vector<EquationRows>& values,
                         std::vector<double>* angles, JointFrames* firstFrames, StateMotionTerms* motionTerms) const;
  // Equation `index` of `joint` alone at `bodies`, its turning angles counted from the deck's configuration (for
  // the equations left out as repeats).
  double equationValueAt(const Joint& joint, int index, std::span<const BodyKinematics> bodies) const;
  // The full velocity Jacobian (rows: active equations; columns: 6 per body, v and ω in ground) and Φ, at y.
  // Gauss-Newton with minimum-norm steps onto Φ = 0 (after updateTargets); false, with the failure in `report`,
  // when it does not converge in `maxIterations`. Leaves Φ, G and the factorised G Gᵀ of the last iterate.
  bool projectPositions(std::span<double> y, int maxIterations, AssemblyReport& report, Eigen::VectorXd& phi,
                        Eigen::SparseMatrix<double>& g, Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& normal);
  // Stacks G at y and factorises G Gᵀ; false when it is singular.
  bool factoriseNormal(std::span<const double> y, Eigen::VectorXd& phi, Eigen::SparseMatrix<double>& g,
                       Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& normal);
  // G from its stacked triplets (`rows` equations), and the factors of G Gᵀ; false when G Gᵀ is singular.
  bool factoriseStacked(const std::vector<Eigen::Triplet<double>>& triplets, Eigen::Index rows,
                        Eigen::SparseMatrix<double>& g,
                        Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& normal) const;
  // The joint and equation whose pivot vanished when `factors` (of a matrix with a row per stacked equation)
  // failed, for the failure message.
  std::string describeSingularRow(const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& factors) const;
  // The model's size at y: the largest coordinate of a CG or a marker, at least 1 (deck units); joint tolerances
  // are relative to it.
  double lengthScale(std::span<const double> y) const;
  // The velocities in y moved by the smallest change onto G u = V (after factoriseNormal); returns the change
  // (6 per body, ground).
  Eigen::VectorXd projectVelocities(std::span<double> y, const Eigen::SparseMatrix<double>& g,
                                    const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& normal);
  // A motion target (&ActiveJoint::targetVelocity…) per stacked row; zero for joints.
  Eigen::VectorXd stackedTargets(double ActiveJoint::*target) const;
  // (After updateTargets.)
  void stackJacobian(std::span<const double> y, Eigen::VectorXd& phi, std::vector<Eigen::Triplet<double>>& g);
  void decideIndependentEquations(std::span<const double> bodyStates);

  const Model& model_;
  std::vector<ActiveJoint> joints_;
  int firstMultiplier_ = 0;
  int multiplierCount_ = 0;
  int motionStateCount_ = 0;
  bool hasMotions_ = false;
  std::vector<std::string> redundancyNotes_;
  std::vector<std::string> motionConflicts_;
  // The equations left out as repeats (joint, index into its equations), checked after every assembly.
  std::vector<std::pair<const Joint*, int>> leftOut_;  // motions whose equation the joints already hold
  std::vector<BodyKinematics> scratch_;
  // Motions whose expressions read the model: their context, the bodies it reads (a copy, so one can be replaced
  // or moved), and the time of the latest targets, at which evaluateJoint evaluates them.
  mutable ModelExpressionContext motionContext_;
  mutable std::vector<BodyKinematics> motionBodies_;
  double targetTime_ = 0;
};

}  // namespace lodestone
