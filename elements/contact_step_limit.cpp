// Conservative advancement for Force_Contact: step bounds from the pairs' gaps and their bodies' motion, the check
// for pairs crossed after a step, and the interference of pairs at the start.
#include "contact_step_limit.h"

#include <algorithm>
#include <cmath>

#include "collision/narrow_phase.h"
#include "collision/shape_thickness.h"
#include "elements/contact_pairs.h"
#include "elements/force_contact.h"

namespace lodestone {

namespace {

// The longest h with a·h + ½·b·h² ≤ c (a, b ≥ 0, c ≥ 0), in the form that loses no digits when b·c is small.
double longestStep(double speed, double acceleration, double allowance) {
  if (allowance <= 0) return 0;
  const double root = speed + std::sqrt(speed * speed + 2 * acceleration * allowance);
  return root > 0 ? 2 * allowance / root : std::numeric_limits<double>::infinity();
}

// Pairs measured per block (ParallelLoop::runBlocks), and graphics per task, when the limit's loop has threads.
constexpr int kPairsPerBlock = 256;
constexpr int kGraphicsPerTask = 256;

}  // namespace

template <class Visit>
void ContactStepLimit::forEachPair(Visit&& visit) const {
  // Oriented as ContactEvaluator orients them (contact_pairs.h), so both name a pair alike.
  forEachOrientedPair(*contacts_, roles_, overlaps_,
                      [&](int element, int graphicI, int graphicJ) { visit(GraphicPair{element, graphicI, graphicJ}); });
}

ContactStepLimit::ContactStepLimit(const Model& model) : contacts_(model.contacts.get()) {
  if (empty()) return;
  const std::vector<ContactGraphic>& graphics = contacts_->graphics;
  thinnest_.resize(graphics.size());
  reach_.resize(graphics.size());
  travel_.resize(graphics.size());
  poses_.resize(graphics.size());
  shapeBoxes_.resize(graphics.size());
  boxes_.resize(graphics.size());
  // Graphics often share one mesh (a pile of the same part): each mesh is traced once.
  std::vector<std::pair<const void*, double>> traced;
  for (size_t g = 0; g < graphics.size(); ++g) {
    const Shape& shape = graphics[g].shape;
    if (shape.type == ShapeType::Mesh) {
      const auto found = std::find_if(traced.begin(), traced.end(),
                                       [&](const auto& entry) { return entry.first == shape.surface.get(); });
      if (found != traced.end()) {
        thinnest_[g] = found->second;
      } else {
        thinnest_[g] = thinnestExtent(shape);
        traced.emplace_back(shape.surface.get(), thinnest_[g]);
      }
    } else {
      thinnest_[g] = thinnestExtent(shape);
    }
    // The shape frame's origin is where the body's CG is not, in general; the shape lies within its bounding radius
    // of that origin.
    reach_[g] = graphics[g].local.position.norm() + shape.boundingRadius();
  }
  roles_ = graphicRoles(*contacts_);
}

void ContactStepLimit::measure(std::span<const BodyKinematics> bodies, double lookAhead,
                               const VerletList* closeGraphics) {
  limit_ = Limit{};
  crossing_.reset();
  if (empty()) return;
  const std::vector<ContactGraphic>& graphics = contacts_->graphics;
  parallel_->run(static_cast<int>(graphics.size()), kGraphicsPerTask, [&](int begin, int end) {
    for (size_t g = static_cast<size_t>(begin); g < static_cast<size_t>(end); ++g) {
      const BodyKinematics* body = kinematicsOf(graphics[g].body, bodies);
      poses_[g] = placeGraphic(graphics[g], body);
      Travel travel;
      if (body) {
        // Any point of the graphic moves with the CG and turns about it: |v| + |ω|·r, and its acceleration is at
        // most |a| + |α|·r + |ω|²·r.
        const double spin = body->angularVelocity.norm();
        travel.speed = body->velocity.norm() + spin * reach_[g];
        travel.acceleration = body->acceleration.norm() + (body->angularAcceleration.norm() + spin * spin) * reach_[g];
      }
      travel_[g] = travel;
      shapeBoxes_[g] = boundsOf(graphics[g].shape, poses_[g]);
      boxes_[g] = shapeBoxes_[g].inflated(travel.at(lookAhead));
    }
  });
  if (closeGraphics && closeGraphics->covers(boxes_)) {
    closeGraphics->overlapsAmong(boxes_, overlaps_);
  } else {
    broadPhase_.findOverlaps(boxes_, overlaps_);
  }
  lookAhead_ = lookAhead;
  wasTouching_.swap(touching_);
  touching_.clear();
  pairs_.clear();
  forEachPair([&](const GraphicPair& pair) { pairs_.push_back(pair); });
  const int pairCount = static_cast<int>(pairs_.size());
  const int blockCount = ParallelLoop::blockCount(pairCount, kPairsPerBlock);
  if (static_cast<int>(blocks_.size()) < blockCount) blocks_.resize(static_cast<size_t>(blockCount));
  const bool first = !measured_;
  parallel_->runBlocks(pairCount, kPairsPerBlock, [&](int b, int begin, int end) {
    Findings& block = blocks_[static_cast<size_t>(b)];
    block.limit = Limit{};
    block.crossing.reset();
    block.touching.clear();
    for (int k = begin; k < end; ++k) measurePair(pairs_[static_cast<size_t>(k)], bodies, first, block);
  });
  Findings all;
  for (int b = 0; b < blockCount; ++b) {
    const Findings& block = blocks_[static_cast<size_t>(b)];
    all.join(block);
    touching_.insert(touching_.end(), block.touching.begin(), block.touching.end());
  }
  limit_ = all.limit;
  crossing_ = all.crossing;
  measured_ = true;
  // Pairs outside the swept boxes cannot meet within the look-ahead: it bounds the step too.
  if (lookAhead < limit_.step) limit_ = Limit{lookAhead};
}

void ContactStepLimit::measurePair(const GraphicPair& pair, std::span<const BodyKinematics> bodies, bool first,
                                   Findings& findings) const {
  const ContactGraphic& gi = contacts_->graphics[static_cast<size_t>(pair.graphicI)];
  const ContactGraphic& gj = contacts_->graphics[static_cast<size_t>(pair.graphicJ)];
  const BodyKinematics* bodyI = kinematicsOf(gi.body, bodies);
  const BodyKinematics* bodyJ = kinematicsOf(gj.body, bodies);
  const ForceContact& element = contacts_->elements[static_cast<size_t>(pair.element)];
  std::vector<ContactPoint>& points = findings.points;
  points.clear();
  const Pose& poseI = poses_[static_cast<size_t>(pair.graphicI)];
  const Pose& poseJ = poses_[static_cast<size_t>(pair.graphicJ)];
  const Travel& travelI = travel_[static_cast<size_t>(pair.graphicI)];
  const Travel& travelJ = travel_[static_cast<size_t>(pair.graphicJ)];
  // A pair farther apart than the two can travel within the look-ahead does not bound the step: the gap between the
  // graphics' boxes (a lower bound of theirs, and far better than a mesh pair's, which is exact only near contact)
  // tells most such pairs at once, and the narrow phase need not go past that reach for the rest.
  const double reach = travelI.at(lookAhead_) + travelJ.at(lookAhead_);
  const Aabb& boxI = shapeBoxes_[static_cast<size_t>(pair.graphicI)];
  const Aabb& boxJ = shapeBoxes_[static_cast<size_t>(pair.graphicJ)];
  const double boxGap = (boxI.min - boxJ.max).cwiseMax(boxJ.min - boxI.max).cwiseMax(0.0).norm();
  if (boxGap > reach) return;
  const double distance = collide(gi.shape, poseI, gj.shape, poseJ, reach, points, element.options);
  const double thinner = std::min(thinnest_[static_cast<size_t>(pair.graphicI)],
                                  thinnest_[static_cast<size_t>(pair.graphicJ)]);
  const double allowance = kStepApproachFraction * thinner;
  if (distance >= 0 || points.empty()) {
    // Apart: any point of one may come at any point of the other at the sum of their speeds.
    const Travel both{travelI.speed + travelJ.speed, travelI.acceleration + travelJ.acceleration};
    const double gap = std::max({distance, boxGap, 0.0});
    findings.consider(pair, gap, longestStep(both.speed, both.acceleration, gap + allowance), both.speed);
    return;
  }
  // Touching: only the approach along the normal at the deepest point deepens it; a ball resting or sliding on a
  // floor is not slowed down.
  const double depth = -distance;
  const ContactPoint* deepest = &points.front();
  for (const ContactPoint& point : points) {
    if (point.depth > deepest->depth) deepest = &point;
  }
  findings.touching.push_back(pair);
  const Vector3 at = deepest->pointOnA;
  const Vector3 velocity = (bodyI ? bodyI->velocityAt(at) : Vector3::Zero()) - (bodyJ ? bodyJ->velocityAt(at) : Vector3::Zero());
  const Vector3 acceleration =
      (bodyI ? bodyI->accelerationAt(at) : Vector3::Zero()) - (bodyJ ? bodyJ->accelerationAt(at) : Vector3::Zero());
  const double approachSpeed = std::max(-velocity.dot(deepest->normal), 0.0);
  const double approachAcceleration = std::max(-acceleration.dot(deepest->normal), 0.0);
  findings.consider(pair, distance, longestStep(approachSpeed, approachAcceleration, allowance), approachSpeed);

  // After the fact: a depth the step bound should have prevented. Depths the element ignores are its user's choice.
  if (depth > element.options.ignoreDeeperThan) return;
  // (Deeper than that is rare, and only then is the pair looked for among those touching before.)
  const bool unseenOnset = !first && depth > kUnseenOnsetFraction * thinner &&
                           std::find(wasTouching_.begin(), wasTouching_.end(), pair) == wasTouching_.end();
  const bool sampled = gi.shape.type == ShapeType::Mesh || gj.shape.type == ShapeType::Mesh || !element.options.analytical;
  const bool pastMiddle = depth > (sampled ? kSampledPastMiddleFraction : kPastMiddleFraction) * thinner;
  if (unseenOnset || pastMiddle) findings.consider(Crossing{pair, depth, thinner, unseenOnset && !pastMiddle});
}

void ContactStepLimit::Findings::consider(const GraphicPair& pair, double gap, double step, double approachSpeed) {
  if (step >= limit.step) return;
  limit = Limit{step, pair, gap, approachSpeed};
}

void ContactStepLimit::Findings::consider(const Crossing& found) {
  if (crossing && found.depth / found.thinnerExtent <= crossing->depth / crossing->thinnerExtent) return;
  crossing = found;
}

void ContactStepLimit::Findings::join(const Findings& later) {
  if (later.limit.step < limit.step) limit = later.limit;
  if (later.crossing) consider(*later.crossing);
}

std::vector<Interference> ContactStepLimit::interference(std::span<const BodyKinematics> bodies) {
  std::vector<Interference> found;
  if (empty()) return found;
  const std::vector<ContactGraphic>& graphics = contacts_->graphics;
  for (size_t g = 0; g < graphics.size(); ++g) {
    boxes_[g] = boundsOf(graphics[g].shape, placeGraphic(graphics[g], kinematicsOf(graphics[g].body, bodies)));
  }
  broadPhase_.findOverlaps(boxes_, overlaps_);
  forEachPair([&](const GraphicPair& pair) {
    const ContactGraphic& gi = contacts_->graphics[static_cast<size_t>(pair.graphicI)];
    const ContactGraphic& gj = contacts_->graphics[static_cast<size_t>(pair.graphicJ)];
    const ForceContact& element = contacts_->elements[static_cast<size_t>(pair.element)];
    points_.clear();
    const double distance =
        collide(gi.shape, placeGraphic(gi, kinematicsOf(gi.body, bodies)), gj.shape,
                placeGraphic(gj, kinematicsOf(gj.body, bodies)), 0.0, points_, element.options);
    if (distance >= 0 || points_.empty()) return;
    const double thinner = std::min(thinnest_[static_cast<size_t>(pair.graphicI)],
                                    thinnest_[static_cast<size_t>(pair.graphicJ)]);
    const double allowed = std::min(element.options.ignoreDeeperThan, kInterferenceErrorFraction * thinner);
    found.push_back({pair, -distance, thinner, allowed});
  });
  std::sort(found.begin(), found.end(), [](const Interference& a, const Interference& b) { return a.depth > b.depth; });
  return found;
}

std::vector<Interference> findInterference(const Model& model, std::span<const BodyKinematics> bodies) {
  ContactStepLimit limit(model);
  return limit.interference(bodies);
}

}  // namespace lodestone
