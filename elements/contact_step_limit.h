// Force_Contact's guard against tunnelling (conservative advancement): at every accepted state, how long the next
// step may be so that no pair of graphics can cross into each other unseen, and whether a pair was found crossed
// after the fact. Also the interference of pairs that overlap where a run starts.
#pragma once

#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "collision/broad_phase.h"
#include "collision/contact_point.h"
#include "elements/body_rigid.h"
#include "elements/contact_pairs.h"
#include "elements/force_contact.h"
#include "solver/core/model.h"
#include "solver/core/parallel_loop.h"

namespace lodestone {

// Within one step a pair may approach by at most its gap plus this part of the thinner extent of its two graphics
// (the onset root, or the next step's look, then finds it barely touching).
constexpr double kStepApproachFraction = 0.1;
// Found touching after a step, apart at the step before, deeper than this part of the thinner extent: the step
// crossed into the pair unseen (the step bound allows kStepApproachFraction, so only an estimate gone wrong gets
// here).
constexpr double kUnseenOnsetFraction = 0.25;
// A touching pair deeper than this part of the thinner extent is past the middle of the thinner graphic, where its
// nearest way out is the far side: contact would push it through.
constexpr double kPastMiddleFraction = 0.5;
// The same for a pair through meshes, whose depth is a sampled point's distance to the nearest surface: it never
// exceeds half the thickness it crosses (its normal turns round there instead). Approaching by at most
// kStepApproachFraction a step, a point on its way through is seen between 0.4 and 0.5 of the thickness at some step.
constexpr double kSampledPastMiddleFraction = 0.4;
// At the start, an overlap deeper than this part of the thinner extent is an error. A deliberate preload (a body
// placed slightly pressed into its support, to start near equilibrium) is a small part of it: the decks of models/
// that start pressed in do so by 0.2–0.5 %. A tenth is what one step may cross into a pair (kStepApproachFraction):
// a start deeper than that looks like a crossing the guard would have stopped, and at half the pair's normal flips.
constexpr double kInterferenceErrorFraction = 0.1;

// A pair of graphics of a Force_Contact (indices into ContactModel's elements and graphics).
struct GraphicPair {
  int element = -1;
  int graphicI = -1, graphicJ = -1;
  bool operator==(const GraphicPair&) const = default;
};

// A pair overlapping where a run starts.
struct Interference {
  GraphicPair pair;
  double depth = 0;
  double thinnerExtent = 0;  // of its two graphics
  double allowed = 0;        // deeper than this is an error
  bool error() const { return depth > allowed; }
};

// The overlapping pairs of every Force_Contact with the bodies at `bodies` (index into Model::bodies), deepest first.
std::vector<Interference> findInterference(const Model& model, std::span<const BodyKinematics> bodies);

class ContactStepLimit {
 public:
  // `model`'s contacts must outlive the limit. Measures every graphic's thinnest extent (a mesh's once, by tracing).
  explicit ContactStepLimit(const Model& model);

  bool empty() const { return !contacts_ || contacts_->elements.empty(); }

  // The threads measure() spreads its pairs over (`loop` must outlive the limit); one by default. Results are the
  // same bit for bit whatever the thread count.
  void setParallelLoop(const ParallelLoop& loop) { parallel_ = &loop; }

  // What measure() found at an accepted state.
  struct Limit {
    double step = std::numeric_limits<double>::infinity();  // the longest next step the geometry allows
    GraphicPair pair;        // the pair that sets it (element −1: none does)
    double gap = 0;          // its signed distance now (< 0: touching, −depth)
    double approachSpeed = 0;
  };
  // A pair found deeper than it can be after a step.
  struct Crossing {
    GraphicPair pair;
    double depth = 0;
    double thinnerExtent = 0;
    bool unseenOnset = false;  // apart at the state before (else: touching, pushed to the middle)
  };

  // At an accepted state: the bodies' kinematics with their accelerations (from y'). Measures every pair that could
  // meet within `lookAhead` (a swept broad phase: each graphic's box grown by how far its points can travel in that
  // time); every other pair cannot meet within any step up to it. At the first state measured, the pairs touching
  // were there before it (the start's interference is reported on its own).
  //
  // `closeGraphics`, when given, is the evaluator's kept list of the same graphics (ContactEvaluator::closeGraphics):
  // when its grown boxes cover the swept ones — a step's travel is usually far less than the proximity and the margin
  // they were grown by — its pairs are the swept boxes' pairs, and the broad phase need not run again.
  void measure(std::span<const BodyKinematics> bodies, double lookAhead, const VerletList* closeGraphics = nullptr);
  const Limit& limit() const { return limit_; }
  const std::optional<Crossing>& crossing() const { return crossing_; }

  // The pairs that overlap with the bodies at `bodies`, deepest first.
  std::vector<Interference> interference(std::span<const BodyKinematics> bodies);

  double thinnerExtent(int graphic) const { return thinnest_[static_cast<size_t>(graphic)]; }

 private:
  // How far any point of a graphic can travel in time h: speed·h + ½·acceleration·h².
  struct Travel {
    double speed = 0, acceleration = 0;
    double at(double h) const { return speed * h + 0.5 * acceleration * h * h; }
  };
  // What measure() found over a block of its pairs, in their order: the first pair that allows the shortest step, the
  // first of the deepest crossings, the pairs touching. join() takes a later block's limit and crossing as they would
  // have been found after this block's.
  struct Findings {
    Limit limit;
    std::optional<Crossing> crossing;
    std::vector<GraphicPair> touching;
    std::vector<ContactPoint> points;  // the narrow phase's, for one pair at a time
    void consider(const GraphicPair& pair, double gap, double step, double approachSpeed);
    void consider(const Crossing& found);
    void join(const Findings& later);
  };
  void measurePair(const GraphicPair& pair, std::span<const BodyKinematics> bodies, bool first,
                   Findings& findings) const;

  const ContactModel* contacts_ = nullptr;
  // Calls visit(pair) for every pair of an element among the graphics overlaps_ holds.
  template <class Visit>
  void forEachPair(Visit&& visit) const;

  std::vector<std::vector<GraphicRole>> roles_;  // per graphic: the elements it belongs to, and on which side
  std::vector<double> thinnest_;   // per graphic
  std::vector<double> reach_;      // per graphic: the farthest any of its points is from its body's CG
  std::vector<Travel> travel_;     // per graphic, at the latest measure()
  std::vector<Pose> poses_;        // per graphic, at the latest measure(), for its pairs
  std::vector<Aabb> shapeBoxes_;   // per graphic: its shape's box there (boxes_ grown by its travel)
  std::vector<Aabb> boxes_;
  BroadPhase broadPhase_;
  std::vector<std::pair<int, int>> overlaps_;
  std::vector<GraphicPair> pairs_;  // of the latest measure(), in the order every thread count visits them
  std::vector<Findings> blocks_;    // per fixed block of pairs_
  std::vector<ContactPoint> points_;
  ParallelLoop serialLoop_{1};
  const ParallelLoop* parallel_ = &serialLoop_;
  std::vector<GraphicPair> touching_, wasTouching_;  // at the latest measure() and the one before, in pair order
  bool measured_ = false;
  double lookAhead_ = 0;  // of the latest measure()
  Limit limit_;
  std::optional<Crossing> crossing_;
};

}  // namespace lodestone
