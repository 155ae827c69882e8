// The equations IDAS integrates, F(t, y, y') = 0, and their iteration matrix. The residual reads as an outline —
// kinematics, then forces, then the assembly of each body's equations — and times each stage for the run log.
// Nothing here allocates after construction: the residual runs thousands of times per simulated second.
#pragma once

#include <span>
#include <vector>

#include <array>
#include <deque>
#include <memory>

#include "elements/body_rigid.h"
#include "elements/contact_evaluator.h"
#include "elements/contact_step_limit.h"
#include "constraint_system.h"
#include "differential_equations.h"
#include "elements/force_elements.h"
#include "elements/post_request.h"
#include "elements/sensor_event.h"
#include "jacobian_assembly.h"
#include "plugins/element_subroutine.h"
#include "solver/core/parallel_loop.h"
#include "solver/core/model.h"
#include "solver/output/body_results_writer.h"
#include "solver/output/energy_results_writer.h"
#include "solver/output/run_statistics.h"
#include "state_layout.h"

namespace lodestone {

class JointFrictionEvaluator;  // elements/force_joint_friction_law.h

class MultibodySystem {
 public:
  // `model` and `times` must outlive the system. Which joint equations are independent is decided at
  // `bodyStates` (13 per body, as in the state; empty: the model's initial state).
  MultibodySystem(const Model& model, PhaseTimes& times, std::span<const double> bodyStates = {});

  const Model& model() const { return model_; }
  const StateLayout& layout() const { return layout_; }
  const JacobianPattern& jacobianPattern() const { return pattern_; }

  // The model's initial state (Body_Rigid initial pose and velocities; joint multipliers zero).
  void initialState(std::span<double> y) const;
  // "Body_Rigid id=3 (…), CG position x" or "Constraint_Joint id=4 (…), reaction multiplier of x translation".
  std::string describeVariable(int index) const;

  // ---- static equilibrium (multibody_statics.cpp) -------------------------------------------------------------
  struct StaticReport {
    int iterations = 0;
    double imbalance = 0;       // largest force or torque left on a body
    double constraintError = 0; // largest |Φ| left
    std::optional<std::string> failure;
  };
  // Moves the bodies in y (velocities set to zero) to where every body's loads balance, with the joints'
  // reactions in y's multipliers: Levenberg–Marquardt on the loads and the joints' equations, to the limits of
  // the model's Param_Static (StaticSettings).
  StaticReport solveStatics(double time, std::span<double> y);

  // ---- joints -------------------------------------------------------------------------------------------------
  const ConstraintSystem& constraints() const { return constraints_; }
  bool hasConstraints() const { return !constraints_.empty(); }
  // Whether an element loads many bodies at once (the soft magnets): each of its iteration matrices differences the
  // states of all the bodies it reads, each a solve of the whole element, so a matrix costs many residuals.
  bool hasManyBodyElements() const;
  // Moves the bodies in y onto their joints and writes the consistent derivative (see ConstraintSystem::assemble).
  // `firstStart`: the run's first (motions start from ic_disp, ic_vel).
  AssemblyReport assemble(double time, bool firstStart, std::span<double> y, std::span<double> yp);
  // After every accepted step (the turns of SCREW and RACK_PINION angles are counted from there).
  void acceptState(const double* y);
  // Every joint's and motion's reaction at state y.
  void jointReactions(double time, std::span<const double> y, std::vector<JointReaction>& reactions);
  // What requests.csv reports for state y at `time`, with the accelerations of y' and the joints' and motions'
  // reactions `joints` there (jointReactions).
  void sampleRequests(double time, std::span<const double> y, std::span<const double> yp,
                      std::span<const JointReaction> joints, std::vector<RequestSample>& samples);
  // Moves an interpolated output state onto the joints and gives it the accelerations and reactions the joints
  // allow there (see ConstraintSystem::projectOutput and consistentOutput): y's multipliers and yp's rates.
  void projectOutput(double time, std::span<double> y, std::span<double> yp);
  // Largest violation of a joint's position equations at state y.
  double largestConstraintError(double time, std::span<const double> y) {
    return constraints_.largestPositionError(time, y);
  }

  // r = F(t, y, y'). Returns false when a residual is not finite; the body is then lastNonFiniteBody().
  bool residual(double time, const double* y, const double* yp, double* r);

  // The iteration matrix ∂F/∂y + cj·∂F/∂y' at (t, y, y') in two calls: prepareJacobian computes every block and
  // adds to the pattern the coupling blocks that contacts between moving bodies need; once the assembler has
  // begun a matrix on that pattern, writeJacobian writes the blocks. `cj`, the one writeJacobian will get, lets far
  // magnet pairs too weak to matter at this step stay out (farMagnetPairCoupling); 0 differences every element.
  void prepareJacobian(double time, const double* y, const double* yp, double cj = 0);
  void writeJacobian(double cj, JacobianAssembler& assembler);
  // Over the run's Jacobians: far magnet pairs left to the residual, and magnet pairs differenced.
  long farMagnetPairsLeftOut() const { return farMagnetPairsLeftOut_; }
  long manyBodyBlocksLeftOut() const { return manyBodyBlocksLeftOut_; }
  long couplingBlocksRetired() const { return couplingBlocksRetired_; }  // set aside by retireIdleCouplings
  long manyBodyBlocksWritten() const { return manyBodyBlocksWritten_; }
  long magnetPairsDifferenced() const { return magnetPairsDifferenced_; }
  // out += scale · ∂F/∂y' · v, body by body (see addBodyRateProduct): ∂F/∂y' does not change during a run, and GMRES
  // takes a product with it whenever cj has moved since the iteration matrix was formed. (Joints, whose rows have
  // none, take a factorisation, not GMRES.)
  void multiplyAddRateJacobian(double scale, const double* v, double* out) const;
  // The threads spread over (`loop` must outlive the system; one by default): contact detection, forces and energy,
  // the step limit, the bodies' kinematics and residual rows, prepareJacobian's contact pairs, the iteration matrix's
  // blocks, and the integrator's Krylov block products.
  void setParallelLoop(const ParallelLoop& loop) {
    parallel_ = &loop;
    contacts_.setParallelLoop(loop);
    stepLimit_.setParallelLoop(loop);
  }
  const ParallelLoop& parallelLoop() const { return *parallel_; }

  // ---- contact and sensor events ----------------------------------------------------------------------------
  // Root functions IDAS watches, evaluated at (y, y'): the sensors located by zero crossing.
  int rootCount() const { return sensors_.rootCount(); }
  void rootFunctions(double time, const double* y, const double* yp, double* g);
  // The direction of each root function's events: −1 falling (LT sensors), +1 rising (GE), 0 either (EQ).
  void rootDirections(int* directions) const;
  // Contact onsets and separations located by zero crossing (ContactEvaluator::Crossing): the pairs whose status
  // the state y contradicts, and the distance of one of them at state y (only its two bodies placed).
  bool locatesContactCrossings() const { return contacts_.locatesCrossings(); }
  void contactCrossings(const double* y, std::vector<ContactEvaluator::Crossing>& found);
  double contactCrossingDistance(const ContactEvaluator::Crossing& crossing, const double* y) const;
  std::pair<int, int> contactCrossingBodies(const ContactEvaluator::Crossing& crossing) const {
    return contacts_.crossingBodies(crossing);
  }
  // The sensors, and the value of sensor `index`'s expression at (y, y').
  const SensorEvaluator& sensors() const { return sensors_; }
  double sensorValue(int index, double time, const double* y, const double* yp);
  // Sensor `index` fired at (y, y'): its Sensor_Evaluate, if it names one, evaluates there and stores the value
  // SENVAL reads from now on. Whether the stored value changed (what reads it then jumps).
  bool storeSensorEvaluate(int index, double time, const double* y, const double* yp);
  // The values SENVAL reads (per Model::sensorEvaluates).
  const SensorEvaluateValues& sensorEvaluateValues() const { return sensorEvaluateValues_; }
  // The values a replaced system's firings stored, carried over (a command cannot add or remove Sensor_Evaluates).
  void carrySensorEvaluateValues(const SensorEvaluateValues& stored) {
    if (stored.values.size() == sensorEvaluateValues_.values.size()) sensorEvaluateValues_.values = stored.values;
  }
  // Crossings located at state y: their pairs change status. Returns how smooth their forces are through it
  // (ContactEvaluator::applyCrossings).
  int applyContactCrossings(double time, const double* y, std::span<const ContactEvaluator::Crossing> crossings,
                            std::vector<ContactEvent>& events);
  // An accepted step reached state y: pairs whose status changed without a root take their actual status.
  void acceptContactStep(double time, const double* y, std::vector<ContactEvent>& events);
  // How the contact Jacobian takes friction's slope along the slip: the chord's from zero slip (the default; why: see
  // frictionForce in contact_evaluator.cpp) or the law's own.
  void setJacobianFrictionSlope(ContactEvaluator::FrictionSlope slope) { contacts_.setJacobianFrictionSlope(slope); }
  // Around the outputs between two steps: the contacts detected at the accepted step are kept aside meanwhile
  // (ContactEvaluator::setDetectionAside), so the impact recorder's look at that step after them is free.
  void setContactDetectionAside() { contacts_.setDetectionAside(); }
  void takeContactDetectionBack() { contacts_.takeDetectionBack(); }
  // What contacts.csv reports for state y at `time` (the pairs within reach); also runs CONTACTPOST there.
  void sampleContacts(double time, std::span<const double> y, std::vector<PairReport>& reports);
  // DebugOutput's view: the pairs close or touching at state y, without CONTACTPOST.
  void closeContacts(double time, std::span<const double> y, std::vector<PairReport>& reports);
  // The pairs in contact at the accepted state y (after applyContactCrossings or acceptContactStep there), and the
  // bodies' kinematics there: what the impact recorder follows from step to step.
  std::span<const BodyKinematics> touchingContacts(double time, std::span<const double> y,
                                                   std::vector<PairReport>& reports);
  // The contact that pushes hardest on body `body` at state y (what a failure most likely tripped on).
  std::optional<ContactEvaluator::Culprit> hardestContactOn(int body, double time, std::span<const double> y);
  // The touching contact with the shortest natural period at state y (what holds the steps short).
  std::optional<ContactEvaluator::Culprit> fastestContact(double time, std::span<const double> y);

  // ---- tunnelling guard -------------------------------------------------------------------------------------
  // At an accepted state (y, y'): how long the next step may be, and any pair found crossed (see
  // ContactStepLimit::measure). Empty when the model has no contacts.
  bool guardsContacts() const { return !stepLimit_.empty(); }
  const ContactStepLimit& measureContactSteps(const double* y, const double* yp, double lookAhead);
  // The pairs that overlap at state y, deepest first.
  std::vector<Interference> contactInterference(const double* y);

  // ---- user subroutines -------------------------------------------------------------------------------------
  // The set-up calls (iflag) at the start of a simulation, and CONTACTPOST's last call at the end of the run.
  void startSubroutines(double time, std::span<const double> y);
  void finishSubroutines(double time, std::span<const double> y);
  // The contacts' messages, then those of the force elements' and variables' subroutines (no element: their text
  // names it).
  std::vector<SubroutineMessage> takeSubroutineMessages();
  std::vector<SlipChange> takeSlipChanges() { return contacts_.takeSlipChanges(); }
  void countSubroutineCalls(bool on) { contacts_.countSubroutineCalls(on); }
  std::vector<ContactEvaluator::SubroutineCost> takeSubroutineCosts() { return contacts_.takeSubroutineCosts(); }
  // The first of the contacts' and the other elements' (plugins/element_subroutine.h).
  const std::optional<std::string>& subroutineStopRequest() const {
    return contacts_.stopRequest() ? contacts_.stopRequest() : elementSubroutineRecord().stopRequest;
  }
  // ContactEvaluator::firstNonFiniteReturn, or the other elements'.
  const std::optional<std::string>& firstNonFiniteSubroutineReturn() const {
    return contacts_.firstNonFiniteReturn() ? contacts_.firstNonFiniteReturn()
                                            : elementSubroutineRecord().firstNonFiniteReturn;
  }
  std::optional<double> subroutineStopTime() const {
    return contacts_.stopRequest() ? contacts_.stopTime() : elementSubroutineRecord().stopTime;
  }

  // ---- energy balance (energy.csv) ---------------------------------------------------------------------------
  // Whether anything but gravity can do work on the bodies or hold energy: contacts, force elements, motions.
  bool hasEnergyFlows() const {
    return !contacts_.empty() || !forces_.empty() || constraints_.hasMotions() || jointFrictions_ != nullptr;
  }
  // The rates of the terms the integrator integrates at (t, y, y'), into `rates` in kIntegratedEnergyTerms' order.
  void energyRates(double time, const double* y, const double* yp, double* rates);
  // The energies held at state y (y' for user subroutines): kinetic, elastic, and gravity's measured from the CG
  // positions `reference`.
  void heldEnergy(double time, std::span<const double> y, std::span<const double> yp,
                  std::span<const Vector3> reference, EnergySample& sample);
  // The CG positions at state y.
  std::vector<Vector3> bodyPositions(std::span<const double> y) const;

  // Index into model().bodies of the body whose residual was not finite in the latest evaluation; -1 if none.
  int lastNonFiniteBody() const { return lastNonFiniteBody_; }
  // The force elements, and which of them was last not finite (ForceEvaluator::lastNonFinite).
  const ForceEvaluator& forces() const { return forces_; }
  // The force elements' numerical trouble since the last call (ForceEvaluator::takeMessages).
  std::vector<ForceMessage> takeForceMessages() { return forces_.takeMessages(); }

  // What bodies.csv reports for state y: Euler parameters normalised, angular velocity turned into ground axes.
  // The accelerations come from y'.
  void sampleBodies(std::span<const double> y, std::span<const double> yp, std::vector<BodySample>& samples) const;

 private:
  void updateKinematics(const double* y);
  void addBodyAccelerations(const double* yp);  // for user subroutines (CNFSUB's gapdotdot)
  // The kinematics at y, with the accelerations of yp where user subroutines read them: what every evaluation of
  // the forces at a state starts from.
  void updateMotion(const double* y, const double* yp);
  void detectContacts();
  // The contacts' loads at the kinematics set, for the expressions that read them (CONTACT) where no residual is
  // evaluated: sensors' root functions and values, requests.
  void measureContacts(double time);
  // Every force element's loads at its markers at the kinematics set, and the joints' and motions' `joints`, into
  // markerLoads_: what MARKER_FORCE, JOINT…, SFORCE… and FX… read.
  void collectMarkerLoads(double time, std::span<const JointReaction> joints);
  // The same at state y for the sensors that read them (the joints' reactions from y's multipliers).
  void measureLoadsForSensors(double time, const double* y);
  // Every load on the bodies at state y; the joints' reactions only with `withJoints`.
  void evaluateForces(double time, const double* y, bool withJoints = true);
  // Force_JointFriction's loads at state y, from the joints' reactions in y's multipliers (after evaluateForces and
  // constraints_.evaluate at y).
  void addJointFrictionLoads(const double* y, bool atOutput = false);
  // Each friction's joint's reaction at state y (after constraints_.evaluate at y), into frictionReactions_.
  void readFrictionReactions(const double* y);
  // Finite-difference derivatives of every active contact pair's loads with respect to its bodies' states.
  void differentiateContacts(const double* y);
  // One active pair's loads differentiated with respect to each state of each of its moving bodies (columns: body
  // I's, then body J's; −1 for ground or when J is I). Rows: force on I, torque on I, force on J, torque on J (ground).
  using LoadDerivatives = Eigen::Matrix<double, 12, body_state::kSize>;
  struct PairDifferences {
    std::array<int, 2> columns{-1, -1};
    std::array<LoadDerivatives, 2> derivatives;
  };
  void differencePair(const ContactEvaluator::ActivePair& pair, ContactEvaluator::DifferencingScratch& scratch,
                      PairDifferences& differences);
  // A body's angular velocity columns from its linear velocity columns, for a pair that feels its bodies' velocities
  // only at `point` (ContactEvaluator::onlyVelocityPoint).
  static void deriveAngularFromLinearVelocity(const Vector3& point, const BodyKinematics& body,
                                              LoadDerivatives& derivatives);
  // Body J's columns but for its Euler parameters', from body I's (why they follow: the definition).
  static void deriveFromBodyI(const BodyKinematics& bodyI, const BodyKinematics& bodyJ,
                              std::array<LoadDerivatives, 2>& derivatives);
  // Each body's kinematics with each of its 13 states moved by its difference step (the accelerations as they are),
  // and the steps: the columns every pair of the body differences over, worked out once per Jacobian rather than
  // once per pair (a sphere in a pile has several). Filled for the bodies of the active pairs.
  struct PerturbedBody {
    std::array<BodyKinematics, body_state::kSize> kinematics;
    std::array<double, body_state::kSize> increments;
  };
  void perturbBodiesOfPairs(const std::vector<ContactEvaluator::ActivePair>& pairs, const double* y);
  // A body's Euler parameter columns from its angular velocity columns, for a pair whose graphic on the body turns in
  // place (ContactEvaluator::turnsInPlace).
  static void deriveEulerFromAngularVelocity(const PerturbedBody& perturbed, const BodyKinematics& body,
                                             LoadDerivatives& derivatives);
  // Subtracts every active pair's differences (pairDifferences_) from the blocks of its bodies' load rows.
  void writePairDifferences(const std::vector<ContactEvaluator::ActivePair>& pairs);
  // One pair's differences in the load rows of one of its bodies (`row`; the loads on its body I or J, `on` 0 or 1),
  // with respect to the states of body `columns[side]`: into the 6 × 13 block at `values` (column stride `stride`).
  struct PairWrite {
    int row, pair, side, on;
    double* values;
    Eigen::Index stride;
  };
  // Only the six load equations (momentum and angular momentum) of one body depend on another body's state.
  using LoadRows = Eigen::Matrix<double, 6, body_state::kSize>;
  // Where contact and force derivatives of body `rowBody`'s load equations (rows 7..12) with respect to body
  // `columnBody`'s state go: rows kVelocity.. of the returned block's view. A block written only because it is in
  // the pattern already (not `needed`: the residual could take it) does not keep it there (retireIdleCouplings).
  Eigen::Ref<Eigen::Matrix<double, 6, body_state::kSize>> couplingBlock(int rowBody, int columnBody,
                                                                        bool needed = true);
  // Sets aside from the pattern the couplings not needed by the latest kIdleJacobians Jacobians, once they hold
  // kIdleShareToRetire of its non-zeros: the sparse factorisation then works on the couplings that matter now, not
  // on every one there ever was. (Without it, the magnetic crane's factorisations grew 0.7 ms -> 264 ms as its soft
  // cubes' mutual blocks filled the pattern at the leap, and stayed so when they had weakened.)
  void retireIdleCouplings();
  // Zeroes the turning rows of point bodies' own blocks and couplings, once every element has written its derivatives.
  void dropPointBodyTurnRows();
  // Finite-difference derivatives of every force element's loads with respect to the states of the bodies it reads
  // (after differentiateContacts, whose blocks these add to).
  void differentiateForces(double time, const double* y, double cj);
  // Per force element, whether it is a far magnet pair the Jacobian at this cj leaves to the residual: the pairs whose
  // couplings (farMagnetPairCoupling) add up to at most kWeakCouplingShare of cj² on each body they load.
  // `budget`: what is left of each body's share after them, for writeManyBodyBlocks.
  std::vector<bool> farMagnetPairsToLeaveOut(double time, double cj, std::vector<double>& budget);
  // The blocks of an element over many bodies (the induced magnets: `blocks` by loaded body, then read body, as its
  // connection lists them) into the iteration matrix, but those between two bodies not `alwaysWritten` that the row
  // body's budget can leave to the residual.
  void writeManyBodyBlocks(const ForceConnection& connection, std::vector<LoadRows>& blocks,
                           const std::vector<int>& alwaysWritten, double cj, std::vector<double>& budget);
  static std::vector<int> permanentMagnetBodies(const ForceElement& element);
  // How strongly a block couples its column body into body `row`, as an acceleration per unit move (1/s²), comparable
  // with cj² (farMagnetPairCoupling's measure, taken from the differenced block itself).
  struct RowScale {
    double mass, inertia, radius;  // the body's; its least principal inertia and radius of gyration (0: massless)
  };
  RowScale rowScale(int row) const;
  static double blockCoupling(const RowScale& scale, const LoadRows& block, double cj);
  bool hasActiveCouplingBlock(int rowBody, int columnBody) const;
  // Adds −(moved − base)/increment of an element's loads to the rows of its bodies (−1: none) in the column of
  // state `k` of body `column`: the loads enter the body residual with a minus sign, torques in body axes.
  void subtractLoadDifference(int bodyI, int bodyJ, int column, int k, double increment, const TwoBodyLoads& base,
                              const TwoBodyLoads& moved);
  // A body's load rows (`rows`: its 6 × 13 block, or one column of it) −= the derivatives of the force and torque on
  // body `row`; the torque's rows in body axes.
  template <typename Rows, typename Force, typename Torque>
  void subtractLoadDerivatives(Rows&& rows, int row, const Force& force, const Torque& torque) const;
  void assembleBodyEquations(const double* y, const double* yp, double* r);

  const Model& model_;
  PhaseTimes& times_;
  long farMagnetPairsLeftOut_ = 0, magnetPairsDifferenced_ = 0;
  long manyBodyBlocksLeftOut_ = 0, manyBodyBlocksWritten_ = 0;  // new off-diagonal blocks of writeManyBodyBlocks
  long couplingBlocksRetired_ = 0;
  long jacobianCount_ = 0;  // prepareJacobian calls
  static constexpr long kIdleJacobians = 3;
  static constexpr double kIdleShareToRetire = 0.25;
  ConstraintSystem constraints_;  // before layout_: it decides how many multipliers the state has
  StateLayout layout_;
  DifferentialEquations differentials_;  // Control_Diff: after layout_, whose last states are theirs
  JacobianPattern pattern_;
  std::vector<int> bodyBlocks_;  // each body's own block in pattern_
  std::vector<BodyKinematics> kinematics_;
  std::vector<BodyLoad> loads_;
  ContactEvaluator contacts_;
  ContactStepLimit stepLimit_;
  SensorEvaluator sensors_;
  SensorEvaluateValues sensorEvaluateValues_;  // what SENVAL reads; set on every evaluator's context
  ForceEvaluator forces_;
  std::shared_ptr<JointFrictionEvaluator> jointFrictions_;  // Force_JointFriction; null without any
  bool solvingStatics_ = false;  // within solveStatics, which leaves joint friction out
  std::vector<int> frictionJoints_;  // per friction, its joint's index in ConstraintSystem::reactions; -1 if inactive
  std::vector<JointReaction> frictionReactions_;  // per friction, its joint's reaction at the latest state (zero: -1)
  RequestEvaluator requests_;
  std::vector<MarkerPairLoad> markerLoads_;  // for requests, at the latest output, and for sensors
  std::vector<FrictionMeasures> frictionMeasures_;  // what FRICTION() reads, kept with markerLoads_
  std::vector<JointReaction> sensorJointReactions_;
  // Contact and force derivatives of the latest prepareJacobian: on each body's own block, and between pairs of bodies
  // (pattern block index and values, found by row body and column body through couplingsOfRow_).
  std::vector<BodyBlock> contactBlocks_;
  std::vector<bool> hasContactBlock_;
  struct Coupling {
    int patternBlock;
    LoadRows values;
    bool used;             // written by the latest prepareJacobian (set aside or not: pattern_.isActive)
    long lastNeeded = 0;   // the latest jacobianCount_ that needed it
  };
  // A deque, so that the blocks' addresses stay valid while new couplings join (writePairDifferences keeps them).
  std::deque<Coupling> couplings_;
  // Per row body: its couplings, as (column body, index into couplings_); a body touches a few others.
  std::vector<std::vector<std::pair<int, int>>> couplingsOfRow_;
  bool hasPointBodies_ = false;  // a Body_Point among the bodies: its couplings' turning rows are dropped
  std::vector<PairDifferences> pairDifferences_;  // one per active pair, for differentiateContacts
  std::vector<PerturbedBody> perturbedBodies_;     // by body, for differentiateContacts
  std::vector<char> perturbsBody_;                 // whether perturbedBodies_[b] is filled for this Jacobian
  // Pairs differenced per task: a pair costs 27 evaluations of its law (and 14 collisions), a few microseconds for
  // spheres, so tasks of a few pairs keep TBB's overhead small against the work.
  static constexpr int kPairsPerTask = 8;
  // Bodies perturbed per task: 13 kinematics each, about a microsecond.
  static constexpr int kPerturbedBodiesPerTask = 16;
  std::vector<PairWrite> pairWrites_;  // in pair order
  std::vector<PairWrite> rowWrites_;   // by row body, in pair order within each: body b's from rowWriteStarts_[b]
  std::vector<int> rowWriteStarts_, rowWriteEnds_;
  // Bodies whose load rows take their pairs' differences per task: a body in a pile has a few pairs, each a
  // microsecond or so of writing.
  static constexpr int kRowBodiesPerTask = 16;
  // Bodies whose kinematics or residual rows are found per task (tens of nanoseconds each).
  static constexpr int kBodiesPerTask = 128;
  // Bodies whose iteration-matrix blocks are written per task (about 0.2 µs each), and coupling blocks.
  static constexpr int kBodyBlocksPerTask = 32;
  static constexpr int kCouplingsPerTask = 64;
  const ParallelLoop* parallel_ = &serialLoop_;
  ParallelLoop serialLoop_{1};
  const double* jacobianState_ = nullptr;  // y of the latest prepareJacobian, read by writeJacobian
  int lastNonFiniteBody_ = -1;
};

}  // namespace lodestone
