// boids.Flock.serve: the flock a script steps, served to browsers as `boids serve` serves its
// own (host/serve/), so that a notebook's user watches it in another tab. The script steers:
// the pages watch. The flock tells the server whenever it is still (between stretches of
// steps, after a change); the server never touches the flock itself.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "host/core/simulation.h"

namespace boids::python {

struct ServeRequest {
  int port = 8000;  // 0: any
  std::string bind = "127.0.0.1";
  std::string token;  // "" for none; made up for an address beyond loopback
};

class FlockServer {
 public:
  // Runs its argument on the flock, held, unless the flock is in use now; says whether it ran.
  using TryHold = std::function<bool(const std::function<void(const Simulation&)>&)>;

  // Listens at once, showing `sim` (held still meanwhile); a page that asks while the flock is
  // idle gets it through `try_hold`. Throws InputError for a bad port, address or token,
  // RuntimeError for a port in use, and RuntimeError when this build has no server
  // (BOIDS_BUILD_SERVE=OFF).
  FlockServer(const Simulation& sim, const ServeRequest& request, TryHold try_hold);
  ~FlockServer();  // stops serving; the pages' connections close
  FlockServer(const FlockServer&) = delete;
  FlockServer& operator=(const FlockServer&) = delete;

  // With `sim` held still: it stepped or changed; or it is as it was.
  void changed(Simulation& sim);
  void still(Simulation& sim);
  // Whether a page has asked for a frame lately: the flock then steps in short stretches.
  bool watched() const;

  std::string address() const;  // http://ADDRESS:PORT/[?token=T]
  std::uint16_t port() const;
  std::size_t pages() const;

  struct Parts;

 private:
  std::unique_ptr<Parts> parts_;
};

}  // namespace boids::python
