// Segment loop: one IDAS step at a time, outputs interpolated at print times, progress, failure reports.
#include "simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "contact_interference.h"
#include "euler_parameter_projection.h"
#include "solver/core/text.h"
#include "solver/output/number_format.h"
#include "stopwatch.h"

namespace lodestone {

namespace {
// What a sensor compares, for the log: its expression, or the SENSUB that gives the value.
std::string sensorQuantity(const SensorEvent& sensor) {
  return sensor.subroutine ? sensor.subroutine->routine.function : sensor.expression.text();
}
}  // namespace

// Output times: start + k·interval while short of the end, then the end itself. A last interval shorter than
// a billionth of the print interval is rounding, not an output.
struct OutputSchedule {
  double start, end, interval;
  int count;  // index of the end time; outputs are 0..count

  explicit OutputSchedule(const SimulationSegment& segment) { plan(segment.startTime, segment.endTime, segment.printInterval); }
  void plan(double from, double to, double step) {
    start = from;
    end = to;
    interval = step;
    const double span = end - start;
    if (!(interval > 0) || interval >= span) {
      interval = span;
      count = 1;
    } else {
      count = static_cast<int>(std::ceil(span / interval - 1e-9));
    }
  }
  double at(int k) const { return k >= count ? end : start + k * interval; }
};

Simulation::Simulation(Model model, SimulationOptions options)
    : options_(std::move(options)), parallel_(options_.threads), model_(std::make_unique<Model>(std::move(model))) {
  system_ = std::make_unique<MultibodySystem>(*model_, times_);
  system_->setParallelLoop(parallel_);
  state_.resize(static_cast<size_t>(system_->layout().size()));
  system_->initialState(state_);
}

Simulation::~Simulation() = default;

LinearSolverKind Simulation::linearSolver() const {
  return integrator_ ? integrator_->linearSolver()
                     : chooseLinearSolver(system_->layout().bodyCount(), options_.integrator.linearSolver,
                                          system_->hasConstraints());
}

SolverStatistics Simulation::statistics() const {
  SolverStatistics total = discardedStatistics_;
  if (integrator_) total += integrator_->statistics();
  return total;
}

void Simulation::logLine(const std::string& text) {
  if (log_) log_->line(text);
}

bool Simulation::replaceModel(Model model, std::string& whyNot) {
  auto replacement = std::make_unique<Model>(std::move(model));
  if (replacement->bodies.size() != model_->bodies.size()) {
    whyNot = "a command may change element attributes but not add or remove moving bodies (" +
             std::to_string(model_->bodies.size()) + " before, " + std::to_string(replacement->bodies.size()) +
             " after)";
    return false;
  }
  // The bodies' states carry over; joints switched on or off change the multipliers, which the next segment's
  // assembly computes afresh.
  const size_t bodyStates = static_cast<size_t>(system_->layout().bodyStateSize());
  const std::vector<double> bodies(state_.begin(), state_.begin() + static_cast<std::ptrdiff_t>(bodyStates));
  // So do the Control_Diff states (a command cannot add or remove them: they are the deck's), at the end of the state.
  const int differentialCount = system_->layout().differentialCount();
  const std::vector<double> differentials(state_.end() - differentialCount, state_.end());
  auto system = started_ ? std::make_unique<MultibodySystem>(*replacement, times_, bodies)
                         : std::make_unique<MultibodySystem>(*replacement, times_);
  // And the values the Sensor_Evaluates stored: SENVAL reads them until the next firing, whatever the commands did.
  system->carrySensorEvaluateValues(system_->sensorEvaluateValues());
  discardIntegrator();
  model_ = std::move(replacement);
  system_ = std::move(system);
  system_->setParallelLoop(parallel_);
  redundancyLogged_ = false;
  state_.resize(static_cast<size_t>(system_->layout().size()));
  if (!started_) {
    system_->initialState(state_);
  } else {
    std::fill(state_.begin() + static_cast<std::ptrdiff_t>(bodyStates), state_.end(), 0.0);
    if (system_->layout().differentialCount() == differentialCount) {
      std::copy(differentials.begin(), differentials.end(), state_.end() - differentialCount);
    }
  }
  return true;
}

void Simulation::discardIntegrator() {
  if (!integrator_) return;
  discardedStatistics_ += integrator_->statistics();
  energy_.carry(integrator_->returnedEnergyFlows());
  integrator_.reset();
}

std::optional<std::string> Simulation::assembleJoints(double time, std::vector<double>& derivative) {
  if (!redundancyLogged_) {
    for (const std::string& note : system_->constraints().redundancyNotes()) logLine(" WARNING: " + note + ".");
    redundancyLogged_ = true;
  }
  derivative.assign(state_.size(), 0.0);
  const AssemblyReport report = system_->assemble(time, !started_, state_, derivative);
  if (report.failure) {
    logLine(" ERROR: " + *report.failure + ".");
    return *report.failure;
  }
  std::vector<const AssemblyReport::Moved*> moved;
  for (const AssemblyReport::Moved& m : report.moved) {
    if (m.translation > 0 || m.rotation > 0) moved.push_back(&m);
  }
  if (report.iterations == 0) {
    logLine(" Assembly: the bodies meet their joints as given (largest error " + scientific(report.largestError, 3) + ").");
  } else {
    logLine(" Assembly: " + std::to_string(report.iterations) + " iterations moved " + std::to_string(moved.size()) +
            " bodies onto their joints (largest error left " + scientific(report.largestError, 3) + "):");
    constexpr size_t kListed = 10;
    for (size_t k = 0; k < moved.size() && k < kListed; ++k) {
      logLine("   " + describeBody(model_->bodies[static_cast<size_t>(moved[k]->body)]) + " moved " +
              scientific(moved[k]->translation, 3) + " and turned " + scientific(moved[k]->rotation, 3) + " rad");
    }
    if (moved.size() > kListed) logLine("   and " + std::to_string(moved.size() - kListed) + " more bodies");
  }
  double velocityChange = 0;
  for (const AssemblyReport::Moved& m : report.moved) {
    velocityChange = std::max({velocityChange, m.velocityChange, m.angularVelocityChange});
  }
  if (velocityChange > 0) {
    logLine(" Assembly: initial velocities changed by up to " + scientific(velocityChange, 3) +
            " to agree with the joints.");
  }
  return std::nullopt;
}

void Simulation::startIntegrator(double startTime, std::span<const double> startDerivative) {
  discardIntegrator();
  time_ = startTime;
  // Once a user subroutine has failed (IDAS then gives up at once) or asked to stop, its own words say why.
  const auto onMessage = [this](const std::string& line) {
    if (!system_->subroutineStopRequest()) logLine(" " + line);
  };
  integrator_ = std::make_unique<Integrator>(*system_, model_->integrator, startTime, state_, options_.integrator,
                                             times_, onMessage, startDerivative, energy_.carriedFlows());
}

bool Simulation::emitOutput(double time, std::span<const double> state, std::span<const double> derivative,
                            bool integratorHasStepped) {
  ScopedTimer timer(times_.output);
  lastOutputTime_ = time;
  // The balance at every output, written or not (run.log's summary judges the leftover against the largest).
  outputEnergy_ = sampleEnergy(time, state, derivative,
                               integrator_ && integratorHasStepped ? integrator_->energyFlowsAt(time)
                                                                   : energy_.carriedFlows());
  if (!onOutput_) return true;
  system_->sampleBodies(state, derivative, samples_);
  system_->jointReactions(time, state, jointSamples_);
  try {
    system_->sampleRequests(time, state, derivative, jointSamples_, requestSamples_);  // REQSUB may fail
    system_->sampleContacts(time, state, contactSamples_);
    impacts_.closeInterval(contactSamples_);
  } catch (const SubroutineError&) {
    return false;  // recorded as the reason to stop; an output with a force missing is not written
  }
  OutputFrame frame;
  frame.time = time;
  frame.energy = &outputEnergy_;
  frame.bodies = samples_;
  frame.contacts = contactSamples_;
  frame.joints = jointSamples_;
  frame.requests = requestSamples_;
  frame.state = state;
  if (integrator_ && integratorHasStepped) {
    frame.integratorTime = integrator_->time();
    frame.integratorState = integrator_->currentState();
  } else {
    frame.integratorTime = time;
    frame.integratorState = state;
  }
  onOutput_(frame);
  return true;
}

SegmentOutcome Simulation::runAtOneTime(const SimulationSegment& segment) {
  const bool statics = segment.analysis == AnalysisType::Static;
  const double time = segment.endTime;
  logLine(std::string(" ") + (statics ? "Static equilibrium" : "Assembly") + " at t=" + scientific(time, 6) + ".");
  // The next transient analysis starts IDAS afresh from what this one leaves.
  discardIntegrator();
  time_ = time;
  std::vector<double> derivative(state_.size(), 0.0);
  if (statics) {
    const MultibodySystem::StaticReport report = system_->solveStatics(time, state_);
    if (report.failure) {
      logLine(" ERROR: " + *report.failure + ".");
      return {false, time, *report.failure};
    }
    logLine(" Static equilibrium found in " + std::to_string(report.iterations) + " iterations (largest load left " +
            scientific(report.imbalance, 3) + ", largest joint error " + scientific(report.constraintError, 3) + ").");
  } else if (system_->hasConstraints()) {
    if (std::optional<std::string> failure = assembleJoints(time, derivative)) return {false, time, *failure};
  } else {
    logLine(" No joints: nothing to assemble.");
  }
  started_ = true;
  rebaseEnergy(time, state_, derivative);
  if (!emitOutput(time, state_, derivative, false)) return stopForSubroutine();
  return {true, time, {}};
}

SegmentOutcome Simulation::run(const SimulationSegment& segment) {
  if (segment.analysis != AnalysisType::Transient) return runAtOneTime(segment);
  OutputSchedule schedule(segment);
  const SolverStatistics before = statistics();
  const int size = system_->layout().size();
  outputState_.resize(static_cast<size_t>(size));

  // A segment continues where the last one stopped; a gap in time, a new model or the first segment start IDAS
  // afresh from the current state.
  const double timeTolerance = 1e-12 * std::max(1.0, std::fabs(segment.startTime));
  const bool continues = integrator_ && std::fabs(integrator_->time() - segment.startTime) <= timeTolerance;

  if (log_) {
    AnalysisDescription analysis;
    analysis.startTime = segment.startTime;
    analysis.endTime = segment.endTime;
    analysis.printInterval = schedule.interval;
    analysis.settings = model_->integrator;
    analysis.linearSolver = describeLinearSolver(linearSolver());
    analysis.equations = size;
    analysis.threads = parallel_.threads();
    log_->analysisStart(analysis);
  }

  segmentStart_ = before;
  watchedStatistics_ = before;
  driftLogged_ = false;
  system_->countSubroutineCalls(countsSubroutineCalls());
  strugglesLogged_ = 0;
  costWatch_ = {};
  try {
    system_->startSubroutines(segment.startTime, state_);
  } catch (const SubroutineError&) {
    time_ = segment.startTime;
    return stopForSubroutine();
  }
  // A set-up call that asked to stop (c_errmes STOP) stops the run at its start, the time of that call, rather than
  // after a first step taken for nothing.
  if (system_->subroutineStopRequest()) {
    time_ = segment.startTime;
    return stopForSubroutine();
  }
  // Joints: the bodies move onto them before anything is written or integrated.
  std::vector<double> startDerivative;
  if (!continues && size > 0 && system_->hasConstraints()) {
    if (std::optional<std::string> failure = assembleJoints(segment.startTime, startDerivative)) {
      if (log_) log_->statistics(statistics() - before);
      return {false, segment.startTime, *failure};
    }
  }
  // The start's output: after IDAS has made the start consistent when it starts afresh (the accelerations are
  // part of the output), at once otherwise.
  const bool writeStart = !lastOutputTime_ || *lastOutputTime_ != segment.startTime;
  const bool startsAfresh = !continues && size > 0;
  if (writeStart && !startsAfresh) {
    std::vector<double> derivative(state_.size(), 0.0);
    if (continues) integrator_->interpolateDerivative(segment.startTime, derivative);
    if (!emitOutput(segment.startTime, state_, derivative, continues)) return stopForSubroutine();
  }
  started_ = true;
  // The balance's start of this segment: where the last one ended, or the state IDAS starts afresh from.
  EnergySample startEnergy = energy_.latest().value_or(EnergySample{});
  if (!continues) {
    time_ = segment.startTime;
    if (size > 0) {
      startIntegrator(segment.startTime, startDerivative);
      const StepResult start = integrator_->computeConsistentStart(schedule.at(1));
      if (start.status == StepStatus::Failed) {
        // What the deck gave is still written, so that the failing run shows where it started.
        if (writeStart) emitOutput(segment.startTime, state_, std::vector<double>(state_.size(), 0.0), false);
        return system_->subroutineStopRequest() ? stopForSubroutine() : fail(start.flag);
      }
      startEnergy = rebaseEnergy(segment.startTime, integrator_->returnedState(), integrator_->returnedDerivative());
      if (writeStart && !emitOutput(segment.startTime, integrator_->returnedState(), integrator_->returnedDerivative(),
                                    false)) {
        return stopForSubroutine();
      }
      if (std::optional<SegmentOutcome> failed = reportInterference(segment.startTime)) return *failed;
      // Pairs that touch at the start are in contact from the start.
      system_->acceptContactStep(segment.startTime, state_.data(), contactEvents_);
      recordImpacts(segment.startTime, state_);
      reportContactEvents();
    }
  }
  // A sensor acts when its condition becomes true, not because it holds at the start.
  if (size > 0) {
    updateSensorHolds(segment.startTime, integrator_->returnedState(), integrator_->returnedDerivative(), nullptr);
  }

  if (size == 0) {
    // Nothing moves: every output time shows the same (empty) state.
    for (int k = 1; k <= schedule.count; ++k) emitOutput(schedule.at(k), state_, state_, false);
    time_ = segment.endTime;
    logLine(" No moving bodies: nothing to integrate.");
    return {true, time_, {}};
  }

  integrator_->setStopTime(segment.endTime);
  const double progressSpacing = (segment.endTime - segment.startTime) / std::max(1, options_.progressLinesPerSegment);
  double lastProgressLine = segment.startTime;
  Stopwatch sinceProgressCall;
  int next = 1;
  std::vector<int> firedSensors;
  for (;;) {
    if (std::optional<SegmentOutcome> failed = guardNextStep()) return *failed;
    const StepResult step = integrator_->step();
    // A subroutine that failed inside IDAS's callbacks made IDAS give up: the subroutine, not IDAS, is the reason.
    if (step.status == StepStatus::Failed) {
      return system_->subroutineStopRequest() ? stopForSubroutine() : fail(step.flag);
    }
    // Which sensors' root functions crossed zero, located by zero crossing.
    firedSensors.clear();
    if (step.status == StepStatus::RootFound) {
      const std::vector<int>& roots = integrator_->rootsFound();
      for (int k = 0; k < static_cast<int>(roots.size()); ++k) {
        if (roots[static_cast<size_t>(k)] != 0) firedSensors.push_back(system_->sensors().sensorOfRoot(k));
      }
    }
    // How smooth the forces of the pairs that began or ended are through the events located here (kSmoothForce).
    int eventSmoothness = kSmoothForce;
    if (!integrator_->contactCrossings().empty()) {
      eventSmoothness = system_->applyContactCrossings(step.time, integrator_->returnedState().data(),
                                                       integrator_->contactCrossings(), contactEvents_);
    } else {
      system_->acceptContactStep(step.time, integrator_->returnedState().data(), contactEvents_);
    }
    system_->acceptState(integrator_->returnedState().data());
    updateSensorHolds(step.time, integrator_->returnedState(), integrator_->returnedDerivative(), &firedSensors);
    // The outputs within the step detect contacts at their own states; the step's detection waits aside for the
    // impact recorder below.
    system_->setContactDetectionAside();
    while (next <= schedule.count && schedule.at(next) <= step.time) {
      const double t = schedule.at(next);
      // At the stop time the interpolant gives exactly the solution IDAS returned there.
      integrator_->interpolate(t, outputState_);
      integrator_->interpolateDerivative(t, outputDerivative_);
      // Between IDAS's steps the interpolant misses the joints' equations by about the local error; the output is
      // moved onto them, with the accelerations and reactions they allow there. (What IDAS itself holds is watched
      // below.)
      try {
        system_->projectOutput(t, outputState_, outputDerivative_);
      } catch (const SubroutineError&) {
        break;  // recorded as the reason to stop, which reportSubroutineMessages finds below
      }
      if (!emitOutput(t, outputState_, outputDerivative_, true)) break;
      watchConstraintDrift(step.time, integrator_->returnedState());
      logVerboseSensors(t, outputState_);
      if (log_ && (next == schedule.count || t - lastProgressLine >= progressSpacing * (1 - 1e-9))) {
        log_->progress(t, integrator_->lastOrder(), integrator_->lastStepSize());
        lastProgressLine = t;
      }
      ++next;
    }
    system_->takeContactDetectionBack();
    time_ = step.time;
    recordImpacts(step.time, integrator_->returnedState());
    reportContactEvents();
    watchStep(step);
    watchCost(segment, step.time);
    reportForceMessages();
    if (reportSubroutineMessages()) {
      const std::span<const double> reached = integrator_->returnedState();
      state_.assign(reached.begin(), reached.end());
      return stopForSubroutine();
    }
    if (!firedSensors.empty()) {
      if (std::optional<SegmentOutcome> ended = actOnSensors(firedSensors, step.time, schedule, next)) {
        if (log_) log_->statistics(statistics() - before);
        summariseEnergy(startEnergy, integrator_->returnedDerivative());
        return *ended;
      }
    }
    // A located onset or separation where a force is less smooth than IDAS's order assumes (kSmoothForce): IDAS
    // restarts there rather than carry the history from before it across (a new first-order start, with a new
    // Jacobian). Where the forces are smooth enough for the order it steps at, the step that crossed the event has
    // passed its error test (as without zero crossing), and IDAS carries on. The restart's first step is the step IDAS
    // took across the event, which passed its error test there: the error test at first order judges it again, and
    // shrinks it where it must. From IDAS's own first step (h·|y'| = 0.5 in the error weights: a guess that knows
    // nothing of the solution), doubling back with a Jacobian per doubling, zero crossing cost 1.9x zero crossing off
    // on the 100-sphere pile; from the crossing step, 1.3x. Ball drops at 8 speeds from 0.03 to 3 m/s and integr_tol
    // 1e-4, 1e-6 and 1e-8 rebound as accurately either way (RMS error of the rebound speed 1.5e-3, 1.0e-5, 2.1e-7
    // against 1.3e-3, 1.3e-5, 2.1e-7 from IDAS's own start). An undamped ball's energy gain per bounce at 1e-8 is then
    // that of zero crossing off (docs/contact.md).
    if (integrator_->lastOrder() > eventSmoothness) {
      integrator_->restartAtReturnedState(step.time, integrator_->lastStepSize());
    }
    if (onProgress_ && sinceProgressCall.elapsed() >= options_.progressCallInterval) {
      sinceProgressCall.lap();
      onProgress_(step.time, segment.startTime, segment.endTime);
    }
    if (step.status == StepStatus::ReachedStopTime) break;
    if (shouldStop_ && shouldStop_()) return interrupt(step.time, startEnergy);
  }
  time_ = segment.endTime;
  state_ = outputState_;
  if (log_) log_->statistics(statistics() - before);
  summariseEnergy(startEnergy, outputDerivative_);
  return {true, time_, {}};
}

// ---- contact guard ---------------------------------------------------------------------------------------------

std::optional<SegmentOutcome> Simulation::reportInterference(double time) {
  if (!system_->guardsContacts()) return std::nullopt;
  const std::vector<Interference> found = system_->contactInterference(integrator_->returnedState().data());
  std::optional<std::string> reason;
  for (const InterferenceMessage& message : describeInterference(*model_, found)) {
    logLine(std::string(message.error ? " ERROR: " : " WARNING: ") + describeContact(*message.element) + ": " +
            message.text + ".");
    if (message.error && !reason) reason = message.element->loc.subject() + ": " + message.text;
  }
  if (!reason) return std::nullopt;
  return failContact(time, {}, *reason);
}

std::optional<SegmentOutcome> Simulation::guardNextStep() {
  // The next step() only returns the state IDAS has reached already; the guard measures from there before IDAS steps.
  if (!system_->guardsContacts() || integrator_->returnsReachedNext()) return std::nullopt;
  const double lookAhead = integrator_->nextStepBound();
  const double time = integrator_->time();
  const ContactStepLimit& guard = system_->measureContactSteps(integrator_->returnedState().data(),
                                                               integrator_->returnedDerivative().data(), lookAhead);
  if (guard.crossing()) return failCrossing(*guard.crossing(), time);
  const ContactStepLimit::Limit& limit = guard.limit();
  if (limit.step >= lookAhead) {
    integrator_->limitNextStep(std::numeric_limits<double>::infinity());
    return std::nullopt;
  }
  // Shorter than h_min, or too short to move time on: the run cannot go on without a pair crossing unseen.
  const double shortest = std::max(model_->integrator.hMin, 1e-13 * std::max(1.0, std::fabs(time)));
  if (limit.step < shortest) return failStepTooShort(limit, time);
  if (trace_) {
    const ContactModel& contacts = *model_->contacts;
    const TraceField fields[] = {{"i", contacts.graphics[static_cast<size_t>(limit.pair.graphicI)].id},
                                 {"j", contacts.graphics[static_cast<size_t>(limit.pair.graphicJ)].id},
                                 {"h", limit.step},
                                 {"gap", limit.gap},
                                 {"speed", limit.approachSpeed}};
    trace_->writeContact(TraceLevel::Debug, time, "step", "contact-limit",
                         contacts.elements[static_cast<size_t>(limit.pair.element)].id, fields);
  }
  integrator_->limitNextStep(limit.step);
  return std::nullopt;
}

SegmentOutcome Simulation::failCrossing(const ContactStepLimit::Crossing& crossing, double time) {
  const ForceContact& element = model_->contacts->elements[static_cast<size_t>(crossing.pair.element)];
  const std::string pair = describeGraphicPair(*model_, crossing.pair);
  const std::string depth = scientific(crossing.depth, 3) + " deep at t=" + scientific(time, 9) + ", " +
                            formatSignificant(100 * crossing.depth / crossing.thinnerExtent, 2) +
                            "% of the thinner graphic (" + scientific(crossing.thinnerExtent, 3) + " across)";
  std::vector<std::string> details;
  if (crossing.unseenOnset) {
    details.push_back(describeContact(element) + ": " + pair + " were apart before the last step and are " + depth +
                      " after it: the step crossed into them unseen, and contact would now push from where it found "
                      "them.");
  } else {
    details.push_back(describeContact(element) + ": " + pair + " are pressed " + depth +
                      ", past the middle of the thinner one: contact would push them out the far side.");
    details.push_back("The normal law is too soft for the load it carries (raise the stiffness), or the bodies meet "
                      "too fast for it; ignore_penetration_larger_than on the element lets such depths pass without "
                      "force.");
  }
  return failContact(time, details,
                     element.loc.subject() + ": " + pair + (crossing.unseenOnset ? " crossed unseen, " : " pushed ") +
                         depth);
}

SegmentOutcome Simulation::failStepTooShort(const ContactStepLimit::Limit& limit, double time) {
  const ForceContact& element = model_->contacts->elements[static_cast<size_t>(limit.pair.element)];
  const std::string pair = describeGraphicPair(*model_, limit.pair);
  const std::string need = "steps of at most " + scientific(limit.step, 3) + " (gap " + scientific(limit.gap, 3) +
                           ", approach speed " + scientific(limit.approachSpeed, 3) + ")";
  const std::string against = model_->integrator.hMin > 0 && limit.step < model_->integrator.hMin
                                  ? ", shorter than h_min = " + scientific(model_->integrator.hMin, 3)
                                  : ", too short to move time on";
  return failContact(time,
                     {describeContact(element) + ": " + pair + " need " + need + against + " at t=" +
                      scientific(time, 9) + ": a longer step could carry one through the other unseen."},
                     element.loc.subject() + ": " + pair + " need " + need + against);
}

SegmentOutcome Simulation::failContact(double time, const std::vector<std::string>& details, const std::string& reason) {
  time_ = time;
  for (const std::string& line : details) logLine(" ERROR: " + line);
  logLine(" ERROR: " + reason + ".");
  if (log_) log_->statistics(statistics() - segmentStart_);
  return {false, time, reason};
}

// ---- energy balance ---------------------------------------------------------------------------------------------

EnergySample Simulation::sampleEnergy(double time, std::span<const double> y, std::span<const double> yp,
                                      std::span<const double> flows) {
  if (!energy_.started()) return rebaseEnergy(time, y, yp);
  EnergySample sample = heldEnergy(time, y, yp);
  energy_.complete(sample, flows);
  return sample;
}

EnergySample Simulation::rebaseEnergy(double time, std::span<const double> y, std::span<const double> yp) {
  if (!energy_.started()) energy_.setGravityReference(system_->bodyPositions(y));
  EnergySample sample = heldEnergy(time, y, yp);
  energy_.rebase(sample);
  return sample;
}

EnergySample Simulation::heldEnergy(double time, std::span<const double> y, std::span<const double> yp) {
  EnergySample sample;
  sample.time = time;
  try {
    system_->heldEnergy(time, y, yp, energy_.gravityReference(), sample);
  } catch (const SubroutineError&) {
    // A CNFSUB that failed for the contacts' stored energy is the reason to stop, which the run finds next.
    sample.contactStrain = std::numeric_limits<double>::quiet_NaN();
  }
  return sample;
}

void Simulation::summariseEnergy(const EnergySample& start, std::span<const double> yp) {
  const EnergySample end = sampleEnergy(time_, state_, yp, integrator_->returnedEnergyFlows());
  if (!log_) return;
  for (const std::string& line : energy_.summary(start, end, model_->integrator.integrTol)) logLine(line);
}

// ---- watching the integration -----------------------------------------------------------------------------------

void Simulation::watchConstraintDrift(double time, std::span<const double> state) {
  if (!system_->hasConstraints() || driftLogged_) return;
  // IDAS's own state at a step: its Newton iteration solves the joints' equations only to its tolerance.
  const double error = system_->largestConstraintError(time, state);
  if (error <= model_->integrator.constraintTol) return;
  driftLogged_ = true;
  logLine(" WARNING: at t=" + scientific(time, 6) + " a joint's position equations are violated by " +
          scientific(error, 3) + ", more than dae_constr_tol = " + scientific(model_->integrator.constraintTol, 3) +
          "; a smaller integr_tol keeps the joints closer (not repeated in this segment).");
}

void Simulation::watchStep(const StepResult& step) {
  // A step that needed this many retries (error-test or Newton failures) is the integrator struggling. A healthy
  // impact costs up to four (the bouncing ball's); IDAS gives up after ten in a row.
  constexpr long kStruggleRetries = 6;
  constexpr int kStrugglesLogged = 5;
  const SolverStatistics now = statistics();
  const SolverStatistics since = now - watchedStatistics_;
  watchedStatistics_ = now;
  const long retries = since.errorTestFailures + since.nonlinearConvergenceFailures;
  const std::span<const double> y = integrator_->returnedState();
  if (trace_) {
    trace_->write(TraceLevel::Info, step.time, "step", "end-step",
                  {{"step", now.steps},
                   {"h", integrator_->lastStepSize()},
                   {"order", integrator_->lastOrder()},
                   {"error-test-failures", since.errorTestFailures},
                   {"newton-failures", since.nonlinearConvergenceFailures},
                   {"residuals", since.residualEvaluations},
                   {"jacobians", since.jacobianEvaluations}});
    // Where Newton last failed: the state it could not settle, a body's velocity or spin usually naming the force. Only
    // for a solve that failed since the last line: IDAS also counts a stale matrix's failure that a fresh one mended.
    if (const std::optional<Integrator::NewtonFailure> failure = integrator_->lastNewtonFailure()) {
      if (failure->count < newtonFailuresTraced_) newtonFailuresTraced_ = 0;  // a new integrator counts afresh
      if (failure->count > newtonFailuresTraced_) {
        newtonFailuresTraced_ = failure->count;
        const std::string variable =
            failure->variable == kNoNewtonUpdate
                ? std::string("none: Newton failed before its first update (the iteration matrix could not be "
                              "factorised, or the residual was not finite)")
                : system_->layout().describeVariable(*model_, failure->variable);
        trace_->write(TraceLevel::Info, step.time, "step", "newton-failure",
                      {{"variable", variable}, {"weighted-correction", failure->weightedCorrection}});
      }
    }
    for (const ContactEvaluator::SubroutineCost& cost : system_->takeSubroutineCosts()) {
      const TraceField fields[] = {{"function", cost.function}, {"calls", cost.calls}, {"seconds", cost.seconds}};
      trace_->writeContact(TraceLevel::Debug, step.time, "usersub", "calls", cost.element->id, fields);
    }
    // A look at every close pair is the trace's dearest part: only when its lines are wanted.
    if (trace_->wants("contact", step.time)) {
      // The trace's own look at the contacts calls subroutines too: those calls are not the run's.
      system_->countSubroutineCalls(false);
      system_->closeContacts(step.time, y, tracedPairs_);
      system_->countSubroutineCalls(countsSubroutineCalls());
      for (const PairReport& pair : tracedPairs_) tracePair(TraceLevel::Debug, step.time, "contact", "pair", pair);
    }
  }
  if (retries < kStruggleRetries) return;
  // Naming the culprit costs a look at every close contact: only while it is still said somewhere.
  if (!trace_ && strugglesLogged_ >= kStrugglesLogged) return;
  const FailureReport where = integrator_->diagnoseFailure(0);
  const int body = system_->layout().bodyOfVariable(where.worstVariable);
  const std::optional<FoundCulprit> culprit = findCulprit(body);
  const std::vector<std::string> advice = culprit ? adviseOnContact(*culprit, body) : std::vector<std::string>{};
  if (trace_) {
    trace_->write(TraceLevel::Warning, step.time, "step", "struggling",
                  {{"retries", retries},
                   {"h", integrator_->lastStepSize()},
                   {"worst", body >= 0 ? traceName(model_->bodies[static_cast<size_t>(body)].element(),
                                                   model_->bodies[static_cast<size_t>(body)].id)
                                       : std::string("none")}});
    if (culprit) traceCulprit(TraceLevel::Warning, step.time, "step", "culprit", *culprit);
    for (const std::string& line : advice) trace_->write(TraceLevel::Warning, step.time, "step", "advice", {{"text", line}});
  }
  if (strugglesLogged_ >= kStrugglesLogged) return;
  ++strugglesLogged_;
  logLine(" WARNING: the integrator struggles at t=" + scientific(step.time, 6) + " (" + std::to_string(retries) +
          " retries for one step, h=" + scientific(integrator_->lastStepSize(), 3) + ")" +
          (strugglesLogged_ == kStrugglesLogged ? "; further struggles are not listed" : ""));
  for (const std::string& line : advice) logLine(" WARNING: " + line);
}

void Simulation::watchCost(const SimulationSegment& segment, double time) {
  // The pace is judged at 2000, 4000, 8000… steps: between those, nothing but a count. A segment is costly when,
  // at the mean step so far, it would need kCostlySteps or more; the models' and tests' decks stay below 15 000.
  constexpr long kFirstCheck = 2000;
  constexpr double kCostlySteps = 2e5;
  // A contact whose period is within this many mean steps is what holds them short; one vibrating more slowly is
  // resolved with room to spare and is not named.
  constexpr double kMeanStepsPerPeriod = 1000;
  CostWatch& watch = costWatch_;
  ++watch.steps;
  if (watch.warned || watch.steps < std::max(watch.nextCheck, kFirstCheck)) return;
  watch.nextCheck = 2 * watch.steps;
  const double elapsed = time - segment.startTime;
  if (!(elapsed > 0)) return;
  const double meanStep = elapsed / static_cast<double>(watch.steps);
  const double projected = (segment.endTime - segment.startTime) / meanStep;
  if (projected < kCostlySteps) return;
  const std::optional<ContactEvaluator::Culprit> fastest = system_->fastestContact(time, integrator_->returnedState());
  if (!fastest || fastest->period() > kMeanStepsPerPeriod * meanStep) return;
  watch.warned = true;
  const double period = fastest->period();
  logLine(" WARNING: this segment has taken " + std::to_string(watch.steps) + " steps to t=" + scientific(time, 6) +
          " (mean step " + scientific(meanStep, 3) + "); at this pace it needs about " + scientific(projected, 2) +
          " steps to t=" + scientific(segment.endTime, 6) + ".");
  logLine(" WARNING: " + describeContact(*fastest->pair.element) + " sets the pace: its contact stiffness " +
          "dFn/dpenetration = " + scientific(fastest->stiffness, 3) + " with mass " +
          scientific(fastest->effectiveMass, 3) + " vibrates with period " + scientific(period, 3) + " (" +
          formatSignificant(period / meanStep, 3) + " mean steps), and the steps must follow it. A lower stiffness "
          "(100 times lower makes the period 10 times longer) or more damping would let them grow (not repeated in "
          "this segment).");
}

std::optional<Simulation::FoundCulprit> Simulation::findCulprit(int body) {
  if (body < 0) return std::nullopt;
  const double time = integrator_->time();
  if (auto culprit = system_->hardestContactOn(body, time, integrator_->currentState())) {
    return FoundCulprit{{*culprit}, false};
  }
  std::vector<double> attempted;
  integrator_->attemptedState(attempted);
  if (auto culprit = system_->hardestContactOn(body, time, attempted)) return FoundCulprit{{*culprit}, true};
  return std::nullopt;
}

void Simulation::tracePair(TraceLevel level, double time, std::string_view topic, std::string_view label,
                           const PairReport& pair, std::initializer_list<TraceField> more) {
  const std::string laws = describeLaws(*pair.element);
  traceFields_.assign({{"i", pair.iGraphic},
                       {"j", pair.jGraphic},
                       {"state", pair.inContact ? "touching" : "close"},
                       {"points", pair.points},
                       {"penetration", pair.penetration},
                       {"separation", pair.separation},
                       {"rate", pair.penetrationRate},
                       {"slip", pair.slipSpeed},
                       {"fn", pair.normalForce},
                       {"ft", pair.frictionForce},
                       {"law", laws}});
  traceFields_.insert(traceFields_.end(), more);
  trace_->writeContact(level, time, topic, label, pair.elementId, traceFields_);
}

void Simulation::traceCulprit(TraceLevel level, double time, std::string_view topic, std::string_view label,
                              const FoundCulprit& culprit) {
  // The step IDAS failed began at `time`; its state is what it tried, never accepted.
  tracePair(level, time, topic, label, culprit.pair,
            {{"seen", culprit.inAttemptedStep ? "attempted-step" : "accepted-step"},
             {"stiffness", culprit.stiffness},
             {"period", culprit.period()}});
}

std::vector<std::string> Simulation::adviseOnContact(const ContactEvaluator::Culprit& culprit, int body) {
  std::vector<std::string> lines;
  const PairReport& pair = culprit.pair;
  const ForceContact& element = *pair.element;
  lines.push_back(describeContact(element) + " pushes hardest on " +
                  describeBody(model_->bodies[static_cast<size_t>(body)]) + ": Post_Graphic id=" +
                  std::to_string(pair.iGraphic) + " on id=" + std::to_string(pair.jGraphic) + ", penetration " +
                  scientific(pair.penetration, 3) + ", normal force " + scientific(pair.normalForce, 3) +
                  ", friction force " + scientific(pair.frictionForce, 3) + ", slip speed " +
                  scientific(pair.slipSpeed, 3) + ", laws " + describeLaws(element) + ".");
  if (culprit.stiffness > 0 && culprit.effectiveMass > 0) {
    // The contact's natural period: steps much longer cannot follow it, steps forced shorter (h_min) fail.
    const double period = 2 * M_PI * std::sqrt(culprit.effectiveMass / culprit.stiffness);
    std::string text = "Its contact stiffness dFn/dpenetration = " + scientific(culprit.stiffness, 3) +
                       " with mass " + scientific(culprit.effectiveMass, 3) + " vibrates with period " +
                       scientific(period, 3) + ".";
    if (model_->integrator.hMin > period / 20) {
      text += " h_min = " + scientific(model_->integrator.hMin, 3) +
              " is too long to follow it: lower h_min, or lower the stiffness.";
    } else {
      text += " Lower the stiffness or raise the damping, or set h_max below " + scientific(period / 10, 3) +
              " so that steps resolve the contact.";
    }
    lines.push_back(text);
  }
  const std::string friction = element.frictionLaw ? element.frictionLaw->keyword : "";
  if ((friction == "COULOMB_ON" || friction == "COULOMB_DYNAMICONLY" || friction == "SMOOTH_STICK_SLIP") &&
      pair.frictionForce > 0) {
    lines.push_back("Friction near stiction is stiff: a larger stiction_trans_vel (and friction_trans_vel) softens "
                    "the transition between sticking and slipping.");
  }
  return lines;
}

// ---- sensors ---------------------------------------------------------------------------------------------------

void Simulation::updateSensorHolds(double time, std::span<const double> y, std::span<const double> yp,
                                   std::vector<int>* fired) {
  const std::vector<SensorEvent>& sensors = system_->sensors().sensors();
  sensorHolds_.resize(sensors.size(), 0);
  for (size_t k = 0; k < sensors.size(); ++k) {
    const int index = static_cast<int>(k);
    // IDAS reports a located root only as the condition comes to hold (its root directions): it holds now.
    if (fired && std::find(fired->begin(), fired->end(), index) != fired->end()) {
      sensorHolds_[k] = 1;
      continue;
    }
    const double value = system_->sensorValue(index, time, y.data(), yp.data());
    const bool holds = system_->sensors().conditionHolds(index, value);
    if (fired && holds && !sensorHolds_[k]) fired->push_back(index);
    sensorHolds_[k] = holds ? 1 : 0;
  }
}

void Simulation::logVerboseSensors(double time, std::span<const double> y) {
  const std::vector<SensorEvent>& sensors = system_->sensors().sensors();
  bool interpolated = false;
  for (size_t k = 0; k < sensors.size(); ++k) {
    if (!sensors[k].verbose) continue;
    // Outputs are interpolated: y' there is IDAS's interpolated derivative, once per output.
    if (!interpolated) integrator_->interpolateDerivative(time, outputDerivative_);
    interpolated = true;
    const double value = system_->sensorValue(static_cast<int>(k), time, y.data(), outputDerivative_.data());
    logLine(" " + describeSensor(sensors[k]) + ": " + sensorQuantity(sensors[k]) + " = " + scientific(value, 9) +
            " at t=" + scientific(time, 9));
  }
}

std::optional<SegmentOutcome> Simulation::actOnSensors(const std::vector<int>& fired, double time,
                                                      OutputSchedule& schedule, int& next) {
  const std::span<const double> y = integrator_->returnedState();
  const std::span<const double> yp = integrator_->returnedDerivative();
  std::optional<SegmentOutcome> ended;
  bool writeOutput = false, restart = false;
  for (const int index : fired) {
    const SensorEvent& sensor = system_->sensors().sensors()[static_cast<size_t>(index)];
    const double value = system_->sensorValue(index, time, y.data(), yp.data());
    std::vector<std::string> actions;
    if (sensor.halt) actions.push_back("halt");
    if (sensor.returns) actions.push_back("return");
    if (sensor.print) actions.push_back("print");
    if (sensor.restart) actions.push_back("restart");
    if (sensor.dt) actions.push_back("dt");
    if (sensor.hmax) actions.push_back("hmax");
    if (sensor.stepsize) actions.push_back("stepsize");
    std::string said;
    for (const std::string& action : actions) said += (said.empty() ? "" : ", ") + action;
    if (trace_) {
      const std::string name = traceName("Sensor_Event", sensor.id);
      trace_->write(TraceLevel::Info, time, "events", "begin-event",
                    {{"sensor", name}, {"value", value}, {"located", sensor.zeroCrossing ? 1 : 0}});
      for (const std::string& action : actions) {
        trace_->write(TraceLevel::Info, time, "events", "action", {{"sensor", name}, {"action", action}});
      }
      trace_->write(TraceLevel::Info, time, "events", "end-event", {{"sensor", name}});
    }
    logLine(" " + describeSensor(sensor) + ": " + sensorQuantity(sensor) + " " + compareKeyword(sensor.compare) + " " +
            scientific(sensor.value, 9) + " at t=" + scientific(time, 9) + " (" + sensorQuantity(sensor) + " = " +
            scientific(value, 9) + ", " + (sensor.zeroCrossing ? "located" : "noticed after a step, not located") +
            "); " + (said.empty() ? "no action" : "actions: " + said));
    if (onSensorAction_) {
      if (actions.empty()) onSensorAction_({time, sensor.id, "none", value});
      for (const std::string& action : actions) onSensorAction_({time, sensor.id, action, value});
    }
    // Its Sensor_Evaluate stores the value SENVAL reads from here on; what reads it jumps, so IDAS restarts here.
    if (system_->storeSensorEvaluate(index, time, y.data(), yp.data())) restart = true;
    if (sensor.evaluate >= 0) {
      const SensorEvaluate& evaluate = model_->sensorEvaluates->evaluates[static_cast<size_t>(sensor.evaluate)];
      logLine(" " + evaluate.loc.subject() + ": stored " + evaluate.expression.text() + " = " +
              scientific(system_->sensorEvaluateValues().values[static_cast<size_t>(sensor.evaluate)], 9) +
              " at t=" + scientific(time, 9));
    }
    writeOutput = writeOutput || sensor.print || sensor.halt || sensor.returns;
    if (sensor.hmax) integrator_->setMaxStep(*sensor.hmax);
    if (sensor.stepsize) integrator_->setNextStep(*sensor.stepsize);
    // A new step limit or first step takes hold from a restart at the event: IDAS has already stepped past it,
    // and its step-size history would carry the old steps on.
    restart = restart || sensor.restart || sensor.stepsize || sensor.hmax;
    // Outputs go on every dt from the event.
    if (sensor.dt) {
      schedule.plan(time, schedule.end, *sensor.dt);
      next = 1;
    }
    if (sensor.halt && !ended) {
      ended = SegmentOutcome{true, time, {}, "Simulation halted by " + describeSensor(sensor) + " at t=" +
                                                scientific(time, 9)};
    } else if (sensor.returns && !ended) {
      ended = SegmentOutcome{true, time, {}, std::nullopt};
    }
  }
  if (writeOutput && (!lastOutputTime_ || *lastOutputTime_ != time)) {
    outputState_.assign(y.begin(), y.end());
    emitOutput(time, outputState_, yp, true);
  }
  if (ended) {
    // The run goes on from the event: the next Simulate continues IDAS from there.
    integrator_->restartAtReturnedState(time);
    state_.assign(y.begin(), y.end());
    time_ = time;
    if (ended->haltedBy) logLine(" " + *ended->haltedBy);
    return ended;
  }
  if (restart) integrator_->restartAtReturnedState(time);
  return std::nullopt;
}

SegmentOutcome Simulation::stopForSubroutine() {
  const std::string reason = reportSubroutineMessages().value_or("a user subroutine asked to stop");
  logLine(" ERROR: " + reason);
  if (log_) log_->statistics(statistics() - segmentStart_);
  // The run ends at the call that stopped it, whose time the reason may give, not at IDAS's last step before it.
  return {false, system_->subroutineStopTime().value_or(time_), reason};
}

SegmentOutcome Simulation::interrupt(double time, const EnergySample& startEnergy) {
  const std::span<const double> reached = integrator_->returnedState();
  state_.assign(reached.begin(), reached.end());
  time_ = time;
  if (log_) log_->statistics(statistics() - segmentStart_);
  summariseEnergy(startEnergy, integrator_->returnedDerivative());
  SegmentOutcome outcome{false, time, "interrupted"};
  outcome.interrupted = true;
  return outcome;
}

void Simulation::reportForceMessages() {
  // Trouble that persists would repeat at every step: the first ones are listed, then that there are more.
  constexpr long kLoggedMessageLimit = 20;
  for (const ForceMessage& message : system_->takeForceMessages()) {
    ++forceMessagesLogged_;
    if (forceMessagesLogged_ <= kLoggedMessageLimit) {
      logLine(" WARNING: " + describeForce(*message.element) + " at t=" + scientific(message.time, 6) + ": " +
              message.text + ".");
    } else if (forceMessagesLogged_ == kLoggedMessageLimit + 1) {
      logLine(" WARNING: further numerical trouble of force elements is not listed.");
    }
  }
}

std::optional<std::string> Simulation::reportSubroutineMessages() {
  // A subroutine that writes a line per call would bury the log: the first ones are listed, the rest counted.
  constexpr long kLoggedMessageLimit = 200;
  for (const SubroutineMessage& message : system_->takeSubroutineMessages()) {
    ++subroutineMessagesLogged_;
    if (subroutineMessagesLogged_ <= kLoggedMessageLimit) {
      logLine(std::string(message.error ? " ERROR: " : " ") +
              (message.element ? describeContact(*message.element) + ": " : std::string()) + message.text);
    } else if (subroutineMessagesLogged_ == kLoggedMessageLimit + 1) {
      logLine(" Further messages from user subroutines are not listed.");
    }
  }
  return system_->subroutineStopRequest();
}

std::optional<std::string> Simulation::finish() {
  const bool stoppedBefore = system_->subroutineStopRequest().has_value();
  bool failed = false;
  try {
    system_->finishSubroutines(time_, state_);
  } catch (const SubroutineError&) {
    failed = true;  // recorded, with its details, as the reason to stop
  }
  const std::optional<std::string> reason = reportSubroutineMessages();
  for (const ImpactEpisode& episode : impacts_.takeOpenEpisodes()) {
    if (onImpact_) onImpact_(episode);
  }
  if (!failed || stoppedBefore) return std::nullopt;  // a run that had stopped already says why
  logLine(" ERROR: " + *reason);
  return reason;
}

void Simulation::recordImpacts(double time, std::span<const double> y) {
  if (!onImpact_ && !onOutput_) return;
  ScopedTimer timer(times_.impacts);
  // The recorder's look at the contacts calls subroutines too: DebugOutput does not count those calls as the run's.
  system_->countSubroutineCalls(false);
  try {
    const std::span<const BodyKinematics> bodies = system_->touchingContacts(time, y, touchingPairs_);
    impacts_.observe(time, contactEvents_, touchingPairs_, bodies, endedEpisodes_);
  } catch (const SubroutineError&) {
    // Recorded as the reason to stop, which the run finds next.
  }
  system_->countSubroutineCalls(countsSubroutineCalls());
  if (onImpact_) {
    for (const ImpactEpisode& episode : endedEpisodes_) onImpact_(episode);
  }
  endedEpisodes_.clear();
}

void Simulation::reportContactEvents() {
  // Slip changes (LINEAR_SHEAR) are events.csv's rows: PFC's slip_change, 0 when slip began, 1 when it ended.
  for (const SlipChange& change : system_->takeSlipChanges()) {
    if (onSensorAction_) onSensorAction_({change.time, change.element->id, "slip_change", change.began ? 0.0 : 1.0});
  }
  // A pile of spheres has thousands of impacts: the log lists the first ones and counts the rest.
  constexpr long kLoggedEventLimit = 200;
  for (const ContactEvent& event : contactEvents_) {
    if (onContactEvent_) onContactEvent_(event);
    // An onset of a contact under PFC's laws is its contact_activated event (events.csv, value 0).
    if (onSensorAction_ && event.onset && reportsActivation(*event.element)) {
      onSensorAction_({event.time, event.element->id, "contact_activated", 0.0});
    }
    if (trace_) {
      const TraceField fields[] = {{"i", event.iGraphic}, {"j", event.jGraphic}, {"located", event.located ? 1 : 0}};
      trace_->writeContact(TraceLevel::Info, event.time, "contact", event.onset ? "onset" : "separation",
                           event.element->id, fields);
    }
    ++contactEventsLogged_;
    if (contactEventsLogged_ <= kLoggedEventLimit) {
      logLine(std::string(" Contact ") + (event.onset ? "onset" : "separation") + " at t=" +
              scientific(event.time, 9) + ": " + event.element->loc.subject() + ", Post_Graphic id=" +
              std::to_string(event.iGraphic) + " and id=" + std::to_string(event.jGraphic) +
              (event.located ? "" : " (noticed after a step, not located)"));
    } else if (contactEventsLogged_ == kLoggedEventLimit + 1) {
      logLine(" Further contact events are not listed.");
    }
  }
  contactEvents_.clear();
}

SegmentOutcome Simulation::fail(int flag) {
  const FailureReport report = integrator_->diagnoseFailure(flag);
  time_ = report.time;
  const Model& model = *model_;
  const StateLayout& layout = system_->layout();

  // Blame the body whose residual went non-finite if there was one; otherwise the largest weighted local error.
  int culpritBody = report.nonFiniteBody;
  if (culpritBody < 0) culpritBody = layout.bodyOfVariable(report.worstVariable);

  std::string reason = report.flagName;
  // A subroutine that returned NaN is the likely cause of what IDAS then met: said first.
  if (const std::optional<std::string>& returned = system_->firstNonFiniteSubroutineReturn()) {
    reason = *returned + "; then " + reason;
  }
  if (culpritBody >= 0) reason += " in " + describeBody(model.bodies[static_cast<size_t>(culpritBody)]);
  std::string message = report.solverMessage;
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  if (!message.empty()) reason += ": " + message;

  logLine("");
  logLine(" ERROR: integration failed at t=" + scientific(report.time, 6) + " with " + report.flagName + ".");
  if (!message.empty()) logLine(" ERROR: IDAS says: " + message);
  if (report.nonFiniteBody >= 0) {
    logLine(" ERROR: the residual of " + describeBody(model.bodies[static_cast<size_t>(report.nonFiniteBody)]) +
            " was not finite.");
  }
  if (const ForceElement* force = system_->forces().lastNonFinite()) {
    logLine(" ERROR: " + describeForce(*force) + " gave a force or torque that is not finite at t=" +
            scientific(system_->forces().lastNonFiniteTime(), 6) +
            " (look at its expressions and the variables they read).");
    reason += "; not finite: " + force->loc.subject();
  }
  if (report.worstVariable >= 0) {
    const char* what = report.fromResidual ? "residual" : "local error";
    logLine(std::string(" ERROR: largest weighted ") + what + ": " + system_->describeVariable(report.worstVariable) +
            " (weighted " + what + " " + scientific(report.worstWeightedError) + ").");
  }
  // The contact most likely at fault, at the last state IDAS accepted.
  const std::optional<FoundCulprit> culprit = findCulprit(culpritBody);
  const std::vector<std::string> advice = culprit ? adviseOnContact(*culprit, culpritBody) : std::vector<std::string>{};
  for (const std::string& line : advice) logLine(" ERROR: " + line);
  if (culprit) {
    if (!reason.empty() && reason.back() == '.') reason.pop_back();
    reason += "; most likely at fault: " + describeContact(*culprit->pair.element);
  }
  if (trace_) {
    trace_->write(TraceLevel::Error, report.time, "failure", "integrator",
                  {{"flag", report.flagName},
                   {"worst", culpritBody >= 0
                                 ? traceName(model.bodies[static_cast<size_t>(culpritBody)].element(),
                                             model.bodies[static_cast<size_t>(culpritBody)].id)
                                 : std::string("none")}});
    if (culprit) traceCulprit(TraceLevel::Error, report.time, "failure", "contact", *culprit);
    for (const std::string& line : advice) trace_->write(TraceLevel::Error, report.time, "failure", "advice", {{"text", line}});
  }
  if (log_) log_->statistics(statistics() - segmentStart_);
  return {false, time_, reason};
}

}  // namespace lodestone
