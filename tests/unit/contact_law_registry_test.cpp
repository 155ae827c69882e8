// The contact-law registry: every keyword is found whatever its case, unknown ones are not, and the parameter
// tables are well formed (slots, defaults inside their ranges, a meaning for every row).
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "plugins/builtin/builtin_laws.h"
#include "plugins/contact_law.h"

namespace lodestone {
namespace {

TEST(ContactLawRegistry, EveryNormalKeywordIsListedOnce) {
  const std::set<std::string> expected = {"IMPACT", "POISSON", "VOLUME", "LINEAR", "LINEAR_LIMITED",
                                          "HUNT_CROSSLEY", "SMOOTH", "DIPOLE", "IPC", "EXPRESSION"};
  std::set<std::string> listed;
  for (const NormalLaw* law : normalLaws()) {
    if (!law->named) {  // named laws: another test
      EXPECT_TRUE(listed.insert(law->keyword).second) << law->keyword;
    }
  }
  EXPECT_EQ(listed, expected);
  for (const std::string& keyword : expected) {
    const NormalLaw* law = findNormalLaw(keyword);
    ASSERT_NE(law, nullptr) << keyword;
    EXPECT_EQ(law->keyword, keyword);
    // A law given by expressions has no formula of its own: it names the attributes that hold them.
    if (law->expressions.empty()) EXPECT_NE(law->force, nullptr) << keyword;
    else EXPECT_EQ(law->force, nullptr) << keyword;
  }
}

TEST(ContactLawRegistry, EveryFrictionKeywordIsListedOnce) {
  const std::set<std::string> expected = {"COULOMB_ON", "COULOMB_DYNAMICONLY", "COULOMB_OFF", "SMOOTH_STICK_SLIP",
                                         "LINEAR_SHEAR", "EXPRESSION"};
  std::set<std::string> listed;
  for (const FrictionLaw* law : frictionLaws()) {
    if (!law->named) {
      EXPECT_TRUE(listed.insert(law->keyword).second) << law->keyword;
    }
  }
  EXPECT_EQ(listed, expected);
  for (const std::string& keyword : expected) {
    const FrictionLaw* law = findFrictionLaw(keyword);
    ASSERT_NE(law, nullptr) << keyword;
    EXPECT_EQ(law->keyword, keyword);
  }
}

TEST(ContactLawRegistry, LookupIgnoresCase) {
  EXPECT_EQ(findNormalLaw("Impact"), &impactLaw());
  EXPECT_EQ(findNormalLaw("hunt_crossley"), &huntCrossleyLaw());
  EXPECT_EQ(findFrictionLaw("coulomb_on"), &coulombOnLaw());
  EXPECT_EQ(findFrictionLaw("Smooth_Stick_Slip"), &smoothStickSlipLaw());
}

TEST(ContactLawRegistry, UnknownKeywordsAreNotFound) {
  EXPECT_EQ(findNormalLaw("HERTZ"), nullptr);
  EXPECT_EQ(findNormalLaw(""), nullptr);
  EXPECT_EQ(findNormalLaw("IMPACTX"), nullptr);
  EXPECT_EQ(findFrictionLaw("COULOMB"), nullptr);
  // The two registries are separate: a friction keyword is not a normal law, nor the other way round.
  EXPECT_EQ(findNormalLaw("COULOMB_ON"), nullptr);
  EXPECT_EQ(findFrictionLaw("IMPACT"), nullptr);
}

TEST(ContactLawRegistry, DipoleVectorsTakeThreeSlots) {
  const std::vector<LawParameter>& parameters = dipoleLaw().parameters;
  // kn, dp_nratio, 3 + 3 moment components, dipole_cap, dipole_d, rgap, dp_mode, lin_mode, emod, kratio
  EXPECT_EQ(slotCount(parameters), 15);
  EXPECT_EQ(slotOf(parameters, "kn"), 0);
  EXPECT_EQ(slotOf(parameters, "dp_nratio"), 1);
  EXPECT_EQ(slotOf(parameters, "dipole_mo1"), 2);
  EXPECT_EQ(slotOf(parameters, "dipole_mo2"), 5);
  EXPECT_EQ(slotOf(parameters, "dipole_cap"), 8);
  EXPECT_EQ(slotOf(parameters, "dipole_d"), 9);
  EXPECT_EQ(slotOf(parameters, "rgap"), 10);
  EXPECT_EQ(slotOf(parameters, "dp_mode"), 11);
  EXPECT_EQ(slotOf(parameters, "lin_mode"), 12);
  EXPECT_EQ(slotOf(parameters, "emod"), 13);
  EXPECT_EQ(slotOf(parameters, "kratio"), 14);
  EXPECT_EQ(slotOf(parameters, "stiffness"), -1);
  EXPECT_EQ(slotCount(impactLaw().parameters), 4);
  EXPECT_EQ(slotOf(impactLaw().parameters, "dmax"), 3);
  EXPECT_EQ(slotCount(coulombOffLaw().parameters), 0);
  EXPECT_EQ(slotOf(coulombOffLaw().parameters, "mu_static"), -1);
}

void expectWellFormed(const std::string& keyword, const std::string& summary,
                      const std::vector<LawParameter>& parameters) {
  EXPECT_FALSE(summary.empty()) << keyword;
  std::set<std::string> names;
  for (const LawParameter& parameter : parameters) {
    SCOPED_TRACE(keyword + " " + parameter.name);
    EXPECT_TRUE(names.insert(parameter.name).second) << "repeated";
    EXPECT_FALSE(parameter.meaning.empty());
    EXPECT_TRUE(parameter.size == 1 || parameter.size == 3);
    for (char c : parameter.name) EXPECT_FALSE(c >= 'A' && c <= 'Z') << "attribute names are lower case";
    // A default the range rejects would make an element invalid merely by omitting the attribute. An inheritable
    // parameter has none: left out, its pairs take it from their pieces.
    if (!parameter.required && parameter.size == 1 && parameter.inheritance == Inheritance::None) {
      EXPECT_TRUE(parameter.range.contains(parameter.defaultValue));
    }
  }
}

TEST(ContactLawRegistry, TablesAreWellFormed) {
  for (const NormalLaw* law : normalLaws()) expectWellFormed(law->keyword, law->summary, law->parameters);
  for (const FrictionLaw* law : frictionLaws()) expectWellFormed(law->keyword, law->summary, law->parameters);
  EXPECT_TRUE(volumeLaw().needsArea);
  for (const NormalLaw* law : normalLaws()) {
    if (law != &volumeLaw()) {
      EXPECT_FALSE(law->needsArea) << law->keyword;
    }
    const bool isField = law == &dipoleLaw() || law == &ipcLaw();
    EXPECT_EQ(law->field != nullptr, isField) << law->keyword;
    EXPECT_EQ(law->fieldRange != nullptr, isField) << law->keyword;
    EXPECT_EQ(law->needsGapGradient, law == &ipcLaw()) << law->keyword;
  }
}

}  // namespace
}  // namespace lodestone
