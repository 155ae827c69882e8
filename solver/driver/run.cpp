// runDeck: read, build, execute the deck's commands in order, and leave results and a run log behind — never
// crashing, always saying in the log's last line whether the simulation completed.
#include "run.h"

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <optional>
#include <variant>

#include "contact_interference.h"
#include "elements/control_diff.h"
#include "elements/force_contact.h"
#include "elements/force_elements.h"
#include "elements/reference_variable.h"
#include "elements/model_builder.h"
#include "elements/model_spec.h"
#include "elements/post_request.h"
#include "elements/sensor_event.h"
#include "plugins/user_code_faults.h"
#include "plugins/user_library.h"
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
  if (model.sensors) {
    for (const SensorEvent& sensor : model.sensors->sensors) {
      if (sensor.subroutine) add(sensor.loc, "value", *sensor.subroutine);
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
    log_->userCode(userCodeUses(*model));

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

  bool simulate_(const SimulateSpec& command) {
    std::optional<SimulationSegment> segment = planSegment(command, currentTime_, outcome_.diagnostics);
    if (!segment) return badDeckAt(command.loc, "this Simulate cannot be run");
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
  }
  return diagnostics;
}

}  // namespace lodestone
