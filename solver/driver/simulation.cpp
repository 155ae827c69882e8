// Segment loop: one IDAS step at a time, outputs interpolated at print times, progress, failure reports.
#include "simulation.h"

#include <cmath>

#include "solver/output/number_format.h"
#include "stopwatch.h"

namespace lodestone {

namespace {

// Output times: start + k·interval while short of the end, then the end itself. A last interval shorter than
// a billionth of the print interval is rounding, not an output.
struct OutputSchedule {
  double start, end, interval;
  int count;  // index of the end time; outputs are 0..count

  explicit OutputSchedule(const SimulationSegment& segment)
      : start(segment.startTime), end(segment.endTime), interval(segment.printInterval) {
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

}  // namespace

Simulation::Simulation(Model model, SimulationOptions options)
    : options_(std::move(options)), model_(std::make_unique<Model>(std::move(model))) {
  system_ = std::make_unique<MultibodySystem>(*model_, times_);
  state_.resize(static_cast<size_t>(system_->layout().size()));
  system_->initialState(state_);
}

Simulation::~Simulation() = default;

LinearSolverKind Simulation::linearSolver() const {
  return integrator_ ? integrator_->linearSolver()
                     : chooseLinearSolver(system_->layout().bodyCount(), options_.integrator.linearSolver);
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
  auto system = std::make_unique<MultibodySystem>(*replacement, times_);
  if (system->layout().size() != system_->layout().size()) {
    whyNot = "a command may change element attributes but not add or remove moving bodies (" +
             std::to_string(system_->layout().bodyCount()) + " before, " +
             std::to_string(system->layout().bodyCount()) + " after)";
    return false;
  }
  discardIntegrator();
  model_ = std::move(replacement);
  system_ = std::move(system);
  if (!started_) system_->initialState(state_);
  return true;
}

void Simulation::discardIntegrator() {
  if (!integrator_) return;
  discardedStatistics_ += integrator_->statistics();
  integrator_.reset();
}

void Simulation::startIntegrator(double startTime) {
  discardIntegrator();
  time_ = startTime;
  // Once a user subroutine has failed (IDAS then gives up at once) or asked to stop, its own words say why.
  const auto onMessage = [this](const std::string& line) {
    if (!system_->subroutineStopRequest()) logLine(" " + line);
  };
  integrator_ = std::make_unique<Integrator>(*system_, model_->integrator, startTime, state_, options_.integrator,
                                             times_, onMessage);
}

bool Simulation::emitOutput(double time, std::span<const double> state, bool integratorHasStepped) {
  ScopedTimer timer(times_.output);
  lastOutputTime_ = time;
  if (!onOutput_) return true;
  system_->sampleBodies(state, samples_);
  try {
    system_->sampleContacts(time, state, contactSamples_);
  } catch (const SubroutineError&) {
    return false;  // recorded as the reason to stop; an output with a force missing is not written
  }
  OutputFrame frame;
  frame.time = time;
  frame.bodies = samples_;
  frame.contacts = contactSamples_;
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

SegmentOutcome Simulation::run(const SimulationSegment& segment) {
  const OutputSchedule schedule(segment);
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
    log_->analysisStart(analysis);
  }

  segmentStart_ = before;
  try {
    system_->startSubroutines(segment.startTime, state_);
  } catch (const SubroutineError&) {
    return stopForSubroutine();
  }
  if (!lastOutputTime_ || *lastOutputTime_ != segment.startTime) {
    if (!emitOutput(segment.startTime, state_, continues)) return stopForSubroutine();
  }
  started_ = true;
  if (!continues) {
    time_ = segment.startTime;
    if (size > 0) {
      startIntegrator(segment.startTime);
      const StepResult start = integrator_->computeConsistentStart(schedule.at(1));
      if (start.status == StepStatus::Failed) {
        return system_->subroutineStopRequest() ? stopForSubroutine() : fail(start.flag);
      }
      // Pairs that touch at the start are in contact from the start.
      system_->acceptContactStep(segment.startTime, state_.data(), contactEvents_);
      reportContactEvents();
    }
  }

  if (size == 0) {
    // Nothing moves: every output time shows the same (empty) state.
    for (int k = 1; k <= schedule.count; ++k) emitOutput(schedule.at(k), state_, false);
    time_ = segment.endTime;
    logLine(" No moving bodies: nothing to integrate.");
    return {true, time_, {}};
  }

  integrator_->setStopTime(segment.endTime);
  const double progressSpacing = (segment.endTime - segment.startTime) / std::max(1, options_.progressLinesPerSegment);
  double lastProgressLine = segment.startTime;
  Stopwatch sinceProgressCall;
  int next = 1;
  for (;;) {
    const StepResult step = integrator_->step();
    // A subroutine that failed inside IDAS's callbacks made IDAS give up: the subroutine, not IDAS, is the reason.
    if (step.status == StepStatus::Failed) {
      return system_->subroutineStopRequest() ? stopForSubroutine() : fail(step.flag);
    }
    if (step.status == StepStatus::RootFound) {
      system_->applyContactRoots(step.time, integrator_->returnedState().data(), integrator_->rootsFound().data(),
                                 contactEvents_);
    } else {
      system_->acceptContactStep(step.time, integrator_->returnedState().data(), contactEvents_);
    }
    while (next <= schedule.count && schedule.at(next) <= step.time) {
      const double t = schedule.at(next);
      // At the stop time the interpolant gives exactly the solution IDAS returned there.
      integrator_->interpolate(t, outputState_);
      if (!emitOutput(t, outputState_, true)) break;
      if (log_ && (next == schedule.count || t - lastProgressLine >= progressSpacing * (1 - 1e-9))) {
        log_->progress(t, integrator_->lastOrder(), integrator_->lastStepSize());
        lastProgressLine = t;
      }
      ++next;
    }
    time_ = step.time;
    reportContactEvents();
    if (reportSubroutineMessages()) {
      const std::span<const double> reached = integrator_->returnedState();
      state_.assign(reached.begin(), reached.end());
      return stopForSubroutine();
    }
    // The law changes at an onset or a separation: restart IDAS there rather than carry the old history across.
    if (step.status == StepStatus::RootFound) integrator_->restartAtReturnedState(step.time);
    if (onProgress_ && sinceProgressCall.elapsed() >= options_.progressCallInterval) {
      sinceProgressCall.lap();
      onProgress_(step.time, segment.startTime, segment.endTime);
    }
    if (step.status == StepStatus::ReachedStopTime) break;
  }
  time_ = segment.endTime;
  state_ = outputState_;
  if (log_) log_->statistics(statistics() - before);
  return {true, time_, {}};
}

SegmentOutcome Simulation::stopForSubroutine() {
  const std::string reason = reportSubroutineMessages().value_or("a user subroutine asked to stop");
  logLine(" ERROR: " + reason);
  if (log_) log_->statistics(statistics() - segmentStart_);
  return {false, time_, reason};
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
  if (!failed || stoppedBefore) return std::nullopt;  // a run that had stopped already says why
  logLine(" ERROR: " + *reason);
  return reason;
}

void Simulation::reportContactEvents() {
  // A pile of spheres has thousands of impacts: the log lists the first ones and counts the rest.
  constexpr long kLoggedEventLimit = 200;
  for (const ContactEvent& event : contactEvents_) {
    if (onContactEvent_) onContactEvent_(event);
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
  if (report.worstVariable >= 0) {
    const char* what = report.fromResidual ? "residual" : "local error";
    logLine(std::string(" ERROR: largest weighted ") + what + ": " + layout.describeVariable(model, report.worstVariable) +
            " (weighted " + what + " " + scientific(report.worstWeightedError) + ").");
  }
  if (log_) log_->statistics(statistics() - segmentStart_);
  return {false, time_, reason};
}

}  // namespace lodestone
