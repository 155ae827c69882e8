// Force_Contact: attributes (the law parameters come from the law descriptors, so a law's attribute table lives
// beside its formula), element checks, and the contact model: shapes placed on bodies, laws looked up.
#include "force_contact.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <set>

#include "collision/mesh_geometry.h"
#include "collision/tessellation.h"
#include "elements/expression_context.h"
#include "elements/post_graphic.h"
#include "elements/reference_param_curve.h"
#include "plugins/element_subroutine.h"
#include "plugins/named_laws.h"
#include "plugins/python_scripts.h"
#include "plugins/user_library.h"
#include "plugins/user_parameters.h"
#include "solver/core/excerpt.h"
#include "solver/core/text.h"

namespace lodestone {

using S = ForceContactSpec;

namespace {

// The user subroutines an element may name: which attributes say so, and the default function name.
struct SubroutineAttributes {
  const char* prefix;  // "cnf"
  const char* defaultFunction;
  std::optional<std::string> S::*parameters;
  std::optional<std::string> S::*function;
  std::optional<std::string> S::*library;
};
const SubroutineAttributes kNormalSubroutine{"cnf", "CNFSUB", &S::cnf_param_string, &S::cnf_fnc_name, &S::cnf_dll_name};
const SubroutineAttributes kFrictionSubroutine{"cff", "CFFSUB", &S::cff_param_string, &S::cff_fnc_name,
                                               &S::cff_dll_name};
const SubroutineAttributes kPostSubroutine{"cpost", "CONTACTPOST", &S::cpost_param_string, &S::cpost_fnc_name,
                                           &S::cpost_dll_name};

bool usesNormalSubroutine(const S& spec) { return equalsIgnoreCase(spec.cnf_type, "USERCNF"); }
bool usesFrictionSubroutine(const S& spec) { return equalsIgnoreCase(spec.cff_type, "USERCFF"); }
// CONTACTPOST runs when any of its attributes is given.
bool usesPostSubroutine(const S& spec) {
  return spec.cpost_dll_name || spec.cpost_fnc_name || spec.cpost_param_string;
}

// "MotionSolve's "NULL" library means the model- or machine-level one, which Lodestone does not have.
bool namesLibrary(const std::optional<std::string>& library) {
  return library && !library->empty() && !equalsIgnoreCase(*library, "NULL");
}

// Checks the attributes of one subroutine the element uses.
void checkSubroutine(const S& spec, const SubroutineAttributes& sub, Diagnostics& diagnostics) {
  const std::string prefix = sub.prefix;
  if (const std::optional<std::string>& text = spec.*sub.parameters) {
    const UserParameters parsed = parseUserParameters(*text);
    if (!parsed.error.empty()) {
      diagnostics.error(spec.loc, prefix + "_param_string=\"" + excerpt(*text) + "\", column " +
                                      std::to_string(parsed.column) + ": " + parsed.error);
    }
  }
  const std::string function = spec.*sub.function ? *(spec.*sub.function) : std::string(sub.defaultFunction);
  if (!namesLibrary(spec.*sub.library) && !spec.script_name) {
    diagnostics.error(spec.loc, prefix + "_dll_name is needed: the shared library that holds " + function +
                                    " (a path, or a name looked up beside the deck and in LODESTONE_USERSUB_PATH); "
                                    "or script_name with interpreter=\"PYTHON\" for a function written in Python");
  }
  if (namesLibrary(spec.*sub.library) && spec.script_name) {
    diagnostics.warning(spec.loc, prefix + "_dll_name is ignored: script_name=\"" + *spec.script_name + "\" gives " +
                                      function);
  }
  // Not found: said once for the library, with every element that needs it (reportMissingLibraries).
  if (namesLibrary(spec.*sub.library) && !spec.script_name) {
    noteIfLibraryMissing(prefix + "_dll_name", *(spec.*sub.library), spec.loc);
  }
}

// A script's functions come from the Python interpreter; MotionSolve names others (MATLAB), Lodestone has only it.
bool usesPython(const S& spec) {
  return spec.script_name && spec.interpreter && equalsIgnoreCase(*spec.interpreter, "PYTHON");
}

void checkScript(const S& spec, bool usesSubroutine, Diagnostics& diagnostics) {
  if (spec.interpreter && !equalsIgnoreCase(*spec.interpreter, "PYTHON")) {
    diagnostics.error(spec.loc, "interpreter=\"" + *spec.interpreter +
                                    "\" is not available: the only interpreter is PYTHON (interpreter=\"PYTHON\")");
  } else if (spec.script_name && !spec.interpreter) {
    diagnostics.error(spec.loc, "script_name=\"" + *spec.script_name + "\" needs interpreter=\"PYTHON\"");
  } else if (spec.interpreter && !spec.script_name) {
    diagnostics.error(spec.loc, "interpreter=\"" + *spec.interpreter +
                                    "\" needs script_name, the Python file that defines the subroutines");
  } else if (spec.script_name && !usesSubroutine) {
    diagnostics.warning(spec.loc, "script_name is ignored: the element calls no user subroutine (cnf_type=\"USERCNF\", "
                                  "cff_type=\"USERCFF\" or a cpost_* attribute)");
  }
}

// Warns about subroutine attributes that nothing uses (a USERCNF string left behind after switching to IMPACT).
void warnUnused(const S& spec, const SubroutineAttributes& sub, bool used, const char* why, Diagnostics& diagnostics) {
  if (used) return;
  for (const auto field : {sub.parameters, sub.function, sub.library}) {
    if (!(spec.*field)) continue;
    const char* suffix = field == sub.parameters ? "_param_string" : field == sub.function ? "_fnc_name" : "_dll_name";
    diagnostics.warning(spec.loc, std::string(sub.prefix) + suffix + " is ignored: " + why);
  }
}
const std::string kFlexibleNote = "flexible bodies are not available";

// A law parameter as a Force_Contact attribute. Values land in spec.lawValues by name, so a command that changes
// `stiffness` does not need to know which law the element has.
Attribute<S> lawAttribute(const LawParameter& parameter) {
  const std::string name = parameter.name;
  Attribute<S> attribute =
      parameter.size == 1
          ? attr::make<S>(name, ValueKind::Real, [name](S& s, const Value& v) { s.lawValues[name] = {std::get<double>(v)}; })
          : attr::make<S>(name, ValueKind::RealList,
                          [name](S& s, const Value& v) { s.lawValues[name] = std::get<std::vector<double>>(v); });
  attribute.range = parameter.range;
  attribute.isRequired = parameter.required;
  attribute.isModifiable = true;
  // An inheritable parameter left out stays out, so that each pair can take it from its pieces.
  if (!parameter.required && parameter.inheritance == Inheritance::None) {
    attribute.defaultValue = parameter.size == 1 ? Value(parameter.defaultValue)
                                                 : Value(std::vector<double>(static_cast<size_t>(parameter.size),
                                                                             parameter.defaultValue));
  }
  return attribute;
}

// A law expression as a Force_Contact attribute, its text kept by name as a parameter's value is.
Attribute<S> lawExpressionAttribute(const LawExpression& expression) {
  const std::string name = expression.name;
  Attribute<S> attribute =
      attr::make<S>(name, ValueKind::Text,
                    [name](S& s, const Value& v) { s.lawExpressions[name] = std::get<std::string>(v); });
  attribute.isRequired = true;
  attribute.isModifiable = true;
  return attribute;
}

// A contact law's expression, compiled with the contact-point symbols its law reads (DELTA…). It may read markers
// and Reference_Variables (checked with checkContactLawReadings once the variables are built), but not a contact's
// loads: a law that read them would read its own, and those of contacts evaluated beside it on other threads. Each
// CONTACT is an error at its column.
std::optional<Expression> compileContactLawExpression(const std::string& attribute, const std::string& text,
                                                      ContactPointSymbols symbols, const SourceLoc& loc,
                                                      const Model& model, Diagnostics& diagnostics) {
  std::optional<Expression> expression = compileModelAttribute(attribute, text, loc, model, diagnostics, symbols);
  if (!expression) return std::nullopt;
  for (const int column : expression->contactColumns()) {
    diagnostics.error(loc, attribute + "=\"" + excerpt(text) + "\", column " + std::to_string(column) +
                               ": CONTACT is not available in a contact law's expression: the law would read the "
                               "loads it gives; it reads its contact point (DELTA, DELTA_DOT, SLIP_T1, SLIP_T2, "
                               "NORMAL_FORCE), TIME, markers and Reference_Variables");
  }
  if (!expression->contactColumns().empty()) return std::nullopt;
  return expression;
}

template <class Law>
VariantSet<S> lawVariants(const std::string& attribute, const std::vector<const Law*>& laws) {
  VariantSet<S> set{attribute, {}};
  for (const Law* law : laws) {
    std::vector<Attribute<S>> rows;
    for (const LawParameter& parameter : law->parameters) rows.push_back(lawAttribute(parameter));
    for (const LawExpression& expression : law->expressions) rows.push_back(lawExpressionAttribute(expression));
    set.variants.emplace_back(law->keyword, std::move(rows));
  }
  return set;
}

// The keywords a law attribute takes: the registered laws, the user subroutine's, and those of laws a library
// offered but that were refused (for their ABI version), so that the element can say why it cannot have them.
template <class Law>
std::vector<std::string> keywordsOf(const std::vector<const Law*>& laws, const std::string& userKeyword) {
  std::vector<std::string> keywords;
  for (const Law* law : laws) keywords.push_back(law->keyword);
  keywords.push_back(userKeyword);
  for (const std::string& refused : refusedLawKeywords()) keywords.push_back(refused);
  return keywords;
}

// The values of a law's parameters in its table order, or nothing when one is missing (already reported). An
// inheritable parameter left out is NaN: its pairs take it from their pieces.
std::optional<std::vector<double>> valuesFor(const std::vector<LawParameter>& parameters,
                                             const std::map<std::string, std::vector<double>>& given) {
  std::vector<double> values;
  for (const LawParameter& parameter : parameters) {
    const auto found = given.find(parameter.name);
    if (found == given.end() && parameter.inheritance != Inheritance::None) {
      values.insert(values.end(), static_cast<size_t>(parameter.size), std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    if (found == given.end() || static_cast<int>(found->second.size()) != parameter.size) return std::nullopt;
    values.insert(values.end(), found->second.begin(), found->second.end());
  }
  return values;
}

// The values of a law's parameters in its table order, NaN for any the element lacks (a value that could not be
// read, or a missing one: said already), so that the law's rules can judge the others.
std::vector<double> valuesOrNaN(const std::vector<LawParameter>& parameters,
                                const std::map<std::string, std::vector<double>>& given) {
  std::vector<double> values;
  for (const LawParameter& parameter : parameters) {
    const auto found = given.find(parameter.name);
    const bool complete = found != given.end() && static_cast<int>(found->second.size()) == parameter.size;
    for (int k = 0; k < parameter.size; ++k) {
      values.push_back(complete ? found->second[static_cast<size_t>(k)] : std::numeric_limits<double>::quiet_NaN());
    }
  }
  return values;
}

// Reports what a law's rules found, each message after the law it is about: cnf_type="IMPACT": ...
void reportLawFindings(const SourceLoc& loc, const std::string& lawAttribute, const std::string& keyword,
                       const LawFindings& findings, bool withWarnings, Diagnostics& diagnostics) {
  const std::string law = lawAttribute + "=\"" + keyword + "\": ";
  for (const std::string& error : findings.errors) diagnostics.error(loc, law + error);
  if (!withWarnings) return;
  for (const std::string& warning : findings.warnings) diagnostics.warning(loc, law + warning);
}

}  // namespace

namespace {

const char* const kNamedLawHint =
    "a law from a law library is known once the library is loaded (lodestone --laws LIBRARY, or LODESTONE_LAWS)";

ElementSchema<S> buildForceContactSchema() {
  return ElementSchema<S>{
      .element = "Force_Contact",
      .idField = &S::id,
      .attributes = {
          attr::text("label", &S::label),
          attr::presentation<S>("full_label"),
          attr::integer("num_i_graphics", &S::num_i_graphics).atLeast(1),
          attr::referenceList("i_graphics_id", &S::i_graphics_id, "Post_Graphic").required(),
          attr::integer("num_j_graphics", &S::num_j_graphics).atLeast(1),
          attr::referenceList("j_graphics_id", &S::j_graphics_id, "Post_Graphic").required(),
          attr::real("ignore_penetration_larger_than", &S::ignore_penetration_larger_than).above(0).modifiable(),
          attr::keyword("master_surface", &S::master_surface, {"I", "J", "I_AND_J", "AUTO"})
              .byDefault(std::string("AUTO")),
          attr::boolean("enable_node_mode", &S::enable_node_mode).byDefault(false),
          attr::keyword("enable_analytical", &S::enable_analytical, {"AUTO", "TRUE", "FALSE"})
              .byDefault(std::string("AUTO")),
          attr::boolean("zero_crossing", &S::zero_crossing).byDefault(true).modifiable(),
          attr::real("contact_stability_2d", &S::contact_stability_2d).atLeast(0),
          attr::keyword("cnf_type", &S::cnf_type, keywordsOf(normalLaws(), "USERCNF")).required().hint(kNamedLawHint),
          attr::keyword("cff_type", &S::cff_type, keywordsOf(frictionLaws(), "USERCFF"))
              .byDefault(std::string("COULOMB_OFF"))
              .hint(kNamedLawHint),
          attr::text("cnf_param_string", &S::cnf_param_string).modifiable(),
          attr::text("cnf_fnc_name", &S::cnf_fnc_name),
          attr::text("cnf_dll_name", &S::cnf_dll_name),
          attr::text("cff_param_string", &S::cff_param_string).modifiable(),
          attr::text("cff_fnc_name", &S::cff_fnc_name),
          attr::text("cff_dll_name", &S::cff_dll_name),
          attr::text("cpost_param_string", &S::cpost_param_string).modifiable(),
          attr::text("cpost_fnc_name", &S::cpost_fnc_name),
          attr::text("cpost_dll_name", &S::cpost_dll_name),
          attr::text("script_name", &S::script_name),
          attr::text("interpreter", &S::interpreter),
          attr::unsupported<S>("i_flexbody_id", kFlexibleNote),
          attr::unsupported<S>("j_flexbody_id", kFlexibleNote),
          attr::unsupported<S>("i_flip_flex", kFlexibleNote),
          attr::unsupported<S>("j_flip_flex", kFlexibleNote),
      },
      .variantSets = {lawVariants("cnf_type", normalLaws()), lawVariants("cff_type", frictionLaws())},
      // Adams' CONTACT statement spells these out in full.
      .foreignNames = {
          {"igeom", "Adams' CONTACT IGEOM", "'i_graphics_id'"},
          {"jgeom", "Adams' CONTACT JGEOM", "'j_graphics_id'"},
          {"restitution_coefficient", "Adams' CONTACT RESTITUTION_COEFFICIENT",
           "'restitution_coef' (with cnf_type=\"POISSON\")"},
          {"stiction_transition_velocity", "Adams' CONTACT STICTION_TRANSITION_VELOCITY",
           "'stiction_trans_vel' (with cff_type=\"COULOMB_ON\")"},
          {"friction_transition_velocity", "Adams' CONTACT FRICTION_TRANSITION_VELOCITY",
           "'friction_trans_vel' (with cff_type=\"COULOMB_ON\" or \"COULOMB_DYNAMICONLY\")"},
          {"coulomb_friction", "Adams' CONTACT COULOMB_FRICTION", "'cff_type' (COULOMB_ON, COULOMB_OFF, ...)"},
      }};
}

}  // namespace

const ElementSchema<ForceContactSpec>& forceContactSchema() {
  // Rebuilt in place when a law library has registered laws since: the law attributes come from the registry.
  static ElementSchema<S> schema = buildForceContactSchema();
  static int builtFor = registryVersion();
  if (builtFor != registryVersion()) {
    schema = buildForceContactSchema();
    builtFor = registryVersion();
  }
  return schema;
}

void checkForceContact(const ForceContactSpec& spec, Diagnostics& diagnostics) {
  const auto checkCount = [&](const char* countName, const std::optional<int>& count, const char* listName,
                              const std::vector<long>& list) {
    if (count && *count != static_cast<int>(list.size())) {
      diagnostics.error(spec.loc, std::string(countName) + "=" + std::to_string(*count) + " but " + listName +
                                      " lists " + std::to_string(list.size()) + " graphics; make them agree");
    }
  };
  checkCount("num_i_graphics", spec.num_i_graphics, "i_graphics_id", spec.i_graphics_id);
  checkCount("num_j_graphics", spec.num_j_graphics, "j_graphics_id", spec.j_graphics_id);
  if (usesNormalSubroutine(spec)) checkSubroutine(spec, kNormalSubroutine, diagnostics);
  if (usesFrictionSubroutine(spec)) checkSubroutine(spec, kFrictionSubroutine, diagnostics);
  if (usesPostSubroutine(spec)) checkSubroutine(spec, kPostSubroutine, diagnostics);
  warnUnused(spec, kNormalSubroutine, usesNormalSubroutine(spec), "cnf_type is not USERCNF", diagnostics);
  warnUnused(spec, kFrictionSubroutine, usesFrictionSubroutine(spec), "cff_type is not USERCFF", diagnostics);
  checkScript(spec, usesNormalSubroutine(spec) || usesFrictionSubroutine(spec) || usesPostSubroutine(spec), diagnostics);
  // Vector parameters (dipole moments) need exactly three numbers.
  const auto checkVectors = [&](const std::vector<LawParameter>& parameters) {
    for (const LawParameter& parameter : parameters) {
      const auto found = spec.lawValues.find(parameter.name);
      if (found == spec.lawValues.end() || static_cast<int>(found->second.size()) == parameter.size) continue;
      diagnostics.error(spec.loc, "attribute '" + parameter.name + "' needs " + std::to_string(parameter.size) +
                                      " numbers (x y z), got " + std::to_string(found->second.size()));
    }
  };
  // The laws' rules between their parameters, said when the deck is read with the element's other problems.
  const auto checkRules = [&](const char* lawAttribute, const auto* law) {
    checkVectors(law->parameters);
    if (!law->check) return;
    LawFindings findings;
    law->check(valuesOrNaN(law->parameters, spec.lawValues), findings);
    reportLawFindings(spec.loc, lawAttribute, law->keyword, findings, true, diagnostics);
  };
  if (const NormalLaw* law = findNormalLaw(spec.cnf_type)) checkRules("cnf_type", law);
  if (const FrictionLaw* law = findFrictionLaw(spec.cff_type)) checkRules("cff_type", law);
  for (const auto& [attribute, keyword] : {std::pair{"cnf_type", &spec.cnf_type}, std::pair{"cff_type", &spec.cff_type}}) {
    if (const std::optional<std::string> refusal = refusedLaw(*keyword)) {
      diagnostics.error(spec.loc, std::string(attribute) + "=\"" + *keyword + "\" cannot be used: " + *refusal);
    }
  }
}

// ---- building ------------------------------------------------------------------------------------------------

namespace {

ContactOptions contactOptions(const ForceContactSpec& spec) {
  ContactOptions options;
  options.master = spec.master_surface == "I"         ? MasterSurface::I
                   : spec.master_surface == "J"       ? MasterSurface::J
                   : spec.master_surface == "I_AND_J" ? MasterSurface::IAndJ
                                                      : MasterSurface::Auto;
  options.nodeMode = spec.enable_node_mode;
  // TRUE asks for what AUTO does: exact routines where they exist, GJK/EPA for other convex pairs.
  options.analytical = spec.enable_analytical != "FALSE";
  if (spec.ignore_penetration_larger_than) options.ignoreDeeperThan = *spec.ignore_penetration_larger_than;
  options.curveStability = spec.contact_stability_2d;
  return options;
}

bool listsShape(const std::vector<int>& side, const std::vector<ContactGraphic>& graphics, ShapeType type) {
  return std::any_of(side.begin(), side.end(),
                     [&](int index) { return graphics[static_cast<size_t>(index)].shape.type == type; });
}

bool anyGraphicOf(const ForceContact& contact, const std::vector<ContactGraphic>& graphics, ShapeType type) {
  return listsShape(contact.iGraphics, graphics, type) || listsShape(contact.jGraphics, graphics, type);
}

// Whether this primitive of the element is met as a mesh: with enable_analytical="FALSE", when a master surface
// other than AUTO may make a primitive the sampled side of a pair with a mesh, or inside a cavity (whose wall meets
// the samples of every shape but a ball). A cavity itself is always exact.
bool needsTessellation(const ForceContact& contact, const std::vector<ContactGraphic>& graphics, const Shape& shape) {
  if (shape.type == ShapeType::HollowSphere || shape.type == ShapeType::Mesh || shape.type == ShapeType::Curve ||
      isSimscapeGeometry(shape.type)) {
    return false;  // met as it is, always
  }
  if (!contact.options.analytical) return true;
  if (contact.options.master != MasterSurface::Auto && anyGraphicOf(contact, graphics, ShapeType::Mesh)) return true;
  return shape.type != ShapeType::Sphere && anyGraphicOf(contact, graphics, ShapeType::HollowSphere);
}

// A cavity is the exact master surface of each of its pairs: the element's options must not say otherwise, and two
// cavities cannot meet. False (and said) when they do.
bool cavityRulesHold(const ForceContact& contact, const std::vector<ContactGraphic>& graphics,
                     Diagnostics& diagnostics) {
  const bool iHollow = listsShape(contact.iGraphics, graphics, ShapeType::HollowSphere);
  const bool jHollow = listsShape(contact.jGraphics, graphics, ShapeType::HollowSphere);
  if (!iHollow && !jHollow) return true;
  bool ok = true;
  const auto refuse = [&](const std::string& message) {
    diagnostics.error(contact.loc, message);
    ok = false;
  };
  if (iHollow && jHollow) {
    refuse("both i_graphics_id and j_graphics_id list a hollow sphere (is_material_inside=\"FALSE\"); a cavity holds "
           "the other side's graphics, so list the cavity on one side only");
  }
  const MasterSurface master = contact.options.master;
  if (master == MasterSurface::IAndJ || (master == MasterSurface::I && jHollow) ||
      (master == MasterSurface::J && iHollow)) {
    const char* given = master == MasterSurface::IAndJ ? "I_AND_J" : master == MasterSurface::I ? "I" : "J";
    refuse(std::string("master_surface=\"") + given + "\" makes the side without the hollow sphere "
           "(is_material_inside=\"FALSE\") a master surface; a cavity's exact wall is always the master: use AUTO "
           "or " + (iHollow ? "I" : "J"));
  }
  if (!contact.options.analytical) {
    refuse("enable_analytical=\"FALSE\" would make the hollow sphere (is_material_inside=\"FALSE\") a mesh; a cavity "
           "is always met exactly: leave enable_analytical at AUTO or TRUE");
  }
  return ok;
}

// Why a pair of a Simscape geometry with another shape is not built, and what to list instead.
std::string unsupportedPairReason(ShapeType a, ShapeType b) {
  using enum ShapeType;
  const auto either = [&](ShapeType type) { return a == type || b == type; };
  const auto pointLike = [](ShapeType type) { return type == Point || type == PointCloud; };
  if (pointLike(a) && pointLike(b)) {
    return "points have no extent, so two points or clouds never meet (Simscape's Spatial Contact Force has no "
           "point–point pair); give one side a solid, a mesh or a Plane";
  }
  if (a == Plane && b == Plane) return "two infinite planes are not a contact pair (nor in Simscape); keep one Plane";
  if (a == Disk && b == Disk) return "two disks are not a contact pair (nor in Simscape); make one of them a Cylinder";
  if (either(Disk) && (pointLike(a) || pointLike(b))) {
    return "a disk has no inside for a point to enter (Simscape has no disk–point pair); use a thin Cylinder";
  }
  if (either(Disk) && either(Mesh)) {
    return "a disk meets the solids and the Plane, not a TriaMesh; use a thin Cylinder, or the mesh's primitive";
  }
  if (either(HollowSphere)) {
    return "a hollow sphere (is_material_inside=\"FALSE\") holds balls, meshes and points, not a Plane or a Disk";
  }
  if (either(GridSurface)) {
    return "a grid surface meets spheres, points and point clouds (Simscape's pairs, and the ball); give the other "
           "side one of those";
  }
  return "the pair is not supported";
}

// The rules of MotionSolve's 2D curve contact (Force_Contact, "Using a 2D representation"): an element with a curve
// has only curves, all in one plane (their markers' z axes parallel, same way, origins in one plane) where the deck
// places them, and no pair of two straight lines. contact_stability_2d beside solids is said to do nothing.
bool curveRulesHold(const ForceContact& contact, const ForceContactSpec& spec,
                    const std::vector<ContactGraphic>& graphics, const Model& model, Diagnostics& diagnostics) {
  std::vector<int> all = contact.iGraphics;
  all.insert(all.end(), contact.jGraphics.begin(), contact.jGraphics.end());
  const auto isCurve = [&](int index) { return graphics[static_cast<size_t>(index)].shape.type == ShapeType::Curve; };
  const auto nameOf = [&](int index) {
    return "Post_Graphic id=" + std::to_string(graphics[static_cast<size_t>(index)].id);
  };
  const auto curve = std::find_if(all.begin(), all.end(), isCurve);
  if (curve == all.end()) {
    if (spec.contact_stability_2d) {
      diagnostics.warning(spec.loc, "contact_stability_2d applies to 2D curve contact; this element's graphics are "
                                    "solids, so it has no effect");
    }
    return true;
  }
  if (const auto solid = std::find_if_not(all.begin(), all.end(), isCurve); solid != all.end()) {
    diagnostics.error(spec.loc, nameOf(*solid) + " is a " +
                                    shapeTypeName(graphics[static_cast<size_t>(*solid)].shape.type) + " and " +
                                    nameOf(*curve) + " a curve: 2D curve contact needs every graphic of i_graphics_id "
                                    "and j_graphics_id to be a curve (MotionSolve's rule); give the solids a contact "
                                    "of their own");
    return false;
  }
  // Where the deck places each curve's plane: its shape frame in ground at the bodies' initial poses.
  const auto planeOf = [&](int index) {
    const ContactGraphic& graphic = graphics[static_cast<size_t>(index)];
    if (graphic.body < 0) return graphic.local;
    const RigidBody& body = model.bodies[static_cast<size_t>(graphic.body)];
    const Matrix3 turn = rotationFromEulerParameters(body.eulerParameters);
    return Pose{body.position + turn * graphic.local.position, turn * graphic.local.rotation};
  };
  const Pose first = planeOf(all.front());
  double size = 0;
  for (int index : all) size = std::max(size, graphics[static_cast<size_t>(index)].shape.boundingRadius());
  bool ok = true;
  for (int index : all) {
    const Pose plane = planeOf(index);
    const double tilt = std::acos(std::clamp(plane.rotation.col(2).dot(first.rotation.col(2)), -1.0, 1.0));
    const double offset = first.rotation.col(2).dot(plane.position - first.position);
    const bool tilted = tilt > 1e-6, off = std::fabs(offset) > 1e-6 * size;
    if (tilted || off) {
      const std::string how = tilted ? "its z axis turned " + formatReal(tilt * 180 / std::numbers::pi) + "° from it"
                                     : "its origin " + formatReal(offset) + " off it along z";
      diagnostics.error(spec.loc, nameOf(index) + "'s curve is not in the plane of " + nameOf(all.front()) + "'s (" +
                                      how + "): the curves of a 2D contact lie in one plane, their reference markers' "
                                      "z axes parallel and the same way (MotionSolve's rule)");
      ok = false;
    }
  }
  for (int i : contact.iGraphics) {
    for (int j : contact.jGraphics) {
      const ContactGraphic& graphicI = graphics[static_cast<size_t>(i)];
      const ContactGraphic& graphicJ = graphics[static_cast<size_t>(j)];
      if (graphicI.body != graphicJ.body && graphicI.shape.curve->straight() && graphicJ.shape.curve->straight()) {
        diagnostics.error(spec.loc, nameOf(i) + " and " + nameOf(j) + " are both straight lines, and MotionSolve's "
                                    "2D contact has no contact between two straight lines: make one of them a curve");
        ok = false;
      }
    }
  }
  return ok;
}

// A normal law that acts over the contact's overlap area (VOLUME) needs pairs that have one: a curve's contact (the
// overlap of two outlines has no width) and a point's (no extent) do not, and would push with nothing.
bool areaRulesHold(const ForceContact& contact, const std::vector<ContactGraphic>& graphics,
                   Diagnostics& diagnostics) {
  if (contact.userNormal || !contact.normalLaw || !contact.normalLaw->needsArea) return true;
  for (const std::vector<int>* side : {&contact.iGraphics, &contact.jGraphics}) {
    for (int index : *side) {
      const ContactGraphic& graphic = graphics[static_cast<size_t>(index)];
      const ShapeType type = graphic.shape.type;
      if (type != ShapeType::Curve && type != ShapeType::Point && type != ShapeType::PointCloud) continue;
      diagnostics.error(contact.loc, "cnf_type=\"" + contact.normalLaw->keyword + "\" acts over the contact's "
                                     "overlap area, and Post_Graphic id=" + std::to_string(graphic.id) + " (a " +
                                     shapeTypeName(type) + ") has none: its contacts would push with no force; use "
                                     "a law of the depth (IMPACT, POISSON, LINEAR…)");
      return false;
    }
  }
  return true;
}

// crease_angle, in radians.
double creaseAngleOf(const PostGraphicSpec& graphic) { return graphic.crease_angle * std::numbers::pi / 180; }

// A curve graphic's Reference_ParamCurve, as the smooth plane curve of its marker's xy plane. Closed (is_u_closed, or
// the first point repeated as the last), its material is inside it or, with is_material_inside="FALSE", outside (a
// bore); open, its material lies on the left of the direction its points run in, as a closed curve's material lies
// on the left of its counter-clockwise run, or on the right with is_material_inside="FALSE".
std::optional<PlacedShape> curveShapeOf(const PostGraphicSpec& graphic, const ReferenceParamCurveSpec& curve,
                                        Diagnostics& diagnostics) {
  const std::string source = "Reference_ParamCurve id=" + std::to_string(curve.id) + " (" + curve.loc.position() + ")";
  if (curve.points.empty()) return std::nullopt;  // its text could not be read: said at its line
  Eigen::Vector2d low = curve.points.front().head<2>(), high = low;
  for (const Vector3& point : curve.points) {
    low = low.cwiseMin(point.head<2>());
    high = high.cwiseMax(point.head<2>());
  }
  const double size = (high - low).norm();
  std::vector<Vector2> inPlane;
  for (size_t k = 0; k < curve.points.size(); ++k) {
    if (std::fabs(curve.points[k].z()) > 1e-9 * size) {
      diagnostics.error(graphic.loc, source + ": point " + std::to_string(k + 1) + " has z=" +
                                         formatReal(curve.points[k].z()) + "; a contact curve lies in the xy plane of "
                                         "its graphic's reference marker (MotionSolve's rule): give z=0 and place "
                                         "Reference_Marker id=" + std::to_string(graphic.markerId()) +
                                         " in the curve's plane");
      return std::nullopt;
    }
    inPlane.push_back(curve.points[k].head<2>());
  }
  const bool closed = curve.is_u_closed || curve.points.front() == curve.points.back();
  const CurveMaterial material = closed ? (graphic.is_material_inside ? CurveMaterial::Inside : CurveMaterial::Outside)
                                        : (graphic.is_material_inside ? CurveMaterial::Left : CurveMaterial::Right);
  PlacedShape placed;
  try {
    placed.shape = Shape::planeCurve(std::make_shared<SplineCurve2d>(inPlane, closed, material));
  } catch (const std::invalid_argument& error) {
    diagnostics.error(graphic.loc, source + ": " + error.what());
    return std::nullopt;
  }
  return placed;
}

std::optional<PlacedShape> shapeOf(const PostGraphicSpec& graphic,
                                   const std::map<long, const ReferenceParamCurveSpec*>& curves,
                                   Diagnostics& diagnostics) {
  PlacedShape placed;
  const std::string& type = graphic.type;
  if (isCurveGraphicType(type)) {
    const auto curve = graphic.curve_id ? curves.find(*graphic.curve_id) : curves.end();
    if (curve == curves.end()) return std::nullopt;  // a dangling reference, reported by the reader
    return curveShapeOf(graphic, *curve->second, diagnostics);
  }
  if (type == "GridSurface") {
    if (graphic.grid_heights.empty()) return std::nullopt;  // its text could not be read: said at its line
    try {
      placed.shape = Shape::gridSurface(
          std::make_shared<GridSurface>(graphic.grid_x, graphic.grid_y, graphic.grid_heights));
    } catch (const std::invalid_argument& error) {
      diagnostics.error(graphic.loc, std::string("GridSurface: ") + error.what());
      return std::nullopt;
    }
    return placed;  // in the reference marker's frame
  }
  if (std::optional<PlacedShape> primitive = primitiveShapeOf(graphic)) {
    placed = std::move(*primitive);
  } else if (std::optional<PlacedShape> simscape = simscapeShapeOf(graphic)) {
    if (!graphic.is_material_inside) {
      diagnostics.error(graphic.loc, "is_material_inside=\"FALSE\" (contact from inside a hollow shape) is available "
                                     "for a Sphere only; a " + type + " has no inside to turn out");
      return std::nullopt;
    }
    if (type == "PointCloud" && graphic.cloud_points.empty()) return std::nullopt;  // its text's error said why
    return simscape;
  } else if (type == "TriaMesh") {
    // A mesh that could never be contact geometry (open, badly wound, facing inwards) is said so already, at
    // `lodestone check` time and on the graphic's line, with the first offending triangle or edge.
    const std::vector<MeshProblem> problems = checkContactMesh(graphic.mesh);
    for (const MeshProblem& problem : problems) {
      diagnostics.error(graphic.loc, "TriaMesh as contact geometry: " + problem.message);
    }
    if (!problems.empty()) return std::nullopt;
    // The nodes are in the reference marker's frame, which is the shape frame.
    placed.shape = Shape::mesh(std::make_shared<MeshGeometry>(graphic.mesh, creaseAngleOf(graphic)));
  } else {
    diagnostics.error(graphic.loc, "type " + type + " is drawn only by viewers and cannot be contact geometry");
    return std::nullopt;
  }
  if (!graphic.is_material_inside) {
    // The material outside the surface: a container touched from inside. A sphere's is exact; other shapes' cavities
    // are not built.
    if (placed.shape.type != ShapeType::Sphere) {
      diagnostics.error(graphic.loc, "is_material_inside=\"FALSE\" (contact from inside a hollow shape) is available "
                                     "for a Sphere only; model other containers with boxes");
      return std::nullopt;
    }
    placed.shape = Shape::hollowSphere(placed.shape.radius);
  }
  return placed;
}

// The parameters a pair's laws set themselves instead of taking them from the deck or the pieces: DIPOLE's emod sets
// kn, and with kratio LINEAR_SHEAR's ks.
std::vector<std::string> setByLaws(const ForceContact& contact) {
  std::vector<std::string> names;
  const NormalLaw* normal = contact.userNormal ? nullptr : contact.normalLaw;
  if (normal && normal->variesByPair && normal->variesByPair(contact.normalValues)) names.push_back("kn");
  if (normal && normal->setsShearStiffness && normal->setsShearStiffness(contact.normalValues)) names.push_back("ks");
  return names;
}

// PFC's properties of a contact, between its two laws and its pieces: the shear stiffness is the friction law's ks or
// the normal law's deformability sets it (DIPOLE's emod with kratio: ks = kn/kratio), not both; a stiffness that
// follows from the pieces (emod) is defined for pairs with a ball (a sphere) on at least one side; and every parameter
// the deck leaves out to be inherited, every pair the element can form must be able to take from its two pieces'
// Contact_Surface (the first pair that cannot is named).
bool pfcPropertiesAgree(ForceContact& contact, const ContactModel& model, Diagnostics& diagnostics) {
  const NormalLaw* normal = contact.userNormal ? nullptr : contact.normalLaw;
  const FrictionLaw* friction = contact.userFriction ? nullptr : contact.frictionLaw;
  const std::vector<std::string> setByLaw = setByLaws(contact);
  const bool setsKn = std::find(setByLaw.begin(), setByLaw.end(), "kn") != setByLaw.end();
  const bool setsKs = std::find(setByLaw.begin(), setByLaw.end(), "ks") != setByLaw.end();
  const int shearSlot = friction ? slotOf(friction->parameters, "ks") : -1;
  if (shearSlot >= 0 && setsKs && contact.frictionValues[static_cast<size_t>(shearSlot)] > 0) {
    diagnostics.error(contact.loc, "cff_type=\"" + friction->keyword + "\": ks (" +
                                       formatReal(contact.frictionValues[static_cast<size_t>(shearSlot)]) +
                                       ") is given, and cnf_type=\"" + normal->keyword + "\"'s emod and kratio set it "
                                       "too (ks = kn/kratio); give one of them");
    return false;
  }
  const auto leftOut = [](const std::vector<double>& values) {
    return std::any_of(values.begin(), values.end(), [](double value) { return std::isnan(value); });
  };
  const bool inherits = (normal && leftOut(contact.normalValues)) || (friction && leftOut(contact.frictionValues));
  contact.valuesByPair = inherits || setsKn || setsKs;
  if (!inherits && !setsKn) return true;
  std::vector<double> normalValues, frictionValues;
  for (int i : contact.iGraphics) {
    for (int j : contact.jGraphics) {
      const ContactGraphic& graphicI = model.graphics[static_cast<size_t>(i)];
      const ContactGraphic& graphicJ = model.graphics[static_cast<size_t>(j)];
      if (graphicI.body == graphicJ.body) continue;
      const std::string pair = "Post_Graphic id=" + std::to_string(graphicI.id) + " and id=" +
                               std::to_string(graphicJ.id);
      if (setsKn && graphicI.shape.type != ShapeType::Sphere && graphicJ.shape.type != ShapeType::Sphere) {
        diagnostics.error(contact.loc, "cnf_type=\"" + normal->keyword + "\": emod gives kn for ball-ball and "
                                       "ball-facet contacts (PFC's deformability method), and " + pair +
                                       " are neither spheres; give kn instead, or make one of them a Sphere");
        return false;
      }
      std::string missing;
      if (normal) {
        normalValues = contact.normalValues;
        missing = inheritValues(normal->parameters, normalValues, graphicI.surface, graphicJ.surface, setByLaw);
      }
      if (missing.empty() && friction) {
        frictionValues = contact.frictionValues;
        missing = inheritValues(friction->parameters, frictionValues, graphicI.surface, graphicJ.surface, setByLaw);
      }
      if (!missing.empty()) {
        diagnostics.error(contact.loc, missing + " is not given, and " + pair + " do not both hold it (PFC's "
                                       "inheritance takes it from both pieces' Contact_Surface); give " + missing +
                                       ", or a Contact_Surface with " + missing + " for each piece");
        return false;
      }
    }
  }
  return true;
}

}  // namespace

std::shared_ptr<const ContactModel> buildContactModel(const std::vector<ForceContactSpec>& contacts,
                                                      const std::vector<PostGraphicSpec>& graphics,
                                                      const std::vector<ReferenceParamCurveSpec>& curves,
                                                      const std::vector<ContactSurfaceSpec>& surfaces,
                                                      const Model& model, Diagnostics& diagnostics) {
  auto result = std::make_shared<ContactModel>();
  // Libraries named by a relative path are looked for beside the deck first.
  const std::string deckFolder =
      contacts.empty() ? std::string() : std::filesystem::path(contacts.front().loc.file).parent_path().string();
  UserLibraries libraries(deckFolder);
  PythonScripts scripts(deckFolder);
  std::map<long, const PostGraphicSpec*> graphicSpecs;
  for (const PostGraphicSpec& graphic : graphics) graphicSpecs[graphic.id] = &graphic;
  std::map<long, const ReferenceParamCurveSpec*> curveSpecs;
  for (const ReferenceParamCurveSpec& curve : curves) curveSpecs[curve.id] = &curve;
  std::map<long, int> graphicIndex;  // Post_Graphic id -> index in result->graphics, once built
  std::set<long> failedGraphics;
  // PFC's surface properties by graphic and by body (index into model.bodies, -1 ground); one surface each.
  std::map<long, const ContactSurfaceSpec*> surfaceOfGraphic;
  std::map<int, const ContactSurfaceSpec*> surfaceOfBody;
  for (const ContactSurfaceSpec& surface : surfaces) {
    const auto place = [&](auto& byPiece, auto key, const std::string& piece) {
      const auto [at, added] = byPiece.emplace(key, &surface);
      if (!added) {
        diagnostics.error(surface.loc, piece + " has a surface already (Contact_Surface id=" +
                                           std::to_string(at->second->id) + ", " + at->second->loc.position() +
                                           "); give its properties in one Contact_Surface");
      }
    };
    if (surface.graphic_id) place(surfaceOfGraphic, *surface.graphic_id, "Post_Graphic id=" +
                                                                              std::to_string(*surface.graphic_id));
    if (surface.body_id) {
      int body = -1;  // a Body_Rigid that is not among the moving bodies is ground
      for (size_t b = 0; b < model.bodies.size(); ++b) {
        if (model.bodies[b].id == *surface.body_id) body = static_cast<int>(b);
      }
      const std::string element = body < 0 ? "Body_Rigid" : model.bodies[static_cast<size_t>(body)].element();
      place(surfaceOfBody, body, element + " id=" + std::to_string(*surface.body_id));
    }
  }

  const auto graphicFor = [&](long id, const ForceContactSpec& contact) -> std::optional<int> {
    if (const auto built = graphicIndex.find(id); built != graphicIndex.end()) return built->second;
    if (failedGraphics.count(id)) return std::nullopt;
    const auto found = graphicSpecs.find(id);
    if (found == graphicSpecs.end()) return std::nullopt;  // a dangling reference, reported by the reader
    const PostGraphicSpec& spec = *found->second;
    const Marker* marker = model.marker(spec.markerId());
    std::optional<PlacedShape> placed = shapeOf(spec, curveSpecs, diagnostics);
    if (!placed || !marker) {
      if (placed && !marker) {
        diagnostics.error(contact.loc, "Post_Graphic id=" + std::to_string(id) + " (" + spec.loc.position() +
                                           ") hangs on Reference_Marker id=" + std::to_string(spec.markerId()) +
                                           ", which could not be built");
      }
      failedGraphics.insert(id);
      return std::nullopt;
    }
    ContactGraphic graphic;
    graphic.id = id;
    graphic.loc = spec.loc;
    graphic.body = marker->body;
    graphic.shape = std::move(placed->shape);
    graphic.local.position = marker->position + marker->orientation * placed->inMarker.position;
    graphic.local.rotation = marker->orientation * placed->inMarker.rotation;
    graphic.marker = Pose{marker->position, marker->orientation};
    if (const auto own = surfaceOfGraphic.find(id); own != surfaceOfGraphic.end()) {
      graphic.surface = surfacePropertiesOf(*own->second);
    } else if (const auto body = surfaceOfBody.find(graphic.body); body != surfaceOfBody.end()) {
      graphic.surface = surfacePropertiesOf(*body->second);
    }
    const int index = static_cast<int>(result->graphics.size());
    result->graphics.push_back(std::move(graphic));
    graphicIndex[id] = index;
    return index;
  };

  for (const ForceContactSpec& spec : contacts) {
    if (!spec.active) continue;
    ForceContact contact;
    contact.id = spec.id;
    contact.loc = spec.loc;
    bool ok = true;
    for (long id : spec.i_graphics_id) {
      if (const std::optional<int> index = graphicFor(id, spec)) contact.iGraphics.push_back(*index);
      else ok = false;
    }
    for (long id : spec.j_graphics_id) {
      if (const std::optional<int> index = graphicFor(id, spec)) contact.jGraphics.push_back(*index);
      else ok = false;
    }
    if (ok) {
      // A pair on one body (or both on ground) never touches: at least one pair must join two bodies.
      bool anyPair = false;
      for (int i : contact.iGraphics) {
        for (int j : contact.jGraphics) {
          const int bodyI = result->graphics[static_cast<size_t>(i)].body;
          const int bodyJ = result->graphics[static_cast<size_t>(j)].body;
          anyPair = anyPair || bodyI != bodyJ;
        }
      }
      // Simscape's geometries meet only the shapes Spatial Contact Force pairs them with (narrow_phase.h).
      for (int i : contact.iGraphics) {
        for (int j : contact.jGraphics) {
          const ContactGraphic& graphicI = result->graphics[static_cast<size_t>(i)];
          const ContactGraphic& graphicJ = result->graphics[static_cast<size_t>(j)];
          // (A curve beside anything but curves is refused by the 2D contact's own rules.)
          const bool curve = graphicI.shape.type == ShapeType::Curve || graphicJ.shape.type == ShapeType::Curve;
          if (graphicI.body == graphicJ.body || curve ||
              simscapePairSupported(graphicI.shape.type, graphicJ.shape.type)) {
            continue;
          }
          diagnostics.error(spec.loc, "Post_Graphic id=" + std::to_string(graphicI.id) + " (" +
                                          shapeTypeName(graphicI.shape.type) + ", " + graphicI.loc.position() +
                                          ") and id=" + std::to_string(graphicJ.id) + " (" +
                                          shapeTypeName(graphicJ.shape.type) + ", " + graphicJ.loc.position() +
                                          ") cannot touch: " + unsupportedPairReason(graphicI.shape.type,
                                                                                     graphicJ.shape.type));
          ok = false;
        }
      }
      if (!anyPair && !contact.iGraphics.empty() && !contact.jGraphics.empty()) {
        const int body = result->graphics[static_cast<size_t>(contact.iGraphics[0])].body;
        diagnostics.error(spec.loc, "every I graphic is on the same body as every J graphic (" + model.bodyName(body) +
                                        "), so nothing can touch; list the graphics of the other body in j_graphics_id");
        ok = false;
      }
    }

    // Each parameter's range again and the law's own rules (a command may have changed values without naming the
    // law). Their warnings were said when the deck was read.
    const auto checkLaw = [&](const std::string& lawAttribute, const std::string& keyword,
                              const std::vector<LawParameter>& parameters, const std::vector<double>& values,
                              const LawCheck& rules) {
      LawFindings findings;
      int slot = 0;
      for (const LawParameter& parameter : parameters) {
        const double value = values[static_cast<size_t>(slot)];
        const bool inheritedLater = parameter.inheritance != Inheritance::None && std::isnan(value);
        if (parameter.size == 1 && !inheritedLater && !parameter.range.contains(value)) {
          findings.errors.push_back(parameter.name + " must be " + parameter.range.describe() + " (got " +
                                    formatReal(values[static_cast<size_t>(slot)]) + ")");
        }
        slot += parameter.size;
      }
      if (rules) rules(values, findings);
      reportLawFindings(spec.loc, lawAttribute, keyword, findings, false, diagnostics);
      return findings.errors.empty();
    };
    // A built-in law: its values from the attributes, checked. A missing or malformed parameter was reported by
    // the reader.
    const auto builtIn = [&](const char* lawAttribute, const auto* law, std::vector<double>& values) {
      const std::optional<std::vector<double>> given = valuesFor(law->parameters, spec.lawValues);
      if (!given || !checkLaw(lawAttribute, law->keyword, law->parameters, *given, law->check)) return false;
      values = *given;
      return true;
    };
    // A Python script: run once for all the element's functions (and once per run), its failure said once.
    std::shared_ptr<const PythonScript> script;
    bool scriptFailed = false;
    const auto loadScript = [&]() -> std::shared_ptr<const PythonScript> {
      if (script || scriptFailed) return script;
      try {
        script = scripts.load(*spec.script_name);
      } catch (const std::exception& error) {
        // Name the functions the element wanted from it.
        std::vector<std::string> wanted;
        const auto want = [&](bool used, const SubroutineAttributes& sub) {
          if (used) wanted.push_back(spec.*sub.function ? *(spec.*sub.function) : std::string(sub.defaultFunction));
        };
        want(usesNormalSubroutine(spec), kNormalSubroutine);
        want(usesFrictionSubroutine(spec), kFrictionSubroutine);
        want(usesPostSubroutine(spec), kPostSubroutine);
        std::string functions;
        for (size_t k = 0; k < wanted.size(); ++k) {
          functions += (k == 0 ? "" : k + 1 == wanted.size() ? " and " : ", ") + wanted[k];
        }
        diagnostics.error(spec.loc, "script_name=\"" + *spec.script_name + "\" (for " + functions + "): " + error.what());
        scriptFailed = true;
      }
      return script;
    };
    // A user subroutine: its library loaded (once per run) and its function looked up, or its script's function;
    // its USER(...) numbers.
    const auto subroutine = [&](const SubroutineAttributes& sub, std::optional<UserSubroutine>& loaded) {
      const std::string prefix = sub.prefix;
      const std::optional<std::string>& library = spec.*sub.library;
      if (spec.script_name ? !usesPython(spec) : !namesLibrary(library)) return false;  // reported by checkForceContact
      UserSubroutine routine;
      routine.function = spec.*sub.function ? *(spec.*sub.function) : std::string(sub.defaultFunction);
      if (const std::optional<std::string>& text = spec.*sub.parameters) {
        const UserParameters parsed = parseUserParameters(*text);
        if (!parsed.error.empty()) return false;  // reported by checkForceContact
        routine.parameters = parsed.values;
      }
      if (spec.script_name) {
        if (!loadScript()) return false;
        try {
          routine.python = scriptFunction(script, routine.function);
        } catch (const std::exception& error) {
          diagnostics.error(spec.loc, prefix + "_fnc_name=\"" + routine.function + "\": " + error.what());
          return false;
        }
        routine.file = script->path();
        loaded = std::move(routine);
        return true;
      }
      try {
        routine.keepLoaded = libraries.load(*library);
      } catch (const UserFileNotFound& error) {
        // Said by the reader, once for the library: `check` builds a stand-in, never called, as loadSubroutine does.
        if (userCodeIsOnlyInspected()) {
          routine.file = *library;
          loaded = std::move(routine);
          return true;
        }
        diagnostics.error(spec.loc, prefix + "_dll_name=\"" + *library + "\": " + error.what());
        return false;
      } catch (const std::exception& error) {
        diagnostics.error(spec.loc, prefix + "_dll_name=\"" + *library + "\": " + error.what());
        return false;
      }
      routine.file = routine.keepLoaded->path();
      std::string error;
      routine.address = routine.keepLoaded->symbol(routine.function, error);
      if (!routine.address) {
        diagnostics.error(spec.loc, prefix + "_fnc_name=\"" + routine.function + "\": no function " + routine.function +
                                        " in " + routine.file + " (" + error +
                                        "); is it exported with C linkage (extern \"C\", or the prototypes of "
                                        "lodestone/usersub.h)?");
        return false;
      }
      loaded = std::move(routine);
      return true;
    };

    contact.normalLaw = findNormalLaw(spec.cnf_type);
    contact.frictionLaw = findFrictionLaw(spec.cff_type);
    const bool normalOk = contact.normalLaw ? builtIn("cnf_type", contact.normalLaw, contact.normalValues)
                                            : subroutine(kNormalSubroutine, contact.userNormal);
    const bool frictionOk = contact.frictionLaw ? builtIn("cff_type", contact.frictionLaw, contact.frictionValues)
                                                : subroutine(kFrictionSubroutine, contact.userFriction);
    const bool postOk = !usesPostSubroutine(spec) || subroutine(kPostSubroutine, contact.contactPost);
    // A law given by expressions: each compiled with the contact-point symbols its kind of law reads. A missing one
    // was reported by the reader (they are required).
    const auto compileExpressions = [&](const auto* law, ContactPointSymbols symbols, std::vector<Expression>& into) {
      bool fine = true;
      for (const LawExpression& expression : law ? law->expressions : std::vector<LawExpression>{}) {
        const auto found = spec.lawExpressions.find(expression.name);
        std::optional<Expression> compiled =
            found == spec.lawExpressions.end()
                ? std::nullopt
                : compileContactLawExpression(expression.name, found->second, symbols, spec.loc, model, diagnostics);
        if (compiled) into.push_back(std::move(*compiled));
        else fine = false;
      }
      return fine;
    };
    const ContactPointSymbols atPoint =
        contactPointSymbol(ContactPointSymbol::Penetration) | contactPointSymbol(ContactPointSymbol::PenetrationRate);
    const ContactPointSymbols withSlip = atPoint | contactPointSymbol(ContactPointSymbol::SlipT1) |
                                         contactPointSymbol(ContactPointSymbol::SlipT2) |
                                         contactPointSymbol(ContactPointSymbol::NormalForce);
    // Both compiled, so that both laws' mistakes are said.
    const bool normalCompiled = compileExpressions(contact.normalLaw, atPoint, contact.normalExpressions);
    const bool frictionCompiled = compileExpressions(contact.frictionLaw, withSlip, contact.frictionExpressions);
    const bool expressionsOk = normalCompiled && frictionCompiled;
    if (!normalOk || !frictionOk || !postOk || !expressionsOk || !ok) continue;
    if (!pfcPropertiesAgree(contact, *result, diagnostics)) continue;
    contact.options = contactOptions(spec);
    if (!cavityRulesHold(contact, result->graphics, diagnostics)) continue;
    if (!curveRulesHold(contact, spec, result->graphics, model, diagnostics)) continue;
    if (!areaRulesHold(contact, result->graphics, diagnostics)) continue;
    // Primitives this element meets as meshes get their tessellation, at their graphic's refinement_level.
    for (const std::vector<int>* side : {&contact.iGraphics, &contact.jGraphics}) {
      for (int index : *side) {
        ContactGraphic& graphic = result->graphics[static_cast<size_t>(index)];
        if (graphic.shape.surface || !needsTessellation(contact, result->graphics, graphic.shape)) continue;
        const PostGraphicSpec& graphicSpec = *graphicSpecs.at(graphic.id);
        if (graphicSpec.refinement_level > kMaxRefinementLevel) {
          diagnostics.error(graphicSpec.loc, "refinement_level=" + std::to_string(graphicSpec.refinement_level) +
                                                 " is beyond the finest tessellation, " +
                                                 std::to_string(kMaxRefinementLevel) + " (" +
                                                 describeContact(contact) + " meets it as a mesh); use 0 to " +
                                                 std::to_string(kMaxRefinementLevel));
          ok = false;
          continue;
        }
        graphic.shape.surface = std::make_shared<MeshGeometry>(
            tessellate(graphic.shape, graphicSpec.refinement_level), creaseAngleOf(graphicSpec));
      }
    }
    if (!ok) continue;
    contact.zeroCrossing = spec.zero_crossing;
    if (contact.normalLaw && contact.normalLaw->fieldRange) {
      contact.options.fieldRange = contact.normalLaw->fieldRange(contact.normalValues);
    }
    result->elements.push_back(std::move(contact));
  }
  return result;
}

bool checkContactLawReadings(const ContactModel& contacts, const Model& model, Diagnostics& diagnostics) {
  bool fine = true;
  for (const ForceContact& contact : contacts.elements) {
    const auto check = [&](const auto* law, const std::vector<Expression>& expressions) {
      for (size_t k = 0; law && k < expressions.size(); ++k) {
        const Expression& expression = expressions[k];
        const std::string& attribute = law->expressions[k].name;
        if (!checkExpressionReferences(expression, attribute, contact.loc, model, diagnostics)) {
          fine = false;
        } else if (!refuseLoadReads(expression, attribute, contact.loc, model.variables.get(), diagnostics)) {
          fine = false;
        } else if (readsContacts(expression, model.variables.get())) {
          diagnostics.error(contact.loc, attribute + "=\"" + excerpt(expression.text()) +
                                             "\" reads a contact's loads through a Reference_Variable (CONTACT); a "
                                             "contact law would read the loads it gives");
          fine = false;
        } else if (readsAcceleration(expression, model.variables.get())) {
          diagnostics.error(contact.loc, attribute + "=\"" + excerpt(expression.text()) +
                                             "\" reads accelerations (ACCX, ACCY, ACCZ or ACCM, itself or through "
                                             "a Reference_Variable); a force that depends on the accelerations it "
                                             "causes is not available");
          fine = false;
        }
      }
    };
    check(contact.normalLaw, contact.normalExpressions);
    check(contact.frictionLaw, contact.frictionExpressions);
  }
  return fine;
}

std::string describeContact(const ForceContact& contact) {
  return contact.loc.subject() + " (" + contact.loc.position() + ")";
}

std::string describeLaws(const ForceContact& contact) {
  const std::string normal = contact.normalLaw ? contact.normalLaw->keyword
                                               : "USERCNF:" + (contact.userNormal ? contact.userNormal->function : "");
  const std::string friction = contact.frictionLaw
                                   ? contact.frictionLaw->keyword
                                   : "USERCFF:" + (contact.userFriction ? contact.userFriction->function : "");
  return normal + "+" + friction;
}

}  // namespace lodestone
