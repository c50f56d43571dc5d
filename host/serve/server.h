// The HTTP and WebSocket server of `boids serve` (Boost.Beast, one I/O thread): the page's own
// files (built into the program, host/serve/page/), and at /ws a WebSocket per page over which
// the page asks for frames (binary, host/serve/frame.h) and sends its changes (JSON text,
// host/serve/messages.h), and the server sends the flock's description and metrics (text).
//
// Frames are pulled: a page asks for the next when it has drawn the last, and gets the newest
// snapshot then, so a slow page drops frames and never slows the flock or another page; a page
// takes at most the boids it asks for (a subsample beyond them). The first page connected
// steers; the others watch until it leaves. A message outside the protocol closes its page's
// connection (policy error) and harms nothing else. Bound to another address than loopback,
// every request must carry the token (`?token=` on the page's address; the page's cookie
// after that) or gets 403; no path but the page's own files is served (404).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "host/serve/frame_source.h"
#include "host/serve/picture_painter.h"

namespace boids::serve {

struct ServerOptions {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 8000;                      // 0: one the system picks
  std::string token;                              // required of every request when not empty
  PictureDevice pictures = PictureDevice::kAuto;  // where whole-flock pictures are drawn
};

class Server {
 public:
  // Listens at once: throws RuntimeError naming the address when it cannot (a port in use, an
  // address not of this machine) and InputError for an address that is not one.
  Server(const ServerOptions& options, FrameSource& source);
  ~Server();  // stops serving
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  std::uint16_t port() const;  // the port listened on

  // Serves on a thread of its own until stop() or destruction.
  void start();
  void stop();

  // For a source's news, from any thread: a new snapshot is ready; a text for every page.
  void snapshot_ready();
  void broadcast(const std::string& text);

  // Pages connected now.
  std::size_t pages() const;
  // What draws the pages' pictures ("" before the first): "the CPU", "the renderer on ...".
  std::string pictures_drawn_by() const;

  class Impl;  // the workings, in host/serve/server.cpp, where the sessions reach them

 private:
  std::unique_ptr<Impl> impl_;
};

// The token a server bound beyond loopback prints when none is given: 32 hex digits from the
// system's random source.
std::string random_token();

// Throws InputError naming `option` unless `token` is 16 to 128 letters and digits.
void check_token(const std::string& option, const std::string& token);

// `options` ready to listen: a random token for an address beyond loopback that has none.
ServerOptions with_token_if_remote(ServerOptions options);

// The address a browser opens: http://ADDRESS:PORT/, with ?token=T when there is one.
std::string page_address(const ServerOptions& options, std::uint16_t port);

// Whether `address` is a loopback address (127.0.0.0/8, ::1, "localhost").
bool is_loopback(const std::string& address);

}  // namespace boids::serve
