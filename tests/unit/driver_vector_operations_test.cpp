// The vectorised reductions give SUNDIALS' serial results to round-off, masks and fused forms included; the
// element-wise operations give them to the last bit; vectors cloned afterwards inherit them.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include "solver/driver/vector_operations.h"

namespace lodestone {
namespace {

struct ContextDeleter {
  void operator()(SUNContext context) const { SUNContext_Free(&context); }
};
struct VectorDeleter {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
using Vector = std::unique_ptr<_generic_N_Vector, VectorDeleter>;

class VectorOperationsTest : public ::testing::TestWithParam<int> {
 protected:
  VectorOperationsTest() {
    SUNContext context = nullptr;
    SUNContext_Create(nullptr, &context);
    context_.reset(context);
  }

  // A serial vector of uniformly random entries in [low, high), SUNDIALS' own operations.
  Vector randomVector(double low, double high) {
    Vector v(N_VNew_Serial(GetParam(), context_.get()));
    N_VEnableFusedOps_Serial(v.get(), SUNTRUE);
    std::uniform_real_distribution<double> entry(low, high);
    for (sunindextype i = 0; i < GetParam(); ++i) NV_Ith_S(v.get(), i) = entry(random_);
    return v;
  }

  // The same entries in a vector with the vectorised reductions.
  Vector vectorisedCopy(N_Vector original) {
    Vector copy(N_VClone(original));
    useVectorisedOperations(copy.get());
    N_VScale(1.0, original, copy.get());
    return copy;
  }

  std::unique_ptr<_SUNContext, ContextDeleter> context_;
  std::mt19937_64 random_{7};
};

TEST_P(VectorOperationsTest, EveryReductionMatchesSundialsSerial) {
  const Vector x = randomVector(-2, 3), y = randomVector(-1, 1), w = randomVector(0.5, 10);
  const Vector mask = randomVector(-1, 1);
  for (sunindextype i = 0; i < GetParam(); ++i) NV_Ith_S(mask.get(), i) = NV_Ith_S(mask.get(), i) > 0 ? 1.0 : 0.0;
  const Vector fx = vectorisedCopy(x.get()), fy = vectorisedCopy(y.get()), fw = vectorisedCopy(w.get());
  const Vector fmask = vectorisedCopy(mask.get());
  // Two groupings of a sum of n terms differ by at most about n ulps of the sum of the terms' magnitudes; the
  // norms' terms are positive (their magnitude is the result), a dot product's are not.
  const double perTerm = 2.3e-16 * GetParam();
  const auto nearSum = [&](double vectorised, double reference, double magnitude) {
    EXPECT_NEAR(vectorised, reference, perTerm * magnitude) << "n = " << GetParam();
  };
  const auto dotMagnitude = [&](N_Vector a, N_Vector b) {
    double sum = 0;
    for (sunindextype i = 0; i < GetParam(); ++i) sum += std::abs(NV_Ith_S(a, i) * NV_Ith_S(b, i));
    return sum;
  };
  const auto near = [&](double vectorised, double reference) { nearSum(vectorised, reference, std::abs(reference)); };
  nearSum(N_VDotProd(fx.get(), fy.get()), N_VDotProd(x.get(), y.get()), dotMagnitude(x.get(), y.get()));
  near(N_VWrmsNorm(fx.get(), fw.get()), N_VWrmsNorm(x.get(), w.get()));
  near(N_VWrmsNormMask(fx.get(), fw.get(), fmask.get()), N_VWrmsNormMask(x.get(), w.get(), mask.get()));
  near(N_VWSqrSumLocal(fx.get(), fw.get()), N_VWSqrSumLocal(x.get(), w.get()));
  near(N_VWSqrSumMaskLocal(fx.get(), fw.get(), fmask.get()), N_VWSqrSumMaskLocal(x.get(), w.get(), mask.get()));
  near(N_VMaxNorm(fx.get()), N_VMaxNorm(x.get()));
  near(N_VL1Norm(fx.get()), N_VL1Norm(x.get()));

  N_Vector plain[] = {x.get(), y.get(), w.get()};
  N_Vector vectorised[] = {fx.get(), fy.get(), fw.get()};
  double expected[3], products[3];
  ASSERT_EQ(N_VDotProdMulti(3, y.get(), plain, expected), 0);
  ASSERT_EQ(N_VDotProdMulti(3, fy.get(), vectorised, products), 0);
  for (int i = 0; i < 3; ++i) nearSum(products[i], expected[i], dotMagnitude(y.get(), plain[i]));

  N_Vector weights[] = {w.get(), w.get(), w.get()};
  N_Vector vectorisedWeights[] = {fw.get(), fw.get(), fw.get()};
  ASSERT_EQ(N_VWrmsNormMaskVectorArray(3, plain, weights, mask.get(), expected), 0);
  ASSERT_EQ(N_VWrmsNormMaskVectorArray(3, vectorised, vectorisedWeights, fmask.get(), products), 0);
  for (int i = 0; i < 3; ++i) near(products[i], expected[i]);
}

// The element-wise operations compute each element as SUNDIALS does, so they give its results to the last bit:
// linear sums in every case SUNDIALS groups differently (a = ±1, b = ±1, a = b, a = −b, in place), linear combinations
// of 1 to 4 vectors in place and not, scaled additions, products, quotients, scalings and constants.
TEST_P(VectorOperationsTest, ElementWiseOperationsGiveSundialsResultsBitForBit) {
  const Vector x = randomVector(-2, 3), y = randomVector(-1, 1), w = randomVector(0.5, 10);
  const Vector fx = vectorisedCopy(x.get()), fy = vectorisedCopy(y.get()), fw = vectorisedCopy(w.get());
  const Vector z = randomVector(0, 1), fz = vectorisedCopy(z.get());
  const auto same = [&](N_Vector vectorised, N_Vector reference, const std::string& what) {
    for (sunindextype i = 0; i < GetParam(); ++i) {
      ASSERT_EQ(NV_Ith_S(vectorised, i), NV_Ith_S(reference, i)) << what << " at " << i << ", n = " << GetParam();
    }
  };
  const std::pair<double, double> coefficients[] = {{1, 1},      {1, -1},  {-1, 1},  {-1, -1}, {1, 0.3}, {0.3, 1},
                                                    {-1, 0.3},   {0.3, -1}, {0.7, 0.7}, {0.7, -0.7}, {0.3, 1.7}, {0, 0}};
  for (const auto& [a, b] : coefficients) {
    const std::string what = "linear sum " + std::to_string(a) + ", " + std::to_string(b);
    N_VLinearSum(a, x.get(), b, y.get(), z.get());
    N_VLinearSum(a, fx.get(), b, fy.get(), fz.get());
    same(fz.get(), z.get(), what);
    // In place, into y and into x, on copies.
    const Vector ry(N_VClone(y.get())), rfy = vectorisedCopy(y.get());  // SUNDIALS' operations, and ours
    N_VScale(1.0, y.get(), ry.get());
    N_VLinearSum(a, x.get(), b, ry.get(), ry.get());
    N_VLinearSum(a, fx.get(), b, rfy.get(), rfy.get());
    same(rfy.get(), ry.get(), what + " into y");
  }
  N_VProd(x.get(), w.get(), z.get());
  N_VProd(fx.get(), fw.get(), fz.get());
  same(fz.get(), z.get(), "product");
  N_VDiv(x.get(), w.get(), z.get());
  N_VDiv(fx.get(), fw.get(), fz.get());
  same(fz.get(), z.get(), "quotient");
  for (const double c : {1.0, -1.0, 0.37}) {
    N_VScale(c, x.get(), z.get());
    N_VScale(c, fx.get(), fz.get());
    same(fz.get(), z.get(), "scale");
  }
  N_VConst(0.25, z.get());
  N_VConst(0.25, fz.get());
  same(fz.get(), z.get(), "constant");

  double c[] = {0.7, -1.3, 0.2, 2.1};
  for (int count = 1; count <= 4; ++count) {
    N_Vector plain[] = {x.get(), y.get(), w.get(), x.get()};
    N_Vector vectorised[] = {fx.get(), fy.get(), fw.get(), fx.get()};
    ASSERT_EQ(N_VLinearCombination(count, c, plain, z.get()), 0);
    ASSERT_EQ(N_VLinearCombination(count, c, vectorised, fz.get()), 0);
    same(fz.get(), z.get(), "linear combination of " + std::to_string(count));
    for (const double first : {1.0, 0.7}) {  // into its first vector
      c[0] = first;
      N_VScale(1.0, y.get(), z.get());
      N_VScale(1.0, fy.get(), fz.get());
      N_Vector intoPlain[] = {z.get(), x.get(), w.get(), y.get()};
      N_Vector intoVectorised[] = {fz.get(), fx.get(), fw.get(), fy.get()};
      ASSERT_EQ(N_VLinearCombination(count, c, intoPlain, z.get()), 0);
      ASSERT_EQ(N_VLinearCombination(count, c, intoVectorised, fz.get()), 0);
      same(fz.get(), z.get(), "linear combination into its first vector, " + std::to_string(count));
    }
    c[0] = 0.7;
  }
  double a[] = {0.3, -2.0};
  const Vector z2 = randomVector(0, 1), fz2 = vectorisedCopy(z2.get());
  N_Vector ys[] = {y.get(), w.get()}, fys[] = {fy.get(), fw.get()};
  N_Vector zs[] = {z.get(), z2.get()}, fzs[] = {fz.get(), fz2.get()};
  ASSERT_EQ(N_VScaleAddMulti(2, a, x.get(), ys, zs), 0);
  ASSERT_EQ(N_VScaleAddMulti(2, a, fx.get(), fys, fzs), 0);
  same(fz.get(), z.get(), "scaled addition 0");
  same(fz2.get(), z2.get(), "scaled addition 1");
}

TEST_P(VectorOperationsTest, ClonesInheritTheReductions) {
  const Vector x = randomVector(-1, 1);
  const Vector vectorised = vectorisedCopy(x.get());
  const Vector clone(N_VClone(vectorised.get()));
  EXPECT_EQ(clone->ops->nvdotprod, vectorised->ops->nvdotprod);
  EXPECT_NE(clone->ops->nvdotprod, x->ops->nvdotprod);
  EXPECT_EQ(clone->ops->nvwrmsnorm, vectorised->ops->nvwrmsnorm);
}

// Lengths around the vector units' widths, a body's 13 states, and the peers' 1000-sphere pile.
INSTANTIATE_TEST_SUITE_P(Lengths, VectorOperationsTest, ::testing::Values(1, 2, 3, 7, 13, 1300, 13000));

}  // namespace
}  // namespace lodestone
