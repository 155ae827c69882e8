// Each element declares its XML attributes once, in an ElementSchema beside its code: name, type, default,
// whether required, allowed range or keywords, and the Spec field the value lands in. One generic reader
// (readElement / readModification below) validates any element against its schema; nothing else in the
// code base knows attribute names.
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "diagnostics.h"
#include "source_loc.h"
#include "text.h"

namespace lodestone {

// One XML element as the reader hands it over.
struct ElementNode {
  struct Attribute {
    std::string name;   // lower case
    std::string value;  // as written
    bool fromSetting = false;  // given by a setting (--set, a sweep, deck.set), not by the deck's text
  };
  std::string tag;                    // as written in the deck
  SourceLoc loc;                      // line and column of the element's '<'
  std::vector<Attribute> attributes;  // in document order
  std::string text;                   // character data inside the element, comments removed
};

enum class ValueKind {
  Real, Integer, Boolean, Keyword, KeywordList, Reference, ReferenceList, RealList, Text,
  Presentation,  // meaningful only to a viewer (colour): accepted silently
  Ignored,       // a MotionSolve setting Lodestone does not need: accepted with a warning
  Unsupported    // would change the results and Lodestone cannot honour it yet: an error
};

using Value = std::variant<double, long, bool, std::string, std::vector<long>, std::vector<double>,
                           std::vector<std::string>>;

struct Range {
  std::optional<double> min;
  bool minInclusive = true;
  std::optional<double> max;
  bool maxInclusive = true;

  bool contains(double value) const;
  std::string describe() const;  // "> 0", ">= 1 and <= 5"
};

// Everything about an attribute except which field it fills.
struct AttributeRule {
  std::string name;  // lower case, as MotionSolve writes it
  ValueKind kind = ValueKind::Real;
  bool isRequired = false;
  bool isModifiable = false;          // may be changed by a same-tag element inside <Command>
  std::optional<Value> defaultValue;  // assigned when the attribute is absent
  Range range;
  std::vector<std::string> keywords;  // for Keyword and KeywordList; MotionSolve's are upper case
  std::string targetElement;          // for Reference(List): element whose id this names ("A or B": either)
  bool groundFrameAllowed = false;    // Reference to Reference_Marker: id 0 names the ground frame
  std::string note;                   // for Ignored and Unsupported: why; for Keyword: a hint for values not listed
};

// Turns text into a Value for the rule, or explains why it cannot (message without location).
std::variant<Value, std::string> parseValue(const AttributeRule& rule, const std::string& text);

// A reference from one element to another by id, checked once the whole deck has been read.
struct IdReference {
  std::string targetElement;
  long id;
  SourceLoc from;
  std::string attribute;
};

// State shared by all element readers while one deck is read: diagnostics, ids defined, ids referred to.
class ReadContext {
 public:
  explicit ReadContext(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  Diagnostics& diagnostics() { return diagnostics_; }
  // Records an element's id; reports a duplicate with the line of the first definition.
  bool defineId(const std::string& element, long id, const SourceLoc& where);
  bool isDefined(const std::string& element, long id) const;
  void addReference(IdReference reference) { references_.push_back(std::move(reference)); }
  // Reports every reference to an id that no element defines.
  void checkReferences();

 private:
  Diagnostics& diagnostics_;
  std::map<std::pair<std::string, long>, SourceLoc> defined_;
  std::vector<IdReference> references_;
};

template <class Spec>
struct Attribute : AttributeRule {
  std::function<void(Spec&, const Value&)> assign;

  Attribute required() && { isRequired = true; return std::move(*this); }
  Attribute modifiable() && { isModifiable = true; return std::move(*this); }
  Attribute byDefault(Value value) && { defaultValue = std::move(value); return std::move(*this); }
  Attribute above(double limit) && { range.min = limit; range.minInclusive = false; return std::move(*this); }
  Attribute atLeast(double limit) && { range.min = limit; range.minInclusive = true; return std::move(*this); }
  Attribute below(double limit) && { range.max = limit; range.maxInclusive = false; return std::move(*this); }
  Attribute atMost(double limit) && { range.max = limit; range.maxInclusive = true; return std::move(*this); }
  Attribute groundFrame() && { groundFrameAllowed = true; return std::move(*this); }
  Attribute hint(std::string text) && { note = std::move(text); return std::move(*this); }
};

namespace attr {

template <class Spec>
Attribute<Spec> make(std::string name, ValueKind kind, std::function<void(Spec&, const Value&)> assign) {
  Attribute<Spec> a;
  a.name = std::move(name);
  a.kind = kind;
  a.assign = std::move(assign);
  return a;
}

template <class Spec>
Attribute<Spec> real(std::string name, double Spec::*field) {
  return make<Spec>(std::move(name), ValueKind::Real, [field](Spec& s, const Value& v) { s.*field = std::get<double>(v); });
}
template <class Spec>
Attribute<Spec> real(std::string name, std::optional<double> Spec::*field) {
  return make<Spec>(std::move(name), ValueKind::Real, [field](Spec& s, const Value& v) { s.*field = std::get<double>(v); });
}
template <class Spec>
Attribute<Spec> integer(std::string name, int Spec::*field) {
  return make<Spec>(std::move(name), ValueKind::Integer,
                    [field](Spec& s, const Value& v) { s.*field = static_cast<int>(std::get<long>(v)); });
}
template <class Spec>
Attribute<Spec> integer(std::string name, std::optional<int> Spec::*field) {
  return make<Spec>(std::move(name), ValueKind::Integer,
                    [field](Spec& s, const Value& v) { s.*field = static_cast<int>(std::get<long>(v)); });
}
template <class Spec>
Attribute<Spec> boolean(std::string name, bool Spec::*field) {
  return make<Spec>(std::move(name), ValueKind::Boolean, [field](Spec& s, const Value& v) { s.*field = std::get<bool>(v); });
}
template <class Spec>
Attribute<Spec> keyword(std::string name, std::string Spec::*field, std::vector<std::string> allowed) {
  Attribute<Spec> a = make<Spec>(std::move(name), ValueKind::Keyword,
                                 [field](Spec& s, const Value& v) { s.*field = std::get<std::string>(v); });
  a.keywords = std::move(allowed);
  return a;
}
template <class Spec>
Attribute<Spec> keyword(std::string name, std::optional<std::string> Spec::*field, std::vector<std::string> allowed) {
  Attribute<Spec> a = make<Spec>(std::move(name), ValueKind::Keyword,
                                 [field](Spec& s, const Value& v) { s.*field = std::get<std::string>(v); });
  a.keywords = std::move(allowed);
  return a;
}
// A list of keywords, separated by spaces or commas, each once at most.
template <class Spec>
Attribute<Spec> keywordList(std::string name, std::vector<std::string> Spec::*field, std::vector<std::string> allowed) {
  Attribute<Spec> a = make<Spec>(std::move(name), ValueKind::KeywordList, [field](Spec& s, const Value& v) {
    s.*field = std::get<std::vector<std::string>>(v);
  });
  a.keywords = std::move(allowed);
  return a;
}

template <class Spec>
Attribute<Spec> reference(std::string name, std::optional<long> Spec::*field, std::string targetElement) {
  Attribute<Spec> a = make<Spec>(std::move(name), ValueKind::Reference,
                                 [field](Spec& s, const Value& v) { s.*field = std::get<long>(v); });
  a.targetElement = std::move(targetElement);
  return a;
}
template <class Spec>
Attribute<Spec> reference(std::string name, long Spec::*field, std::string targetElement) {
  Attribute<Spec> a = make<Spec>(std::move(name), ValueKind::Reference,
                                 [field](Spec& s, const Value& v) { s.*field = std::get<long>(v); });
  a.targetElement = std::move(targetElement);
  return a;
}
template <class Spec>
Attribute<Spec> referenceList(std::string name, std::vector<long> Spec::*field, std::string targetElement) {
  Attribute<Spec> a = make<Spec>(std::move(name), ValueKind::ReferenceList,
                                 [field](Spec& s, const Value& v) { s.*field = std::get<std::vector<long>>(v); });
  a.targetElement = std::move(targetElement);
  return a;
}
template <class Spec>
Attribute<Spec> realList(std::string name, std::vector<double> Spec::*field) {
  return make<Spec>(std::move(name), ValueKind::RealList,
                    [field](Spec& s, const Value& v) { s.*field = std::get<std::vector<double>>(v); });
}
template <class Spec>
Attribute<Spec> text(std::string name, std::string Spec::*field) {
  return make<Spec>(std::move(name), ValueKind::Text, [field](Spec& s, const Value& v) { s.*field = std::get<std::string>(v); });
}
template <class Spec>
Attribute<Spec> text(std::string name, std::optional<std::string> Spec::*field) {
  return make<Spec>(std::move(name), ValueKind::Text, [field](Spec& s, const Value& v) { s.*field = std::get<std::string>(v); });
}
// Known, and meaningful only to a viewer (colour, hidden): accepted without a word.
template <class Spec>
Attribute<Spec> presentation(std::string name) {
  return make<Spec>(std::move(name), ValueKind::Presentation, nullptr);
}
// Known MotionSolve attribute that Lodestone does not use: accepted, with a warning that says why.
template <class Spec>
Attribute<Spec> ignored(std::string name, std::string why) {
  Attribute<Spec> a = make<Spec>(std::move(name), ValueKind::Ignored, nullptr);
  a.note = std::move(why);
  return a;
}

// Known MotionSolve attribute that would change the results in a way Lodestone cannot honour yet: an error.
template <class Spec>
Attribute<Spec> unsupported(std::string name, std::string why) {
  Attribute<Spec> a = make<Spec>(std::move(name), ValueKind::Unsupported, nullptr);
  a.note = std::move(why);
  return a;
}

}  // namespace attr

// Attributes that exist only for one value of a keyword attribute (Post_Graphic type="Sphere" has `radius`;
// Force_Contact cnf_type="IMPACT" has `stiffness`): the keyword's attribute (declared in the schema's
// `attributes`) and one table per value.
template <class Spec>
struct VariantSet {
  std::string attribute;
  std::vector<std::pair<std::string, std::vector<Attribute<Spec>>>> variants;
};

// A name another solver gives one of an element's attributes, which its users type out of habit: Adams'
// SPRINGDAMPER says K for what Force_SpringDamper calls stiffness. Only for names too far from ours for a
// "did you mean" to find them.
struct ForeignName {
  std::string name;    // lower case, as a deck would have it: "k"
  std::string source;  // the solver and what it means there: "Adams' SPRINGDAMPER K"
  std::string ours;    // the attribute(s) to write instead, quoted for the message: "'stiffness'"
};

template <class Spec>
struct ElementSchema {
  std::string element;               // canonical name, e.g. "Body_Rigid"
  long Spec::*idField = nullptr;     // nullptr for elements without an id (Param_Transient)
  std::vector<Attribute<Spec>> attributes;
  // Keyword attributes that select further attributes; an element may have several (cnf_type and cff_type).
  std::vector<VariantSet<Spec>> variantSets;
  std::vector<ForeignName> foreignNames;
};

// A spec holding the schema's defaults, as if the element had been written with no attributes.
template <class Spec>
Spec defaultsOf(const ElementSchema<Spec>& schema) {
  Spec spec{};
  spec.loc.element = schema.element;
  for (const Attribute<Spec>& rule : schema.attributes) {
    if (rule.defaultValue && rule.assign) rule.assign(spec, *rule.defaultValue);
  }
  return spec;
}

// ---- generic reading, shared by every element -----------------------------------------------------------

namespace detail {

const ElementNode::Attribute* findAttribute(const ElementNode& node, const std::string& name);
// Reports attributes given twice under different spellings ("Mass" and "mass").
void reportRepeatedAttributes(const ElementNode& node, const SourceLoc& loc, Diagnostics& diagnostics);
// Reads the id attribute first so that every later message names the element's id.
std::optional<long> readId(const ElementNode& node, SourceLoc& loc, Diagnostics& diagnostics);
// Parses one attribute's text and reports problems; records id references.
std::optional<Value> readValue(const AttributeRule& rule, const std::string& text, const SourceLoc& loc,
                               ReadContext& context);

// Every name an element could mean by an attribute it does not have: the attributes in effect for it, those of its
// other variants (with the keyword value that brings each in), and other solvers' names.
struct KnownAttributeNames {
  std::vector<std::string> inEffect;
  struct OtherVariant {
    std::string name;
    std::string selector;  // the keyword attribute that selects the variant: "cnf_type"
    std::string value;     // and its value: "POISSON"
  };
  std::vector<OtherVariant> otherVariants;
  std::map<std::string, std::string> selected;  // keyword attribute -> the value the element gives it
  const std::vector<ForeignName>* foreignNames = nullptr;
};
// Warns that the attribute is ignored, saying in the same line what was likely meant: the variant it belongs to,
// our name for another solver's, or the nearest names by edit distance.
void reportUnknownAttribute(const ElementNode::Attribute& attribute, const SourceLoc& loc,
                            const KnownAttributeNames& known, Diagnostics& diagnostics);

// The schema's rows plus, for each variant set, the rows of the value the element selects. An unknown value is
// reported by the keyword attribute's own check. A command that changes an element usually does not repeat
// the selecting keyword: then every variant's rows are candidates (the first of each name), and the element's
// own checks at build time judge the new values against the variant it has.
template <class Spec>
std::vector<const Attribute<Spec>*> rulesFor(const ElementSchema<Spec>& schema, const ElementNode& node,
                                             bool allVariantsWhenUnselected = false) {
  std::vector<const Attribute<Spec>*> rules;
  for (const Attribute<Spec>& rule : schema.attributes) rules.push_back(&rule);
  const auto addOnce = [&rules](const Attribute<Spec>& rule) {
    for (const Attribute<Spec>* existing : rules) {
      if (existing->name == rule.name) return;
    }
    rules.push_back(&rule);
  };
  for (const VariantSet<Spec>& set : schema.variantSets) {
    const ElementNode::Attribute* selector = findAttribute(node, set.attribute);
    if (!selector) {
      if (!allVariantsWhenUnselected) continue;
      for (const auto& [value, variantRules] : set.variants) {
        for (const Attribute<Spec>& rule : variantRules) addOnce(rule);
      }
      continue;
    }
    for (const auto& [value, variantRules] : set.variants) {
      if (equalsIgnoreCase(trim(selector->value), value)) {
        for (const Attribute<Spec>& rule : variantRules) addOnce(rule);
        break;
      }
    }
  }
  return rules;
}

template <class Spec>
KnownAttributeNames knownAttributeNames(const ElementSchema<Spec>& schema, const ElementNode& node,
                                        const std::vector<const Attribute<Spec>*>& rules) {
  KnownAttributeNames known;
  if (schema.idField) known.inEffect.push_back("id");
  for (const Attribute<Spec>* rule : rules) known.inEffect.push_back(rule->name);
  for (const VariantSet<Spec>& set : schema.variantSets) {
    if (const ElementNode::Attribute* selector = findAttribute(node, set.attribute)) {
      known.selected[set.attribute] = std::string(trim(selector->value));
    }
    for (const auto& [value, variantRules] : set.variants) {
      for (const Attribute<Spec>& rule : variantRules) {
        if (std::find(known.inEffect.begin(), known.inEffect.end(), rule.name) != known.inEffect.end()) continue;
        known.otherVariants.push_back({rule.name, set.attribute, value});
      }
    }
  }
  known.foreignNames = &schema.foreignNames;
  return known;
}

// Reports each attribute of the node that no rule knows.
template <class Spec>
void reportUnknownAttributes(const ElementSchema<Spec>& schema, const ElementNode& node,
                             const std::vector<const Attribute<Spec>*>& rules, const SourceLoc& loc,
                             Diagnostics& diagnostics) {
  // The deck's first few unknown attributes are named one by one, the rest counted in one line: an element with
  // hundreds of them must not bury every other diagnostic. Those a setting gave are errors, each named.
  constexpr int kUnknownAttributesNamed = 5;
  int named = 0;
  int unnamed = 0;
  std::optional<KnownAttributeNames> known;  // made for the first unknown attribute only
  for (const ElementNode::Attribute& given : node.attributes) {
    if (given.name == "id" && schema.idField) continue;
    bool isKnown = false;
    for (const Attribute<Spec>* rule : rules) isKnown = isKnown || rule->name == given.name;
    if (isKnown) continue;
    if (!given.fromSetting && named == kUnknownAttributesNamed) {
      ++unnamed;
      continue;
    }
    if (!given.fromSetting) ++named;
    if (!known) known = knownAttributeNames(schema, node, rules);
    reportUnknownAttribute(given, loc, *known, diagnostics);
  }
  if (unnamed > 0) {
    diagnostics.warning(loc, "... and " + std::to_string(unnamed) + " more unknown attribute" +
                                 (unnamed == 1 ? "" : "s") + " ignored");
  }
}

}  // namespace detail

// Reads a model element: fills `spec` from the node, applies defaults, reports missing required attributes,
// bad values and unknown attributes. Returns false when the element had errors; `unreadable` then receives the
// attributes the spec lacks because of them (missing, or their values wrong).
template <class Spec>
bool readElement(const ElementSchema<Spec>& schema, const ElementNode& node, Spec& spec, ReadContext& context,
                 std::vector<std::string>* unreadable = nullptr) {
  Diagnostics& diagnostics = context.diagnostics();
  const int errorsBefore = diagnostics.errorCount();
  const auto lacks = [unreadable](const std::string& attribute) {
    if (unreadable) unreadable->push_back(attribute);
  };
  spec.loc = node.loc;
  spec.loc.element = schema.element;
  if (schema.idField) {
    const std::optional<long> id = detail::readId(node, spec.loc, diagnostics);
    if (id) {
      spec.*(schema.idField) = *id;
      context.defineId(schema.element, *id, spec.loc);
    } else {
      lacks("id");
    }
  }
  detail::reportRepeatedAttributes(node, spec.loc, diagnostics);
  const std::vector<const Attribute<Spec>*> rules = detail::rulesFor(schema, node);
  for (const Attribute<Spec>* rule : rules) {
    const ElementNode::Attribute* given = detail::findAttribute(node, rule->name);
    if (!given) {
      if (rule->isRequired) {
        diagnostics.error(spec.loc, "missing required attribute '" + rule->name + "'");
        lacks(rule->name);
      } else if (rule->defaultValue && rule->assign) {
        rule->assign(spec, *rule->defaultValue);
      }
      continue;
    }
    const int errorsBeforeValue = diagnostics.errorCount();
    const std::optional<Value> value = detail::readValue(*rule, given->value, spec.loc, context);
    if (value && rule->assign) rule->assign(spec, *value);
    if (diagnostics.errorCount() != errorsBeforeValue) lacks(rule->name);
  }
  detail::reportUnknownAttributes(schema, node, rules, spec.loc, diagnostics);
  return diagnostics.errorCount() == errorsBefore;
}

// A command-form element (same name as a model element, inside <Command>) that changes some attributes of an
// existing element. Only attributes marked modifiable may appear.
template <class Spec>
struct Modification {
  SourceLoc loc;
  std::optional<long> id;
  std::function<void(Spec&)> apply;
};

template <class Spec>
std::optional<Modification<Spec>> readModification(const ElementSchema<Spec>& schema, const ElementNode& node,
                                                   ReadContext& context) {
  Diagnostics& diagnostics = context.diagnostics();
  const int errorsBefore = diagnostics.errorCount();
  Modification<Spec> modification;
  modification.loc = node.loc;
  modification.loc.element = schema.element;
  if (schema.idField) {
    modification.id = detail::readId(node, modification.loc, diagnostics);
    if (!modification.id) return std::nullopt;
    if (!context.isDefined(schema.element, *modification.id)) {
      diagnostics.error(modification.loc, "a command can only change an element defined in <Model>; no " +
                                              schema.element + " has id " + std::to_string(*modification.id));
    }
  }
  detail::reportRepeatedAttributes(node, modification.loc, diagnostics);
  const std::vector<const Attribute<Spec>*> rules = detail::rulesFor(schema, node, true);
  std::vector<std::pair<const Attribute<Spec>*, Value>> changes;
  for (const ElementNode::Attribute& given : node.attributes) {
    if (given.name == "id" && schema.idField) continue;
    const Attribute<Spec>* rule = nullptr;
    for (const Attribute<Spec>* candidate : rules) {
      if (candidate->name == given.name) rule = candidate;
    }
    if (!rule) continue;  // reported below
    // Text such as a label is read for its checks only; text marked modifiable (an expression) changes.
    if (rule->kind == ValueKind::Presentation || rule->kind == ValueKind::Ignored ||
        rule->kind == ValueKind::Unsupported || (rule->kind == ValueKind::Text && !rule->isModifiable)) {
      detail::readValue(*rule, given.value, modification.loc, context);
      continue;
    }
    if (!rule->isModifiable) {
      diagnostics.error(modification.loc, "attribute '" + rule->name + "' cannot be changed by a command");
      continue;
    }
    std::optional<Value> value = detail::readValue(*rule, given.value, modification.loc, context);
    if (value) changes.emplace_back(rule, std::move(*value));
  }
  detail::reportUnknownAttributes(schema, node, rules, modification.loc, diagnostics);
  if (diagnostics.errorCount() != errorsBefore) return std::nullopt;
  modification.apply = [changes](Spec& spec) {
    for (const auto& [rule, value] : changes) rule->assign(spec, value);
  };
  return modification;
}

}  // namespace lodestone
