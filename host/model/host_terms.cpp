// Every world term's entry (host/model/terms/), in the kernels' order of their terms: the build
// writes host_terms.inc, which includes every file of host/model/terms/ (cmake/BoidsTerms.cmake),
// and a term without its entry there does not compile.
#include "host_terms.inc"
#include "host/model/param_rows.h"

namespace boids {
namespace {

template <typename... Terms>
std::vector<HostTerm> entries(kernels::TermList<Terms...>) {
  return {host_term(Terms{})...};
}

}  // namespace

const std::vector<HostTerm>& host_terms() {
  static const std::vector<HostTerm> terms = entries(kernels::AllTerms{});
  return terms;
}

}  // namespace boids
