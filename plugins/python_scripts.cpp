// The embedded interpreter, script loading, and the lodestone_usersub module of py_* utilities.
#include "python_scripts.h"

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <system_error>

#include "lodestone/usersub.h"
#include "user_library.h"

namespace py = pybind11;

// ---- lodestone_usersub: the py_* utilities -----------------------------------------------------------------------
// MotionSolve's Python forms: each returns [result, errflg] where the C utility has output pointers. The C utility
// does the work (and reports a refused call in the run log), so Python and C subroutines get the same answers.

namespace {

// Marker ids as a list of numbers (MotionSolve documents ipar as reals): each must be a whole number.
std::vector<int> markerIds(const py::iterable& ids, const char* utility) {
  std::vector<int> result;
  for (const py::handle item : ids) {
    const double value = py::cast<double>(item);
    if (value != std::floor(value) || std::fabs(value) > 2147483647.0) {
      throw py::value_error(std::string(utility) + ": marker ids must be whole numbers, not " +
                            std::string(py::str(py::repr(item))));
    }
    result.push_back(static_cast<int>(value));
  }
  return result;
}

py::list resultAndFlag(py::object result, int errflg) {
  py::list pair;
  pair.append(std::move(result));
  pair.append(errflg);
  return pair;
}

py::list listOf(const double* values, int count) {
  py::list list;
  for (int k = 0; k < count; ++k) list.append(values[k]);
  return list;
}

}  // namespace

PYBIND11_EMBEDDED_MODULE(lodestone_usersub, m) {
  m.doc() = "Lodestone's utilities for user subroutines written in Python (MotionSolve's py_* forms). Each wraps "
            "the C utility of lodestone/usersub.h of the same name and returns [result, errflg]; errflg is 0 on "
            "success and 1, with a message in the run log, when the call is refused. Scripts get them as globals.";
  m.def(
      "py_sysfnc",
      [](const std::string& name, const py::iterable& ids) {
        std::vector<int> ipar = markerIds(ids, "py_sysfnc");
        double value = 0;
        int errflg = 0;
        c_sysfnc(name.c_str(), ipar.data(), static_cast<int>(ipar.size()), &value, &errflg);
        return resultAndFlag(py::float_(value), errflg);
      },
      py::arg("fncnam"), py::arg("ipar") = py::list(),
      "[value, errflg] = py_sysfnc(name, [i, j, rm]): TIME, DX DY DZ DM, VX VY VZ VM, WX WY WZ WM");
  m.def(
      "py_sysary",
      [](const std::string& name, const py::iterable& ids) {
        std::vector<int> ipar = markerIds(ids, "py_sysary");
        double values[6] = {0, 0, 0, 0, 0, 0};
        int count = 0, errflg = 0;
        c_sysary(name.c_str(), ipar.data(), static_cast<int>(ipar.size()), values, &count, &errflg);
        return resultAndFlag(listOf(values, count), errflg);
      },
      py::arg("fncnam"), py::arg("ipar"),
      "[values, errflg] = py_sysary(name, [i, j, rm]): DISP, VEL (6 values), TDISP, TVEL (3)");
  m.def(
      "py_errmes",
      [](const py::object& errflg, const std::string& message, int id, const py::object& endflg) {
        // endflg as MotionSolve writes it ("STOP") or as a truth value.
        std::string end;
        if (py::isinstance<py::str>(endflg)) {
          end = py::cast<std::string>(endflg);
        } else if (!endflg.is_none()) {
          end = py::bool_(endflg) ? "STOP" : "";
        }
        c_errmes(py::bool_(errflg) ? 1 : 0, message.c_str(), id, end.c_str());
      },
      py::arg("errflg"), py::arg("message"), py::arg("id"), py::arg("endflg") = py::str(""),
      "py_errmes(errflg, message, id, endflg): a line in the run log; endflg \"STOP\" ends the run once the "
      "subroutine returns (exit 2, results kept)");
  m.def(
      "py_step",
      [](double x, double x0, double h0, double x1, double h1, int iord) {
        double value = 0;
        int errflg = 0;
        c_step(x, x0, h0, x1, h1, iord, &value, &errflg);
        return resultAndFlag(py::float_(value), errflg);
      },
      py::arg("x"), py::arg("x0"), py::arg("h0"), py::arg("x1"), py::arg("h1"), py::arg("iord") = 0,
      "[value, errflg] = py_step(x, x0, h0, x1, h1, iord): STEP or its derivative of order iord (1, 2)");
  m.def(
      "py_impact",
      [](double x, double xdot, double x1, double k, double e, double cmax, double d, int iord) {
        double vector[3] = {0, 0, 0};
        int errflg = 0;
        c_impact(x, xdot, x1, k, e, cmax, d, iord, vector, &errflg);
        return resultAndFlag(listOf(vector, 3), errflg);
      },
      py::arg("x"), py::arg("xdot"), py::arg("x1"), py::arg("k"), py::arg("e"), py::arg("cmax"), py::arg("d"),
      py::arg("iord") = 0,
      "[vector, errflg] = py_impact(x, xdot, x1, k, e, cmax, d, iord): vector[0] the force; iord 1: "
      "vector[0:2] = dF/dx, dF/dxdot");
  m.def(
      "py_get_ncontacts",
      [](int id, int iGraphic, int jGraphic) {
        int count = 0, errflg = 0;
        c_get_ncontacts(id, iGraphic, jGraphic, &count, &errflg);
        return resultAndFlag(py::int_(count), errflg);
      },
      py::arg("id"), py::arg("i_gra_id"), py::arg("j_gra_id"),
      "[ncontacts, errflg] = py_get_ncontacts(id, i_gra_id, j_gra_id), from CONTACTPOST");
  m.def(
      "py_get_contact_post",
      [](int id, int iGraphic, int jGraphic, const std::string& type, int rm, int index) {
        double values[3] = {0, 0, 0};
        int count = 0, errflg = 0;
        c_get_contact_post(id, iGraphic, jGraphic, type.c_str(), rm, index, values, &count, &errflg);
        return resultAndFlag(listOf(values, count), errflg);
      },
      py::arg("id"), py::arg("i_gra_id"), py::arg("j_gra_id"), py::arg("type"), py::arg("rm"), py::arg("index"),
      "[result, errflg] = py_get_contact_post(id, i_gra_id, j_gra_id, type, rm, index), from CONTACTPOST: PD, "
      "PD_VEL, SLIP_VEL (1 value); POS, VEL, NORMAL, NORMAL_FORCE, TANGENTIAL_FORCE, TOTAL_FORCE (3, in rm's axes)");
}

namespace lodestone {

namespace fs = std::filesystem;

namespace {

// The interpreter of this process and the scripts it has run. Started on first use; finalised at exit (after
// main returns, by which time every model — and so every script — has been released), so that a script's open
// files are flushed and its atexit handlers run.
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
  // Scripts by resolved path, while some model holds them.
  std::map<std::string, std::weak_ptr<const PythonScript>> scripts;

 private:
  bool owned_ = false;
};

Interpreter& interpreter() {
  static Interpreter instance;
  return instance;
}

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
    if (py::hasattr(value, "lineno") && !value.attr("lineno").is_none()) where += ", line " + text(value.attr("lineno"));
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

}  // namespace

void ensurePythonInterpreter() { interpreter(); }

std::vector<std::string> scriptCandidates(std::string_view name, const std::string& deckFolder,
                                          std::string_view searchPath) {
  if (fs::path(name).is_absolute()) return {std::string(name)};
  std::vector<std::string> candidates;
  for (const std::string& folder : userFileFolders(deckFolder, searchPath)) {
    candidates.push_back((fs::path(folder) / name).string());
  }
  return candidates;
}

PythonScript::PythonScript(std::string path, _object* module) : path_(std::move(path)), module_(module) {}

PythonScript::~PythonScript() {
  if (module_ && Py_IsInitialized()) Py_DECREF(module_);
}

PythonFunction::PythonFunction(std::shared_ptr<const PythonScript> script, _object* callable)
    : script_(std::move(script)), callable_(callable) {}

PythonFunction::~PythonFunction() {
  if (callable_ && Py_IsInitialized()) Py_DECREF(callable_);
}

PythonScripts::PythonScripts(std::string deckFolder) : deckFolder_(std::move(deckFolder)) {}

std::shared_ptr<const PythonScript> PythonScripts::load(std::string_view name) {
  const char* searchPath = std::getenv("LODESTONE_USERSUB_PATH");
  const std::vector<std::string> candidates = scriptCandidates(name, deckFolder_, searchPath ? searchPath : "");
  const std::string path = findUserFile("script", name, candidates);

  Interpreter& python = interpreter();
  if (auto found = python.scripts.find(path); found != python.scripts.end()) {
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
    const py::module_ utilities = py::module_::import("lodestone_usersub");
    const py::dict globals = module.attr("__dict__");
    for (const auto& [key, value] : utilities.attr("__dict__").cast<py::dict>()) {
      if (text(key).rfind("py_", 0) == 0) globals[key] = value;
    }
    loader.attr("exec_module")(module);
    auto script = std::make_shared<const PythonScript>(path, module.release().ptr());
    python.scripts[path] = script;
    return script;
  } catch (const py::error_already_set& error) {
    throw std::runtime_error(describeLoadFailure(path, error));
  }
}

std::shared_ptr<const PythonFunction> scriptFunction(const std::shared_ptr<const PythonScript>& script,
                                                     const std::string& name) {
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
    throw std::runtime_error("no function " + name + " in " + script->path() + " (" +
                             (defined.empty() ? std::string("it defines no functions") : "it defines " + defined) + ")");
  }
  py::object callable = module.attr(name.c_str());
  if (!PyCallable_Check(callable.ptr())) {
    throw std::runtime_error(name + " in " + script->path() + " is a " +
                             text(py::type::handle_of(callable).attr("__name__")) + ", not a function");
  }
  return std::make_shared<const PythonFunction>(script, callable.release().ptr());
}

}  // namespace lodestone
