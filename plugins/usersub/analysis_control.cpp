// The analysis-control utilities of lodestone/analysis_control.h: each hands its arguments to the active
// AnalysisControlHost; called outside CONSUB (from another subroutine, or with no run at all) it is refused with a
// nonzero status and, when a subroutine is being called, a line in the run log through that subroutine's host.
#include <string>

#include "analysis_control_host.h"
#include "lodestone/usersub.h"
#include "subroutine_host.h"

namespace lodestone {

namespace {

AnalysisControlHost* currentControlHost = nullptr;

constexpr int kRefused = -1;

int refuseOutsideConsub(const char* utility) {
  if (SubroutineHost* host = activeSubroutineHost()) {
    host->utilityProblem(utility, "may only be called from CONSUB (the subroutine of UserProgramControl); refused");
  }
  return kRefused;
}

std::string textOf(const char* text) { return text ? std::string(text) : std::string(); }

}  // namespace

AnalysisControlHost* activeAnalysisControlHost() { return currentControlHost; }
void setActiveAnalysisControlHost(AnalysisControlHost* host) { currentControlHost = host; }

}  // namespace lodestone

using namespace lodestone;

extern "C" {

void c_analys(const char* analysis, const char* name, double* tbegin, double* tend, int* iflag, int* istat) {
  int status = kRefused;
  if (!currentControlHost) {
    status = refuseOutsideConsub("c_analys");
  } else if (!tbegin || !tend) {
    if (SubroutineHost* host = activeSubroutineHost()) host->utilityProblem("c_analys", "tbegin or tend is null");
  } else {
    status = currentControlHost->analys(textOf(analysis), textOf(name), *tbegin, *tend, iflag ? *iflag : 0);
  }
  if (istat) *istat = status;
}

void c_modify(const char* command, int* status) {
  const int result = currentControlHost ? currentControlHost->modify(textOf(command)) : refuseOutsideConsub("c_modify");
  if (status) *status = result;
}

void c_datout(int* istat) {
  const int result = currentControlHost ? currentControlHost->datout() : refuseOutsideConsub("c_datout");
  if (istat) *istat = result;
}

}  // extern "C"
