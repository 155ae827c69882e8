// The catalog of element names: how each element Lodestone supports is read in <Model> and <Command>, and
// which MotionSolve elements are ignored with a warning or refused with an error.
#include "element_catalog.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <type_traits>

#include "elements/activation.h"
#include "plugins/element_subroutine.h"
#include "solver/core/text.h"

namespace lodestone {

namespace {

template <class Spec>
using CheckFunction = void (*)(const Spec&, Diagnostics&);

template <class Spec>
void noCheck(const Spec&, Diagnostics&) {}

// Whether `message` names `attribute` as a word of its own ("mass", not the "mass" in "mass_mult_factor").
bool namesAttribute(const std::string& message, const std::string& attribute) {
  const auto isNamePart = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t at = message.find(attribute); at != std::string::npos; at = message.find(attribute, at + 1)) {
    const size_t end = at + attribute.size();
    if ((at == 0 || !isNamePart(message[at - 1])) && (end == message.size() || !isNamePart(message[end]))) return true;
  }
  return false;
}

// Runs an element's own checks also when some of its attributes could not be read, so that every problem of the
// element is said in one pass (DESIGN.md: diagnostics are collected). What they find about an attribute that could
// not be read — a message naming it, such as "a moving body needs mass > 0" after mass="abc" — follows from the
// problem said already, and is left out.
void checkDespiteUnreadable(const std::vector<std::string>& unreadable, Diagnostics& diagnostics,
                            const std::function<void(Diagnostics&)>& check) {
  if (unreadable.empty()) return check(diagnostics);
  Diagnostics found;
  check(found);
  for (const Diagnostic& finding : found.entries()) {
    const bool follows = std::any_of(unreadable.begin(), unreadable.end(), [&](const std::string& attribute) {
      return namesAttribute(finding.message, attribute);
    });
    if (follows) continue;
    if (finding.severity == Severity::Error) diagnostics.error(finding.where, finding.message);
    else diagnostics.warning(finding.where, finding.message);
  }
}

// Reads one element and runs its checks.
template <class Spec>
Spec readAndCheck(const ElementSchema<Spec>& schema, const ElementNode& node, ReadContext& context,
                  const std::function<void(Spec&, Diagnostics&)>& check) {
  Spec spec{};
  std::vector<std::string> unreadable;
  readElement(schema, node, spec, context, &unreadable);
  checkDespiteUnreadable(unreadable, context.diagnostics(),
                         [&](Diagnostics& diagnostics) { check(spec, diagnostics); });
  return spec;
}

template <class Spec>
std::vector<AttributeRule> rulesOf(const std::vector<Attribute<Spec>>& attributes) {
  return std::vector<AttributeRule>(attributes.begin(), attributes.end());
}

template <class Spec>
void describeSchema(const ElementSchema<Spec>& schema, ElementKind& kind) {
  kind.element = schema.element;
  if (schema.idField) {
    AttributeRule id;
    id.name = "id";
    id.kind = ValueKind::Integer;
    id.isRequired = true;
    id.range.min = 1;
    kind.attributes.push_back(id);
  }
  const std::vector<AttributeRule> rows = rulesOf(schema.attributes);
  kind.attributes.insert(kind.attributes.end(), rows.begin(), rows.end());
  for (const VariantSet<Spec>& set : schema.variantSets) {
    ElementKind::Variants variants{set.attribute, {}};
    for (const auto& [value, variantRows] : set.variants) variants.rows.emplace_back(value, rulesOf(variantRows));
    kind.variantSets.push_back(std::move(variants));
  }
}

// Elements with ids, many per deck (bodies, markers, graphics).
template <class Spec>
ElementKind collectionKind(const ElementSchema<Spec>& schema, std::vector<Spec> ModelSpec::*container,
                           CheckFunction<Spec> check, bool changeableByCommand) {
  ElementKind kind;
  describeSchema(schema, kind);
  kind.readInModel = [&schema, container, check](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    (model.*container).push_back(readAndCheck<Spec>(schema, node, context, check));
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
  describeSchema(schema, kind);
  kind.readInModel = [&schema, slot, check](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    Spec spec = readAndCheck<Spec>(schema, node, context, check);
    if (model.*slot) {
      context.diagnostics().error(spec.loc, "only one " + schema.element + " is allowed; the first is at " +
                                                (model.*slot)->loc.position());
      return;
    }
    model.*slot = std::move(spec);
  };
  if (changeableByCommand) {
    kind.readInCommand = [&schema, slot](const ElementNode& node, ModelSpec& model, ReadContext& context) {
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
    const auto complete = [&node](PostGraphicSpec& graphic, Diagnostics& diagnostics) {
      completePostGraphic(graphic, node.text, diagnostics);
    };
    model.graphics.push_back(readAndCheck<PostGraphicSpec>(postGraphicSchema(), node, context, complete));
  };
  return kind;
}

// Reference_Marker: body_id names a Body_Point instead of a Body_Rigid when body_type says PointBody, which the
// deck may give after body_id.
ElementKind referenceMarkerKind() {
  ElementKind kind =
      collectionKind(referenceMarkerSchema(), &ModelSpec::markers, checkReferenceMarker, false);
  kind.readInModel = [](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    const ElementNode::Attribute* bodyType = detail::findAttribute(node, "body_type");
    const bool onPointBody = bodyType && namesPointBody(bodyType->value);
    model.markers.push_back(readAndCheck<ReferenceMarkerSpec>(
        onPointBody ? referenceMarkerOnPointBodySchema() : referenceMarkerSchema(), node, context,
        checkReferenceMarker));
  };
  return kind;
}

// Reference_ParamCurve: its points are the element's text.
ElementKind paramCurveKind() {
  ElementKind kind =
      collectionKind(referenceParamCurveSchema(), &ModelSpec::paramCurves, noCheck<ReferenceParamCurveSpec>, false);
  kind.readInModel = [](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    const auto complete = [&node](ReferenceParamCurveSpec& curve, Diagnostics& diagnostics) {
      completeParamCurve(curve, node.text, diagnostics);
    };
    model.paramCurves.push_back(
        readAndCheck<ReferenceParamCurveSpec>(referenceParamCurveSchema(), node, context, complete));
  };
  return kind;
}

// Reference_Spline, Reference_Array: their numbers are the element's text.
template <class Spec>
ElementKind textDataKind(const ElementSchema<Spec>& schema, std::vector<Spec> ModelSpec::*container,
                         void (*complete)(Spec&, const std::string&, Diagnostics&)) {
  ElementKind kind = collectionKind(schema, container, noCheck<Spec>, false);
  kind.readInModel = [&schema, container, complete](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    const auto withText = [&node, complete](Spec& spec, Diagnostics& diagnostics) {
      complete(spec, node.text, diagnostics);
    };
    (model.*container).push_back(readAndCheck<Spec>(schema, node, context, withText));
  };
  return kind;
}

template <class Spec>
ElementKind commandOnlyKind(const ElementSchema<Spec>& schema,
                            std::function<void(const ElementNode&, ModelSpec&, ReadContext&)> read) {
  ElementKind kind;
  describeSchema(schema, kind);
  kind.readInCommand = std::move(read);
  return kind;
}

ElementKind simulateKind() {
  return commandOnlyKind(simulateSchema(), [](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    model.commands.push_back(readAndCheck<SimulateSpec>(simulateSchema(), node, context, checkSimulate));
  });
}

ElementKind userProgramControlKind() {
  return commandOnlyKind(userProgramControlSchema(), [](const ElementNode& node, ModelSpec& model,
                                                        ReadContext& context) {
    model.commands.push_back(
        readAndCheck<UserProgramControlSpec>(userProgramControlSchema(), node, context, checkUserProgramControl));
  });
}

ElementKind stopKind() {
  return commandOnlyKind(stopSchema(), [](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    StopSpec spec{};
    readElement(stopSchema(), node, spec, context);
    model.commands.push_back(std::move(spec));
  });
}

// Deactivate / Activate: the element they name must be in the deck's model.
ElementKind activationKind(const ElementSchema<ActivationSpec>& schema, bool active) {
  return commandOnlyKind(schema, [&schema, active](const ElementNode& node, ModelSpec& model, ReadContext& context) {
    ActivationSpec spec{};
    if (!readElement(schema, node, spec, context)) return;
    if (!activationTypeAvailable(spec)) {
      context.diagnostics().error(spec.loc, "element_type=\"" + spec.element_type +
                                                "\" cannot be switched yet: those elements are not available; "
                                                "Deactivate and Activate switch " +
                                                switchableElementTypes() + " elements");
      return;
    }
    const std::vector<std::string> targets = activationTargets(spec);
    bool defined = false;
    std::string named;
    for (const std::string& target : targets) {
      defined = defined || context.isDefined(target, spec.element_id);
      named += (named.empty() ? "" : targets.size() > 2 ? ", " : " or ") + target;
    }
    if (!defined) {
      context.diagnostics().error(spec.loc, "element_id=" + std::to_string(spec.element_id) + ": the model has no " +
                                                named + " with this id (element_type=\"" + spec.element_type + "\")");
      return;
    }
    model.commands.push_back(activationCommand(spec, active));
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
      singletonKind(paramStaticSchema(), &ModelSpec::statics, checkParamStatic, true),
      singletonKind(forceGravitySchema(), &ModelSpec::gravity, noCheck<ForceGravitySpec>, true),
      singletonKind(debugOutputSchema(), &ModelSpec::debugOutput, checkDebugOutput, false),
      singletonKind(h3dOutputSchema(), &ModelSpec::h3dOutput, noCheck<H3DOutputSpec>, true),
      singletonKind(resOutputSchema(), &ModelSpec::resOutput, noCheck<ResOutputSpec>, true),
      collectionKind(bodyRigidSchema(), &ModelSpec::bodies, checkBodyRigid, true),
      collectionKind(bodyPointSchema(), &ModelSpec::pointBodies, checkBodyPoint, true),
      referenceMarkerKind(),
      postGraphicKind(),
      paramCurveKind(),
      collectionKind(forceContactSchema(), &ModelSpec::contacts, checkForceContact, true),
      collectionKind(contactSurfaceSchema(), &ModelSpec::surfaces, checkContactSurface, false),
      collectionKind(sensorEventSchema(), &ModelSpec::sensors, checkSensorEvent, true),
      collectionKind(sensorEvaluateSchema(), &ModelSpec::sensorEvaluates, checkSensorEvaluate, true),
      collectionKind(constraintJointSchema(), &ModelSpec::joints, checkConstraintJoint, true),
      collectionKind(constraintJprimSchema(), &ModelSpec::primitives, checkConstraintJoint, true),
      collectionKind(motionJointSchema(), &ModelSpec::motions, checkMotionJoint, true),
      collectionKind(motionMarkerSchema(), &ModelSpec::markerMotions, checkMotionMarker, true),
      collectionKind(constraintCouplerSchema(), &ModelSpec::couplers, checkConstraintCoupler, false),
      collectionKind(constraintGearSchema(), &ModelSpec::gears, checkConstraintGear, false),
      collectionKind(referenceVariableSchema(), &ModelSpec::variables, checkReferenceVariable, true),
      collectionKind(controlDiffSchema(), &ModelSpec::differentials, checkControlDiff, true),
      collectionKind(controlStateEqnSchema(), &ModelSpec::stateEquations, checkControlStateEqn, false),
      collectionKind(controlSisoSchema(), &ModelSpec::sisos, checkControlSiso, false),
      collectionKind(controlPlantInputSchema(), &ModelSpec::plantInputs, checkControlPlant, false),
      collectionKind(controlPlantOutputSchema(), &ModelSpec::plantOutputs, checkControlPlant, false),
      textDataKind(referenceMatrixSchema(), &ModelSpec::matrices, completeReferenceMatrix),
      collectionKind(forceScalarTwoBodySchema(), &ModelSpec::scalarForces, checkForceScalarTwoBody, true),
      collectionKind(forceScalarOneBodySchema(), &ModelSpec::scalarForcesOneBody, checkForceScalarOneBody, true),
      collectionKind(forceVectorTwoBodySchema(), &ModelSpec::vectorForcesTwoBody, checkForceVector, true),
      collectionKind(forceVectorOneBodySchema(), &ModelSpec::vectorForcesOneBody, checkForceVector, true),
      collectionKind(forceSpringDamperSchema(), &ModelSpec::springDampers, checkForceSpringDamper, true),
      collectionKind(forceBushingSchema(), &ModelSpec::bushings, checkForceBushing, true),
      collectionKind(forceBeamSchema(), &ModelSpec::beams, noCheck<ForceBeamSpec>, true),
      collectionKind(forceFieldSchema(), &ModelSpec::fields, checkForceField, true),
      collectionKind(forceMagnetSchema(), &ModelSpec::magnets, checkForceMagnet, false),
      collectionKind(forceJointFrictionSchema(), &ModelSpec::jointFrictions, checkForceJointFriction, false),
      collectionKind(postRequestSchema(), &ModelSpec::requests, checkPostRequest, false),
      textDataKind(referenceSplineSchema(), &ModelSpec::splines, completeReferenceSpline),
      textDataKind(referenceArraySchema(), &ModelSpec::arrays, completeReferenceArray),
      collectionKind(referenceStringSchema(), &ModelSpec::strings, checkReferenceString, false),
      simulateKind(),
      stopKind(),
      activationKind(deactivateSchema(), false),
      activationKind(activateSchema(), true),
      userProgramControlKind(),
  };
  const auto ignored = [&](const std::string& element, const std::string& note) {
    catalog.push_back(otherKind(element, ElementSupport::IgnoredWithWarning, note));
  };
  const auto refused = [&](const std::string& element, const std::string& note) {
    catalog.push_back(otherKind(element, ElementSupport::NotSupported, note));
  };
  ignored("Messaging", "messages always go to run.log");
  ignored("Param_Simulation", "Lodestone's own settings apply: joints are assembled to 1e-12 of the model's size, "
                               "and the linear solver is chosen by the model's size");
  ignored("Param_Linear", "linear analysis is not available");
  ignored("Post_UserAPI", "POST_SUB is not available");
  const std::string jointNote =
      "this constraint is not available yet; Constraint_Joint, Constraint_Jprim, Constraint_Coupler and "
      "Constraint_Gear are";
  for (const char* element : {"Constraint_Mate", "Constraint_PTCV", "Constraint_CVCV", "Constraint_PTSF",
                              "Constraint_CVSF", "Constraint_SFSF", "Constraint_UserConstr", "Constraint_PTdCV",
                              "Constraint_PTdSF", "Constraint_PTdSFF"}) {
    refused(element, jointNote);
  }
  for (const char* element : {"Force_MultiPoint", "Force_FlexModal", "Force_Aero", "Force_Tire"}) {
    refused(element, "this force element is not available yet");
  }
  // Adams' FRICTION statement is MotionSolve's Force_JointFriction: a deck written by hand may use the shorter name.
  refused("Force_Friction", "MotionSolve's joint friction is Force_JointFriction (docs/joints.md#joint-friction), "
                            "which Lodestone reads");
  refused("Control_Linear", "control elements are not available yet");
  refused("Body_Flexible", "flexible bodies are not available");
  refused("Load_Model", "decks must be one file");
  refused("Load_Command", "decks must be one file");
  refused("Save", "saving and reloading states is not available");
  refused("Reload", "saving and reloading states is not available");
  return catalog;
}

// The kinds and their index by upper-case name, built together: an index kept apart from a rebuilt list would
// point into the list it replaced.
struct Catalog {
  std::vector<ElementKind> kinds;
  std::map<std::string, size_t> byUpperName;
  int builtFor = 0;  // the law registry's version
};

Catalog makeCatalog() {
  Catalog made{buildCatalog(), {}, registryVersion()};
  for (size_t k = 0; k < made.kinds.size(); ++k) made.byUpperName[toUpper(made.kinds[k].element)] = k;
  return made;
}

// Rebuilt when a law library has registered laws since: Force_Contact's attributes come from the law registry.
// Laws are registered before decks are read, so no kind a reader holds is replaced under it.
const Catalog& catalog() {
  static Catalog current = makeCatalog();
  if (current.builtFor != registryVersion()) current = makeCatalog();
  return current;
}

std::string describeKind(const AttributeRule& rule) {
  switch (rule.kind) {
    case ValueKind::Real: return "real";
    case ValueKind::Integer: return "integer";
    case ValueKind::Boolean: return "TRUE/FALSE";
    case ValueKind::Keyword:
    case ValueKind::KeywordList: {
      std::string text = rule.kind == ValueKind::Keyword ? "one of" : "list of";
      for (const std::string& keyword : rule.keywords) text += " " + keyword;
      return text;
    }
    case ValueKind::Reference:
      return "id of a " + rule.targetElement + (rule.groundFrameAllowed ? " (0: ground frame)" : "");
    case ValueKind::ReferenceList: return "list of " + rule.targetElement + " ids";
    case ValueKind::RealList: return "list of reals";
    case ValueKind::Text: return "text";
    case ValueKind::Presentation: return "accepted, for viewers only";
    case ValueKind::Ignored: return "accepted with a warning, no effect: " + rule.note;
    case ValueKind::Unsupported: return "not supported: " + rule.note;
  }
  return "";
}

std::string describeDefault(const Value& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, double>) return formatReal(v);
        else if constexpr (std::is_same_v<T, long>) return std::to_string(v);
        else if constexpr (std::is_same_v<T, bool>) return v ? "TRUE" : "FALSE";
        else if constexpr (std::is_same_v<T, std::string>) return v;
        else return "";
      },
      value);
}

std::string describeRules(const std::vector<AttributeRule>& rules, const std::string& indent) {
  std::string text;
  for (const AttributeRule& rule : rules) {
    text += indent + rule.name + ": " + describeKind(rule);
    if (!rule.range.describe().empty()) text += ", " + rule.range.describe();
    if (rule.isRequired) text += ", required";
    else if (rule.defaultValue) text += ", default " + describeDefault(*rule.defaultValue);
    if (rule.isModifiable) text += ", a command can change it";
    text += "\n";
  }
  return text;
}

// A Markdown table of rules: one row per attribute. '|' in a keyword hint would end a cell, so it is escaped.
std::string markdownRules(const std::vector<AttributeRule>& rules) {
  const auto cell = [](std::string text) {
    std::string escaped;
    for (char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
    return escaped;
  };
  std::string text = "| attribute | value | range | required or default | a command can change it |\n"
                     "|---|---|---|---|---|\n";
  for (const AttributeRule& rule : rules) {
    const std::string presence = rule.isRequired        ? "required"
                                 : rule.defaultValue ? "default " + describeDefault(*rule.defaultValue)
                                                     : "";
    text += "| `" + rule.name + "` | " + cell(describeKind(rule)) + " | " + cell(rule.range.describe()) + " | " +
            cell(presence) + " | " + (rule.isModifiable ? "yes" : "") + " |\n";
  }
  return text;
}

}  // namespace

std::string elementsReferenceMarkdown() {
  std::string text =
      "# Deck elements\n\n"
      "Every element Lodestone reads, accepts with a warning, or refuses, with each attribute's type, range, default\n"
      "and whether a command can change it. This page is written by `lodestone elements --markdown` from the schema\n"
      "tables the reader checks decks with; a test fails when it is out of date, so edit the tables, not the page.\n";
  const std::pair<ElementSupport, const char*> groups[] = {
      {ElementSupport::Read, "Read and simulated"},
      {ElementSupport::IgnoredWithWarning, "Accepted with a warning; they do not change the motion"},
      {ElementSupport::NotSupported, "Refused (the deck is reported as bad)"}};
  for (const auto& [support, heading] : groups) {
    text += std::string("\n## ") + heading + "\n";
    for (const ElementKind* kind : allElementKinds()) {
      if (kind->support != support) continue;
      if (support != ElementSupport::Read) {
        text += "\n- `" + kind->element + "`: " + kind->note + "\n";
        continue;
      }
      text += "\n### " + kind->element + "\n\n";
      text += kind->readInModel ? (kind->readInCommand ? "In `<Model>`; in `<Command>` it changes an element.\n\n"
                                                       : "In `<Model>`.\n\n")
                                : "In `<Command>`.\n\n";
      text += markdownRules(kind->attributes);
      for (const ElementKind::Variants& set : kind->variantSets) {
        for (const auto& [value, rules] : set.rows) {
          text += "\nWith `" + set.attribute + "=\"" + value + "\"`:\n\n" + markdownRules(rules);
        }
      }
    }
  }
  return text;
}

const ElementKind* findElementKind(std::string_view name) {
  const Catalog& current = catalog();
  const auto it = current.byUpperName.find(toUpper(name));
  return it == current.byUpperName.end() ? nullptr : &current.kinds[it->second];
}

std::vector<const ElementKind*> allElementKinds() {
  std::vector<const ElementKind*> kinds;
  for (const ElementKind& kind : catalog().kinds) kinds.push_back(&kind);
  return kinds;
}

const AttributeRule* findAttributeRule(const ElementKind& kind, const std::vector<ElementNode::Attribute>& given,
                                       std::string_view name) {
  for (const AttributeRule& rule : kind.attributes) {
    if (rule.name == name) return &rule;
  }
  for (const ElementKind::Variants& set : kind.variantSets) {
    const auto selector = std::find_if(given.begin(), given.end(),
                                       [&](const ElementNode::Attribute& a) { return a.name == set.attribute; });
    if (selector == given.end()) continue;
    for (const auto& [value, rules] : set.rows) {
      if (!equalsIgnoreCase(trim(selector->value), value)) continue;
      for (const AttributeRule& rule : rules) {
        if (rule.name == name) return &rule;
      }
    }
  }
  return nullptr;
}

std::string describeElement(const ElementKind& kind) {
  std::string text = kind.element;
  if (kind.support == ElementSupport::IgnoredWithWarning) return text + ": accepted with a warning, no effect: " + kind.note + "\n";
  if (kind.support == ElementSupport::NotSupported) return text + ": not supported: " + kind.note + "\n";
  text += kind.readInModel ? (kind.readInCommand ? " (in <Model>; in <Command> it changes an element)" : " (in <Model>)")
                           : " (in <Command>)";
  text += "\n" + describeRules(kind.attributes, "  ");
  for (const ElementKind::Variants& set : kind.variantSets) {
    for (const auto& [value, rules] : set.rows) {
      text += "  with " + set.attribute + "=\"" + value + "\":\n" + describeRules(rules, "    ");
    }
  }
  return text;
}

void checkWholeDeck(const ModelSpec& spec, ReadContext& context) {
  Diagnostics& diagnostics = context.diagnostics();
  reportMissingLibraries(diagnostics);  // once per library, now that every element has named its own
  std::optional<double> currentTime;
  bool anySimulate = false;
  bool timesKnown = true;
  bool stopped = false;
  for (const CommandSpec& command : spec.commands) {
    if (stopped) {
      const SourceLoc& loc = std::visit([](const auto& c) -> const SourceLoc& { return c.loc; }, command);
      diagnostics.warning(loc, "comes after Stop and will not run");
      continue;
    }
    if (const auto* simulate = std::get_if<SimulateSpec>(&command)) {
      anySimulate = true;
      if (!timesKnown) continue;
      if (std::optional<SimulationSegment> segment = planSegment(*simulate, currentTime, diagnostics)) {
        currentTime = segment->endTime;
      }
    } else if (std::holds_alternative<UserProgramControlSpec>(command)) {
      // CONSUB runs analyses of its own: the time a later Simulate starts from is known only when the run gets there.
      anySimulate = true;
      timesKnown = false;
    } else if (std::holds_alternative<StopSpec>(command)) {
      stopped = true;
    }
  }
  if (!anySimulate) {
    SourceLoc where;
    where.file = spec.deckPath;
    diagnostics.error(where, "the deck has no Simulate command (nor a UserProgramControl), so nothing would run; "
                             "add for example <Command><Simulate analysis_type=\"Transient\" end_time=\"1\" "
                             "print_interval=\"0.01\"/></Command>");
  }
}

}  // namespace lodestone
