// Named laws: contact laws a shared library adds through the C descriptor of lodestone/contact_law.h. Loading a
// law library, checking each law it gives (its ABI version and size before anything else, then its table), and
// registering the good ones in the law registry as NormalLaw / FrictionLaw, so that a deck names them exactly like
// a built-in law and the reader validates their attributes from the same tables.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lodestone/contact_law.h"

namespace lodestone {

struct LawLibraryProblems {
  std::vector<std::string> errors;    // a library that cannot be used at all, or a law with a broken table
  std::vector<std::string> warnings;  // laws refused for their ABI version (a deck naming one gets an error)
};

// Loads every library of `list` (names or paths separated by ':'; empty entries skipped) that is not loaded yet and
// registers its laws. A relative name is looked for like a subroutine library: in the working folder, each folder of
// LODESTONE_USERSUB_PATH, then the `lib` folder beside the lodestone executable, with `lib` and `.so` added.
LawLibraryProblems loadLawLibraries(std::string_view list);

// The libraries of the LODESTONE_LAWS environment variable.
LawLibraryProblems loadLawLibrariesFromEnvironment();

// Why a law with this keyword (any case) was refused, when one was: a deck that names it is told this.
std::optional<std::string> refusedLaw(std::string_view keyword);
// The keywords of refused laws, so that cnf_type and cff_type accept them and the element can say why they fail.
std::vector<std::string> refusedLawKeywords();

// The host table handed to law libraries (exposed for tests, which call laws directly).
const lodestone_law_host& lawHost();

// Lines that laws wrote through the host's message() since the last call ("LUGRE: ...").
std::vector<std::string> takeLawMessages();

// The state of one contact point at `time` as a stateful law integrates it: the stored state it starts from and
// how long before `time` that state was stored. Output times lie before the step IDAS last accepted (they are
// interpolated), so the state of the step before it is kept too.
struct LawStateHistory {
  double time = 0, previousTime = 0;
  std::vector<double> state, previous;  // state_size numbers per contact point
  // Starts the history at `time` (the contact's first touch), all zero.
  void start(double time);
  // Makes room for `numbers` numbers (more contact points than before: the new ones start at zero).
  void reserve(size_t numbers);
  // The stored state to integrate from at `time`, and the time since it was stored (read it; it changes only by
  // advanceTo).
  double* at(double time, double& elapsed);
  // For advancing to `time` (an accepted step): the state to advance in place, holding the stored state it starts
  // from, and the time since that. After a located root IDAS goes back to a time before its last step; the state
  // then starts again from the one kept before it.
  double* advanceTo(double time, double& elapsed);
};

}  // namespace lodestone
