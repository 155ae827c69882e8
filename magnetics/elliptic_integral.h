// Bulirsch's generalised complete elliptic integral, in which the fields of axisymmetric magnets (a cylinder's, a
// frustum's end discs) are written by Derby & Olbert.
#pragma once

namespace lodestone {

// cel(kc, p, c, s) = ∫₀^{π/2} (c cos²φ + s sin²φ) / ((cos²φ + p sin²φ) √(cos²φ + kc² sin²φ)) dφ, kc ≠ 0 (infinite at
// kc = 0), by Landen transformations: an arithmetic–geometric mean of 1 and |kc| carried along with the numerator
// (Bulirsch, Numer. Math. 13 (1969) 305). The mean converges quadratically, so stopping when the two means agree to
// 1e-8 leaves an error of order 1e-16; a p ≤ 0 is first transformed to a positive one, which a cylinder needs on its
// mantle's extension (p = 0).
double generalisedCompleteEllipticIntegral(double kc, double p, double c, double s);

}  // namespace lodestone
