// The reductions of SUNDIALS' serial vectors (dot products, weighted RMS norms, the largest entry), done with
// Eigen's vectorised sums instead of SUNDIALS' own loops.
//
// SUNDIALS' serial reductions add one element at a time into one sum. Compiled without -ffast-math (as Debian
// builds it) the compiler may not reorder that sum, so every addition waits for the one before it: a dot product
// of n entries takes about 4n cycles whatever the vector unit could do. IDAS's convergence and error tests and
// GMRES's Gram-Schmidt are made of such reductions; on the peers' 1000-sphere pile (13 000 states) they were a
// quarter of the run. Eigen keeps several partial sums in vector registers and adds them at the end.
//
// The sums are grouped differently from SUNDIALS', so results change at round-off; the grouping depends only on n
// (never on threads), so a run still repeats itself bit for bit.
#pragma once

#include <sundials/sundials_nvector.h>

namespace lodestone {

// Replaces the reduction operations of serial vector `v`; vectors cloned from it afterwards (all of IDAS's and
// GMRES's, when `v` is the vector given to IDAInit) inherit them.
void useVectorisedReductions(N_Vector v);

}  // namespace lodestone
