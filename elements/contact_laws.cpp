// The three kinds of contact law behind NormalForceLaw and FrictionForceLaw: built-in descriptors, named laws from
// law libraries, and MotionSolve subroutines in C or Python.
#include "contact_laws.h"

#include <cmath>

namespace lodestone {

namespace {

// A point and a direction in ground, in a marker's frame, as the subroutines take them (three doubles each).
void inMarker(const Pose& marker, const Vector3& point, const Vector3& direction, std::array<double, 3>& location,
              std::array<double, 3>& normal) {
  Eigen::Map<Vector3>(location.data()) = marker.rotation.transpose() * (point - marker.position);
  Eigen::Map<Vector3>(normal.data()) = marker.rotation.transpose() * direction;
}

// ---- built-in laws: a descriptor's formula and the element's parameter values ---------------------------------

class BuiltinNormal final : public NormalForceLaw {
 public:
  explicit BuiltinNormal(const ForceContact& element) : element_(element) {}
  double force(const LawPair& pair, const LawPoint& point) const override {
    const NormalInput input{.penetration = point.contact->depth,
                            .penetrationRate = point.penetrationRate,
                            .area = point.contact->area,
                            .effectiveMass = pair.effectiveMass};
    const NormalLaw& law = *element_.normalLaw;
    const LawValues values = pair.normalValues.empty() ? LawValues(element_.normalValues) : pair.normalValues;
    const int stateSize = this->stateSize();
    if (stateSize == 0 || !pair.normalStates) return law.force(values, input);
    // As a friction law's state: the point's stored state, replaced by the one now at an accepted step.
    double* state = pair.normalStates + static_cast<size_t>(point.index) * static_cast<size_t>(stateSize);
    return law.stateful(values, input, state, pair.advancing ? state : nullptr);
  }
  int stateSize() const override {
    const NormalLaw& law = *element_.normalLaw;
    return law.stateSize && law.stateful ? law.stateSize(element_.normalValues) : 0;
  }
  int smoothnessAt(ContactChange change) const override {
    const NormalLaw& law = *element_.normalLaw;
    return law.smoothnessAt ? law.smoothnessAt(element_.normalValues, change) : 0;
  }

 private:
  const ForceContact& element_;
};

class BuiltinFriction final : public FrictionForceLaw {
 public:
  explicit BuiltinFriction(const ForceContact& element) : element_(element) {}
  Vector3 force(const LawPair& pair, const LawPoint& point, double normalForce) const override {
    const FrictionLaw& law = *element_.frictionLaw;
    if (law.stateful) {
      // As a named law's state: the point's stored state, replaced by the one now at an accepted step.
      double* state = pair.frictionStates + static_cast<size_t>(point.index) * static_cast<size_t>(law.stateSize);
      FrictionOutput output;
      law.stateful(valuesOf(pair), inputOf(pair, point, normalForce), state, pair.advancing ? state : nullptr, output);
      if (pair.slipTally && output.slipsNow >= 0) {
        pair.slipTally->points += 1;
        pair.slipTally->slippedBefore += output.slippedBefore;
        pair.slipTally->slipsNow += output.slipsNow;
      }
      return output.force;
    }
    const double slipSpeed = point.slip.norm();
    if (!element_.frictionLaw->coefficient || !(slipSpeed > 0)) return Vector3::Zero();
    // Written as magnitude times direction, the order a CFFSUB's result takes, so a user subroutine with the same
    // formula reproduces the built-in law to the last bit.
    const double mu = element_.frictionLaw->coefficient(valuesOf(pair), slipSpeed);
    return -(mu * std::fabs(normalForce)) * Vector3(point.slip / slipSpeed);
  }
  FrictionEnergy energy(const LawPair& pair, const LawPoint& point, double normalForce) const override {
    const FrictionLaw& law = *element_.frictionLaw;
    if (!law.stateful) return {};
    const double* state = pair.frictionStates + static_cast<size_t>(point.index) * static_cast<size_t>(law.stateSize);
    FrictionOutput output;
    law.stateful(valuesOf(pair), inputOf(pair, point, normalForce), state, nullptr, output);
    return {output.strain, output.strainRate, output.dashpotPower};
  }
  int stateSize() const override { return element_.frictionLaw->stateSize; }
  // μ(v)·N, μ smooth in the slip: it begins and ends as smoothly as the normal force. A law with state is not known
  // (a shear dashpot acts from the first instant): taken as a jump.
  int smoothnessAt(ContactChange) const override { return element_.frictionLaw->stateful ? 0 : kSmoothForce; }

 private:
  LawValues valuesOf(const LawPair& pair) const {
    return pair.frictionValues.empty() ? LawValues(element_.frictionValues) : pair.frictionValues;
  }
  static FrictionInput inputOf(const LawPair& pair, const LawPoint& point, double normalForce) {
    return {.normal = point.contact->normal,
            .slip = point.slip,
            .normalForce = normalForce,
            .share = point.contact->share,
            .effectiveMass = pair.effectiveMass,
            .elapsed = pair.frictionElapsed};
  }

  const ForceContact& element_;
};

// ---- laws given by expressions (EXPRESSION): the deck's expressions at the point, as a built-in law's formula ------

// What a contact law's expression reads: TIME, its contact point, and the markers, Reference_Variables and data
// (splines, arrays) of the model at the pair's evaluation state (LawPair::model; the element refuses CONTACT in
// these expressions).
class ContactPointContext final : public ExpressionContext {
 public:
  explicit ContactPointContext(const LawPair& pair) : time_(pair.time), model_(pair.model) {}
  double time() const override { return time_; }
  MarkerMotion marker(int id) const override { return model_ ? model_->marker(id) : MarkerMotion{}; }
  double variable(int id) const override { return model_ ? model_->variable(id) : ExpressionContext::variable(id); }
  double contactPoint(ContactPointSymbol symbol) const override { return values_[static_cast<size_t>(symbol)]; }
  // A law may read a force-penetration curve: AKISPL(DELTA, 0, id).
  double spline(SplineMethod method, int id, double x, double z, int order) const override {
    return model_ ? model_->spline(method, id, x, z, order) : ExpressionContext::spline(method, id, x, z, order);
  }
  double arrayValue(int id, int position) const override {
    return model_ ? model_->arrayValue(id, position) : ExpressionContext::arrayValue(id, position);
  }
  void set(ContactPointSymbol symbol, double value) { values_[static_cast<size_t>(symbol)] = value; }

 private:
  double time_;
  const ExpressionContext* model_;
  std::array<double, kContactPointSymbolCount> values_{};
};

// The normal force is the expression's value where the point overlaps, never pulling. It is evaluated once per patch
// point with the patch's depth and the point's own rate, exactly where and how a built-in law's formula is (the
// caller applies the point's share), so that normal_force_expression="k*DELTA + c*DELTA_DOT" is LINEAR to the bit.
class ExpressionNormal final : public NormalForceLaw {
 public:
  explicit ExpressionNormal(const ForceContact& element) : element_(element) {}
  double force(const LawPair& pair, const LawPoint& point) const override {
    if (point.contact->depth <= 0) return 0;  // apart: no contact, no force, as every built-in law
    ContactPointContext context(pair);
    context.set(ContactPointSymbol::Penetration, point.contact->depth);
    context.set(ContactPointSymbol::PenetrationRate, point.penetrationRate);
    const double force = element_.normalExpressions.front().evaluate(context);
    // Clipped to push only; a NaN is passed on for the integrator to refuse rather than hidden as no force.
    return force > 0 || std::isnan(force) ? force : 0;
  }
  bool holdsEnergy() const override {
    const Expression& expression = element_.normalExpressions.front();
    return !expression.usesTime() && expression.markerIds().empty() && expression.variableIds().empty();
  }
  int smoothnessAt(ContactChange change) const override {
    return element_.normalLaw->smoothnessAt ? element_.normalLaw->smoothnessAt(element_.normalValues, change) : 0;
  }

 private:
  const ForceContact& element_;
};

// The friction force along the contact frame's tangents t1 and t2 (contactTangents), each component an expression.
// The expressions give the patch's friction, as NORMAL_FORCE is the patch's normal force; each point carries its share
// of it, with its own slip.
class ExpressionFriction final : public FrictionForceLaw {
 public:
  explicit ExpressionFriction(const ForceContact& element) : element_(element) {}
  Vector3 force(const LawPair& pair, const LawPoint& point, double normalForce) const override {
    const ContactPoint& contact = *point.contact;
    if (contact.depth <= 0) return Vector3::Zero();
    const auto [tangent1, tangent2] = contactTangents(pair.markerJ.rotation, contact.normal);
    ContactPointContext context(pair);
    context.set(ContactPointSymbol::Penetration, contact.depth);
    context.set(ContactPointSymbol::PenetrationRate, point.penetrationRate);
    context.set(ContactPointSymbol::SlipT1, tangent1.dot(point.slip));
    context.set(ContactPointSymbol::SlipT2, tangent2.dot(point.slip));
    context.set(ContactPointSymbol::NormalForce, contact.share > 0 ? normalForce / contact.share : 0.0);
    const double along1 = element_.frictionExpressions[0].evaluate(context);
    const double along2 = element_.frictionExpressions[1].evaluate(context);
    return contact.share * (along1 * tangent1 + along2 * tangent2);
  }
  // Not known: an expression may give a force from the first instant of contact.
  int smoothnessAt(ContactChange) const override { return 0; }

 private:
  const ForceContact& element_;
};

// ---- named laws: the C descriptor of a law library, with state per contact point --------------------------------

lodestone_contact_point namedLawPoint(const LawPair& pair, const LawPoint& point, double elapsed, double normalForce) {
  const Vector3& normal = point.contact->normal;
  return {.time = pair.time,
          .elapsed = elapsed,
          .penetration = point.contact->depth,
          .penetration_rate = point.penetrationRate,
          .area = point.contact->area,
          .effective_mass = pair.effectiveMass,
          .normal = {normal.x(), normal.y(), normal.z()},
          .slip_velocity = {point.slip.x(), point.slip.y(), point.slip.z()},
          .normal_force = normalForce,
          .differencing = pair.differencing ? 1 : 0};
}

double* stateOfPoint(double* states, int stateSize, int index) {
  return states && stateSize > 0 ? states + static_cast<size_t>(index) * static_cast<size_t>(stateSize) : nullptr;
}

class NamedNormal final : public NormalForceLaw {
 public:
  explicit NamedNormal(const ForceContact& element) : element_(element), law_(*element.normalLaw->named) {}
  double force(const LawPair& pair, const LawPoint& point) const override {
    const lodestone_contact_point lawPoint = namedLawPoint(pair, point, pair.normalElapsed, 0);
    double* state = stateOfPoint(pair.normalStates, law_.state_size, point.index);
    const double force = law_.normal_force(&law_, element_.normalValues.data(), &lawPoint, state);
    if (pair.advancing && state) law_.advance_state(&law_, element_.normalValues.data(), &lawPoint, state);
    return force;
  }
  int stateSize() const override { return law_.state_size; }
  bool canProbe() const override { return law_.state_size == 0; }
  bool runsUserCode() const override { return true; }

 private:
  const ForceContact& element_;
  const lodestone_law& law_;
};

class NamedFriction final : public FrictionForceLaw {
 public:
  explicit NamedFriction(const ForceContact& element) : element_(element), law_(*element.frictionLaw->named) {}
  Vector3 force(const LawPair& pair, const LawPoint& point, double normalForce) const override {
    const lodestone_contact_point lawPoint = namedLawPoint(pair, point, pair.frictionElapsed, normalForce);
    double* state = stateOfPoint(pair.frictionStates, law_.state_size, point.index);
    double force[3] = {0, 0, 0};
    law_.friction_force(&law_, element_.frictionValues.data(), &lawPoint, state, force);
    if (pair.advancing && state) law_.advance_state(&law_, element_.frictionValues.data(), &lawPoint, state);
    return {force[0], force[1], force[2]};
  }
  int stateSize() const override { return law_.state_size; }
  bool runsUserCode() const override { return true; }

 private:
  const ForceContact& element_;
  const lodestone_law& law_;
};

// ---- MotionSolve subroutines: CNFSUB and CFFSUB, with their arguments in the graphics' marker frames ------------

class SubroutineNormal final : public NormalForceLaw {
 public:
  explicit SubroutineNormal(const ForceContact& element) : element_(element) {}
  double force(const LawPair& pair, const LawPoint& point) const override {
    const ContactPoint& contact = *point.contact;
    // The points on each graphic, relative to its marker and in its axes, with the outward normals (I's points away
    // from I, along −n; n points from J to I).
    NormalCall call{.gap = -contact.depth, .gapdot = -point.penetrationRate, .dflag = pair.differencing};
    inMarker(pair.markerI, contact.pointOnA, -contact.normal, call.loci, call.ni);
    inMarker(pair.markerJ, contact.pointOnB, contact.normal, call.locj, call.nj);
    const Vector3 accelerationI = pair.bodyI ? pair.bodyI->accelerationAt(point.at) : Vector3::Zero();
    const Vector3 accelerationJ = pair.bodyJ ? pair.bodyJ->accelerationAt(point.at) : Vector3::Zero();
    call.gapdotdot = contact.normal.dot(accelerationI - accelerationJ);
    return pair.subroutines->callNormalSubroutine(element_, call);
  }
  bool canProbe() const override { return false; }
  bool runsUserCode() const override { return true; }

 private:
  const ForceContact& element_;
};

class SubroutineFriction final : public FrictionForceLaw {
 public:
  explicit SubroutineFriction(const ForceContact& element) : element_(element) {}
  Vector3 force(const LawPair& pair, const LawPoint& point, double normalForce) const override {
    const ContactPoint& contact = *point.contact;
    // The contact frame: z along n, x along the slip (any tangent when there is none), y = z × x.
    const double slipSpeed = point.slip.norm();
    const Vector3 tangentX = slipSpeed > 0 ? Vector3(point.slip / slipSpeed) : Vector3(contact.normal.unitOrthogonal());
    const Vector3 tangentY = contact.normal.cross(tangentX);
    FrictionCall call{.x = {tangentX.dot(pair.displacement), tangentY.dot(pair.displacement), 0},
                      .xdot = {slipSpeed, 0, 0},
                      .nforce = normalForce,
                      .dflag = pair.differencing};
    std::array<double, 3> unused{};
    inMarker(pair.markerI, contact.pointOnA, -contact.normal, call.loci, unused);
    inMarker(pair.markerJ, contact.pointOnB, contact.normal, call.locj, unused);
    const std::array<double, 3> result = pair.subroutines->callFrictionSubroutine(element_, call);
    return result[0] * tangentX + result[1] * tangentY + result[2] * contact.normal;
  }

  bool runsUserCode() const override { return true; }

 private:
  const ForceContact& element_;
};

}  // namespace

std::pair<Vector3, Vector3> contactTangents(const Matrix3& axesJ, const Vector3& normal) {
  // J's x axis in the tangent plane; where it lies (almost) along the normal, J's y axis, which then does not.
  Vector3 tangent = axesJ.col(0) - axesJ.col(0).dot(normal) * normal;
  if (tangent.norm() < kTangentFallback) tangent = axesJ.col(1) - axesJ.col(1).dot(normal) * normal;
  tangent.normalize();
  return {tangent, normal.cross(tangent)};
}

Matrix3 contactFrame(const Matrix3& axesJ, const Vector3& normal) {
  const auto [tangent1, tangent2] = contactTangents(axesJ, normal);
  Matrix3 frame;
  frame << tangent1, tangent2, normal;
  return frame;
}

ContactLaws makeContactLaws(const ForceContact& element) {
  ContactLaws laws;
  if (element.userNormal) laws.normal = std::make_unique<SubroutineNormal>(element);
  else if (element.normalLaw->named) laws.normal = std::make_unique<NamedNormal>(element);
  else if (!element.normalExpressions.empty()) laws.normal = std::make_unique<ExpressionNormal>(element);
  else laws.normal = std::make_unique<BuiltinNormal>(element);
  if (element.userFriction) laws.friction = std::make_unique<SubroutineFriction>(element);
  else if (element.frictionLaw && element.frictionLaw->named) laws.friction = std::make_unique<NamedFriction>(element);
  else if (!element.frictionExpressions.empty()) laws.friction = std::make_unique<ExpressionFriction>(element);
  else laws.friction = std::make_unique<BuiltinFriction>(element);
  return laws;
}

}  // namespace lodestone
