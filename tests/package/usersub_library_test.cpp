// Subroutine libraries written exactly as MotionSolve examples (fixtures/motionsolve_contact.c and .cpp, built by
// tests/package/CMakeLists.txt with lodestone_add_subroutine_library and -Werror) load with dlopen, export CNFSUB,
// CFFSUB and CONTACTPOST under their plain names, and compute with the utilities of liblodestone_usersub, which
// they find by themselves. No simulation installs a host here: c_impact and c_step need none, the others fail
// with errflg = 1.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>

#include "lodestone/usersub.h"

namespace {

class Library {
 public:
  explicit Library(const char* path) : handle_(dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
    if (!handle_) error_ = dlerror();
  }
  ~Library() {
    if (handle_) dlclose(handle_);
  }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  bool loaded() const { return handle_ != nullptr; }
  const std::string& error() const { return error_; }
  template <class Function>
  Function symbol(const char* name) const {
    return reinterpret_cast<Function>(dlsym(handle_, name));
  }

 private:
  void* handle_;
  std::string error_;
};

// IMPACT(gap, gapdot, 0, k, e, cmax, d) for a 1 mm penetration closing at 0.1 m/s, worked out here:
// k·0.001^e, plus STEP(-0.001, -d, cmax, 0, 0) = cmax·(1 − 0.9²·(3 − 2·0.9)) = 0.28 times 0.1.
constexpr double kStiffness = 1e5, kExponent = 1.5, kDamping = 10, kDepth = 0.01;
const double kExpectedForce = kStiffness * std::pow(0.001, kExponent) + 0.28 * 0.1;

double callCnfsub(lodestone_cnfsub cnfsub, double gap, double gapdot, int iflag = 0) {
  int id = 7, npar = 4, dflag = 0;
  double time = 0.5, par[] = {kStiffness, kExponent, kDamping, kDepth};
  double loci[3] = {}, ni[3] = {0, 0, 1}, locj[3] = {}, nj[3] = {0, 0, -1}, gapdotdot = 0, result = -1;
  cnfsub(&id, &time, par, &npar, loci, ni, locj, nj, &gap, &gapdot, &gapdotdot, &dflag, &iflag, &result);
  return result;
}

// One fixture library: its language (the test's suffix) and file.
struct Fixture {
  const char* language;
  const char* path;
};
void PrintTo(const Fixture& fixture, std::ostream* out) { *out << fixture.language; }

class SubroutineLibrary : public ::testing::TestWithParam<Fixture> {};

TEST_P(SubroutineLibrary, ExportsTheMotionSolveEntryPointsUnderTheirPlainNames) {
  const Library library(GetParam().path);
  ASSERT_TRUE(library.loaded()) << library.error();
  for (const char* name : {"CNFSUB", "CFFSUB", "CONTACTPOST"}) {
    void* address = library.symbol<void*>(name);
    ASSERT_NE(address, nullptr) << name << " is not exported by " << GetParam().path;
    Dl_info info{};
    ASSERT_NE(dladdr(address, &info), 0);
    ASSERT_NE(info.dli_sname, nullptr);
    EXPECT_STREQ(info.dli_sname, name);
  }
}

TEST_P(SubroutineLibrary, CnfsubReturnsTheImpactForceOfAPenetration) {
  const Library library(GetParam().path);
  ASSERT_TRUE(library.loaded()) << library.error();
  const auto cnfsub = library.symbol<lodestone_cnfsub>("CNFSUB");
  ASSERT_NE(cnfsub, nullptr);
  EXPECT_NEAR(callCnfsub(cnfsub, -0.001, -0.1), kExpectedForce, 1e-9);
  EXPECT_NEAR(kExpectedForce, 3.1902776601683795, 1e-12);
  EXPECT_EQ(callCnfsub(cnfsub, 0.002, -0.1), 0.0) << "apart: no force";
  EXPECT_EQ(callCnfsub(cnfsub, -0.001, -0.1, /*iflag*/ 1), 0.0) << "the set-up call computes nothing";
}

TEST_P(SubroutineLibrary, CffsubReturnsCoulombFrictionAgainstTheSlip) {
  const Library library(GetParam().path);
  ASSERT_TRUE(library.loaded()) << library.error();
  const auto cffsub = library.symbol<lodestone_cffsub>("CFFSUB");
  ASSERT_NE(cffsub, nullptr);
  int id = 7, npar = 2, dflag = 0, iflag = 0;
  double time = 0, par[] = {0.3, 0.01}, loci[3] = {}, locj[3] = {}, x[3] = {}, xdot[3] = {0.05, 0, 0};
  double nforce = 20, result[3] = {1, 1, 1};
  cffsub(&id, &time, par, &npar, loci, locj, x, xdot, &nforce, &dflag, &iflag, result);
  EXPECT_NEAR(result[0], -0.3 * 20, 1e-12);
  EXPECT_EQ(result[1], 0.0);
  EXPECT_EQ(result[2], 0.0);
}

TEST_P(SubroutineLibrary, ContactpostOutsideASimulationGetsErrorsAndReturns) {
  const Library library(GetParam().path);
  ASSERT_TRUE(library.loaded()) << library.error();
  const auto contactpost = library.symbol<lodestone_contactpost>("CONTACTPOST");
  ASSERT_NE(contactpost, nullptr);
  int id = 7, igra = 1, jgra = 2, npar = 0, iflag = 1, endflg = 0;
  double time = 0, par[1] = {};
  contactpost(&id, &igra, &jgra, &time, par, &npar, &iflag, &endflg);
  endflg = 1;
  contactpost(&id, &igra, &jgra, &time, par, &npar, &iflag, &endflg);
}

TEST_P(SubroutineLibrary, ResolvesTheUtilitiesFromLiblodestoneUsersub) {
  const Library library(GetParam().path);
  ASSERT_TRUE(library.loaded()) << library.error();
  // dlsym on the library's handle searches its dependencies too: the utilities come with it.
  void* impact = library.symbol<void*>("c_impact");
  ASSERT_NE(impact, nullptr);
  Dl_info info{};
  ASSERT_NE(dladdr(impact, &info), 0);
  EXPECT_NE(std::string(info.dli_fname).find("liblodestone_usersub.so"), std::string::npos) << info.dli_fname;

  using Sysfnc = void (*)(const char*, int*, int, double*, int*);
  const auto sysfnc = library.symbol<Sysfnc>("c_sysfnc");
  ASSERT_NE(sysfnc, nullptr);
  double state = 42;
  int errflg = 0;
  sysfnc("TIME", nullptr, 0, &state, &errflg);
  EXPECT_EQ(errflg, 1) << "no simulation is running, so no host answers";
}

INSTANTIATE_TEST_SUITE_P(MotionSolveSources, SubroutineLibrary,
                         ::testing::Values(Fixture{"C", LODESTONE_FIXTURE_C_LIBRARY},
                                           Fixture{"Cxx", LODESTONE_FIXTURE_CXX_LIBRARY}),
                         [](const ::testing::TestParamInfo<Fixture>& info) { return std::string(info.param.language); });

}  // namespace
