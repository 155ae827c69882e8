// The embedded interpreter and script loading.
#include "python_scripts.h"

#include <pybind11/embed.h>
#include <pybind11/stl.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <system_error>

#include "python_utilities.h"
#include "user_library.h"

namespace py = pybind11;

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
    const py::module_ utilities = subroutineUtilitiesModule();
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
