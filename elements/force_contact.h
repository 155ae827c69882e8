// Force_Contact: the deck element (its attributes, with each law's parameters taken from the law's own
// descriptor) and the contact model built from it — which graphics touch which, their shapes, and the laws.
// The forces themselves are computed at run time by elements/contact_evaluator.
#pragma once

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "collision/narrow_phase.h"
#include "collision/shape.h"
#include "elements/contact_surface.h"
#include "plugins/contact_law.h"
#include "plugins/user_subroutine.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct PostGraphicSpec;
struct ReferenceParamCurveSpec;

struct ForceContactSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::optional<int> num_i_graphics, num_j_graphics;
  std::vector<long> i_graphics_id, j_graphics_id;
  std::optional<double> ignore_penetration_larger_than;
  std::optional<double> contact_stability_2d;
  std::string master_surface;
  bool enable_node_mode = false;
  std::string enable_analytical;
  bool zero_crossing = true;
  std::string cnf_type;
  std::string cff_type;
  // User subroutines: USER(...) strings, function names, libraries (or a script and its interpreter).
  std::optional<std::string> cnf_param_string, cnf_fnc_name, cnf_dll_name;
  std::optional<std::string> cff_param_string, cff_fnc_name, cff_dll_name;
  std::optional<std::string> cpost_param_string, cpost_fnc_name, cpost_dll_name;
  std::optional<std::string> script_name, interpreter;
  // Every law parameter given (or defaulted), by attribute name; vectors hold 3 numbers.
  std::map<std::string, std::vector<double>> lawValues;
  // Every law expression given (cnf_type="EXPRESSION"'s normal_force_expression…), by attribute name.
  std::map<std::string, std::string> lawExpressions;
  bool active = true;  // false after <Deactivate element_type="CONTACT">
};

const ElementSchema<ForceContactSpec>& forceContactSchema();
// Checks that need only this element: list lengths, vectors of 3, the laws' own rules between parameters.
void checkForceContact(const ForceContactSpec& spec, Diagnostics& diagnostics);

// ---- the contact model --------------------------------------------------------------------------------------

// A Post_Graphic that some Force_Contact uses, as a collision shape fixed to a body.
struct ContactGraphic {
  long id = 0;
  SourceLoc loc;
  int body = -1;  // index into Model::bodies; -1 when fixed to ground
  Shape shape;
  Pose local;     // the shape frame in the body frame (in ground for ground graphics)
  Pose marker;    // the graphic's reference marker in the body frame: user subroutines get points relative to it
  SurfaceProperties surface;  // PFC's surface properties (Contact_Surface) its contacts may inherit
};

struct ForceContact {
  long id = 0;
  SourceLoc loc;
  std::vector<int> iGraphics, jGraphics;  // into ContactModel::graphics
  // The laws: built-in (a descriptor and its parameter values) or a user subroutine (cnf_type="USERCNF",
  // cff_type="USERCFF"), exactly one of each pair set.
  const NormalLaw* normalLaw = nullptr;
  std::vector<double> normalValues;       // in the order of normalLaw->parameters
  std::optional<UserSubroutine> userNormal;
  const FrictionLaw* frictionLaw = nullptr;
  std::vector<double> frictionValues;
  std::optional<UserSubroutine> userFriction;
  // A law given by expressions (EXPRESSION): compiled from the deck, in the order of the law's `expressions`.
  std::vector<Expression> normalExpressions, frictionExpressions;
  std::optional<UserSubroutine> contactPost;  // CONTACTPOST, when any cpost_* attribute is given
  // How its pairs are computed: ignore_penetration_larger_than, a field law's range, and for pairs through meshes
  // the master surface, node mode and enable_analytical.
  ContactOptions options;
  bool zeroCrossing = true;
  // Some law parameter was left out to be inherited from the pieces (NaN in the values), or a law's values depend on
  // the pieces (DIPOLE's emod): each pair then has its own values (ContactEvaluator::setPairValues).
  bool valuesByPair = false;
};

struct ContactModel {
  std::vector<ContactGraphic> graphics;
  std::vector<ForceContact> elements;
};

// Builds the contact model of a deck's Force_Contact elements on a model whose bodies and markers are built.
// Reports graphics that cannot be contact geometry, pairs that could never touch, and the laws' parameter rules;
// for 2D curve contact, MotionSolve's rules: every graphic of the element a curve, all in one plane, no two straight.
// Each graphic holds the Contact_Surface properties given for it, or else for its body.
std::shared_ptr<const ContactModel> buildContactModel(const std::vector<ForceContactSpec>& contacts,
                                                      const std::vector<PostGraphicSpec>& graphics,
                                                      const std::vector<ReferenceParamCurveSpec>& curves,
                                                      const std::vector<ContactSurfaceSpec>& surfaces,
                                                      const Model& model, Diagnostics& diagnostics);

// Whether what the elements' law expressions read through markers and VARVAL exists and is what a contact law may
// read: no contact's loads (its own among them), no element's loads (JOINT…) and no accelerations, through the
// variables either. Each problem is an error on the element's line. After the model's Reference_Variables are built
// (they are built after the contacts, as they may read the contacts' loads).
bool checkContactLawReadings(const ContactModel& contacts, const Model& model, Diagnostics& diagnostics);

// "Force_Contact id=301 (deck.xml:118:3)": how run-time messages name a contact element.
std::string describeContact(const ForceContact& contact);
// "IMPACT+COULOMB_ON", "USERCNF:CNFSUB+COULOMB_OFF": the laws an element uses, in one word.
std::string describeLaws(const ForceContact& contact);
// Whether the onsets of the element's contacts are PFC's contact_activated events (a built-in law of PFC's: DIPOLE,
// LINEAR_SHEAR; NormalLaw and FrictionLaw::activationEvents).
inline bool reportsActivation(const ForceContact& contact) {
  return (!contact.userNormal && contact.normalLaw && contact.normalLaw->activationEvents) ||
         (!contact.userFriction && contact.frictionLaw && contact.frictionLaw->activationEvents);
}

}  // namespace lodestone
