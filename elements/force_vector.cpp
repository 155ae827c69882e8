// Force_Vector_TwoBody and Force_Vector_OneBody: attributes, checks and the force and torque they apply.
#include "force_vector.h"

#include "elements/expression_context.h"
#include "elements/subroutine_state.h"

namespace lodestone {

using S = ForceVectorSpec;

namespace {

constexpr std::array<const char*, 6> kComponentAttributes{"fx_expression", "fy_expression", "fz_expression",
                                                          "tx_expression", "ty_expression", "tz_expression"};

template <size_t K>
Attribute<S> component() {
  return attr::make<S>(kComponentAttributes[K], ValueKind::Text,
                       [](S& spec, const Value& value) { spec.components[K] = std::get<std::string>(value); })
      .modifiable();
}

// The rows both elements share, after their markers.
void addCommonRows(std::vector<Attribute<S>>& rows) {
  std::vector<Attribute<S>> common = {
      attr::text("label", &S::label),
      attr::keyword("type", &S::type, {"FORCEONLY", "TORQUEONLY", "FORCEANDTORQUE"}).required(),
      attr::reference("ref_marker_id", &S::ref_marker_id, "Reference_Marker").groundFrame().byDefault(0L).modifiable(),
      component<0>(), component<1>(), component<2>(), component<3>(), component<4>(), component<5>(),
      attr::ignored<S>("ref_body_id", "the body of ref_marker_id is the one used"),
      attr::presentation<S>("full_label"),
  };
  rows.insert(rows.end(), std::make_move_iterator(common.begin()), std::make_move_iterator(common.end()));
  addSubroutineRows(rows, &S::subroutine);
}

}  // namespace

const ElementSchema<ForceVectorSpec>& forceVectorTwoBodySchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{.element = "Force_Vector_TwoBody", .idField = &S::id, .attributes = {}};
    made.attributes.push_back(
        attr::reference("i_marker_id", &S::i_marker_id, "Reference_Marker").required().modifiable());
    made.attributes.push_back(
        attr::reference("j_floating_marker_id", &S::j_floating_marker_id, "Reference_Marker").required().modifiable());
    made.attributes.push_back(attr::ignored<S>("body1_id", "the body of i_marker_id is the one used"));
    made.attributes.push_back(attr::ignored<S>("body2_id", "the body of j_floating_marker_id is the one used"));
    addCommonRows(made.attributes);
    return made;
  }();
  return schema;
}

const ElementSchema<ForceVectorSpec>& forceVectorOneBodySchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{.element = "Force_Vector_OneBody", .idField = &S::id, .attributes = {}};
    made.attributes.push_back(
        attr::reference("marker_id", &S::i_marker_id, "Reference_Marker").required().modifiable());
    addCommonRows(made.attributes);
    return made;
  }();
  return schema;
}

namespace {

// Which components a type takes: forces (0–2), torques (3–5) or both.
bool takesComponent(const std::string& type, size_t k) {
  if (type == "FORCEONLY") return k < 3;
  if (type == "TORQUEONLY") return k >= 3;
  return true;
}

// Components the type does not take would be silently dropped: an error instead (also after a command).
bool componentsFitType(const S& spec, Diagnostics& diagnostics) {
  bool fit = true;
  for (size_t k = 0; k < spec.components.size(); ++k) {
    if (!spec.components[k] || takesComponent(spec.type, k)) continue;
    diagnostics.error(spec.loc, std::string(kComponentAttributes[k]) + " does not belong to type=\"" + spec.type +
                                    "\"; " + (k < 3 ? "a force component needs type=\"ForceOnly\" or \"ForceAndTorque\""
                                                    : "a torque component needs type=\"TorqueOnly\" or "
                                                      "\"ForceAndTorque\""));
    fit = false;
  }
  return fit;
}

// The element calls a subroutine when it names a library or a script: VFOSUB, VTOSUB or GFOSUB by its type.
struct VectorSubroutine {
  const char* function;
  size_t count, firstComponent;
  const char* returns;
};
VectorSubroutine subroutineOfType(const std::string& type) {
  if (type == "FORCEONLY") return {"VFOSUB", 3, 0, "[fx, fy, fz] in ref_marker_id's axes"};
  if (type == "TORQUEONLY") return {"VTOSUB", 3, 3, "[tx, ty, tz] in ref_marker_id's axes"};
  return {"GFOSUB", 6, 0, "[fx, fy, fz, tx, ty, tz] in ref_marker_id's axes"};
}

// A subroutine gives every component: expressions beside it would be ignored.
bool subroutineAlone(const S& spec, Diagnostics& diagnostics) {
  if (!spec.subroutine.named()) return true;
  for (size_t k = 0; k < spec.components.size(); ++k) {
    if (!spec.components[k]) continue;
    diagnostics.error(spec.loc, std::string(kComponentAttributes[k]) + " cannot go with a user subroutine (" +
                                    subroutineOfType(spec.type).function + " gives every component); give either "
                                    "the expressions or usrsub_dll_name / script_name");
    return false;
  }
  return true;
}

}  // namespace

void checkForceVector(const ForceVectorSpec& spec, Diagnostics& diagnostics) {
  componentsFitType(spec, diagnostics);
  subroutineAlone(spec, diagnostics);
  if (spec.subroutine.named()) {
    checkSubroutineAttributes(spec.subroutine, subroutineOfType(spec.type).function, spec.loc, diagnostics);
  } else if (spec.subroutine.any()) {
    warnUnusedSubroutineAttributes(spec.subroutine, "the element names no library (usrsub_dll_name) nor script "
                                                    "(script_name)", spec.loc, diagnostics);
  }
  for (size_t k = 0; k < spec.components.size(); ++k) {
    if (spec.components[k]) compileAttribute(kComponentAttributes[k], *spec.components[k], spec.loc, diagnostics);
  }
}

std::optional<VectorForce> buildVectorForce(const ForceVectorSpec& spec, const Model& model,
                                            ForceConnection& connection, Diagnostics& diagnostics) {
  if (!componentsFitType(spec, diagnostics) || !subroutineAlone(spec, diagnostics)) return std::nullopt;
  VectorForce force{.iMarker = spec.i_marker_id, .refMarker = spec.ref_marker_id,
                    .reacts = spec.j_floating_marker_id.has_value()};
  connection.markerI = spec.i_marker_id;
  connection.markerJ = spec.j_floating_marker_id.value_or(0);
  connection.bodyI = bodyOfMarker(model, spec.i_marker_id, connection);
  if (spec.j_floating_marker_id) connection.bodyJ = bodyOfMarker(model, *spec.j_floating_marker_id, connection);
  bodyOfMarker(model, spec.ref_marker_id, connection);
  bool built = true;
  for (size_t k = 0; k < spec.components.size(); ++k) {
    if (!spec.components[k]) continue;
    force.components[k] =
        buildForceExpression(kComponentAttributes[k], *spec.components[k], spec.loc, model, connection, diagnostics);
    built = built && force.components[k].has_value();
  }
  if (!built) return std::nullopt;
  if (spec.subroutine.named()) {
    const VectorSubroutine kind = subroutineOfType(spec.type);
    force.subroutine = buildForceSubroutine(spec.subroutine, kind.function, kind.count, kind.returns, spec.loc, model,
                                            connection, diagnostics);
    force.firstComponent = kind.firstComponent;
    if (!force.subroutine) return std::nullopt;
  }
  return force;
}

ElementAction vectorForceAction(const VectorForce& force, const ExpressionContext& context,
                                const SubroutineState* state, bool differencing) {
  std::array<double, 6> values{};
  if (force.subroutine) {
    const std::array<double, 8> result = callElementSubroutine(*force.subroutine, *state, differencing);
    std::copy_n(result.begin(), force.subroutine->count, values.begin() + static_cast<long>(force.firstComponent));
  }
  for (size_t k = 0; k < values.size(); ++k) {
    if (force.components[k]) values[k] = force.components[k]->evaluate(context);
  }
  const Matrix3 axes = context.marker(static_cast<int>(force.refMarker)).rotation;
  ElementAction action;
  action.point = context.marker(static_cast<int>(force.iMarker)).position;
  action.force = axes * Vector3(values[0], values[1], values[2]);
  action.torque = axes * Vector3(values[3], values[4], values[5]);
  if (force.reacts) {
    action.reactionForce = -action.force;
    action.reactionTorque = -action.torque;
    action.reactionPoint = action.point;
  }
  return action;
}

}  // namespace lodestone
