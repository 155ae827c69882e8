// Named laws: loading law libraries, checking their C descriptors, registering them as NormalLaw / FrictionLaw.
#include "named_laws.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>

#include "contact_law.h"
#include "solver/core/step_functions.h"
#include "solver/core/text.h"
#include "user_library.h"

namespace lodestone {

namespace {

constexpr const char* kRegisterFunction = "lodestone_register_laws";
constexpr int kMaximumStateSize = 64;

// A registered named law: the library it lives in (kept loaded for the process) and its descriptor.
struct NamedLaw {
  std::shared_ptr<SharedLibrary> library;
  NormalLaw normal;
  FrictionLaw friction;
};

struct NamedLawStore {
  std::map<std::string, std::shared_ptr<SharedLibrary>> libraries;  // by resolved path
  std::vector<std::unique_ptr<NamedLaw>> laws;
  std::map<std::string, std::string> refused;                       // upper-case keyword -> why
  std::vector<std::string> messages;
};

NamedLawStore& store() {
  static NamedLawStore instance;
  return instance;
}

void hostMessage(const char* keyword, const char* text) {
  store().messages.push_back(std::string(keyword ? keyword : "law") + ": " + (text ? text : ""));
}

double hostStep(double x, double x0, double h0, double x1, double h1) { return step(x, x0, h0, x1, h1); }

void hostWarn(void* findings, const char* text) {
  if (findings) static_cast<LawFindings*>(findings)->warnings.push_back(text ? text : "(no message)");
}

bool isAttributeName(std::string_view name) {
  if (name.empty() || !(name[0] >= 'a' && name[0] <= 'z')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool isKeyword(std::string_view keyword) {
  if (keyword.empty()) return false;
  return std::all_of(keyword.begin(), keyword.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool keywordTaken(std::string_view keyword) {
  return findNormalLaw(keyword) || findFrictionLaw(keyword) || equalsIgnoreCase(keyword, "USERCNF") ||
         equalsIgnoreCase(keyword, "USERCFF");
}

// The parameter table of a law as LawParameters, or the first problem with it.
std::optional<std::string> convertParameters(const lodestone_law& law, std::vector<LawParameter>& parameters) {
  if (law.parameter_count < 0 || (law.parameter_count > 0 && !law.parameters)) {
    return "parameter_count is " + std::to_string(law.parameter_count) + " but parameters is " +
           (law.parameters ? "set" : "NULL");
  }
  for (int k = 0; k < law.parameter_count; ++k) {
    const lodestone_law_parameter& given = law.parameters[k];
    const std::string where = "parameter " + std::to_string(k + 1);
    if (!given.name || !isAttributeName(given.name)) {
      return where + ": name \"" + std::string(given.name ? given.name : "(NULL)") +
             "\" is not an attribute name (lower case letters, digits and '_', starting with a letter)";
    }
    const std::string name = given.name;
    for (const LawParameter& earlier : parameters) {
      if (earlier.name == name) return where + ": \"" + name + "\" is named twice";
    }
    if (std::isnan(given.minimum) || std::isnan(given.maximum) || given.minimum > given.maximum) {
      return where + " (" + name + "): its range [" + formatReal(given.minimum) + ", " + formatReal(given.maximum) +
             "] is empty";
    }
    LawParameter parameter;
    parameter.name = name;
    parameter.required = given.required != 0;
    parameter.defaultValue = given.default_value;
    if (std::isfinite(given.minimum)) {
      parameter.range.min = given.minimum;
      parameter.range.minInclusive = given.minimum_excluded == 0;
    }
    if (std::isfinite(given.maximum)) {
      parameter.range.max = given.maximum;
      parameter.range.maxInclusive = given.maximum_excluded == 0;
    }
    parameter.meaning = given.meaning ? given.meaning : "";
    if (!parameter.required && !parameter.range.contains(parameter.defaultValue)) {
      return where + " (" + name + "): its default " + formatReal(parameter.defaultValue) + " is outside its range " +
             parameter.range.describe();
    }
    parameters.push_back(std::move(parameter));
  }
  return std::nullopt;
}

// Checks one law a library gave and registers it. Returns the problem that stops it, if any; an ABI mismatch is
// recorded as refused instead (then the return is empty and `refusal` says why).
std::optional<std::string> registerLaw(const std::shared_ptr<SharedLibrary>& library, const lodestone_law* law,
                                       std::string& refusal) {
  if (!law) return std::string("a law pointer is NULL");
  // Only size, abi_version and keyword are read before the version is known to be ours.
  const std::string keyword = law->keyword ? law->keyword : "";
  if (law->abi_version != LODESTONE_LAW_ABI_VERSION || law->size != sizeof(lodestone_law)) {
    refusal = "law \"" + keyword + "\" of " + library->path() + " (from " + kRegisterFunction +
              ") was built against law ABI version " + std::to_string(law->abi_version) + " (a lodestone_law of " +
              std::to_string(law->size) + " bytes); this Lodestone has version " +
              std::to_string(LODESTONE_LAW_ABI_VERSION) + " (" + std::to_string(sizeof(lodestone_law)) +
              " bytes): rebuild the library against this Lodestone's lodestone/contact_law.h";
    if (isKeyword(keyword)) store().refused[toUpper(keyword)] = refusal;
    return std::nullopt;
  }
  if (!isKeyword(keyword)) {
    return "law keyword \"" + keyword + "\" is not a keyword (letters, digits and '_')";
  }
  const std::string where = "law \"" + keyword + "\"";
  if (keywordTaken(keyword)) return where + ": the keyword is already taken by another law";
  if (law->kind != LODESTONE_NORMAL_LAW && law->kind != LODESTONE_FRICTION_LAW) {
    return where + ": kind is " + std::to_string(law->kind) +
           ", neither LODESTONE_NORMAL_LAW (1) nor LODESTONE_FRICTION_LAW (2)";
  }
  const bool normal = law->kind == LODESTONE_NORMAL_LAW;
  if (normal && !law->normal_force) return where + ": a normal law needs normal_force";
  if (!normal && !law->friction_force) return where + ": a friction law needs friction_force";
  if (law->state_size < 0 || law->state_size > kMaximumStateSize) {
    return where + ": state_size is " + std::to_string(law->state_size) + " (0 to " +
           std::to_string(kMaximumStateSize) + ")";
  }
  if (law->state_size > 0 && !law->advance_state) return where + ": a law with state needs advance_state";
  std::vector<LawParameter> parameters;
  if (const std::optional<std::string> problem = convertParameters(*law, parameters)) return where + ": " + *problem;

  auto named = std::make_unique<NamedLaw>();
  named->library = library;
  const std::string summary = std::string(law->summary ? law->summary : "") + " (from " + library->path() + ")";
  LawCheck check;
  if (law->check) {
    // The context handed to check is the findings: report() adds an error, the host's warn() a warning.
    check = [law](LawValues values, LawFindings& findings) {
      law->check(
          law, values.data(),
          [](void* context, const char* problem) {
            static_cast<LawFindings*>(context)->errors.push_back(problem ? problem : "(no message)");
          },
          &findings);
    };
  }
  if (normal) {
    named->normal = NormalLaw{.keyword = toUpper(keyword), .summary = summary, .parameters = std::move(parameters),
                              .check = std::move(check), .named = law, .needsArea = law->needs_area != 0};
    registerNormalLaw(&named->normal);
  } else {
    named->friction = FrictionLaw{.keyword = toUpper(keyword), .summary = summary,
                                  .parameters = std::move(parameters), .check = std::move(check), .named = law};
    registerFrictionLaw(&named->friction);
  }
  store().refused.erase(toUpper(keyword));
  store().laws.push_back(std::move(named));
  return std::nullopt;
}

void loadLibrary(const std::string& name, LawLibraryProblems& problems) {
  const char* searchPath = std::getenv("LODESTONE_USERSUB_PATH");
  std::string path;
  try {
    path = findUserFile("law library", name,
                        libraryCandidates(name, "", searchPath ? searchPath : "", executableLibFolder()));
  } catch (const std::exception& error) {
    problems.errors.push_back(error.what());
    return;
  }
  if (store().libraries.count(path)) return;  // loaded already: its laws are registered
  std::shared_ptr<SharedLibrary> library;
  try {
    library = std::make_shared<SharedLibrary>(path);
  } catch (const std::exception& error) {
    problems.errors.push_back("law library " + path + " does not load: " + error.what());
    return;
  }
  store().libraries[path] = library;
  std::string error;
  const auto registerLaws = reinterpret_cast<lodestone_register_laws_function>(library->symbol(kRegisterFunction, error));
  if (!registerLaws) {
    problems.errors.push_back("law library " + path + " has no function " + kRegisterFunction + " (" + error +
                              "); a law library defines it with the prototype of lodestone/contact_law.h");
    return;
  }
  int count = 0;
  const lodestone_law* const* laws = registerLaws(&lawHost(), &count);
  if (count < 0 || (count > 0 && !laws)) {
    problems.errors.push_back("law library " + path + ": " + kRegisterFunction + " gave " + std::to_string(count) +
                              " laws" + (laws ? "" : " and no array"));
    return;
  }
  for (int k = 0; k < count; ++k) {
    std::string refusal;
    if (const std::optional<std::string> problem = registerLaw(library, laws[k], refusal)) {
      problems.errors.push_back("law library " + path + " (" + kRegisterFunction + "), " + *problem);
    } else if (!refusal.empty()) {
      problems.warnings.push_back(refusal);
    }
  }
}

}  // namespace

LawLibraryProblems loadLawLibraries(std::string_view list) {
  LawLibraryProblems problems;
  size_t start = 0;
  while (start <= list.size()) {
    const size_t end = std::min(list.find(':', start), list.size());
    const std::string name(trim(list.substr(start, end - start)));
    if (!name.empty()) loadLibrary(name, problems);
    start = end + 1;
  }
  return problems;
}

LawLibraryProblems loadLawLibrariesFromEnvironment() {
  const char* list = std::getenv("LODESTONE_LAWS");
  return list ? loadLawLibraries(list) : LawLibraryProblems{};
}

std::optional<std::string> refusedLaw(std::string_view keyword) {
  const auto found = store().refused.find(toUpper(keyword));
  if (found == store().refused.end()) return std::nullopt;
  return found->second;
}

std::vector<std::string> refusedLawKeywords() {
  std::vector<std::string> keywords;
  for (const auto& [keyword, reason] : store().refused) keywords.push_back(keyword);
  return keywords;
}

const lodestone_law_host& lawHost() {
  static const lodestone_law_host host{sizeof(lodestone_law_host), LODESTONE_LAW_ABI_VERSION, hostStep, hostMessage,
                                       hostWarn};
  return host;
}

std::vector<std::string> takeLawMessages() { return std::exchange(store().messages, {}); }

// ---- state -----------------------------------------------------------------------------------------------------

void LawStateHistory::start(double at) {
  time = previousTime = at;
  std::fill(state.begin(), state.end(), 0.0);
  std::fill(previous.begin(), previous.end(), 0.0);
}

void LawStateHistory::reserve(size_t numbers) {
  if (state.size() >= numbers) return;
  state.resize(numbers, 0.0);
  previous.resize(numbers, 0.0);
}

double* LawStateHistory::at(double when, double& elapsed) {
  if (when >= time) {
    elapsed = when - time;
    return state.data();
  }
  elapsed = std::max(0.0, when - previousTime);
  return previous.data();
}

double* LawStateHistory::advanceTo(double when, double& elapsed) {
  if (when >= time) {
    previous = state;
    previousTime = time;
  } else {
    state = previous;  // back before the last step: start again from the state before it
  }
  elapsed = std::max(0.0, when - previousTime);
  time = when;
  return state.data();
}

}  // namespace lodestone
