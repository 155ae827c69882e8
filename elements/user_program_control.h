// UserProgramControl: the command that hands the run to a CONSUB, a user subroutine (C or Python) that drives the
// analyses itself through ANALYS, MODIFY and DATOUT (plugins/include/lodestone/analysis_control.h). Read here; run
// by the command loop (solver/driver/run.cpp) where it stands among the deck's other commands.
#pragma once

#include <optional>

#include "plugins/element_subroutine.h"
#include "solver/core/schema.h"

namespace lodestone {

inline constexpr const char* kControlSubroutine = "CONSUB";

struct UserProgramControlSpec {
  SourceLoc loc;
  SubroutineAttributeValues subroutine;  // usrsub_param_string (par), usrsub_dll_name or script_name…
  // (ours) The output step of the transient analyses CONSUB runs: ANALYS has no argument for it. Without it, the
  // print_interval of the last Simulate run before.
  std::optional<double> print_interval;
};

const ElementSchema<UserProgramControlSpec>& userProgramControlSchema();
void checkUserProgramControl(const UserProgramControlSpec& spec, Diagnostics& diagnostics);

}  // namespace lodestone
