// What MODIFY (c_modify / py_modify, from CONSUB) may execute: a stated subset of the Adams command language, each
// command turned into the same change of the deck a command element of <Command> makes, so that the run rebuilds
// the model as it does between two Simulate commands. Anything else is refused with the reason.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "elements/model_spec.h"

namespace lodestone {

struct ModifyParse {
  std::optional<ModifyCommand> change;  // nothing when refused
  std::string description;              // what it does, for run.log ("gravity (0, 0, -3.72742)")
  std::string refusal;                  // why it was refused
};

// Accepted (keywords and parameter names in any case, parameters separated by commas):
//   ACCGRAV/IGRAV=gx, JGRAV=gy, KGRAV=gz   the gravity components along ground x, y, z (any of them; the others
//                                           keep their values; a deck without Force_Gravity gets one);
//   ACTIVATE/type, ID=n and DEACTIVATE/type, ID=n   as <Activate>/<Deactivate element_type="type" element_id="n">.
// `spec`: the deck as it stands (the element an ACTIVATE names must be in it); `loc`: UserProgramControl's place.
ModifyParse parseModifyCommand(std::string_view command, const ModelSpec& spec, const SourceLoc& loc);

}  // namespace lodestone
