// UserProgramControl: attributes and checks. What CONSUB may do is in solver/driver/program_control.h.
#include "user_program_control.h"

namespace lodestone {

using S = UserProgramControlSpec;

const ElementSchema<UserProgramControlSpec>& userProgramControlSchema() {
  static const ElementSchema<S> schema = [] {
    ElementSchema<S> made{
        .element = "UserProgramControl",
        .attributes = {
            attr::real("print_interval", &S::print_interval).above(0),
            attr::presentation<S>("label"),
        }};
    addSubroutineRows(made.attributes, &S::subroutine);
    return made;
  }();
  return schema;
}

void checkUserProgramControl(const UserProgramControlSpec& spec, Diagnostics& diagnostics) {
  checkSubroutineAttributes(spec.subroutine, kControlSubroutine, spec.loc, diagnostics);
}

}  // namespace lodestone
