// runDeck: read, build, execute the deck's commands in order, and leave results and a run log behind — never
// crashing, always saying in the log's last line whether the simulation completed.
#include "run.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <filesystem>
#include <optional>
#include <variant>

#include "contact_interference.h"
#include "elements/control_diff.h"
#include "elements/control_state_eqn.h"
#include "elements/force_contact.h"
#include "elements/force_elements.h"
#include "elements/reference_variable.h"
#include "elements/model_builder.h"
#include "elements/model_spec.h"
#include "elements/post_request.h"
#include "elements/sensor_evaluate.h"
#include "elements/sensor_event.h"
#include "elements/subroutine_state.h"
#include "plugins/element_subroutine.h"
#include "plugins/user_code_faults.h"
#include "plugins/user_library.h"
#include "plugins/usersub/analysis_control_host.h"
#include "plugins/usersub/subroutine_host.h"
#include "program_control.h"
#include "solver/core/text.h"
#include "simulation.h"
#include "solver/output/body_results_writer.h"
#include "solver/output/contact_results_writer.h"
#include "solver/output/csv_file.h"
#include "solver/output/energy_results_writer.h"
#include "solver/output/impact_results_writer.h"
#include "solver/output/number_format.h"
#include "solver/output/animation_writer.h"
#include "solver/output/results_h5.h"
#include "solver/output/request_results_writer.h"
#include "solver/output/debug_trace.h"
#include "solver/output/results_folder.h"
#include "solver/output/run_log.h"
#include "solver/xml/deck_reader.h"
#include "stopwatch.h"

namespace lodestone {

namespace {

// "Force_Contact id=300 (deck.xml:23:5): normal force CNFSUB_X from library /m/libcontact.so", for each user
// subroutine of each element: which code the run executes, and from which file (the file found by the lookup, not
// the name the deck gives).
std::vector<std::string> userCodeUses(const Model& model) {
  std::vector<std::string> uses;
  // Variables and force elements first: their set-up calls ran when the model was built.
  const auto add = [&](const SourceLoc& loc, const char* role, const ElementSubroutine& subroutine) {
    uses.push_back(loc.subject() + " (" + loc.position() + "): " + role + " " + subroutine.routine.function + " from " +
                   (subroutine.routine.isPython() ? "script " : "library ") + subroutine.routine.file);
  };
  if (model.variables) {
    for (const ReferenceVariable& variable : model.variables->variables) {
      if (variable.subroutine) add(variable.loc, "value", *variable.subroutine);
    }
  }
  if (model.differentials) {
    for (const ControlDiff& equation : model.differentials->equations) {
      if (equation.subroutine) add(equation.loc, equation.implicit ? "residual" : "derivative", *equation.subroutine);
    }
  }
  if (model.controls) {
    for (const ControlSystem& system : model.controls->systems) {
      if (system.subroutine) add(system.loc, "states' rates and outputs", *system.subroutine);
    }
  }
  if (model.sensors) {
    for (const SensorEvent& sensor : model.sensors->sensors) {
      if (sensor.subroutine) add(sensor.loc, "value", *sensor.subroutine);
    }
  }
  if (model.sensorEvaluates) {
    for (const SensorEvaluate& evaluate : model.sensorEvaluates->evaluates) {
      if (evaluate.subroutine) add(evaluate.loc, "stored value", *evaluate.subroutine);
    }
  }
  if (model.requests) {
    for (const Request& request : model.requests->requests) {
      if (request.subroutine) add(request.loc, "values", *request.subroutine);
    }
  }
  if (model.forces) {
    for (const ForceElement& element : model.forces->elements) {
      if (const auto* scalar = std::get_if<ScalarForce>(&element.law); scalar && scalar->subroutine) {
        add(element.loc, "magnitude", *scalar->subroutine);
      } else if (const auto* vector = std::get_if<VectorForce>(&element.law); vector && vector->subroutine) {
        add(element.loc, "components", *vector->subroutine);
      } else if (const auto* field = std::get_if<ForceField>(&element.law); field && field->subroutine) {
        add(element.loc, "field", *field->subroutine);
      }
    }
  }
  if (model.constraints) {
    for (const Joint& joint : model.constraints->joints) {
      if (joint.motion && joint.motion->subroutine) add(joint.loc, "motion", *joint.motion->subroutine);
    }
  }
  if (!model.contacts) return uses;
  for (const ForceContact& element : model.contacts->elements) {
    const std::pair<const std::optional<UserSubroutine>*, const char*> roles[] = {
        {&element.userNormal, "normal force"}, {&element.userFriction, "friction force"},
        {&element.contactPost, "CONTACTPOST"}};
    for (const auto& [routine, role] : roles) {
      if (!*routine) continue;
      uses.push_back(element.loc.subject() + " (" + element.loc.position() + "): " + role + " " +
                     (*routine)->function + " from " + ((*routine)->isPython() ? "script " : "library ") +
                     (*routine)->file);
    }
  }
  return uses;
}

namespace fs = std::filesystem;

// The elements a table's id column names, as results.h5 describes them.
template <class Spec>
void addElements(const std::vector<Spec>& specs, std::vector<TableElement>& elements) {
  for (const Spec& spec : specs) elements.push_back({spec.id, spec.label, spec.loc});
}

// Whether a contact of the model can report PFC's events (events.csv's slip_change and contact_activated): one whose
// friction law keeps a slip state (LINEAR_SHEAR), or whose laws report their contacts' activation (DIPOLE).
bool reportsContactEvents(const Model& model) {
  if (!model.contacts) return false;
  return std::any_of(model.contacts->elements.begin(), model.contacts->elements.end(), [](const ForceContact& element) {
    return reportsActivation(element) || (!element.userFriction && element.frictionLaw && element.frictionLaw->stateful);
  });
}

// Whether a contact of the model holds a point cloud, whose points cloud_points.csv reports one by one.
bool hasPointCloud(const ContactModel& contacts) {
  return std::any_of(contacts.graphics.begin(), contacts.graphics.end(),
                     [](const ContactGraphic& graphic) { return graphic.shape.type == ShapeType::PointCloud; });
}

// Whether the animation is written, and how: `--animation` writes it whatever the deck says; otherwise H3DOutput's
// switch_on decides, or, without one, whether the deck has a ResOutput. ResOutput's contact_gra_output="FALSE" leaves
// the contacts out.
std::optional<AnimationOptions> animationWanted(const ModelSpec& spec, const RunRequest& request) {
  const bool wanted = request.animation || (spec.h3dOutput ? spec.h3dOutput->switch_on : spec.resOutput.has_value());
  if (!wanted) return std::nullopt;
  AnimationOptions options;
  options.contacts = !spec.resOutput || spec.resOutput->contact_gra_output;
  options.increment = spec.h3dOutput ? spec.h3dOutput->increment : 1;
  return options;
}

// The CONSUB of each UserProgramControl among the deck's commands, loaded into `routines` (as `check` and `run` both
// do, `check` without running it). False when one could not be loaded (said on its line).
bool loadControlSubroutines(const ModelSpec& spec, std::map<const UserProgramControlSpec*, UserSubroutine>& routines,
                            Diagnostics& diagnostics) {
  bool loaded = true;
  for (const CommandSpec& command : spec.commands) {
    const auto* control = std::get_if<UserProgramControlSpec>(&command);
    if (!control) continue;
    std::optional<UserSubroutine> routine =
        loadSubroutine(control->subroutine, kControlSubroutine, control->loc, diagnostics);
    if (routine) routines.emplace(control, std::move(*routine));
    else loaded = false;
  }
  return loaded;
}

// Everything one run keeps between commands.
class DeckRun {
 public:
  DeckRun(const ModelSpec& spec, const RunRequest& request, RunOutcome& outcome)
      : spec_(spec), request_(request), outcome_(outcome) {
    deckPath_ = spec.deckPath.empty() ? request.deckPath : spec.deckPath;
  }

  void execute(double parseSeconds) {
    Stopwatch total;
    const std::clock_t cpuAtStart = std::clock();
    PhaseTimes setupTimes;
    setupTimes.parse = parseSeconds;

    Stopwatch buildWatch;
    std::optional<Model> model = buildModel(spec_, outcome_.diagnostics);
    setupTimes.build = buildWatch.lap();
    // CONSUB is loaded with the model, before any command runs: a missing library or function is a bad deck, as
    // for the subroutines of elements.
    if (model && !loadControlSubroutines(spec_, controlRoutines_, outcome_.diagnostics)) model.reset();
    if (!model) {
      outcome_.status = RunStatus::BadDeck;
      outcome_.message = "bad deck, not simulated";
      return;
    }

    const fs::path outputDir = request_.outputDir.empty() ? fs::path(defaultResultsFolder(deckPath_)) : fs::path(request_.outputDir);
    std::error_code error;
    fs::create_directories(outputDir, error);
    if (error) {
      outcome_.status = RunStatus::SimulationFailed;
      outcome_.message = "cannot create the output folder " + outputDir.string() + ": " + error.message();
      return;
    }
    outcome_.outputDir = outputDir.string();
    try {
      log_.emplace(outputDir / "run.log");
      userCodeFaultLog_.emplace(log_->descriptor());
      results_.emplace(outputDir / "bodies.csv");
      energyResults_.emplace(outputDir / "energy.csv");
      if (model->contacts && !model->contacts->elements.empty()) {
        contactResults_.emplace(outputDir / "contacts.csv");
        impactResults_.emplace(outputDir / "impacts.csv");
        if (hasPointCloud(*model->contacts)) {
          cloudPointResults_.emplace(outputDir / "cloud_points.csv", csvHeader(cloudPointsTable()).c_str());
        }
      }
      if (!spec_.sensors.empty() || reportsContactEvents(*model)) {
        sensorEvents_.emplace(outputDir / "events.csv", csvHeader(eventsTable()).c_str());
      }
      if (!spec_.joints.empty() || !spec_.primitives.empty() || !spec_.markerMotions.empty()) {
        jointResults_.emplace(outputDir / "joints.csv", csvHeader(jointsTable()).c_str());
      }
      if (!model->requests->requests.empty()) requestResults_.emplace(outputDir / "requests.csv");
      if (spec_.debugOutput && spec_.debugOutput->switch_on) {
        trace_.emplace(outputDir / "debug.log", *spec_.debugOutput);
      }
      openResultsFile(outputDir / "results.h5", *model);
    } catch (const std::runtime_error& cannotWrite) {
      outcome_.status = RunStatus::SimulationFailed;
      outcome_.message = cannotWrite.what();
      if (log_) log_->failedBeforeStart(outcome_.message);
      return;
    }

    log_->banner(deckPath_);
    log_->modelSummary(model->units, model->elementCounts, static_cast<int>(model->bodies.size()));
    std::vector<std::string> uses = userCodeUses(*model);
    for (const auto& [control, routine] : controlRoutines_) {
      uses.push_back(control->loc.subject() + " (" + control->loc.position() + "): program control " +
                     routine.function + " from " + (routine.isPython() ? "script " : "library ") + routine.file);
    }
    log_->userCode(uses);

    SimulationOptions options;
    options.threads = request_.threads;
    simulation_.emplace(std::move(*model), options);
    simulation_->times().parse = setupTimes.parse;
    simulation_->times().build = setupTimes.build;
    simulation_->setRunLog(&*log_);
    simulation_->setProgressHandler(request_.onProgress);
    simulation_->setStopCheck(request_.shouldStop);
    if (trace_) simulation_->setDebugTrace(&*trace_);
    simulation_->setSensorActionHandler([this](const SensorAction& action) {
      std::string row;
      appendCsvRow(eventsTable(), action, row);
      sensorEvents_->append(row);
      resultsFile_->append(eventsTable(), std::span(&action, 1));
    });
    if (impactResults_) {
      simulation_->setImpactHandler([this](const ImpactEpisode& episode) {
        impactResults_->write(episode);
        resultsFile_->append(impactsTable(), std::span(&episode, 1));
      });
    }
    simulation_->setOutputHandler([this](const OutputFrame& frame) {
      results_->write(frame.time, frame.bodies);
      if (frame.energy) energyResults_->write(*frame.energy);
      if (contactResults_) contactResults_->write(frame.time, frame.contacts);
      if (jointResults_) writeJointReactions(frame);
      if (cloudPointResults_) {
        std::string rows;
        for (const CloudPointRow& row : cloudPointRows(frame.time, frame.contacts)) {
          appendCsvRow(cloudPointsTable(), row, rows);
        }
        cloudPointResults_->append(rows);
      }
      writeResultsFile(frame);
      if (animation_ && animating_) {
        animation_->write(frame.time, simulation_->model(), frame.bodies, frame.contacts, frame.joints);
      }
      if (requestResults_) requestResults_->write(frame.time, frame.requests);
    });

    workingSpec_ = spec_;
    if (!startAnimation()) {
      log_->failedBeforeStart(outcome_.message);
      return;
    }
    bool stopped = false;
    for (const CommandSpec& command : spec_.commands) {
      if (const auto* simulate = std::get_if<SimulateSpec>(&command)) {
        if (!simulate_(*simulate) || halted_) break;
      } else if (const auto* modify = std::get_if<ModifyCommand>(&command)) {
        if (!modify_(*modify)) break;
      } else if (const auto* control = std::get_if<UserProgramControlSpec>(&command)) {
        if (!programControl_(*control) || halted_) break;
      } else if (std::holds_alternative<StopSpec>(command)) {
        stopped = true;
        break;
      }
    }

    // A subroutine that fails in its last calls (CONTACTPOST closing its files) fails a run that had completed.
    if (const std::optional<std::string> failure = simulation_->finish();
        failure && outcome_.status == RunStatus::Completed) {
      outcome_.status = RunStatus::SimulationFailed;
      outcome_.message = *failure;
      failureTime_ = simulation_->time();
    }
    PhaseTimes& times = simulation_->times();
    times.total = total.elapsed() + parseSeconds;
    times.processCpu = static_cast<double>(std::clock() - cpuAtStart) / CLOCKS_PER_SEC + parseSeconds;
    if (segmentsRun_ > 1) log_->statistics(simulation_->statistics(), "CUMULATIVE DAE SOLVER STATISTICS (all segments)");
    log_->phaseTimes(times);
    std::vector<std::filesystem::path> outputs{results_->path(), energyResults_->path()};
    if (contactResults_) outputs.push_back(contactResults_->path());
    if (impactResults_) outputs.push_back(impactResults_->path());
    if (sensorEvents_) outputs.push_back(sensorEvents_->path());
    if (jointResults_) outputs.push_back(jointResults_->path());
    if (cloudPointResults_) outputs.push_back(cloudPointResults_->path());
    if (requestResults_) outputs.push_back(requestResults_->path());
    if (trace_) outputs.push_back(trace_->path());
    resultsFile_->flush();
    outputs.push_back(resultsFile_->path());
    if (animation_) {
      animation_->close();
      outputs.push_back(animation_->path());
    }
    outputs.push_back(log_->path());
    log_->files(deckPath_, outputs);
    if (stopped) log_->line("Execution terminated by STOP command.");
    if (outcome_.status == RunStatus::Completed) {
      outcome_.message = "simulation completed";
      log_->completed();
    } else if (outcome_.status == RunStatus::Interrupted) {
      log_->interrupted(*failureTime_);
    } else if (failureTime_) {
      log_->failed(*failureTime_, outcome_.message);
    } else {
      log_->failedBeforeStart(outcome_.message);
    }
    // The log went on being written to the end, so a disk that refused it midway is known only now; results may be
    // complete, but a run whose log is lost did not succeed.
    if (const std::optional<std::string>& logLost = log_->writeFailure()) {
      if (outcome_.status == RunStatus::Completed) {
        outcome_.status = RunStatus::SimulationFailed;
        outcome_.message = *logLost;
      } else {
        outcome_.message += "; " + *logLost;
      }
    }
  }

  // The log's last line after an exception escaped: still one of the two endings.
  void reportInternalError(const std::string& what) {
    outcome_.status = RunStatus::SimulationFailed;
    outcome_.message = "internal error: " + what;
    if (!log_) return;
    if (simulation_) {
      log_->failed(simulation_->time(), outcome_.message);
    } else {
      log_->failedBeforeStart(outcome_.message);
    }
  }

 private:
  // joints.csv: each joint's reaction and each motion's driving load on its I marker, in ground (force, then torque
  // about the marker's origin). A motion and a joint may share an id: the element column tells them apart.
  void writeJointReactions(const OutputFrame& frame) {
    std::string rows;
    for (const JointReaction& reaction : frame.joints) appendCsvRow(jointsTable(), JointRow{frame.time, reaction}, rows);
    jointResults_->append(rows);
  }

  // results.h5, with a table for each CSV file the run writes.
  void openResultsFile(const fs::path& path, const Model& model) {
    resultsFile_.emplace(path, deckPath_, model.units);
    std::vector<TableElement> bodies;
    for (const RigidBody& body : model.bodies) bodies.push_back({body.id, body.label, body.loc});
    resultsFile_->addTable(bodiesTable(), bodies);
    resultsFile_->addTable(energyTable(), {});
    if (contactResults_) {
      std::vector<TableElement> contacts;
      addElements(spec_.contacts, contacts);
      resultsFile_->addTable(contactsTable(), contacts);
      resultsFile_->addTable(impactsTable(), contacts);
      if (cloudPointResults_) resultsFile_->addTable(cloudPointsTable(), contacts);
    }
    if (jointResults_) {
      std::vector<TableElement> joints;
      addElements(spec_.joints, joints);
      addElements(spec_.primitives, joints);
      addElements(spec_.motions, joints);
      addElements(spec_.markerMotions, joints);
      resultsFile_->addTable(jointsTable(), joints);
    }
    if (requestResults_) {
      std::vector<TableElement> requests;
      addElements(spec_.requests, requests);
      resultsFile_->addTable(requestsTable(), requests);
    }
    if (sensorEvents_) {
      std::vector<TableElement> sensors;
      addElements(spec_.sensors, sensors);
      resultsFile_->addTable(eventsTable(), sensors);
    }
  }

  void writeResultsFile(const OutputFrame& frame) {
    std::vector<BodyRow> bodies;
    for (const BodySample& body : frame.bodies) bodies.push_back({frame.time, body});
    resultsFile_->append(bodiesTable(), std::span<const BodyRow>(bodies));
    if (frame.energy) resultsFile_->append(energyTable(), std::span(frame.energy, 1));
    if (contactResults_) {
      std::vector<ContactRow> contacts;
      for (const PairReport& pair : frame.contacts) contacts.push_back({frame.time, pair});
      resultsFile_->append(contactsTable(), std::span<const ContactRow>(contacts));
      if (cloudPointResults_) {
        const std::vector<CloudPointRow> points = cloudPointRows(frame.time, frame.contacts);
        resultsFile_->append(cloudPointsTable(), std::span<const CloudPointRow>(points));
      }
    }
    if (jointResults_) {
      std::vector<JointRow> joints;
      for (const JointReaction& joint : frame.joints) joints.push_back({frame.time, joint});
      resultsFile_->append(jointsTable(), std::span<const JointRow>(joints));
    }
    if (requestResults_) {
      std::vector<RequestRow> requests;
      for (const RequestSample& request : frame.requests) requests.push_back({frame.time, request});
      resultsFile_->append(requestsTable(), std::span<const RequestRow>(requests));
    }
    resultsFile_->flushWhenDue();
  }

  // Opens the animation when the working deck (or the command line) asks for it, and follows a Modify that changes
  // H3DOutput or ResOutput. False, with the reason in the outcome, when its folder cannot be made.
  bool startAnimation() {
    const std::optional<AnimationOptions> wanted = animationWanted(workingSpec_, request_);
    animating_ = wanted.has_value();
    if (!wanted) return true;
    if (animation_) {
      animation_->setOptions(*wanted);
      return true;
    }
    try {
      animation_ = openAnimation(outcome_.outputDir,
                                 drawnGraphics(workingSpec_.graphics, workingSpec_.markers, simulation_->model()),
                                 *wanted);
    } catch (const std::runtime_error& cannotWrite) {
      outcome_.status = RunStatus::SimulationFailed;
      outcome_.message = cannotWrite.what();
      return false;
    }
    return true;
  }

  // `refusal`: what the run's message says when the times are impossible.
  bool simulate_(const SimulateSpec& command, const char* refusal = "this Simulate cannot be run") {
    std::optional<SimulationSegment> segment = planSegment(command, currentTime_, outcome_.diagnostics);
    if (!segment) return badDeckAt(command.loc, refusal);
    if (segment->analysis == AnalysisType::Transient) lastPrintInterval_ = segment->printInterval;
    ++segmentsRun_;
    const SegmentOutcome result = simulation_->run(*segment);
    currentTime_ = result.time;
    if (!result.completed) {
      outcome_.status = result.interrupted ? RunStatus::Interrupted : RunStatus::SimulationFailed;
      outcome_.message = result.interrupted ? "interrupted at t=" + scientific(result.time, 6) : result.reason;
      failureTime_ = result.time;
      return false;
    }
    const char* analysis = segment->analysis == AnalysisType::Static     ? "STATIC ANALYSIS COMPLETED"
                           : segment->analysis == AnalysisType::Assembly ? "ASSEMBLY COMPLETED"
                           : result.haltedBy                              ? "TRANSIENT SIMULATION HALTED"
                                                                          : "TRANSIENT SIMULATION COMPLETED";
    log_->line(analysis);
    log_->line();
    halted_ = result.haltedBy.has_value();
    return true;
  }

  bool modify_(const ModifyCommand& command) {
    log_->line(" Applying " + command.loc.subject() + " (" + command.loc.position() + ")...");
    if (command.apply) command.apply(workingSpec_);
    Stopwatch watch;
    std::optional<Model> model = buildModel(workingSpec_, outcome_.diagnostics);
    simulation_->times().build += watch.lap();
    if (!model) return badDeckAt(command.loc, "the modified model has errors");
    std::string whyNot;
    if (!simulation_->replaceModel(std::move(*model), whyNot)) {
      outcome_.diagnostics.error(command.loc, whyNot);
      return badDeckAt(command.loc, whyNot);
    }
    return startAnimation();
  }

  // ---- UserProgramControl: CONSUB drives the run through ANALYS, MODIFY and DATOUT ------------------------------

  // What CONSUB's utilities reach while it runs: ANALYS runs what a Simulate runs, MODIFY what a command element
  // does; c_errmes and c_sysfnc answer as in any other subroutine.
  class ControlHost final : public AnalysisControlHost, public SubroutineHost {
   public:
    ControlHost(DeckRun& run, const UserProgramControlSpec& control, const UserSubroutine& routine)
        : run_(run), control_(control), routine_(routine),
          subject_(control.loc.subject() + " (" + control.loc.position() + ")") {}

    int analys(std::string_view analysis, std::string_view name, double tbegin, double tend, int) override {
      const std::string call = utility("analys") + "(\"" + std::string(analysis) + "\", \"" + std::string(name) +
                               "\", " + formatReal(tbegin) + ", " + formatReal(tend) + ")";
      if (ended_) return refuse(call, *ended_);
      const std::string kind = toUpper(trim(analysis));
      SimulateSpec simulate;
      simulate.loc = control_.loc;
      if (kind == "TRANSIENT") {
        simulate.analysis_type = "Transient";
        simulate.print_interval = control_.print_interval ? control_.print_interval : run_.lastPrintInterval_;
        if (!simulate.print_interval) {
          return refuse(call, "a transient analysis needs an output step: give UserProgramControl print_interval, or "
                              "run a Simulate with print_interval before it");
        }
      } else if (kind == "STATICS" || kind == "STATIC") {
        simulate.analysis_type = "Static";
      } else {
        return refuse(call, "analysis \"" + std::string(analysis) + "\" is not available; TRANSIENT and STATICS are");
      }
      simulate.start_time = tbegin;
      simulate.end_time = tend;
      const std::string title = name.empty() ? std::string("analysis") : std::string(name);
      run_.log_->line(" " + subject_ + ": " + call + ": " + title);
      // The analysis calls other subroutines; ANALYS and MODIFY from them are refused, as only CONSUB may call them.
      const ScopedAnalysisControlHost none(nullptr);
      if (!run_.simulate_(simulate, "this ANALYS cannot be run")) {
        ended_ = "the run failed in an earlier ANALYS";
        return 1;
      }
      if (run_.halted_) ended_ = "a sensor halted the run in an earlier ANALYS";
      return 0;
    }

    int modify(std::string_view command) override {
      const std::string call = utility("modify") + "(\"" + std::string(command) + "\")";
      if (ended_) return refuse(call, *ended_);
      const ModifyParse parse = parseModifyCommand(command, run_.workingSpec_, control_.loc);
      if (!parse.change) return refuse(call, parse.refusal);
      run_.log_->line(" " + subject_ + ": " + call + ": " + parse.description);
      if (!run_.modify_(*parse.change)) {
        ended_ = "the model MODIFY changed could not be built";
        return 1;
      }
      return 0;
    }

    int datout() override {
      // Rows are written as each analysis produces them; what is buffered goes to disk now.
      run_.resultsFile_->flush();
      run_.log_->line(" " + subject_ + ": " + utility("datout") + "(): results written up to t=" +
                      formatReal(run_.currentTime_.value_or(0)));
      return 0;
    }

    double time() const override { return run_.currentTime_.value_or(0); }

    std::optional<MarkerMotion> markerMotion(int id) const override {
      if (id == 0) return MarkerMotion{};
      const Model& model = run_.simulation_->model();
      const Marker* marker = model.marker(id);
      if (!marker) return std::nullopt;
      if (marker->body < 0) return lodestone::markerMotion(*marker, nullptr);
      const std::span<const double> state = run_.simulation_->state();
      const BodyKinematics body =
          bodyKinematics(state.data() + run_.simulation_->layout().bodyOffset(marker->body));
      return lodestone::markerMotion(*marker, &body);
    }

    std::optional<std::array<double, 3>> splinePartials(bool akima, int id, double x, double z,
                                                        int order) const override {
      return modelSplinePartials(run_.simulation_->model(), akima, id, x, z, order);
    }

    void subroutineMessage(int id, std::string_view message, bool error, bool stop) override {
      const std::string utilityName = routine_.isPython() ? "py_errmes" : "c_errmes";
      run_.log_->line(std::string(" ") + (error ? "ERROR: " : "") + subject_ + ": " + routine_.function + " (" +
                      utilityName + ", id=" + std::to_string(id) + "): " + std::string(message));
      if (stop && !stopRequest_) {
        stopRequest_ = subject_ + ": " + routine_.describe() + " asked to stop (" + utilityName +
                       "): " + std::string(message);
        ended_ = "CONSUB asked to stop";
      }
    }

    void utilityProblem(std::string_view utility, std::string_view problem) override {
      std::string name(utility);
      if (routine_.isPython() && name.rfind("c_", 0) == 0) name = "py_" + name.substr(2);
      run_.log_->line(" ERROR: " + subject_ + ": " + name + " called from " + routine_.function + ": " +
                      std::string(problem));
    }

    const std::vector<ContactPostPoint>* contactPoints(int, int, int) const override { return nullptr; }

    const std::optional<std::string>& stopRequest() const { return stopRequest_; }

   private:
    std::string utility(const char* name) const { return (routine_.isPython() ? "py_" : "c_") + std::string(name); }

    // Refused: said in run.log and as a warning; CONSUB gets a nonzero status.
    int refuse(const std::string& call, const std::string& why) {
      run_.log_->line(" WARNING: " + subject_ + ": " + call + " refused: " + why);
      run_.outcome_.diagnostics.warning(control_.loc, call + " refused: " + why);
      return -1;
    }

    DeckRun& run_;
    const UserProgramControlSpec& control_;
    const UserSubroutine& routine_;
    std::string subject_;
    std::optional<std::string> ended_;  // why later ANALYS and MODIFY calls are refused
    std::optional<std::string> stopRequest_;
  };

  // Calls CONSUB once; false when the run ends there (a failed analysis or model change, an exception, a STOP).
  bool programControl_(const UserProgramControlSpec& control) {
    const UserSubroutine& routine = controlRoutines_.at(&control);
    const std::string subject = control.loc.subject() + " (" + control.loc.position() + ")";
    log_->line(" Calling " + routine.describe() + " for " + subject + "...");
    ControlHost host(*this, control, routine);
    try {
      const ScopedSubroutineHost messages(host);
      const ScopedAnalysisControlHost analyses(&host);
      callSubroutine(routine, ControlCall{currentTime_.value_or(0)});
    } catch (const SubroutineError& error) {
      if (!error.details().empty()) log_->line(" " + subject + ": " + tracebackText(routine, error));
      if (outcome_.status == RunStatus::Completed) {
        outcome_.status = RunStatus::SimulationFailed;
        outcome_.message = subject + ": " + error.what() + (error.details().empty() ? "" : " (traceback in run.log)");
        failureTime_ = currentTime_;
      }
      return false;
    }
    if (outcome_.status != RunStatus::Completed) return false;  // an analysis or a model change failed
    if (host.stopRequest()) {
      outcome_.status = RunStatus::SimulationFailed;
      outcome_.message = *host.stopRequest();
      failureTime_ = currentTime_;
      return false;
    }
    log_->line(" " + routine.function + " returned; " + subject + " done");
    log_->line();
    return true;
  }

  bool badDeckAt(const SourceLoc& where, const std::string& what) {
    outcome_.status = RunStatus::BadDeck;
    outcome_.message = where.position() + ": " + what;
    for (const Diagnostic& diagnostic : outcome_.diagnostics.entries()) log_->line(" " + diagnostic.format());
    if (currentTime_) failureTime_ = currentTime_;
    return false;
  }

  const ModelSpec& spec_;
  const RunRequest& request_;
  RunOutcome& outcome_;
  std::string deckPath_;
  ModelSpec workingSpec_;
  std::optional<RunLog> log_;
  std::optional<UserCodeFaultLog> userCodeFaultLog_;  // after log_: it lets go of the log first
  std::optional<BodyResultsWriter> results_;
  std::optional<EnergyResultsWriter> energyResults_;
  std::optional<ContactResultsWriter> contactResults_;
  std::optional<ImpactResultsWriter> impactResults_;  // impacts.csv, for decks with contact
  std::optional<CsvFile> sensorEvents_;  // events.csv, for decks with sensors or contacts with a slip state
  std::optional<CsvFile> cloudPointResults_;  // cloud_points.csv, for decks whose contacts hold a point cloud
  std::optional<CsvFile> jointResults_;  // joints.csv, for decks with joints
  std::optional<RequestResultsWriter> requestResults_;  // requests.csv, for decks with requests it can write
  std::optional<DebugTrace> trace_;      // debug.log, with DebugOutput
  std::optional<ResultsH5File> resultsFile_;  // results.h5, always
  std::unique_ptr<AnimationWriter> animation_;  // animation.pvd, once the deck or the command line asks for it
  bool animating_ = false;                    // the deck's latest settings want frames
  bool halted_ = false;                  // a sensor with halt ended the run
  std::optional<Simulation> simulation_;
  std::optional<double> currentTime_;
  std::optional<double> failureTime_;
  int segmentsRun_ = 0;
  std::optional<double> lastPrintInterval_;  // of the last transient analysis: ANALYS's output step without another
  std::map<const UserProgramControlSpec*, UserSubroutine> controlRoutines_;  // CONSUB of each UserProgramControl
};

}  // namespace

RunOutcome runModelSpec(const ModelSpec& spec, const RunRequest& request, double parseSeconds) {
  RunOutcome outcome;
  DeckRun run(spec, request, outcome);
  try {
    run.execute(parseSeconds);
  } catch (const std::exception& error) {
    run.reportInternalError(error.what());
  } catch (...) {
    run.reportInternalError("unknown exception");
  }
  return outcome;
}

RunOutcome runDeck(const RunRequest& request) {
  RunOutcome outcome;
  try {
    Stopwatch watch;
    std::optional<ModelSpec> spec = readDeck(request.deckPath, outcome.diagnostics, request.settings);
    const double parseSeconds = watch.lap();
    if (!spec) {
      outcome.status = RunStatus::BadDeck;
      outcome.message = "bad deck, not simulated";
      return outcome;
    }
    Diagnostics readerDiagnostics = std::move(outcome.diagnostics);
    outcome = runModelSpec(*spec, request, parseSeconds);
    // The reader's warnings come first, in the order found.
    readerDiagnostics.append(outcome.diagnostics);
    outcome.diagnostics = std::move(readerDiagnostics);
  } catch (const std::exception& error) {
    outcome.status = RunStatus::SimulationFailed;
    outcome.message = std::string("internal error: ") + error.what();
  } catch (...) {
    outcome.status = RunStatus::SimulationFailed;
    outcome.message = "internal error: unknown exception";
  }
  return outcome;
}

Diagnostics checkDeck(const std::string& deckPath, const std::vector<AttributeSetting>& settings) {
  // The libraries and scripts the deck names are looked at, not run: checking a deck must not execute its code.
  const UserCodeInspection inspection;
  Diagnostics diagnostics;
  if (const std::optional<ModelSpec> spec = readDeck(deckPath, diagnostics, settings)) {
    // The model as built, with its bodies where the deck puts them: which contact pairs overlap there.
    if (const std::optional<Model> model = buildModel(*spec, diagnostics)) checkInterference(*model, diagnostics);
    std::map<const UserProgramControlSpec*, UserSubroutine> controlRoutines;
    loadControlSubroutines(*spec, controlRoutines, diagnostics);
  }
  return diagnostics;
}

}  // namespace lodestone
