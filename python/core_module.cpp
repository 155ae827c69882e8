// lodestone._core: the C++ library as the lodestone Python package sees it — the deck reader (with settings from
// outside the deck), the check and the run `lodestone check` and `lodestone run` do, the element schemas, and the
// py_* utilities of Python subroutines with a stand-in for a running simulation to test them. The package's Python
// modules (python/lodestone/) build the objects users handle on these plain calls.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "elements/element_catalog.h"
#include "elements/param_unit.h"
#include "plugins/named_laws.h"
#include "plugins/python_scripts.h"
#include "plugins/python_utilities.h"
#include "plugins/usersub/subroutine_host.h"
#include "solver/core/text.h"
#include "solver/driver/run.h"
#include "solver/driver/signal_interruption.h"
#include "solver/output/result_tables.h"
#include "solver/xml/deck_reader.h"

namespace py = pybind11;
using namespace lodestone;

namespace {

// ---- settings and diagnostics ------------------------------------------------------------------------------------

// Settings as `lodestone run --set` spells them ("Force_Contact:300:stiffness=2e5"); a malformed one is the caller's
// mistake, a ValueError with the command line's message.
std::vector<AttributeSetting> settingsOf(const std::vector<std::string>& texts) {
  std::vector<AttributeSetting> settings;
  for (const std::string& text : texts) {
    const SettingParse parsed = parseAttributeSetting(text);
    if (!parsed.setting) throw py::value_error(parsed.error);
    settings.push_back(*parsed.setting);
  }
  return settings;
}

py::object optionalId(const std::optional<long>& id) { return id ? py::object(py::int_(*id)) : py::none(); }

py::dict describeDiagnostic(const Diagnostic& diagnostic) {
  py::dict d;
  d["severity"] = diagnostic.severity == Severity::Error ? "error" : "warning";
  d["file"] = diagnostic.where.file;
  d["line"] = diagnostic.where.line;
  d["column"] = diagnostic.where.column;
  d["element"] = diagnostic.where.element;
  d["id"] = optionalId(diagnostic.where.id);
  d["message"] = diagnostic.message;
  d["text"] = diagnostic.format();
  return d;
}

py::list describeDiagnostics(const Diagnostics& diagnostics) {
  py::list list;
  for (const Diagnostic& diagnostic : diagnostics.entries()) list.append(describeDiagnostic(diagnostic));
  return list;
}

py::dict describeUnits(const UnitSystem& units) {
  py::dict d;
  d["mass"] = units.mass;
  d["length"] = units.length;
  d["force"] = units.force;
  d["time"] = units.time;
  d["mass_factor"] = units.massFactor;
  return d;
}

py::dict describeElementNode(const DeckElement& element) {
  const ElementNode& node = element.node;
  py::dict d;
  d["name"] = node.loc.element;
  d["tag"] = node.tag;
  d["section"] = element.section;
  d["file"] = node.loc.file;
  d["line"] = node.loc.line;
  d["column"] = node.loc.column;
  d["id"] = optionalId(node.loc.id);
  py::list attributes;
  for (const ElementNode::Attribute& attribute : node.attributes) {
    attributes.append(py::make_tuple(attribute.name, attribute.value));
  }
  d["attributes"] = attributes;
  d["text"] = node.text;
  return d;
}

// ---- the element schemas -----------------------------------------------------------------------------------------

py::object valueToPython(const Value& value) {
  return std::visit([](const auto& v) -> py::object { return py::cast(v); }, value);
}

const char* kindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::Real: return "real";
    case ValueKind::Integer: return "integer";
    case ValueKind::Boolean: return "boolean";
    case ValueKind::Keyword: return "keyword";
    case ValueKind::KeywordList: return "keyword_list";
    case ValueKind::Reference: return "reference";
    case ValueKind::ReferenceList: return "reference_list";
    case ValueKind::RealList: return "real_list";
    case ValueKind::Text: return "text";
    case ValueKind::Presentation: return "presentation";
    case ValueKind::Ignored: return "ignored";
    case ValueKind::Unsupported: return "unsupported";
  }
  return "";
}

py::dict describeRule(const AttributeRule& rule) {
  py::dict d;
  d["name"] = rule.name;
  d["kind"] = kindName(rule.kind);
  d["required"] = rule.isRequired;
  d["modifiable"] = rule.isModifiable;
  d["default"] = rule.defaultValue ? valueToPython(*rule.defaultValue) : py::none();
  d["range"] = rule.range.describe();
  d["keywords"] = rule.keywords;
  d["target"] = rule.targetElement;
  d["note"] = rule.note;
  return d;
}

py::list describeRules(const std::vector<AttributeRule>& rules) {
  py::list list;
  for (const AttributeRule& rule : rules) list.append(describeRule(rule));
  return list;
}

py::dict describeKind(const ElementKind& kind) {
  py::dict d;
  d["name"] = kind.element;
  d["support"] = kind.support == ElementSupport::Read                 ? "read"
                 : kind.support == ElementSupport::IgnoredWithWarning ? "ignored"
                                                                      : "unsupported";
  d["note"] = kind.note;
  d["in_model"] = static_cast<bool>(kind.readInModel);
  d["in_command"] = static_cast<bool>(kind.readInCommand);
  d["attributes"] = describeRules(kind.attributes);
  py::list variantSets;
  for (const ElementKind::Variants& set : kind.variantSets) {
    py::dict variants;
    for (const auto& [value, rules] : set.rows) variants[py::str(value)] = describeRules(rules);
    variantSets.append(py::make_tuple(set.attribute, variants));
  }
  d["variant_sets"] = variantSets;
  d["reference"] = describeElement(kind);
  return d;
}

const ElementKind& kindNamed(const std::string& element) {
  const ElementKind* kind = findElementKind(element);
  if (!kind) throw py::key_error("no element named " + element + " (lodestone elements lists them)");
  return *kind;
}

// The value an element's attribute has, read by the reader's own rule: `text` as written, or the schema's default
// when the element does not give it (None when there is none). Raises ValueError with the reader's message.
py::object attributeValue(const std::string& element, const std::vector<std::pair<std::string, std::string>>& given,
                          const std::string& attribute, const std::optional<std::string>& text) {
  const ElementKind& kind = kindNamed(element);
  std::vector<ElementNode::Attribute> attributes;
  for (const auto& [name, value] : given) attributes.push_back({toLower(name), value});
  const std::string name = toLower(attribute);
  const AttributeRule* rule = findAttributeRule(kind, attributes, name);
  if (!rule) throw py::key_error(kind.element + " has no attribute '" + name + "' here");
  if (!text) return rule->defaultValue ? valueToPython(*rule->defaultValue) : py::none();
  const std::variant<Value, std::string> parsed = parseValue(*rule, *text);
  if (const std::string* problem = std::get_if<std::string>(&parsed)) throw py::value_error(*problem);
  return valueToPython(std::get<Value>(parsed));
}

// ---- reading, checking and running decks -------------------------------------------------------------------------

py::dict readDeckFor(const std::string& path, const std::vector<std::string>& settingTexts) {
  const std::vector<AttributeSetting> settings = settingsOf(settingTexts);
  Diagnostics diagnostics;
  std::vector<DeckElement> elements;
  const std::optional<ModelSpec> spec = readDeck(path, diagnostics, settings, &elements);
  py::dict result;
  result["ok"] = spec.has_value();
  result["diagnostics"] = describeDiagnostics(diagnostics);
  py::list elementList;
  for (const DeckElement& element : elements) elementList.append(describeElementNode(element));
  result["elements"] = elementList;
  result["units"] = spec ? py::object(describeUnits(unitSystemOf(spec->units))) : py::none();
  return result;
}

py::list checkDeckFor(const std::string& path, const std::vector<std::string>& settingTexts) {
  return describeDiagnostics(checkDeck(path, settingsOf(settingTexts)));
}

// Whether Ctrl-C is Python's to turn into KeyboardInterrupt here: on the main thread (where Python runs signal
// handlers), with a Python handler for SIGINT (not SIG_IGN or SIG_DFL, which the user chose).
bool pythonHandlesInterrupts() {
  const py::module_ threading = py::module_::import("threading");
  if (!threading.attr("current_thread")().is(threading.attr("main_thread")())) return false;
  const py::object handler = py::module_::import("signal").attr("getsignal")(SIGINT);
  return PyCallable_Check(handler.ptr()) != 0;
}

// The run `lodestone run` does, in this process. The GIL stays held: a deck's Python subroutines run in this
// interpreter, on this thread.
//
// Ctrl-C: Python's own handler would raise KeyboardInterrupt inside whatever Python code runs next, a subroutine of
// the deck, which would fail the run. So during the run SIGINT only notes that it came (SignalInterruption), the
// run ends after its current step with its files complete, and Python's handler is then given the signal as if it
// came now: what it raises (KeyboardInterrupt) is returned as "interruption", for the package to raise with the
// results. A second Ctrl-C goes to Python's handler at once. A handler of another signal that raises during the
// run (checked after every step) ends it the same way.
py::dict runDeckFor(const std::string& path, const std::vector<std::string>& settingTexts, const std::string& output) {
  RunRequest request;
  request.deckPath = path;
  request.outputDir = output;
  request.settings = settingsOf(settingTexts);
  std::optional<SignalInterruption> interruption;
  if (pythonHandlesInterrupts()) interruption.emplace(std::initializer_list<int>{SIGINT});
  std::optional<py::error_already_set> raised;  // by a Python signal handler
  request.shouldStop = [&] {
    if (interruption && interruption->received() != 0) return true;
    if (PyErr_CheckSignals() == 0) return false;
    raised.emplace();  // takes the exception, so that the run's last calls of Python subroutines can be made
    return true;
  };
  const RunOutcome outcome = runDeck(request);
  const bool interrupted = interruption && interruption->received() != 0;
  interruption.reset();
  if (interrupted) PyErr_SetInterruptEx(SIGINT);
  if (PyErr_CheckSignals() != 0) {
    if (raised) PyErr_Clear();  // the first one stands
    else raised.emplace();
  }
  py::dict result;
  result["status"] = outcome.status == RunStatus::Completed     ? "completed"
                     : outcome.status == RunStatus::BadDeck     ? "bad deck"
                     : outcome.status == RunStatus::Interrupted ? "interrupted"
                                                                : "failed";
  result["interruption"] = raised ? raised->value() : py::none();
  result["message"] = outcome.message;
  result["output_dir"] = outcome.outputDir;
  result["diagnostics"] = describeDiagnostics(outcome.diagnostics);
  return result;
}

py::dict loadLaws(const std::string& list) {
  const LawLibraryProblems problems = loadLawLibraries(list);
  py::dict result;
  result["errors"] = problems.errors;
  result["warnings"] = problems.warnings;
  return result;
}

// ---- the results tables ------------------------------------------------------------------------------------------

const char* cellTypeName(CellType type) {
  switch (type) {
    case CellType::Real: return "Real";
    case CellType::Integer: return "Integer";
    case CellType::Flag: return "Flag";
    case CellType::Text: return "Text";
  }
  return "";
}

template <class Row>
void describeTable(py::dict& tables, const ResultTable<Row>& table, const UnitSystem& units) {
  py::list columns;
  for (const ResultColumn<Row>& column : table.columns) {
    columns.append(py::make_tuple(column.name, cellTypeName(column.type), unitsOf(column.quantity, units),
                                  column.meaning));
  }
  tables[py::str(table.name)] = py::make_tuple(table.meaning, columns);
}

// The tables' one definition (result_tables.h), which the CSV writers write from: name -> (meaning, [(column, cell
// type, units, meaning)]) in the units the deck names (read_deck's "units").
py::dict resultTables(const py::dict& names) {
  UnitSystem units;
  units.mass = py::cast<std::string>(names["mass"]);
  units.length = py::cast<std::string>(names["length"]);
  units.force = py::cast<std::string>(names["force"]);
  units.time = py::cast<std::string>(names["time"]);
  py::dict tables;
  describeTable(tables, bodiesTable(), units);
  describeTable(tables, contactsTable(), units);
  describeTable(tables, impactsTable(), units);
  describeTable(tables, energyTable(), units);
  describeTable(tables, jointsTable(), units);
  describeTable(tables, eventsTable(), units);
  describeTable(tables, cloudPointsTable(), units);
  return tables;
}

// ---- testing Python subroutines ----------------------------------------------------------------------------------

Vector3 vector3(const std::array<double, 3>& v) { return Vector3(v[0], v[1], v[2]); }

// Stands in for a running simulation while a test calls a subroutine: the utilities answer from what the test put
// here (the time, markers, a CONTACTPOST pair's points), and what the subroutine reports is kept for the test.
class TestHost : public SubroutineHost {
 public:
  double now = 0;
  std::map<int, MarkerMotion> markers;
  std::map<std::tuple<int, int, int>, std::vector<ContactPostPoint>> pairs;
  std::vector<std::tuple<int, std::string, bool, bool>> messages;  // id, message, error, stop
  std::vector<std::pair<std::string, std::string>> problems;      // utility, what was wrong

  double time() const override { return now; }
  std::optional<MarkerMotion> markerMotion(int id) const override {
    if (id == 0) return MarkerMotion{};
    const auto found = markers.find(id);
    return found == markers.end() ? std::nullopt : std::optional<MarkerMotion>(found->second);
  }
  void subroutineMessage(int id, std::string_view message, bool error, bool stop) override {
    messages.emplace_back(id, std::string(message), error, stop);
  }
  void utilityProblem(std::string_view utility, std::string_view problem) override {
    problems.emplace_back(std::string(utility), std::string(problem));
  }
  const std::vector<ContactPostPoint>* contactPoints(int id, int iGraphic, int jGraphic) const override {
    const auto found = pairs.find({id, iGraphic, jGraphic});
    return found == pairs.end() ? nullptr : &found->second;
  }

  void enter() {
    if (installed_) throw py::value_error("this TestHost is already answering the utilities");
    previous_ = activeSubroutineHost();
    setActiveSubroutineHost(this);
    installed_ = true;
  }
  void exit() {
    if (!installed_) return;
    setActiveSubroutineHost(previous_);
    installed_ = false;
  }

 private:
  SubroutineHost* previous_ = nullptr;
  bool installed_ = false;
};

void defineTestHost(py::module_& m) {
  using Triple = std::array<double, 3>;
  py::class_<TestHost>(m, "TestHost",
                       "Answers the py_* utilities in place of a running simulation, for unit tests of subroutines: "
                       "`with host:` installs it. Markers not set are unknown, as a model without them; id 0 is "
                       "ground. Messages (py_errmes) and refused calls are kept in `messages` and `problems`.")
      .def(py::init([](double time) {
             auto host = std::make_unique<TestHost>();
             host->now = time;
             return host;
           }),
           py::arg("time") = 0.0)
      .def_readwrite("time", &TestHost::now)
      .def(
          "set_marker",
          [](TestHost& host, int id, const Triple& position, const std::array<Triple, 3>& rotation,
             const Triple& velocity, const Triple& angularVelocity) {
            if (id == 0) throw py::value_error("marker 0 is ground's frame and cannot be moved");
            MarkerMotion motion;
            motion.position = vector3(position);
            for (int row = 0; row < 3; ++row) {
              for (int column = 0; column < 3; ++column) motion.rotation(row, column) = rotation[row][column];
            }
            motion.velocity = vector3(velocity);
            motion.angularVelocity = vector3(angularVelocity);
            host.markers[id] = motion;
          },
          py::arg("id"), py::arg("position") = Triple{0, 0, 0},
          py::arg("rotation") = std::array<Triple, 3>{Triple{1, 0, 0}, Triple{0, 1, 0}, Triple{0, 0, 1}},
          py::arg("velocity") = Triple{0, 0, 0}, py::arg("angular_velocity") = Triple{0, 0, 0},
          "Marker `id` in ground: position, rotation (a 3x3 matrix whose columns are the marker's axes), velocity, "
          "angular velocity.")
      .def(
          "set_contact_points",
          [](TestHost& host, int id, int iGraphic, int jGraphic, const std::vector<py::dict>& points) {
            std::vector<ContactPostPoint> converted;
            for (const py::dict& point : points) {
              ContactPostPoint p;
              const auto number = [&](const char* key, double& into) {
                if (point.contains(key)) into = py::cast<double>(point[key]);
              };
              const auto vector = [&](const char* key, Vector3& into) {
                if (point.contains(key)) into = vector3(py::cast<Triple>(point[key]));
              };
              for (const auto& [key, value] : point) {
                static const std::vector<std::string> known = {"penetration",  "penetration_rate", "slip_speed",
                                                               "position",     "velocity",         "normal",
                                                               "normal_force", "tangential_force"};
                const std::string name = py::cast<std::string>(key);
                if (std::find(known.begin(), known.end(), name) == known.end()) {
                  throw py::key_error("a contact point has no '" + name + "'; it has " +
                                      listAlternatives(known, "'", "'"));
                }
              }
              number("penetration", p.penetration);
              number("penetration_rate", p.penetrationRate);
              number("slip_speed", p.slipSpeed);
              vector("position", p.position);
              vector("velocity", p.velocity);
              vector("normal", p.normal);
              vector("normal_force", p.normalForce);
              vector("tangential_force", p.tangentialForce);
              converted.push_back(p);
            }
            host.pairs[{id, iGraphic, jGraphic}] = std::move(converted);
          },
          py::arg("id"), py::arg("i_graphic"), py::arg("j_graphic"), py::arg("points"),
          "The contact points CONTACTPOST reads of pair (Force_Contact id, I graphic, J graphic), each a dict of "
          "penetration, penetration_rate, slip_speed, position, velocity, normal, normal_force, tangential_force "
          "(in ground; those left out are 0).")
      .def_readonly("messages", &TestHost::messages, "(id, message, error, stop) for each py_errmes")
      .def_readonly("problems", &TestHost::problems, "(utility, what was wrong) for each refused call")
      .def("__enter__",
           [](TestHost& host) -> TestHost& {
             host.enter();
             return host;
           },
           py::return_value_policy::reference)
      .def("__exit__", [](TestHost& host, const py::args&) { host.exit(); });
}

// A subroutine script run as `lodestone run` runs it: its own module, named after the file, with the py_*
// utilities among its globals. Raises RuntimeError with the message a deck naming it would get.
py::object loadScript(const std::string& path) {
  const std::shared_ptr<const PythonScript> script = PythonScripts(".").load(path);
  return py::reinterpret_borrow<py::object>(script->module());
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "Lodestone's C++ library for the lodestone package: use the package's functions, not these.";
  m.attr("version") = LODESTONE_VERSION;
  m.def("read_deck", &readDeckFor, py::arg("path"), py::arg("settings"));
  m.def("check_deck", &checkDeckFor, py::arg("path"), py::arg("settings"));
  m.def("run_deck", &runDeckFor, py::arg("path"), py::arg("settings"), py::arg("output"));
  m.def("element_kinds", [] {
    py::list kinds;
    for (const ElementKind* kind : allElementKinds()) kinds.append(describeKind(*kind));
    return kinds;
  });
  m.def("attribute_value", &attributeValue, py::arg("element"), py::arg("given"), py::arg("attribute"),
        py::arg("text"));
  m.def("nearest_names", [](const std::string& given, const std::vector<std::string>& candidates) {
    return nearestNames(given, candidates);
  });
  m.def("load_laws", &loadLaws, py::arg("list"), "Loads law libraries, their names separated by ':'.");
  m.def("load_script", &loadScript, py::arg("path"));
  m.def("result_tables", &resultTables, py::arg("units"));
  m.attr("usersub") = subroutineUtilitiesModule();
  defineTestHost(m);

  // The law libraries of LODESTONE_LAWS, loaded before any deck is read, as the program loads them. A library that
  // cannot be used is said as a warning: importing the package must not fail for it.
  const LawLibraryProblems problems = loadLawLibrariesFromEnvironment();
  for (const std::vector<std::string>* messages : {&problems.errors, &problems.warnings}) {
    for (const std::string& message : *messages) {
      if (PyErr_WarnEx(PyExc_RuntimeWarning, ("LODESTONE_LAWS: " + message).c_str(), 1) != 0) {
        throw py::error_already_set();
      }
    }
  }
}
