// The generic half of attribute reading: value parsing, range checks, ids and cross references.
#include "schema.h"

#include "excerpt.h"
#include "text.h"

namespace lodestone {

bool Range::contains(double value) const {
  if (min && (minInclusive ? value < *min : value <= *min)) return false;
  if (max && (maxInclusive ? value > *max : value >= *max)) return false;
  return true;
}

std::string Range::describe() const {
  std::string text;
  if (min) text += std::string(minInclusive ? ">= " : "> ") + formatReal(*min);
  if (min && max) text += " and ";
  if (max) text += std::string(maxInclusive ? "<= " : "< ") + formatReal(*max);
  return text;
}

namespace {

std::string quoted(const std::string& text) { return "'" + excerpt(text) + "'"; }

std::string joinKeywords(const std::vector<std::string>& keywords) {
  std::string text;
  for (size_t i = 0; i < keywords.size(); ++i) text += (i ? ", " : "") + keywords[i];
  return text;
}

}  // namespace

std::variant<Value, std::string> parseValue(const AttributeRule& rule, const std::string& text) {
  const std::string prefix = "attribute '" + rule.name + "' ";
  switch (rule.kind) {
    case ValueKind::Real: {
      const std::optional<double> value = parseReal(text);
      if (!value) return prefix + "must be a finite number (got " + quoted(text) + ")";
      if (!rule.range.contains(*value)) return prefix + "must be " + rule.range.describe() + " (got " + formatReal(*value) + ")";
      return Value(*value);
    }
    case ValueKind::Integer: {
      const std::optional<long> value = parseInteger(text);
      if (!value) return prefix + "must be an integer (got " + quoted(text) + ")";
      if (!rule.range.contains(static_cast<double>(*value))) {
        return prefix + "must be " + rule.range.describe() + " (got " + std::to_string(*value) + ")";
      }
      return Value(*value);
    }
    case ValueKind::Boolean: {
      const std::optional<bool> value = parseBoolean(text);
      if (!value) return prefix + "must be TRUE or FALSE (got " + quoted(text) + ")";
      return Value(*value);
    }
    case ValueKind::Keyword: {
      const std::string_view given = trim(text);
      for (const std::string& keyword : rule.keywords) {
        if (equalsIgnoreCase(given, keyword)) return Value(keyword);
      }
      return prefix + "must be one of " + joinKeywords(rule.keywords) + " (got " + quoted(text) + ")" +
             (rule.note.empty() ? "" : "; " + rule.note);
    }
    case ValueKind::KeywordList: {
      std::vector<std::string> chosen;
      for (const std::string& item : splitList(text)) {
        const auto known = std::find_if(rule.keywords.begin(), rule.keywords.end(),
                                        [&](const std::string& keyword) { return equalsIgnoreCase(item, keyword); });
        if (known == rule.keywords.end()) {
          return prefix + "must be a list of " + joinKeywords(rule.keywords) + " (got " + quoted(item) + ")";
        }
        if (std::find(chosen.begin(), chosen.end(), *known) != chosen.end()) {
          return prefix + "lists " + quoted(*known) + " twice";
        }
        chosen.push_back(*known);
      }
      if (chosen.empty()) return prefix + "must list one or more of " + joinKeywords(rule.keywords);
      return Value(std::move(chosen));
    }
    case ValueKind::Reference: {
      const std::optional<long> value = parseInteger(text);
      const long lowest = rule.groundFrameAllowed ? 0 : 1;
      if (!value || *value < lowest) {
        return prefix + "must be the id of a " + rule.targetElement + (rule.groundFrameAllowed ? " (or 0 for the ground frame)" : "") +
               " (got " + quoted(text) + ")";
      }
      return Value(*value);
    }
    case ValueKind::ReferenceList: {
      std::vector<long> ids;
      for (const std::string& item : splitList(text)) {
        const std::optional<long> value = parseInteger(item);
        if (!value || *value < 1) return prefix + "must be a list of " + rule.targetElement + " ids (got " + quoted(item) + ")";
        ids.push_back(*value);
      }
      return Value(std::move(ids));
    }
    case ValueKind::RealList: {
      std::vector<double> values;
      for (const std::string& item : splitList(text)) {
        const std::optional<double> value = parseReal(item);
        if (!value) return prefix + "must be a list of finite numbers (got " + quoted(item) + ")";
        values.push_back(*value);
      }
      return Value(std::move(values));
    }
    case ValueKind::Text:
    case ValueKind::Presentation:
    case ValueKind::Ignored:
    case ValueKind::Unsupported:
      return Value(text);
  }
  return prefix + "has an unknown kind";
}

bool ReadContext::defineId(const std::string& element, long id, const SourceLoc& where) {
  const auto [it, inserted] = defined_.emplace(std::make_pair(element, id), where);
  if (!inserted) {
    diagnostics_.error(where, "duplicate id: " + element + " id=" + std::to_string(id) + " is already defined at " +
                                  it->second.position());
  }
  return inserted;
}

bool ReadContext::isDefined(const std::string& element, long id) const { return defined_.count({element, id}) > 0; }

void ReadContext::checkReferences() {
  // A target "Body_Rigid or Body_Point" is met by an element of either kind.
  const auto isAnyDefined = [&](const std::string& targets, long id) {
    static const std::string separator = " or ";
    for (size_t from = 0;;) {
      const size_t end = targets.find(separator, from);
      if (isDefined(targets.substr(from, end - from), id)) return true;
      if (end == std::string::npos) return false;
      from = end + separator.size();
    }
  };
  for (const IdReference& reference : references_) {
    if (!isAnyDefined(reference.targetElement, reference.id)) {
      diagnostics_.error(reference.from, "attribute '" + reference.attribute + "' refers to " + reference.targetElement +
                                             " id=" + std::to_string(reference.id) + ", which is not defined");
    }
  }
}

namespace detail {

const ElementNode::Attribute* findAttribute(const ElementNode& node, const std::string& name) {
  for (const ElementNode::Attribute& attribute : node.attributes) {
    if (attribute.name == name) return &attribute;
  }
  return nullptr;
}

void reportRepeatedAttributes(const ElementNode& node, const SourceLoc& loc, Diagnostics& diagnostics) {
  std::set<std::string> seen;
  for (const ElementNode::Attribute& attribute : node.attributes) {
    if (!seen.insert(attribute.name).second) {
      diagnostics.error(loc, "attribute '" + attribute.name + "' is given more than once (names are not case-sensitive)");
    }
  }
}

std::optional<long> readId(const ElementNode& node, SourceLoc& loc, Diagnostics& diagnostics) {
  const ElementNode::Attribute* given = findAttribute(node, "id");
  if (!given) {
    diagnostics.error(loc, "missing required attribute 'id'");
    return std::nullopt;
  }
  const std::optional<long> id = parseInteger(given->value);
  if (!id || *id < 1) {
    diagnostics.error(loc, "attribute 'id' must be a positive integer (got " + quoted(given->value) + ")");
    return std::nullopt;
  }
  loc.id = *id;
  return id;
}

std::optional<Value> readValue(const AttributeRule& rule, const std::string& text, const SourceLoc& loc,
                               ReadContext& context) {
  if (rule.kind == ValueKind::Presentation) return std::nullopt;
  if (rule.kind == ValueKind::Ignored) {
    context.diagnostics().warning(loc, "attribute '" + rule.name + "' has no effect in Lodestone: " + rule.note);
    return std::nullopt;
  }
  if (rule.kind == ValueKind::Unsupported) {
    context.diagnostics().error(loc, "attribute '" + rule.name + "' is not supported: " + rule.note);
    return std::nullopt;
  }
  std::variant<Value, std::string> parsed = parseValue(rule, text);
  if (std::holds_alternative<std::string>(parsed)) {
    context.diagnostics().error(loc, std::get<std::string>(parsed));
    return std::nullopt;
  }
  Value value = std::get<Value>(std::move(parsed));
  if (rule.kind == ValueKind::Reference) {
    const long id = std::get<long>(value);
    if (!(id == 0 && rule.groundFrameAllowed)) context.addReference({rule.targetElement, id, loc, rule.name});
  } else if (rule.kind == ValueKind::ReferenceList) {
    for (long id : std::get<std::vector<long>>(value)) context.addReference({rule.targetElement, id, loc, rule.name});
  }
  return value;
}

namespace {

// The values of one keyword attribute under which the element would have attribute `name`:
// cnf_type="POISSON", or cnf_type="IMPACT", "VOLUME" or "HUNT_CROSSLEY".
std::string variantsWith(const std::string& name, const KnownAttributeNames& known, std::string& selector) {
  std::vector<std::string> values;
  for (const KnownAttributeNames::OtherVariant& other : known.otherVariants) {
    if (other.name != name || (!values.empty() && other.selector != selector)) continue;
    selector = other.selector;
    values.push_back(other.value);
  }
  return values.empty() ? std::string() : selector + "=" + listAlternatives(values, "\"", "\"");
}

}  // namespace

void reportUnknownAttribute(const ElementNode::Attribute& attribute, const SourceLoc& loc,
                            const KnownAttributeNames& known, Diagnostics& diagnostics) {
  const std::string& name = attribute.name;
  // The deck's own unknown attribute is ignored with a warning; one a setting asked for is an error, or the run
  // would go on without the value the user meant to give it.
  const std::string message =
      "unknown attribute '" + excerpt(name) + "'" + (attribute.fromSetting ? " given by a setting" : " ignored");
  const auto report = [&](const std::string& text) {
    if (attribute.fromSetting) diagnostics.error(loc, text);
    else diagnostics.warning(loc, text);
  };
  // An attribute of another law (or shape): the element's keyword decides which attributes it has.
  std::string selector;
  if (const std::string variants = variantsWith(name, known, selector); !variants.empty()) {
    const auto given = known.selected.find(selector);
    report(message + ": it is an attribute of " + variants +
                                 (given == known.selected.end()
                                      ? std::string()
                                      : ", and this element has " + selector + "=\"" + excerpt(given->second) + "\""));
    return;
  }
  if (known.foreignNames) {
    for (const ForeignName& foreign : *known.foreignNames) {
      if (foreign.name == name) {
        report(message + "; " + foreign.source + " is " + foreign.ours + " here");
        return;
      }
    }
  }
  std::vector<std::string> meant;
  for (const std::string& nearest : nearestNames(name, known.inEffect)) meant.push_back("'" + nearest + "'");
  if (meant.empty()) {
    std::vector<std::string> others;
    for (const KnownAttributeNames::OtherVariant& other : known.otherVariants) others.push_back(other.name);
    for (const std::string& nearest : nearestNames(name, others)) {
      meant.push_back("'" + nearest + "' (with " + variantsWith(nearest, known, selector) + ")");
    }
  }
  report(message + (meant.empty() ? "" : "; did you mean " + listAlternatives(meant, "", "") + "?"));
}

}  // namespace detail

}  // namespace lodestone
