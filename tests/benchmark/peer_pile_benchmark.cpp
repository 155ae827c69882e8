// The peers' pile scene (../shared/peers: Bullet, MuJoCo and Chrono SMC run it), as a deck: N spheres of r 0.05 m and
// density 1000 kg/m³ placed by the peers' random sequential addition (mt19937_64, seed 1, the same positions bit for
// bit) fall into a 1 × 1 m box of 0.1 m walls, 2 s. Hertz contact for E 1e7 Pa, ν 0.3 (IMPACT, exponent 1.5, the
// stiffness of two spheres and of a sphere on a wall), damped so that it hardly rebounds, Coulomb friction 0.5.
// Prints wall time, steps, residuals, Jacobians, time by phase and the physics figures the peers print (kinetic
// energy, mean height, largest sphere–sphere overlap at the end, spheres outside the box).
//
//   peer_pile_benchmark [N ...]              (default: N = 100 1000; 1000 runs 0.3 s as the table does)
//   PEER_PILE_END_TIME=t                     simulates t seconds for every N
//   PEER_PILE_ZERO_CROSSING=TRUE|FALSE       (default FALSE; TRUE locates every contact onset)
//   PEER_PILE_INTEGR_TOL=tol                 (default 1e-3; a change in the sixth digit shows how far the pile's
//                                            end figures move for a change that small: the pile is chaotic)
//   PEER_PILE_DECK=path                      also writes the deck of the first N there (for `lodestone run`)
//   PEER_PILE_LINEAR_SOLVER=DENSE|KLU|KRYLOV overrides the choice by size
//   PEER_PILE_THREADS=n                      threads for detection, contact forces, the step limit, the Jacobian and
//                                            GMRES's blocks (default 1; 0: one per core)
//
// The broad phase's pairs kept from residual to residual (VerletList) and shared with the step limit, Release on the
// 2-core VM under a shared load, before -> after, 1 thread: N=1000, 0.3 s: contact detection 15.2 -> 2.8 s (1.28 ->
// 0.24 ms per residual), step limit 6.0 -> 2.1 s, energy balance 6.3 -> 1.3 s, wall 64.9 -> 42.3 s, user CPU 42.8 ->
// 29.7 s; N=100, 2 s, KRYLOV: detection 0.63-0.88 -> 0.21-0.23 s, step limit 0.43-0.61 -> 0.23-0.25 s, user CPU
// 4.25-4.37 -> 3.71-3.75 s. The same steps, residuals and Jacobians (4852/11906/4005 and 5711/12808/3117) and the
// same physics figures to the last digit printed.
// Zero crossing, user CPU on the 2-core VM under a shared load, N=100, 2 s: off 3.5 s (GMRES), 5.4-5.6 s (KLU); on
// 5.1 s and 9.1-9.3 s, IDAS restarted at 781 and 848 of about 2200 located events (Hertz at order 2 or more); 7.3 s
// and 14.4 s when it restarted at every event; 3.9 s and 6.1-6.3 s when it never does (root finding alone).
// Threads (issue 20): GMRES's block products, its preconditioner's solves and inversions, and the writing of the
// contact differences into the Jacobian's blocks spread over the threads like the contact differences already were, bit
// for bit the same (same steps, residuals, Jacobians and figures; bodies.csv, contacts.csv, energy.csv identical for 1
// and 2 threads and to before). Release on the 2-core VM, wall / user CPU, before -> after, with the 1-minute load
// before and after each run (this run's own included; no other session running unless said): N=1000, 0.3 s: 2 threads
// 23.9/25.5 s (load 0.82-0.88) -> 21.4/29.5 s (0.66-0.82), factorisation 4.53 -> 2.35 s, Jacobian 3.13 -> 2.77 s,
// solves 9.18 -> 9.27 s; 1 thread 24.5/24.5 s (1.79-1.52, just after a 2-thread run) -> 24.3/24.3 s (2.20-1.79, the
// same). N=100, 2 s: 2 threads 3.03/3.60 s -> 2.83/4.65 s, 1 thread 3.29/3.28 s -> 3.30/3.30 s (load 1.44-1.52). The
// products and solves halve on their own (block_jacobian_benchmark) but not inside GMRES: between them SUNDIALS' serial
// vector operations (dot products, norms, linear sums: about 10 s, 40% of the run, in solves and integrator other) run
// for tens of microseconds, probably long enough for TBB's worker to fall asleep (not measured), and a product is about
// 100 us. Those operations' sums in serial order no split over threads reproduces bit for bit; their element-wise ones
// could go to the threads. With another session's benchmark on the second core 2 threads gain nothing (24.5-25.0 s).
// Vectorised reductions (vector_operations.h): SUNDIALS' serial dot products and norms add one term at a time, so each
// addition waits for the last; on N=1000 they were a quarter of the run (perf: N_VDotProdMulti 9 %, N_VDotProd 9 %,
// N_VWSqrSumLocal 7 %). With Eigen's sums, 1 thread, quiet VM: N=1000, 0.3 s: wall 23.7 -> 18.5 s, solves 9.7 ->
// 4.8 s, integrator other 3.5 -> 1.7 s (4682 -> 4557 steps: round-off moves the pile); N=100, 2 s: 3.14 -> 2.38 s,
// solves 1.08 -> 0.60 s, integrator other 0.39 -> 0.20 s (5278 -> 5480 steps).
// Then, same day: the contact Jacobian's perturbed kinematics once per body and body J's columns from body I's (N=100:
// Jacobian 0.267 -> 0.219 ms each), and the block-Jacobi preconditioner through each body block's 6x6 Schur complement
// (N=1000: 1.11 -> 0.39 ms per set-up); SUNDIALS' element-wise vector operations vectorised too, and the fixed-size
// block products column by column. Idle VM (load 1.0), right after ../shared/peers/run_all.sh (MuJoCo Newton 0.75 s
// and 6.0 s, Bullet 0.081 s and 3.0 s for 2 s), wall / user CPU: N=100, 2 s: 1 thread 1.61 / 1.61 s, 2 threads
// 1.35 / 2.38 s (5272 steps, 11677 residuals, 2754 Jacobians, 586/865 failures); N=1000, 0.3 s: 1 thread 11.3 /
// 11.3 s, 2 threads 9.24 / 13.6 s (4651 steps, 11552 residuals, 3992 Jacobians, 353/1302 failures). The end figures
// are the same for 1 and 2 threads. Zero crossing on, N=100, 1 thread: 3.02 s (8453 steps, 815 restarts).
// The 100-sphere pile is chaotic at 2 s: over eleven integr_tol within 5e-6 of 1e-3 (PEER_PILE_INTEGR_TOL), its kinetic
// energy at the end spans 0.0032-0.0198 J (median 0.0075; 0.0032-0.0122 J, median 0.0066, before these changes), its
// largest overlap 0.227-0.282 mm (0.227-0.279 mm before), its mean height 0.05850-0.05897 m.
// Next session: detection, the residual's contact forces, the energy terms, the step limit, the bodies' kinematics and
// residual rows, and the writing of the iteration matrix's blocks on the threads too; couplings of ended contacts left
// out of products; Hertz's δ^e kept per thread. Right after ../shared/peers/run_all.sh (MuJoCo Newton 0.72 s and
// 6.96 s, Bullet 0.080 s and 2.98 s for 2 s), three runs each: N=100, 2 s: 1 thread 1.49-1.51 s, 2 threads 1.20-1.21 s;
// N=1000, 0.3 s: 1 thread 10.7-10.8 s, 2 threads 7.4-7.6 s in four quiet runs (8.3 s, and 11.6 s twice while the
// host was busy). Same steps, failures and end figures as above. Then the 6x6 Schur complement by its 3x3 blocks
// (factorisation -43 %) and BlockJacobian::begin() without zeroing (-5 % of the instructions); the first changes the
// preconditioner at round-off and so the steps: N=100 5398 steps, 11902 residuals, 2828 Jacobians, KE 0.0131 J,
// overlap 0.249 mm; N=1000 4794 / 11615 / 3934, KE 1529.1 J, overlap 4.30 mm. In a busier hour (the peers 3-15 %
// slower), interleaved with the build this session began from, 1 thread: N=100 1.72 -> 1.55-1.60 s, N=1000 12.9 ->
// 11.3 s. Zero crossing on, N=100, 1 thread: 2.97-3.01 s against 1.53-1.57 s off (945 restarts). Cost per step at
// 0.3 s, 1 thread: 0.225 / 0.926 / 2.35 / 8.55 / 34.2 ms at N = 100 / 300 / 1000 / 3000 / 10 000 (least-squares
// exponent 1.07; 1.16 from 1000 to 10 000).
// Next session, on another VM of the same kind, slower and noisier (the peers 10-40 % slower than above; the same
// binary's wall time varies by 20 % from minute to minute): the Jacobian takes friction's slope along the slip as the
// chord from zero slip (Newton no longer overshoots across a flat μ), a one-point pair's angular velocity columns come
// from its linear ones and a centred sphere's Euler parameter columns from its angular ones (7 evaluations of a sphere
// pair where there were 18), detection finds a pair's touching status without a hash look-up, GMRES solves each Newton
// correction to 0.25 of Newton's tolerance (IDAS's default 0.05), and its product with ∂F/∂y' costs that matrix's
// non-zeros. Interleaved with the build the session began from, right after ../shared/peers/run_all.sh (MuJoCo Newton
// 1.05 s and 7.6 s, Bullet 0.110 s and 5.4 s for 2 s): N=1000, 0.3 s: 4794 -> 3587 steps, 11615 -> 7876 residuals,
// 3934 -> 1578 Jacobians, 20380 -> 9828 linear iterations, Newton failures 1290 -> 530; 1 thread 15.3 -> 8.0 s, 2
// threads 11.8 -> 7.0 s; KE 1529.1 -> 1527.9 J, overlap 4.30 -> 4.09 mm. N=100, 2 s: 5398 -> 4994 steps, 2828 -> 1913
// Jacobians, 916 -> 612 failures; 1 thread 2.28-2.43 -> 1.49-2.04 s, 2 threads 1.89-2.50 -> 1.43-2.00 s; callgrind
// 21.56e9 -> 15.59e9 instructions. (The final commits move the chaotic pile's steps by a few per cent: N=100 4904
// steps, 1950 Jacobians, 618 failures, KE 0.0100 J, overlap 0.240 mm; N=1000 3575 / 1573 / 543, 1528.6 J, 3.92 mm.) Zero
// crossing on, N=100, 1 thread: 3.2 s against 1.5 s off (2.1x; 993 restarts). Cost per step at 0.3 s, 1 thread: 0.231
// / 0.889 / 2.62 / 9.39 / 37.9 ms at N = 100 / 300 / 1000 / 3000 / 10 000 (exponent 1.09; 1.16 from 1000 to 10 000).
// Next session, on a faster VM of the same kind (the peers 25-45 % faster than on the last), only zero crossing
// changed: each pair's onset or separation is located on IDAS's interpolant from that pair's distance, the step's end
// detection showing which pairs crossed, instead of by two root functions per element that detected every pair at
// each evaluation. Without zero crossing the runs are bit for bit those above. Right after ../shared/peers/run_all.sh
// (MuJoCo Newton 0.72 s and 6.19 s, Bullet 0.077 s and 3.78 s for 2 s): N=100, 2 s: 1 thread 0.99-1.08 s, 2 threads
// 0.84-1.04 s; N=1000, 0.3 s: 1 thread 4.84-4.97 s, 2 threads 3.57-3.66 s (4904 and 3575 steps, figures as above).
// An hour later (MuJoCo 0.82 s and 8.21 s, Bullet 0.091 s and 4.97 s), interleaved with the build the session began
// from, 1 thread, zero crossing on / off: N=100, 2 s: 2.11-2.34 / 1.04-1.49 s -> 2.06-2.07 / 1.05-1.10 s (711 -> 947
// restarts, the chaotic pile taking another course; 30356 root function evaluations -> 22113 pair distances); N=1000,
// 0.3 s: 10.5-15.0 / 5.4-5.9 s -> 6.7-6.8 / 5.5-5.8 s. Under callgrind, N=100, 0.6 s: 18.68e9 -> 15.39e9 instructions
// on, 9.88e9 off. With IDAS's restarts left out (a measurement only), N=100: 1.46 -> 1.14 s against 0.99 s off. Cost
// per step at 0.3 s, 1 thread: 0.169 / 0.569 / 1.47 / 5.22 / 21.2 ms at N = 100 / 300 / 1000 / 3000 / 10 000 (exponent
// 1.03; 1.16 from 1000 to 10 000).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "deck_model.h"
#include "pile_deck.h"
#include "elements/body_rigid.h"
#include "solver/core/text.h"
#include "solver/driver/simulation.h"

using namespace lodestone;

namespace {

constexpr double kRadius = 0.05, kDensity = 1000, kHalfInner = 0.5, kWallThickness = 0.1;
constexpr double kYoungsModulus = 1e7, kPoissonRatio = 0.3, kFriction = 0.5;

struct PeerPile {
  std::vector<double> xyz;  // 3 per sphere centre
  double wallHeight = 0;
};

// The peers' layout generator, rewritten: uniform doubles from the top 53 bits of mt19937_64 (std distributions are
// implementation-defined), candidates in a column above the floor rejected while they come within 2 mm of a placed
// sphere, packing fraction about 0.25.
PeerPile peerPile(int count, std::uint64_t seed = 1) {
  std::mt19937_64 generator(seed);
  auto uniform = [&](double a, double b) { return a + (b - a) * static_cast<double>(generator() >> 11) * 0x1.0p-53; };
  const double gap = 0.002, low = -kHalfInner + kRadius + gap, high = kHalfInner - kRadius - gap;
  const double area = (high - low + 2 * kRadius) * (high - low + 2 * kRadius);
  const double volume = count * 4.0 / 3.0 * M_PI * kRadius * kRadius * kRadius / 0.25;
  const double zLow = kRadius + 0.05, zHigh = zLow + std::max(volume / area, 2 * kRadius);
  PeerPile pile;
  double top = 0;
  for (int i = 0; i < count; ++i) {
    for (;;) {
      const double x = uniform(low, high), y = uniform(low, high), z = uniform(zLow, zHigh);
      bool clear = true;
      for (size_t j = 0; clear && j < pile.xyz.size(); j += 3) {
        const double dx = x - pile.xyz[j], dy = y - pile.xyz[j + 1], dz = z - pile.xyz[j + 2];
        clear = dx * dx + dy * dy + dz * dz > (2 * kRadius + gap) * (2 * kRadius + gap);
      }
      if (clear) {
        pile.xyz.insert(pile.xyz.end(), {x, y, z});
        top = std::max(top, z);
        break;
      }
    }
  }
  pile.wallHeight = top + 0.5;
  return pile;
}

// Hertz: F = (4/3) E* √R* δ^1.5 with E* = E / (2 (1 − ν²)) for two bodies of one material.
double hertzStiffness(double effectiveRadius) {
  const double effectiveModulus = kYoungsModulus / (2 * (1 - kPoissonRatio * kPoissonRatio));
  return 4.0 / 3.0 * effectiveModulus * std::sqrt(effectiveRadius);
}

std::string attribute(const std::string& name, double value) { return " " + name + "=\"" + formatReal(value) + "\""; }

std::string pileDeck(const PeerPile& pile, bool zeroCrossing, double endTime) {
  const int count = static_cast<int>(pile.xyz.size() / 3);
  const double mass = kDensity * 4.0 / 3.0 * M_PI * kRadius * kRadius * kRadius;
  const double inertia = 0.4 * mass * kRadius * kRadius;
  std::string deck = "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n";
  const char* integrTol = std::getenv("PEER_PILE_INTEGR_TOL");
  deck += "<Force_Gravity grav_z=\"-9.81\"/>\n<Param_Transient" +
          attribute("integr_tol", integrTol ? std::atof(integrTol) : 1e-3) + "/>\n";
  deck += "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n";
  struct Wall { double x, y, z, lx, ly, lz; };
  const double h = pile.wallHeight, t = kWallThickness, outer = 2 * kHalfInner + 2 * t;
  const Wall walls[] = {{0, 0, -t / 2, outer + 2 * t, outer + 2 * t, t},
                        {-(kHalfInner + t / 2), 0, h / 2, t, outer, h},
                        {kHalfInner + t / 2, 0, h / 2, t, outer, h},
                        {0, -(kHalfInner + t / 2), h / 2, outer, t, h},
                        {0, kHalfInner + t / 2, h / 2, outer, t, h}};
  std::string wallIds;
  for (int w = 0; w < 5; ++w) {
    const Wall& wall = walls[w];
    const std::string marker = std::to_string(10 + w), graphic = std::to_string(100 + w);
    deck += "<Reference_Marker id=\"" + marker + "\" body_id=\"1\"" + attribute("pos_x", wall.x) +
            attribute("pos_y", wall.y) + attribute("pos_z", wall.z) + "/>\n";
    deck += "<Post_Graphic id=\"" + graphic + "\" type=\"BoxDefinedFromCenter\" center_marker_id=\"" + marker + "\"" +
            attribute("length_x", wall.lx) + attribute("length_y", wall.ly) + attribute("length_z", wall.lz) + "/>\n";
    wallIds += " " + graphic;
  }
  std::string sphereIds;
  for (int i = 0; i < count; ++i) {
    const std::string body = std::to_string(1000 + i), marker = std::to_string(100000 + i),
                      graphic = std::to_string(200000 + i);
    deck += "<Body_Rigid id=\"" + body + "\" cg_id=\"" + marker + "\"" + attribute("mass", mass) +
            attribute("inertia_xx", inertia) + attribute("inertia_yy", inertia) + attribute("inertia_zz", inertia) +
            "/>\n";
    deck += "<Reference_Marker id=\"" + marker + "\" body_id=\"" + body + "\"" + attribute("pos_x", pile.xyz[3 * i]) +
            attribute("pos_y", pile.xyz[3 * i + 1]) + attribute("pos_z", pile.xyz[3 * i + 2]) + "/>\n";
    deck += "<Post_Graphic id=\"" + graphic + "\" type=\"Sphere\" center_marker_id=\"" + marker + "\"" +
            attribute("radius", kRadius) + "/>\n";
    sphereIds += " " + graphic;
  }
  // Damping 100 N·s/m is about half the critical damping of a sphere resting on another (linearised Hertz stiffness
  // at its rest overlap): the pile settles with hardly a rebound, as the peers' restitution 0 does.
  auto contact = [&](int id, const std::string& jIds, double stiffness) {
    return "<Force_Contact id=\"" + std::to_string(id) + "\" i_graphics_id=\"" + sphereIds + "\" j_graphics_id=\"" +
           jIds + "\" cnf_type=\"IMPACT\"" + attribute("stiffness", stiffness) +
           " exponent=\"1.5\" damping=\"100\" dmax=\"1e-4\" cff_type=\"COULOMB_ON\"" + attribute("mu_static", kFriction) +
           attribute("mu_dynamic", kFriction) + " stiction_trans_vel=\"0.01\" friction_trans_vel=\"0.02\" zero_crossing=\"" +
           (zeroCrossing ? "TRUE" : "FALSE") + "\"/>\n";
  };
  deck += contact(1, sphereIds, hertzStiffness(kRadius / 2));
  deck += contact(2, wallIds, hertzStiffness(kRadius));
  deck += "</Model><Command><Simulate analysis_type=\"Transient\"" + attribute("end_time", endTime) +
          " print_interval=\"0.01\"/></Command></MultiBodySystem>\n";
  return deck;
}

struct PileFigures {
  double kineticEnergy = 0, meanHeight = 0, largestOverlap = 0;
  int escaped = 0;
};

PileFigures measure(const Simulation& simulation) {
  using namespace body_state;
  const Model& model = simulation.model();
  const std::span<const double> y = simulation.state();
  const int count = static_cast<int>(model.bodies.size());
  PileFigures figures;
  std::vector<Vector3> centres;
  for (int b = 0; b < count; ++b) {
    const double* state = y.data() + simulation.layout().bodyOffset(b);
    const Vector3 centre(state[kPosition], state[kPosition + 1], state[kPosition + 2]);
    const Vector3 velocity(state[kVelocity], state[kVelocity + 1], state[kVelocity + 2]);
    const Vector3 spin(state[kAngularVelocity], state[kAngularVelocity + 1], state[kAngularVelocity + 2]);
    const RigidBody& body = model.bodies[static_cast<size_t>(b)];
    figures.kineticEnergy += 0.5 * body.mass * velocity.squaredNorm() + 0.5 * spin.dot(body.inertia * spin);
    figures.meanHeight += centre.z() / count;
    if (std::abs(centre.x()) > kHalfInner || std::abs(centre.y()) > kHalfInner || centre.z() < 0) ++figures.escaped;
    centres.push_back(centre);
  }
  for (int a = 0; a < count; ++a) {
    for (int b = a + 1; b < count; ++b) {
      figures.largestOverlap = std::max(figures.largestOverlap, 2 * kRadius - (centres[a] - centres[b]).norm());
    }
  }
  return figures;
}

void runPile(int count, double endTime, bool zeroCrossing) {
  const PeerPile pile = peerPile(count);
  const std::string deck = pileDeck(pile, zeroCrossing, endTime);
  if (const char* path = std::getenv("PEER_PILE_DECK")) std::ofstream(path) << deck;
  SimulationOptions options;
  if (const char* threads = std::getenv("PEER_PILE_THREADS")) options.threads = std::atoi(threads);
  options.integrator.linearSolver = benchmark::linearSolverFromEnvironment("PEER_PILE_LINEAR_SOLVER");
  Simulation simulation(benchmark::modelOfDeck(deck, "peer_pile.xml"), options);
  long onsets = 0, separations = 0, located = 0;
  simulation.setContactEventHandler([&](const ContactEvent& event) {
    (event.onset ? onsets : separations) += 1;
    located += event.located ? 1 : 0;
  });
  const auto [outcome, seconds] = benchmark::runTimed(simulation, endTime);
  const SolverStatistics s = simulation.statistics();
  const PhaseTimes& t = simulation.times();
  const PileFigures figures = measure(simulation);
  std::printf("N=%d, %g s, zero_crossing %s, %s, %d thread(s): %s\n", count, endTime,
              zeroCrossing ? "TRUE" : "FALSE", describeLinearSolver(simulation.linearSolver()), simulation.threads(),
              outcome.completed ? "completed" : "FAILED");
  std::printf("  wall %.3f s   steps %ld   residuals %ld   Jacobians %ld   linear iterations %ld   "
              "error-test/Newton failures %ld/%ld\n",
              seconds, s.steps, s.residualEvaluations, s.jacobianEvaluations, s.linearIterations, s.errorTestFailures,
              s.nonlinearConvergenceFailures);
  std::printf("  contact events %ld onsets / %ld separations (%ld located)   root evaluations %ld   restarts %ld\n",
              onsets, separations, located, s.rootEvaluations, s.restarts);
  std::printf("  kinematics %.3f  detection %.3f  forces %.3f  assembly %.3f  Jacobian %.3f  factorisation %.3f  "
              "solves %.3f  step limit %.3f  energy %.3f  impacts %.3f  integrator other %.3f  output %.3f s\n",
              t.kinematics, t.contactDetection, t.forces, t.assembly, t.jacobian, t.linearSetup, t.linearSolve,
              t.contactStepLimit, t.energy, t.impacts, t.integratorOther(), t.output);
  std::printf("  at the end: kinetic energy %.6g J   mean height %.6g m   largest overlap %.6g m   escaped %d\n",
              figures.kineticEnergy, figures.meanHeight, figures.largestOverlap, figures.escaped);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> counts = benchmark::pileCounts(argc, argv);
  const char* endTimeText = std::getenv("PEER_PILE_END_TIME");
  const char* zeroCrossingText = std::getenv("PEER_PILE_ZERO_CROSSING");
  const bool zeroCrossing = zeroCrossingText && std::string(zeroCrossingText) == "TRUE";
  for (int count : counts) {
    const double endTime = endTimeText ? std::atof(endTimeText) : count >= 1000 ? 0.3 : 2.0;
    runPile(count, endTime, zeroCrossing);
  }
  return 0;
}
