// Vectorised operations for SUNDIALS' serial vectors (why: vector_operations.h).
#include "vector_operations.h"

#include <cmath>

#include <Eigen/Core>
#include <nvector/nvector_serial.h>

namespace lodestone {

namespace {

using ConstMap = Eigen::Map<const Eigen::ArrayXd>;

ConstMap entries(N_Vector v) { return ConstMap(NV_DATA_S(v), NV_LENGTH_S(v)); }

realtype dotProduct(N_Vector x, N_Vector y) { return entries(x).matrix().dot(entries(y).matrix()); }

int dotProducts(int count, N_Vector x, N_Vector* ys, realtype* products) {
  for (int i = 0; i < count; ++i) products[i] = dotProduct(x, ys[i]);
  return 0;
}

realtype weightedSquareSum(N_Vector x, N_Vector w) { return (entries(x) * entries(w)).square().sum(); }

realtype weightedSquareSumMasked(N_Vector x, N_Vector w, N_Vector id) {
  return (entries(id) > 0.0).select(entries(x) * entries(w), 0.0).square().sum();
}

realtype weightedRmsNorm(N_Vector x, N_Vector w) {
  return std::sqrt(weightedSquareSum(x, w) / static_cast<double>(NV_LENGTH_S(x)));
}

realtype weightedRmsNormMasked(N_Vector x, N_Vector w, N_Vector id) {
  return std::sqrt(weightedSquareSumMasked(x, w, id) / static_cast<double>(NV_LENGTH_S(x)));
}

int weightedRmsNorms(int count, N_Vector* xs, N_Vector* ws, realtype* norms) {
  for (int i = 0; i < count; ++i) norms[i] = weightedRmsNorm(xs[i], ws[i]);
  return 0;
}

int weightedRmsNormsMasked(int count, N_Vector* xs, N_Vector* ws, N_Vector id, realtype* norms) {
  for (int i = 0; i < count; ++i) norms[i] = weightedRmsNormMasked(xs[i], ws[i], id);
  return 0;
}

// The element-wise operations, with SUNDIALS' arithmetic for each element (so their results are the same to the last
// bit): Debian's build of them is not vectorised either, and they were about a tenth of the piles' runs.
using Map = Eigen::Map<Eigen::ArrayXd>;

Map writable(N_Vector v) { return Map(NV_DATA_S(v), NV_LENGTH_S(v)); }

void linearSum(realtype a, N_Vector x, realtype b, N_Vector y, N_Vector z) {
  // SUNDIALS groups two cases differently from a·x + b·y: a·(x + y) when a = b, a·(x − y) when a = −b (unless a
  // or b is ±1, which it writes as sums and differences that a·x + b·y gives exactly).
  const bool unit = a == 1.0 || a == -1.0 || b == 1.0 || b == -1.0;
  if (!unit && a == b) {
    writable(z) = a * (entries(x) + entries(y));
  } else if (!unit && a == -b) {
    writable(z) = a * (entries(x) - entries(y));
  } else {
    writable(z) = a * entries(x) + b * entries(y);
  }
}

void setAll(realtype c, N_Vector z) { writable(z).setConstant(c); }
void product(N_Vector x, N_Vector y, N_Vector z) { writable(z) = entries(x) * entries(y); }
void quotient(N_Vector x, N_Vector y, N_Vector z) { writable(z) = entries(x) / entries(y); }
void scale(realtype c, N_Vector x, N_Vector z) { writable(z) = c * entries(x); }

int linearCombination(int count, realtype* c, N_Vector* xs, N_Vector z) {
  if (count < 1) return -1;
  if (count == 1) {
    scale(c[0], xs[0], z);
    return 0;
  }
  if (count == 2) {
    linearSum(c[0], xs[0], c[1], xs[1], z);
    return 0;
  }
  Map sum = writable(z);
  if (xs[0] == z) {
    if (c[0] != 1.0) sum *= c[0];
  } else {
    sum = c[0] * entries(xs[0]);
  }
  for (int i = 1; i < count; ++i) sum += c[i] * entries(xs[i]);
  return 0;
}

int scaleAddMulti(int count, realtype* a, N_Vector x, N_Vector* ys, N_Vector* zs) {
  if (count < 1) return -1;
  for (int i = 0; i < count; ++i) writable(zs[i]) = a[i] * entries(x) + entries(ys[i]);
  return 0;
}

realtype largestMagnitude(N_Vector x) { return NV_LENGTH_S(x) == 0 ? 0.0 : entries(x).abs().maxCoeff(); }

realtype magnitudeSum(N_Vector x) { return entries(x).abs().sum(); }

}  // namespace

void useVectorisedOperations(N_Vector v) {
  N_Vector_Ops ops = v->ops;
  ops->nvdotprod = dotProduct;
  ops->nvdotprodlocal = dotProduct;
  ops->nvwrmsnorm = weightedRmsNorm;
  ops->nvwrmsnormmask = weightedRmsNormMasked;
  ops->nvwsqrsumlocal = weightedSquareSum;
  ops->nvwsqrsummasklocal = weightedSquareSumMasked;
  ops->nvmaxnorm = largestMagnitude;
  ops->nvmaxnormlocal = largestMagnitude;
  ops->nvl1norm = magnitudeSum;
  ops->nvl1normlocal = magnitudeSum;
  // The fused forms, where SUNDIALS' were enabled (N_VEnableFusedOps_Serial), are the same sums one vector at a
  // time: SUNDIALS' fused dot products also pass over x once per vector of ys.
  ops->nvlinearsum = linearSum;
  ops->nvconst = setAll;
  ops->nvprod = product;
  ops->nvdiv = quotient;
  ops->nvscale = scale;
  if (ops->nvlinearcombination != nullptr) ops->nvlinearcombination = linearCombination;
  if (ops->nvscaleaddmulti != nullptr) ops->nvscaleaddmulti = scaleAddMulti;
  if (ops->nvdotprodmulti != nullptr) ops->nvdotprodmulti = dotProducts;
  if (ops->nvwrmsnormvectorarray != nullptr) ops->nvwrmsnormvectorarray = weightedRmsNorms;
  if (ops->nvwrmsnormmaskvectorarray != nullptr) ops->nvwrmsnormmaskvectorarray = weightedRmsNormsMasked;
}

}  // namespace lodestone
