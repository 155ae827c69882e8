// What the analysis-control utilities of lodestone/analysis_control.h (c_analys, c_modify, c_datout) ask of the run.
// The run installs a host only while CONSUB's own code runs (ScopedAnalysisControlHost), and takes it away while an
// analysis it asked for runs, so that the utilities called from any other subroutine are refused (errflg-style
// status, a line in the log through that subroutine's SubroutineHost), as MotionSolve allows them only in CONSUB.
#pragma once

#include <string_view>

namespace lodestone {

class AnalysisControlHost {
 public:
  virtual ~AnalysisControlHost() = default;
  // Each returns the status the utility hands back: 0 done, nonzero refused or failed (the host says why in the log).
  virtual int analys(std::string_view analysis, std::string_view name, double tbegin, double tend, int iflag) = 0;
  virtual int modify(std::string_view command) = 0;
  virtual int datout() = 0;
};

// The host the utilities use now (nullptr outside CONSUB's own code).
[[gnu::visibility("default")]] AnalysisControlHost* activeAnalysisControlHost();
[[gnu::visibility("default")]] void setActiveAnalysisControlHost(AnalysisControlHost* host);

// Installs `host` (nullptr: none) for a scope, restoring the previous one after it.
class ScopedAnalysisControlHost {
 public:
  explicit ScopedAnalysisControlHost(AnalysisControlHost* host) : previous_(activeAnalysisControlHost()) {
    setActiveAnalysisControlHost(host);
  }
  ~ScopedAnalysisControlHost() { setActiveAnalysisControlHost(previous_); }
  ScopedAnalysisControlHost(const ScopedAnalysisControlHost&) = delete;
  ScopedAnalysisControlHost& operator=(const ScopedAnalysisControlHost&) = delete;

 private:
  AnalysisControlHost* previous_;
};

}  // namespace lodestone
