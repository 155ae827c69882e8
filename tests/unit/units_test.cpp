// Named units and the mass multiplication factor they imply.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

TEST(Units, ConsistentSetsHaveFactorOne) {
  EXPECT_DOUBLE_EQ(UnitSystem::consistencyFactor("KILOGRAM", "METER", "NEWTON", "SECOND"), 1.0);
  EXPECT_NEAR(UnitSystem::consistencyFactor("TONNE", "MILLIMETER", "NEWTON", "SECOND"), 1.0, 1e-15);
  EXPECT_NEAR(UnitSystem::consistencyFactor("GRAM", "CENTIMETER", "DYNE", "SECOND"), 1.0, 1e-15);
  EXPECT_NEAR(UnitSystem::consistencyFactor("SLINCH", "INCH", "POUND_FORCE", "SECOND"), 1.0, 1e-12);
  EXPECT_NEAR(UnitSystem::consistencyFactor("SLUG", "FOOT", "POUND_FORCE", "SECOND"), 1.0, 1e-12);
}

TEST(Units, MillimetreKilogramNeedsOneThousandth) {
  // kg·mm/s² = 1e-3 N, so F = 1e-3·m·a when F is in newtons.
  EXPECT_NEAR(UnitSystem::consistencyFactor("KILOGRAM", "MILLIMETER", "NEWTON", "SECOND"), 1e-3, 1e-18);
  EXPECT_NEAR(UnitSystem::consistencyFactor("KILOGRAM", "METER", "KILOGRAM_FORCE", "SECOND"), 1 / 9.80665, 1e-15);
  EXPECT_NEAR(UnitSystem::consistencyFactor("KILOGRAM", "METER", "NEWTON", "MILLISECOND"), 1e6, 1e-6);
}

Model modelWithUnits(const std::string& paramUnit) {
  const ReadResult result = readText(deck(groundAndBody() + "\n" + paramUnit));
  EXPECT_TRUE(result.spec) << result.diagnostics.formatAll();
  Diagnostics diagnostics;
  std::optional<Model> model = result.spec ? buildModel(*result.spec, diagnostics) : std::nullopt;
  EXPECT_TRUE(model) << diagnostics.formatAll();
  return model.value_or(Model{});
}

TEST(Units, DeckUnitsReachTheModel) {
  const Model mm = modelWithUnits("<Param_Unit force_unit=\"NEWTON\" mass_unit=\"KILOGRAM\" length_unit=\"MILLIMETER\" "
                                  "time_unit=\"SECOND\"/>");
  EXPECT_NEAR(mm.units.massFactor, 1e-3, 1e-18);
  EXPECT_EQ(mm.units.describe(), "MILLIMETER SECOND NEWTON KILOGRAM");
  const Model partial = modelWithUnits("<Param_Unit length_unit=\"millimeter\"/>");
  EXPECT_NEAR(partial.units.massFactor, 1e-3, 1e-18) << "unnamed units default to kilogram, newton, second";
  const Model factor = modelWithUnits("<Param_Unit mass_mult_factor=\"0.25\"/>");
  EXPECT_DOUBLE_EQ(factor.units.massFactor, 0.25);
  EXPECT_TRUE(factor.units.massFactorGiven);
  const Model none = modelWithUnits("");
  EXPECT_DOUBLE_EQ(none.units.massFactor, 1.0);
}

TEST(Units, GravityStaysInDeckUnits) {
  const ReadResult result = readText(deck(groundAndBody() + "\n<Force_Gravity grav_z=\"-9810\"/>\n"
                                                            "<Param_Unit length_unit=\"MILLIMETER\"/>"));
  ASSERT_TRUE(result.spec);
  Diagnostics diagnostics;
  const std::optional<Model> model = buildModel(*result.spec, diagnostics);
  ASSERT_TRUE(model);
  EXPECT_EQ(model->gravity, Vector3(0, 0, -9810));
}

}  // namespace
}  // namespace lodestone::testing
