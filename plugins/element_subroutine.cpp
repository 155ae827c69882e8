// The subroutines of force elements and variables: attributes, loading, the set-up call and the run-time calls,
// with a SubroutineHost answering the utilities from the element's state.
#include "element_subroutine.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <span>

#include "python_scripts.h"
#include "solver/core/excerpt.h"
#include "solver/core/text.h"
#include "user_library.h"
#include "user_parameters.h"

namespace lodestone {

namespace {

// MotionSolve's "NULL" library means the model- or machine-level one, which Lodestone does not have.
bool namesLibrary(const std::optional<std::string>& library) {
  return library && !library->empty() && !equalsIgnoreCase(*library, "NULL");
}

std::string functionName(const SubroutineAttributeValues& values, const char* defaultFunction) {
  return values.function ? *values.function : std::string(defaultFunction);
}

// Answers the utilities during one call; the set-up call also records what they read.
class ElementHost final : public SubroutineHost {
 public:
  ElementHost(const ElementSubroutine& subroutine, const SubroutineState& state, ElementSubroutine* recording)
      : subroutine_(subroutine), state_(state), recording_(recording) {}

  double time() const override { return state_.time(); }

  std::optional<MarkerMotion> markerMotion(int id) const override {
    std::optional<MarkerMotion> motion = state_.marker(id);
    if (motion && recording_ && id != 0) addOnce(recording_->markersRead, id);
    if (motion && !recording_ && id != 0 && subroutine_.readsOnlyWhatItsSetUpRead &&
        std::find(subroutine_.markersRead.begin(), subroutine_.markersRead.end(), id) == subroutine_.markersRead.end()) {
      stopForAReadNotDeclared("Reference_Marker id=" + std::to_string(id));
    }
    return motion;
  }

  void velocitiesRead() override {
    if (recording_) recording_->velocitiesRead = true;
    if (!recording_ && subroutine_.readsOnlyWhatItsSetUpRead && !subroutine_.velocitiesRead) {
      stopForAReadNotDeclared("velocities");
    }
  }

  std::optional<double> variable(int id) const override {
    std::optional<double> value = state_.variable(id);
    if (value && recording_) addOnce(recording_->variablesRead, id);
    return value;
  }

  std::optional<std::array<double, 3>> splinePartials(bool akima, int id, double x, double z,
                                                      int order) const override {
    return state_.splinePartials(akima, id, x, z, order);
  }

  void subroutineMessage(int id, std::string_view message, bool error, bool stop) override {
    ElementSubroutineRecord& record = elementSubroutineRecord();
    const std::string utility = subroutine_.routine.isPython() ? "py_errmes" : "c_errmes";
    record.messages.push_back({subroutine_.element + ": " + subroutine_.routine.function + " (" + utility + ", id=" +
                                   std::to_string(id) + "): " + std::string(message),
                               error});
    if (stop && !record.stopRequest) {
      record.stopTime = state_.time();
      record.stopRequest = subroutine_.element + ": " + subroutine_.routine.describe() + " asked to stop (" + utility +
                           "): " + std::string(message);
    }
  }

  // A motion's subroutine read at run time what its set-up call did not: the motion's equation was not differentiated
  // over it, so the run stops rather than integrate a wrong constraint.
  void stopForAReadNotDeclared(const std::string& what) const {
    ElementSubroutineRecord& record = elementSubroutineRecord();
    if (record.stopRequest) return;
    record.stopTime = state_.time();
    record.stopRequest = subroutine_.element + ": " + subroutine_.routine.describe() + " read " + what + " at t=" +
                         formatReal(state_.time()) + ", which its set-up call (iflag = 1) did not read: a motion's "
                         "equation is differentiated over what the set-up call reads, so read every marker there";
  }

  void utilityProblem(std::string_view utility, std::string_view problem) override {
    std::string name(utility);
    if (subroutine_.routine.isPython() && name.rfind("c_", 0) == 0) name = "py_" + name.substr(2);
    const std::string text = subroutine_.element + ": " + name + " called from " + subroutine_.routine.function +
                             ": " + std::string(problem);
    ElementSubroutineRecord& record = elementSubroutineRecord();
    if (record.reported.insert(text).second) record.messages.push_back({text, true});
  }

  const std::vector<ContactPostPoint>* contactPoints(int, int, int) const override { return nullptr; }

 private:
  static void addOnce(std::vector<int>& ids, int id) {
    if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
  }

  const ElementSubroutine& subroutine_;
  const SubroutineState& state_;
  ElementSubroutine* recording_;
};

// The one-line reason a failure gives, with the traceback's lines indented in the log before it.
std::string recordFailure(const ElementSubroutine& subroutine, const SubroutineError& error, double time) {
  ElementSubroutineRecord& record = elementSubroutineRecord();
  std::string reason = subroutine.element + ": " + error.what() + " at t=" + formatReal(time);
  if (!error.details().empty()) {
    record.messages.push_back({subroutine.element + ": " + tracebackText(subroutine.routine, error), true});
    reason += " (traceback in run.log)";
  }
  return reason;
}

// The elements waiting for each library that is not found, by the name the deck gives, in the order met.
struct MissingLibrary {
  std::string attribute;  // as the first element that needs it names it: "usrsub_dll_name", "cnf_dll_name"…
  std::string name, reason;
  std::vector<SourceLoc> needs;  // the elements that name it
};
std::vector<MissingLibrary>& missingLibraries() {
  // Per thread: a deck is read on one thread, and decks read on others (the Python package) have their own.
  static thread_local std::vector<MissingLibrary> missing;
  return missing;
}

void noteMissingLibrary(const std::string& attribute, const std::string& name, const std::string& reason,
                        const SourceLoc& loc) {
  std::vector<MissingLibrary>& missing = missingLibraries();
  auto found = std::find_if(missing.begin(), missing.end(), [&](const MissingLibrary& library) {
    return library.name == name;
  });
  if (found == missing.end()) {
    missing.push_back(MissingLibrary{.attribute = attribute, .name = name, .reason = reason, .needs = {}});
    found = std::prev(missing.end());
  }
  found->needs.push_back(loc);
}

}  // namespace

void reportNeededAtRun(const SourceLoc& loc, const std::string& message, Diagnostics& diagnostics) {
  if (userCodeIsOnlyInspected()) {
    diagnostics.warning(loc, message + " (an error for `run`)");
  } else {
    diagnostics.error(loc, message);
  }
}

void forgetMissingLibraries() { missingLibraries().clear(); }

void reportMissingLibraries(Diagnostics& diagnostics) {
  for (MissingLibrary& library : missingLibraries()) {
    // In the deck's order, each element once (a command that modifies an element names it again), said on the first.
    std::stable_sort(library.needs.begin(), library.needs.end(),
                     [](const SourceLoc& a, const SourceLoc& b) { return a.line < b.line; });
    std::vector<std::string> needs;
    for (const SourceLoc& need : library.needs) {
      const std::string named = need.subject() + " (line " + std::to_string(need.line) + ")";
      if (std::find(needs.begin(), needs.end(), named) == needs.end()) needs.push_back(named);
    }
    std::string list;
    for (const std::string& need : needs) list += (list.empty() ? "" : ", ") + need;
    reportNeededAtRun(library.needs.front(),
                      library.attribute + "=\"" + library.name + "\": " + library.reason + "; needed by " +
                          std::to_string(needs.size()) + (needs.size() == 1 ? " element: " : " elements: ") + list,
                      diagnostics);
  }
  forgetMissingLibraries();
}

void checkSubroutineAttributes(const SubroutineAttributeValues& values, const char* defaultFunction,
                               const SourceLoc& loc, Diagnostics& diagnostics) {
  if (values.parameters) {
    const UserParameters parsed = parseUserParameters(*values.parameters);
    if (!parsed.error.empty()) {
      diagnostics.error(loc, "usrsub_param_string=\"" + excerpt(*values.parameters) + "\", column " +
                                 std::to_string(parsed.column) + ": " + parsed.error);
    }
  }
  const std::string function = functionName(values, defaultFunction);
  if (values.interpreter && !equalsIgnoreCase(*values.interpreter, "PYTHON")) {
    diagnostics.error(loc, "interpreter=\"" + excerpt(*values.interpreter) +
                               "\" is not available: the only interpreter is PYTHON (interpreter=\"PYTHON\")");
  } else if (values.script && !values.interpreter) {
    diagnostics.error(loc, "script_name=\"" + excerpt(*values.script) + "\" needs interpreter=\"PYTHON\"");
  } else if (values.interpreter && !values.script) {
    diagnostics.error(loc, "interpreter=\"" + excerpt(*values.interpreter) + "\" needs script_name, the Python file "
                                                                             "that defines " + function);
  }
  if (!namesLibrary(values.library) && !values.script) {
    diagnostics.error(loc, "usrsub_dll_name is needed: the shared library that holds " + function +
                               " (a path, or a name looked up beside the deck and in LODESTONE_USERSUB_PATH); or "
                               "script_name with interpreter=\"PYTHON\" for a function written in Python");
  }
  if (namesLibrary(values.library) && values.script) {
    diagnostics.warning(loc, "usrsub_dll_name is ignored: script_name=\"" + excerpt(*values.script) + "\" gives " +
                                 function);
  }
  if (namesLibrary(values.library) && !values.script) noteIfLibraryMissing("usrsub_dll_name", *values.library, loc);
}

void noteIfLibraryMissing(const std::string& attribute, const std::string& library, const SourceLoc& loc) {
  // Looked up as UserLibraries::load will (nothing is loaded).
  const char* searchPath = std::getenv("LODESTONE_USERSUB_PATH");
  const std::string deckFolder = std::filesystem::path(loc.file).parent_path().string();
  try {
    findUserFile("library", library,
                 libraryCandidates(library, deckFolder, searchPath ? searchPath : "", executableLibFolder()));
  } catch (const UserFileNotFound& error) {
    noteMissingLibrary(attribute, library, error.what(), loc);
  }
}

void warnUnusedSubroutineAttributes(const SubroutineAttributeValues& values, const std::string& why,
                                    const SourceLoc& loc, Diagnostics& diagnostics) {
  const std::pair<const char*, const std::optional<std::string>*> given[] = {
      {"usrsub_dll_name", &values.library}, {"usrsub_fnc_name", &values.function},
      {"usrsub_param_string", &values.parameters}, {"script_name", &values.script},
      {"interpreter", &values.interpreter}};
  for (const auto& [name, value] : given) {
    if (*value) diagnostics.warning(loc, std::string(name) + " is ignored: " + why);
  }
}

std::optional<UserSubroutine> loadSubroutine(const SubroutineAttributeValues& values, const char* defaultFunction,
                                             const SourceLoc& loc, Diagnostics& diagnostics) {
  const bool python = values.script && values.interpreter && equalsIgnoreCase(*values.interpreter, "PYTHON");
  if (values.script ? !python : !namesLibrary(values.library)) return std::nullopt;  // reported by the check
  UserSubroutine routine;
  routine.function = functionName(values, defaultFunction);
  if (values.parameters) {
    const UserParameters parsed = parseUserParameters(*values.parameters);
    if (!parsed.error.empty()) return std::nullopt;  // reported by the check
    routine.parameters = parsed.values;
  }
  // Relative names are looked for beside the deck first.
  const std::string deckFolder = std::filesystem::path(loc.file).parent_path().string();
  if (python) {
    try {
      PythonScripts scripts(deckFolder);
      const std::shared_ptr<const PythonScript> script = scripts.load(*values.script);
      routine.file = script->path();
      try {
        routine.python = scriptFunction(script, routine.function);
      } catch (const std::exception& error) {
        diagnostics.error(loc, "usrsub_fnc_name=\"" + routine.function + "\": " + error.what());
        return std::nullopt;
      }
    } catch (const std::exception& error) {
      diagnostics.error(loc, "script_name=\"" + *values.script + "\" (for " + routine.function + "): " + error.what());
      return std::nullopt;
    }
    return routine;
  }
  try {
    UserLibraries libraries(deckFolder);
    routine.keepLoaded = libraries.load(*values.library);
  } catch (const UserFileNotFound& error) {
    // The reader said it, once for the library (reportMissingLibraries): `check` builds the element with a stand-in,
    // never called, so that what else the deck holds is checked as well. (A model built from a spec not read from a
    // deck gets the error here.)
    if (userCodeIsOnlyInspected()) {
      routine.file = *values.library;
      return routine;
    }
    diagnostics.error(loc, "usrsub_dll_name=\"" + *values.library + "\": " + error.what());
    return std::nullopt;
  } catch (const std::exception& error) {
    diagnostics.error(loc, "usrsub_dll_name=\"" + *values.library + "\": " + error.what());
    return std::nullopt;
  }
  routine.file = routine.keepLoaded->path();
  std::string error;
  routine.address = routine.keepLoaded->symbol(routine.function, error);
  if (!routine.address) {
    diagnostics.error(loc, "usrsub_fnc_name=\"" + routine.function + "\": no function " + routine.function + " in " +
                               routine.file + " (" + error +
                               "); is it exported with C linkage (extern \"C\", or the prototypes of "
                               "lodestone/usersub.h)?");
    return std::nullopt;
  }
  return routine;
}

bool setUpSubroutine(ElementSubroutine& subroutine, const SubroutineState& state, const SourceLoc& loc,
                     Diagnostics& diagnostics) {
  if (userCodeIsOnlyInspected()) return true;  // `check` runs no user code
  ElementHost host(subroutine, state, &subroutine);
  const ScopedSubroutineHost installed(host);
  ElementSubroutineRecord& record = elementSubroutineRecord();
  const bool stopBefore = record.stopRequest.has_value();
  const size_t messagesBefore = record.messages.size();
  try {
    if (subroutine.stateEquation) {
      // The sizes a GSESUB dimensions its arrays with, and zeros: the set-up call computes nothing.
      const std::vector<double> states(static_cast<size_t>(subroutine.stateEquation->states), 0.0);
      const std::vector<double> inputs(static_cast<size_t>(subroutine.stateEquation->inputs), 0.0);
      callSubroutine(subroutine.routine,
                     StateEquationCall{.id = static_cast<int>(subroutine.id), .time = state.time(), .iflag = true,
                                       .states = states, .inputs = inputs,
                                       .outputCount = subroutine.stateEquation->outputs});
    } else {
      callSubroutine(subroutine.routine,
                     ElementCall{.id = static_cast<int>(subroutine.id), .time = state.time(), .iflag = true,
                                 .withoutDflag = subroutine.withoutDflag, .field = subroutine.takesDeflection(),
                                 .count = subroutine.count, .returns = subroutine.returns,
                                 .element = subroutine.kind.c_str()});
    }
  } catch (const SubroutineError& error) {
    diagnostics.error(loc, std::string("the set-up call (iflag = 1): ") + error.what() +
                               (error.details().empty() ? "" : "\n" + error.details()));
    return false;
  }
  // A STOP asked here would be forgotten when the simulation starts (the record is cleared then): the model is not
  // built, on the element's line, as a failed set-up call is.
  // With what the call's utilities refused, which is often why it stopped (the run's log does not exist yet).
  if (!stopBefore && record.stopRequest) {
    std::string refused;
    for (size_t k = messagesBefore; k < record.messages.size(); ++k) refused += "\n" + record.messages[k].text;
    diagnostics.error(loc, "the set-up call (iflag = 1): " + *record.stopRequest + refused);
    record.stopRequest.reset();
    record.stopTime.reset();
    return false;
  }
  return true;
}

namespace {

// A call's failure (a Python exception, a wrong return), recorded as the run's reason to stop and rethrown.
template <class Call>
auto guardedCall(const ElementSubroutine& subroutine, const SubroutineState& state, const Call& call) {
  ElementHost host(subroutine, state, nullptr);
  const ScopedSubroutineHost installed(host);
  try {
    return callSubroutine(subroutine.routine, call);
  } catch (const SubroutineError& error) {
    ElementSubroutineRecord& record = elementSubroutineRecord();
    const std::string reason = recordFailure(subroutine, error, state.time());
    if (!record.stopRequest) {
      record.stopRequest = reason;
      record.stopTime = state.time();
    }
    throw;
  }
}

// A value the equations use that is not finite makes the integrator retry: said once per element. True when all are.
bool checkFinite(const ElementSubroutine& subroutine, std::span<const double> values, double time) {
  for (const double value : values) {
    if (std::isfinite(value)) continue;
    ElementSubroutineRecord& record = elementSubroutineRecord();
    const std::string returned = subroutine.routine.describe() + " returned " + formatReal(value) + " at t=" +
                                 formatReal(time);
    if (!record.firstNonFiniteReturn) record.firstNonFiniteReturn = subroutine.element + ": " + returned;
    if (record.reported.insert(subroutine.element + " not finite").second) {
      record.messages.push_back(
          {subroutine.element + ": " + returned + "; the integrator will retry with smaller steps", true});
    }
    return false;
  }
  return true;
}

}  // namespace

std::array<double, 8> callElementSubroutine(const ElementSubroutine& subroutine, const SubroutineState& state,
                                            bool dflag, const std::array<double, 6>& disp,
                                            const std::array<double, 6>& velo) {
  const std::array<double, 8> result = guardedCall(
      subroutine, state,
      ElementCall{.id = static_cast<int>(subroutine.id), .time = state.time(), .dflag = dflag,
                  .withoutDflag = subroutine.withoutDflag, .field = subroutine.takesDeflection(), .disp = disp,
                  .velo = velo, .count = subroutine.count, .returns = subroutine.returns,
                  .element = subroutine.kind.c_str()});
  // SENSUB's and REQSUB's values are read at outputs and sensors, never by the equations.
  if (!subroutine.withoutDflag) checkFinite(subroutine, std::span(result.data(), subroutine.count), state.time());
  return result;
}

StateEquationValues callStateEquationSubroutine(const ElementSubroutine& subroutine, const SubroutineState& state,
                                                bool dflag, std::span<const double> states,
                                                std::span<const double> inputs) {
  StateEquationValues values = guardedCall(
      subroutine, state,
      StateEquationCall{.id = static_cast<int>(subroutine.id), .time = state.time(), .dflag = dflag, .states = states,
                        .inputs = inputs, .outputCount = subroutine.stateEquation->outputs});
  if (checkFinite(subroutine, values.stated, state.time())) checkFinite(subroutine, values.output, state.time());
  return values;
}

ElementSubroutineRecord& elementSubroutineRecord() {
  static ElementSubroutineRecord record;
  return record;
}

}  // namespace lodestone
