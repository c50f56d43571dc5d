// `boids analyse TRAJECTORY`: the analyses of boids.analysis (g(r), correlations, number
// fluctuations) on a trajectory's frames, run by the Python module that goes with this command,
// which owns them: one implementation, NumPy's, for the command line and for Python alike.
#include <string>
#include <vector>

#include "host/cli/commands.h"
#include "host/tools/python_script.h"

namespace boids::cli {

int analyse_command(const std::vector<std::string>& args) {
  return tools::run_python_module("boids.analysis", args);
}

}  // namespace boids::cli
