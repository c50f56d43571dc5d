// The flock's options on a command line (host/config/flock_options.h says what they mean),
// registered alike by `boids run`, `boids sweep`, `boids-viewer` and `boids-bench`.
#pragma once

#include "host/config/flock_options.h"
#include "host/tools/options.h"

namespace boids::tools {

// Registers every flock option, a row of the table each (host/model/param_table.h): the model
// and its parameters, the world, the variants, the start and the backend.
void add_flock_options(OptionParser& parser, FlockOptions& options);

// Throws InputError "NAME cannot be given with OPTION: WHY" for the first flock option among
// `given` (the names a parser returned): for a command whose file holds the flight (`boids run
// --resume`, `boids serve --replay`).
void refuse_flock_options(const std::vector<std::string>& given, const std::string& option,
                          const std::string& why);

}  // namespace boids::tools
