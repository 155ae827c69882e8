// Force_Contact at run time: finds which graphics touch (one broad phase for every element, its pairs kept while
// the graphics move little, then the narrow phase per close pair), turns each contact point into normal and friction
// forces through the element's laws, and keeps each pair's contact status, whose changes (onset and separation) the
// integrator locates in time pair by pair.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "collision/broad_phase.h"
#include "collision/contact_point.h"
#include "elements/body_rigid.h"
#include "elements/contact_laws.h"
#include "elements/contact_pairs.h"
#include "elements/expression_context.h"
#include "elements/force_contact.h"
#include "plugins/named_laws.h"
#include "plugins/usersub/subroutine_host.h"
#include "solver/core/model.h"
#include "solver/core/parallel_loop.h"

namespace lodestone {

// Forces of one graphic pair on its two bodies, in ground; torques about each body's CG.
using PairLoads = TwoBodyLoads;

// What cloud_points.csv reports about one point of a point cloud in a pair within reach, as Simscape senses a
// cloud's contacts: every point, in the cloud's order, in contact or not.
struct CloudPointReport {
  int index = 0;            // in the cloud's list, from 0
  bool inContact = false;
  double penetration = 0;   // ≥ 0
  double separation = 0;    // the point's signed distance to the other graphic: > 0 apart, −penetration in contact
  double normalForce = 0;   // magnitude
  double frictionForce = 0;  // magnitude
};

// What contacts.csv reports about one graphic pair.
struct PairReport {
  const ForceContact* element = nullptr;
  long elementId = 0;
  long iGraphic = 0, jGraphic = 0;
  int bodyI = -1, bodyJ = -1;  // into Model::bodies; -1: ground
  bool inContact = false;
  int points = 0;
  double penetration = 0;      // largest depth, ≥ 0
  double separation = 0;       // gap while apart, 0 in contact
  double penetrationRate = 0;  // at the deepest point
  double slipSpeed = 0;        // at the deepest point
  double normalForce = 0;      // sum of the points' normal force magnitudes
  double frictionForce = 0;    // sum of the points' friction force magnitudes
  Vector3 force = Vector3::Zero();   // total on the I body, ground (field forces included)
  Vector3 torque = Vector3::Zero();  // total on the I body about its CG, ground
  Vector3 point = Vector3::Zero();   // centroid of the contact points, weighted by the part of the force each carries
  Vector3 normal = Vector3::Zero();  // unit, from J to I, at the deepest point
  Vector3 slipVelocity = Vector3::Zero();  // the tangential velocity of I relative to J over the deepest patch, ground
  // Simscape's sensing (report() with Detail::WithSensing), J the base and I the follower: the contact frame at
  // `point`, its z axis `normal` (J's outward normal) and its x, y axes the tangents t1, t2 of contactFrame (t1
  // along the J graphic's marker's x axis projected on the contact plane). While the pair is apart: velocities and
  // points 0, rotations the identity.
  double normalVelocity = 0;                    // z of I's velocity relative to J, over the deepest patch: −δ̇
  std::array<double, 2> tangentialVelocity{};  // its x and y: the slip over the deepest patch in the contact frame
  Vector3 pointInJ = Vector3::Zero();           // `point` in the axes of J's graphic's reference marker, from it
  Vector3 pointInI = Vector3::Zero();           // the same in I's
  Vector4 frameInJ = Vector4(1, 0, 0, 0);       // the contact frame's Euler parameters relative to J's marker
  Vector4 frameInI = Vector4(1, 0, 0, 0);       // and to I's (e0 ≥ 0)
  // The largest normal force and penetration since the previous output (the impact recorder fills them in at an
  // output; a report alone has its own values): a peak between two outputs is not lost.
  double intervalMaxNormalForce = 0;
  double intervalMaxPenetration = 0;
  // A pair with a point cloud: each of its points (cloud_points.csv); empty for other pairs.
  long cloudGraphic = 0;  // the cloud's Post_Graphic id
  std::vector<CloudPointReport> cloudPoints;
};

// The energy balance's terms of contact (energy.csv), summed over pairs and points. A law's normal force f(δ, δ̇) is
// elastic in its part f(δ, 0), which stores ∫₀^δ f(s, 0) ds, and dissipative in the rest; each point's terms are
// weighed by its share of the law's force, as its force is.
struct ContactEnergy {
  bool withStrain = false;  // asked for: the stored energy too (a quadrature of the law per point, for outputs)
  double strain = 0;        // Σ share·∫₀^δ f(s, 0) ds, and what friction laws hold (a shear spring's ½|F|²/k)
  // Σ share·(f(δ, δ̇) − f(δ, 0))·δ̇, dissipated by the normal law (≥ 0 for damping laws), and by friction laws'
  // dashpots
  double dashpotPower = 0;
  double slipPower = 0;     // Σ −f_t·v_slip, dissipated by friction, less the friction laws' held rate and dashpots
  double fieldPower = 0;    // the power of field forces and moments (DIPOLE's magnets) on both bodies
};

// A contact that began or ended.
struct ContactEvent {
  double time = 0;
  const ForceContact* element = nullptr;
  long iGraphic = 0, jGraphic = 0;
  bool onset = true;       // false: separation
  bool located = true;     // found by root finding (true) or noticed after a step (false)
};

// A contact whose friction law has a slip state (LINEAR_SHEAR) began or stopped slipping at an accepted step: PFC's
// slip_change event. A patch slips when all its points do.
struct SlipChange {
  double time = 0;
  const ForceContact* element = nullptr;
  long iGraphic = 0, jGraphic = 0;
  bool began = true;  // false: it stopped slipping
};

// A line a user subroutine (c_errmes) or a utility it called wants in the run log.
struct SubroutineMessage {
  const ForceContact* element = nullptr;
  std::string text;
  bool error = false;
};

// The evaluator is also the host the subroutine utilities ask (c_sysfnc, c_get_contact_post…) while it calls a
// Force_Contact's CNFSUB, CFFSUB or CONTACTPOST.
// It keeps the loads of each element at the state of its latest addLoads() or measure(), which expressions read
// through CONTACT() (ContactMeasures).
class ContactEvaluator : public ContactMeasures, private SubroutineHost, private SubroutineCaller {
 public:
  // `model` must outlive the evaluator.
  explicit ContactEvaluator(const Model& model);

  bool empty() const { return !contacts_ || contacts_->elements.empty(); }

  // The threads detection and the pairs' forces and energy are spread over (`loop` must outlive the evaluator); one
  // by default. Each pair's result has its own place and they are joined in the pairs' order, so results are the
  // same bit for bit whatever the thread count.
  void setParallelLoop(const ParallelLoop& loop) { parallel_ = &loop; }
  // Where DIF and DIF1 in its expressions read the Control_Diff states (ModelExpressionContext).
  void setDifferentialStates(const DifferentialStates* states) { lawModel_.setDifferentialStates(states); }
  // Where SENVAL in its expressions reads the Sensor_Evaluate values (ModelExpressionContext).
  void setSensorEvaluateValues(const SensorEvaluateValues* values) { lawModel_.setSensorEvaluateValues(values); }
  // Work per task on several threads: enough to outweigh a task's start (a microsecond or more) where a sphere pair's
  // narrow phase or law takes tens of nanoseconds. Blocks of detection are fixed in size, so that they join into the
  // same candidates whatever the thread count.
  static constexpr int kPairsPerDetectionBlock = 256;
  // Up to this many kept pairs, detection stays on one thread: on the peers' 100-sphere pile two threads detected
  // in 0.137 s where one took 0.118 s (joining the blocks and waking a thread outweighed the half of the work).
  static constexpr int kSerialDetectionPairs = 4 * kPairsPerDetectionBlock;
  static constexpr int kActivePairsPerTask = 128;

  // Finds the close and touching pairs at the bodies' kinematics (ground graphics never move). Everything below
  // reads what the latest detect() found.
  void detect(std::span<const BodyKinematics> bodies);
  // Sets the latest detection aside while outputs detect at the states between two steps, and takes it back
  // afterwards, so that the accepted step's contacts need not be found again after its outputs. Outputs never
  // change which pairs touch (only accepted states do), so what is taken back is still right.
  void setDetectionAside();
  void takeDetectionBack();
  // How many times detect() found the pairs anew (at poses it had not detected at last).
  long detections() const { return detections_; }

  // Adds the force of every detected pair at `time` to the loads of its bodies (after detect()).
  void addLoads(double time, std::span<const BodyKinematics> bodies, std::span<BodyLoad> loads);
  // Whether each addLoads() also measures what CONTACT() reads beyond the loads and the penetration, as measure()
  // does: for force elements that read contacts, evaluated right after the contacts' loads. Off by default (a
  // residual then does no more than its loads).
  void setMeasuringEveryEvaluation(bool measuring) { measuringEveryEvaluation_ = measuring; }
  // The force of every detected pair at `time`, and what contacts.csv reports of it, which contactLoads() reads from
  // then on: what CONTACT() reads where no residual is evaluated (root functions, outputs).
  void measure(double time, std::span<const BodyKinematics> bodies);
  // ContactMeasures: element `id`'s loads at the latest addLoads() or measure(), summed over its pairs as addLoads()
  // applies them (those of its J body about the J body's CG); its penetration is the deepest of its pairs that exert
  // force, as contacts.csv's penetration has it; after measure() the rest of its measures (ContactLoads), from
  // its pairs' reports, the frame's of its deepest pair touching. The elements' totals are summed at the first call
  // after an evaluation, not by the evaluation itself (a residual read by no CONTACT() does no more than its
  // loads): ask before the next detect() finds new pairs, and from one thread at a time.
  std::optional<ContactLoads> contactLoads(long id) const override;

  // The broad phase's pairs of graphics as the latest detect() kept them (boxes indexed as ContactModel::graphics);
  // the step limit takes its pairs from it too.
  const VerletList& closeGraphics() const { return closeGraphics_; }

  // ---- crossings: onsets and separations located pair by pair (elements with zero crossing on) -------------
  // The integrator locates each on its interpolant between two returned states from the pair's own distance (its two
  // bodies placed, one narrow phase), where IDAS's root functions detected every pair at each evaluation.
  struct Crossing {
    int element, graphicI, graphicJ;
    bool onset;       // the pair begins to touch; false: it separates
    double distance;  // its signed distance where crossings() found it (the new status's sign)
  };
  bool locatesCrossings() const { return locatesCrossings_; }
  // After detect(): the pairs of elements with zero crossing whose distance there disagrees with their status.
  void crossings(std::vector<Crossing>& found) const;
  // The signed distance (gap > 0, −depth < 0, as detect() has it) of a crossing's graphics with their bodies at the
  // given kinematics (null: ground).
  double crossingDistance(const Crossing& crossing, const BodyKinematics* bodyI, const BodyKinematics* bodyJ) const;
  // The bodies (−1: ground) of a crossing's two graphics.
  std::pair<int, int> crossingBodies(const Crossing& crossing) const;
  // At a located crossing (after detect() at that state): the pairs that crossed change status. Returns how smooth
  // the forces of the pairs that changed are through it (the least ContactLaws::smoothnessAt; kSmoothForce when none
  // did).
  int applyCrossings(std::span<const Crossing> crossings, double time, std::vector<ContactEvent>& events);
  // After an accepted step (after detect() at that state): any pair whose status changed unseen — with zero
  // crossing off, or a contact that began and ended within one step — takes its actual status.
  void synchronise(double time, std::vector<ContactEvent>& events);

  // ---- Jacobian support ------------------------------------------------------------------------------------
  // A detected pair that exerts force, and the moving bodies (−1: ground) it joins.
  struct ActivePair {
    int candidate;
    int bodyI, bodyJ;
  };
  const std::vector<ActivePair>& activePairs() const { return detection_.activePairs; }
  // Where pairLoads takes the pair's contact points from. The points depend on the bodies' positions only, so the
  // unperturbed state and every perturbed velocity can use the points detect() found, and only a perturbed
  // position needs a new collision (for a mesh pair the collision is most of the cost).
  enum class Geometry {
    Detected,  // the points of the last detect(): the bodies' positions must be those it saw
    Measure,   // collide at the given kinematics
  };
  // How the Jacobian's evaluations take friction (see frictionForce in contact_evaluator.cpp): with its slope along
  // the slip replaced by the chord's from zero slip (the default), or exactly as the law has it.
  enum class FrictionSlope { Chord, Law };
  void setJacobianFrictionSlope(FrictionSlope slope) { frictionSlope_ = slope; }
  // What pairLoads keeps for the pair being differenced: one per thread, for pairs differenced in parallel (see
  // runsUserCode).
  struct DifferencingScratch {
    std::vector<ContactPoint> points;     // those a Measure finds
    // The detected points' slip speeds at the detected state (see frictionForce); empty where the chord does not
    // apply (a law with state, or FrictionSlope::Law).
    std::vector<double> chordSlipSpeeds;
  };
  // Where a pair of one detected point feels its bodies' velocities: its laws see them through that point's relative
  // velocity, and a CNFSUB also through gapdotdot's centripetal part, which the Jacobian then leaves out (as it never
  // sees what c_sysfnc reads: the detected state). Subroutines are differenced through the same columns as the
  // built-in laws, so a subroutine twin of a built-in law still gives its results bit for bit. None for a patch of
  // several points.
  std::optional<Vector3> onlyVelocityPoint(const ActivePair& pair) const;
  // True when turning the body of the pair's graphic on `side` (0: I, 1: J) about its centre moves nothing the pair
  // feels but the body's angular velocity in ground: the graphic is an exact sphere (no tessellation) centred on its
  // body's centre (its shape and points stay put) and no field law turns with the body (DIPOLE's moments).
  // Subroutines are treated alike, for the twins' sake as in onlyVelocityPoint: their loci, locj and CFFSUB's x would
  // turn, and the Jacobian takes them as they were.
  bool turnsInPlace(const ActivePair& pair, int side) const;
  // Before a pair's pairLoads: what its evaluations share.
  void beginDifferencing(const ActivePair& pair, DifferencingScratch& scratch) const;
  // The loads of active pair `pair` with its bodies at the given kinematics (ground: ignored, may be null), as
  // the Jacobian differences them (user subroutines get dflag = 1; friction as setJacobianFrictionSlope says).
  PairLoads pairLoads(const ActivePair& pair, const BodyKinematics* bodyI, const BodyKinematics* bodyJ,
                      Geometry geometry, DifferencingScratch& scratch);
  // True when a law of some element calls user code (CNFSUB, CFFSUB, a named law's library): its pairs are then
  // evaluated by one thread only. Otherwise pairLoads only reads the evaluator (built-in laws keep no state) and may
  // be called from several threads at once.
  bool runsUserCode() const { return runsUserCode_; }

  // ---- results ----------------------------------------------------------------------------------------------
  // Which pairs report() describes: the pairs within reach — those the broad phase finds close, with their boxes
  // grown by a tenth of each graphic's size and by half a field law's range (DIPOLE's dipole_d) — or only those
  // in contact at the latest accepted state. A pair far apart has nothing to report: a pile of a thousand spheres
  // would otherwise write half a million rows per output.
  enum class Reach { Close, Touching };
  // Whether the reports have Simscape's sensing (the contact frame's place, rotation and relative velocity, for
  // contacts.csv) or only the forces and depths (the impact recorder's look at every accepted step).
  enum class Detail { WithSensing, ForcesOnly };
  void report(double time, std::span<const BodyKinematics> bodies, std::vector<PairReport>& reports, Reach reach,
              Detail detail = Detail::WithSensing);

  // ---- energy balance ---------------------------------------------------------------------------------------
  // The terms of every detected pair at `time` (after detect() at these kinematics). The law is evaluated as while
  // the Jacobian is differenced (user subroutines get dflag = 1), at zero rate for its elastic part.
  ContactEnergy energy(double time, std::span<const BodyKinematics> bodies, bool withStrain);

  // ---- diagnosis ----------------------------------------------------------------------------------------------
  // The touching pair that pushes hardest on body `body` at these kinematics, when one does, and the stiffness of
  // its normal law there (dF/dδ, by differences): what a failed or struggling integration most likely tripped on.
  struct Culprit {
    PairReport pair;
    double stiffness = 0;      // dFn/dδ at the pair's deepest point
    double effectiveMass = 0;  // of the two bodies
    // The contact's natural period 2π√(m/k); infinite when the stiffness or the mass is not known.
    double period() const;
  };
  std::optional<Culprit> hardestContactOn(int body, double time, std::span<const BodyKinematics> bodies);
  // The touching pair whose contact vibrates fastest (shortest period) at these kinematics, when any touching pair's
  // stiffness is known: what holds the steps of a run short.
  std::optional<Culprit> fastestContact(double time, std::span<const BodyKinematics> bodies);

  // ---- user subroutines -------------------------------------------------------------------------------------
  bool hasSubroutines() const { return hasSubroutines_; }
  // The set-up call (iflag = 1) of every CNFSUB and CFFSUB, at the start of a simulation.
  void startSubroutines(double time);
  // CONTACTPOST for every pair in contact at an output (after report() or detect() at that state).
  void contactPost(double time, std::span<const BodyKinematics> bodies);
  // The last CONTACTPOST call of each element (endflg = 1, graphic ids 0), at the end of the run.
  void finishContactPost(double time);
  // Messages since the last call, for the run log.
  // (Lines from named laws, through their host's message(), come with them.)
  std::vector<SubroutineMessage> takeMessages();
  // The slip changes since the last call, in the order they happened.
  std::vector<SlipChange> takeSlipChanges() { return std::exchange(slipChanges_, {}); }
  // DebugOutput: count and time every subroutine call; the calls and their cost since the last take.
  struct SubroutineCost {
    const ForceContact* element = nullptr;
    std::string function;
    long calls = 0;
    double seconds = 0;
  };
  void countSubroutineCalls(bool on) { countingCalls_ = on; }
  std::vector<SubroutineCost> takeSubroutineCosts();
  // Set once a subroutine asked to stop (c_errmes with endflg "STOP") or failed: why, naming the element and
  // function, in one line.
  //
  // A subroutine fails when it gives no usable result (a Python exception, a return value of the wrong kind): the
  // call that failed throws SubroutineError after recording the failure here and its details in the messages.
  // Inside IDAS's callbacks Integrator::guarded turns it into an unrecoverable error, so IDAS gives up at once;
  // the driver, which calls startSubroutines(), report() and contactPost() itself, catches it, and in both cases
  // ends the run with this reason (exit 2, results kept).
  const std::optional<std::string>& stopRequest() const { return stopRequest_; }
  // The time of the call that asked to stop or failed (a trial time past IDAS's last step, often): the run's.
  std::optional<double> stopTime() const { return stopTime_; }
  // The first user subroutine result that was not a number, said as "Force_Contact id=300 (deck.xml:26:5): CNFSUB in
  // law.py returned nan at t=0.0461…": the likely cause when the integration then fails, which the failure names
  // before IDAS's account of it.
  const std::optional<std::string>& firstNonFiniteReturn() const { return firstNonFiniteReturn_; }

 private:
  struct PairKey {
    int element, graphicI, graphicJ;
    bool operator==(const PairKey&) const = default;
  };
  struct PairKeyHash {
    size_t operator()(const PairKey& key) const {
      return (static_cast<size_t>(key.element) * 1000003u + static_cast<size_t>(key.graphicI)) * 1000003u +
             static_cast<size_t>(key.graphicJ);
    }
  };
  struct Candidate {
    int element;
    int graphicI, graphicJ;
    double distance;        // signed: gap > 0, −depth < 0
    int firstPoint, pointCount;
    bool touching;          // its status: in the set of touching pairs
  };

  // Where a touching pair's contact began, on each body (body axes from its CG; ground coordinates for ground):
  // CFFSUB's x is the tangential displacement between these two material points. And the state of named laws
  // that keep one (LuGre's bristles), for each contact point of the pair.
  struct Anchor {
    Vector3 onI = Vector3::Zero(), onJ = Vector3::Zero();
    LawStateHistory normalState, frictionState;
  };
  // Why pairForces is called: for a residual or a report; while the Jacobian is differenced (user subroutines get
  // dflag = 1); or at an accepted step, when the states of named laws advance to it.
  enum class Evaluation { Residual, Differencing, AcceptedStep };

  // One graphic pair at some kinematics, with the contact points collision found there.
  struct PairState {
    int element = 0, graphicI = 0, graphicJ = 0;
    double distance = 0;  // signed: gap > 0, −depth < 0
    std::span<const ContactPoint> points;
    const BodyKinematics* bodyI = nullptr;  // null: ground
    const BodyKinematics* bodyJ = nullptr;
    Pose poseI, poseJ;  // the graphics in ground
    // For the Jacobian's velocity columns: each detected point's slip speed at the detected state, which friction is
    // linearised about (see frictionForce); empty: friction as the law has it.
    std::span<const double> chordSlipSpeeds;
  };
  // The contact points the latest detect() found for a candidate.
  std::span<const ContactPoint> detectedPoints(const Candidate& candidate) const;
  // A candidate of the latest detect(), at the given kinematics of the bodies.
  PairState pairOf(const Candidate& candidate, std::span<const BodyKinematics> bodies) const;
  // The forces of one pair: its laws at each point of its patches, shared out, and its field (DIPOLE). `report`,
  // `post` (one entry per contact point) and `energy` (its terms are added) may be null.
  PairLoads pairForces(const PairState& pair, Evaluation evaluation, PairReport* report,
                       std::vector<ContactPostPoint>* post, ContactEnergy* energy = nullptr);
  // A report of the pair from pairForces completed with Simscape's sensing (PairReport).
  void addSensing(const PairState& pair, PairReport& report) const;
  // What the pair's laws see of it during this evaluation (states of laws that keep one, subroutine frames).
  LawPair lawPairOf(const PairState& pair, Evaluation evaluation);
  // The pair's own law values, where the element's laws make them depend on the two pieces (DIPOLE's emod).
  static void setPairValues(const ForceContact& element, const ContactGraphic& graphicI,
                            const ContactGraphic& graphicJ, LawPair& law);
  // Where point `index` of the pair is and how it moves.
  LawPoint lawPointOf(const PairState& pair, int index) const;
  // The loads of a field law (DIPOLE's magnets) on the pair, when it acts, and their power when `energy` is given.
  void addFieldLoads(const PairState& pair, PairLoads& loads, ContactEnergy* energy) const;
  // The energy balance's terms of one point: its law's elastic part (the law at zero rate), the rest dissipated.
  void addPointEnergy(const ContactLaws& laws, const LawPair& lawPair, const LawPoint& point, double normalForce,
                      const Vector3& friction, ContactEnergy& energy) const;
  // After the touching pairs are brought up to date at an accepted state: the states of named laws advance to it.
  void advanceLawStates();
  Anchor anchorOf(const Candidate& candidate, std::span<const BodyKinematics> bodies) const;
  void markTouching(const Candidate& candidate);
  // SubroutineCaller: calls of the user subroutines, with the evaluator installed as the utilities' host; id and
  // time are filled in here.
  double callNormalSubroutine(const ForceContact& element, NormalCall call) override;
  std::array<double, 3> callFrictionSubroutine(const ForceContact& element, FrictionCall call) override;
  void callContactPost(const ForceContact& element, int iGraphic, int jGraphic, int endFlag);
  // One call with this evaluator as the utilities' host; a failure is recorded (subroutineFailed) and rethrown.
  template <class Call>
  auto invoke(const ForceContact& element, const UserSubroutine& routine, const Call& call);
  void subroutineFailed(const ForceContact& element, const UserSubroutine& routine, const SubroutineError& error);
  // A user subroutine returned something that is not a number: said once per element and function.
  void checkFinite(const ForceContact& element, const UserSubroutine& routine, std::span<const double> values);
  // SubroutineHost
  double time() const override { return time_; }
  std::optional<MarkerMotion> markerMotion(int id) const override;
  std::optional<std::array<double, 3>> splinePartials(bool akima, int id, double x, double z,
                                                      int order) const override;
  void subroutineMessage(int id, std::string_view message, bool error, bool stop) override;
  void utilityProblem(std::string_view utility, std::string_view problem) override;
  const std::vector<ContactPostPoint>* contactPoints(int id, int iGraphic, int jGraphic) const override;
  // A pair with a point cloud: a row in report.cloudPoints for each cloud point, with its own separation from the
  // other graphic; pairForces then fills in the status, depth and forces of those in contact (by
  // ContactPoint::cloudPoint).
  void reportCloudPoints(const Candidate& candidate, PairReport& report) const;
  // Poses and grown boxes of every graphic at these kinematics; false when no pose changed since the last call.
  bool placeGraphics(std::span<const BodyKinematics> bodies);
  // The narrow phase of kept pairs [begin, end) whose boxes overlap, appended to `candidates` and `points` in order.
  void detectPairs(int begin, int end, std::vector<Candidate>& candidates, std::vector<ContactPoint>& points) const;
  // The candidate that active pair k is.
  const Candidate& candidateOf(int k) const {
    return detection_.candidates[static_cast<size_t>(detection_.activePairs[static_cast<size_t>(k)].candidate)];
  }
  // Calls evaluate(k) for every active pair k, on several threads when the laws run no user code.
  template <class Evaluate>
  void forEachActivePair(const Evaluate& evaluate) const;
  const ForceContact& element(int index) const { return contacts_->elements[static_cast<size_t>(index)]; }
  double effectiveMass(int bodyI, int bodyJ) const;
  // A touching pair's report with its normal law's stiffness there and its bodies' effective mass.
  Culprit culpritOf(const PairReport& pair) const;

  const Model& model_;
  const ContactModel* contacts_ = nullptr;
  bool locatesCrossings_ = false;             // an element has zero crossing on
  mutable std::vector<ContactPoint> crossingPoints_;  // crossingDistance's narrow phase's points, not used
  std::vector<std::vector<GraphicRole>> roles_;  // per graphic: the elements that list it, and on which side
  std::vector<double> proximity_;             // per graphic: how far its box is inflated
  VerletList closeGraphics_;                  // the broad phase, kept from residual to residual
  std::vector<PairKey> keptPairs_;            // the pairs of elements among closeGraphics_'s kept pairs
  // What a detect() found: where each graphic is, the pairs whose grown boxes overlap with their points, and the
  // active ones among them.
  struct Detection {
    std::vector<Aabb> boxes;  // per graphic, grown by its proximity
    std::vector<Pose> poses;  // per graphic
    std::vector<Candidate> candidates;
    std::vector<ContactPoint> points;
    std::vector<ActivePair> activePairs;
    bool detected = false;  // the members above are those of a detection
    unsigned long stamp = 0;  // which detection it is (each detect() that finds pairs anew takes a new one)
  };
  Detection detection_;  // the latest
  Detection aside_;      // while outputs detect (setDetectionAside)
  long detections_ = 0;
  // Detection on several threads: each block of kept pairs finds its candidates and points here first.
  struct DetectionBlock {
    std::vector<Candidate> candidates;
    std::vector<ContactPoint> points;
  };
  std::vector<DetectionBlock> detectionBlocks_;
  std::vector<char> moved_;                // per graphic, at the latest placeGraphics()
  unsigned long detectionStamps_ = 0;
  // The force of every active pair at the latest addLoads() or measure(), and the detection it was evaluated at;
  // measure() keeps each pair's report too, for CONTACT()'s indices beyond the penetration.
  void evaluatePairs(double time, std::span<const BodyKinematics> bodies, bool withReports);
  std::vector<PairLoads> activeLoads_;
  bool measuringEveryEvaluation_ = false;
  std::vector<PairReport> activeReports_;
  bool reportsMeasured_ = false;
  unsigned long loadsDetection_ = 0;
  // Per element, summed from activeLoads_ by the first contactLoads() after an evaluation.
  void sumElementLoads() const;
  mutable std::vector<ContactLoads> elementLoads_;
  mutable bool elementLoadsSummed_ = false;
  std::unordered_map<long, int> elementIndexById_;
  std::vector<ContactEnergy> activeEnergy_;  // per active pair, at the latest energy()
  ParallelLoop serialLoop_{1};
  const ParallelLoop* parallel_ = &serialLoop_;
  // The pairs in contact and where each contact began. Only accepted states (steps and located roots) change
  // it — never the trial states of residual evaluations, which may lie far beyond what IDAS accepts. A pair not in
  // it is apart.
  std::unordered_map<PairKey, Anchor, PairKeyHash> touching_;
  // The keys of touching_ by graphic I (one list per graphic), so that detection finds whether a pair touches by
  // scanning the few pairs of its graphic rather than looking it up in the map: at 1000 spheres the map's look-ups, a
  // cache miss each, took 4 % of the run. Kept in step with touching_ by startTouching, stopTouching and keepTouching.
  std::vector<std::vector<PairKey>> touchingByGraphic_;
  bool isTouching(const PairKey& pair) const;
  void startTouching(const PairKey& pair, Anchor anchor);
  void stopTouching(const PairKey& pair);
  void keepTouching(std::unordered_map<PairKey, Anchor, PairKeyHash> stillTouching);
  std::vector<ContactLaws> laws_;           // per element
  std::vector<char> keepsLawState_;         // per element: a law of it has state
  bool anyLawState_ = false;
  // Laws given by expressions that read markers or Reference_Variables (VARVAL) read them here, at the state of
  // the latest setTime(). The variables they name are evaluated by setTime, on one thread, so that the pairs' threads
  // only read their values.
  ModelExpressionContext lawModel_;
  std::vector<int> lawVariables_;  // the Reference_Variable ids the laws' expressions name
  std::vector<int> lawArrays_;     // the Reference_Array ids they read with ARYVAL
  bool lawsReadModel_ = false;
  // The time of the evaluations to come, and the state the laws' expressions read the model at.
  void setTime(double time, std::span<const BodyKinematics> bodies);

  // User subroutines: the state the utilities read during a call, and what the calls said.
  bool hasSubroutines_ = false;
  bool runsUserCode_ = false;
  double time_ = 0;
  std::span<const BodyKinematics> bodies_;          // of the latest detect()
  FrictionSlope frictionSlope_ = FrictionSlope::Chord;
  const ForceContact* callingElement_ = nullptr;
  const UserSubroutine* callingRoutine_ = nullptr;
  bool countingCalls_ = false;
  std::map<const UserSubroutine*, SubroutineCost> costs_;
  std::set<const UserSubroutine*> failedRoutines_;  // not called again (CONTACTPOST's last call is skipped)
  std::map<std::tuple<long, long, long>, std::vector<ContactPostPoint>> postPairs_;  // (id, I, J) at this output
  std::set<int> contactPostStarted_;                // elements whose CONTACTPOST had its first call
  std::set<std::string> reportedProblems_;
  std::vector<SubroutineMessage> messages_;
  std::vector<SlipChange> slipChanges_;
  std::optional<std::string> stopRequest_;
  std::optional<std::string> firstNonFiniteReturn_;
  std::optional<double> stopTime_;
};

}  // namespace lodestone
