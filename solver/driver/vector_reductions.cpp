// Vectorised reductions for SUNDIALS' serial vectors (why: vector_reductions.h).
#include "vector_reductions.h"

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

realtype largestMagnitude(N_Vector x) { return NV_LENGTH_S(x) == 0 ? 0.0 : entries(x).abs().maxCoeff(); }

realtype magnitudeSum(N_Vector x) { return entries(x).abs().sum(); }

}  // namespace

void useVectorisedReductions(N_Vector v) {
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
  if (ops->nvdotprodmulti != nullptr) ops->nvdotprodmulti = dotProducts;
  if (ops->nvwrmsnormvectorarray != nullptr) ops->nvwrmsnormvectorarray = weightedRmsNorms;
  if (ops->nvwrmsnormmaskvectorarray != nullptr) ops->nvwrmsnormmaskvectorarray = weightedRmsNormsMasked;
}

}  // namespace lodestone
