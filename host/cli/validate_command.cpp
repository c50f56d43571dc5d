// `boids validate`: placeholder replaced below.
#include "host/cli/commands.h"
#include "host/errors.h"

namespace boids::cli {
int validate_command(const std::vector<std::string>&) { throw InputError("validate: not built yet"); }
}  // namespace boids::cli
