// Simulate, Stop and element-modifying commands: their checks and what they change.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Commands start on line 3 + 3 (groundAndBody) + 2 = 8.
constexpr int kCommandsFirstLine = 8;

TEST(Commands, SimulateNeedsAnEndAndAnOutputStep) {
  const ReadResult result = readText(deck(groundAndBody(), "<Simulate analysis_type=\"Transient\"/>"));
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, kCommandsFirstLine, "Simulate: give end_time or duration"));
  EXPECT_TRUE(hasError(result.diagnostics, kCommandsFirstLine, "give print_interval or num_steps"));
}

TEST(Commands, EndTimeAndDurationAreExclusive) {
  const ReadResult result =
      readText(deck(groundAndBody(), "<Simulate end_time=\"1\" duration=\"1\" print_interval=\"0.1\" num_steps=\"3\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, kCommandsFirstLine, "give end_time or duration, not both"));
  EXPECT_TRUE(hasError(result.diagnostics, kCommandsFirstLine, "give print_interval or num_steps, not both"));
}

TEST(Commands, EndMustComeAfterStart) {
  const ReadResult result =
      readText(deck(groundAndBody(), "<Simulate start_time=\"2\" end_time=\"1\" print_interval=\"0.1\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, kCommandsFirstLine, "end_time 1 must be after the start time 2"));
}

TEST(Commands, LaterSimulateContinuesFromThePreviousEnd) {
  const ReadResult result = readText(deck(groundAndBody(),
                                          "<Simulate end_time=\"1\" print_interval=\"0.1\"/>\n"
                                          "<Simulate end_time=\"0.5\" print_interval=\"0.1\"/>\n"
                                          "<Simulate start_time=\"0.2\" duration=\"1\" print_interval=\"0.1\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, kCommandsFirstLine + 1, "end_time 0.5 must be after the start time 1"));
  EXPECT_TRUE(hasError(result.diagnostics, kCommandsFirstLine + 2, "start_time 0.2 differs from time 1 reached"));
}

TEST(Commands, SegmentsResolveTimes) {
  Diagnostics diagnostics;
  SimulateSpec first = defaultsOf(simulateSchema());
  first.start_time = 0.5;
  first.end_time = 1.5;
  first.num_steps = 4;
  const std::optional<SimulationSegment> a = planSegment(first, std::nullopt, diagnostics);
  ASSERT_TRUE(a);
  EXPECT_DOUBLE_EQ(a->startTime, 0.5);
  EXPECT_DOUBLE_EQ(a->endTime, 1.5);
  EXPECT_DOUBLE_EQ(a->printInterval, 0.25);
  SimulateSpec second = defaultsOf(simulateSchema());
  second.duration = 2;
  second.print_interval = 0.1;
  const std::optional<SimulationSegment> b = planSegment(second, a->endTime, diagnostics);
  ASSERT_TRUE(b);
  EXPECT_DOUBLE_EQ(b->startTime, 1.5);
  EXPECT_DOUBLE_EQ(b->endTime, 3.5);
  EXPECT_TRUE(diagnostics.entries().empty());
}

TEST(Commands, TransientStaticAndAssemblyRun) {
  const ReadResult statics = readText(deck(groundAndBody(), "<Simulate analysis_type=\"Static\" end_time=\"0\"/>\n"
                                                            "<Simulate analysis_type=\"Assembly\"/>"));
  EXPECT_TRUE(statics.spec) << statics.diagnostics.formatAll();
  const ReadResult linear = readText(deck(groundAndBody(), "<Simulate analysis_type=\"Linear\" end_time=\"0\"/>"));
  EXPECT_TRUE(hasError(linear.diagnostics, kCommandsFirstLine,
                       "analysis_type Linear is not supported yet: Transient, Static and Assembly analyses run"));
  // A static analysis at a time before the one reached.
  const ReadResult back = readText(deck(groundAndBody(), "<Simulate end_time=\"1\" print_interval=\"0.1\"/>\n"
                                                         "<Simulate analysis_type=\"Static\" end_time=\"0.5\"/>"));
  EXPECT_TRUE(hasError(back.diagnostics, kCommandsFirstLine + 1, "end_time 0.5 is before time 1 reached"));
}

TEST(Commands, CommandsAfterStopAreReported) {
  const ReadResult result = readText(deck(groundAndBody(), "<Simulate end_time=\"1\" print_interval=\"0.1\"/>\n<Stop/>\n"
                                                           "<Simulate end_time=\"2\" print_interval=\"0.1\"/>"));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, kCommandsFirstLine + 2, "comes after Stop and will not run"));
}

TEST(Commands, ModifyingCommandsChangeTheSpecWhenApplied) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Force_Gravity grav_z=\"-9.81\"/>",
                                          "<Simulate end_time=\"1\" print_interval=\"0.1\"/>\n"
                                          "<Body_Rigid id=\"2\" mass=\"5\"/>\n"
                                          "<Force_Gravity grav_z=\"-1.62\"/>\n"
                                          "<Param_Transient integr_tol=\"1e-6\"/>\n"
                                          "<Simulate end_time=\"2\" print_interval=\"0.1\"/>"));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  ModelSpec spec = *result.spec;
  ASSERT_EQ(spec.commands.size(), 5u);
  for (size_t i = 1; i <= 3; ++i) std::get<ModifyCommand>(spec.commands[i]).apply(spec);
  EXPECT_DOUBLE_EQ(*spec.bodies[1].mass, 5.0);
  EXPECT_DOUBLE_EQ(spec.gravity->grav_z, -1.62);
  ASSERT_TRUE(spec.transient);
  EXPECT_DOUBLE_EQ(spec.transient->integr_tol, 1e-6);
  EXPECT_EQ(spec.transient->max_order, 5) << "a command-created Param_Transient starts from the defaults";
  EXPECT_EQ(std::get<ModifyCommand>(spec.commands[1]).loc.line, kCommandsFirstLine + 2);  // one more model line
}

TEST(Commands, OnlyModifiableAttributesMayChange) {
  const ReadResult result = readText(deck(groundAndBody(), "<Simulate end_time=\"1\" print_interval=\"0.1\"/>\n"
                                                           "<Body_Rigid id=\"2\" cg_id=\"20\"/>"));
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, kCommandsFirstLine + 1,
                       "Body_Rigid id=2: attribute 'cg_id' cannot be changed by a command"));
}

TEST(Commands, ModifyingAnUndefinedElementIsAnError) {
  const ReadResult result = readText(deck(groundAndBody(), "<Simulate end_time=\"1\" print_interval=\"0.1\"/>\n"
                                                           "<Body_Rigid id=\"9\" mass=\"3\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, kCommandsFirstLine + 1, "no Body_Rigid has id 9"));
}

TEST(Commands, ModifiedValuesAreValidatedLikeModelValues) {
  const ReadResult result = readText(deck(groundAndBody(), "<Simulate end_time=\"1\" print_interval=\"0.1\"/>\n"
                                                           "<Body_Rigid id=\"2\" mass=\"-5\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, kCommandsFirstLine + 1, "attribute 'mass' must be >= 0 (got -5)"));
}

TEST(Commands, SingletonElementsMayAppearOnce) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Force_Gravity grav_z=\"-1\"/>\n<Force_Gravity/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 7, "only one Force_Gravity is allowed; the first is at deck.xml:6:1"));
}

TEST(Commands, UnitsGivenTwoWaysAreAnError) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Param_Unit length_unit=\"MILLIMETER\" mass_mult_factor=\"0.001\"/>"));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "give either the named units"));
}

}  // namespace
}  // namespace lodestone::testing
