// A user subroutine as an element calls it (Force_Contact's CNFSUB…, the force elements' SFOSUB…, VARSUB): a C
// function found in a shared library or a Python function defined by a script, the numbers of its USER(...)
// parameter string, and the calls with MotionSolve's arguments. The argument structs below are the one description
// of each prototype; user_subroutine.cpp hands them to a C function (every argument by pointer), python_engine.cpp
// to a Python one (numbers and lists), and each reads back what it returned.
#pragma once

#include <array>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "user_library.h"

namespace lodestone {

class PythonFunction;  // plugins/python_scripts.h

struct UserSubroutine {
  std::string function;                      // its name, as the deck gives it ("CNFSUB")
  std::string file;                          // path of the library or script it came from
  std::vector<double> parameters;            // par; npar is their count
  // C: the library stays loaded while any model uses it, and the function's address.
  std::shared_ptr<SharedLibrary> keepLoaded;
  void* address = nullptr;
  // Python: the script's callable (the script stays loaded while any model uses it).
  std::shared_ptr<const PythonFunction> python;

  bool isPython() const { return python != nullptr; }
  // "CNFSUB in /path/libcontact.so", for messages.
  std::string describe() const { return function + " in " + file; }
};

// ---- the arguments of each subroutine (lodestone/usersub.h, REFERENCE.md §6) -----------------------------------

// CNFSUB(id, time, par, npar, loci, ni, locj, nj, gap, gapdot, gapdotdot, dflag, iflag) -> result[0]
struct NormalCall {
  int id = 0;
  double time = 0;
  std::array<double, 3> loci{}, ni{}, locj{}, nj{};
  double gap = 0, gapdot = 0, gapdotdot = 0;
  bool dflag = false, iflag = false;
};

// CFFSUB(id, time, par, npar, loci, locj, x, xdot, nforce, dflag, iflag) -> result[0..2]
struct FrictionCall {
  int id = 0;
  double time = 0;
  std::array<double, 3> loci{}, locj{}, x{}, xdot{};
  double nforce = 0;
  bool dflag = false, iflag = false;
};

// CONTACTPOST(id, i_gra_id, j_gra_id, time, par, npar, iflag, endflg)
struct ContactPostCall {
  int id = 0, iGraphic = 0, jGraphic = 0;
  double time = 0;
  bool iflag = false, endflg = false;
};

// CONSUB(par, npar), the subroutine of UserProgramControl: it returns nothing (a Python CONSUB's return value is not
// read). `time`: where the run stands, for the line of a crash in the call.
struct ControlCall {
  double time = 0;
};

// SFOSUB, VFOSUB, VTOSUB, GFOSUB, VARSUB, MOTSUB, DIFSUB(id, time, par, npar, dflag, iflag) -> result[0..count),
// and withoutDflag SENSUB (Sensor_Event) and REQSUB (Post_Request): (id, time, par, npar, iflag) -> result[0..count),
// MotionSolve's prototypes for values that are never differenced. In Python the function returns a sequence of
// `count` numbers, or, when count is 1, a number. `returns` says what, for messages ("[fx, fy, fz] in ref_marker_id's
// axes").
struct ElementCall {
  int id = 0;
  double time = 0;
  bool dflag = false, iflag = false;
  bool withoutDflag = false;  // SENSUB, REQSUB: no dflag argument (dflag is not passed)
  // FIESUB (Force_Field): (id, time, par, npar, disp, velo, dflag, iflag) -> field[0..6), the deflection and its rate
  // handed in; in C also dfddis and dfdvel, in Python [field, dfddis, dfdvel] returned: the derivatives are not read.
  bool field = false;
  std::array<double, 6> disp{}, velo{};
  size_t count = 1;  // 1, 3, 6, or 8 (REQSUB)
  const char* returns = "";
  const char* element = "";  // the element's kind ("Force_Scalar_TwoBody"), for the line of a crash in the call
};

// GSESUB (Control_StateEqn type="USERSUB"): (id, time, par, npar, dflag, iflag, nstate, states, ninput, input,
// noutpt) -> stated[0..nstate), output[0..noutpt): the states' time derivatives and the outputs at the states and
// inputs handed in. In C both are arrays it fills; in Python it returns [stated, output], two sequences.
struct StateEquationCall {
  int id = 0;
  double time = 0;
  bool dflag = false, iflag = false;
  std::span<const double> states, inputs;
  int outputCount = 0;
};
struct StateEquationValues {
  std::vector<double> stated, output;
};

// A subroutine that gave no usable result: a Python exception, or a return value of the wrong kind or length.
// what(): one line ("CNFSUB in /m/contact.py raised ZeroDivisionError: float division by zero"); details(): the
// lines that explain it (Python's traceback), empty when there are none.
class SubroutineError : public std::runtime_error {
 public:
  SubroutineError(const std::string& summary, std::string details)
      : std::runtime_error(summary), details_(std::move(details)) {}
  const std::string& details() const { return details_; }

 private:
  std::string details_;
};

// "traceback of CNFSUB:" and the error's details (Python's traceback) below it, each line indented, for the run log
// before the one-line reason a failure gives.
std::string tracebackText(const UserSubroutine& routine, const SubroutineError& error);

// The calls, with routine.parameters as par. A C function may write to its arguments: it gets copies. Throw
// SubroutineError when a Python function fails; a C function cannot fail this way.
double callSubroutine(const UserSubroutine& routine, const NormalCall& call);  // the normal force
std::array<double, 3> callSubroutine(const UserSubroutine& routine, const FrictionCall& call);
void callSubroutine(const UserSubroutine& routine, const ContactPostCall& call);
void callSubroutine(const UserSubroutine& routine, const ControlCall& call);
// The first call.count numbers are the result; the rest are 0. The set-up call's result is all zeros.
std::array<double, 8> callSubroutine(const UserSubroutine& routine, const ElementCall& call);
// Both vectors sized as the call says; all zeros for the set-up call.
StateEquationValues callSubroutine(const UserSubroutine& routine, const StateEquationCall& call);

}  // namespace lodestone
