// Drives time for one model: runs transient segments one after another from the current state, writes an
// output at every print time (the end time always among them), logs progress and statistics, and when IDAS
// gives up, says when, why and which body. A Modify between segments swaps the model and restarts IDAS from
// the state reached.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "elements/simulate.h"
#include "energy_balance.h"
#include "impact_recorder.h"
#include "integrator.h"
#include "multibody_system.h"
#include "solver/output/debug_trace.h"
#include "solver/output/result_tables.h"
#include "solver/output/run_log.h"

namespace lodestone {

struct OutputSchedule;  // the output times of a segment (simulation.cpp)

struct SimulationOptions {
  IntegratorOptions integrator;
  // Threads the contact Jacobian is spread over (`--threads`); 0: one per core. Results do not depend on it.
  int threads = 1;
  int progressLinesPerSegment = 20;  // "Time=…; Order=…; H=…" lines in run.log, spread over the segment
  double progressCallInterval = 0.1;  // wall seconds between calls of the progress handler
};

// One output time, as handed to the output handler.
struct OutputFrame {
  double time = 0;
  std::span<const BodySample> bodies;  // ground-frame results, as bodies.csv has them
  std::span<const PairReport> contacts;  // contact pairs, as contacts.csv has them
  std::span<const JointReaction> joints; // joints' reactions and motions' loads, as joints.csv has them
  std::span<const RequestSample> requests;  // Post_Request values, as requests.csv has them
  std::span<const double> state;       // the state at `time`, Euler parameters normalised
  const EnergySample* energy = nullptr;  // the energy balance, as energy.csv has it
  // IDAS's own state at its current time (at or after `time`), exactly as the integrator holds it.
  double integratorTime = 0;
  std::span<const double> integratorState;
};

struct SegmentOutcome {
  bool completed = true;
  double time = 0;      // where integration stopped
  std::string reason;   // when not completed: "IDA_ERR_FAIL in Body_Rigid id=3 (deck.xml:12): …"
  // A sensor with halt ended the run (completed, no later command runs): which one, in the log's words.
  std::optional<std::string> haltedBy;
  bool interrupted = false;  // not completed because the stop check asked to stop (setStopCheck)
};

class Simulation {
 public:
  explicit Simulation(Model model, SimulationOptions options = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  const Model& model() const { return *model_; }
  const StateLayout& layout() const { return system_->layout(); }
  double time() const { return time_; }
  std::span<const double> state() const { return state_; }
  LinearSolverKind linearSolver() const;
  int threads() const { return parallel_.threads(); }
  // All segments so far.
  SolverStatistics statistics() const;
  PhaseTimes& times() { return times_; }
  const PhaseTimes& times() const { return times_; }

  void setRunLog(RunLog* log) { log_ = log; }
  void setOutputHandler(std::function<void(const OutputFrame&)> handler) { onOutput_ = std::move(handler); }
  // Called at every contact onset and separation (located or noticed after a step).
  void setContactEventHandler(std::function<void(const ContactEvent&)> handler) { onContactEvent_ = std::move(handler); }
  // Called for every contact episode (impacts.csv's row) when its pair separates, and for those still open at
  // finish().
  void setImpactHandler(std::function<void(const ImpactEpisode&)> handler) { onImpact_ = std::move(handler); }
  // DebugOutput's trace (debug.log), when the deck switches it on; null otherwise.
  void setDebugTrace(DebugTrace* trace) { trace_ = trace; }
  // Called for every action a sensor carries out.
  void setSensorActionHandler(std::function<void(const SensorAction&)> handler) { onSensorAction_ = std::move(handler); }
  void setProgressHandler(std::function<void(double time, double startTime, double endTime)> handler) {
    onProgress_ = std::move(handler);
  }
  // Asked after every accepted step (its outputs written); true ends the segment there, interrupted.
  void setStopCheck(std::function<bool()> shouldStop) { shouldStop_ = std::move(shouldStop); }

  // Replaces the model after a Modify command. The state carries over (before the first segment it is the new
  // model's initial state) and IDAS restarts from it. Fails, saying why, when the new model's state has a
  // different layout.
  bool replaceModel(Model model, std::string& whyNot);

  // Integrates from segment.startTime to segment.endTime; or, for a Static or Assembly analysis, finds the
  // equilibrium or the assembled configuration at segment.endTime and writes it as one output.
  SegmentOutcome run(const SimulationSegment& segment);
  // The end of the run, completed or not: user subroutines' last calls (CONTACTPOST with endflg) and their
  // messages. The reason, when one of those calls failed (a Python exception).
  std::optional<std::string> finish();

 private:
  // Before a segment that starts IDAS afresh: moves the bodies onto their joints (logging what moved) and computes
  // the consistent derivative. The reason, when the joints cannot be assembled.
  std::optional<std::string> assembleJoints(double time, std::vector<double>& derivative);
  // `startDerivative`: a consistent y' (joints), or empty for IDACalcIC to compute it.
  void startIntegrator(double startTime, std::span<const double> startDerivative = {});
  SegmentOutcome runAtOneTime(const SimulationSegment& segment);
  // Warns once per segment when IDAS's state at a step that wrote outputs violates a joint's position equations by
  // more than dae_constr_tol.
  void watchConstraintDrift(double time, std::span<const double> state);
  void discardIntegrator();
  // `integratorHasStepped`: IDAS holds a current state to report beside the output (not before its first step).
  // False, with nothing written, when a user subroutine failed while the contacts were sampled.
  // `derivative`: y' at `time` (the accelerations in bodies.csv).
  bool emitOutput(double time, std::span<const double> state, std::span<const double> derivative,
                  bool integratorHasStepped);
  SegmentOutcome fail(int flag);
  // Before the first step of a run, after joint assembly: the contact pairs that overlap, in run.log; the reason to
  // stop when one overlaps too deep (see kInterferenceErrorFraction).
  std::optional<SegmentOutcome> reportInterference(double time);
  // Before each step: bounds it by what the contacts' geometry allows (ContactStepLimit); the reason to stop when a
  // pair was found crossed after the last step, or when the bound falls below h_min.
  std::optional<SegmentOutcome> guardNextStep();
  // Ends the segment because a pair was found crossed after the last step, or needs a step shorter than h_min.
  SegmentOutcome failCrossing(const ContactStepLimit::Crossing& crossing, double time);
  SegmentOutcome failStepTooShort(const ContactStepLimit::Limit& limit, double time);
  // Ends the segment at `time` for `reason`, said in run.log with `details` before it.
  SegmentOutcome failContact(double time, const std::vector<std::string>& details, const std::string& reason);
  // At an accepted state at `time`, before its contact events are reported: the impact recorder follows the pairs
  // in contact there.
  void recordImpacts(double time, std::span<const double> y);
  void reportContactEvents();
  // User subroutines' messages into the log; the reason to stop when one asked to or failed.
  std::optional<std::string> reportSubroutineMessages();
  // Logs the force elements' numerical trouble (an induction solve short of its tolerance) as warnings naming them.
  void reportForceMessages();
  // Ends the segment because a user subroutine asked to stop or failed: its messages and the reason in the log.
  SegmentOutcome stopForSubroutine();
  // Ends the segment at the step IDAS has just taken to `time` because the stop check asked to: the state reached
  // is kept, the segment's statistics and energy balance are logged.
  SegmentOutcome interrupt(double time, const EnergySample& startEnergy);
  void logLine(const std::string& text);
  // After each accepted step: a step that needed several retries is struggling (said in run.log, a few times per
  // segment, naming the contact most likely at fault); with DebugOutput, the step and the close contact pairs.
  void watchStep(const StepResult& step);
  // After each accepted step: once per segment, when the steps stay so short that the segment is on its way to a
  // great many of them, says so in run.log with the touching contact whose period holds them short.
  void watchCost(const SimulationSegment& segment, double time);
  // The contact pushing hardest on `body` at IDAS's current state, or else in the step it was attempting.
  struct FoundCulprit : ContactEvaluator::Culprit {
    bool inAttemptedStep = false;  // found only in the step IDAS was attempting, not at an accepted state
  };
  std::optional<FoundCulprit> findCulprit(int body);
  // DebugOutput: a contact pair's state in one line; the culprit's, with whether it was found in the attempted step.
  void tracePair(TraceLevel level, double time, std::string_view topic, std::string_view label, const PairReport& pair,
                 std::initializer_list<TraceField> more = {});
  void traceCulprit(TraceLevel level, double time, std::string_view topic, std::string_view label,
                    const FoundCulprit& culprit);
  // DebugOutput counts and times subroutine calls when it writes them.
  bool countsSubroutineCalls() const { return trace_ && trace_->wantsTopic("usersub"); }
  // What the contact pushing hardest on `body` is doing, and what to change, as run.log lines.
  std::vector<std::string> adviseOnContact(const ContactEvaluator::Culprit& culprit, int body);
  // Whether each sensor holds its condition at (y, y'); those that have just come to hold join `fired`. IDAS locates
  // a zero-crossing sensor's root (already in `fired` then), except where its expression jumps across its value at an
  // event IDAS restarts at — a contact's force at a located onset — which it cannot see as a crossing: such a sensor
  // joins `fired` here, at that event. At a segment's start `fired` is null: a condition that already holds has not
  // become true.
  void updateSensorHolds(double time, std::span<const double> y, std::span<const double> yp,
                              std::vector<int>* fired);
  // ---- energy balance ----
  // The balance at state y (y' for user subroutines) with the integrals `flows`.
  EnergySample sampleEnergy(double time, std::span<const double> y, std::span<const double> yp,
                            std::span<const double> flows);
  // At a state reached outside integration (a fresh start, a static or assembly analysis): see
  // EnergyBalance::rebase. The sample there.
  EnergySample rebaseEnergy(double time, std::span<const double> y, std::span<const double> yp);
  // The held terms at state y.
  EnergySample heldEnergy(double time, std::span<const double> y, std::span<const double> yp);
  // The segment's end: its balance in the log (kept as the start of a segment that continues from it).
  void summariseEnergy(const EnergySample& start, std::span<const double> yp);
  // verbose sensors: their values at an output time, in the log.
  void logVerboseSensors(double time, std::span<const double> y);
  // Logs the sensors that fired at `time` (the state IDAS returned) and carries out their actions; the schedule of
  // outputs may change (dt). Returns an outcome when the segment ends there (halt, return).
  std::optional<SegmentOutcome> actOnSensors(const std::vector<int>& fired, double time, OutputSchedule& schedule,
                                            int& next);

  SimulationOptions options_;
  PhaseTimes times_;
  ParallelLoop parallel_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<MultibodySystem> system_;
  std::unique_ptr<Integrator> integrator_;
  RunLog* log_ = nullptr;
  std::function<void(const OutputFrame&)> onOutput_;
  std::function<void(double, double, double)> onProgress_;
  std::function<bool()> shouldStop_;
  std::function<void(const ContactEvent&)> onContactEvent_;
  std::function<void(const ImpactEpisode&)> onImpact_;
  std::function<void(const SensorAction&)> onSensorAction_;
  DebugTrace* trace_ = nullptr;
  SolverStatistics watchedStatistics_;  // statistics() after the latest accepted step
  int strugglesLogged_ = 0;             // in this segment
  long newtonFailuresTraced_ = 0;       // the integrator's failed solves the trace has named
  struct CostWatch {
    long steps = 0;          // accepted in this segment
    long nextCheck = 0;      // the step count of the next look at the pace
    bool warned = false;
  } costWatch_;
  std::vector<PairReport> tracedPairs_;
  std::vector<TraceField> traceFields_;  // tracePair's, kept to spare an allocation per line
  std::vector<char> sensorHolds_;  // per sensor: its condition held at the latest accepted state
  long subroutineMessagesLogged_ = 0;
  long forceMessagesLogged_ = 0;
  std::vector<ContactEvent> contactEvents_;  // of the latest step, reported then cleared
  ImpactRecorder impacts_;
  std::vector<PairReport> touchingPairs_;
  std::vector<ImpactEpisode> endedEpisodes_;
  long contactEventsLogged_ = 0;

  double time_ = 0;
  bool started_ = false;             // has any segment begun integrating?
  std::vector<double> state_;        // at time_, Euler parameters normalised
  std::optional<double> lastOutputTime_;
  SolverStatistics discardedStatistics_;  // from integrators already replaced
  SolverStatistics segmentStart_;         // statistics() when the current segment began
  std::vector<double> outputState_;
  std::vector<double> outputDerivative_;
  std::vector<BodySample> samples_;
  std::vector<PairReport> contactSamples_;
  std::vector<JointReaction> jointSamples_;
  std::vector<RequestSample> requestSamples_;
  EnergyBalance energy_;
  EnergySample outputEnergy_;
  bool redundancyLogged_ = false;
  bool driftLogged_ = false;  // in this segment  // the current system's redundant joint equations are in the log
};

}  // namespace lodestone
