// `boids serve`: a flock (or a recorded trajectory) in the user's own browser, from wherever
// boids runs: a headless GPU server is watched from a laptop through `ssh -L`. The server is
// host/serve/server.h; this is its command line.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <thread>

#include "host/base/errors.h"
#include "host/base/interruption.h"
#include "host/base/message_text.h"
#include "host/cli/commands.h"
#include "host/config/flock_options.h"
#include "host/tools/flock_command_line.h"
#include "host/tools/options.h"
#include "host/tools/progress_lines.h"
#if BOIDS_WITH_SERVE
#include "host/serve/live_flock.h"
#include "host/serve/replay.h"
#include "host/serve/server.h"
#endif

namespace boids::cli {

#if BOIDS_WITH_SERVE
namespace {

using tools::OptionParser;

// The first line of the token file `path`, without its line's end.
std::string read_token_file(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) {
    throw InputError("--token-file: cannot read a line of " + quoted_path(path));
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

struct ServeOptions {
  FlockOptions flock;
  serve::ServerOptions server;
  std::string replay;
  double steps_per_second = 60;
  bool help = false;
};

OptionParser make_parser(ServeOptions& o) {
  OptionParser parser(
      "Usage: boids serve [options]\n"
      "Serves a flock to browsers: a page that draws it (WebGL2), steers it and charts its\n"
      "order, at http://ADDRESS:PORT/. Takes every option of `boids run` for the flock, or\n"
      "--replay FILE.h5 for a recorded trajectory. Runs until SIGINT or SIGTERM. A remote GPU\n"
      "server is watched from a laptop with `ssh -L 8000:localhost:8000 server`, then\n"
      "http://localhost:8000/ in the laptop's browser.");
  tools::add_flock_options(parser, o.flock);
  parser.add_heading("Serving");
  parser.add_value("--port", "N", "the port to listen on, 1 to 65535, or 0 for any (default 8000)",
                   [&o](const std::string& v) {
                     o.server.port =
                         static_cast<std::uint16_t>(tools::parse_whole("--port", v, 0, 65535));
                   });
  parser.add_value("--bind", "ADDRESS",
                   "the address to listen on (default 127.0.0.1: this machine alone); another "
                   "needs --token, or one is made and printed",
                   [&o](const std::string& v) { o.server.bind = v; });
  parser.add_value("--token", "T",
                   "the token every browser must bring (letters and digits, 16 to 128); every "
                   "local user sees it in ps: --token-file or BOIDS_TOKEN keep it out of sight",
                   [&o](const std::string& v) {
                     serve::check_token("--token", v);
                     o.server.token = v;
                   });
  parser.add_value("--token-file", "FILE",
                   "the token from the first line of FILE (as --token; the environment variable "
                   "BOIDS_TOKEN gives it too)",
                   [&o](const std::string& v) {
                     const std::string token =
                         read_token_file(tools::parse_file_name("--token-file", v));
                     serve::check_token("--token-file", token);
                     o.server.token = token;
                   });
  parser.add_value("--rate", "R", "steps a second, at most (default 60; 0: as fast as it steps)",
                   [&o](const std::string& v) {
                     o.steps_per_second =
                         serve::checked_rate("--rate", tools::parse_non_negative("--rate", v));
                   });
  parser.add_value(
      "--pictures", "auto|renderer|cpu",
      "what draws a page's pictures of the whole flock (when its link cannot carry the points): "
      "the renderer the viewer draws with, on the GPU (auto: where an OpenGL context opens on "
      "a GPU, else the CPU; renderer: wherever one opens, Mesa's too) or the CPU",
      [&o](const std::string& v) {
        for (int d = 0; d < 3; ++d)
          if (v == serve::kPictureDevices[d]) {
            o.server.pictures = static_cast<serve::PictureDevice>(d);
            return;
          }
        throw InputError("--pictures: expected auto, renderer or cpu, got " + quoted(v));
      });
  parser.add_value(
      "--replay", "FILE.h5",
      "play a recorded H5MD trajectory (boids run --trajectory) instead of a flock",
      [&o](const std::string& v) { o.replay = tools::parse_file_name("--replay", v); });
  parser.add_flag("--help", "show this help", [&o] { o.help = true; });
  return parser;
}

}  // namespace

int serve_command(const std::vector<std::string>& args) {
  ServeOptions o;
  const OptionParser parser = make_parser(o);
  const std::vector<std::string> given = parser.parse(args);
  if (o.help) {
    std::cout << parser.help();
    return 0;
  }
  const char* from_environment = std::getenv("BOIDS_TOKEN");
  if (o.server.token.empty() && from_environment && *from_environment) {
    serve::check_token("BOIDS_TOKEN", from_environment);
    o.server.token = from_environment;
  }
  o.server = serve::with_token_if_remote(o.server);
  std::unique_ptr<serve::FrameSource> source;
  serve::LiveFlock* live = nullptr;
  serve::Replay* replay = nullptr;
  if (!o.replay.empty()) {
    tools::refuse_flock_options(given, "--replay", "the file holds the flight");
    auto recorded = std::make_unique<serve::Replay>(o.replay);
    replay = recorded.get();
    source = std::move(recorded);
  } else {
    const SimulationConfig config = resolve_config(o.flock);
    check_memory(config, resolve_count(o.flock));
    tools::say_if_slow("boids serve", config, resolve_count(o.flock));
    const FlockState start = initial_state(o.flock, config.params);
    auto flock = std::make_unique<serve::LiveFlock>(config, start, o.steps_per_second);
    live = flock.get();
    source = std::move(flock);
  }
  serve::Server server(o.server, *source);
  // The flock's thread tells the server of its snapshots: it stops before the server goes,
  // whichever way this returns.
  struct StopFirst {
    serve::LiveFlock* flock;
    serve::Replay* replay;
    ~StopFirst() {
      if (flock) flock->stop();
      if (replay) replay->stop();
    }
  } stop_first{live, replay};
  const serve::SourceListener listener{
      [&server] { server.snapshot_ready(); },
      [&server](const std::string& text) { server.broadcast(text); }};
  if (live) live->start(listener);
  if (replay) replay->start(listener);
  server.start();
  std::cout << "serving " << serve::page_address(o.server, server.port()) << std::endl;
  if (live)
    std::cout << "the flock flies while a page watches it, and waits otherwise" << std::endl;
  std::string pictures;  // what draws them, said once it is known (a page's first picture)
  while (!stop_requested()) {
    if (const std::string failure = source->failure(); !failure.empty())
      throw RuntimeError(failure);
    if (const std::string now = server.pictures_drawn_by(); now != pictures) {
      pictures = now;
      std::cout << "pictures of the whole flock drawn by " << pictures << std::endl;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  server.stop();
  std::cerr << "boids: serve stopped by " << signal_name(stop_signal()) << "\n";
  return 0;
}

#else

int serve_command(const std::vector<std::string>&) {
  throw RuntimeError(
      "this boids was built without `boids serve` (configure with -DBOIDS_BUILD_SERVE=ON; it "
      "needs Boost.Beast, Debian's libboost-dev)");
}

#endif

}  // namespace boids::cli
