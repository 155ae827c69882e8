// Contact detection, forces, status tracking and reports for every Force_Contact of a model.
#include "contact_evaluator.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "collision/narrow_phase.h"

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
                           0.5 * element.fieldRange;
      proximity_[static_cast<size_t>(graphic)] = std::max(proximity_[static_cast<size_t>(graphic)], reach);
    };
    for (int graphic : element.iGraphics) join(graphic, true);
    for (int graphic : element.jGraphics) join(graphic, false);
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
  candidates_.clear();
  points_.clear();
  activePairs_.clear();
  if (empty()) return;
  for (size_t g = 0; g < poses_.size(); ++g) {
    poses_[g] = placeGraphic(contacts_->graphics[g], kinematicsOf(contacts_->graphics[g].body, bodies));
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
              points_);
  const int pointCount = static_cast<int>(points_.size()) - firstPoint;
  const bool touching = !touching_.empty() && touching_.count(PairKey{element, graphicI, graphicJ}) > 0;
  candidates_.push_back({element, graphicI, graphicJ, distance, firstPoint, pointCount, touching});
  const ForceContact& contact = this->element(element);
  const bool fieldActive = contact.normalLaw->field && distance <= contact.fieldRange;
  if (pointCount > 0 || fieldActive) {
    activePairs_.push_back({static_cast<int>(candidates_.size()) - 1, gi.body, gj.body});
  }
}

PairLoads ContactEvaluator::pairForces(const ForceContact& element, int graphicI, int graphicJ, double distance,
                                       std::span<const ContactPoint> points, const BodyKinematics* bodyI,
                                       const BodyKinematics* bodyJ, const Pose& poseI, const Pose& poseJ,
                                       PairReport* report) const {
  PairLoads loads;
  const int indexI = contacts_->graphics[static_cast<size_t>(graphicI)].body;
  const int indexJ = contacts_->graphics[static_cast<size_t>(graphicJ)].body;
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
  const bool ignored = deepest > element.ignorePenetrationLargerThan;
  if (!ignored && !points.empty()) {
    NormalInput input;
    input.effectiveMass = effectiveMass(indexI, indexJ);
    Vector3 centroid = Vector3::Zero();
    for (const ContactPoint& point : points) {
      const Vector3 at = 0.5 * (point.pointOnA + point.pointOnB);
      const Vector3 velocityI = bodyI ? bodyI->velocityAt(at) : Vector3::Zero();
      const Vector3 velocityJ = bodyJ ? bodyJ->velocityAt(at) : Vector3::Zero();
      const Vector3 relative = velocityI - velocityJ;
      const double normalVelocity = point.normal.dot(relative);
      const Vector3 slip = relative - normalVelocity * point.normal;
      const double slipSpeed = slip.norm();
      input.penetration = point.depth;
      input.penetrationRate = -normalVelocity;
      input.area = point.area;
      const double normalForce = element.normalLaw->force(element.normalValues, input);
      Vector3 force = normalForce * point.normal;
      double frictionForce = 0;
      if (element.frictionLaw->coefficient && slipSpeed > 0) {
        const double mu = element.frictionLaw->coefficient(element.frictionValues, slipSpeed);
        frictionForce = mu * std::fabs(normalForce);
        force -= (frictionForce / slipSpeed) * slip;
      }
      apply(force, at);
      centroid += at;
      if (report) {
        report->normalForce += normalForce;
        report->frictionForce += frictionForce;
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
      report->point = centroid / static_cast<double>(points.size());
    }
  }
  if (element.normalLaw->field && distance <= element.fieldRange) {
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

void ContactEvaluator::addLoads(std::span<const BodyKinematics> bodies, std::span<BodyLoad> loads) {
  for (const ActivePair& pair : activePairs_) {
    const Candidate& c = candidates_[static_cast<size_t>(pair.candidate)];
    const std::span<const ContactPoint> points(points_.data() + c.firstPoint, static_cast<size_t>(c.pointCount));
    const PairLoads pairLoads =
        pairForces(element(c.element), c.graphicI, c.graphicJ, c.distance, points,
                   kinematicsOf(pair.bodyI, bodies), kinematicsOf(pair.bodyJ, bodies),
                   poses_[static_cast<size_t>(c.graphicI)], poses_[static_cast<size_t>(c.graphicJ)], nullptr);
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

PairLoads ContactEvaluator::pairLoads(const ActivePair& pair, const BodyKinematics* bodyI, const BodyKinematics* bodyJ) {
  const Candidate& c = candidates_[static_cast<size_t>(pair.candidate)];
  const ContactGraphic& gi = contacts_->graphics[static_cast<size_t>(c.graphicI)];
  const ContactGraphic& gj = contacts_->graphics[static_cast<size_t>(c.graphicJ)];
  const Pose poseI = placeGraphic(gi, bodyI);
  const Pose poseJ = placeGraphic(gj, bodyJ);
  scratch_.clear();
  const double margin = proximity_[static_cast<size_t>(c.graphicI)] + proximity_[static_cast<size_t>(c.graphicJ)];
  const double distance = collide(gi.shape, poseI, gj.shape, poseJ, margin, scratch_);
  return pairForces(element(c.element), c.graphicI, c.graphicJ, distance, scratch_, bodyI,
                    bodyJ, poseI, poseJ, nullptr);
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
      const PairKey key{element, crossing->graphicI, crossing->graphicJ};
      if (onset) touching_.insert(key);
      else touching_.erase(key);
      events.push_back({time, &this->element(element),
                        contacts_->graphics[static_cast<size_t>(crossing->graphicI)].id,
                        contacts_->graphics[static_cast<size_t>(crossing->graphicJ)].id, onset, true});
    }
  }
}

void ContactEvaluator::synchronise(double time, std::vector<ContactEvent>& events) {
  size_t touchingCandidates = 0;
  for (Candidate& c : candidates_) {
    const bool touching = c.distance < 0;
    touchingCandidates += touching ? 1 : 0;
    if (touching == c.touching) continue;
    c.touching = touching;
    const PairKey key{c.element, c.graphicI, c.graphicJ};
    if (touching) touching_.insert(key);
    else touching_.erase(key);
    events.push_back({time, &element(c.element),
                      contacts_->graphics[static_cast<size_t>(c.graphicI)].id,
                      contacts_->graphics[static_cast<size_t>(c.graphicJ)].id, touching, false});
  }
  // A touching pair that is no longer even close (a body moved far within one step) is apart.
  if (touching_.size() != touchingCandidates) {
    std::unordered_set<PairKey, PairKeyHash> stillTouching;
    for (const Candidate& c : candidates_) {
      if (c.touching) stillTouching.insert(PairKey{c.element, c.graphicI, c.graphicJ});
    }
    for (const PairKey& key : touching_) {
      if (stillTouching.count(key)) continue;
      events.push_back({time, &element(key.element),
                        contacts_->graphics[static_cast<size_t>(key.graphicI)].id,
                        contacts_->graphics[static_cast<size_t>(key.graphicJ)].id, false, false});
    }
    touching_.swap(stillTouching);
  }
}

void ContactEvaluator::report(std::span<const BodyKinematics> bodies, std::vector<PairReport>& reports) {
  reports.clear();
  if (empty()) return;
  detect(bodies);
  const auto reportPair = [&](const ForceContact& element, int graphicI, int graphicJ, double distance,
                              std::span<const ContactPoint> points) {
    PairReport report;
    report.elementId = element.id;
    report.iGraphic = contacts_->graphics[static_cast<size_t>(graphicI)].id;
    report.jGraphic = contacts_->graphics[static_cast<size_t>(graphicJ)].id;
    report.separation = std::max(distance, 0.0);
    const int bodyI = contacts_->graphics[static_cast<size_t>(graphicI)].body;
    const int bodyJ = contacts_->graphics[static_cast<size_t>(graphicJ)].body;
    pairForces(element, graphicI, graphicJ, distance, points, kinematicsOf(bodyI, bodies), kinematicsOf(bodyJ, bodies),
               poses_[static_cast<size_t>(graphicI)], poses_[static_cast<size_t>(graphicJ)], &report);
    report.inContact = report.points > 0;
    reports.push_back(report);
  };
  for (size_t e = 0; e < contacts_->elements.size(); ++e) {
    const ForceContact& element = contacts_->elements[e];
    const long pairCount = static_cast<long>(element.iGraphics.size()) * static_cast<long>(element.jGraphics.size());
    if (pairCount <= kAllPairsReportLimit) {
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
                                          std::numeric_limits<double>::infinity(), scratch_);
          reportPair(element, gi, gj, distance, scratch_);
        }
      }
      continue;
    }
    for (const Candidate& c : candidates_) {
      if (c.element != static_cast<int>(e)) continue;
      reportPair(element, c.graphicI, c.graphicJ, c.distance,
                 std::span<const ContactPoint>(points_.data() + c.firstPoint, static_cast<size_t>(c.pointCount)));
    }
  }
}

}  // namespace lodestone
