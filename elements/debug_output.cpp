// DebugOutput: attributes.
#include "debug_output.h"

namespace lodestone {

const std::vector<std::string>& debugTraceTopics() {
  static const std::vector<std::string> topics = {"step", "contact", "events", "usersub", "failure"};
  return topics;
}

const ElementSchema<DebugOutputSpec>& debugOutputSchema() {
  using S = DebugOutputSpec;
  static const ElementSchema<S> schema{
      .element = "DebugOutput",
      .attributes = {
          attr::boolean("switch_on", &S::switch_on).byDefault(true),
          attr::boolean("screen_output", &S::screen_output).byDefault(false),
          attr::ignored<S>("debug_anim", "animation frames of iterations are not written; debug.log has the trace"),
          attr::keywordList("topics", &S::topics, debugTraceTopics()),
          attr::real("start_time", &S::start_time),
          attr::real("end_time", &S::end_time),
          attr::referenceList("contact_ids", &S::contact_ids, "Force_Contact"),
      }};
  return schema;
}

void checkDebugOutput(const DebugOutputSpec& spec, Diagnostics& diagnostics) {
  if (spec.start_time && spec.end_time && *spec.end_time < *spec.start_time) {
    diagnostics.error(spec.loc, "end_time = " + formatReal(*spec.end_time) + " is before start_time = " +
                                    formatReal(*spec.start_time) + ": the trace's time window would be empty");
  }
}

}  // namespace lodestone
