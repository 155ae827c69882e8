// The catalog of element names: how each element Lodestone supports is read in <Model> and <Command>, and
// which MotionSolve elements are ignored with a warning or refused with an error.
#include "element_catalog.h"

#include <map>

#include "solver/core/text.h"

namespace lodestone {

namespace {

template <class Spec>
using CheckFunction = void (*)(const Spec&, Diagnostics&);

template <class Spec>
void noCheck(const Spec&, Diagnostics&) {}

// Elements with ids, many per deck (bodies, markers, graphics).
template <class Spec>
ElementKind collectionKind(const ElementSchema<Spec>& schema, std::vector<Spec> ModelSpec::*container,
                           CheckFunction<Spec> check, bool changeableByCommand) {
  ElementKind kind;
  kind.element = schema.element;
  kind.readInModel = [&schema, container, check](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    Spec spec{};
    if (readElement(schema, node, spec, context)) check(spec, context.diagnostics());
    (model.*container).push_back(std::move(spec));
  };
  if (changeableByCommand) {
    kind.readInCommand = [&schema, container](const ElementNode& node, ModelSpec& model, ReadContext& context) {
      std::optional<Modification<Spec>> modification = readModification(schema, node, context);
      if (!modification) return;
      const long id = *modification->id;
      auto apply = modification->apply;
      model.commands.push_back(ModifyCommand{modification->loc, [container, id, apply](ModelSpec& target) {
                                               for (Spec& spec : target.*container) {
                                                 if (spec.id == id) apply(spec);
                                               }
                                             }});
    };
  }
  return kind;
}

// Elements that appear at most once (units, integrator settings, gravity).
template <class Spec>
ElementKind singletonKind(const ElementSchema<Spec>& schema, std::optional<Spec> ModelSpec::*slot,
                          CheckFunction<Spec> check, bool changeableByCommand) {
  ElementKind kind;
  kind.element = schema.element;
  kind.readInModel = [&schema, slot, check](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    Spec spec{};
    if (readElement(schema, node, spec, context)) check(spec, context.diagnostics());
    if (model.*slot) {
      context.diagnostics().error(spec.loc, "only one " + schema.element + " is allowed; the first is at " +
                                                (model.*slot)->loc.position());
      return;
    }
    model.*slot = std::move(spec);
  };
  if (changeableByCommand) {
    kind.readInCommand = [&schema, slot, check](const ElementNode& node, ModelSpec& model, ReadContext& context) {
      std::optional<Modification<Spec>> modification = readModification(schema, node, context);
      if (!modification) return;
      auto apply = modification->apply;
      model.commands.push_back(ModifyCommand{modification->loc, [&schema, slot, apply](ModelSpec& target) {
                                               if (!(target.*slot)) target.*slot = defaultsOf(schema);
                                               apply(*(target.*slot));
                                             }});
    };
  }
  return kind;
}

ElementKind postGraphicKind() {
  ElementKind kind = collectionKind(postGraphicSchema(), &ModelSpec::graphics, noCheck<PostGraphicSpec>, false);
  kind.readInModel = [](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    PostGraphicSpec spec{};
    const ElementNode::Attribute* type = detail::findAttribute(node, "type");
    if (type && isViewerOnlyGraphicType(type->value)) {
      // Read only the id, so that references to it resolve and duplicates are caught.
      spec.loc = node.loc;
      spec.loc.element = "Post_Graphic";
      if (const std::optional<long> id = detail::readId(node, spec.loc, context.diagnostics())) {
        spec.id = *id;
        context.defineId("Post_Graphic", *id, spec.loc);
      }
      spec.type = std::string(trim(type->value));
      spec.supported = false;
      context.diagnostics().warning(spec.loc, "type " + spec.type + " is drawn only by viewers; Lodestone skips it");
      model.graphics.push_back(std::move(spec));
      return;
    }
    if (readElement(postGraphicSchema(), node, spec, context)) completePostGraphic(spec, node.text, context.diagnostics());
    model.graphics.push_back(std::move(spec));
  };
  return kind;
}

ElementKind commandOnlyKind(const std::string& element,
                            std::function<void(const ElementNode&, ModelSpec&, ReadContext&)> read) {
  ElementKind kind;
  kind.element = element;
  kind.readInCommand = std::move(read);
  return kind;
}

ElementKind simulateKind() {
  return commandOnlyKind("Simulate", [](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    SimulateSpec spec{};
    if (readElement(simulateSchema(), node, spec, context)) checkSimulate(spec, context.diagnostics());
    model.commands.push_back(std::move(spec));
  });
}

ElementKind stopKind() {
  return commandOnlyKind("Stop", [](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    StopSpec spec{};
    readElement(stopSchema(), node, spec, context);
    model.commands.push_back(std::move(spec));
  });
}

ElementKind otherKind(std::string element, ElementSupport support, std::string note) {
  ElementKind kind;
  kind.element = std::move(element);
  kind.support = support;
  kind.note = std::move(note);
  return kind;
}

std::vector<ElementKind> buildCatalog() {
  std::vector<ElementKind> catalog = {
      singletonKind(paramUnitSchema(), &ModelSpec::units, checkParamUnit, false),
      singletonKind(paramTransientSchema(), &ModelSpec::transient, checkParamTransient, true),
      singletonKind(forceGravitySchema(), &ModelSpec::gravity, noCheck<ForceGravitySpec>, true),
      collectionKind(bodyRigidSchema(), &ModelSpec::bodies, checkBodyRigid, true),
      collectionKind(referenceMarkerSchema(), &ModelSpec::markers, checkReferenceMarker, false),
      postGraphicKind(),
      simulateKind(),
      stopKind(),
  };
  const auto ignored = [&](const std::string& element, const std::string& note) {
    catalog.push_back(otherKind(element, ElementSupport::IgnoredWithWarning, note));
  };
  const auto refused = [&](const std::string& element, const std::string& note) {
    catalog.push_back(otherKind(element, ElementSupport::NotSupported, note));
  };
  const std::string outputNote = "Lodestone writes bodies.csv and run.log; other result files are not available";
  ignored("Messaging", "messages always go to run.log");
  ignored("Param_Simulation", "its settings concern constraints, which this version does not have");
  ignored("Param_Static", "static analysis is not available");
  ignored("Param_Linear", "linear analysis is not available");
  ignored("H3DOutput", outputNote);
  ignored("ResOutput", outputNote);
  ignored("Post_Request", "requests are not written yet; bodies.csv holds every body's state");
  ignored("Post_UserAPI", "POST_SUB is not available");
  ignored("DebugOutput", "debug logs are not available yet");
  ignored("Reference_String", "no element in this version reads strings");
  ignored("Reference_Variable", "no element in this version reads variables");
  ignored("Reference_Array", "no element in this version reads arrays");
  ignored("Reference_Spline", "no element in this version reads splines");
  const std::string jointNote = "joints and constraints are not available yet";
  for (const char* element : {"Constraint_Joint", "Constraint_Jprim", "Constraint_Coupler", "Constraint_Gear",
                              "Constraint_Mate", "Constraint_PTCV", "Constraint_CVCV", "Constraint_PTSF",
                              "Constraint_CVSF", "Constraint_SFSF", "Constraint_UserConstr", "Constraint_PTdCV",
                              "Constraint_PTdSF", "Constraint_PTdSFF"}) {
    refused(element, jointNote);
  }
  for (const char* element : {"Motion_Joint", "Motion_Marker"}) refused(element, "prescribed motions need joints, which are not available yet");
  for (const char* element : {"Force_Scalar_TwoBody", "Force_Scalar_OneBody", "Force_Vector_TwoBody",
                              "Force_Vector_OneBody", "Force_Bushing", "Force_Beam", "Force_SpringDamper",
                              "Force_Field", "Force_MultiPoint", "Force_Contact", "Force_FlexModal",
                              "Force_Friction", "Force_Aero", "Force_Tire"}) {
    refused(element, "this force element is not available yet");
  }
  for (const char* element : {"Control_StateEqn", "Control_Diff", "Control_SISO", "Control_PlantInput",
                              "Control_PlantOutput", "Control_Linear"}) {
    refused(element, "control elements are not available yet");
  }
  refused("Sensor_Event", "sensors are not available yet");
  refused("Sensor_Evaluate", "sensors are not available yet");
  refused("Body_Flexible", "flexible bodies are not available");
  refused("Body_Point", "point bodies are not available yet");
  refused("Deactivate", "activating and deactivating elements is not available yet");
  refused("Activate", "activating and deactivating elements is not available yet");
  refused("UserProgramControl", "CONSUB is not available");
  refused("Load_Model", "decks must be one file");
  refused("Load_Command", "decks must be one file");
  refused("Save", "saving and reloading states is not available");
  refused("Reload", "saving and reloading states is not available");
  return catalog;
}

}  // namespace

const ElementKind* findElementKind(std::string_view name) {
  static const std::vector<ElementKind> catalog = buildCatalog();
  static const std::map<std::string, const ElementKind*> byUpperName = [] {
    std::map<std::string, const ElementKind*> index;
    for (const ElementKind& kind : catalog) index[toUpper(kind.element)] = &kind;
    return index;
  }();
  const auto it = byUpperName.find(toUpper(name));
  return it == byUpperName.end() ? nullptr : it->second;
}

void checkWholeDeck(const ModelSpec& spec, ReadContext& context) {
  Diagnostics& diagnostics = context.diagnostics();
  std::optional<double> currentTime;
  bool anySimulate = false;
  bool stopped = false;
  for (const CommandSpec& command : spec.commands) {
    if (stopped) {
      const SourceLoc& loc = std::visit([](const auto& c) -> const SourceLoc& { return c.loc; }, command);
      diagnostics.warning(loc, "comes after Stop and will not run");
      continue;
    }
    if (const auto* simulate = std::get_if<SimulateSpec>(&command)) {
      anySimulate = true;
      if (simulate->analysis_type != "Transient") continue;  // reported by checkSimulate
      if (std::optional<SimulationSegment> segment = planSegment(*simulate, currentTime, diagnostics)) {
        currentTime = segment->endTime;
      }
    } else if (std::holds_alternative<StopSpec>(command)) {
      stopped = true;
    }
  }
  if (!anySimulate) {
    SourceLoc where;
    where.file = spec.deckPath;
    diagnostics.error(where, "the deck has no Simulate command, so nothing would run; add for example <Command>"
                             "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.01\"/></Command>");
  }
}

}  // namespace lodestone
