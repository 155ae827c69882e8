// The contact evaluator keeps the broad phase's pairs from detection to detection (VerletList) and the step limit
// takes its pairs from that list: over a random moving scene of spheres, boxes and meshes in two Force_Contacts, both
// must answer exactly as if the broad phase had run afresh each time — the same pairs, in the same order, with the
// same forces and step bounds bit for bit. And both must answer alike on one thread and on two.
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "elements/contact_evaluator.h"
#include "elements/contact_step_limit.h"
#include "elements/model_builder.h"
#include "solver/core/parallel_loop.h"
#include "solver/core/text.h"
#include "solver/xml/deck_reader.h"

namespace lodestone {
namespace {

constexpr int kBodies = 60;

// A floor on ground and `bodies` bodies of one graphic each — a sphere, a box or a cube mesh in turn — all pairing
// with one another in element 1 and with the floor in element 2.
Model scene(int bodies = kBodies) {
  std::string deck = "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
                     "<Reference_Marker id=\"10\" body_id=\"1\" pos_z=\"-0.05\"/>\n"
                     "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"10\" length_x=\"2\" "
                     "length_y=\"2\" length_z=\"0.1\"/>\n";
  std::string ids;
  for (int k = 0; k < bodies; ++k) {
    const std::string body = std::to_string(1000 + k), marker = std::to_string(2000 + k),
                      graphic = std::to_string(3000 + k);
    deck += "<Body_Rigid id=\"" + body + "\" cg_id=\"" + marker +
            "\" mass=\"1\" inertia_xx=\"1e-3\" inertia_yy=\"1e-3\" inertia_zz=\"1e-3\"/>\n";
    deck += "<Reference_Marker id=\"" + marker + "\" body_id=\"" + body + "\"/>\n";
    const std::string size = formatReal(0.04 + 0.0005 * k);
    switch (k % 3) {
      case 0:
        deck += "<Post_Graphic id=\"" + graphic + "\" type=\"Sphere\" center_marker_id=\"" + marker + "\" radius=\"" +
                size + "\"/>\n";
        break;
      case 1:
        deck += "<Post_Graphic id=\"" + graphic + "\" type=\"BoxDefinedFromCenter\" center_marker_id=\"" + marker +
                "\" length_x=\"0.1\" length_y=\"0.06\" length_z=\"" + size + "\"/>\n";
        break;
      default:
        deck += "<Post_Graphic id=\"" + graphic + "\" type=\"TriaMesh\" ref_marker_id=\"" + marker +
                "\" num_point=\"8\" num_triangle=\"12\">\n"
                "-0.04 -0.04 -0.04  0.04 -0.04 -0.04  -0.04 0.04 -0.04  0.04 0.04 -0.04\n"
                "-0.04 -0.04 0.04  0.04 -0.04 0.04  -0.04 0.04 0.04  0.04 0.04 0.04\n"
                "0 2 3  0 3 1  4 5 7  4 7 6  0 1 5  0 5 4  2 6 7  2 7 3  0 4 6  0 6 2  1 3 7  1 7 5\n"
                "</Post_Graphic>\n";
        break;
    }
    ids += " " + graphic;
  }
  const std::string law = "cnf_type=\"IMPACT\" stiffness=\"1e6\" exponent=\"1.5\" damping=\"20\" dmax=\"1e-3\" "
                          "cff_type=\"COULOMB_ON\" mu_static=\"0.5\" mu_dynamic=\"0.4\" stiction_trans_vel=\"0.01\" "
                          "friction_trans_vel=\"0.02\"";
  deck += "<Force_Contact id=\"1\" i_graphics_id=\"" + ids + "\" j_graphics_id=\"" + ids + "\" " + law + "/>\n";
  deck += "<Force_Contact id=\"2\" i_graphics_id=\"" + ids + "\" j_graphics_id=\"100\" " + law + "/>\n";
  deck += "</Model><Command><Simulate end_time=\"1\" print_interval=\"0.1\"/></Command></MultiBodySystem>\n";
  Diagnostics diagnostics;
  std::optional<ModelSpec> spec = readDeckText(deck, "kept_pairs.xml", diagnostics);
  std::optional<Model> model = spec ? buildModel(*spec, diagnostics) : std::nullopt;
  if (!model) throw std::runtime_error(diagnostics.formatAll());
  return std::move(*model);
}

// The bodies packed in a box of 0.5 × 0.5 × 0.25 m on the floor (or that box scaled by `spread` and lifted by `lift`),
// moving and turning a little per state (about a fiftieth of their size), and now and then a few of them jumping
// anywhere in it: far beyond the kept list's margin.
class MovingBodies {
 public:
  explicit MovingBodies(double spread = 1, double lift = 0, int count = kBodies)
      : spread_(spread), lift_(lift), random_(23), bodies_(count), velocities_(count), spins_(count) {
    for (int k = 0; k < count; ++k) {
      bodies_[k].position = place();
      bodies_[k].rotation = turn(3.0);
      velocities_[k] = 0.002 * Vector3(unit_(random_), unit_(random_), unit_(random_));
      spins_[k] = 0.02 * Vector3(unit_(random_), unit_(random_), unit_(random_));
    }
  }
  const std::vector<BodyKinematics>& bodies() const { return bodies_; }
  void advance(bool jump) {
    for (size_t k = 0; k < bodies_.size(); ++k) {
      BodyKinematics& body = bodies_[k];
      body.position += velocities_[k];
      body.rotation = Eigen::AngleAxisd(spins_[k].norm(), spins_[k].normalized()).toRotationMatrix() * body.rotation;
      // What the laws and the step limit see of the motion: per unit time, as if a state were 10 ms on.
      body.velocity = 100 * velocities_[k];
      body.angularVelocity = 100 * spins_[k];
      body.acceleration = Vector3(unit_(random_), unit_(random_), unit_(random_));
      if (jump && k % 11 == 3) body.position = place();
    }
  }

 private:
  Vector3 place() {
    return spread_ * Vector3(0.25 * unit_(random_), 0.25 * unit_(random_), 0.125 + 0.125 * unit_(random_)) +
           Vector3(0, 0, lift_);
  }
  Matrix3 turn(double largest) {
    const Vector3 axis = Vector3(unit_(random_), unit_(random_), unit_(random_)).normalized();
    return Eigen::AngleAxisd(largest * unit_(random_), axis).toRotationMatrix();
  }
  double spread_, lift_;
  std::mt19937 random_;
  std::uniform_real_distribution<double> unit_{-1, 1};
  std::vector<BodyKinematics> bodies_;
  std::vector<Vector3> velocities_, spins_;
};

void expectSameReports(const std::vector<PairReport>& kept, const std::vector<PairReport>& fresh, int state) {
  ASSERT_EQ(kept.size(), fresh.size()) << "state " << state;
  for (size_t k = 0; k < kept.size(); ++k) {
    const PairReport& a = kept[k];
    const PairReport& b = fresh[k];
    ASSERT_EQ(a.elementId, b.elementId) << "state " << state << ", pair " << k;
    ASSERT_EQ(a.iGraphic, b.iGraphic) << "state " << state << ", pair " << k;
    ASSERT_EQ(a.jGraphic, b.jGraphic) << "state " << state << ", pair " << k;
    EXPECT_EQ(a.points, b.points);
    EXPECT_EQ(a.penetration, b.penetration);
    EXPECT_EQ(a.separation, b.separation);
    EXPECT_EQ(a.normalForce, b.normalForce);
    EXPECT_EQ(a.frictionForce, b.frictionForce);
    EXPECT_EQ(a.force, b.force);
    EXPECT_EQ(a.torque, b.torque);
  }
}

TEST(ContactKeptPairs, TheEvaluatorFindsTheSamePairsAndForcesAsAFreshBroadPhase) {
  const Model model = scene();
  MovingBodies motion;
  ContactEvaluator kept(model);
  std::vector<PairReport> keptReports, freshReports;
  size_t touching = 0;
  const int states = 120;
  for (int state = 0; state < states; ++state) {
    motion.advance(state % 40 == 39);
    const double time = 0.01 * state;
    kept.report(time, motion.bodies(), keptReports, ContactEvaluator::Reach::Close);
    ContactEvaluator fresh(model);  // its first detection runs the broad phase
    fresh.report(time, motion.bodies(), freshReports, ContactEvaluator::Reach::Close);
    expectSameReports(keptReports, freshReports, state);
    for (const PairReport& report : freshReports) touching += report.inContact ? 1 : 0;
  }
  EXPECT_GT(touching, 5u * states);  // enough contacts for the forces to mean something
  // The list was kept most of the time, and built again after each jump at least.
  EXPECT_LT(kept.closeGraphics().builds(), states / 3);
  EXPECT_GE(kept.closeGraphics().builds(), 1 + states / 40);
}

// The outputs between two steps detect at their own states with the step's detection set aside; taken back, it
// answers for the step's state as before, bit for bit, without detecting again.
TEST(ContactKeptPairs, ADetectionSetAsideIsTakenBackWithoutDetectingAgain) {
  const Model model = scene();
  MovingBodies motion;
  ContactEvaluator evaluator(model);
  std::vector<PairReport> atStep, atOutput, afterOutput;
  for (int state = 0; state < 30; ++state) {
    motion.advance(state % 10 == 9);
    const std::vector<BodyKinematics> step = motion.bodies();
    const double time = 0.01 * state;
    evaluator.report(time, step, atStep, ContactEvaluator::Reach::Close);
    const long detections = evaluator.detections();
    evaluator.setDetectionAside();
    MovingBodies between = motion;
    between.advance(false);
    evaluator.report(time, between.bodies(), atOutput, ContactEvaluator::Reach::Close);
    EXPECT_EQ(evaluator.detections(), detections + 1) << "state " << state;
    evaluator.takeDetectionBack();
    evaluator.report(time, step, afterOutput, ContactEvaluator::Reach::Close);
    EXPECT_EQ(evaluator.detections(), detections + 1) << "state " << state;
    expectSameReports(afterOutput, atStep, state);
  }
}

// The step limit with the evaluator's kept pairs and with a broad phase of its own, over the same states.
struct StepLimits {
  int bounded = 0;     // states where a pair bounds the step below the look-ahead
  int farBounded = 0;  // of them, where the bounding pair was apart by more than the kept list's margin
};

StepLimits compareStepLimits(const Model& model, MovingBodies& motion, double shortestLookAhead) {
  ContactEvaluator evaluator(model);
  ContactStepLimit shared(model), own(model);
  StepLimits limits;
  for (int state = 0; state < 120; ++state) {
    motion.advance(state % 40 == 39);
    evaluator.detect(motion.bodies());
    // Look-aheads from a short step, whose swept boxes the kept list covers, to ones that sweep beyond its margin.
    const double lookAhead = shortestLookAhead * std::pow(10.0, state % 4);
    shared.measure(motion.bodies(), lookAhead, &evaluator.closeGraphics());
    own.measure(motion.bodies(), lookAhead);
    const ContactStepLimit::Limit& a = shared.limit();
    const ContactStepLimit::Limit& b = own.limit();
    EXPECT_EQ(a.step, b.step) << "state " << state;
    EXPECT_EQ(a.pair, b.pair) << "state " << state;
    EXPECT_EQ(a.gap, b.gap) << "state " << state;
    EXPECT_EQ(a.approachSpeed, b.approachSpeed) << "state " << state;
    EXPECT_EQ(shared.crossing().has_value(), own.crossing().has_value()) << "state " << state;
    if (shared.crossing() && own.crossing()) {
      EXPECT_EQ(shared.crossing()->pair, own.crossing()->pair) << "state " << state;
    }
    if (b.step < lookAhead) {
      ++limits.bounded;
      limits.farBounded += b.gap > 0.02 ? 1 : 0;
    }
  }
  return limits;
}

TEST(ContactKeptPairs, TheStepLimitBoundsStepsAsWithItsOwnBroadPhase) {
  const Model model = scene();
  // Packed: the bounding pairs are close, among the kept ones.
  MovingBodies packed;
  EXPECT_GT(compareStepLimits(model, packed, 1e-4).bounded, 40);
  // Spread over a box four times as large, off the floor, with look-aheads up to a second: pairs far beyond the kept
  // list's margin bound steps too, and the step limit must find them by a broad phase of its own.
  MovingBodies spread(8, 0.2);
  EXPECT_GT(compareStepLimits(model, spread, 1e-3).farBounded, 10);
}

TEST(ContactKeptPairs, TwoThreadsDetectEvaluateAndBoundStepsBitForBitAsOne) {
  // Detection and the step limit share their pairs out in blocks of fixed size and join them in order; the loads and
  // energy of the pairs are each computed alone and summed in pair order. So two threads must give what one gives to
  // the last bit. The scene is large enough for several blocks of each.
  const int bodies = 150;
  const Model model = scene(bodies);
  MovingBodies motion(1, 0, bodies);
  const ParallelLoop twoThreads(2);
  ContactEvaluator one(model), two(model);
  two.setParallelLoop(twoThreads);
  ContactStepLimit limitOne(model), limitTwo(model);
  limitTwo.setParallelLoop(twoThreads);
  size_t mostKept = 0, mostActive = 0;
  int crossings = 0;
  for (int state = 0; state < 40; ++state) {
    motion.advance(state % 20 == 19);
    const double time = 0.01 * state;
    one.detect(motion.bodies());
    two.detect(motion.bodies());
    ASSERT_EQ(one.activePairs().size(), two.activePairs().size()) << "state " << state;
    for (size_t k = 0; k < one.activePairs().size(); ++k) {
      EXPECT_EQ(one.activePairs()[k].candidate, two.activePairs()[k].candidate) << "state " << state;
      EXPECT_EQ(one.activePairs()[k].bodyI, two.activePairs()[k].bodyI) << "state " << state;
      EXPECT_EQ(one.activePairs()[k].bodyJ, two.activePairs()[k].bodyJ) << "state " << state;
    }
    std::vector<BodyLoad> loadsOne(bodies), loadsTwo(bodies);
    one.addLoads(time, motion.bodies(), loadsOne);
    two.addLoads(time, motion.bodies(), loadsTwo);
    for (int body = 0; body < bodies; ++body) {
      EXPECT_EQ(loadsOne[body].force, loadsTwo[body].force) << "state " << state << ", body " << body;
      EXPECT_EQ(loadsOne[body].torque, loadsTwo[body].torque) << "state " << state << ", body " << body;
    }
    const ContactEnergy energyOne = one.energy(time, motion.bodies(), true);
    const ContactEnergy energyTwo = two.energy(time, motion.bodies(), true);
    EXPECT_EQ(energyOne.strain, energyTwo.strain) << "state " << state;
    EXPECT_EQ(energyOne.dashpotPower, energyTwo.dashpotPower) << "state " << state;
    EXPECT_EQ(energyOne.slipPower, energyTwo.slipPower) << "state " << state;
    EXPECT_GT(energyOne.strain, 0) << "state " << state;

    const double lookAhead = 1e-4 * std::pow(10.0, state % 4);
    limitOne.measure(motion.bodies(), lookAhead, &one.closeGraphics());
    limitTwo.measure(motion.bodies(), lookAhead, &two.closeGraphics());
    EXPECT_EQ(limitOne.limit().step, limitTwo.limit().step) << "state " << state;
    EXPECT_EQ(limitOne.limit().pair, limitTwo.limit().pair) << "state " << state;
    EXPECT_EQ(limitOne.limit().gap, limitTwo.limit().gap) << "state " << state;
    ASSERT_EQ(limitOne.crossing().has_value(), limitTwo.crossing().has_value()) << "state " << state;
    if (limitOne.crossing()) {
      ++crossings;
      EXPECT_EQ(limitOne.crossing()->pair, limitTwo.crossing()->pair) << "state " << state;
      EXPECT_EQ(limitOne.crossing()->depth, limitTwo.crossing()->depth) << "state " << state;
    }
    mostKept = std::max(mostKept, one.closeGraphics().kept().size());
    mostActive = std::max(mostActive, one.activePairs().size());
  }
  EXPECT_GT(mostKept, 2u * ContactEvaluator::kSerialDetectionPairs);  // several blocks
  EXPECT_GT(crossings, 0);  // the step limit's crossings are joined too
  EXPECT_GT(mostActive, 2u * ContactEvaluator::kActivePairsPerTask);
}

}  // namespace
}  // namespace lodestone
