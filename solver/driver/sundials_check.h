// One place that turns SUNDIALS return codes into exceptions during set-up, and owns SUNDIALS objects (RAII),
// so no call's status is ignored and no object leaks on an early return.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include <idas/idas.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nonlinearsolver.h>
#include <sundials/sundials_nvector.h>

namespace lodestone {

// A SUNDIALS call failed while the integrator was being set up or queried (not a failed step: those are
// reported through IDASolve's return value and end the simulation cleanly).
class SundialsError : public std::runtime_error {
 public:
  SundialsError(std::string call, int flag);
  const std::string& call() const { return call_; }
  int flag() const { return flag_; }

 private:
  std::string call_;
  int flag_;
};

// IDAS's name for a return flag, e.g. "IDA_ERR_FAIL" (IDAGetReturnFlagName allocates; this frees).
std::string idasFlagName(int flag);

// Every IDAS and SUNDIALS call that returns a status goes through this; `call` names it in the message.
inline void checkSundials(int flag, const char* call) {
  if (flag < 0) throw SundialsError(call, flag);
}
// For constructors that return nullptr on failure.
template <class Pointer>
Pointer checkCreated(Pointer object, const char* call) {
  if (object == nullptr) throw SundialsError(call, -1);
  return object;
}

struct SundialsContextDeleter {
  void operator()(SUNContext context) const { SUNContext_Free(&context); }
};
struct NVectorDeleter {
  void operator()(N_Vector vector) const { N_VDestroy(vector); }
};
struct SunMatrixDeleter {
  void operator()(SUNMatrix matrix) const { SUNMatDestroy(matrix); }
};
struct LinearSolverDeleter {
  void operator()(SUNLinearSolver solver) const { SUNLinSolFree(solver); }
};
struct NonlinearSolverDeleter {
  void operator()(SUNNonlinearSolver solver) const { SUNNonlinSolFree(solver); }
};
struct IdasMemoryDeleter {
  void operator()(void* memory) const { IDAFree(&memory); }
};

using SundialsContextPtr = std::unique_ptr<std::remove_pointer_t<SUNContext>, SundialsContextDeleter>;
using NVectorPtr = std::unique_ptr<std::remove_pointer_t<N_Vector>, NVectorDeleter>;
using SunMatrixPtr = std::unique_ptr<std::remove_pointer_t<SUNMatrix>, SunMatrixDeleter>;
using LinearSolverPtr = std::unique_ptr<std::remove_pointer_t<SUNLinearSolver>, LinearSolverDeleter>;
using NonlinearSolverPtr = std::unique_ptr<std::remove_pointer_t<SUNNonlinearSolver>, NonlinearSolverDeleter>;
using IdasMemoryPtr = std::unique_ptr<void, IdasMemoryDeleter>;

}  // namespace lodestone
