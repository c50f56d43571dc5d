// `boids-viewer`: the flock in a window. Bad input: `boids-viewer: error: ...` on stderr and
// exit code 2, exactly as `boids run` refuses it.
#include <iostream>
#include <string>
#include <vector>

#include "host/base/errors.h"
#include "host/io/tool_main.h"
#include "viewer/app.h"

int main(int argc, char** argv) {
  return boids::main_reporting_errors("boids-viewer", [&] {
    boids::viewer::ViewerOptions options;
    const boids::tools::OptionParser parser = boids::viewer::make_parser(options);
    parser.parse(std::vector<std::string>(argv + 1, argv + argc));
    if (options.help) {
      std::cout << parser.help();
      return 0;
    }
    return boids::viewer::run_viewer(options);
  });
}
