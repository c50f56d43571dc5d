// The Python scripts boids ships (plots drawn with matplotlib): found beside the executable
// (a build copies them to build/bin), else in ../share/boids beside the executable's directory
// (an installed prefix), else where the source tree has them; run by Debian's /usr/bin/python3.
#pragma once

#include <string>
#include <vector>

namespace boids::tools {

// The script named like `source_path` (its last component) where the executable finds it:
// beside itself, in ../share/boids, else `source_path` itself.
std::string python_script_path(const std::string& source_path);

// Runs python_script_path(source_path) with `args`;
// returns its exit status (127 when it cannot be started).
int run_python_script(const std::string& source_path, const std::vector<std::string>& args);

// Runs a plot script as run_python_script does; throws RuntimeError naming `option` and the
// script when it fails.
void run_plot_script(const std::string& option, const std::string& source_path,
                     const std::vector<std::string>& args);

// The metrics plot of `boids run --plot` (host/cli/plot_metrics.py, where
// python_script_path finds it).
std::string metrics_plot_script();

// The plot of `boids sweep --plot` (host/cli/plot_sweep.py, found the same way).
std::string sweep_plot_script();

// The writer of `boids convert FLIGHT.h5 OUT.gsd` (host/cli/convert_gsd.py, found the same way).
std::string gsd_convert_script();

// Throws RuntimeError naming `option` when the Python that runs gsd_convert_script() cannot
// import h5py and gsd.
void check_gsd_writer(const std::string& option);

// Runs `python3 -m MODULE ARGS` (a module of the boids package) and returns its exit status:
// the package found beside this executable comes first on PYTHONPATH (a build's python/, or the
// pip-installed package holding it in boids/bin/), else Python's own path finds it.
int run_python_module(const std::string& module, const std::vector<std::string>& args);

// Throws RuntimeError naming `option` when the Python that runs `script` cannot import
// matplotlib (the script answers --check).
void check_matplotlib(const std::string& option, const std::string& script);

// Throws InputError unless `path` ends in ".png" (any case), naming `option`: a picture of
// pixels (--screenshot) is a PNG.
void check_png_name(const std::string& option, const std::string& path);

// Throws InputError unless `path` ends in .png, .pdf or .svg (any case), naming `option`, and
// returns that ending in lower case: a figure (--plot) is a PNG or a vector file a journal
// takes, in the format matplotlib reads from its temporary file's name, which ends alike.
std::string check_figure_name(const std::string& option, const std::string& path);

}  // namespace boids::tools
