// Force_Contact: attributes (the law parameters come from the law descriptors, so a law's attribute table lives
// beside its formula), element checks, and the contact model: shapes placed on bodies, laws looked up.
#include "force_contact.h"

#include <cmath>
#include <set>

#include "elements/post_graphic.h"
#include "solver/core/text.h"

namespace lodestone {

using S = ForceContactSpec;

namespace {

const std::string kUserSubroutineNote = "user subroutines (CNFSUB, CFFSUB, CONTACTPOST) are not available yet";
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
  if (!parameter.required) {
    attribute.defaultValue = parameter.size == 1 ? Value(parameter.defaultValue)
                                                 : Value(std::vector<double>(static_cast<size_t>(parameter.size),
                                                                             parameter.defaultValue));
  }
  return attribute;
}

template <class Law>
VariantSet<S> lawVariants(const std::string& attribute, const std::vector<const Law*>& laws) {
  VariantSet<S> set{attribute, {}};
  for (const Law* law : laws) {
    std::vector<Attribute<S>> rows;
    for (const LawParameter& parameter : law->parameters) rows.push_back(lawAttribute(parameter));
    set.variants.emplace_back(law->keyword, std::move(rows));
  }
  return set;
}

template <class Law>
std::vector<std::string> keywordsOf(const std::vector<const Law*>& laws, const std::string& userKeyword) {
  std::vector<std::string> keywords;
  for (const Law* law : laws) keywords.push_back(law->keyword);
  keywords.push_back(userKeyword);
  return keywords;
}

// The values of a law's parameters in its table order, or nothing when one is missing (already reported).
std::optional<std::vector<double>> valuesFor(const std::vector<LawParameter>& parameters,
                                             const std::map<std::string, std::vector<double>>& given) {
  std::vector<double> values;
  for (const LawParameter& parameter : parameters) {
    const auto found = given.find(parameter.name);
    if (found == given.end() || static_cast<int>(found->second.size()) != parameter.size) return std::nullopt;
    values.insert(values.end(), found->second.begin(), found->second.end());
  }
  return values;
}

}  // namespace

const ElementSchema<ForceContactSpec>& forceContactSchema() {
  static const ElementSchema<S> schema{
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
          attr::ignored<S>("contact_stability_2d", "Lodestone's contact is three-dimensional and needs no 2-D aid"),
          attr::keyword("cnf_type", &S::cnf_type, keywordsOf(normalLaws(), "USERCNF")).required(),
          attr::keyword("cff_type", &S::cff_type, keywordsOf(frictionLaws(), "USERCFF"))
              .byDefault(std::string("COULOMB_OFF")),
          attr::unsupported<S>("cnf_param_string", kUserSubroutineNote),
          attr::unsupported<S>("cnf_fnc_name", kUserSubroutineNote),
          attr::unsupported<S>("cnf_dll_name", kUserSubroutineNote),
          attr::unsupported<S>("cff_param_string", kUserSubroutineNote),
          attr::unsupported<S>("cff_fnc_name", kUserSubroutineNote),
          attr::unsupported<S>("cff_dll_name", kUserSubroutineNote),
          attr::unsupported<S>("cpost_param_string", kUserSubroutineNote),
          attr::unsupported<S>("cpost_fnc_name", kUserSubroutineNote),
          attr::unsupported<S>("cpost_dll_name", kUserSubroutineNote),
          attr::unsupported<S>("script_name", kUserSubroutineNote),
          attr::unsupported<S>("interpreter", kUserSubroutineNote),
          attr::unsupported<S>("i_flexbody_id", kFlexibleNote),
          attr::unsupported<S>("j_flexbody_id", kFlexibleNote),
          attr::unsupported<S>("i_flip_flex", kFlexibleNote),
          attr::unsupported<S>("j_flip_flex", kFlexibleNote),
      },
      .variantSets = {lawVariants("cnf_type", normalLaws()), lawVariants("cff_type", frictionLaws())}};
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
  if (equalsIgnoreCase(spec.cnf_type, "USERCNF")) {
    diagnostics.error(spec.loc, "cnf_type=\"USERCNF\": " + kUserSubroutineNote + "; use a built-in law");
  }
  if (equalsIgnoreCase(spec.cff_type, "USERCFF")) {
    diagnostics.error(spec.loc, "cff_type=\"USERCFF\": " + kUserSubroutineNote + "; use a built-in law");
  }
  if (spec.enable_analytical == "FALSE") {
    diagnostics.error(spec.loc, "enable_analytical=\"FALSE\" asks for contact between tessellated surfaces, which is "
                                "not available yet; use AUTO or TRUE");
  }
  // Vector parameters (dipole moments) need exactly three numbers.
  const auto checkVectors = [&](const std::vector<LawParameter>& parameters) {
    for (const LawParameter& parameter : parameters) {
      const auto found = spec.lawValues.find(parameter.name);
      if (found == spec.lawValues.end() || static_cast<int>(found->second.size()) == parameter.size) continue;
      diagnostics.error(spec.loc, "attribute '" + parameter.name + "' needs " + std::to_string(parameter.size) +
                                      " numbers (x y z), got " + std::to_string(found->second.size()));
    }
  };
  if (const NormalLaw* law = findNormalLaw(spec.cnf_type)) checkVectors(law->parameters);
  if (const FrictionLaw* law = findFrictionLaw(spec.cff_type)) checkVectors(law->parameters);
}

// ---- building ------------------------------------------------------------------------------------------------

namespace {

// The shape of a graphic and where its shape frame sits in the graphic's marker frame.
struct PlacedShape {
  Shape shape;
  Pose inMarker;
};

std::optional<PlacedShape> shapeOf(const PostGraphicSpec& graphic, Diagnostics& diagnostics) {
  PlacedShape placed;
  const std::string& type = graphic.type;
  if (type == "Sphere") {
    placed.shape = Shape::sphere(*graphic.radius);
  } else if (type == "BoxDefinedFromCenter" || type == "BoxDefinedFromCorner") {
    const Vector3 half = 0.5 * Vector3(*graphic.length_x, *graphic.length_y, *graphic.length_z);
    placed.shape = Shape::box(half);
    // A corner box grows along the corner marker's positive axes.
    if (type == "BoxDefinedFromCorner") placed.inMarker.position = half;
  } else if (type == "Cylinder") {
    // The axis starts at the marker and runs `length` along its z (backwards when negative).
    placed.shape = Shape::cylinder(*graphic.radius, 0.5 * std::fabs(*graphic.length));
    placed.inMarker.position = Vector3(0, 0, 0.5 * *graphic.length);
  } else if (type == "Frustum") {
    placed.shape = Shape::frustum(*graphic.bottom_radius, *graphic.top_radius, std::fabs(*graphic.length));
    // The shape runs along +z; a negative length turns it half a revolution about x.
    if (*graphic.length < 0) placed.inMarker.rotation = Vector3(1, -1, -1).asDiagonal();
  } else if (type == "Ellipsoid") {
    placed.shape = Shape::ellipsoid(Vector3(*graphic.x_scale, *graphic.y_scale, *graphic.z_scale));
  } else if (type == "TriaMesh") {
    diagnostics.error(graphic.loc, "contact with TriaMesh graphics is not available yet; use analytical shapes "
                                   "(Sphere, Box, Cylinder, Frustum, Ellipsoid)");
    return std::nullopt;
  } else {
    diagnostics.error(graphic.loc, "type " + type + " is drawn only by viewers and cannot be contact geometry");
    return std::nullopt;
  }
  if (!graphic.is_material_inside) {
    diagnostics.error(graphic.loc, "is_material_inside=\"FALSE\" (contact from inside a hollow shape) is not available "
                                   "yet; model the container with boxes");
    return std::nullopt;
  }
  return placed;
}

}  // namespace

std::shared_ptr<const ContactModel> buildContactModel(const std::vector<ForceContactSpec>& contacts,
                                                      const std::vector<PostGraphicSpec>& graphics,
                                                      const Model& model, Diagnostics& diagnostics) {
  auto result = std::make_shared<ContactModel>();
  std::map<long, const PostGraphicSpec*> graphicSpecs;
  for (const PostGraphicSpec& graphic : graphics) graphicSpecs[graphic.id] = &graphic;
  std::map<long, int> graphicIndex;  // Post_Graphic id -> index in result->graphics, once built
  std::set<long> failedGraphics;

  const auto graphicFor = [&](long id, const ForceContactSpec& contact) -> std::optional<int> {
    if (const auto built = graphicIndex.find(id); built != graphicIndex.end()) return built->second;
    if (failedGraphics.count(id)) return std::nullopt;
    const auto found = graphicSpecs.find(id);
    if (found == graphicSpecs.end()) return std::nullopt;  // a dangling reference, reported by the reader
    const PostGraphicSpec& spec = *found->second;
    const Marker* marker = model.marker(spec.markerId());
    std::optional<PlacedShape> placed = shapeOf(spec, diagnostics);
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
    const int index = static_cast<int>(result->graphics.size());
    result->graphics.push_back(std::move(graphic));
    graphicIndex[id] = index;
    return index;
  };

  const auto bodyName = [&](int body) {
    return body < 0 ? std::string("ground") : model.bodies[static_cast<size_t>(body)].loc.subject();
  };

  for (const ForceContactSpec& spec : contacts) {
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
      if (!anyPair && !contact.iGraphics.empty() && !contact.jGraphics.empty()) {
        diagnostics.error(spec.loc, "every I graphic is on the same body as every J graphic (" +
                                        bodyName(result->graphics[static_cast<size_t>(contact.iGraphics[0])].body) +
                                        "), so nothing can touch; list the graphics of the other body in j_graphics_id");
        ok = false;
      }
    }

    contact.normalLaw = findNormalLaw(spec.cnf_type);
    contact.frictionLaw = findFrictionLaw(spec.cff_type);
    if (!contact.normalLaw || !contact.frictionLaw) continue;  // USERCNF/USERCFF, reported by checkForceContact
    const std::optional<std::vector<double>> normalValues = valuesFor(contact.normalLaw->parameters, spec.lawValues);
    const std::optional<std::vector<double>> frictionValues = valuesFor(contact.frictionLaw->parameters, spec.lawValues);
    if (!normalValues || !frictionValues) continue;  // a missing or malformed parameter, reported by the reader
    // Each parameter's range again (a command may have changed it without naming the law), then the law's own
    // rules between its parameters.
    const auto checkLaw = [&](const std::string& lawAttribute, const std::string& keyword,
                              const std::vector<LawParameter>& parameters, const std::vector<double>& values,
                              void (*rules)(LawValues, std::vector<std::string>&)) {
      std::vector<std::string> problems;
      int slot = 0;
      for (const LawParameter& parameter : parameters) {
        if (parameter.size == 1 && !parameter.range.contains(values[static_cast<size_t>(slot)])) {
          problems.push_back(parameter.name + " must be " + parameter.range.describe() + " (got " +
                             formatReal(values[static_cast<size_t>(slot)]) + ")");
        }
        slot += parameter.size;
      }
      if (problems.empty() && rules) rules(values, problems);
      for (const std::string& problem : problems) {
        diagnostics.error(spec.loc, lawAttribute + "=\"" + keyword + "\": " + problem);
      }
      return problems.empty();
    };
    const bool normalOk = checkLaw("cnf_type", contact.normalLaw->keyword, contact.normalLaw->parameters,
                                   *normalValues, contact.normalLaw->check);
    const bool frictionOk = checkLaw("cff_type", contact.frictionLaw->keyword, contact.frictionLaw->parameters,
                                     *frictionValues, contact.frictionLaw->check);
    if (!normalOk || !frictionOk || !ok) continue;
    contact.normalValues = *normalValues;
    contact.frictionValues = *frictionValues;
    if (spec.ignore_penetration_larger_than) contact.ignorePenetrationLargerThan = *spec.ignore_penetration_larger_than;
    contact.zeroCrossing = spec.zero_crossing;
    if (contact.normalLaw->fieldRange) contact.fieldRange = contact.normalLaw->fieldRange(contact.normalValues);
    result->elements.push_back(std::move(contact));
  }
  return result;
}

std::string describeContact(const ForceContact& contact) {
  return contact.loc.subject() + " (" + contact.loc.position() + ")";
}

}  // namespace lodestone
