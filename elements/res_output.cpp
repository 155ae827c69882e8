// ResOutput: attributes.
#include "res_output.h"

namespace lodestone {

const ElementSchema<ResOutputSpec>& resOutputSchema() {
  using S = ResOutputSpec;
  static const std::string files =
      "Lodestone writes its results as CSV tables and results.h5 (see run.log's file list)";
  static const std::string precision = "results are written at full double precision, nothing rounded to zero";
  static const ElementSchema<S> schema{
      .element = "ResOutput",
      .attributes = {
          attr::boolean("contact_gra_output", &S::contact_gra_output).byDefault(true).modifiable(),
          attr::ignored<S>("mrf_file", files),
          attr::ignored<S>("abf_file", files),
          attr::ignored<S>("plt_file", files),
          attr::ignored<S>("cof_file", files),
          attr::ignored<S>("abf_unique_time", "every output time is written once"),
          attr::ignored<S>("plt_unique_time", "every output time is written once"),
          attr::ignored<S>("angle_type", "orientations are written as Euler parameters (e0..e3)"),
          attr::ignored<S>("flex_vel_acc_output", "flexible bodies are not available"),
          attr::ignored<S>("capture_max_pd", "contacts.csv holds each pair's largest penetration between outputs"),
          attr::ignored<S>("req_comment_only", "requests.csv writes every request's values; their comments alone are not written"),
          attr::ignored<S>("dzero", precision),
          attr::ignored<S>("vzero", precision),
          attr::ignored<S>("azero", precision),
          attr::ignored<S>("fzero", precision),
      }};
  return schema;
}

}  // namespace lodestone
