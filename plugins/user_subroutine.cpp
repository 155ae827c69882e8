// The calls of user subroutines: each prototype's arguments handed to a C function (by pointer, as MotionSolve
// passes them) or to a Python function (numbers, and lists for par and the vectors), side by side so that the two
// cannot drift apart.
#include "user_subroutine.h"

#include <pybind11/embed.h>

#include <algorithm>

#include "lodestone/usersub.h"
#include "python_scripts.h"

namespace py = pybind11;

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

// ---- Python ----------------------------------------------------------------------------------------------------

py::list listOf(std::span<const double> values) {
  py::list list;
  for (const double value : values) list.append(value);
  return list;
}

std::string text(const py::handle& object) {
  try {
    return py::str(object);
  } catch (const py::error_already_set&) {
    return "?";
  }
}

// "a str ('abc')", "None": what came back, for messages; long representations cut short.
std::string describeValue(const py::handle& value) {
  if (value.is_none()) return "None";
  std::string representation = text(py::repr(value));
  if (representation.size() > 60) representation = representation.substr(0, 57) + "...";
  return "a " + text(py::type::handle_of(value).attr("__name__")) + " (" + representation + ")";
}

// A Python exception as a SubroutineError: one line with the exception and where it was raised, and the traceback.
SubroutineError pythonFailure(const UserSubroutine& routine, const py::error_already_set& error) {
  const std::string kind = error.type() ? text(error.type().attr("__name__")) : std::string("an exception");
  const std::string message = error.value() ? text(error.value()) : std::string();
  std::string where, traceback;
  try {
    const py::module_ module = py::module_::import("traceback");
    for (const py::handle line : module.attr("format_exception")(error.type(), error.value(), error.trace())) {
      traceback += text(line);
    }
    const py::list frames = module.attr("extract_tb")(error.trace());
    if (!frames.empty()) {
      const py::handle frame = frames[frames.size() - 1];
      const std::string file = text(frame.attr("filename"));
      where = " (" + (file == routine.python->script().path() ? std::string() : file + ", ") + "line " +
              text(frame.attr("lineno")) + ")";
    }
  } catch (const py::error_already_set&) {
    traceback = kind + ": " + message;
  }
  while (!traceback.empty() && traceback.back() == '\n') traceback.pop_back();
  return SubroutineError(routine.describe() + " raised " + kind + (message.empty() ? "" : ": " + message) + where,
                         traceback);
}

// Calls the routine's Python function; a Python exception becomes a SubroutineError.
template <class... Arguments>
py::object callPython(const UserSubroutine& routine, Arguments&&... arguments) {
  try {
    return py::handle(routine.python->callable())(std::forward<Arguments>(arguments)...);
  } catch (const py::error_already_set& error) {
    throw pythonFailure(routine, error);
  }
}

// The numbers of a returned sequence, which must have `count` of them; `expected` says what they are.
template <size_t Count>
std::array<double, Count> returnedNumbers(const UserSubroutine& routine, const py::object& result,
                                          const char* expected) {
  const auto wrong = [&](const std::string& what) {
    return SubroutineError(routine.describe() + " returned " + what + "; it must return a sequence of " +
                               std::to_string(Count) + (Count == 1 ? " number, " : " numbers, ") + expected,
                           std::string());
  };
  const bool isText = py::isinstance<py::str>(result) || py::isinstance<py::bytes>(result);
  if (isText || !PySequence_Check(result.ptr())) throw wrong(describeValue(result));
  const Py_ssize_t size = PySequence_Size(result.ptr());
  if (size < 0) {
    PyErr_Clear();
    throw wrong(describeValue(result));
  }
  if (static_cast<size_t>(size) != Count) {
    throw wrong(std::to_string(size) + (size == 1 ? " value" : " values") + " (" + text(py::repr(result)) + ")");
  }
  std::array<double, Count> numbers{};
  for (size_t k = 0; k < Count; ++k) {
    const py::object item = py::reinterpret_steal<py::object>(PySequence_GetItem(result.ptr(), static_cast<Py_ssize_t>(k)));
    if (!item) {
      PyErr_Clear();
      throw wrong(describeValue(result));
    }
    const bool itemIsText = py::isinstance<py::str>(item) || py::isinstance<py::bytes>(item);
    const double value = itemIsText ? -1.0 : PyFloat_AsDouble(item.ptr());
    if (itemIsText || (value == -1.0 && PyErr_Occurred())) {
      PyErr_Clear();
      throw wrong("a sequence whose element " + std::to_string(k) + " is " + describeValue(item) + ", not a number");
    }
    numbers[k] = value;
  }
  return numbers;
}

}  // namespace

// ---- the three prototypes --------------------------------------------------------------------------------------

double callSubroutine(const UserSubroutine& routine, const NormalCall& call) {
  if (routine.isPython()) {
    const py::object result =
        callPython(routine, call.id, call.time, listOf(routine.parameters), routine.parameters.size(),
                   listOf(call.loci), listOf(call.ni), listOf(call.locj), listOf(call.nj), call.gap, call.gapdot,
                   call.gapdotdot, call.dflag ? 1 : 0, call.iflag ? 1 : 0);
    // The set-up call computes nothing: whatever it returns is not read.
    if (call.iflag) return 0;
    return returnedNumbers<1>(routine, result, "[normal force]")[0];
  }
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
  if (routine.isPython()) {
    const py::object result =
        callPython(routine, call.id, call.time, listOf(routine.parameters), routine.parameters.size(),
                   listOf(call.loci), listOf(call.locj), listOf(call.x), listOf(call.xdot), call.nforce,
                   call.dflag ? 1 : 0, call.iflag ? 1 : 0);
    if (call.iflag) return {0, 0, 0};
    return returnedNumbers<3>(routine, result, "[fx, fy, fz], the friction force in the contact frame");
  }
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
  if (routine.isPython()) {
    // Whatever it returns is not read.
    callPython(routine, call.id, call.iGraphic, call.jGraphic, call.time, listOf(routine.parameters),
               routine.parameters.size(), call.iflag ? 1 : 0, call.endflg ? 1 : 0);
    return;
  }
  ContactPostCall copy = call;
  int npar = static_cast<int>(routine.parameters.size());
  int iflag = copy.iflag ? 1 : 0, endflg = copy.endflg ? 1 : 0;
  ParameterCopy par(routine.parameters);
  reinterpret_cast<lodestone_contactpost>(routine.address)(&copy.id, &copy.iGraphic, &copy.jGraphic, &copy.time,
                                                           par.data(), &npar, &iflag, &endflg);
}

}  // namespace lodestone
