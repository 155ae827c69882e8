// Force_JointFriction against its closed forms: a wheel on a pin under gravity, driven by a slowly ramped torque,
// breaks away at μs·Rp·m·g + torque_preload and slides at μd·Rp·m·g + torque_preload (the friction read through a
// MARKER_FORCE request between the joint's markers, whose torque about the axis is the friction alone), and its
// angular velocity grows by (T − friction)/I while it slides; a block on a translational joint with force_preload
// breaks away at μs·m·g + force_preload and slides at μd·m·g + force_preload; a block pushed below breakaway holds,
// its creep within max_stiction_deform; effect="Sliding" has no stiction, effect="Stiction" no sliding friction, and
// inputs="0110" leaves out the preload. FRICTION() reads the wheel's friction torque, coefficient and slip rate. A
// ball in a socket, turned about an axis off its joint's, breaks away and slides at the same closed forms with
// ball_radius for the pin's radius.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/joint_testing.h"
#include "support/results_csv.h"

namespace lodestone::testing {
namespace {


// A friction deck's run: request `request`'s rows in requests.csv and body `body`'s in bodies.csv, output by output.
struct FrictionRun {
  FrictionRun(const std::string& name, const std::string& deck, long request, long body)
      : outcome(runDeckText(name, deck)),
        requests((outcome.output / "requests.csv").string()),
        bodies((outcome.output / "bodies.csv").string()),
        rows(requests.rowsOfBody(request)),
        bodyRows(bodies.rowsOfBody(body)) {}
  // The run completed, with the request and the body at the same outputs.
  bool completed() const { return outcome.completed && !rows.empty() && rows.size() == bodyRows.size(); }
  size_t outputs() const { return rows.size(); }
  // At output k: a column of the request's row, of the body's row.
  double request(size_t k, const std::string& column) const { return requests.at(rows[k], column); }
  double body(size_t k, const std::string& column) const { return bodies.at(bodyRows[k], column); }

  DeckRun outcome;
  ResultsTable requests, bodies;
  std::vector<size_t> rows, bodyRows;
};

// A wheel (body 2, CG on the pin at the origin) on a REVOLUTE joint about ground z (I = 21 on the wheel, J = 10 on
// ground), gravity −y, so the pin carries m·g radially; a torque about z (Force_Scalar_TwoBody 40 between 22 and 11)
// of `drive`; friction 9 on the joint; MARKER_FORCE request 50 between the joint's markers.
struct Wheel {
  double mass = 2, inertia = 0.05;
  double muStatic = 0.3, muDynamic = 0.2, pinRadius = 0.02, preload = 0.05;
  double maxCreep = 1e-5, stictionVelocity = 1e-3;
  std::string effect = "All";
  std::string inputs = "1111";
  std::string drive = "MIN(0.1*TIME, 0.2)";
  double endTime = 3, printInterval = 0.01;
  double normalLoad() const { return mass * kG; }
  double staticTorque() const { return muStatic * pinRadius * normalLoad() + preload; }
  double dynamicTorque() const { return muDynamic * pinRadius * normalLoad() + preload; }
  std::string deck() const {
    BodyXml body;
    body.mass = mass;
    body.inertia = Vec3(inertia, inertia, inertia);
    const std::string statements =
        markerXml(10, 1, Vec3::Zero()) + markerXml(11, 1, Vec3::Zero()) + markerXml(20, 2, Vec3::Zero()) +
        markerXml(21, 2, Vec3::Zero()) + markerXml(22, 2, Vec3::Zero()) + bodyXml(body) +
        jointXml(1, "REVOLUTE", 21, 10) +
        "<Force_JointFriction id=\"9\" joint_id=\"1\" mu_static=\"" + formatReal(muStatic) + "\" mu_dynamic=\"" +
        formatReal(muDynamic) + "\" pin_radius=\"" + formatReal(pinRadius) + "\" torque_preload=\"" +
        formatReal(preload) + "\" max_stiction_deform=\"" + formatReal(maxCreep) + "\" stiction_trans_vel=\"" +
        formatReal(stictionVelocity) + "\" effect=\"" + effect + "\" inputs=\"" + inputs + "\"/>\n" +
        "<Force_Scalar_TwoBody id=\"40\" type=\"TORQUE\" i_marker_id=\"22\" j_marker_id=\"11\" val_expression=\"" +
        drive + "\"/>\n" + "<Post_Request id=\"50\" type=\"MARKER_FORCE\" i_marker_id=\"21\" j_marker_id=\"10\"/>\n" +
        "<Post_Request id=\"51\" type=\"EXPRESSION\" expr1=\"FRICTION(9, 6)\" expr2=\"FRICTION(9, 12)\" "
        "expr3=\"FRICTION(9, 18)\" expr4=\"FRICTION(9, 3)\" expr5=\"FRICTION(9, 6, 0)\"/>\n";
    DeckXml settings;
    settings.gravity = Vec3(0, -kG, 0);
    settings.integrTol = 1e-8;
    settings.endTime = endTime;
    settings.printInterval = printInterval;
    return deckXml(settings, statements);
  }
};

// The wheel's turn about z at output k.
double wheelAngle(const FrictionRun& run, size_t k) { return 2 * std::atan2(run.body(k, "e3"), run.body(k, "e0")); }

TEST(JointFriction, WheelOnAPinBreaksAwayAndSlidesAtTheClosedForms) {
  const Wheel wheel;
  const FrictionRun run("joint_friction_wheel", wheel.deck(), 50, 2);
  ASSERT_TRUE(run.completed());
  ASSERT_GT(run.outputs(), 250u);
  // 0.3·0.02·19.62 + 0.05 = 0.16772 N·m, and 0.2·0.02·19.62 + 0.05 = 0.12848 N·m.
  ASSERT_NEAR(wheel.staticTorque(), 0.16772, 1e-12);
  ASSERT_NEAR(wheel.dynamicTorque(), 0.12848, 1e-12);

  double largest = 0;
  for (size_t k = 0; k < run.outputs(); ++k) {
    const double time = run.request(k, "time");
    const double friction = -run.request(k, "f8");  // the torque on the wheel about z, opposing +z rotation
    largest = std::max(largest, friction);
    // Sticking while the drive is below breakaway: the creep on the pin's surface stays within max_stiction_deform.
    if (0.1 * time < 0.99 * wheel.staticTorque()) {
      EXPECT_LE(std::fabs(wheelAngle(run, k)) * wheel.pinRadius, wheel.maxCreep * (1 + 1e-9))
          << "t = " << time;
    }
    // Sliding at more than twice stiction_trans_vel: the dynamic friction, within 1e-6 of its closed form.
    if (run.body(k, "wz") * wheel.pinRadius > 2 * wheel.stictionVelocity) {
      EXPECT_NEAR(friction, wheel.dynamicTorque(), 1e-6 * wheel.dynamicTorque()) << "t = " << time;
    }
  }
  // Breakaway: the largest friction before sliding is the static one.
  EXPECT_NEAR(largest, wheel.staticTorque(), 1e-6 * wheel.staticTorque());

  // FRICTION(9, comp): the torque about z_J is the request's (J is ground's, its axes ground's), the coefficient μs
  // at breakaway and μd sliding, the slip rate the wheel's ωz; no force along z_J.
  const std::vector<size_t> friction = run.requests.rowsOfBody(51);
  ASSERT_EQ(friction.size(), run.outputs());
  double largestCoefficient = 0;
  for (size_t k = 0; k < run.outputs(); ++k) {
    const auto measured = [&](const char* column) { return run.requests.at(friction[k], column); };
    EXPECT_NEAR(measured("f1"), run.request(k, "f8"), 1e-12) << "t = " << run.request(k, "time");
    EXPECT_EQ(measured("f5"), measured("f1"));
    EXPECT_NEAR(measured("f3"), run.body(k, "wz"), 1e-12);
    EXPECT_EQ(measured("f4"), 0.0);
    largestCoefficient = std::max(largestCoefficient, measured("f2"));
    if (run.body(k, "wz") * wheel.pinRadius > 2 * wheel.stictionVelocity) {
      EXPECT_NEAR(measured("f2"), wheel.muDynamic, 1e-12) << "t = " << run.request(k, "time");
    }
  }
  EXPECT_NEAR(largestCoefficient, wheel.muStatic, 1e-6 * wheel.muStatic);

  // Sliding under the constant 0.2 N·m after t = 2 s: ω grows at (0.2 − 0.12848)/0.05 = 1.4304 rad/s².
  const auto at = [&](double time) {
    for (size_t k = 0; k < run.outputs(); ++k) {
      if (std::fabs(run.body(k, "time") - time) < 1e-9) return k;
    }
    ADD_FAILURE() << "no output at t = " << time;
    return size_t{0};
  };
  const double acceleration = (0.2 - wheel.dynamicTorque()) / wheel.inertia;
  EXPECT_NEAR(acceleration, 1.4304, 1e-12);
  EXPECT_GT(run.body(at(2.2), "wz") * wheel.pinRadius, 2 * wheel.stictionVelocity);
  const double gained = run.body(at(3.0), "wz") - run.body(at(2.2), "wz");
  EXPECT_NEAR(gained, acceleration * 0.8, 1e-6 * acceleration * 0.8);
}

TEST(JointFriction, InputsLeaveOutThePreloadAndStictionOnlyFadesWhenSliding) {
  // inputs="0110": no preload, so breakaway at 0.3·0.02·19.62 = 0.11772 N·m; effect="Stiction": no friction once the
  // wheel slides at 2·stiction_trans_vel.
  Wheel wheel;
  wheel.inputs = "0110";
  wheel.effect = "Stiction";
  wheel.endTime = 2.5;
  const FrictionRun run("joint_friction_stiction_only", wheel.deck(), 50, 2);
  ASSERT_TRUE(run.completed());
  const double breakaway = wheel.muStatic * wheel.pinRadius * wheel.normalLoad();
  ASSERT_NEAR(breakaway, 0.11772, 1e-12);
  double largest = 0;
  int sliding = 0;
  for (size_t k = 0; k < run.outputs(); ++k) {
    const double friction = -run.request(k, "f8");
    largest = std::max(largest, friction);
    if (run.body(k, "wz") * wheel.pinRadius > 2 * wheel.stictionVelocity) {
      ++sliding;
      EXPECT_NEAR(friction, 0.0, 1e-12) << "t = " << run.request(k, "time");
    }
  }
  EXPECT_GT(sliding, 50);
  EXPECT_NEAR(largest, breakaway, 1e-6 * breakaway);
}

// A ball (body 2, CG at the joint's centre at the origin) on a SPHERICAL joint (I = 21 on the ball, J = 10 on
// ground), gravity −y, so the ball carries m·g whole and no moment; a torque along d = (2, 1, 2)/3, off every axis
// (Force_Scalar_TwoBody 40 between 22 on the ball and 11 on ground, their z axes along d), of `drive`; friction 7 on
// the joint; MARKER_FORCE request 50 between the joint's markers, whose torque is the friction alone. The inertia is
// the same about every axis, so the ball turns about d only and the law's vectors all lie along d.
struct Ball {
  double mass = 2, inertia = 0.05;
  double muStatic = 0.3, muDynamic = 0.2, ballRadius = 0.02, preload = 0.05;
  double maxCreep = 1e-5, stictionVelocity = 1e-3;
  Vec3 axis = Vec3(2, 1, 2) / 3;
  double staticTorque() const { return muStatic * ballRadius * mass * kG + preload; }
  double dynamicTorque() const { return muDynamic * ballRadius * mass * kG + preload; }
  std::string deck() const {
    BodyXml body;
    body.mass = mass;
    body.inertia = Vec3(inertia, inertia, inertia);
    const Vec3 across(1, 0, -1);  // ⟂ d
    const std::string statements =
        markerXml(10, 1, Vec3::Zero()) + markerXml(11, 1, Vec3::Zero(), across, axis) +
        markerXml(20, 2, Vec3::Zero()) + markerXml(21, 2, Vec3::Zero()) +
        markerXml(22, 2, Vec3::Zero(), across, axis) + bodyXml(body) + jointXml(1, "SPHERICAL", 21, 10) +
        "<Force_JointFriction id=\"7\" joint_id=\"1\" mu_static=\"" + formatReal(muStatic) + "\" mu_dynamic=\"" +
        formatReal(muDynamic) + "\" ball_radius=\"" + formatReal(ballRadius) + "\" torque_preload=\"" +
        formatReal(preload) + "\" max_stiction_deform=\"" + formatReal(maxCreep) + "\" stiction_trans_vel=\"" +
        formatReal(stictionVelocity) + "\"/>\n" +
        "<Force_Scalar_TwoBody id=\"40\" type=\"TORQUE\" i_marker_id=\"22\" j_marker_id=\"11\" "
        "val_expression=\"MIN(0.1*TIME, 0.2)\"/>\n" +
        "<Post_Request id=\"50\" type=\"MARKER_FORCE\" i_marker_id=\"21\" j_marker_id=\"10\"/>\n" +
        "<Post_Request id=\"51\" type=\"EXPRESSION\" expr1=\"FRICTION(7, 4)\" expr2=\"FRICTION(7, 5)\" "
        "expr3=\"FRICTION(7, 6)\" expr4=\"FRICTION(7, 10)\" expr5=\"FRICTION(7, 11)\" expr6=\"FRICTION(7, 12)\" "
        "expr7=\"FRICTION(7, 16)\" expr8=\"FRICTION(7, 18)\"/>\n";
    DeckXml settings;
    settings.gravity = Vec3(0, -kG, 0);
    settings.integrTol = 1e-8;
    settings.endTime = 3;
    settings.printInterval = 0.01;
    return deckXml(settings, statements);
  }
};

TEST(JointFriction, BallInASocketBreaksAwayAndSlidesAtTheClosedFormsWhicheverWayItIsTurned) {
  const Ball ball;
  const FrictionRun run("joint_friction_ball", ball.deck(), 50, 2);
  ASSERT_TRUE(run.completed());
  ASSERT_GT(run.outputs(), 250u);
  // 0.3·0.02·19.62 + 0.05 = 0.16772 N·m, and 0.2·0.02·19.62 + 0.05 = 0.12848 N·m: the wheel's numbers, since the
  // ball carries the same m·g.
  ASSERT_NEAR(ball.staticTorque(), 0.16772, 1e-12);
  ASSERT_NEAR(ball.dynamicTorque(), 0.12848, 1e-12);
  const std::vector<size_t> measures = run.requests.rowsOfBody(51);
  ASSERT_EQ(measures.size(), run.outputs());

  double largest = 0, largestCoefficient = 0;
  int sliding = 0;
  for (size_t k = 0; k < run.outputs(); ++k) {
    const double time = run.request(k, "time");
    const Vec3 torque(run.request(k, "f6"), run.request(k, "f7"), run.request(k, "f8"));
    const Vec3 spin(run.body(k, "wx"), run.body(k, "wy"), run.body(k, "wz"));
    const double friction = -torque.dot(ball.axis);  // opposing the turn about +d
    largest = std::max(largest, friction);
    // The friction, like the drive, acts about d only.
    EXPECT_LT((torque + friction * ball.axis).norm(), 1e-9 * ball.staticTorque()) << "t = " << time;
    // Sticking while the drive is below breakaway: the creep on the ball's surface stays within max_stiction_deform.
    if (0.1 * time < 0.99 * ball.staticTorque()) {
      const Vec3 e(run.body(k, "e1"), run.body(k, "e2"), run.body(k, "e3"));
      const double turned = 2 * std::atan2(e.norm(), std::fabs(run.body(k, "e0")));
      EXPECT_LE(turned * ball.ballRadius, ball.maxCreep * (1 + 1e-9)) << "t = " << time;
    }
    // FRICTION(7, comp): the torque is the request's; the coefficient lies along the turn it resists, μd while
    // sliding; the slip rate is the ball's ω.
    const auto measured = [&](const char* column) { return run.requests.at(measures[k], column); };
    EXPECT_NEAR((Vec3(measured("f1"), measured("f2"), measured("f3")) - torque).norm(), 0, 1e-12) << "t = " << time;
    const Vec3 coefficient(measured("f4"), measured("f5"), measured("f6"));
    largestCoefficient = std::max(largestCoefficient, coefficient.norm());
    EXPECT_NEAR(measured("f7"), spin.x(), 1e-12);
    EXPECT_NEAR(measured("f8"), spin.z(), 1e-12);
    // Sliding at more than twice stiction_trans_vel: the dynamic friction, within 1e-6 of its closed form.
    if (spin.dot(ball.axis) * ball.ballRadius > 2 * ball.stictionVelocity) {
      ++sliding;
      EXPECT_NEAR(friction, ball.dynamicTorque(), 1e-6 * ball.dynamicTorque()) << "t = " << time;
      EXPECT_NEAR((coefficient - ball.muDynamic * ball.axis).norm(), 0, 1e-9) << "t = " << time;
    }
  }
  EXPECT_GT(sliding, 100);
  // Breakaway: the largest friction before sliding is the static one, the coefficient then μs.
  EXPECT_NEAR(largest, ball.staticTorque(), 1e-6 * ball.staticTorque());
  EXPECT_NEAR(largestCoefficient, ball.muStatic, 1e-6 * ball.muStatic);

  // Sliding under the constant 0.2 N·m after t = 2 s: the spin about d grows at (0.2 − 0.12848)/0.05 = 1.4304 rad/s².
  const size_t from = 220, to = run.outputs() - 1;
  ASSERT_NEAR(run.body(from, "time"), 2.2, 1e-9);
  ASSERT_NEAR(run.body(to, "time"), 3.0, 1e-9);
  const auto spinAbout = [&](size_t k) {
    return Vec3(run.body(k, "wx"), run.body(k, "wy"), run.body(k, "wz")).dot(ball.axis);
  };
  const double acceleration = (0.2 - ball.dynamicTorque()) / ball.inertia;
  EXPECT_NEAR(spinAbout(to) - spinAbout(from), acceleration * 0.8, 1e-6 * acceleration * 0.8);
}

// A block (body 3, CG at the origin) on a TRANSLATIONAL joint along ground x (I = 31, J = 11), gravity −z; pushed
// along +x by Force_Scalar_TwoBody 41 (`push`, from ground marker 13 behind it); MARKER_FORCE request 51.
struct Block {
  double mass = 3, muStatic = 0.4, muDynamic = 0.3, preload = 1.5;
  double maxCreep = 1e-4, stictionVelocity = 1e-3;
  std::string push;
  std::string effect = "All";
  double endTime = 3, printInterval = 0.002;
  double staticForce() const { return muStatic * mass * kG + preload; }
  double dynamicForce() const { return muDynamic * mass * kG + preload; }
  std::string deck() const {
    BodyXml body;
    body.id = 3;
    body.cg = 30;
    body.mass = mass;
    const Vec3 along = Vec3::UnitX(), across = Vec3::UnitY();
    const std::string statements =
        markerXml(11, 1, Vec3::Zero(), across, along) + markerXml(13, 1, Vec3(-10, 0, 0)) +
        markerXml(30, 3, Vec3::Zero()) + markerXml(31, 3, Vec3::Zero(), across, along) +
        markerXml(32, 3, Vec3::Zero()) + bodyXml(body) + jointXml(2, "TRANSLATIONAL", 31, 11) +
        "<Force_JointFriction id=\"8\" joint_id=\"2\" mu_static=\"" + formatReal(muStatic) + "\" mu_dynamic=\"" +
        formatReal(muDynamic) + "\" force_preload=\"" + formatReal(preload) + "\" max_stiction_deform=\"" +
        formatReal(maxCreep) + "\" stiction_trans_vel=\"" + formatReal(stictionVelocity) + "\" effect=\"" + effect +
        "\"/>\n" + "<Force_Scalar_TwoBody id=\"41\" type=\"FORCE\" i_marker_id=\"32\" j_marker_id=\"13\" "
        "val_expression=\"" + push + "\"/>\n" +
        "<Post_Request id=\"51\" type=\"MARKER_FORCE\" i_marker_id=\"31\" j_marker_id=\"11\"/>\n";
    DeckXml settings;
    settings.gravity = Vec3(0, 0, -kG);
    settings.integrTol = 1e-8;
    settings.endTime = endTime;
    settings.printInterval = printInterval;
    return deckXml(settings, statements);
  }
};

TEST(JointFriction, BlockWithForcePreloadBreaksAwayAndSlidesAtTheClosedForms) {
  Block block;
  block.push = "STEP(TIME, 0, 0, 2, 14)";
  const FrictionRun run("joint_friction_block", block.deck(), 51, 3);
  ASSERT_TRUE(run.completed());
  // 0.4·3·9.81 + 1.5 = 13.272 N and 0.3·3·9.81 + 1.5 = 10.329 N.
  ASSERT_NEAR(block.staticForce(), 13.272, 1e-12);
  ASSERT_NEAR(block.dynamicForce(), 10.329, 1e-12);
  double largest = 0;
  int sliding = 0;
  for (size_t k = 0; k < run.outputs(); ++k) {
    const double friction = -run.request(k, "f2");  // along −x on the block
    largest = std::max(largest, friction);
    if (run.body(k, "vx") > 2 * block.stictionVelocity) {
      ++sliding;
      EXPECT_NEAR(friction, block.dynamicForce(), 1e-6 * block.dynamicForce())
          << "t = " << run.request(k, "time");
    }
  }
  EXPECT_GT(sliding, 100);
  EXPECT_NEAR(largest, block.staticForce(), 1e-6 * block.staticForce());
  // Under the full 14 N from t = 2 s: v grows at (14 − 10.329)/3 m/s².
  const double acceleration = (14 - block.dynamicForce()) / block.mass;
  const size_t from = static_cast<size_t>(2.2 / block.printInterval + 0.5);
  const size_t to = run.outputs() - 1;
  ASSERT_NEAR(run.body(from, "time"), 2.2, 1e-9);
  ASSERT_NEAR(run.body(to, "time"), 3.0, 1e-9);
  EXPECT_NEAR(run.body(to, "vx") - run.body(from, "vx"), acceleration * 0.8, 1e-6 * acceleration * 0.8);
}

TEST(JointFriction, BlockPushedBelowBreakawayHoldsWithinItsCreep) {
  Block block;
  const double push = 0.8 * block.staticForce();  // 10.6176 N
  block.push = "STEP(TIME, 0, 0, 1, " + formatReal(push) + ")";
  block.printInterval = 0.01;
  const FrictionRun run("joint_friction_hold", block.deck(), 51, 3);
  ASSERT_TRUE(run.completed());
  double creep = 0, speed = 0;
  for (size_t k = 0; k < run.outputs(); ++k) {
    creep = std::max(creep, std::fabs(run.body(k, "x")));
    speed = std::max(speed, std::fabs(run.body(k, "vx")));
  }
  EXPECT_LE(creep, block.maxCreep);
  EXPECT_LT(speed, 0.2 * block.stictionVelocity);
  // Held from t = 2 s on: the bristle carries the push, 0.8 of the way to its limit. It has no damping, so it rings
  // at √(k/m) = √(13.272 / 1e-4 / 3) = 210 rad/s with what the ramp's ends excited (BDF damps it a little): the mean
  // over the outputs is the push, the ring within 1e-3 of it.
  double sum = 0, lowest = push, highest = push, creepSum = 0;
  int count = 0;
  for (size_t k = 0; k < run.outputs(); ++k) {
    if (run.request(k, "time") < 2 - 1e-9) continue;
    const double held = -run.request(k, "f2");
    sum += held;
    creepSum += run.body(k, "x");
    lowest = std::min(lowest, held);
    highest = std::max(highest, held);
    ++count;
  }
  ASSERT_EQ(count, 101);
  EXPECT_NEAR(sum / count, push, 1e-4 * push);
  EXPECT_NEAR(creepSum / count, 0.8 * block.maxCreep, 1e-4 * block.maxCreep);
  EXPECT_LT(highest - lowest, 2e-3 * push);
}

TEST(JointFriction, SlidingOnlyHasNoStiction) {
  // effect="Sliding": μd throughout, smoothed through zero slip over ±stiction_trans_vel; a push between the dynamic
  // and the static friction moves the block.
  Block block;
  block.effect = "Sliding";
  const double push = 0.5 * (block.staticForce() + block.dynamicForce());
  block.push = "STEP(TIME, 0, 0, 0.5, " + formatReal(push) + ")";
  block.printInterval = 0.01;
  block.endTime = 2;
  const FrictionRun run("joint_friction_sliding_only", block.deck(), 51, 3);
  ASSERT_TRUE(run.completed());
  const size_t last = run.outputs() - 1;
  EXPECT_GT(run.body(last, "vx"), block.stictionVelocity);
  EXPECT_NEAR(-run.request(last, "f2"), block.dynamicForce(), 1e-6 * block.dynamicForce());
  // The friction acts on the block, not only in the request: from t = 1 s (the push whole, v far above vs) v grows
  // at (11.8005 − 10.329)/3 = 0.4905 m/s².
  const double acceleration = (push - block.dynamicForce()) / block.mass;
  ASSERT_NEAR(acceleration, 0.4905, 1e-12);
  const size_t from = static_cast<size_t>(1.0 / block.printInterval + 0.5);
  ASSERT_NEAR(run.body(from, "time"), 1.0, 1e-9);
  ASSERT_NEAR(run.body(last, "time"), 2.0, 1e-9);
  ASSERT_GT(run.body(from, "vx"), 2 * block.stictionVelocity);
  EXPECT_NEAR(run.body(last, "vx") - run.body(from, "vx"), acceleration, 1e-6 * acceleration);
}

}  // namespace
}  // namespace lodestone::testing
