// The embedded interpreter: scripts run as modules, their functions found and called with MotionSolve's arguments.
// The module liblodestone_python_engine, or built into the lodestone Python extension (python_engine.h).
#include "python_engine.h"

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <span>
#include <stdexcept>
#include <utility>

#include "python_utilities.h"
#include "solver/core/modules.h"

namespace py = pybind11;

namespace lodestone {

namespace fs = std::filesystem;

namespace {

// The interpreter of this process. Started on first use; finalised at exit (after main returns, by which time every
// model — and so every script — has been released), so that a script's open files are flushed and its atexit
// handlers run.
class Interpreter {
 public:
  Interpreter() {
    if (Py_IsInitialized()) return;  // a host program's interpreter: use it, leave it running
    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    config.isolated = 0;
    config.use_environment = 1;        // PYTHONPATH reaches scripts' imports
    config.install_signal_handlers = 0;  // Ctrl-C stops Lodestone as it always does
    config.write_bytecode = 0;         // no __pycache__ beside the decks
    py::initialize_interpreter(&config, 0, nullptr, false);
    owned_ = true;
  }
  ~Interpreter() {
    if (owned_ && Py_IsInitialized()) py::finalize_interpreter();
  }

 private:
  bool owned_ = false;
};

std::string text(const py::handle& object) {
  try {
    return py::str(object);
  } catch (const py::error_already_set&) {
    return "<unprintable " + std::string(py::str(py::type::handle_of(object).attr("__name__"))) + ">";
  }
}

// Why a script could not run: a syntax error as Python reports it (file, line, message, the line's text), any
// other exception with the line of the script it came from.
std::string describeLoadFailure(const std::string& path, const py::error_already_set& error) {
  const py::handle syntaxError(PyExc_SyntaxError);
  if (error.matches(syntaxError)) {
    const py::object& value = error.value();
    const std::string file = py::hasattr(value, "filename") && !value.attr("filename").is_none()
                                 ? text(value.attr("filename"))
                                 : path;
    std::string where = file;
    if (py::hasattr(value, "lineno") && !value.attr("lineno").is_none()) {
      where += ", line " + text(value.attr("lineno"));
    }
    const std::string kind = text(error.type().attr("__name__"));
    std::string message = kind + " in " + where + ": " +
                           (py::hasattr(value, "msg") ? text(value.attr("msg")) : text(value));
    if (py::hasattr(value, "text") && !value.attr("text").is_none()) {
      std::string line = text(value.attr("text"));
      const size_t first = line.find_first_not_of(" \t");
      const size_t last = line.find_last_not_of(" \t\r\n");
      if (first != std::string::npos) message += " (" + line.substr(first, last - first + 1) + ")";
    }
    return message;
  }
  std::string message = "running " + path + " raised " + text(error.type().attr("__name__"));
  const std::string what = text(error.value());
  if (!what.empty()) message += ": " + what;
  try {
    // The innermost line of the script itself, not of whatever it imported.
    const py::list frames = py::module_::import("traceback").attr("extract_tb")(error.trace());
    for (size_t k = frames.size(); k-- > 0;) {
      if (text(frames[k].attr("filename")) == path) {
        message += " (line " + text(frames[k].attr("lineno")) + ")";
        break;
      }
    }
  } catch (const py::error_already_set&) {
  }
  return message;
}

// ---- calls -----------------------------------------------------------------------------------------------------

py::list listOf(std::span<const double> values) {
  py::list list;
  for (const double value : values) list.append(value);
  return list;
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

// The numbers of a returned sequence, which must have `count` of them; `expected` says what they are. `part`: the
// sequence is that part of what was returned ("stated" of [stated, output]), for messages.
std::vector<double> returnedNumbers(const UserSubroutine& routine, const py::handle& result, size_t count,
                                    const std::string& expected, const std::string& part = std::string()) {
  const auto wrong = [&](const std::string& what) {
    const std::string sequence = "a sequence of " + std::to_string(count) + (count == 1 ? " number, " : " numbers, ") +
                                 expected;
    return SubroutineError(routine.describe() + " returned " +
                               (part.empty() ? what + "; it must return " + sequence
                                             : "[stated, output] whose " + part + " is " + what + "; " + part +
                                                   " must be " + sequence),
                           std::string());
  };
  const bool isText = py::isinstance<py::str>(result) || py::isinstance<py::bytes>(result);
  if (isText || !PySequence_Check(result.ptr())) throw wrong(describeValue(result));
  const Py_ssize_t size = PySequence_Size(result.ptr());
  if (size < 0) {
    PyErr_Clear();
    throw wrong(describeValue(result));
  }
  if (static_cast<size_t>(size) != count) {
    throw wrong(std::to_string(size) + (size == 1 ? " value" : " values") + " (" + text(py::repr(result)) + ")");
  }
  std::vector<double> numbers(count);
  for (size_t k = 0; k < count; ++k) {
    const py::object item =
        py::reinterpret_steal<py::object>(PySequence_GetItem(result.ptr(), static_cast<Py_ssize_t>(k)));
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

template <size_t Count>
std::array<double, Count> returnedNumbers(const UserSubroutine& routine, const py::handle& result,
                                          const char* expected) {
  const std::vector<double> numbers = returnedNumbers(routine, result, Count, expected);
  std::array<double, Count> fixed{};
  std::ranges::copy(numbers, fixed.begin());
  return fixed;
}

class Engine final : public PythonEngine {
 public:
  std::shared_ptr<const PythonScript> load(const std::string& path) override;
  std::shared_ptr<const PythonScript> inspect(const std::string& path) override;
  std::shared_ptr<const PythonFunction> function(const std::shared_ptr<const PythonScript>& script,
                                                 const std::string& name) override;
  double call(const UserSubroutine& routine, const NormalCall& call) override;
  std::array<double, 3> call(const UserSubroutine& routine, const FrictionCall& call) override;
  void call(const UserSubroutine& routine, const ContactPostCall& call) override;
  void call(const UserSubroutine& routine, const ControlCall& call) override;
  std::array<double, 8> call(const UserSubroutine& routine, const ElementCall& call) override;
  StateEquationValues call(const UserSubroutine& routine, const StateEquationCall& call) override;

 private:
  // FIESUB: the ElementCall with the deflection and its rate handed in.
  std::array<double, 8> fieldCall(const UserSubroutine& routine, const ElementCall& call, const py::list& par);

  Interpreter interpreter_;  // started first, finalised last
  // Scripts by resolved path, while some model holds them.
  std::map<std::string, std::weak_ptr<const PythonScript>> scripts_;
};

std::shared_ptr<const PythonScript> Engine::load(const std::string& path) {
  if (auto found = scripts_.find(path); found != scripts_.end()) {
    if (std::shared_ptr<const PythonScript> script = found->second.lock()) return script;
  }
  try {
    // Executed as its own module, named after the file, the way `import` would run it: .pyc files through the
    // sourceless loader, anything else as source. The script's folder goes on sys.path so that it can import
    // modules kept beside it.
    const py::module_ sys = py::module_::import("sys");
    const std::string folder = fs::path(path).parent_path().string();
    if (!sys.attr("path").contains(folder)) sys.attr("path").attr("insert")(0, folder);
    const py::module_ machinery = py::module_::import("importlib.machinery");
    const py::module_ util = py::module_::import("importlib.util");
    const std::string moduleName = fs::path(path).stem().string();
    const py::object loader = fs::path(path).extension() == ".pyc"
                                  ? machinery.attr("SourcelessFileLoader")(moduleName, path)
                                  : machinery.attr("SourceFileLoader")(moduleName, path);
    const py::object spec = util.attr("spec_from_file_location")(moduleName, path, py::arg("loader") = loader);
    py::object module = util.attr("module_from_spec")(spec);
    // The utilities as globals, as MotionSolve gives them; `import lodestone_usersub` works as well.
    const py::module_ utilities = subroutineUtilitiesModule();
    const py::dict globals = module.attr("__dict__");
    for (const auto& [key, value] : utilities.attr("__dict__").cast<py::dict>()) {
      if (text(key).rfind("py_", 0) == 0) globals[key] = value;
    }
    loader.attr("exec_module")(module);
    auto script = std::make_shared<const PythonScript>(path, module.release().ptr());
    scripts_[path] = script;
    return script;
  } catch (const py::error_already_set& error) {
    throw std::runtime_error(describeLoadFailure(path, error));
  }
}

// Parsing (ast) a source file or reading a .pyc's code object (marshal) runs none of it. Every name the top level
// binds counts (def, class, assignment, import): whether a name bound otherwise than by def is callable is only
// known by running the script, which run does.
std::shared_ptr<const PythonScript> Engine::inspect(const std::string& path) {
  try {
    py::dict scope;
    scope["path"] = path;
    py::exec(R"(
import ast, marshal

def top_level_names(path):
    with open(path, "rb") as file:
        data = file.read()
    if path.endswith(".pyc"):
        code = marshal.loads(data[16:])
        return [c.co_name for c in code.co_consts if hasattr(c, "co_name")] + list(code.co_names)
    names = []
    for node in ast.parse(data, path).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names += [name.id for target in targets for name in ast.walk(target) if isinstance(name, ast.Name)]
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names += [(alias.asname or alias.name).split(".")[0] for alias in node.names]
    return names

names = top_level_names(path)
)", scope);
    return std::make_shared<const PythonScript>(path, scope["names"].cast<std::vector<std::string>>());
  } catch (const py::error_already_set& error) {
    throw std::runtime_error(describeLoadFailure(path, error));
  }
}

std::shared_ptr<const PythonFunction> Engine::function(const std::shared_ptr<const PythonScript>& script,
                                                       const std::string& name) {
  if (!script->module()) {
    const std::vector<std::string>& names = script->topLevelNames();
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      return std::make_shared<const PythonFunction>(script, nullptr);
    }
    std::string defined;
    for (const std::string& bound : names) {
      if (bound.rfind("_", 0) != 0) defined += (defined.empty() ? "" : ", ") + bound;
    }
    throw std::runtime_error("no function " + name + " in " + script->path() + " (" +
                             (defined.empty() ? std::string("it defines nothing") : "it defines " + defined) + ")");
  }
  const py::handle module(script->module());
  if (!py::hasattr(module, name.c_str())) {
    // What the script does define, so a misspelt name is easy to see.
    std::string defined;
    for (const auto& [key, value] : module.attr("__dict__").cast<py::dict>()) {
      const std::string keyText = text(key);
      if (keyText.rfind("py_", 0) == 0 || keyText.rfind("_", 0) == 0 || !PyCallable_Check(value.ptr())) continue;
      if (py::isinstance<py::module_>(value)) continue;
      defined += (defined.empty() ? "" : ", ") + keyText;
    }
    const std::string definitions = defined.empty() ? std::string("it defines no functions") : "it defines " + defined;
    throw std::runtime_error("no function " + name + " in " + script->path() + " (" + definitions + ")");
  }
  py::object callable = module.attr(name.c_str());
  if (!PyCallable_Check(callable.ptr())) {
    throw std::runtime_error(name + " in " + script->path() + " is a " +
                             text(py::type::handle_of(callable).attr("__name__")) + ", not a function");
  }
  return std::make_shared<const PythonFunction>(script, callable.release().ptr());
}

double Engine::call(const UserSubroutine& routine, const NormalCall& call) {
  const py::object result =
      callPython(routine, call.id, call.time, listOf(routine.parameters), routine.parameters.size(),
                 listOf(call.loci), listOf(call.ni), listOf(call.locj), listOf(call.nj), call.gap, call.gapdot,
                 call.gapdotdot, call.dflag ? 1 : 0, call.iflag ? 1 : 0);
  // The set-up call computes nothing: whatever it returns is not read.
  if (call.iflag) return 0;
  return returnedNumbers<1>(routine, result, "[normal force]")[0];
}

std::array<double, 3> Engine::call(const UserSubroutine& routine, const FrictionCall& call) {
  const py::object result =
      callPython(routine, call.id, call.time, listOf(routine.parameters), routine.parameters.size(),
                 listOf(call.loci), listOf(call.locj), listOf(call.x), listOf(call.xdot), call.nforce,
                 call.dflag ? 1 : 0, call.iflag ? 1 : 0);
  if (call.iflag) return {0, 0, 0};
  return returnedNumbers<3>(routine, result, "[fx, fy, fz], the friction force in the contact frame");
}

void Engine::call(const UserSubroutine& routine, const ContactPostCall& call) {
  // Whatever it returns is not read.
  callPython(routine, call.id, call.iGraphic, call.jGraphic, call.time, listOf(routine.parameters),
             routine.parameters.size(), call.iflag ? 1 : 0, call.endflg ? 1 : 0);
}

std::array<double, 8> Engine::fieldCall(const UserSubroutine& routine, const ElementCall& call, const py::list& par) {
  const py::object result = callPython(routine, call.id, call.time, par, routine.parameters.size(), listOf(call.disp),
                                       listOf(call.velo), call.dflag ? 1 : 0, call.iflag ? 1 : 0);
  if (call.iflag) return {};
  // MotionSolve's FIESUB returns [field, dfddis, dfdvel]: the field is read, its derivatives are not.
  const bool isText = py::isinstance<py::str>(result) || py::isinstance<py::bytes>(result);
  if (isText || !py::isinstance<py::sequence>(result) || py::len(result) != 3) {
    throw SubroutineError(routine.describe() + " returned " + describeValue(result) + "; it must return [field, "
                          "dfddis, dfdvel], field " + call.returns + " (the derivatives are not read)",
                          std::string());
  }
  std::array<double, 8> values{};
  std::ranges::copy(returnedNumbers<6>(routine, py::reinterpret_borrow<py::sequence>(result)[0], call.returns),
                    values.begin());
  return values;
}

void Engine::call(const UserSubroutine& routine, const ControlCall&) {
  // CONSUB(par, npar); MotionSolve's examples return a status, which is not read.
  callPython(routine, listOf(routine.parameters), routine.parameters.size());
}

std::array<double, 8> Engine::call(const UserSubroutine& routine, const ElementCall& call) {
  const py::list par = listOf(routine.parameters);
  if (call.field) return fieldCall(routine, call, par);
  const py::object result =
      call.withoutDflag
          ? callPython(routine, call.id, call.time, par, routine.parameters.size(), call.iflag ? 1 : 0)
          : callPython(routine, call.id, call.time, par, routine.parameters.size(), call.dflag ? 1 : 0,
                       call.iflag ? 1 : 0);
  if (call.iflag) return {};
  std::array<double, 8> values{};
  // One value may come as a number (MotionSolve's SFOSUB and SENSUB examples return a float) or as a sequence of one.
  const bool isNumber = !py::isinstance<py::bool_>(result) && (py::isinstance<py::float_>(result) ||
                                                                py::isinstance<py::int_>(result));
  if (call.count == 1 && isNumber) {
    values[0] = result.cast<double>();
    return values;
  }
  switch (call.count) {
    case 1: {
      const std::string returns = std::string(call.returns) + " (or that number alone)";  // rare: not a number
      values[0] = returnedNumbers<1>(routine, result, returns.c_str())[0];
      break;
    }
    case 3: std::ranges::copy(returnedNumbers<3>(routine, result, call.returns), values.begin()); break;
    case 6: std::ranges::copy(returnedNumbers<6>(routine, result, call.returns), values.begin()); break;
    case 8: values = returnedNumbers<8>(routine, result, call.returns); break;
    default: throw std::logic_error("an element subroutine returns 1, 3, 6 or 8 numbers");
  }
  return values;
}

StateEquationValues Engine::call(const UserSubroutine& routine, const StateEquationCall& call) {
  const py::object result =
      callPython(routine, call.id, call.time, listOf(routine.parameters), routine.parameters.size(),
                 call.dflag ? 1 : 0, call.iflag ? 1 : 0, call.states.size(), listOf(call.states), call.inputs.size(),
                 listOf(call.inputs), call.outputCount);
  StateEquationValues values{std::vector<double>(call.states.size(), 0.0),
                             std::vector<double>(static_cast<size_t>(call.outputCount), 0.0)};
  if (call.iflag) return values;
  const std::string stated = "the " + std::to_string(call.states.size()) + " states' time derivatives";
  const std::string output = std::to_string(call.outputCount) + (call.outputCount == 1 ? " output" : " outputs");
  const bool isText = py::isinstance<py::str>(result) || py::isinstance<py::bytes>(result);
  if (isText || !py::isinstance<py::sequence>(result) || py::len(result) != 2) {
    throw SubroutineError(routine.describe() + " returned " + describeValue(result) + "; it must return [stated, "
                          "output]: stated " + stated + ", output its " + output,
                          std::string());
  }
  const py::sequence pair = py::reinterpret_borrow<py::sequence>(result);
  values.stated = returnedNumbers(routine, pair[0], call.states.size(), stated, "stated");
  values.output = returnedNumbers(routine, pair[1], values.output.size(), "its " + output, "output");
  return values;
}

}  // namespace

PythonScript::PythonScript(std::string path, _object* module) : path_(std::move(path)), module_(module) {}

PythonScript::PythonScript(std::string path, std::vector<std::string> topLevelNames)
    : path_(std::move(path)), module_(nullptr), topLevelNames_(std::move(topLevelNames)) {}

PythonScript::~PythonScript() {
  if (module_ && Py_IsInitialized()) Py_DECREF(module_);
}

PythonFunction::PythonFunction(std::shared_ptr<const PythonScript> script, _object* callable)
    : script_(std::move(script)), callable_(callable) {}

PythonFunction::~PythonFunction() {
  if (callable_ && Py_IsInitialized()) Py_DECREF(callable_);
}

}  // namespace lodestone

LODESTONE_MODULE_ENTRY lodestone::PythonEngine* lodestone_python_engine() {
  static lodestone::Engine engine;
  return &engine;
}
