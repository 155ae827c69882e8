// Force_Field: attributes and the field's force and torque.
#include "force_field.h"

#include <algorithm>

#include "elements/subroutine_state.h"

namespace lodestone {

using S = ForceFieldSpec;

namespace {

const char* const kComponents[6] = {"x", "y", "z", "tx", "ty", "tz"};

// "K11" … "K66", row by row, into `matrix`'s entry 6·(row − 1) + column − 1.
void addMatrixRows(std::vector<Attribute<S>>& rows, char letter, std::array<double, 36> S::*matrix) {
  for (int row = 0; row < 6; ++row) {
    for (int column = 0; column < 6; ++column) {
      const size_t entry = static_cast<size_t>(6 * row + column);
      const std::string name = std::string(1, letter) + std::to_string(row + 1) + std::to_string(column + 1);
      rows.push_back(attr::make<S>(name, ValueKind::Real, [matrix, entry](S& spec, const Value& value) {
                       (spec.*matrix)[entry] = std::get<double>(value);
                     }).modifiable());
    }
  }
}

void addVectorRows(std::vector<Attribute<S>>& rows, const std::string& prefix, std::array<double, 6> S::*vector) {
  for (size_t k = 0; k < 6; ++k) {
    rows.push_back(attr::make<S>(prefix + kComponents[k], ValueKind::Real, [vector, k](S& spec, const Value& value) {
                     (spec.*vector)[k] = std::get<double>(value);
                   }).modifiable());
  }
}

}  // namespace

const ElementSchema<ForceFieldSpec>& forceFieldSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
        .element = "Force_Field",
        .idField = &S::id,
        .attributes = {
            attr::text("label", &S::label),
            attr::reference("i_marker_id", &S::i_marker_id, "Reference_Marker").required().modifiable(),
            attr::reference("j_marker_id", &S::j_marker_id, "Reference_Marker").required().modifiable(),
            attr::presentation<S>("full_label"),
        }};
    addVectorRows(made.attributes, "length_", &S::length);
    addVectorRows(made.attributes, "preload_", &S::preload);
    addMatrixRows(made.attributes, 'k', &S::stiffness);
    addMatrixRows(made.attributes, 'c', &S::damping);
    addSubroutineRows(made.attributes, &S::subroutine);
    return made;
  }();
  return schema;
}

void checkForceField(const ForceFieldSpec& spec, Diagnostics& diagnostics) {
  const auto zero = [](double value) { return value == 0; };
  if (spec.subroutine.named()) {
    checkSubroutineAttributes(spec.subroutine, "FIESUB", spec.loc, diagnostics);
    if (!std::ranges::all_of(spec.stiffness, zero) || !std::ranges::all_of(spec.damping, zero) ||
        !std::ranges::all_of(spec.length, zero) || !std::ranges::all_of(spec.preload, zero)) {
      diagnostics.warning(spec.loc, "the FIESUB gives the field: its K, C, lengths and preloads are not used");
    }
    return;
  }
  warnUnusedSubroutineAttributes(spec.subroutine, "no library or script is named", spec.loc, diagnostics);
  if (std::ranges::all_of(spec.stiffness, zero) && std::ranges::all_of(spec.damping, zero) &&
      std::ranges::all_of(spec.preload, zero)) {
    diagnostics.warning(spec.loc, "every stiffness, damping and preload is 0: the element exerts no force or torque");
  }
}

std::optional<ForceField> buildField(const ForceFieldSpec& spec, const Model& model, ForceConnection& connection,
                                     Diagnostics& diagnostics) {
  if (!connectMarkerPair(spec.i_marker_id, spec.j_marker_id, spec.loc, model, connection, diagnostics,
                         "a field acts between two different bodies")) {
    return std::nullopt;
  }
  ForceField field{.iMarker = spec.i_marker_id, .jMarker = spec.j_marker_id};
  for (Eigen::Index row = 0; row < 6; ++row) {
    for (Eigen::Index column = 0; column < 6; ++column) {
      field.stiffness(row, column) = spec.stiffness[static_cast<size_t>(6 * row + column)];
      field.damping(row, column) = spec.damping[static_cast<size_t>(6 * row + column)];
    }
    field.length(row) = spec.length[static_cast<size_t>(row)];
    field.preload(row) = spec.preload[static_cast<size_t>(row)];
  }
  field.symmetric = field.stiffness == field.stiffness.transpose();
  if (spec.subroutine.named()) {
    field.subroutine = buildForceSubroutine(spec.subroutine, "FIESUB", 6,
                                            "[fx, fy, fz, tx, ty, tz], the loads on I in J's axes", spec.loc, model,
                                            connection, diagnostics);
    if (!field.subroutine) return std::nullopt;
  }
  return field;
}

ElementAction fieldAction(const ForceField& field, const ExpressionContext& context, const SubroutineState* state,
                          bool differencing) {
  const RelativeDeflection relative = relativeDeflection(context.marker(static_cast<int>(field.iMarker)),
                                                         context.marker(static_cast<int>(field.jMarker)));
  if (field.subroutine) {
    // The FIESUB's field is applied work: no potential is known.
    std::array<double, 6> disp, velo;
    std::copy_n(relative.displacement.data(), 6, disp.begin());
    std::copy_n(relative.rate.data(), 6, velo.begin());
    const std::array<double, 8> result = callElementSubroutine(*field.subroutine, *state, differencing, disp, velo);
    Vector6 load;
    for (Eigen::Index k = 0; k < 6; ++k) load(k) = result[static_cast<size_t>(k)];
    return deflectionLoadAction(relative, load);
  }
  const Vector6 deflection = relative.displacement - field.length;
  const Vector6 elastic = field.stiffness * deflection;
  const Vector6 damping = field.damping * relative.rate;
  const Vector6 load = -elastic - damping + field.preload;
  ElementAction action = deflectionLoadAction(relative, load);
  // A potential only for a symmetric K (and then, as for the bushing, first order in the rotations): the strain is
  // left out otherwise, and the field's power counts as applied work (energy.csv's work_applied).
  if (field.symmetric) {
    action.strain = 0.5 * deflection.dot(elastic) - field.preload.dot(deflection);
    action.dashpotPower = relative.rate.dot(damping);
  }
  return action;
}

}  // namespace lodestone
