// The force elements of a model: building them from the deck, evaluating their loads, and switching them.
#include "force_elements.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "elements/activation.h"
#include "elements/model_spec.h"

namespace lodestone {

namespace {

// Builds the active elements of one deck vector; `build` fills the connection and returns the law, or nothing after
// reporting why.
template <class Spec, class Build>
void addElements(const std::vector<Spec>& specs, Build build, std::vector<ForceElement>& elements) {
  for (const Spec& spec : specs) {
    if (!spec.active) continue;
    ForceConnection connection;
    auto law = build(spec, connection);
    if (law) elements.push_back(ForceElement{spec.loc, std::move(connection), std::move(*law)});
  }
}

bool isFinite(const Vector3& v) { return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()); }

}  // namespace

std::shared_ptr<const ForceModel> buildForceModel(const ModelSpec& spec, const Model& model, Diagnostics& diagnostics) {
  auto result = std::make_shared<ForceModel>();
  std::vector<ForceElement>& elements = result->elements;
  addElements(spec.scalarForces,
              [&](const auto& s, ForceConnection& c) { return buildScalarForce(s, model, c, diagnostics); }, elements);
  addElements(spec.scalarForcesOneBody,
              [&](const auto& s, ForceConnection& c) { return buildScalarForceOneBody(s, model, c, diagnostics); },
              elements);
  const auto vector = [&](const auto& s, ForceConnection& c) { return buildVectorForce(s, model, c, diagnostics); };
  addElements(spec.vectorForcesTwoBody, vector, elements);
  addElements(spec.vectorForcesOneBody, vector, elements);
  addElements(spec.springDampers,
              [&](const auto& s, ForceConnection& c) { return buildSpringDamper(s, model, c, diagnostics); }, elements);
  addElements(spec.bushings,
              [&](const auto& s, ForceConnection& c) { return std::optional<Bushing>(buildBushing(s, model, c)); },
              elements);
  addElements(spec.beams, [&](const auto& s, ForceConnection& c) { return buildBeam(s, model, c, diagnostics); },
              elements);
  addElements(spec.fields, [&](const auto& s, ForceConnection& c) { return buildField(s, model, c, diagnostics); },
              elements);
  BuiltMagnets magnets = buildMagnets(spec.magnets, spec.graphics, model, diagnostics);
  for (BuiltMagnetPair& pair : magnets.pairs) {
    const SourceLoc loc = pair.pair.first.loc;
    elements.push_back(ForceElement{loc, std::move(pair.connection), std::move(pair.pair)});
  }
  if (magnets.induced) {
    elements.push_back(
        ForceElement{magnets.induced->loc, std::move(magnets.induced->connection), std::move(magnets.induced->law)});
  }
  return result;
}

std::string describeForce(const ForceElement& element) {
  return element.loc.subject() + " (" + element.loc.position() + ")";
}

// ---- evaluation ------------------------------------------------------------------------------------------------

ForceEvaluator::ForceEvaluator(const Model& model) : model_(&model), context_(model), forces_(model.forces.get()) {
  angles_.assign(elements().size(), std::numeric_limits<double>::quiet_NaN());
  magnetPlans_.resize(elements().size());
  readsContacts_ =
      std::ranges::any_of(elements(), [](const ForceElement& element) { return element.connection.readsContacts; });
}

const std::vector<ForceElement>& ForceEvaluator::elements() const {
  static const std::vector<ForceElement> none;
  return forces_ ? forces_->elements : none;
}

void ForceEvaluator::addLoads(double time, std::span<const BodyKinematics> bodies, std::span<BodyLoad> loads) {
  if (empty()) return;
  context_.setState(time, bodies, contactMeasures_);
  for (size_t k = 0; k < forces_->elements.size(); ++k) {
    const ForceConnection& connection = forces_->elements[k].connection;
    const ElementLoads loaded = evaluate(k, bodies);
    const TwoBodyLoads& element = loaded.pair;
    bool finite = isFinite(element.forceOnI) && isFinite(element.torqueOnI) && isFinite(element.forceOnJ) &&
                  isFinite(element.torqueOnJ);
    for (size_t b = 0; b < loaded.onBodies.size(); ++b) {
      const BodyLoad& load = loaded.onBodies[b];
      finite = finite && isFinite(load.force) && isFinite(load.torque);
      loads[static_cast<size_t>(connection.bodiesLoaded[b])].force += load.force;
      loads[static_cast<size_t>(connection.bodiesLoaded[b])].torque += load.torque;
    }
    if (!finite) {
      lastNonFinite_ = static_cast<int>(k);
      lastNonFiniteTime_ = time;
    }
    if (!trouble_.empty()) {
      const ForceElement* element = &forces_->elements[k];
      const auto same = [&](const ForceMessage& message) { return message.element == element; };
      if (std::none_of(messages_.begin(), messages_.end(), same)) messages_.push_back({element, time, trouble_});
    }
    if (connection.bodyI >= 0) {
      loads[static_cast<size_t>(connection.bodyI)].force += element.forceOnI;
      loads[static_cast<size_t>(connection.bodyI)].torque += element.torqueOnI;
    }
    if (connection.bodyJ >= 0) {
      loads[static_cast<size_t>(connection.bodyJ)].force += element.forceOnJ;
      loads[static_cast<size_t>(connection.bodyJ)].torque += element.torqueOnJ;
    }
  }
}

ElementLoads ForceEvaluator::elementLoads(int index, double time, std::span<const BodyKinematics> bodies) {
  context_.setState(time, bodies, contactMeasures_);
  reuseMagnetPlans_ = true;
  // A subroutine's calls here have dflag set; a failure (thrown) ends the run, so the flag is not restored then.
  differencing_ = true;
  ElementLoads loads = evaluate(static_cast<size_t>(index), bodies);
  differencing_ = false;
  reuseMagnetPlans_ = false;
  return loads;
}

bool ForceEvaluator::switchedOff(int index, double time, std::span<const BodyKinematics> bodies) {
  const auto* induced = std::get_if<InducedMagnets>(&forces_->elements[static_cast<size_t>(index)].law);
  if (!induced) return false;
  context_.setState(time, bodies, contactMeasures_);
  return inducedMagnetsSwitchedOff(*induced, context_);
}

std::vector<std::optional<double>> ForceEvaluator::farCouplings(double time, std::span<const BodyKinematics> bodies) {
  std::vector<std::optional<double>> couplings(elements().size());
  context_.setState(time, bodies, contactMeasures_);
  for (size_t k = 0; k < couplings.size(); ++k) {
    const ForceElement& element = forces_->elements[k];
    if (const auto* pair = std::get_if<MagnetPair>(&element.law)) {
      couplings[k] = farMagnetPairCoupling(*pair, element.connection, context_, *model_, bodies);
    }
  }
  return couplings;
}

void ForceEvaluator::markerLoads(double time, std::span<const BodyKinematics> bodies,
                                 std::vector<MarkerPairLoad>& loads) {
  if (empty()) return;
  context_.setState(time, bodies, contactMeasures_);
  for (size_t k = 0; k < forces_->elements.size(); ++k) {
    const ForceConnection& connection = forces_->elements[k].connection;
    const ElementAction action = act(k);
    for (const MarkerAction& atMarker : action.atMarkers) {
      const Vector3 origin = context_.marker(static_cast<int>(atMarker.marker)).position;
      loads.push_back(MarkerPairLoad{.markerI = atMarker.marker, .markerJ = 0, .forceOnI = atMarker.force,
                                     .torqueOnI = atMarker.torque + (atMarker.point - origin).cross(atMarker.force)});
    }
    if (!action.atMarkers.empty()) continue;
    const ForceElement& element = forces_->elements[k];
    MarkerPairLoad load{.markerI = connection.markerI,
                        .markerJ = connection.markerJ,
                        .source = element.source,
                        .id = element.loc.id.value_or(0)};
    const Vector3 originI = context_.marker(static_cast<int>(connection.markerI)).position;
    load.forceOnI = action.force;
    load.torqueOnI = action.torque + (action.point - originI).cross(action.force);
    if (connection.markerJ != 0) {
      const Vector3 originJ = context_.marker(static_cast<int>(connection.markerJ)).position;
      load.forceOnJ = action.reactionForce;
      load.torqueOnJ = action.reactionTorque + (action.reactionPoint - originJ).cross(action.reactionForce);
    }
    loads.push_back(load);
  }
}

std::vector<ForceMessage> ForceEvaluator::takeMessages() { return std::exchange(messages_, {}); }

const ForceElement* ForceEvaluator::lastNonFinite() const {
  return lastNonFinite_ < 0 ? nullptr : &forces_->elements[static_cast<size_t>(lastNonFinite_)];
}

ForceEnergy ForceEvaluator::energy(double time, std::span<const BodyKinematics> bodies) {
  ForceEnergy energy;
  if (empty()) return energy;
  context_.setState(time, bodies, contactMeasures_);
  for (size_t k = 0; k < forces_->elements.size(); ++k) {
    const ForceConnection& connection = forces_->elements[k].connection;
    const ElementAction action = act(k);
    if (action.strain) {
      energy.strain += *action.strain;
      energy.dashpotPower += action.dashpotPower;
      continue;
    }
    // The force acts at its point on the body's material point there; ground does no work.
    double& power = action.field ? energy.fieldPower : energy.appliedPower;
    for (const MarkerAction& atMarker : action.atMarkers) {
      if (atMarker.body < 0) continue;
      const BodyKinematics& body = bodies[static_cast<size_t>(atMarker.body)];
      power += atMarker.force.dot(body.velocityAt(atMarker.point)) + atMarker.torque.dot(body.angularVelocity);
    }
    if (connection.bodyI >= 0) {
      const BodyKinematics& body = bodies[static_cast<size_t>(connection.bodyI)];
      power += action.force.dot(body.velocityAt(action.point)) + action.torque.dot(body.angularVelocity);
    }
    if (connection.bodyJ >= 0) {
      const BodyKinematics& body = bodies[static_cast<size_t>(connection.bodyJ)];
      power += action.reactionForce.dot(body.velocityAt(action.reactionPoint)) +
               action.reactionTorque.dot(body.angularVelocity);
    }
  }
  return energy;
}

ElementAction ForceEvaluator::act(size_t index) {
  return std::visit(
      [&](const auto& law) -> ElementAction {
        using Law = std::decay_t<decltype(law)>;
        if constexpr (std::is_same_v<Law, ScalarForce>) {
          return scalarForceAction(law, context_, &subroutineState_, differencing_);
        } else if constexpr (std::is_same_v<Law, VectorForce>) {
          return vectorForceAction(law, context_, &subroutineState_, differencing_);
        }
        else if constexpr (std::is_same_v<Law, SpringDamper>) return springDamperAction(law, context_, angles_[index]);
        else if constexpr (std::is_same_v<Law, Bushing>) return bushingAction(law, context_);
        else if constexpr (std::is_same_v<Law, Beam>) return beamAction(law, context_);
        else if constexpr (std::is_same_v<Law, ForceField>) {
          return fieldAction(law, context_, &subroutineState_, differencing_);
        }
        else if constexpr (std::is_same_v<Law, InducedMagnets>) return inducedMagnetsAction(law, context_);
        else {
          magnetPlans_[index].reuse = reuseMagnetPlans_;
          return magnetPairAction(law, context_, magnetPlans_[index]);
        }
      },
      forces_->elements[index].law);
}

ElementLoads ForceEvaluator::evaluate(size_t index, std::span<const BodyKinematics> bodies) {
  const ForceElement& element = forces_->elements[index];
  ElementAction action = act(index);
  trouble_ = std::move(action.trouble);
  // Forces at points become torques about the CGs of the bodies that carry them.
  ElementLoads loads;
  if (const int body = element.connection.bodyI; body >= 0) {
    loads.pair.forceOnI = action.force;
    loads.pair.torqueOnI =
        (action.point - bodies[static_cast<size_t>(body)].position).cross(action.force) + action.torque;
  }
  if (const int body = element.connection.bodyJ; body >= 0) {
    loads.pair.forceOnJ = action.reactionForce;
    loads.pair.torqueOnJ =
        (action.reactionPoint - bodies[static_cast<size_t>(body)].position).cross(action.reactionForce) +
        action.reactionTorque;
  }
  const std::vector<int>& loaded = element.connection.bodiesLoaded;
  loads.onBodies.resize(loaded.size());
  for (const MarkerAction& atMarker : action.atMarkers) {
    if (atMarker.body < 0) continue;
    const size_t b = static_cast<size_t>(std::find(loaded.begin(), loaded.end(), atMarker.body) - loaded.begin());
    loads.onBodies[b].force += atMarker.force;
    loads.onBodies[b].torque +=
        (atMarker.point - bodies[static_cast<size_t>(atMarker.body)].position).cross(atMarker.force) + atMarker.torque;
  }
  return loads;
}

// ---- Deactivate and Activate ------------------------------------------------------------------------------------

namespace {

struct ForceActivationType {
  const char* keyword;
  bool scalar, vector, springDamper, bushing;
  bool beam = false;
  bool field = false;
};
constexpr ForceActivationType kForceTypes[] = {
    {"FORCE", true, true, true, true, true, true},    {"SFORCE", true, false, false, false},
    {"GFORCE", false, true, false, false},      {"VFORCE", false, true, false, false},
    {"VTORQUE", false, true, false, false},     {"BUSH", false, false, false, true},
    {"SPDP", false, false, true, false},        {"SPRINGDAMPER", false, false, true, false},
    {"BEAM", false, false, false, false, true},
    {"FIELD", false, false, false, false, false, true},
};

const ForceActivationType* findForceType(const std::string& elementType) {
  for (const ForceActivationType& type : kForceTypes) {
    if (elementType == type.keyword) return &type;
  }
  return nullptr;
}

template <class Spec>
void setActive(std::vector<Spec>& specs, long id, bool active) {
  for (Spec& spec : specs) {
    if (spec.id == id) spec.active = active;
  }
}

}  // namespace

bool isForceActivationType(const std::string& elementType) { return findForceType(elementType) != nullptr; }

std::vector<std::string> forceActivationTargets(const std::string& elementType) {
  std::vector<std::string> targets;
  const ForceActivationType* type = findForceType(elementType);
  if (!type) return targets;
  if (type->scalar) targets.push_back(forceScalarTwoBodySchema().element);
  if (type->scalar) targets.push_back(forceScalarOneBodySchema().element);
  if (type->vector) {
    targets.push_back(forceVectorTwoBodySchema().element);
    targets.push_back(forceVectorOneBodySchema().element);
  }
  if (type->springDamper) targets.push_back(forceSpringDamperSchema().element);
  if (type->bushing) targets.push_back(forceBushingSchema().element);
  if (type->beam) targets.push_back(forceBeamSchema().element);
  if (type->field) targets.push_back(forceFieldSchema().element);
  return targets;
}

ModifyCommand forceActivationCommand(const ActivationSpec& spec, bool active) {
  const ForceActivationType type = *findForceType(spec.element_type);
  const long id = spec.element_id;
  return ModifyCommand{spec.loc, [type, id, active](ModelSpec& model) {
                         if (type.scalar) setActive(model.scalarForces, id, active);
                         if (type.scalar) setActive(model.scalarForcesOneBody, id, active);
                         if (type.vector) {
                           setActive(model.vectorForcesTwoBody, id, active);
                           setActive(model.vectorForcesOneBody, id, active);
                         }
                         if (type.springDamper) setActive(model.springDampers, id, active);
                         if (type.bushing) setActive(model.bushings, id, active);
                         if (type.beam) setActive(model.beams, id, active);
                         if (type.field) setActive(model.fields, id, active);
                       }};
}

}  // namespace lodestone
