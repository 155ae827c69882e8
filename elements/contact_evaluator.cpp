// Contact detection, forces, status tracking and reports for every Force_Contact of a model.
#include "contact_evaluator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "collision/narrow_phase.h"
#include "solver/core/text.h"

namespace lodestone {

namespace {

// How far (as a fraction of its bounding radius) a graphic's box is inflated for the broad phase, so that a pair
// becomes a candidate, with an exact gap, before it touches: the onset root function then sees the gap fall
// through zero rather than appear below it.
constexpr double kProximityFraction = 0.1;

}  // namespace

ContactEvaluator::ContactEvaluator(const Model& model) : model_(model), contacts_(model.contacts.get()) {
  if (!contacts_) return;
  const std::vector<ForceContact>& elements = contacts_->elements;
  const size_t graphicCount = contacts_->graphics.size();
  memberships_.resize(graphicCount);
  proximity_.assign(graphicCount, 0.0);
  boxes_.resize(graphicCount);
  poses_.resize(graphicCount);
  rootCeiling_.assign(elements.size(), 0.0);
  for (size_t e = 0; e < elements.size(); ++e) {
    const ForceContact& element = elements[e];
    const auto join = [&](int graphic, bool isI) {
      std::vector<Membership>& list = memberships_[static_cast<size_t>(graphic)];
      auto found = std::find_if(list.begin(), list.end(), [&](const Membership& m) { return m.element == (int)e; });
      if (found == list.end()) {
        list.push_back({static_cast<int>(e), false, false});
        found = list.end() - 1;
      }
      (isI ? found->inI : found->inJ) = true;
      const double reach = kProximityFraction * contacts_->graphics[static_cast<size_t>(graphic)].shape.boundingRadius() +
                           0.5 * element.options.fieldRange;
      proximity_[static_cast<size_t>(graphic)] = std::max(proximity_[static_cast<size_t>(graphic)], reach);
    };
    for (int graphic : element.iGraphics) join(graphic, true);
    for (int graphic : element.jGraphics) join(graphic, false);
    hasSubroutines_ = hasSubroutines_ || element.userNormal || element.userFriction || element.contactPost;
    const bool keepsState = (element.normalLaw && element.normalLaw->named && element.normalLaw->named->state_size > 0) ||
                            (element.frictionLaw && element.frictionLaw->named &&
                             element.frictionLaw->named->state_size > 0);
    keepsLawState_.push_back(keepsState ? 1 : 0);
    anyLawState_ = anyLawState_ || keepsState;
    rootSlot_.push_back(element.zeroCrossing ? static_cast<int>(rootElements_.size()) : -1);
    if (element.zeroCrossing) rootElements_.push_back(static_cast<int>(e));
  }
  for (size_t e = 0; e < elements.size(); ++e) {
    double ceiling = 0;
    for (int graphic : elements[e].iGraphics) ceiling = std::max(ceiling, 2 * proximity_[static_cast<size_t>(graphic)]);
    for (int graphic : elements[e].jGraphics) ceiling = std::max(ceiling, 2 * proximity_[static_cast<size_t>(graphic)]);
    rootCeiling_[e] = ceiling > 0 ? ceiling : 1.0;
  }
}

const BodyKinematics* ContactEvaluator::kinematicsOf(int body, std::span<const BodyKinematics> bodies) const {
  return body < 0 ? nullptr : &bodies[static_cast<size_t>(body)];
}

namespace {

// Where a graphic is in ground when its body (null: ground) has the given kinematics.
Pose placeGraphic(const ContactGraphic& graphic, const BodyKinematics* body) {
  if (!body) return graphic.local;
  return {body->position + body->rotation * graphic.local.position, body->rotation * graphic.local.rotation};
}

}  // namespace

std::optional<std::pair<int, int>> ContactEvaluator::orientedPair(int element, int a, int b) const {
  const auto membershipOf = [&](int graphic) -> const Membership* {
    for (const Membership& m : memberships_[static_cast<size_t>(graphic)]) {
      if (m.element == element) return &m;
    }
    return nullptr;
  };
  const Membership* ma = membershipOf(a);
  const Membership* mb = membershipOf(b);
  if (!ma || !mb) return std::nullopt;
  if (ma->inI && mb->inJ) return std::pair{a, b};
  if (mb->inI && ma->inJ) return std::pair{b, a};
  return std::nullopt;
}

double ContactEvaluator::effectiveMass(int bodyI, int bodyJ) const {
  const double factor = model_.units.massFactor;
  const double massI = bodyI < 0 ? 0 : factor * model_.bodies[static_cast<size_t>(bodyI)].mass;
  const double massJ = bodyJ < 0 ? 0 : factor * model_.bodies[static_cast<size_t>(bodyJ)].mass;
  if (bodyI < 0) return massJ;
  if (bodyJ < 0) return massI;
  return massI * massJ / (massI + massJ);
}

void ContactEvaluator::detect(std::span<const BodyKinematics> bodies) {
  bodies_ = bodies;
  if (empty()) return;
  bool moved = !detected_;
  for (size_t g = 0; g < poses_.size(); ++g) {
    const Pose pose = placeGraphic(contacts_->graphics[g], kinematicsOf(contacts_->graphics[g].body, bodies));
    moved = moved || pose.position != poses_[g].position || pose.rotation != poses_[g].rotation;
    poses_[g] = pose;
  }
  // The integrator asks again at a state it has asked about (root functions, then the accepted step, then the
  // Jacobian, all at the step's end): the same poses find the same contacts. Whether each pair is touching is kept
  // up to date on the candidates by applyRoots and synchronise.
  if (!moved) return;
  detected_ = true;
  candidates_.clear();
  points_.clear();
  activePairs_.clear();
  for (size_t g = 0; g < poses_.size(); ++g) {
    boxes_[g] = boundsOf(contacts_->graphics[g].shape, poses_[g]).inflated(proximity_[g]);
  }
  broadPhase_.findOverlaps(boxes_, overlaps_);
  for (const auto& [a, b] : overlaps_) {
    const ContactGraphic& graphicA = contacts_->graphics[static_cast<size_t>(a)];
    const ContactGraphic& graphicB = contacts_->graphics[static_cast<size_t>(b)];
    if (graphicA.body == graphicB.body) continue;  // one body (or both ground): never in contact
    for (const Membership& ma : memberships_[static_cast<size_t>(a)]) {
      if (const auto pair = orientedPair(ma.element, a, b)) addCandidate(ma.element, pair->first, pair->second);
    }
  }
}

void ContactEvaluator::addCandidate(int element, int graphicI, int graphicJ) {
  const ContactGraphic& gi = contacts_->graphics[static_cast<size_t>(graphicI)];
  const ContactGraphic& gj = contacts_->graphics[static_cast<size_t>(graphicJ)];
  const double margin = proximity_[static_cast<size_t>(graphicI)] + proximity_[static_cast<size_t>(graphicJ)];
  const int firstPoint = static_cast<int>(points_.size());
  const double distance =
      collide(gi.shape, poses_[static_cast<size_t>(graphicI)], gj.shape, poses_[static_cast<size_t>(graphicJ)], margin,
              points_, this->element(element).options);
  const int pointCount = static_cast<int>(points_.size()) - firstPoint;
  const bool touching = !touching_.empty() && touching_.count(PairKey{element, graphicI, graphicJ}) > 0;
  candidates_.push_back({element, graphicI, graphicJ, distance, firstPoint, pointCount, touching});
  const ForceContact& contact = this->element(element);
  const bool fieldActive = contact.normalLaw && contact.normalLaw->field && distance <= contact.options.fieldRange;
  if (pointCount > 0 || fieldActive) {
    activePairs_.push_back({static_cast<int>(candidates_.size()) - 1, gi.body, gj.body});
  }
}

namespace {

// Where a graphic's reference marker is in ground when its body (null: ground) has the given kinematics.
Pose placeMarker(const ContactGraphic& graphic, const BodyKinematics* body) {
  if (!body) return graphic.marker;
  return {body->position + body->rotation * graphic.marker.position, body->rotation * graphic.marker.rotation};
}

// A point and a direction in ground, in a marker's frame, as the subroutines take them (three doubles each).
void inMarker(const Pose& marker, const Vector3& point, const Vector3& direction, std::array<double, 3>& location,
              std::array<double, 3>& normal) {
  Eigen::Map<Vector3>(location.data()) = marker.rotation.transpose() * (point - marker.position);
  Eigen::Map<Vector3>(normal.data()) = marker.rotation.transpose() * direction;
}

}  // namespace

PairLoads ContactEvaluator::pairForces(int elementIndex, int graphicI, int graphicJ, double distance,
                                       std::span<const ContactPoint> points, const BodyKinematics* bodyI,
                                       const BodyKinematics* bodyJ, const Pose& poseI, const Pose& poseJ,
                                       Evaluation evaluation, PairReport* report,
                                       std::vector<ContactPostPoint>* post) {
  const bool differencing = evaluation == Evaluation::Differencing;
  const ForceContact& element = this->element(elementIndex);
  PairLoads loads;
  const ContactGraphic& graphicDataI = contacts_->graphics[static_cast<size_t>(graphicI)];
  const ContactGraphic& graphicDataJ = contacts_->graphics[static_cast<size_t>(graphicJ)];
  const Vector3 centreI = bodyI ? bodyI->position : Vector3::Zero();
  const Vector3 centreJ = bodyJ ? bodyJ->position : Vector3::Zero();
  const auto apply = [&](const Vector3& force, const Vector3& at) {
    loads.forceOnI += force;
    loads.torqueOnI += (at - centreI).cross(force);
    loads.forceOnJ -= force;
    loads.torqueOnJ -= (at - centreJ).cross(force);
  };

  double deepest = 0;
  for (const ContactPoint& point : points) deepest = std::max(deepest, point.depth);
  const bool ignored = deepest > element.options.ignoreDeeperThan;
  if (!ignored && !points.empty()) {
    NormalInput input;
    input.effectiveMass = effectiveMass(graphicDataI.body, graphicDataJ.body);
    const bool userLaw = element.userNormal || element.userFriction;
    const Pose markerI = userLaw ? placeMarker(graphicDataI, bodyI) : Pose{};
    const Pose markerJ = userLaw ? placeMarker(graphicDataJ, bodyJ) : Pose{};
    const bool keepsState = keepsLawState_[static_cast<size_t>(elementIndex)] != 0;
    Anchor* anchor = nullptr;  // set once the contact has begun (at an accepted state)
    if (element.userFriction || keepsState) {
      const auto found = touching_.find(PairKey{elementIndex, graphicI, graphicJ});
      if (found != touching_.end()) anchor = &found->second;
    }
    // CFFSUB's x: how far I has moved on J since the contact began (nothing before it has begun).
    Vector3 displacement = Vector3::Zero();
    if (element.userFriction && anchor) {
      const Vector3 onI = bodyI ? Vector3(bodyI->position + bodyI->rotation * anchor->onI) : anchor->onI;
      const Vector3 onJ = bodyJ ? Vector3(bodyJ->position + bodyJ->rotation * anchor->onJ) : anchor->onJ;
      displacement = onI - onJ;
    }
    // Named laws with state: where each point's state starts from now, and how long ago that was. At an accepted
    // step the stored state is then advanced to it, point by point, after the point's forces are known.
    const auto stateOf = [&](const lodestone_law* law, LawStateHistory Anchor::*history, std::vector<double>& zero,
                             double& elapsed) -> double* {
      elapsed = 0;
      if (!law || law->state_size == 0) return nullptr;
      const size_t numbers = points.size() * static_cast<size_t>(law->state_size);
      if (!anchor) {
        zero.assign(numbers, 0.0);
        return zero.data();
      }
      LawStateHistory& states = anchor->*history;
      states.reserve(numbers);
      return evaluation == Evaluation::AcceptedStep ? states.advanceTo(time_, elapsed) : states.at(time_, elapsed);
    };
    const lodestone_law* namedNormal = element.normalLaw ? element.normalLaw->named : nullptr;
    const lodestone_law* namedFriction = element.frictionLaw ? element.frictionLaw->named : nullptr;
    double normalElapsed = 0, frictionElapsed = 0;
    double* normalState = stateOf(namedNormal, &Anchor::normalState, zeroNormalState_, normalElapsed);
    double* frictionState = stateOf(namedFriction, &Anchor::frictionState, zeroFrictionState_, frictionElapsed);
    const bool advancing = evaluation == Evaluation::AcceptedStep && anchor;
    size_t pointIndex = 0;
    Vector3 centroid = Vector3::Zero();  // of the points weighted by the part of the force each carries
    double shares = 0;
    for (const ContactPoint& point : points) {
      const Vector3 at = 0.5 * (point.pointOnA + point.pointOnB);
      const Vector3 velocityI = bodyI ? bodyI->velocityAt(at) : Vector3::Zero();
      const Vector3 velocityJ = bodyJ ? bodyJ->velocityAt(at) : Vector3::Zero();
      const Vector3 relative = velocityI - velocityJ;
      const double normalVelocity = point.normal.dot(relative);
      const Vector3 slip = relative - normalVelocity * point.normal;
      const double slipSpeed = slip.norm();
      // The subroutines' view of the point: where it is on each graphic, relative to the graphic's marker and in
      // its axes, with the outward normals (I's points away from I, along −n; n points from J to I).
      NormalCall normalCall{.gap = -point.depth, .gapdot = normalVelocity, .dflag = differencing};
      if (userLaw) {
        inMarker(markerI, point.pointOnA, -point.normal, normalCall.loci, normalCall.ni);
        inMarker(markerJ, point.pointOnB, point.normal, normalCall.locj, normalCall.nj);
      }

      // A named law's view of the point.
      lodestone_contact_point lawPoint{};
      if (namedNormal || namedFriction) {
        lawPoint = {.time = time_,
                    .elapsed = 0,
                    .penetration = point.depth,
                    .penetration_rate = -normalVelocity,
                    .area = point.area,
                    .effective_mass = input.effectiveMass,
                    .normal = {point.normal.x(), point.normal.y(), point.normal.z()},
                    .slip_velocity = {slip.x(), slip.y(), slip.z()},
                    .normal_force = 0,
                    .differencing = differencing ? 1 : 0};
      }
      const auto stateAt = [&](double* states, const lodestone_law* law) {
        return states ? states + pointIndex * static_cast<size_t>(law->state_size) : nullptr;
      };

      double normalForce = 0;
      if (element.userNormal) {
        const Vector3 accelerationI = bodyI ? bodyI->accelerationAt(at) : Vector3::Zero();
        const Vector3 accelerationJ = bodyJ ? bodyJ->accelerationAt(at) : Vector3::Zero();
        normalCall.gapdotdot = point.normal.dot(accelerationI - accelerationJ);
        normalForce = callNormalSubroutine(element, normalCall);
      } else if (namedNormal) {
        lawPoint.elapsed = normalElapsed;
        double* state = stateAt(normalState, namedNormal);
        normalForce = namedNormal->normal_force(namedNormal, element.normalValues.data(), &lawPoint, state);
        if (advancing && state) namedNormal->advance_state(namedNormal, element.normalValues.data(), &lawPoint, state);
      } else {
        input.penetration = point.depth;
        input.penetrationRate = -normalVelocity;
        input.area = point.area;
        normalForce = element.normalLaw->force(element.normalValues, input);
      }
      // A point that carries part of its law's force (each side's patch of a mesh pair measured both ways); its
      // friction follows the part it carries.
      normalForce *= point.share;

      Vector3 friction = Vector3::Zero();
      if (element.userFriction) {
        // The contact frame: z along n, x along the slip (any tangent when there is none), y = z × x.
        const Vector3 tangentX = slipSpeed > 0 ? Vector3(slip / slipSpeed) : Vector3(point.normal.unitOrthogonal());
        const Vector3 tangentY = point.normal.cross(tangentX);
        const FrictionCall frictionCall{.loci = normalCall.loci,
                                        .locj = normalCall.locj,
                                        .x = {tangentX.dot(displacement), tangentY.dot(displacement), 0},
                                        .xdot = {slipSpeed, 0, 0},
                                        .nforce = normalForce,
                                        .dflag = differencing};
        const std::array<double, 3> result = callFrictionSubroutine(element, frictionCall);
        friction = result[0] * tangentX + result[1] * tangentY + result[2] * point.normal;
      } else if (namedFriction) {
        lawPoint.elapsed = frictionElapsed;
        lawPoint.normal_force = normalForce;
        double* state = stateAt(frictionState, namedFriction);
        double force[3] = {0, 0, 0};
        namedFriction->friction_force(namedFriction, element.frictionValues.data(), &lawPoint, state, force);
        friction = Vector3(force[0], force[1], force[2]);
        if (advancing && state) {
          namedFriction->advance_state(namedFriction, element.frictionValues.data(), &lawPoint, state);
        }
      } else if (element.frictionLaw->coefficient && slipSpeed > 0) {
        // Written as magnitude times direction, the order a CFFSUB's result takes, so a user subroutine with the
        // same formula reproduces the built-in law to the last bit.
        const double mu = element.frictionLaw->coefficient(element.frictionValues, slipSpeed);
        friction = -(mu * std::fabs(normalForce)) * Vector3(slip / slipSpeed);
      }
      apply(normalForce * point.normal + friction, at);
      centroid += point.share * at;
      shares += point.share;
      ++pointIndex;
      if (post) {
        post->push_back({point.depth, -normalVelocity, slipSpeed, at, relative, point.normal,
                         normalForce * point.normal, friction});
      }
      if (report) {
        report->normalForce += normalForce;
        report->frictionForce += friction.norm();
        if (point.depth >= report->penetration) {
          report->penetration = point.depth;
          report->penetrationRate = -normalVelocity;
          report->slipSpeed = slipSpeed;
          report->normal = point.normal;
        }
      }
    }
    if (report) {
      report->points = static_cast<int>(points.size());
      report->point = centroid / shares;
    }
  }
  if (element.normalLaw && element.normalLaw->field && distance <= element.options.fieldRange) {
    // A field law's vectors (DIPOLE's moments) are given in each body's axes (REFERENCE §3), not in the axes of
    // the graphic's centre marker, which may be turned relative to its body: the law gets the graphic's centre
    // with its body's axes (ground's for a ground graphic).
    const Pose fieldI{poseI.position, bodyI ? bodyI->rotation : Matrix3::Identity()};
    const Pose fieldJ{poseJ.position, bodyJ ? bodyJ->rotation : Matrix3::Identity()};
    FieldInput input{fieldI, fieldJ, distance, model_.units};
    FieldOutput field;
    element.normalLaw->field(element.normalValues, input, field);
    loads.forceOnI += field.forceOnI;
    loads.torqueOnI += (poseI.position - centreI).cross(field.forceOnI) + field.momentOnI;
    loads.forceOnJ += field.forceOnJ;
    loads.torqueOnJ += (poseJ.position - centreJ).cross(field.forceOnJ) + field.momentOnJ;
  }
  if (report) {
    report->force = loads.forceOnI;
    report->torque = loads.torqueOnI;
  }
  return loads;
}

void ContactEvaluator::addLoads(double time, std::span<const BodyKinematics> bodies, std::span<BodyLoad> loads) {
  time_ = time;
  for (const ActivePair& pair : activePairs_) {
    const Candidate& c = candidates_[static_cast<size_t>(pair.candidate)];
    const std::span<const ContactPoint> points(points_.data() + c.firstPoint, static_cast<size_t>(c.pointCount));
    const PairLoads pairLoads =
        pairForces(c.element, c.graphicI, c.graphicJ, c.distance, points, kinematicsOf(pair.bodyI, bodies),
                   kinematicsOf(pair.bodyJ, bodies), poses_[static_cast<size_t>(c.graphicI)],
                   poses_[static_cast<size_t>(c.graphicJ)], Evaluation::Residual, nullptr, nullptr);
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

PairLoads ContactEvaluator::pairLoads(const ActivePair& pair, const BodyKinematics* bodyI, const BodyKinematics* bodyJ,
                                     Geometry geometry) {
  const Candidate& c = candidates_[static_cast<size_t>(pair.candidate)];
  const ContactGraphic& gi = contacts_->graphics[static_cast<size_t>(c.graphicI)];
  const ContactGraphic& gj = contacts_->graphics[static_cast<size_t>(c.graphicJ)];
  const Pose poseI = placeGraphic(gi, bodyI);
  const Pose poseJ = placeGraphic(gj, bodyJ);
  if (geometry == Geometry::Detected) {
    const std::span<const ContactPoint> points(points_.data() + c.firstPoint, static_cast<size_t>(c.pointCount));
    return pairForces(c.element, c.graphicI, c.graphicJ, c.distance, points, bodyI, bodyJ, poseI, poseJ,
                      Evaluation::Differencing, nullptr, nullptr);
  }
  scratch_.clear();
  const double margin = proximity_[static_cast<size_t>(c.graphicI)] + proximity_[static_cast<size_t>(c.graphicJ)];
  const double distance = collide(gi.shape, poseI, gj.shape, poseJ, margin, scratch_, element(c.element).options);
  return pairForces(c.element, c.graphicI, c.graphicJ, distance, scratch_, bodyI, bodyJ, poseI, poseJ,
                    Evaluation::Differencing, nullptr, nullptr);
}

void ContactEvaluator::rootFunctions(double* g) const {
  for (size_t k = 0; k < rootElements_.size(); ++k) {
    g[2 * k] = rootCeiling_[static_cast<size_t>(rootElements_[k])];
    g[2 * k + 1] = rootCeiling_[static_cast<size_t>(rootElements_[k])];
  }
  if (rootElements_.empty()) return;
  for (const Candidate& c : candidates_) {
    const int slot = rootSlot_[static_cast<size_t>(c.element)];
    if (slot < 0) continue;
    const size_t k = static_cast<size_t>(slot);
    if (c.touching) g[2 * k + 1] = std::min(g[2 * k + 1], -c.distance);
    else g[2 * k] = std::min(g[2 * k], c.distance);
  }
}

void ContactEvaluator::applyRoots(const int* rootsFound, double time, std::vector<ContactEvent>& events) {
  time_ = time;
  for (size_t k = 0; k < rootElements_.size(); ++k) {
    const int element = rootElements_[k];
    for (int which = 0; which < 2; ++which) {
      if (rootsFound[2 * k + static_cast<size_t>(which)] == 0) continue;
      const bool onset = which == 0;
      // The pair whose gap (onset) or depth (separation) is nearest zero is the one that crossed.
      Candidate* crossing = nullptr;
      double nearest = std::numeric_limits<double>::infinity();
      for (Candidate& c : candidates_) {
        if (c.element != element || c.touching == onset) continue;
        const double value = onset ? c.distance : -c.distance;
        if (value < nearest) {
          nearest = value;
          crossing = &c;
        }
      }
      if (!crossing) continue;
      crossing->touching = onset;
      if (onset) markTouching(*crossing);
      else touching_.erase(PairKey{element, crossing->graphicI, crossing->graphicJ});
      events.push_back({time, &this->element(element),
                        contacts_->graphics[static_cast<size_t>(crossing->graphicI)].id,
                        contacts_->graphics[static_cast<size_t>(crossing->graphicJ)].id, onset, true});
    }
  }
  advanceLawStates();
}

void ContactEvaluator::synchronise(double time, std::vector<ContactEvent>& events) {
  time_ = time;
  size_t touchingCandidates = 0;
  for (Candidate& c : candidates_) {
    const bool touching = c.distance < 0;
    touchingCandidates += touching ? 1 : 0;
    if (touching == c.touching) continue;
    c.touching = touching;
    if (touching) markTouching(c);
    else touching_.erase(PairKey{c.element, c.graphicI, c.graphicJ});
    events.push_back({time, &element(c.element),
                      contacts_->graphics[static_cast<size_t>(c.graphicI)].id,
                      contacts_->graphics[static_cast<size_t>(c.graphicJ)].id, touching, false});
  }
  // A touching pair that is no longer even close (a body moved far within one step) is apart.
  if (touching_.size() != touchingCandidates) {
    std::unordered_map<PairKey, Anchor, PairKeyHash> stillTouching;
    for (const Candidate& c : candidates_) {
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
    touching_.swap(stillTouching);
  }
  advanceLawStates();
}

void ContactEvaluator::advanceLawStates() {
  if (!anyLawState_) return;
  for (const Candidate& c : candidates_) {
    if (!c.touching || c.pointCount == 0 || !keepsLawState_[static_cast<size_t>(c.element)]) continue;
    const ContactGraphic& gi = contacts_->graphics[static_cast<size_t>(c.graphicI)];
    const ContactGraphic& gj = contacts_->graphics[static_cast<size_t>(c.graphicJ)];
    pairForces(c.element, c.graphicI, c.graphicJ, c.distance,
               std::span<const ContactPoint>(points_.data() + c.firstPoint, static_cast<size_t>(c.pointCount)),
               kinematicsOf(gi.body, bodies_), kinematicsOf(gj.body, bodies_), poses_[static_cast<size_t>(c.graphicI)],
               poses_[static_cast<size_t>(c.graphicJ)], Evaluation::AcceptedStep, nullptr, nullptr);
  }
}

void ContactEvaluator::report(double time, std::span<const BodyKinematics> bodies, std::vector<PairReport>& reports,
                              bool closeOnly) {
  time_ = time;
  reports.clear();
  if (empty()) return;
  detect(bodies);
  const auto reportPair = [&](int elementIndex, int graphicI, int graphicJ, double distance,
                              std::span<const ContactPoint> points) {
    const ForceContact& element = this->element(elementIndex);
    PairReport report;
    report.element = &element;
    report.elementId = element.id;
    report.iGraphic = contacts_->graphics[static_cast<size_t>(graphicI)].id;
    report.jGraphic = contacts_->graphics[static_cast<size_t>(graphicJ)].id;
    report.separation = std::max(distance, 0.0);
    const int bodyI = contacts_->graphics[static_cast<size_t>(graphicI)].body;
    const int bodyJ = contacts_->graphics[static_cast<size_t>(graphicJ)].body;
    report.bodyI = bodyI;
    report.bodyJ = bodyJ;
    pairForces(elementIndex, graphicI, graphicJ, distance, points, kinematicsOf(bodyI, bodies),
               kinematicsOf(bodyJ, bodies), poses_[static_cast<size_t>(graphicI)], poses_[static_cast<size_t>(graphicJ)],
               Evaluation::Residual, &report, nullptr);
    report.inContact = report.points > 0;
    reports.push_back(report);
  };
  for (size_t e = 0; e < contacts_->elements.size(); ++e) {
    const ForceContact& element = contacts_->elements[e];
    const long pairCount = static_cast<long>(element.iGraphics.size()) * static_cast<long>(element.jGraphics.size());
    if (pairCount <= kAllPairsReportLimit && !closeOnly) {
      // Small elements: every pair at every output, so each pair's history is one unbroken series.
      for (int gi : element.iGraphics) {
        for (int gj : element.jGraphics) {
          if (contacts_->graphics[static_cast<size_t>(gi)].body == contacts_->graphics[static_cast<size_t>(gj)].body) {
            continue;
          }
          // A pair listed both ways (a cradle lists every ball as I and as J) is one contact: report it once, in
          // the order detect() gives it, or summing fn over rows would count each contact double.
          if (orientedPair(static_cast<int>(e), std::min(gi, gj), std::max(gi, gj)) != std::pair{gi, gj}) continue;
          scratch_.clear();
          const double distance = collide(contacts_->graphics[static_cast<size_t>(gi)].shape, poses_[static_cast<size_t>(gi)],
                                          contacts_->graphics[static_cast<size_t>(gj)].shape, poses_[static_cast<size_t>(gj)],
                                          std::numeric_limits<double>::infinity(), scratch_, element.options);
          reportPair(static_cast<int>(e), gi, gj, distance, scratch_);
        }
      }
      continue;
    }
    for (const Candidate& c : candidates_) {
      if (c.element != static_cast<int>(e)) continue;
      reportPair(c.element, c.graphicI, c.graphicJ, c.distance,
                 std::span<const ContactPoint>(points_.data() + c.firstPoint, static_cast<size_t>(c.pointCount)));
    }
  }
}

std::optional<ContactEvaluator::Culprit> ContactEvaluator::hardestContactOn(int body, double time,
                                                                          std::span<const BodyKinematics> bodies) {
  std::vector<PairReport> reports;
  report(time, bodies, reports, true);
  std::optional<Culprit> hardest;
  for (const PairReport& pair : reports) {
    if (!pair.inContact) continue;
    const ForceContact& element = *pair.element;
    if (pair.bodyI != body && pair.bodyJ != body) continue;
    if (hardest && pair.force.norm() <= hardest->pair.force.norm()) continue;
    Culprit culprit{pair, 0, effectiveMass(pair.bodyI, pair.bodyJ)};
    // dFn/dδ of a built-in or named law by a central difference at the deepest point (a subroutine's is unknown).
    if (element.normalLaw && element.normalLaw->force && pair.penetration > 0) {
      const double delta = pair.penetration, step = 1e-6 * delta;
      NormalInput input;
      input.penetrationRate = pair.penetrationRate;
      input.effectiveMass = culprit.effectiveMass;
      input.penetration = delta + step;
      const double above = element.normalLaw->force(element.normalValues, input);
      input.penetration = delta - step;
      const double below = element.normalLaw->force(element.normalValues, input);
      culprit.stiffness = (above - below) / (2 * step);
    }
    hardest = culprit;
  }
  return hardest;
}

// ---- touching pairs ------------------------------------------------------------------------------------------

ContactEvaluator::Anchor ContactEvaluator::anchorOf(const Candidate& c, std::span<const BodyKinematics> bodies) const {
  // The centroid of the pair's contact points (the gap's closest points when it has none yet), held by each body.
  Vector3 at = Vector3::Zero();
  for (int k = 0; k < c.pointCount; ++k) {
    const ContactPoint& point = points_[static_cast<size_t>(c.firstPoint + k)];
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
  touching_[PairKey{c.element, c.graphicI, c.graphicJ}] = std::move(anchor);
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
    std::string text = "traceback of " + routine.function + ":";
    size_t start = 0;
    const std::string& details = error.details();
    while (start < details.size()) {
      const size_t end = std::min(details.find('\n', start), details.size());
      text += "\n    " + details.substr(start, end - start);
      start = end + 1;
    }
    messages_.push_back({&element, text, true});
    reason += " (traceback in run.log)";
  }
  if (!stopRequest_) stopRequest_ = reason;
}

void ContactEvaluator::checkFinite(const ForceContact& element, const UserSubroutine& routine,
                                   std::span<const double> values) {
  for (const double value : values) {
    if (std::isfinite(value)) continue;
    const std::string key = describeContact(element) + routine.function + " not finite";
    if (reportedProblems_.insert(key).second) {
      messages_.push_back({&element, routine.describe() + " returned " + formatReal(value) + " at t=" +
                                         formatReal(time_) + "; the integrator will retry with smaller steps",
                           true});
    }
    return;
  }
}

void ContactEvaluator::startSubroutines(double time) {
  time_ = time;
  if (!hasSubroutines_) return;
  // Nothing is in contact yet: points at the markers, normals along their z axes.
  for (const ForceContact& element : contacts_->elements) {
    if (element.userNormal) callNormalSubroutine(element, {.ni = {0, 0, -1}, .nj = {0, 0, 1}, .iflag = true});
    if (element.userFriction) callFrictionSubroutine(element, {.iflag = true});
  }
}

void ContactEvaluator::contactPost(double time, std::span<const BodyKinematics> bodies) {
  if (!hasSubroutines_) return;
  time_ = time;
  for (size_t e = 0; e < contacts_->elements.size(); ++e) {
    const ForceContact& element = contacts_->elements[e];
    if (!element.contactPost) continue;
    // Every pair of the element in contact now, with its points, before any call: c_get_contact_post may ask
    // about any of them.
    postPairs_.clear();
    std::vector<std::pair<long, long>> order;
    for (const Candidate& c : candidates_) {
      if (c.element != static_cast<int>(e) || c.pointCount == 0) continue;
      const long iId = contacts_->graphics[static_cast<size_t>(c.graphicI)].id;
      const long jId = contacts_->graphics[static_cast<size_t>(c.graphicJ)].id;
      std::vector<ContactPostPoint>& points = postPairs_[{element.id, iId, jId}];
      const std::span<const ContactPoint> contactPoints(points_.data() + c.firstPoint,
                                                         static_cast<size_t>(c.pointCount));
      const int bodyI = contacts_->graphics[static_cast<size_t>(c.graphicI)].body;
      const int bodyJ = contacts_->graphics[static_cast<size_t>(c.graphicJ)].body;
      pairForces(c.element, c.graphicI, c.graphicJ, c.distance, contactPoints, kinematicsOf(bodyI, bodies),
                 kinematicsOf(bodyJ, bodies), poses_[static_cast<size_t>(c.graphicI)],
                 poses_[static_cast<size_t>(c.graphicJ)], Evaluation::Residual, nullptr, &points);
      order.emplace_back(iId, jId);
    }
    for (const auto& [iId, jId] : order) callContactPost(element, static_cast<int>(iId), static_cast<int>(jId), 0);
    postPairs_.clear();
  }
}

void ContactEvaluator::finishContactPost(double time) {
  if (!hasSubroutines_) return;
  time_ = time;
  for (const ForceContact& element : contacts_->elements) {
    // A CONTACTPOST that failed is not called again, not even to close its files.
    if (element.contactPost && !failedRoutines_.count(&*element.contactPost)) callContactPost(element, 0, 0, 1);
  }
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
