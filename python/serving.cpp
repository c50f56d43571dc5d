#include "python/serving.h"

#include "host/base/errors.h"
#if BOIDS_WITH_SERVE
#include "host/serve/server.h"
#include "host/serve/watched_flock.h"
#endif

namespace boids::python {

#if BOIDS_WITH_SERVE

struct FlockServer::Parts {
  serve::ServerOptions options;
  serve::WatchedFlock source;
  serve::Server server;  // after the source: it goes first
  Parts(const Simulation& sim, const serve::ServerOptions& o, TryHold try_hold)
      : options(o), source(sim, std::move(try_hold)), server(options, source) {}
};

namespace {

serve::ServerOptions server_options(const ServeRequest& request) {
  if (request.port < 0 || request.port > 65535) {
    throw InputError("port: expected 0 (any) to 65535, got " + std::to_string(request.port));
  }
  serve::ServerOptions options;
  options.port = static_cast<std::uint16_t>(request.port);
  options.bind = request.bind;
  if (!request.token.empty()) serve::check_token("token", request.token);
  options.token = request.token;
  return serve::with_token_if_remote(options);
}

}  // namespace

FlockServer::FlockServer(const Simulation& sim, const ServeRequest& request, TryHold try_hold)
    : parts_(std::make_unique<Parts>(sim, server_options(request), std::move(try_hold))) {
  serve::Server& server = parts_->server;
  parts_->source.start({[&server] { server.snapshot_ready(); },
                        [&server](const std::string& text) { server.broadcast(text); }});
  server.start();
}

FlockServer::~FlockServer() {
  parts_->server.stop();
}

void FlockServer::changed(Simulation& sim) {
  parts_->source.changed(sim);
}

void FlockServer::still(Simulation& sim) {
  parts_->source.still(sim);
}

bool FlockServer::watched() const {
  return parts_->source.watched();
}

std::string FlockServer::address() const {
  return serve::page_address(parts_->options, parts_->server.port());
}

std::uint16_t FlockServer::port() const {
  return parts_->server.port();
}

std::size_t FlockServer::pages() const {
  return parts_->server.pages();
}

#else

struct FlockServer::Parts {};

FlockServer::FlockServer(const Simulation&, const ServeRequest&, TryHold) {
  throw RuntimeError(
      "serve: this boids was built without its server (configure with -DBOIDS_BUILD_SERVE=ON; "
      "it needs Boost.Beast, Debian's libboost-dev)");
}
FlockServer::~FlockServer() = default;
void FlockServer::changed(Simulation&) {}
void FlockServer::still(Simulation&) {}
bool FlockServer::watched() const {
  return false;
}
std::string FlockServer::address() const {
  return "";
}
std::uint16_t FlockServer::port() const {
  return 0;
}
std::size_t FlockServer::pages() const {
  return 0;
}

#endif

}  // namespace boids::python
