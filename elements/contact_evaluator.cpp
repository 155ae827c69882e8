// Contact detection, forces, status tracking and reports for every Force_Contact of a model.
#include "contact_evaluator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "collision/narrow_phase.h"
#include "elements/subroutine_state.h"
#include "solver/core/quadrature.h"
#include "solver/core/text.h"
#include "solver/core/thread_scratch.h"

namespace lodestone {

namespace {

// How far (as a fraction of its bounding radius) a graphic's box is inflated for the broad phase, so that a pair
// becomes a candidate, with an exact gap, before it touches: an onset is then seen as the gap falling through zero
// rather than appearing below it.
constexpr double kProximityFraction = 0.1;

// How far the boxes are grown when the broad phase's pairs are kept (VerletList), as a part of the median box's
// extent: the list is built again only once some graphic has moved or turned that far (relative to its box) since.
// Measured on the 1000-sphere pile (peer_pile_benchmark, 0.2 s, 6046 detections, 2914 candidates on average): a
// margin of 0 (a broad phase at every detection, as before) spends 10.4 s detecting; 0.05, 0.1 and 0.2 build the list
// 36, 19 and 9 times and keep 3809, 4676 and 6948 pairs to check, and detect in 1.8, 1.8 and 2.1 s — the narrow phase
// on the candidates is then most of it. A tenth keeps the builds rare for faster scenes and the kept pairs within
// twice the candidates for a packed pile.
constexpr double kVerletMarginFraction = 0.1;

// Graphics placed per task when the evaluator's loop has threads (a pose and a box each, tens of nanoseconds).
constexpr int kGraphicsPerTask = 256;

}  // namespace

ContactEvaluator::ContactEvaluator(const Model& model)
    : model_(model), contacts_(model.contacts.get()), closeGraphics_(kVerletMarginFraction), lawModel_(model) {
  if (!contacts_) return;
  const std::vector<ForceContact>& elements = contacts_->elements;
  const size_t graphicCount = contacts_->graphics.size();
  roles_ = graphicRoles(*contacts_);
  proximity_.assign(graphicCount, 0.0);
  detection_.boxes.resize(graphicCount);
  detection_.poses.resize(graphicCount);
  touchingByGraphic_.resize(graphicCount);
  for (size_t e = 0; e < elements.size(); ++e) {
    const ForceContact& element = elements[e];
    const auto reachOut = [&](int graphic) {
      const double reach = kProximityFraction * contacts_->graphics[static_cast<size_t>(graphic)].shape.boundingRadius() +
                           0.5 * element.options.fieldRange;
      proximity_[static_cast<size_t>(graphic)] = std::max(proximity_[static_cast<size_t>(graphic)], reach);
    };
    for (int graphic : element.iGraphics) reachOut(graphic);
    for (int graphic : element.jGraphics) reachOut(graphic);
    hasSubroutines_ = hasSubroutines_ || element.userNormal || element.userFriction || element.contactPost;
    laws_.push_back(makeContactLaws(element));
    runsUserCode_ = runsUserCode_ || laws_.back().normal->runsUserCode() || laws_.back().friction->runsUserCode();
    const bool keepsState = laws_.back().normal->stateSize() > 0 || laws_.back().friction->stateSize() > 0;
    keepsLawState_.push_back(keepsState ? 1 : 0);
    anyLawState_ = anyLawState_ || keepsState;
    locatesCrossings_ = locatesCrossings_ || element.zeroCrossing;
    elementIndexById_.emplace(element.id, static_cast<int>(e));
    for (const std::vector<Expression>* expressions : {&element.normalExpressions, &element.frictionExpressions}) {
      for (const Expression& expression : *expressions) {
        lawsReadModel_ = lawsReadModel_ || !expression.markerIds().empty() || !expression.variableIds().empty();
        for (const int id : expression.variableIds()) {
          if (std::find(lawVariables_.begin(), lawVariables_.end(), id) == lawVariables_.end()) {
            lawVariables_.push_back(id);
          }
        }
        // ARYVAL of a control system's outputs reads the state too (and may call its GSESUB).
        for (const DataReference& reference : expression.dataReferences()) {
          if (reference.kind != DataReference::Kind::Array) continue;
          lawsReadModel_ = true;
          if (std::find(lawArrays_.begin(), lawArrays_.end(), reference.id) == lawArrays_.end()) {
            lawArrays_.push_back(reference.id);
          }
        }
      }
    }
  }
  elementLoads_.resize(elements.size());
}

double ContactEvaluator::effectiveMass(int bodyI, int bodyJ) const {
  const double factor = model_.units.massFactor;
  const double massI = bodyI < 0 ? 0 : factor * model_.bodies[static_cast<size_t>(bodyI)].mass;
  const double massJ = bodyJ < 0 ? 0 : factor * model_.bodies[static_cast<size_t>(bodyJ)].mass;
  if (bodyI < 0) return massJ;
  if (bodyJ < 0) return massI;
  return massI * massJ / (massI + massJ);
}

void ContactEvaluator::setTime(double time, std::span<const BodyKinematics> bodies) {
  time_ = time;
  if (!lawsReadModel_) return;
  lawModel_.setState(time, bodies);
  // Computed here, before the pairs are evaluated on several threads, which then only read the context's caches.
  for (const int id : lawVariables_) lawModel_.variable(id);
  for (const int id : lawArrays_) lawModel_.arrayValue(id, 1);
}

void ContactEvaluator::detect(std::span<const BodyKinematics> bodies) {
  bodies_ = bodies;
  if (empty()) return;
  const bool moved = placeGraphics(bodies);
  // The integrator asks again at a state it has asked about (the crossings, then the accepted step, then the
  // Jacobian, all at the step's end): the same poses find the same contacts. Whether each pair is touching is kept
  // up to date on the candidates by applyCrossings and synchronise.
  if (!moved) return;
  detection_.detected = true;
  ++detections_;
  detection_.stamp = ++detectionStamps_;
  detection_.candidates.clear();
  detection_.points.clear();
  detection_.activePairs.clear();
  // The candidates are the kept pairs whose boxes overlap: exactly the pairs a broad phase over the boxes would
  // give, in its order.
  if (closeGraphics_.update(detection_.boxes)) {
    keptPairs_.clear();
    forEachOrientedPair(*contacts_, roles_, closeGraphics_.kept(), [this](int element, int graphicI, int graphicJ) {
      keptPairs_.push_back({element, graphicI, graphicJ});
    });
  }
  const int pairCount = static_cast<int>(keptPairs_.size());
  if (parallel_->threads() == 1 || pairCount <= kSerialDetectionPairs) {
    detectPairs(0, pairCount, detection_.candidates, detection_.points);
  } else {
    // Blocks of fixed size, joined in order: the same candidates and points as one thread finds.
    const int blockCount = ParallelLoop::blockCount(pairCount, kPairsPerDetectionBlock);
    if (static_cast<int>(detectionBlocks_.size()) < blockCount) {
      detectionBlocks_.resize(static_cast<size_t>(blockCount));
    }
    parallel_->runBlocks(pairCount, kPairsPerDetectionBlock, [&](int b, int begin, int end) {
      DetectionBlock& block = detectionBlocks_[static_cast<size_t>(b)];
      block.candidates.clear();
      block.points.clear();
      detectPairs(begin, end, block.candidates, block.points);
    });
    for (int b = 0; b < blockCount; ++b) {
      const DetectionBlock& block = detectionBlocks_[static_cast<size_t>(b)];
      const int offset = static_cast<int>(detection_.points.size());
      detection_.points.insert(detection_.points.end(), block.points.begin(), block.points.end());
      for (Candidate candidate : block.candidates) {
        candidate.firstPoint += offset;
        detection_.candidates.push_back(candidate);
      }
    }
  }
  for (int index = 0; index < static_cast<int>(detection_.candidates.size()); ++index) {
    const Candidate& candidate = detection_.candidates[static_cast<size_t>(index)];
    const ForceContact& contact = element(candidate.element);
    const bool fieldActive =
        contact.normalLaw && contact.normalLaw->field && candidate.distance <= contact.options.fieldRange;
    if (candidate.pointCount > 0 || fieldActive) {
      detection_.activePairs.push_back({index, contacts_->graphics[static_cast<size_t>(candidate.graphicI)].body,
                              contacts_->graphics[static_cast<size_t>(candidate.graphicJ)].body});
    }
  }
}

void ContactEvaluator::setDetectionAside() {
  std::swap(detection_, aside_);
  // The detection in its place starts afresh: every graphic placed, at its full count.
  detection_.boxes.resize(aside_.boxes.size());
  detection_.poses.resize(aside_.poses.size());
  detection_.detected = false;
}

void ContactEvaluator::takeDetectionBack() { std::swap(detection_, aside_); }

bool ContactEvaluator::placeGraphics(std::span<const BodyKinematics> bodies) {
  const int graphicCount = static_cast<int>(detection_.poses.size());
  const bool first = !detection_.detected;
  moved_.resize(detection_.poses.size());
  parallel_->run(graphicCount, kGraphicsPerTask, [&](int begin, int end) {
    for (size_t g = static_cast<size_t>(begin); g < static_cast<size_t>(end); ++g) {
      const ContactGraphic& graphic = contacts_->graphics[g];
      const Pose pose = placeGraphic(graphic, kinematicsOf(graphic.body, bodies));
      const Pose& before = detection_.poses[g];
      moved_[g] = first || pose.position != before.position || pose.rotation != before.rotation;
      if (!moved_[g]) continue;
      detection_.poses[g] = pose;
      detection_.boxes[g] = boundsOf(graphic.shape, pose).inflated(proximity_[g]);
    }
  });
  return std::find(moved_.begin(), moved_.end(), 1) != moved_.end();
}

void ContactEvaluator::detectPairs(int begin, int end, std::vector<Candidate>& candidates,
                                   std::vector<ContactPoint>& points) const {
  for (int k = begin; k < end; ++k) {
    const PairKey& pair = keptPairs_[static_cast<size_t>(k)];
    const size_t i = static_cast<size_t>(pair.graphicI), j = static_cast<size_t>(pair.graphicJ);
    if (!detection_.boxes[i].overlaps(detection_.boxes[j])) continue;
    const int firstPoint = static_cast<int>(points.size());
    const double distance =
        collide(contacts_->graphics[i].shape, detection_.poses[i], contacts_->graphics[j].shape, detection_.poses[j],
                proximity_[i] + proximity_[j], points, element(pair.element).options);
    const int pointCount = static_cast<int>(points.size()) - firstPoint;
    const bool touching = isTouching(pair);
    // An infinite plane's box is its half-space, all of space when it is not level with a ground axis: a pair with it
    // is within reach as its gap says, as the boxes of other pairs say.
    const bool withPlane = contacts_->graphics[i].shape.type == ShapeType::Plane ||
                           contacts_->graphics[j].shape.type == ShapeType::Plane;
    if (withPlane && !touching && pointCount == 0 && distance > proximity_[i] + proximity_[j]) continue;
    candidates.push_back({pair.element, pair.graphicI, pair.graphicJ, distance, firstPoint, pointCount, touching});
  }
}

template <class Evaluate>
void ContactEvaluator::forEachActivePair(const Evaluate& evaluate) const {
  const int count = static_cast<int>(detection_.activePairs.size());
  // User code (subroutines, named laws) is called from one thread, in order.
  if (runsUserCode_) {
    for (int k = 0; k < count; ++k) evaluate(k);
    return;
  }
  parallel_->run(count, kActivePairsPerTask, [&](int begin, int end) {
    for (int k = begin; k < end; ++k) evaluate(k);
  });
}

namespace {

// Where a graphic's reference marker is in ground when its body (null: ground) has the given kinematics.
Pose placeMarker(const ContactGraphic& graphic, const BodyKinematics* body) {
  if (!body) return graphic.marker;
  return {body->position + body->rotation * graphic.marker.position, body->rotation * graphic.marker.rotation};
}

// The forces on both bodies of a pair from a force on I at `at` (and its opposite on J).
void addForce(PairLoads& loads, const Vector3& force, const Vector3& at, const Vector3& centreI,
              const Vector3& centreJ) {
  loads.forceOnI += force;
  loads.torqueOnI += (at - centreI).cross(force);
  loads.forceOnJ -= force;
  loads.torqueOnJ -= (at - centreJ).cross(force);
}

// What contacts.csv says of the points at a pair's largest depth (a patch shares its depth): their rate and slip
// weighted by the part of the force each carries.
struct DeepestPatch {
  double depth = -1, shares = 0, rate = 0, slip = 0;
  Vector3 normal = Vector3::Zero();
  Vector3 slipVector = Vector3::Zero();
  void add(const LawPoint& point) {
    const ContactPoint& contact = *point.contact;
    if (contact.depth > depth) *this = {contact.depth, 0, 0, 0, contact.normal, Vector3::Zero()};
    if (contact.depth < depth) return;
    shares += contact.share;
    rate += contact.share * point.penetrationRate;
    slip += contact.share * point.slip.norm();
    slipVector += contact.share * point.slip;
  }
};

// The energy a normal law stores at depth δ, ∫₀^δ f(s, 0) ds, by quadrature of the law itself (any law: built-in,
// named or a subroutine). With s = δu² the integrand of a power law k·s^e becomes 2kδ^(e+1)·u^(2e+1): a polynomial
// for IMPACT's e = 1.5 and LINEAR's 1, and smooth at the onset for any e, where f itself may not be.
template <class ElasticForce>
double storedElasticEnergy(const ElasticForce& elasticForce, double depth) {
  if (!(depth > 0)) return 0;
  return integrate([&](double u) { return elasticForce(depth * u * u) * 2 * depth * u; }, 0.0, 1.0);
}

}  // namespace

std::span<const ContactPoint> ContactEvaluator::detectedPoints(const Candidate& c) const {
  return {detection_.points.data() + c.firstPoint, static_cast<size_t>(c.pointCount)};
}

ContactEvaluator::PairState ContactEvaluator::pairOf(const Candidate& c, std::span<const BodyKinematics> bodies) const {
  const ContactGraphic& graphicI = contacts_->graphics[static_cast<size_t>(c.graphicI)];
  const ContactGraphic& graphicJ = contacts_->graphics[static_cast<size_t>(c.graphicJ)];
  return {c.element,
          c.graphicI,
          c.graphicJ,
          c.distance,
          detectedPoints(c),
          kinematicsOf(graphicI.body, bodies),
          kinematicsOf(graphicJ.body, bodies),
          detection_.poses[static_cast<size_t>(c.graphicI)],
          detection_.poses[static_cast<size_t>(c.graphicJ)]};
}

namespace {

// The friction force at a point. In the Jacobian's velocity columns (chordSlipSpeed > 0: the slip speed at the
// detected state; see beginDifferencing) it is linearised along the slip as the chord from zero slip: the law's force
// at that speed in the slip's direction, times the slip speed over it. That is the law's force at the detected state,
// and the law's slope across the slip, but along it the chord's slope μ(v)·N/v instead of the law's μ'(v)·N. Why:
// beyond the stiction transition μ is flat, so Newton, from a slip there, steps as if friction did not resist and
// lands across zero slip, on the other flat side, then back; it diverges wherever h·μN/m exceeds the transition
// velocity. With the chord each iterate shrinks the slip toward zero without crossing it. Only the iteration matrix
// changes: the residual, so the solution, is the law's. (The 100-sphere pile, 2 s: Newton failures 916 -> 588,
// Jacobians 2828 -> 1957; the 1000-sphere pile, 0.3 s: 1290 -> 506 and 3934 -> 1553. It has a cost where μ falls
// between the transition velocities: models/bracket_down_stairs.xml, μs 0.2 > μd 0.15, takes 8420 -> 9008 steps; the
// law's slope kept there made models/cylinder_ramp.xml struggle.)
Vector3 frictionForce(const FrictionForceLaw& law, const LawPair& pair, const LawPoint& point, double normalForce,
                      double chordSlipSpeed) {
  if (!(chordSlipSpeed > 0)) return law.force(pair, point, normalForce);  // residuals: the law itself
  const double slipSpeed = point.slip.norm();
  if (!(slipSpeed > 0)) return law.force(pair, point, normalForce);
  LawPoint atChordSpeed = point;
  atChordSpeed.slip = point.slip * (chordSlipSpeed / slipSpeed);
  return law.force(pair, atChordSpeed, normalForce) * (slipSpeed / chordSlipSpeed);
}

}  // namespace

PairLoads ContactEvaluator::pairForces(const PairState& pair, Evaluation evaluation, PairReport* report,
                                       std::vector<ContactPostPoint>* post, ContactEnergy* energy) {
  const ForceContact& element = this->element(pair.element);
  const ContactLaws& laws = laws_[static_cast<size_t>(pair.element)];
  const Vector3 centreI = pair.bodyI ? pair.bodyI->position : Vector3::Zero();
  const Vector3 centreJ = pair.bodyJ ? pair.bodyJ->position : Vector3::Zero();
  PairLoads loads;
  double deepest = 0;
  for (const ContactPoint& point : pair.points) deepest = std::max(deepest, point.depth);
  if (!pair.points.empty() && deepest <= element.options.ignoreDeeperThan) {
    // Each point of a patch: the law acts at the patch's depth with the point's own motion, and the point carries its
    // share of that force; its friction follows the normal force it carries.
    LawPair lawPair = lawPairOf(pair, evaluation);
    SlipTally slips;
    if (lawPair.advancing) lawPair.slipTally = &slips;
    Vector3 centroid = Vector3::Zero();  // of the points weighted by the part of the force each carries
    DeepestPatch deepestPatch;
    for (int k = 0; k < static_cast<int>(pair.points.size()); ++k) {
      const LawPoint point = lawPointOf(pair, k);
      const double normalForce = point.contact->share * laws.normal->force(lawPair, point);
      const double chordSlipSpeed =
          k < static_cast<int>(pair.chordSlipSpeeds.size()) ? pair.chordSlipSpeeds[static_cast<size_t>(k)] : 0.0;
      const Vector3 friction = frictionForce(*laws.friction, lawPair, point, normalForce, chordSlipSpeed);
      addForce(loads, normalForce * point.contact->normal + friction, point.at, centreI, centreJ);
      if (energy) addPointEnergy(laws, lawPair, point, normalForce, friction, *energy);
      if (post) {
        const Vector3 relative = point.slip - point.penetrationRate * point.contact->normal;
        post->push_back({point.contact->depth, point.penetrationRate, point.slip.norm(), point.at, relative,
                         point.contact->normal, normalForce * point.contact->normal, friction});
      }
      if (report && point.contact->cloudPoint >= 0 &&
          point.contact->cloudPoint < static_cast<int>(report->cloudPoints.size())) {
        CloudPointReport& row = report->cloudPoints[static_cast<size_t>(point.contact->cloudPoint)];
        row.inContact = true;
        row.penetration = point.contact->depth;
        row.separation = -point.contact->depth;
        row.normalForce = normalForce;
        row.frictionForce = friction.norm();
      }
      if (report) {
        report->normalForce += normalForce;
        report->frictionForce += friction.norm();
        centroid += point.contact->share * point.at;
        deepestPatch.add(point);
      }
    }
    if (slips.points > 0) {
      const bool slipped = slips.slippedBefore == slips.points, slipsNow = slips.slipsNow == slips.points;
      if (slipped != slipsNow) {
        slipChanges_.push_back({time_, &element, contacts_->graphics[static_cast<size_t>(pair.graphicI)].id,
                                contacts_->graphics[static_cast<size_t>(pair.graphicJ)].id, slipsNow});
      }
    }
    if (report) {
      report->points = static_cast<int>(pair.points.size());
      double shares = 0;
      for (const ContactPoint& point : pair.points) shares += point.share;
      report->point = centroid / shares;
      report->penetration = deepestPatch.depth;
      report->penetrationRate = deepestPatch.rate / deepestPatch.shares;
      report->slipSpeed = deepestPatch.slip / deepestPatch.shares;
      report->normal = deepestPatch.normal;
      report->slipVelocity = deepestPatch.slipVector / deepestPatch.shares;
    }
  }
  addFieldLoads(pair, loads, energy);
  if (report) {
    report->force = loads.forceOnI;
    report->torque = loads.torqueOnI;
  }
  return loads;
}

void ContactEvaluator::addSensing(const PairState& pair, PairReport& report) const {
  if (report.points == 0) return;  // apart: Simscape's zeros and identities, as PairReport starts
  // The contact frame, fixed to J's graphic as an EXPRESSION friction law's, and where it is on each graphic.
  const Pose markerI = placeMarker(contacts_->graphics[static_cast<size_t>(pair.graphicI)], pair.bodyI);
  const Pose markerJ = placeMarker(contacts_->graphics[static_cast<size_t>(pair.graphicJ)], pair.bodyJ);
  const Matrix3 frame = contactFrame(markerJ.rotation, report.normal);
  report.normalVelocity = -report.penetrationRate;
  report.tangentialVelocity = {frame.col(0).dot(report.slipVelocity), frame.col(1).dot(report.slipVelocity)};
  report.pointInJ = markerJ.rotation.transpose() * (report.point - markerJ.position);
  report.pointInI = markerI.rotation.transpose() * (report.point - markerI.position);
  report.frameInJ = eulerParametersFromRotation(markerJ.rotation.transpose() * frame);
  report.frameInI = eulerParametersFromRotation(markerI.rotation.transpose() * frame);
}

LawPair ContactEvaluator::lawPairOf(const PairState& pair, Evaluation evaluation) {
  const size_t e = static_cast<size_t>(pair.element);
  const ForceContact& element = this->element(pair.element);
  const ContactGraphic& graphicI = contacts_->graphics[static_cast<size_t>(pair.graphicI)];
  const ContactGraphic& graphicJ = contacts_->graphics[static_cast<size_t>(pair.graphicJ)];
  LawPair law;
  law.element = &element;
  law.time = time_;
  law.differencing = evaluation == Evaluation::Differencing;
  law.effectiveMass = effectiveMass(graphicI.body, graphicJ.body);
  law.bodyI = pair.bodyI;
  law.bodyJ = pair.bodyJ;
  law.subroutines = this;
  law.model = &lawModel_;
  setPairValues(element, graphicI, graphicJ, law);
  // CNFSUB and CFFSUB take points in marker frames; an expression friction law's frame is fixed to J's marker.
  if (element.userNormal || element.userFriction || !element.frictionExpressions.empty()) {
    law.markerI = placeMarker(graphicI, pair.bodyI);
    law.markerJ = placeMarker(graphicJ, pair.bodyJ);
  }
  // The contact's anchor exists once it has begun (at an accepted state); before, laws with state start from zero.
  Anchor* anchor = nullptr;
  if (element.userFriction || keepsLawState_[e]) {
    const auto found = touching_.find(PairKey{pair.element, pair.graphicI, pair.graphicJ});
    if (found != touching_.end()) anchor = &found->second;
  }
  if (element.userFriction && anchor) {
    const Vector3 onI = pair.bodyI ? Vector3(pair.bodyI->position + pair.bodyI->rotation * anchor->onI) : anchor->onI;
    const Vector3 onJ = pair.bodyJ ? Vector3(pair.bodyJ->position + pair.bodyJ->rotation * anchor->onJ) : anchor->onJ;
    law.displacement = onI - onJ;
  }
  law.advancing = evaluation == Evaluation::AcceptedStep && anchor;
  // Where each point's state starts from now, and how long ago that was. At an accepted step the stored state is
  // then advanced to it, point by point, by the law itself.
  const auto statesOf = [&](int stateSize, LawStateHistory Anchor::*history, std::vector<double>& zero,
                            double& elapsed) -> double* {
    elapsed = 0;
    if (stateSize == 0) return nullptr;
    const size_t numbers = pair.points.size() * static_cast<size_t>(stateSize);
    if (!anchor) {
      zero.assign(numbers, 0.0);
      return zero.data();
    }
    LawStateHistory& states = anchor->*history;
    states.reserve(numbers);
    return law.advancing ? states.advanceTo(time_, elapsed) : states.at(time_, elapsed);
  };
  const ContactLaws& laws = laws_[e];
  // The zeros are the thread's own: a built-in law with state (LINEAR_SHEAR) is evaluated by several threads at once.
  law.normalStates = statesOf(laws.normal->stateSize(), &Anchor::normalState,
                              threadScratch<std::vector<double>, struct ZeroNormalState>(), law.normalElapsed);
  law.frictionStates = statesOf(laws.friction->stateSize(), &Anchor::frictionState,
                                threadScratch<std::vector<double>, struct ZeroFrictionState>(), law.frictionElapsed);
  return law;
}

void ContactEvaluator::setPairValues(const ForceContact& element, const ContactGraphic& graphicI,
                                     const ContactGraphic& graphicJ, LawPair& law) {
  if (!element.valuesByPair) return;
  const NormalLaw* normal = element.userNormal ? nullptr : element.normalLaw;
  const FrictionLaw* friction = element.userFriction ? nullptr : element.frictionLaw;
  // The pair's values are the thread's own, as the zero states below: pairs are evaluated by several threads at once.
  // First what the pieces give (Contact_Surface, PFC's inheritance), then what a law sets from them (DIPOLE's emod:
  // kn, and with kratio the friction law's ks); the element checked at build that every pair gets every value.
  std::vector<double>& normalValues = threadScratch<std::vector<double>, struct PairNormalValues>();
  std::vector<double>& frictionValues = threadScratch<std::vector<double>, struct PairFrictionValues>();
  double shearStiffness = 0;
  if (normal) {
    normalValues = element.normalValues;
    inheritValues(normal->parameters, normalValues, graphicI.surface, graphicJ.surface);
    if (normal->variesByPair && normal->variesByPair(element.normalValues)) {
      const auto ballRadius = [](const ContactGraphic& graphic) {
        return graphic.shape.type == ShapeType::Sphere ? graphic.shape.radius : 0.0;
      };
      shearStiffness = normal->valuesForPair(element.normalValues, {ballRadius(graphicI), ballRadius(graphicJ)},
                                             normalValues);
    }
    law.normalValues = normalValues;
  }
  if (friction) {
    frictionValues = element.frictionValues;
    inheritValues(friction->parameters, frictionValues, graphicI.surface, graphicJ.surface);
    const int shearSlot = slotOf(friction->parameters, "ks");
    if (shearStiffness > 0 && shearSlot >= 0) frictionValues[static_cast<size_t>(shearSlot)] = shearStiffness;
    law.frictionValues = frictionValues;
  }
}

LawPoint ContactEvaluator::lawPointOf(const PairState& pair, int index) const {
  const ContactPoint& contact = pair.points[static_cast<size_t>(index)];
  LawPoint point;
  point.contact = &contact;
  point.index = index;
  point.at = 0.5 * (contact.pointOnA + contact.pointOnB);
  const Vector3 velocityI = pair.bodyI ? pair.bodyI->velocityAt(point.at) : Vector3::Zero();
  const Vector3 velocityJ = pair.bodyJ ? pair.bodyJ->velocityAt(point.at) : Vector3::Zero();
  const Vector3 relative = velocityI - velocityJ;
  const double normalVelocity = contact.normal.dot(relative);
  point.penetrationRate = -normalVelocity;
  point.slip = relative - normalVelocity * contact.normal;
  return point;
}

void ContactEvaluator::addPointEnergy(const ContactLaws& laws, const LawPair& lawPair, const LawPoint& point,
                                      double normalForce, const Vector3& friction, ContactEnergy& energy) const {
  // The law at zero rate, at any depth: its elastic part.
  ContactPoint resting = *point.contact;
  LawPoint atRest = point;
  atRest.contact = &resting;
  atRest.penetrationRate = 0;
  const auto elasticForce = [&](double depth) {
    resting.depth = depth;
    return laws.normal->force(lawPair, atRest);
  };
  const double share = point.contact->share;
  const double depth = point.contact->depth;
  const bool holdsEnergy = laws.normal->holdsEnergy();
  const double elastic = holdsEnergy ? elasticForce(depth) : 0.0;  // once: for a CNFSUB it is a call of user code
  // A friction law that holds energy (a shear spring) or damps has its part of −f·v taken out of the slip's.
  const FrictionEnergy held = laws.friction->energy(lawPair, point, normalForce);
  energy.dashpotPower += (normalForce - share * elastic) * point.penetrationRate + held.dashpotPower;
  energy.slipPower -= friction.dot(point.slip) + held.strainRate + held.dashpotPower;
  // A tilted patch stores ½·F·tilt at each point beyond the law's energy at its depth (a flat face under a linear law
  // rocks on a Winkler layer: exactly its energy).
  if (energy.withStrain) {
    const double stored = holdsEnergy ? storedElasticEnergy(elasticForce, depth) : 0.0;
    energy.strain += share * (stored + 0.5 * elastic * point.contact->tilt) + held.strain;
  }
}

namespace {

// The gap's gradient over the pose of each graphic (GapGradient), by central differences of the narrow phase's own
// gap: collision hands back no nearest points while shapes are apart, and differences serve every pair it measures
// (exact primitives, GJK, meshes) with the very gap the element reports. Steps: a millionth of the pair's size along
// each ground axis and a microradian about it. The truncation is of order step² (nil where the gap is linear in the
// step, a sphere's in translation), the rounding ε·|position|/step ≈ 2e-10·|position|/size of the gradient. J's turn
// follows from I's without more gaps: a common rigid turn about J's centre leaves the gap as it is, so
// ∂d/∂θ_J = −∂d/∂θ_I − (c_I − c_J) × ∂d/∂x_I.
GapGradient gapGradientOf(const Shape& shapeI, const Pose& poseI, const Shape& shapeJ, const Pose& poseJ,
                          double margin, const ContactOptions& options) {
  std::vector<ContactPoint>& ignored = threadScratch<std::vector<ContactPoint>, struct GapGradientPoints>();
  const auto gapWithI = [&](const Pose& movedI) {
    ignored.clear();
    return collide(shapeI, movedI, shapeJ, poseJ, margin, ignored, options);
  };
  const double step = 1e-6 * (shapeI.boundingRadius() + shapeJ.boundingRadius());
  constexpr double kTurn = 1e-6;
  GapGradient gradient;
  for (int axis = 0; axis < 3; ++axis) {
    Pose ahead = poseI, behind = poseI;
    ahead.position[axis] += step;
    behind.position[axis] -= step;
    gradient.translationI[axis] = (gapWithI(ahead) - gapWithI(behind)) / (ahead.position[axis] - behind.position[axis]);
    ahead = poseI;
    behind = poseI;
    ahead.rotation = Eigen::AngleAxisd(kTurn, Vector3::Unit(axis)).toRotationMatrix() * poseI.rotation;
    behind.rotation = Eigen::AngleAxisd(-kTurn, Vector3::Unit(axis)).toRotationMatrix() * poseI.rotation;
    gradient.rotationI[axis] = (gapWithI(ahead) - gapWithI(behind)) / (2 * kTurn);
  }
  gradient.rotationJ = -gradient.rotationI - (poseI.position - poseJ.position).cross(gradient.translationI);
  return gradient;
}

}  // namespace

void ContactEvaluator::addFieldLoads(const PairState& pair, PairLoads& loads, ContactEnergy* energy) const {
  const ForceContact& element = this->element(pair.element);
  if (!element.normalLaw || !element.normalLaw->field || pair.distance > element.options.fieldRange) return;
  // A field law's vectors (DIPOLE's moments) are given in each body's axes (REFERENCE §3), not in the axes of the
  // graphic's centre marker, which may be turned relative to its body: the law gets the graphic's centre with its
  // body's axes (ground's for a ground graphic).
  const Pose fieldI{pair.poseI.position, pair.bodyI ? pair.bodyI->rotation : Matrix3::Identity()};
  const Pose fieldJ{pair.poseJ.position, pair.bodyJ ? pair.bodyJ->rotation : Matrix3::Identity()};
  FieldInput input{fieldI, fieldJ, pair.distance, model_.units};
  if (element.normalLaw->needsGapGradient) {
    const size_t i = static_cast<size_t>(pair.graphicI), j = static_cast<size_t>(pair.graphicJ);
    input.gapGradient = gapGradientOf(contacts_->graphics[i].shape, pair.poseI, contacts_->graphics[j].shape,
                                      pair.poseJ, proximity_[i] + proximity_[j], element.options);
  }
  FieldOutput field;
  LawPair values;  // the pair's own moments where they are inherited from its pieces
  setPairValues(element, contacts_->graphics[static_cast<size_t>(pair.graphicI)],
                contacts_->graphics[static_cast<size_t>(pair.graphicJ)], values);
  element.normalLaw->field(values.normalValues.empty() ? LawValues(element.normalValues) : values.normalValues, input,
                           field);
  const Vector3 centreI = pair.bodyI ? pair.bodyI->position : Vector3::Zero();
  const Vector3 centreJ = pair.bodyJ ? pair.bodyJ->position : Vector3::Zero();
  loads.forceOnI += field.forceOnI;
  loads.torqueOnI += (pair.poseI.position - centreI).cross(field.forceOnI) + field.momentOnI;
  loads.forceOnJ += field.forceOnJ;
  loads.torqueOnJ += (pair.poseJ.position - centreJ).cross(field.forceOnJ) + field.momentOnJ;
  if (energy) {
    // Each dipole's force acts at its graphic's centre, its moment on its body.
    const auto power = [](const BodyKinematics* body, const Vector3& at, const Vector3& force, const Vector3& moment) {
      return body ? force.dot(body->velocityAt(at)) + moment.dot(body->angularVelocity) : 0.0;
    };
    energy->fieldPower += power(pair.bodyI, pair.poseI.position, field.forceOnI, field.momentOnI) +
                          power(pair.bodyJ, pair.poseJ.position, field.forceOnJ, field.momentOnJ);
  }
}

void ContactEvaluator::evaluatePairs(double time, std::span<const BodyKinematics> bodies, bool withReports) {
  setTime(time, bodies);
  const size_t count = detection_.activePairs.size();
  activeLoads_.resize(count);
  if (withReports) activeReports_.resize(count);
  forEachActivePair([&](int k) {
    const Candidate& c = candidateOf(k);
    const PairState pair = pairOf(c, bodies);
    PairReport* report = withReports ? &(activeReports_[static_cast<size_t>(k)] = PairReport{}) : nullptr;
    activeLoads_[static_cast<size_t>(k)] = pairForces(pair, Evaluation::Residual, report, nullptr);
    if (report) addSensing(pair, *report);
  });
  // The elements' totals are summed from these when CONTACT() first asks (contactLoads), not here: a residual
  // without a reader does no more than its loads.
  loadsDetection_ = detection_.stamp;
  reportsMeasured_ = withReports;
  elementLoadsSummed_ = false;
}

void ContactEvaluator::measure(double time, std::span<const BodyKinematics> bodies) {
  evaluatePairs(time, bodies, true);
}

void ContactEvaluator::sumElementLoads() const {
  // The pairs' loads belong to the detection they were evaluated at: their indices mean nothing in another.
  if (loadsDetection_ != detection_.stamp) {
    throw std::logic_error("ContactEvaluator::contactLoads: the detection changed since the loads were evaluated");
  }
  constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();
  ContactLoads start;
  if (reportsMeasured_) {
    start.separation = std::numeric_limits<double>::infinity();
  } else {
    // After addLoads(), which reports nothing: only the loads and the penetration are known.
    start.inContact = start.separation = start.normalForce = start.frictionForce = kNotMeasured;
    start.normalVelocity = kNotMeasured;
    start.tangentialVelocity = {kNotMeasured, kNotMeasured};
    start.pointInJ = start.pointInI = start.point = start.normal = Vector3::Constant(kNotMeasured);
    start.frameInJ = start.frameInI = Vector4::Constant(kNotMeasured);
  }
  std::fill(elementLoads_.begin(), elementLoads_.end(), start);
  std::vector<double> deepestTouching(elementLoads_.size(), -1.0);
  for (size_t k = 0; k < detection_.activePairs.size(); ++k) {
    const Candidate& c = candidateOf(static_cast<int>(k));
    const PairLoads& pairLoads = activeLoads_[k];
    ContactLoads& total = elementLoads_[static_cast<size_t>(c.element)];
    total.forceOnI += pairLoads.forceOnI;
    total.torqueOnI += pairLoads.torqueOnI;
    total.forceOnJ += pairLoads.forceOnJ;
    total.torqueOnJ += pairLoads.torqueOnJ;
    double deepest = 0;
    for (const ContactPoint& point : detectedPoints(c)) deepest = std::max(deepest, point.depth);
    // A pair deeper than ignore_penetration_larger_than exerts nothing, and contacts.csv reports no depth for it.
    if (deepest <= element(c.element).options.ignoreDeeperThan) {
      total.penetration = std::max(total.penetration, deepest);
    }
    if (!reportsMeasured_) continue;
    const PairReport& report = activeReports_[k];
    total.normalForce += report.normalForce;
    total.frictionForce += report.frictionForce;
    if (report.points == 0) continue;  // apart, or deeper than ignore_penetration_larger_than
    total.inContact = 1;
    // The frame of the deepest pair touching (the first of equals).
    double& deepestSoFar = deepestTouching[static_cast<size_t>(c.element)];
    if (report.penetration <= deepestSoFar) continue;
    deepestSoFar = report.penetration;
    total.normalVelocity = report.normalVelocity;
    total.tangentialVelocity = report.tangentialVelocity;
    total.pointInJ = report.pointInJ;
    total.pointInI = report.pointInI;
    total.frameInJ = report.frameInJ;
    total.frameInI = report.frameInI;
    total.point = report.point;
    total.normal = report.normal;
  }
  // Every pair within reach, touching or not, for the smallest distance; an element with none within reach has each
  // of its pairs measured (graphics on one body never pair), so that the distance stays finite and continuous for a
  // sensor's root function as a pair comes within reach.
  if (reportsMeasured_) {
    for (const Candidate& c : detection_.candidates) {
      double& separation = elementLoads_[static_cast<size_t>(c.element)].separation;
      separation = std::min(separation, c.distance);
    }
    std::vector<ContactPoint> ignored;
    for (size_t e = 0; e < elementLoads_.size(); ++e) {
      double& separation = elementLoads_[e].separation;
      if (std::isfinite(separation)) continue;
      const ForceContact& contact = element(static_cast<int>(e));
      for (const int i : contact.iGraphics) {
        for (const int j : contact.jGraphics) {
          const ContactGraphic& graphicI = contacts_->graphics[static_cast<size_t>(i)];
          const ContactGraphic& graphicJ = contacts_->graphics[static_cast<size_t>(j)];
          if (i == j || graphicI.body == graphicJ.body) continue;
          ignored.clear();
          separation = std::min(separation, collide(graphicI.shape, detection_.poses[static_cast<size_t>(i)],
                                                    graphicJ.shape, detection_.poses[static_cast<size_t>(j)],
                                                    std::numeric_limits<double>::infinity(), ignored,
                                                    contact.options));
        }
      }
    }
  }
  elementLoadsSummed_ = true;
}

std::optional<ContactLoads> ContactEvaluator::contactLoads(long id) const {
  const auto found = elementIndexById_.find(id);
  if (found == elementIndexById_.end()) return std::nullopt;
  if (!elementLoadsSummed_) sumElementLoads();
  return elementLoads_[static_cast<size_t>(found->second)];
}

void ContactEvaluator::addLoads(double time, std::span<const BodyKinematics> bodies, std::span<BodyLoad> loads) {
  evaluatePairs(time, bodies, measuringEveryEvaluation_);
  for (size_t k = 0; k < detection_.activePairs.size(); ++k) {
    const ActivePair& pair = detection_.activePairs[k];
    const PairLoads& pairLoads = activeLoads_[k];
    if (pair.bodyI >= 0) {
      loads[static_cast<size_t>(pair.bodyI)].force += pairLoads.forceOnI;
      loads[static_cast<size_t>(pair.bodyI)].torque += pairLoads.torqueOnI;
    }
    if (pair.bodyJ >= 0) {
      loads[static_cast<size_t>(pair.bodyJ)].force += pairLoads.forceOnJ;
      loads[static_cast<size_t>(pair.bodyJ)].torque += pairLoads.torqueOnJ;
    }
  }
}

ContactEnergy ContactEvaluator::energy(double time, std::span<const BodyKinematics> bodies, bool withStrain) {
  setTime(time, bodies);
  // Each pair's terms on their own, summed in the pairs' order.
  activeEnergy_.assign(detection_.activePairs.size(), ContactEnergy{withStrain});
  forEachActivePair([&](int k) {
    const Candidate& c = candidateOf(k);
    pairForces(pairOf(c, bodies), Evaluation::Differencing, nullptr, nullptr, &activeEnergy_[static_cast<size_t>(k)]);
  });
  ContactEnergy energy;
  energy.withStrain = withStrain;
  for (const ContactEnergy& pair : activeEnergy_) {
    energy.strain += pair.strain;
    energy.dashpotPower += pair.dashpotPower;
    energy.slipPower += pair.slipPower;
    energy.fieldPower += pair.fieldPower;
  }
  return energy;
}

std::optional<Vector3> ContactEvaluator::onlyVelocityPoint(const ActivePair& pair) const {
  const Candidate& c = detection_.candidates[static_cast<size_t>(pair.candidate)];
  if (c.pointCount != 1) return std::nullopt;
  const ContactPoint& point = detectedPoints(c).front();
  return 0.5 * (point.pointOnA + point.pointOnB);  // where lawPointOf takes its velocities
}

bool ContactEvaluator::turnsInPlace(const ActivePair& pair, int side) const {
  const Candidate& c = detection_.candidates[static_cast<size_t>(pair.candidate)];
  const ContactGraphic& graphic = contacts_->graphics[static_cast<size_t>(side == 0 ? c.graphicI : c.graphicJ)];
  const ForceContact& element = this->element(c.element);
  const bool fieldTurns = element.normalLaw && element.normalLaw->field;
  // A sphere with a tessellation may meet this pair as its facets, which turn.
  const bool exactSphere = graphic.shape.type == ShapeType::Sphere && !graphic.shape.surface;
  return exactSphere && graphic.local.position == Vector3::Zero() && !fieldTurns;
}

void ContactEvaluator::beginDifferencing(const ActivePair& pair, DifferencingScratch& scratch) const {
  std::vector<double>& speeds = scratch.chordSlipSpeeds;
  speeds.clear();
  const Candidate& c = detection_.candidates[static_cast<size_t>(pair.candidate)];
  // A law with state per point keeps its own slope: its force is not a function of the slip alone.
  if (frictionSlope_ != FrictionSlope::Chord || laws_[static_cast<size_t>(c.element)].friction->stateSize() > 0) return;
  const PairState detected = pairOf(c, bodies_);
  for (int k = 0; k < static_cast<int>(detected.points.size()); ++k) {
    speeds.push_back(lawPointOf(detected, k).slip.norm());
  }
}

PairLoads ContactEvaluator::pairLoads(const ActivePair& pair, const BodyKinematics* bodyI, const BodyKinematics* bodyJ,
                                     Geometry geometry, DifferencingScratch& scratch) {
  const Candidate& c = detection_.candidates[static_cast<size_t>(pair.candidate)];
  const ContactGraphic& gi = contacts_->graphics[static_cast<size_t>(c.graphicI)];
  const ContactGraphic& gj = contacts_->graphics[static_cast<size_t>(c.graphicJ)];
  // A graphic is where detect() placed it when its body has the kinematics detect() saw, and whenever the points
  // are the detected ones (the bodies' positions are those it saw); only a body the Jacobian moves is placed anew.
  const auto poseOf = [&](int graphic, const ContactGraphic& g, const BodyKinematics* body) {
    if (geometry == Geometry::Detected || body == kinematicsOf(g.body, bodies_)) {
      return detection_.poses[static_cast<size_t>(graphic)];
    }
    return placeGraphic(g, body);
  };
  // The pair as detected (points, distance), with the bodies where the Jacobian moves them.
  PairState state{c.element, c.graphicI, c.graphicJ, c.distance, detectedPoints(c), bodyI, bodyJ,
                  poseOf(c.graphicI, gi, bodyI), poseOf(c.graphicJ, gj, bodyJ)};
  // The chord is friction's slope against the slip velocity: the velocity columns'. (A moved position changes the
  // slip only through the point's lever arm, and a mesh patch's points found anew need not match the detected ones.)
  if (geometry == Geometry::Detected) {
    state.chordSlipSpeeds = scratch.chordSlipSpeeds;
  } else {
    std::vector<ContactPoint>& points = scratch.points;
    points.clear();
    const double margin = proximity_[static_cast<size_t>(c.graphicI)] + proximity_[static_cast<size_t>(c.graphicJ)];
    state.distance = collide(gi.shape, state.poseI, gj.shape, state.poseJ, margin, points, element(c.element).options);
    state.points = points;
  }
  return pairForces(state, Evaluation::Differencing, nullptr, nullptr);
}

void ContactEvaluator::crossings(std::vector<Crossing>& found) const {
  found.clear();
  for (const Candidate& c : detection_.candidates) {
    if (!element(c.element).zeroCrossing || (c.distance < 0) == c.touching) continue;
    found.push_back({c.element, c.graphicI, c.graphicJ, !c.touching, c.distance});
  }
}

double ContactEvaluator::crossingDistance(const Crossing& crossing, const BodyKinematics* bodyI,
                                          const BodyKinematics* bodyJ) const {
  const size_t i = static_cast<size_t>(crossing.graphicI), j = static_cast<size_t>(crossing.graphicJ);
  const ContactGraphic& graphicI = contacts_->graphics[i];
  const ContactGraphic& graphicJ = contacts_->graphics[j];
  crossingPoints_.clear();
  // As detectPairs has it, so that at a detected state the two agree to the bit.
  return collide(graphicI.shape, placeGraphic(graphicI, bodyI), graphicJ.shape, placeGraphic(graphicJ, bodyJ),
                 proximity_[i] + proximity_[j], crossingPoints_, element(crossing.element).options);
}

std::pair<int, int> ContactEvaluator::crossingBodies(const Crossing& crossing) const {
  return {contacts_->graphics[static_cast<size_t>(crossing.graphicI)].body,
          contacts_->graphics[static_cast<size_t>(crossing.graphicJ)].body};
}

int ContactEvaluator::applyCrossings(std::span<const Crossing> crossings, double time,
                                     std::vector<ContactEvent>& events) {
  setTime(time, bodies_);
  int smoothness = kSmoothForce;
  for (const Crossing& crossing : crossings) {
    const auto samePair = [&](const Candidate& c) {
      return c.element == crossing.element && c.graphicI == crossing.graphicI && c.graphicJ == crossing.graphicJ;
    };
    const auto candidate = std::find_if(detection_.candidates.begin(), detection_.candidates.end(), samePair);
    if (candidate == detection_.candidates.end() || candidate->touching == crossing.onset) continue;
    const ContactChange change = crossing.onset ? ContactChange::Onset : ContactChange::Separation;
    smoothness = std::min(smoothness, laws_[static_cast<size_t>(crossing.element)].smoothnessAt(change));
    candidate->touching = crossing.onset;
    if (crossing.onset) markTouching(*candidate);
    else stopTouching(PairKey{crossing.element, crossing.graphicI, crossing.graphicJ});
    events.push_back({time, &element(crossing.element),
                      contacts_->graphics[static_cast<size_t>(crossing.graphicI)].id,
                      contacts_->graphics[static_cast<size_t>(crossing.graphicJ)].id, crossing.onset, true});
  }
  advanceLawStates();
  return smoothness;
}

void ContactEvaluator::synchronise(double time, std::vector<ContactEvent>& events) {
  setTime(time, bodies_);
  size_t touchingCandidates = 0;
  for (Candidate& c : detection_.candidates) {
    const bool touching = c.distance < 0;
    touchingCandidates += touching ? 1 : 0;
    if (touching == c.touching) continue;
    c.touching = touching;
    if (touching) markTouching(c);
    else stopTouching(PairKey{c.element, c.graphicI, c.graphicJ});
    events.push_back({time, &element(c.element),
                      contacts_->graphics[static_cast<size_t>(c.graphicI)].id,
                      contacts_->graphics[static_cast<size_t>(c.graphicJ)].id, touching, false});
  }
  // A touching pair that is no longer even close (a body moved far within one step) is apart.
  if (touching_.size() != touchingCandidates) {
    std::unordered_map<PairKey, Anchor, PairKeyHash> stillTouching;
    for (const Candidate& c : detection_.candidates) {
      if (!c.touching) continue;
      const PairKey key{c.element, c.graphicI, c.graphicJ};
      stillTouching.emplace(key, touching_.at(key));
    }
    for (const auto& [key, anchor] : touching_) {
      if (stillTouching.count(key)) continue;
      events.push_back({time, &element(key.element),
                        contacts_->graphics[static_cast<size_t>(key.graphicI)].id,
                        contacts_->graphics[static_cast<size_t>(key.graphicJ)].id, false, false});
    }
    keepTouching(std::move(stillTouching));
  }
  advanceLawStates();
}

void ContactEvaluator::advanceLawStates() {
  if (!anyLawState_) return;
  for (const Candidate& c : detection_.candidates) {
    if (!c.touching || c.pointCount == 0 || !keepsLawState_[static_cast<size_t>(c.element)]) continue;
    pairForces(pairOf(c, bodies_), Evaluation::AcceptedStep, nullptr, nullptr);
  }
}

void ContactEvaluator::report(double time, std::span<const BodyKinematics> bodies, std::vector<PairReport>& reports,
                              Reach reach, Detail detail) {
  setTime(time, bodies);
  reports.clear();
  if (empty()) return;
  detect(bodies);
  for (const Candidate& c : detection_.candidates) {
    if (reach == Reach::Touching && !c.touching) continue;
    const ForceContact& element = this->element(c.element);
    PairReport report;
    report.element = &element;
    report.elementId = element.id;
    report.iGraphic = contacts_->graphics[static_cast<size_t>(c.graphicI)].id;
    report.jGraphic = contacts_->graphics[static_cast<size_t>(c.graphicJ)].id;
    report.separation = std::max(c.distance, 0.0);
    report.bodyI = contacts_->graphics[static_cast<size_t>(c.graphicI)].body;
    report.bodyJ = contacts_->graphics[static_cast<size_t>(c.graphicJ)].body;
    reportCloudPoints(c, report);
    const PairState pair = pairOf(c, bodies);
    pairForces(pair, Evaluation::Residual, &report, nullptr);
    if (detail == Detail::WithSensing) addSensing(pair, report);
    report.inContact = report.points > 0;
    report.intervalMaxNormalForce = report.normalForce;
    report.intervalMaxPenetration = report.penetration;
    reports.push_back(report);
  }
}

void ContactEvaluator::reportCloudPoints(const Candidate& c, PairReport& report) const {
  const ContactGraphic& graphicI = contacts_->graphics[static_cast<size_t>(c.graphicI)];
  const ContactGraphic& graphicJ = contacts_->graphics[static_cast<size_t>(c.graphicJ)];
  const bool cloudIsI = graphicI.shape.type == ShapeType::PointCloud;
  if (!cloudIsI && graphicJ.shape.type != ShapeType::PointCloud) return;
  const ContactGraphic& cloud = cloudIsI ? graphicI : graphicJ;
  const ContactGraphic& other = cloudIsI ? graphicJ : graphicI;
  const Pose& cloudPose = detection_.poses[static_cast<size_t>(cloudIsI ? c.graphicI : c.graphicJ)];
  const Pose& otherPose = detection_.poses[static_cast<size_t>(cloudIsI ? c.graphicJ : c.graphicI)];
  const std::vector<Vector3>& points = cloud.shape.cloud->points;
  report.cloudGraphic = cloud.id;
  report.cloudPoints.resize(points.size());
  // Each point's own gap: the point alone against the other graphic (only at outputs).
  const Shape point = Shape::point();
  std::vector<ContactPoint>& ignored = threadScratch<std::vector<ContactPoint>, struct CloudPointGaps>();
  for (size_t k = 0; k < points.size(); ++k) {
    ignored.clear();
    CloudPointReport& row = report.cloudPoints[k];
    row.index = static_cast<int>(k);
    row.separation = collide(point, Pose{cloudPose.position + cloudPose.rotation * points[k], Matrix3::Identity()},
                             other.shape, otherPose, std::numeric_limits<double>::infinity(), ignored);
  }
}

std::optional<ContactEvaluator::Culprit> ContactEvaluator::hardestContactOn(int body, double time,
                                                                          std::span<const BodyKinematics> bodies) {
  std::vector<PairReport> reports;
  report(time, bodies, reports, Reach::Close);
  std::optional<Culprit> hardest;
  for (const PairReport& pair : reports) {
    if (!pair.inContact) continue;
    if (pair.bodyI != body && pair.bodyJ != body) continue;
    if (hardest && pair.force.norm() <= hardest->pair.force.norm()) continue;
    hardest = culpritOf(pair);
  }
  return hardest;
}

ContactEvaluator::Culprit ContactEvaluator::culpritOf(const PairReport& pair) const {
  const ForceContact& element = *pair.element;
  Culprit culprit{pair, 0, effectiveMass(pair.bodyI, pair.bodyJ)};
  // dFn/dδ of the law by a central difference at the deepest point, where the law can be probed (a subroutine's,
  // a law with state, or one whose values are the pair's own, inherited or from emod, is unknown).
  const NormalForceLaw& law = *laws_[static_cast<size_t>(&element - contacts_->elements.data())].normal;
  if (law.canProbe() && !element.valuesByPair && pair.penetration > 0) {
    const double delta = pair.penetration, step = 1e-6 * delta;
    LawPair lawPair;
    lawPair.element = &element;
    lawPair.time = time_;
    lawPair.model = &lawModel_;
    lawPair.effectiveMass = culprit.effectiveMass;
    ContactPoint contact;
    contact.normal = pair.normal;
    LawPoint point;
    point.contact = &contact;
    point.penetrationRate = pair.penetrationRate;
    contact.depth = delta + step;
    const double above = law.force(lawPair, point);
    contact.depth = delta - step;
    const double below = law.force(lawPair, point);
    culprit.stiffness = (above - below) / (2 * step);
  }
  return culprit;
}

double ContactEvaluator::Culprit::period() const {
  if (!(stiffness > 0 && effectiveMass > 0)) return std::numeric_limits<double>::infinity();
  return 2 * std::numbers::pi * std::sqrt(effectiveMass / stiffness);
}

std::optional<ContactEvaluator::Culprit> ContactEvaluator::fastestContact(double time,
                                                                        std::span<const BodyKinematics> bodies) {
  std::vector<PairReport> reports;
  report(time, bodies, reports, Reach::Close);
  std::optional<Culprit> fastest;
  for (const PairReport& pair : reports) {
    if (!pair.inContact) continue;
    const Culprit culprit = culpritOf(pair);
    if (std::isfinite(culprit.period()) && (!fastest || culprit.period() < fastest->period())) fastest = culprit;
  }
  return fastest;
}

// ---- touching pairs ------------------------------------------------------------------------------------------

ContactEvaluator::Anchor ContactEvaluator::anchorOf(const Candidate& c, std::span<const BodyKinematics> bodies) const {
  // The centroid of the pair's contact points (the gap's closest points when it has none yet), held by each body.
  Vector3 at = Vector3::Zero();
  for (int k = 0; k < c.pointCount; ++k) {
    const ContactPoint& point = detection_.points[static_cast<size_t>(c.firstPoint + k)];
    at += 0.5 * (point.pointOnA + point.pointOnB);
  }
  if (c.pointCount > 0) at /= c.pointCount;
  const auto heldBy = [&](int graphic) {
    const BodyKinematics* body = kinematicsOf(contacts_->graphics[static_cast<size_t>(graphic)].body, bodies);
    return body ? Vector3(body->rotation.transpose() * (at - body->position)) : at;
  };
  return {heldBy(c.graphicI), heldBy(c.graphicJ)};
}

void ContactEvaluator::markTouching(const Candidate& c) {
  Anchor anchor = anchorOf(c, bodies_);
  anchor.normalState.start(time_);
  anchor.frictionState.start(time_);
  startTouching(PairKey{c.element, c.graphicI, c.graphicJ}, std::move(anchor));
}

bool ContactEvaluator::isTouching(const PairKey& pair) const {
  const std::vector<PairKey>& pairs = touchingByGraphic_[static_cast<size_t>(pair.graphicI)];
  return std::find(pairs.begin(), pairs.end(), pair) != pairs.end();
}

void ContactEvaluator::startTouching(const PairKey& pair, Anchor anchor) {
  touching_[pair] = std::move(anchor);
  if (!isTouching(pair)) touchingByGraphic_[static_cast<size_t>(pair.graphicI)].push_back(pair);
}

void ContactEvaluator::stopTouching(const PairKey& pair) {
  touching_.erase(pair);
  std::vector<PairKey>& pairs = touchingByGraphic_[static_cast<size_t>(pair.graphicI)];
  pairs.erase(std::remove(pairs.begin(), pairs.end(), pair), pairs.end());
}

void ContactEvaluator::keepTouching(std::unordered_map<PairKey, Anchor, PairKeyHash> stillTouching) {
  touching_.swap(stillTouching);
  for (std::vector<PairKey>& pairs : touchingByGraphic_) pairs.clear();
  for (const auto& [pair, anchor] : touching_) touchingByGraphic_[static_cast<size_t>(pair.graphicI)].push_back(pair);
}

std::vector<ContactEvaluator::SubroutineCost> ContactEvaluator::takeSubroutineCosts() {
  std::vector<SubroutineCost> costs;
  for (auto& [routine, cost] : costs_) {
    if (cost.calls > 0) costs.push_back(cost);
    cost.calls = 0;
    cost.seconds = 0;
  }
  return costs;
}

std::vector<SubroutineMessage> ContactEvaluator::takeMessages() {
  for (std::string& line : takeLawMessages()) messages_.push_back({nullptr, std::move(line), false});
  return std::exchange(messages_, {});
}

// ---- user subroutines ------------------------------------------------------------------------------------------

template <class Call>
auto ContactEvaluator::invoke(const ForceContact& element, const UserSubroutine& routine, const Call& call) {
  callingElement_ = &element;
  callingRoutine_ = &routine;
  ScopedSubroutineHost host(*this);
  try {
    if (!countingCalls_) return callSubroutine(routine, call);
    // DebugOutput: each call counted and timed (when it returns; a failure ends the run anyway).
    struct Timed {
      SubroutineCost& cost;
      std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
      ~Timed() {
        cost.calls += 1;
        cost.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      }
    };
    SubroutineCost& cost = costs_[&routine];
    cost.element = &element;
    cost.function = routine.function;
    const Timed timed{cost};
    return callSubroutine(routine, call);
  } catch (const SubroutineError& error) {
    subroutineFailed(element, routine, error);
    throw;
  }
}

double ContactEvaluator::callNormalSubroutine(const ForceContact& element, NormalCall call) {
  call.id = static_cast<int>(element.id);
  call.time = time_;
  const double force = invoke(element, *element.userNormal, call);
  if (!call.iflag) checkFinite(element, *element.userNormal, std::span<const double>(&force, 1));
  return force;
}

std::array<double, 3> ContactEvaluator::callFrictionSubroutine(const ForceContact& element, FrictionCall call) {
  call.id = static_cast<int>(element.id);
  call.time = time_;
  const std::array<double, 3> result = invoke(element, *element.userFriction, call);
  if (!call.iflag) checkFinite(element, *element.userFriction, result);
  return result;
}

void ContactEvaluator::callContactPost(const ForceContact& element, int iGraphic, int jGraphic, int endFlag) {
  const UserSubroutine& routine = *element.contactPost;
  const int index = static_cast<int>(&element - contacts_->elements.data());
  const ContactPostCall call{.id = static_cast<int>(element.id), .iGraphic = iGraphic, .jGraphic = jGraphic,
                             .time = time_, .iflag = contactPostStarted_.insert(index).second, .endflg = endFlag != 0};
  invoke(element, routine, call);
}

void ContactEvaluator::subroutineFailed(const ForceContact& element, const UserSubroutine& routine,
                                        const SubroutineError& error) {
  failedRoutines_.insert(&routine);
  // The reason to stop is one line, for the console too; the details (Python's traceback) go to the log before it,
  // indented.
  std::string reason = describeContact(element) + ": " + error.what() + " at t=" + formatReal(time_);
  if (!error.details().empty()) {
    messages_.push_back({&element, tracebackText(routine, error), true});
    reason += " (traceback in run.log)";
  }
  if (!stopRequest_) {
    stopRequest_ = reason;
    stopTime_ = time_;
  }
}

void ContactEvaluator::checkFinite(const ForceContact& element, const UserSubroutine& routine,
                                   std::span<const double> values) {
  for (const double value : values) {
    if (std::isfinite(value)) continue;
    const std::string key = describeContact(element) + routine.function + " not finite";
    const std::string returned = routine.describe() + " returned " + formatReal(value) + " at t=" + formatReal(time_);
    if (!firstNonFiniteReturn_) firstNonFiniteReturn_ = describeContact(element) + ": " + returned;
    if (reportedProblems_.insert(key).second) {
      messages_.push_back({&element, returned + "; the integrator will retry with smaller steps", true});
    }
    return;
  }
}

void ContactEvaluator::startSubroutines(double time) {
  setTime(time, bodies_);
  if (!hasSubroutines_) return;
  // Nothing is in contact yet: points at the markers, normals along their z axes.
  for (const ForceContact& element : contacts_->elements) {
    if (element.userNormal) callNormalSubroutine(element, {.ni = {0, 0, -1}, .nj = {0, 0, 1}, .iflag = true});
    if (element.userFriction) callFrictionSubroutine(element, {.iflag = true});
  }
}

void ContactEvaluator::contactPost(double time, std::span<const BodyKinematics> bodies) {
  if (!hasSubroutines_) return;
  setTime(time, bodies);
  for (size_t e = 0; e < contacts_->elements.size(); ++e) {
    const ForceContact& element = contacts_->elements[e];
    if (!element.contactPost) continue;
    // Every pair of the element in contact now, with its points, before any call: c_get_contact_post may ask
    // about any of them.
    postPairs_.clear();
    std::vector<std::pair<long, long>> order;
    for (const Candidate& c : detection_.candidates) {
      if (c.element != static_cast<int>(e) || c.pointCount == 0) continue;
      const long iId = contacts_->graphics[static_cast<size_t>(c.graphicI)].id;
      const long jId = contacts_->graphics[static_cast<size_t>(c.graphicJ)].id;
      std::vector<ContactPostPoint>& points = postPairs_[{element.id, iId, jId}];
      pairForces(pairOf(c, bodies), Evaluation::Residual, nullptr, &points);
      order.emplace_back(iId, jId);
    }
    for (const auto& [iId, jId] : order) callContactPost(element, static_cast<int>(iId), static_cast<int>(jId), 0);
    postPairs_.clear();
  }
}

void ContactEvaluator::finishContactPost(double time) {
  if (!hasSubroutines_) return;
  setTime(time, bodies_);
  for (const ForceContact& element : contacts_->elements) {
    // A CONTACTPOST that failed is not called again, not even to close its files.
    if (element.contactPost && !failedRoutines_.count(&*element.contactPost)) callContactPost(element, 0, 0, 1);
  }
}

std::optional<std::array<double, 3>> ContactEvaluator::splinePartials(bool akima, int id, double x, double z,
                                                                      int order) const {
  return modelSplinePartials(model_, akima, id, x, z, order);
}

std::optional<MarkerMotion> ContactEvaluator::markerMotion(int id) const {
  if (id == 0) return MarkerMotion{};
  const Marker* marker = model_.marker(id);
  if (!marker) return std::nullopt;
  const BodyKinematics* body =
      marker->body >= 0 && static_cast<size_t>(marker->body) < bodies_.size() ? &bodies_[static_cast<size_t>(marker->body)]
                                                                             : nullptr;
  return lodestone::markerMotion(*marker, body);
}

void ContactEvaluator::subroutineMessage(int id, std::string_view message, bool error, bool stop) {
  const std::string from = callingRoutine_ ? callingRoutine_->function : std::string("a subroutine");
  const std::string utility = callingRoutine_ && callingRoutine_->isPython() ? "py_errmes" : "c_errmes";
  messages_.push_back({callingElement_, from + " (" + utility + ", id=" + std::to_string(id) + "): " +
                                            std::string(message),
                       error});
  if (stop && !stopRequest_) {
    stopTime_ = time_;
    stopRequest_ = (callingElement_ ? describeContact(*callingElement_) + ": " : std::string()) +
                   (callingRoutine_ ? callingRoutine_->describe() : from) + " asked to stop (" + utility + "): " +
                   std::string(message);
  }
}

void ContactEvaluator::utilityProblem(std::string_view utility, std::string_view problem) {
  const std::string from = callingRoutine_ ? callingRoutine_->function : std::string("a subroutine");
  // A Python subroutine called the py_* form, which answers through the C utility.
  std::string name(utility);
  if (callingRoutine_ && callingRoutine_->isPython() && name.rfind("c_", 0) == 0) name = "py_" + name.substr(2);
  const std::string text = name + " called from " + from + ": " + std::string(problem);
  if (reportedProblems_.insert(text).second) messages_.push_back({callingElement_, text, true});
}

const std::vector<ContactPostPoint>* ContactEvaluator::contactPoints(int id, int iGraphic, int jGraphic) const {
  const auto found = postPairs_.find({id, iGraphic, jGraphic});
  return found == postPairs_.end() ? nullptr : &found->second;
}

}  // namespace lodestone
