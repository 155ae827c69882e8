// The calls of user subroutines: each prototype's arguments handed to a C function (by pointer, as MotionSolve
// passes them), or to the embedded interpreter for a Python function (python_engine.cpp: numbers, and lists for par
// and the vectors).
#include "user_subroutine.h"

#include <algorithm>

#include "lodestone/usersub.h"
#include "python_engine.h"
#include "user_code_faults.h"

namespace lodestone {

namespace {

// par as a C function gets it: a copy it may write to, on the stack for the usual handful of numbers. (A
// thread_local buffer cost more than the call itself: in position-independent code every access goes through
// __tls_get_addr.)
class ParameterCopy {
 public:
  explicit ParameterCopy(const std::vector<double>& parameters) {
    if (parameters.size() > inline_.size()) {
      heap_ = parameters;
      data_ = heap_.data();
    } else {
      std::copy(parameters.begin(), parameters.end(), inline_.begin());
      data_ = inline_.data();
    }
  }
  double* data() { return data_; }

 private:
  std::array<double, 32> inline_;
  std::vector<double> heap_;
  double* data_;
};

}  // namespace

std::string tracebackText(const UserSubroutine& routine, const SubroutineError& error) {
  std::string text = "traceback of " + routine.function + ":";
  const std::string& details = error.details();
  size_t start = 0;
  while (start < details.size()) {
    const size_t end = std::min(details.find('\n', start), details.size());
    text += "\n    " + details.substr(start, end - start);
    start = end + 1;
  }
  return text;
}

// ---- the prototypes --------------------------------------------------------------------------------------

double callSubroutine(const UserSubroutine& routine, const NormalCall& call) {
  const UserCodeCall inside(routine, call.id, call.time);
  if (routine.isPython()) return pythonEngine().call(routine, call);
  NormalCall copy = call;
  int id = copy.id, npar = static_cast<int>(routine.parameters.size());
  int dflag = copy.dflag ? 1 : 0, iflag = copy.iflag ? 1 : 0;
  double result[6] = {0, 0, 0, 0, 0, 0};
  ParameterCopy par(routine.parameters);
  reinterpret_cast<lodestone_cnfsub>(routine.address)(&id, &copy.time, par.data(), &npar, copy.loci.data(),
                                                      copy.ni.data(), copy.locj.data(), copy.nj.data(), &copy.gap,
                                                      &copy.gapdot, &copy.gapdotdot, &dflag, &iflag, result);
  return result[0];
}

std::array<double, 3> callSubroutine(const UserSubroutine& routine, const FrictionCall& call) {
  const UserCodeCall inside(routine, call.id, call.time);
  if (routine.isPython()) return pythonEngine().call(routine, call);
  FrictionCall copy = call;
  int id = copy.id, npar = static_cast<int>(routine.parameters.size());
  int dflag = copy.dflag ? 1 : 0, iflag = copy.iflag ? 1 : 0;
  double result[6] = {0, 0, 0, 0, 0, 0};
  ParameterCopy par(routine.parameters);
  reinterpret_cast<lodestone_cffsub>(routine.address)(&id, &copy.time, par.data(), &npar, copy.loci.data(),
                                                      copy.locj.data(), copy.x.data(), copy.xdot.data(), &copy.nforce,
                                                      &dflag, &iflag, result);
  return {result[0], result[1], result[2]};
}

void callSubroutine(const UserSubroutine& routine, const ContactPostCall& call) {
  const UserCodeCall inside(routine, call.id, call.time);
  if (routine.isPython()) return pythonEngine().call(routine, call);
  ContactPostCall copy = call;
  int npar = static_cast<int>(routine.parameters.size());
  int iflag = copy.iflag ? 1 : 0, endflg = copy.endflg ? 1 : 0;
  ParameterCopy par(routine.parameters);
  reinterpret_cast<lodestone_contactpost>(routine.address)(&copy.id, &copy.iGraphic, &copy.jGraphic, &copy.time,
                                                           par.data(), &npar, &iflag, &endflg);
}

void callSubroutine(const UserSubroutine& routine, const ControlCall& call) {
  const UserCodeCall inside(routine, 0, call.time, "UserProgramControl");
  if (routine.isPython()) return pythonEngine().call(routine, call);
  int npar = static_cast<int>(routine.parameters.size());
  ParameterCopy par(routine.parameters);
  reinterpret_cast<lodestone_consub>(routine.address)(par.data(), &npar);
}

std::array<double, 8> callSubroutine(const UserSubroutine& routine, const ElementCall& call) {
  const UserCodeCall inside(routine, call.id, call.time, call.element);
  if (routine.isPython()) return pythonEngine().call(routine, call);
  int id = call.id, npar = static_cast<int>(routine.parameters.size());
  int dflag = call.dflag ? 1 : 0, iflag = call.iflag ? 1 : 0;
  double time = call.time;
  double result[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  ParameterCopy par(routine.parameters);
  if (call.field) {
    std::array<double, 6> disp = call.disp, velo = call.velo;  // copies: the subroutine may write to them
    std::array<double, 36> dfddis{}, dfdvel{};
    reinterpret_cast<lodestone_fieldsub>(routine.address)(&id, &time, par.data(), &npar, disp.data(), velo.data(),
                                                          &dflag, &iflag, result, dfddis.data(), dfdvel.data());
  } else if (call.withoutDflag) {
    reinterpret_cast<lodestone_outputsub>(routine.address)(&id, &time, par.data(), &npar, &iflag, result);
  } else {
    reinterpret_cast<lodestone_elementsub>(routine.address)(&id, &time, par.data(), &npar, &dflag, &iflag, result);
  }
  if (call.iflag) return {};
  std::array<double, 8> values{};
  std::copy_n(result, call.count, values.begin());
  return values;
}

StateEquationValues callSubroutine(const UserSubroutine& routine, const StateEquationCall& call) {
  const UserCodeCall inside(routine, call.id, call.time, "Control_StateEqn");
  if (routine.isPython()) return pythonEngine().call(routine, call);
  int id = call.id, npar = static_cast<int>(routine.parameters.size());
  int dflag = call.dflag ? 1 : 0, iflag = call.iflag ? 1 : 0;
  int nstate = static_cast<int>(call.states.size()), ninput = static_cast<int>(call.inputs.size());
  int noutpt = call.outputCount;
  double time = call.time;
  ParameterCopy par(routine.parameters);
  // Copies it may write to; arrays of at least one entry, as a Fortran caller would pass for a size of 0.
  std::vector<double> states(call.states.begin(), call.states.end()), inputs(call.inputs.begin(), call.inputs.end());
  states.resize(std::max<size_t>(states.size(), 1));
  inputs.resize(std::max<size_t>(inputs.size(), 1));
  StateEquationValues values{std::vector<double>(static_cast<size_t>(std::max(nstate, 1)), 0.0),
                             std::vector<double>(static_cast<size_t>(std::max(noutpt, 1)), 0.0)};
  reinterpret_cast<lodestone_gsesub>(routine.address)(&id, &time, par.data(), &npar, &dflag, &iflag, &nstate,
                                                      states.data(), &ninput, inputs.data(), &noutpt,
                                                      values.stated.data(), values.output.data());
  values.stated.resize(call.states.size());
  values.output.resize(static_cast<size_t>(call.outputCount));
  if (call.iflag) {
    std::fill(values.stated.begin(), values.stated.end(), 0.0);
    std::fill(values.output.begin(), values.output.end(), 0.0);
  }
  return values;
}

}  // namespace lodestone
