// Force_Magnet (ours, beside MotionSolve's elements): a graphic of a body made a permanent magnet. Every magnet of the
// model pulls and turns every magnet on another body, touching or not; contact between them is a Force_Contact as
// usual. The deck element, its checks, and the pairs it makes; the physics is in magnetics/magnet_pair.h.
//
//   graphic_id           the Post_Graphic that is the magnet: a Sphere, a Box, a Cylinder, an Ellipsoid or a closed
//                        TriaMesh
//   magnetization_x/y/z  M, uniform, in the axes of the graphic's marker (current per length: A/m in a metre deck,
//                        A/mm in a millimetre one), in any direction
//   moment_x/y/z         or the magnet's whole moment M·V (A·length²), in the same axes
//   susceptibility       or χ (dimensionless, SI; > −1, ≠ 0): a soft magnet, magnetised by the field of the others
//                        (below); instead of magnetization or moment
//   strength_expression  a factor on M (TIME, VARVAL, sensors…): an electromagnet switched or ramped; 1 without it;
//                        a permanent magnet's only (a soft magnet's moment follows the field)
//   dipoles_per_axis     0 (default): exact — the surface-charge model near, point dipoles where as accurate;
//                        n > 0: the magnet as n×n×n point dipoles (Westhofen et al. 2024, PFC), for comparison
//   accuracy             the relative accuracy of a pair's force and torque (default 1e-4: magnets' own M is known
//                        to a percent or so, and touching magnets cost 80 times as much at 1e-6); a pair takes the
//                        smaller of its two magnets'; a soft magnet's forces have no quadrature to tune
//
// Soft magnets (Westhofen et al. 2024, §3.3.2): M = χ·H inside, H the field of every other magnet less the soft
// magnet's own demagnetising field, with the demagnetising factors of its shape (a Sphere's 1/3, a Box's, a Cylinder's
// and an Ellipsoid's in closed form, a TriaMesh's from its samples). With dipoles_per_axis 0 a soft magnet is one
// dipole at its centre with its whole volume — exact for a sphere in a uniform field; n > 0 samples it as n³ dipoles of
// its body (the paper's way), each with the shape's factors, which do not induce each other. A soft TriaMesh must be
// sampled. Because each soft magnet's moment depends on all the others', the soft magnets and every permanent magnet
// form one force element (InducedMagnets) whose loads solve them all together at each evaluation; the permanent magnets
// still pull on each other pair by pair.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "elements/body_rigid.h"
#include "elements/force_law.h"
#include "elements/post_graphic.h"
#include "magnetics/induced_magnets.h"
#include "magnetics/magnet_pair.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct ForceMagnetSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  long graphic_id = 0;
  std::optional<double> magnetization_x, magnetization_y, magnetization_z;
  std::optional<double> moment_x, moment_y, moment_z;
  std::optional<double> susceptibility;
  std::optional<std::string> strength_expression;
  int dipoles_per_axis = 0;
  double accuracy = 1e-4;
  bool active = true;
};

const ElementSchema<ForceMagnetSpec>& forceMagnetSchema();
// Exactly one of magnetisation, moment and susceptibility; no strength expression on a soft magnet; the strength
// expression compiles.
void checkForceMagnet(const ForceMagnetSpec& spec, Diagnostics& diagnostics);

// Two magnets on different bodies (or one on ground), as the force elements hold them: the first acts as I, the
// second as J.
struct MagnetPair {
  struct Side {
    SourceLoc loc;  // its Force_Magnet
    Magnet magnet;  // in deck units: M in A/length
    Shape shape;    // the same, for the overlap of magnets in contact
    long markerId = 0;
    Pose inMarker;  // the magnet's own axes (a cylinder's along z) in its graphic's marker
    Vector3 shapeOrigin = Vector3::Zero();  // the origin of `shape`'s frame in the magnet's axes (a frustum's base)
    std::optional<Expression> strength;
    // Of `magnet`'s shape, once (a mesh's take a pass over it): for the overlap test and the far-pair bound.
    double boundingRadius = 0, volume = 0;
  };
  Side first, second;
  double accuracy = 1e-4;
  double permeabilityScale = 1;  // μ0 in the deck's force unit over μ0 in newtons
};

// Every soft magnet and every permanent magnet of the model, as one force element: the soft magnets' moments are
// solved together (magnetics/induced_magnets.h), and every magnet feels the soft ones' pull.
struct InducedMagnets {
  struct Soft {
    MagnetPair::Side side;  // its magnet's shape and dipoles_per_axis; no magnetisation, no strength
    SoftMagnet magnet;      // in deck units
    int body = -1;
  };
  struct Permanent {
    MagnetPair::Side side;
    int body = -1;
  };
  std::vector<Soft> soft;
  std::vector<Permanent> permanent;
  // Dense LU up to 300 samples (exact to round-off), GMRES beyond, to 1e-3 of integr_tol (within [1e-12, 1e-8]);
  // beyond 300 samples GMRES's products and the soft–soft forces go over the octree (InductionSettings::treeFrom).
  InductionSettings settings;
  double permeabilityScale = 1;  // as MagnetPair's
};

// Every pair of the deck's active permanent magnets on different bodies, each with its connection, and, when some
// magnets are soft, the one element that holds them all; errors for magnets that cannot be built (a graphic of
// another type, a hollow graphic, an unsampled soft TriaMesh, …) name the magnet and its line.
struct BuiltMagnetPair {
  MagnetPair pair;
  ForceConnection connection;
};
struct BuiltInducedMagnets {
  SourceLoc loc;  // the first soft magnet's
  InducedMagnets law;
  ForceConnection connection;
};
struct BuiltMagnets {
  std::vector<BuiltMagnetPair> pairs;
  std::optional<BuiltInducedMagnets> induced;
};
BuiltMagnets buildMagnets(const std::vector<ForceMagnetSpec>& magnets, const std::vector<PostGraphicSpec>& graphics,
                          const Model& model, Diagnostics& diagnostics);

// The pair's loads at the context's state; `plan` keeps the method and quadrature of the latest evaluation, reused as
// they are when plan.reuse is set (for the Jacobian's differences). Magnets that overlap — a contact law lets them,
// by its penetration — act as they do touching: the second is moved out of the first along the contact normal before
// the loads are computed (why: magnetics/magnet_pair.h, magnetField).
ElementAction magnetPairAction(const MagnetPair& pair, const ExpressionContext& context, MagnetPairPlan& plan);

// For leaving a weak pair out of the Jacobian, as Westhofen et al. (2024, §3.4) treat far pairs explicitly: a bound on
// the pair's stiffness (its loads' change with its magnets' poses) over the inertia of each moving body it loads,
// the larger of the two, in 1/time². Newton's iteration matrix holds a body's inertia times cj² (cj ≈ 1/step), so a
// pair whose coupling is far below cj² changes the iteration by as little; the residual keeps the pair exact. The
// bound is that of two dipoles — energy scale E = μ0·|m₁|·|m₂|/(4π·d³), translation 30·E/d², rotation 4·E, across
// 12·E/d (about 1.5 times the dipoles' own maxima), carried to the CG by the magnet's lever — and a turn about the
// magnetisation, which a dipole does not feel, by 4·E·(R/d)². None for a near pair (its centres within
// kFarMagnetPairReach times the sum of its bounding radii, where the dipoles do not bound it), for a pair with a
// strength expression (switched on, it may be strong at once), or for a pair on a body without inertia.
constexpr double kFarMagnetPairReach = 2;
std::optional<double> farMagnetPairCoupling(const MagnetPair& pair, const ForceConnection& connection,
                                            const ExpressionContext& context, const Model& model,
                                            std::span<const BodyKinematics> bodies);

// Every magnet's load at the context's state (ElementAction::atMarkers, one per magnet at its graphic's marker: the
// force at the magnet's centre and the torque about it); an induction solve that missed its tolerance says so in
// ElementAction::trouble, naming the soft magnets.
ElementAction inducedMagnetsAction(const InducedMagnets& law, const ExpressionContext& context);

// True when every permanent magnet of the element is switched off (its strength expression 0) or there is none: then
// no soft magnet is magnetised, the loads are 0, and so are their derivatives — the loads are bilinear in the
// strengths, so even those by the states a strength reads vanish where all are 0 — and the Jacobian skips the element.
bool inducedMagnetsSwitchedOff(const InducedMagnets& law, const ExpressionContext& context);

}  // namespace lodestone
