// Slot arithmetic of law parameter tables, and the registry: the one place that lists every built-in law.
#include "contact_law.h"

#include "builtin/builtin_laws.h"
#include "solver/core/text.h"

namespace lodestone {

int slotCount(const std::vector<LawParameter>& parameters) {
  int count = 0;
  for (const LawParameter& parameter : parameters) count += parameter.size;
  return count;
}

int slotOf(const std::vector<LawParameter>& parameters, std::string_view name) {
  int slot = 0;
  for (const LawParameter& parameter : parameters) {
    if (parameter.name == name) return slot;
    slot += parameter.size;
  }
  return -1;
}

namespace {

std::vector<const NormalLaw*>& normalRegistry() {
  static std::vector<const NormalLaw*> laws = {
      &impactLaw(), &poissonLaw(), &volumeLaw(), &linearLaw(),
      &linearLimitedLaw(), &huntCrossleyLaw(), &smoothLaw(), &dipoleLaw(), &ipcLaw(),
      &expressionNormalLaw()};
  return laws;
}

std::vector<const FrictionLaw*>& frictionRegistry() {
  static std::vector<const FrictionLaw*> laws = {
      &coulombOnLaw(), &coulombDynamicOnlyLaw(), &coulombOffLaw(), &smoothStickSlipLaw(), &linearShearLaw(),
      &expressionFrictionLaw()};
  return laws;
}

int version = 0;

}  // namespace

const std::vector<const NormalLaw*>& normalLaws() { return normalRegistry(); }
const std::vector<const FrictionLaw*>& frictionLaws() { return frictionRegistry(); }

void registerNormalLaw(const NormalLaw* law) {
  normalRegistry().push_back(law);
  ++version;
}

void registerFrictionLaw(const FrictionLaw* law) {
  frictionRegistry().push_back(law);
  ++version;
}

int registryVersion() { return version; }

// Keywords are case-insensitive in a deck (REFERENCE.md §1): "Impact" and "IMPACT" name the same law.
const NormalLaw* findNormalLaw(std::string_view keyword) {
  for (const NormalLaw* law : normalLaws()) {
    if (equalsIgnoreCase(law->keyword, keyword)) return law;
  }
  return nullptr;
}

const FrictionLaw* findFrictionLaw(std::string_view keyword) {
  for (const FrictionLaw* law : frictionLaws()) {
    if (equalsIgnoreCase(law->keyword, keyword)) return law;
  }
  return nullptr;
}

}  // namespace lodestone
