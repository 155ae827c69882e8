// The vectorised reductions give SUNDIALS' serial results to round-off, masks and fused forms included, and
// vectors cloned afterwards inherit them.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include "solver/driver/vector_reductions.h"

namespace lodestone {
namespace {

struct ContextDeleter {
  void operator()(SUNContext context) const { SUNContext_Free(&context); }
};
struct VectorDeleter {
  void operator()(N_Vector v) const { N_VDestroy(v); }
};
using Vector = std::unique_ptr<_generic_N_Vector, VectorDeleter>;

class VectorReductionsTest : public ::testing::TestWithParam<int> {
 protected:
  VectorReductionsTest() {
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
    useVectorisedReductions(copy.get());
    N_VScale(1.0, original, copy.get());
    return copy;
  }

  std::unique_ptr<_SUNContext, ContextDeleter> context_;
  std::mt19937_64 random_{7};
};

TEST_P(VectorReductionsTest, EveryReductionMatchesSundialsSerial) {
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

TEST_P(VectorReductionsTest, ClonesInheritTheReductions) {
  const Vector x = randomVector(-1, 1);
  const Vector vectorised = vectorisedCopy(x.get());
  const Vector clone(N_VClone(vectorised.get()));
  EXPECT_EQ(clone->ops->nvdotprod, vectorised->ops->nvdotprod);
  EXPECT_NE(clone->ops->nvdotprod, x->ops->nvdotprod);
  EXPECT_EQ(clone->ops->nvwrmsnorm, vectorised->ops->nvwrmsnorm);
}

// Lengths around the vector units' widths, a body's 13 states, and the peers' 1000-sphere pile.
INSTANTIATE_TEST_SUITE_P(Lengths, VectorReductionsTest, ::testing::Values(1, 2, 3, 7, 13, 1300, 13000));

}  // namespace
}  // namespace lodestone
