// The user subroutines of elements other than Force_Contact — SFOSUB (Force_Scalar_TwoBody), VFOSUB, VTOSUB and
// GFOSUB (Force_Vector_*), VARSUB (Reference_Variable): their deck attributes, loading them (the lookup and messages
// of Force_Contact's subroutines), the set-up call that records what they read, and their calls at run time with
// the utilities answered from the element's state.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "solver/core/diagnostics.h"
#include "solver/core/schema.h"
#include "usersub/subroutine_host.h"
#include "user_subroutine.h"

namespace lodestone {

// What an element says about its subroutine: usrsub_dll_name, usrsub_fnc_name, usrsub_param_string, script_name
// and interpreter.
struct SubroutineAttributeValues {
  std::optional<std::string> library, function, parameters, script, interpreter;
  bool any() const { return library || function || parameters || script || interpreter; }
  // A library or a script is named: the element calls the subroutine instead of its own values.
  bool named() const { return library || script; }
};

// The five schema rows, for a Spec holding its values in `field`.
template <class Spec>
void addSubroutineRows(std::vector<Attribute<Spec>>& rows, SubroutineAttributeValues Spec::*field) {
  using Member = std::optional<std::string> SubroutineAttributeValues::*;
  const std::pair<const char*, Member> names[] = {{"usrsub_dll_name", &SubroutineAttributeValues::library},
                                                  {"usrsub_fnc_name", &SubroutineAttributeValues::function},
                                                  {"usrsub_param_string", &SubroutineAttributeValues::parameters},
                                                  {"script_name", &SubroutineAttributeValues::script},
                                                  {"interpreter", &SubroutineAttributeValues::interpreter}};
  for (const auto& entry : names) {
    // The member by name, not by a structured binding: clang 14 (the fuzz build's) cannot capture those.
    const Member member = entry.second;
    rows.push_back(attr::make<Spec>(entry.first, ValueKind::Text, [field, member](Spec& spec, const Value& value) {
      (spec.*field).*member = std::get<std::string>(value);
    }));
  }
}

// The attributes of an element whose type calls `defaultFunction` (SFOSUB…): a library (not "NULL") or a Python
// script is named, the USER(...) string parses, interpreter is PYTHON and goes with script_name. Errors on `loc`.
void checkSubroutineAttributes(const SubroutineAttributeValues& values, const char* defaultFunction,
                               const SourceLoc& loc, Diagnostics& diagnostics);
// Warns about subroutine attributes an element that calls no subroutine was given (`why`: "type is not USERSUB").
void warnUnusedSubroutineAttributes(const SubroutineAttributeValues& values, const std::string& why,
                                    const SourceLoc& loc, Diagnostics& diagnostics);

// The subroutine loaded: its library (looked for beside the deck of `loc`, then in LODESTONE_USERSUB_PATH and
// build/lib) and function, or its script's function; under a UserCodeInspection only inspected. Nothing after
// reporting why on `loc` (missing library, missing function, a script that does not compile).
std::optional<UserSubroutine> loadSubroutine(const SubroutineAttributeValues& values, const char* defaultFunction,
                                             const SourceLoc& loc, Diagnostics& diagnostics);

// What only a run needs, said once where `check` and `run` differ: a warning under `check` (which runs no user code),
// an error under `run`, which then fails before integrating.
void reportNeededAtRun(const SourceLoc& loc, const std::string& message, Diagnostics& diagnostics);

// Libraries named by usrsub_dll_name that are not found (a vendor's, such as Altair's msautoutils or mbdtire, not
// installed): checkSubroutineAttributes notes each element that needs one, and reportMissingLibraries, once the deck
// is read (checkWholeDeck), says ONE line per library naming every element that needs it (reportNeededAtRun: a
// warning for `check`, which then builds those elements with stand-ins never called; an error for `run`), and
// forgets them.
void forgetMissingLibraries();
void reportMissingLibraries(Diagnostics& diagnostics);
// Notes `library`, named by `attribute` ("usrsub_dll_name", or Force_Contact's "cnf_dll_name"…) on `loc`, when it is
// not found, for reportMissingLibraries. A builder that then cannot load it gives `check` a stand-in never called.
void noteIfLibraryMissing(const std::string& attribute, const std::string& library, const SourceLoc& loc);

// What a subroutine reads while it runs: the element's state.
class SubroutineState {
 public:
  virtual ~SubroutineState() = default;
  virtual double time() const = 0;
  // Nothing when the model has no marker `id` (0 is ground).
  virtual std::optional<MarkerMotion> marker(int id) const = 0;
  // Nothing when the model has no Reference_Variable `id`.
  virtual std::optional<double> variable(int id) const = 0;
  // SubroutineHost::splinePartials.
  virtual std::optional<std::array<double, 3>> splinePartials(bool akima, int id, double x, double z,
                                                              int order) const = 0;
};

// A loaded subroutine as its element holds it.
struct ElementSubroutine {
  UserSubroutine routine;
  long id = 0;
  std::string element;  // "Force_Scalar_TwoBody id=5 (deck.xml:12:3)", for messages
  std::string kind;     // "Force_Scalar_TwoBody"
  size_t count = 1;     // the numbers it returns
  bool withoutDflag = false;  // SENSUB, REQSUB: MotionSolve's prototype (id, time, par, npar, iflag, result)
  // FIESUB, Force_Field's: (id, time, par, npar, disp, velo, dflag, iflag, field…), the deflection handed in.
  bool takesDeflection() const { return kind == "Force_Field"; }
  const char* returns = "";
  // GSESUB, Control_StateEqn's: (id, time, par, npar, dflag, iflag, nstate, states, ninput, input, noutpt, stated,
  // output), the system's sizes; nothing for the other families.
  struct StateEquationSizes {
    int states = 0, inputs = 0, outputs = 0;
  };
  std::optional<StateEquationSizes> stateEquation;
  // What the set-up call read through c_sysfnc / c_sysary (markers, ground left out) and c_varval (variable ids),
  // and whether it read velocities (VX…, VEL).
  std::vector<int> markersRead, variablesRead;
  bool velocitiesRead = false;
  // A motion's (MOTSUB's) equation is differentiated over the bodies of the markers its set-up call read: set for
  // it, so that a later call that reads another marker, or velocities it did not read then, stops the run.
  bool readsOnlyWhatItsSetUpRead = false;
};

// The set-up call (iflag = 1), made once when the model is built by `run` (never by `check`): the markers and
// variables it reads are recorded in `subroutine`. `state` answers with the model's initial state. A subroutine that
// fails there is reported on `loc`; false then.
bool setUpSubroutine(ElementSubroutine& subroutine, const SubroutineState& state, const SourceLoc& loc,
                     Diagnostics& diagnostics);

// One call at `state`: the result's first `count` numbers (`dflag` is not passed to a subroutine withoutDflag; only
// the others' non-finite values are recorded, as the integrator retries on them). A failure (a Python exception, a
// wrong return) is recorded as the run's reason to stop and rethrown as SubroutineError; c_errmes lines and a stop
// request go to the record below.
// `disp` and `velo`: what a FIESUB (takesDeflection) is handed, the field's deflection and its rate.
std::array<double, 8> callElementSubroutine(const ElementSubroutine& subroutine, const SubroutineState& state,
                                            bool dflag, const std::array<double, 6>& disp = {},
                                            const std::array<double, 6>& velo = {});

// One GSESUB call (subroutine.stateEquation) at `state` with the system's states and inputs: the states' time
// derivatives and the outputs. Failures and values that are not finite as callElementSubroutine's.
StateEquationValues callStateEquationSubroutine(const ElementSubroutine& subroutine, const SubroutineState& state,
                                                bool dflag, std::span<const double> states,
                                                std::span<const double> inputs);

// What the calls of element subroutines left for the run's log, one record per process (a process runs one
// simulation at a time, as the utilities' host is one per process): cleared when a simulation starts.
struct ElementSubroutineRecord {
  struct Message {
    std::string text;  // with the element
    bool error = false;
  };
  std::vector<Message> messages;
  std::optional<std::string> stopRequest;  // a subroutine asked to stop or failed: why, in one line
  std::optional<double> stopTime;
  std::optional<std::string> firstNonFiniteReturn;
  std::set<std::string> reported;  // problems said once
  void clear() { *this = ElementSubroutineRecord{}; }
};
ElementSubroutineRecord& elementSubroutineRecord();

}  // namespace lodestone
