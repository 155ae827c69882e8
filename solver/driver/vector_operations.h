// The operations of SUNDIALS' serial vectors that IDAS and GMRES spend their time in, done with Eigen's vectorised
// code instead of SUNDIALS' own loops, which Debian's build leaves scalar.
//
// Reductions (dot products, weighted RMS norms, the largest entry): SUNDIALS adds one element at a time into one sum.
// Compiled without -ffast-math the compiler may not reorder that sum, so every addition waits for the one before it:
// a dot product of n entries takes about 4n cycles whatever the vector unit could do. IDAS's convergence and error
// tests and GMRES's Gram-Schmidt are made of such reductions; on the peers' 1000-sphere pile (13 000 states) they were
// a quarter of the run. Eigen keeps several partial sums in vector registers and adds them at the end. The sums are
// grouped differently from SUNDIALS', so results change at round-off; the grouping depends only on n (never on
// threads), so a run still repeats itself bit for bit.
//
// Element-wise operations (linear sums and combinations, products, quotients, scalings, constants): each element is
// computed with SUNDIALS' arithmetic, two at a time, so results are SUNDIALS' to the last bit. They were about a tenth
// of the piles' runs.
#pragma once

#include <sundials/sundials_nvector.h>

namespace lodestone {

// Replaces those operations of serial vector `v`; vectors cloned from it afterwards (all of IDAS's and
// GMRES's, when `v` is the vector given to IDAInit) inherit them.
void useVectorisedOperations(N_Vector v);

}  // namespace lodestone
