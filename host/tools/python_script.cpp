#include "host/tools/python_script.h"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <utility>

#include "host/base/errors.h"
#include "host/base/interruption.h"
#include "host/base/message_text.h"
#include "host/io/output_file.h"

extern char** environ;

namespace boids::tools {
namespace {

// The directory of the running executable, with its final '/'; empty when unknown.
std::string executable_directory() {
  char self[4096];
  const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  if (length <= 0) return "";
  const std::string path(self, static_cast<std::size_t>(length));
  return path.substr(0, path.find_last_of('/') + 1);
}

// The directory holding the boids package that goes with this executable, or empty: a
// build's bin/../python, or a pip install's PACKAGE/bin/../.. (site-packages).
std::string package_root() {
  const std::string directory = executable_directory();
  if (directory.empty()) return "";
  for (const std::string& root : {directory + "../python", directory + "../.."}) {
    if (access((root + "/boids/__init__.py").c_str(), R_OK) == 0) return root;
  }
  return "";
}

int spawn_and_wait(std::vector<std::string> all, char** environment) {
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environment) != 0) return 127;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return 127;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

}  // namespace

std::string python_script_path(const std::string& source_path) {
  const std::string name = source_path.substr(source_path.find_last_of('/') + 1);
  const std::string directory = executable_directory();
  if (!directory.empty()) {
    // Beside the executable (a build's bin/), then where `cmake --install` puts the scripts
    // (PREFIX/share/boids for PREFIX/bin: BOIDS_INSTALLED_SCRIPT_DIR is "../share/boids").
    for (const std::string& candidate :
         {directory + name, directory + BOIDS_INSTALLED_SCRIPT_DIR "/" + name}) {
      if (access(candidate.c_str(), R_OK) == 0) return candidate;
    }
  }
  return source_path;
}

int run_python_script(const std::string& source_path, const std::vector<std::string>& args) {
  std::vector<std::string> all = {BOIDS_PYTHON, python_script_path(source_path)};
  all.insert(all.end(), args.begin(), args.end());
  return spawn_and_wait(std::move(all), environ);
}

int run_python_module(const std::string& module, const std::vector<std::string>& args) {
  std::vector<std::string> all = {BOIDS_PYTHON, "-m", module};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<std::string> variables;
  std::string path;
  for (char** v = environ; *v != nullptr; ++v) {
    const std::string variable(*v);
    if (variable.rfind("PYTHONPATH=", 0) == 0) {
      path = variable.substr(11);
    } else {
      variables.push_back(variable);
    }
  }
  const std::string root = package_root();
  if (!root.empty()) path = path.empty() ? root : root + ":" + path;
  if (!path.empty()) variables.push_back("PYTHONPATH=" + path);
  std::vector<char*> environment;
  for (std::string& v : variables) environment.push_back(v.data());
  environment.push_back(nullptr);
  const int status = spawn_and_wait(std::move(all), environment.data());
  throw_if_stopped("in python3 -m " + module);  // Ctrl-C reached it too
  return status;
}

void run_plot_script(const std::string& option, const std::string& source_path,
                     const std::vector<std::string>& args) {
  const int status = run_python_script(source_path, args);
  if (status != 0)
    throw_if_stopped("in " + python_script_path(source_path));  // Ctrl-C reached it too
  if (status != 0) {
    throw RuntimeError(option + ": " + python_script_path(source_path) + " failed (exit status " +
                       std::to_string(status) + ")");
  }
}

std::string metrics_plot_script() {
  return python_script_path(std::string(BOIDS_SCRIPT_DIR) + "/plot_metrics.py");
}

std::string sweep_plot_script() {
  return python_script_path(std::string(BOIDS_SCRIPT_DIR) + "/plot_sweep.py");
}

std::string gsd_convert_script() {
  return python_script_path(std::string(BOIDS_SCRIPT_DIR) + "/convert_gsd.py");
}

void check_gsd_writer(const std::string& option) {
  if (run_python_script(gsd_convert_script(), {"--check"}) != 0) {
    throw RuntimeError(option + ": " BOIDS_PYTHON
                                " cannot import h5py and gsd (install python3-h5py and "
                                "python3-gsd: scripts/install-deps)");
  }
}

void check_matplotlib(const std::string& option, const std::string& script) {
  if (run_python_script(script, {"--check"}) != 0) {
    throw RuntimeError(option + ": " BOIDS_PYTHON
                                " cannot import matplotlib (Debian: apt install "
                                "python3-matplotlib, or scripts/install-deps in a checkout; "
                                "pip: pip install matplotlib)");
  }
}

void check_png_name(const std::string& option, const std::string& path) {
  if (!has_extension(path, ".png")) {
    throw InputError(option +
                     ": expected a file name ending in .png (images are written as PNG), got " +
                     quoted_path(path));
  }
}

std::string check_figure_name(const std::string& option, const std::string& path) {
  for (const char* ending : {".png", ".pdf", ".svg"}) {
    if (has_extension(path, ending)) return ending;
  }
  throw InputError(option + ": expected a file name ending in .png, .pdf or .svg, got " +
                   quoted_path(path));
}

}  // namespace boids::tools
